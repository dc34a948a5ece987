"""The four categories of failure: their order, code prefixes (the rule folders are named after
the categories) and titles. Every other module reads them from here."""

from __future__ import annotations

CATEGORIES = ("env", "config", "flow", "distributed")
CODE_PREFIX = {"env": "ENV", "config": "CFG", "flow": "FLOW", "distributed": "DIST"}
CATEGORY_TITLES = {
    "en": {
        "env": "Environment: installation, versions, hardware and drivers",
        "config": "Configuration: config keys, data and model settings",
        "flow": "Training flow: rollout, memory, numerics, checkpoints",
        "distributed": "Distributed: processes, ranks, ports, Ray and NCCL",
    },
    "zh": {
        "env": "环境：安装、版本、硬件与驱动",
        "config": "配置：配置键、数据与模型设置",
        "flow": "训练流程：rollout、显存、数值、检查点",
        "distributed": "分布式：进程、rank、端口、Ray 与 NCCL",
    },
}
