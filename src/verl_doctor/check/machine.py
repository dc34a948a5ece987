"""`check --here`: the GPUs the command asks for against the GPUs this machine has, as
`nvidia-smi` lists them (no torch import). verl's own check:
verl/single_controller/ray/base.py (0.9; verl/trainer/ppo/ray_trainer.py 0.6-0.8) _check_resource_available:
"Total available GPUs 0 is less than total desired GPUs 8"."""

from __future__ import annotations

import os
import shutil
import subprocess

from verl_doctor.check.model import COMMAND, Issue

TYPE_CHECKING = False
if TYPE_CHECKING:
    from verl_doctor.check.config import Config

CITE_GPUS = (
    "verl/single_controller/ray/base.py ResourcePoolManager._check_resource_available (0.9); "
    "verl/trainer/ppo/ray_trainer.py (0.6-0.8)"
)


def local_gpus(timeout: float = 10.0) -> list[tuple[str, int]] | None:
    """(name, memory MiB) per visible GPU; None when nvidia-smi cannot be run."""
    smi = shutil.which("nvidia-smi")
    if smi is None:
        return []
    try:
        out = subprocess.run(
            [smi, "--query-gpu=index,name,memory.total", "--format=csv,noheader,nounits"],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if out.returncode != 0:
        return []
    gpus: list[tuple[str, str, int]] = []
    for line in out.stdout.splitlines():
        cols = [c.strip() for c in line.split(",")]
        if len(cols) >= 3 and cols[2].isdigit():
            gpus.append((cols[0], cols[1], int(cols[2])))
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    if visible is not None:
        wanted = [v.strip() for v in visible.split(",") if v.strip()]
        gpus = (
            [g for g in gpus if g[0] in wanted] if all(w.isdigit() for w in wanted) else gpus[: len(wanted)]
        )
    return [(name, mem) for _, name, mem in gpus]


def check_machine(
    config: Config, gpus: list[tuple[str, int]] | None, weights: int | None = None
) -> tuple[list[Issue], dict[str, object]]:
    """The GPU count the command asks for, and whether the rollout engine's share of one GPU
    holds its shard of the weights (`weights`: bytes on disk, when the model folder is local)."""
    if gpus is None:
        return [], {"gpus": "unknown (nvidia-smi failed)"}
    per_node = config.get("trainer.n_gpus_per_node")
    nodes = config.get("trainer.nnodes")
    seen: dict[str, object] = {"count": len(gpus)}
    if gpus:
        seen["model"] = gpus[0][0]
        seen["memory_mib"] = min(m for _, m in gpus)
    if not isinstance(per_node, int) or isinstance(per_node, bool):
        return [], seen
    seen["requested"] = per_node * (nodes if isinstance(nodes, int) else 1)
    if per_node <= len(gpus):
        memory = _rollout_memory(config, gpus, weights)
        return ([memory] if memory else []), seen
    o = config.set_by.get("trainer.n_gpus_per_node")
    fix = (f"trainer.n_gpus_per_node={len(gpus)}",) if gpus else ()
    return [
        Issue(
            code="CFG003",
            override=o.text if o else f"trainer.n_gpus_per_node={per_node} (default)",
            why=f"the command asks for {per_node} GPUs per node and this machine has {len(gpus)} "
            f"(verl: Total available GPUs {len(gpus)} is less than total desired GPUs {per_node})",
            fix=fix,
            cites=(CITE_GPUS,),
            source=o.source if o else COMMAND,
            line=o.line if o else 0,
        )
    ], seen


CITE_MEMORY = (
    "vLLM vllm/v1/worker/gpu_worker.py determine_available_memory / SGLang mem-fraction-static: the "
    "engine keeps gpu_memory_utilization of each GPU for weights plus KV cache "
    "(actor_rollout_ref.rollout.gpu_memory_utilization, verl/workers/config/rollout.py)"
)


def _rollout_memory(config: Config, gpus: list[tuple[str, int]], weights: int | None) -> Issue | None:
    """The rollout engine loads its weight shard into gpu_memory_utilization x the GPU's memory
    and needs room for the KV cache besides: when the shard alone fills that share, the engine
    stops with no memory for the cache blocks (FLOW004). A warning: offloading and quantization
    change the figures."""
    util = config.get("actor_rollout_ref.rollout.gpu_memory_utilization")
    tp = config.get("actor_rollout_ref.rollout.tensor_model_parallel_size") or 1
    if not gpus or not weights or not isinstance(util, (int, float)) or not isinstance(tp, int) or tp < 1:
        return None
    share = util * min(m for _, m in gpus) * 1024 * 1024
    shard = weights / tp
    if shard < share * 0.9:
        return None
    o = config.set_by.get("actor_rollout_ref.rollout.gpu_memory_utilization") or config.set_by.get(
        "actor_rollout_ref.rollout.tensor_model_parallel_size"
    )
    gib = 1024**3
    return Issue(
        code="FLOW004",
        override=o.text if o else f"actor_rollout_ref.rollout.gpu_memory_utilization={util} (default)",
        why=(
            f"each rollout GPU would hold {shard / gib:.1f} GiB of weights "
            f"(the model's {weights / gib:.1f} GiB "
            f"over tensor parallel size {tp}) in a share of {share / gib:.1f} GiB "
            f"(gpu_memory_utilization {util} of {min(m for _, m in gpus) / 1024:.0f} GiB): no room is left "
            "for the KV cache"
        ),
        fix=(
            f"actor_rollout_ref.rollout.tensor_model_parallel_size={tp * 2}",
            "actor_rollout_ref.rollout.gpu_memory_utilization=0.8",
        ),
        cites=(CITE_MEMORY,),
        source=o.source if o else COMMAND,
        line=o.line if o else 0,
        certain=False,
    )
