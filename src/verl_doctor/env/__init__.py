"""`verl-doctor env`: check this machine for verl, like `brew doctor` for a training box.

Each probe runs in a subprocess of the target interpreter (or a tool such as `nvidia-smi`)
with a timeout, concurrently; nothing heavy is imported into this process, nothing is
fixed, and nothing is written. Modules: collect (run everything), judge/pins/gpu/services
(verdicts), compat (what verl releases declare), ports, render, fusion (`explain --env`).
"""

from __future__ import annotations

from verl_doctor.env.model import EnvReport, ProbeResult

__all__ = ["EnvReport", "ProbeResult", "probe"]


def probe(timeout: float = 20.0, python: str | None = None) -> tuple[EnvReport, str | None, str]:
    """Run every probe; returns (report, interpreter probed, error resolving --python)."""
    from verl_doctor.env.collect import collect
    from verl_doctor.env.judge import judge

    raw = collect(python, timeout)
    return judge(raw), raw.python, raw.python_error
