"""`verl-doctor env`: check this machine for verl, like `brew doctor` for a training box.

Each probe runs in a subprocess of the target interpreter (or a tool such as `nvidia-smi`)
with a timeout, concurrently; nothing heavy is imported into this process, nothing is
fixed, and nothing is written. Modules: collect (run everything), judge/versions/gpu/services
(verdicts), compat (what verl releases declare), ports, render, fusion (`explain --env`).
"""

from __future__ import annotations

import sys

from .model import EnvReport, ProbeResult

__all__ = ["EnvReport", "ProbeResult", "main", "probe"]


def probe(timeout: float = 20.0, python: str | None = None) -> tuple[EnvReport, str | None, str]:
    """Run every probe; returns (report, interpreter probed, error resolving --python)."""
    from .collect import collect
    from .judge import judge

    raw = collect(python, timeout)
    return judge(raw), raw.python, raw.python_error


def main(fmt: str, timeout: float, python: str | None) -> int:
    """The command: print the report in `fmt` (text or json); 0 no probe failed, 1 one did, 2 usage."""
    if fmt not in ("text", "json"):
        sys.stderr.write(f"verl-doctor: env: unknown format {fmt!r} (text or json)\n")
        return 2
    if not timeout > 0:
        sys.stderr.write("verl-doctor: env: --timeout must be a positive number of seconds\n")
        return 2
    if python is not None:
        from .collect import resolve_python

        exe, error = resolve_python(python)
        if exe is None:
            sys.stderr.write(f"verl-doctor: env: {error}\n")
            return 2
    report, exe, _ = probe(timeout, python)
    from . import render

    if fmt == "json":
        sys.stdout.write(render.to_json(report))
    else:
        render.write_text(report, exe, sys.stdout)
    sys.stdout.flush()
    return report.exit_code
