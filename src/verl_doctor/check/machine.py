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
    config: Config, gpus: list[tuple[str, int]] | None
) -> tuple[list[Issue], dict[str, object]]:
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
        return [], seen
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
