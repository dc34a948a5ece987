"""Gathering raw facts: every probe's subprocess or tool run, all at once, each with the timeout.

Nothing here judges; it only records what each run returned (a JSON payload, a tool's output,
or why there is none), for the judges in judge.py and gpu.py.
"""

from __future__ import annotations

import os
import shutil
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from verl_doctor.env import snippets
from verl_doctor.env.ports import RAY_PORTS, PortState, check_port
from verl_doctor.env.runner import CmdResult, SnippetResult, run_probe_command, run_snippet

# (label, top-level module that says "installed", module whose import loads the compiled code)
EXTENSIONS = (
    ("flash-attn", "flash_attn", "flash_attn"),
    ("vLLM kernels", "vllm", "vllm._C"),
    ("SGLang kernels", "sgl_kernel", "sgl_kernel"),
    ("Transformer Engine", "transformer_engine", "transformer_engine.pytorch"),
    ("apex", "amp_C", "amp_C"),
)
_RAY_CLUSTER_FILE = "ray_current_cluster"


@dataclass
class Raw:
    """Everything the probes saw. A SnippetResult's payload is None when its run failed."""

    python: str | None
    python_error: str = ""
    timeout: float = 20.0
    inventory: SnippetResult | None = None
    verl: SnippetResult | None = None
    torch: SnippetResult | None = None
    extensions: dict[str, SnippetResult] = field(default_factory=dict)
    smi_query: CmdResult | None = None
    smi_header: CmdResult | None = None
    ports: dict[int, PortState] = field(default_factory=dict)
    ray_evidence: list[str] = field(default_factory=list)
    ray_cli: str | None = None
    ray_status: CmdResult | None = None
    ports_error: str = ""


def resolve_python(python: str | None) -> tuple[str | None, str]:
    """(interpreter path, error): --python as given, else python3 (or python) on PATH."""
    if python:
        if os.sep in python:
            if os.path.isfile(python) and os.access(python, os.X_OK):
                return python, ""
            return None, f"--python {python}: no such executable"
        found = shutil.which(python)
        return (found, "") if found else (None, f"--python {python}: not found on PATH")
    for name in ("python3", "python"):
        found = shutil.which(name)
        if found:
            return found, ""
    return None, "no python3 on PATH"


QUERY_FIELDS = "index,name,compute_cap,driver_version,memory.total"


def _nvidia_smi(timeout: float) -> tuple[CmdResult, CmdResult | None]:
    query = run_probe_command(
        ["nvidia-smi", f"--query-gpu={QUERY_FIELDS}", "--format=csv,noheader,nounits"], timeout
    )
    if query.state == "ok" and query.returncode != 0 and "compute_cap" in query.output:
        # Drivers before ~510 do not know the compute_cap field.
        query = run_probe_command(
            [
                "nvidia-smi",
                "--query-gpu=index,name,driver_version,memory.total",
                "--format=csv,noheader,nounits",
            ],
            timeout,
        )
    if query.state != "ok" or query.returncode != 0:
        return query, None
    # The driver's CUDA version is only in the plain header.
    return query, run_probe_command(["nvidia-smi"], timeout)


def ray_executable(python: str | None) -> str | None:
    """The `ray` next to the probed interpreter (its venv), else the one on PATH."""
    if python:
        sibling = os.path.join(os.path.dirname(python), "ray")
        if os.path.isfile(sibling) and os.access(sibling, os.X_OK):
            return sibling
    return shutil.which("ray")


def _ray_evidence(ports: dict[int, PortState]) -> list[str]:
    """Reasons to think a Ray cluster is up; `ray status` is only worth running with one."""
    out = []
    if os.environ.get("RAY_ADDRESS"):
        out.append(f"RAY_ADDRESS={os.environ['RAY_ADDRESS']}")
    tmp = os.environ.get("RAY_TMPDIR") or "/tmp"
    if os.path.isfile(os.path.join(tmp, "ray", _RAY_CLUSTER_FILE)):
        out.append(f"{os.path.join(tmp, 'ray', _RAY_CLUSTER_FILE)} exists")
    if ports.get(6379) and ports[6379].in_use:
        out.append("port 6379 is in use")
    return out


def _ports_and_ray(raw: Raw) -> None:
    raw.ports = {port: check_port(port, raw.timeout) for port in RAY_PORTS}
    raw.ray_evidence = _ray_evidence(raw.ports)
    raw.ray_cli = ray_executable(raw.python)
    if raw.ray_evidence and raw.ray_cli:
        raw.ray_status = run_probe_command([raw.ray_cli, "status"], raw.timeout)


def _limited(
    gate: threading.Semaphore, python: str, code: str, timeout: float, args: tuple[str, ...] = ()
) -> SnippetResult:
    # The timeout starts when the snippet does, so waiting for a slot never counts against it.
    with gate:
        return run_snippet(python, code, timeout, args)


def collect(python: str | None, timeout: float) -> Raw:
    """Run every probe concurrently and return what they saw."""
    exe, error = resolve_python(python)
    raw = Raw(exe, error, timeout)
    # Importing torch or verl is seconds of CPU each; on a small box running them all at once
    # makes each slower than its timeout, so only a few heavy snippets run at a time.
    heavy = threading.Semaphore(max(2, (os.cpu_count() or 2) // 2))
    with ThreadPoolExecutor(max_workers=4 + len(EXTENSIONS)) as pool:
        jobs: dict[str, Future[Any]] = {
            "smi": pool.submit(_nvidia_smi, timeout),
            "ports": pool.submit(_ports_and_ray, raw),
        }
        if exe:
            jobs["inventory"] = pool.submit(run_snippet, exe, snippets.INVENTORY, timeout)
            jobs["verl"] = pool.submit(_limited, heavy, exe, snippets.VERL, timeout)
            jobs["torch"] = pool.submit(_limited, heavy, exe, snippets.TORCH, timeout)
            for label, top, module in EXTENSIONS:
                jobs["ext:" + label] = pool.submit(
                    _limited, heavy, exe, snippets.IMPORT_MODULE, timeout, (top, module)
                )
        results: dict[str, Any] = {}
        for name, job in jobs.items():
            try:
                results[name] = job.result()
            except Exception as exc:  # a bug in a probe must cost that probe only
                reason = f"internal error: {type(exc).__name__}: {exc}"
                results[name] = (
                    (CmdResult("error", reason=reason), None)
                    if name == "smi"
                    else None
                    if name == "ports"
                    else SnippetResult(None, reason)
                )
                if name == "ports":
                    raw.ports_error = reason
    raw.smi_query, raw.smi_header = results["smi"]
    raw.inventory = results.get("inventory")
    raw.verl = results.get("verl")
    raw.torch = results.get("torch")
    raw.extensions = {k[4:]: v for k, v in results.items() if k.startswith("ext:")}
    return raw
