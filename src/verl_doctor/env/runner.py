"""Running a probe's command: in its own process group, with a deadline, never raising.

A broken torch can segfault and a wedged driver can make `nvidia-smi` hang; both must cost
at most the timeout and end as a one-line reason, never as a traceback or a stalled CLI.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

# Snippets print this before their JSON so packages that print on import cannot confuse the parser.
MARKER = "@@verl-doctor-probe@@ "
_OUTPUT_LIMIT = 1 << 20


@dataclass(frozen=True)
class CmdResult:
    """What a command did. `state` is ok (it exited, any code), missing, timeout or error."""

    state: str
    returncode: int | None = None
    stdout: str = ""
    stderr: str = ""
    seconds: float = 0.0
    reason: str = ""

    @property
    def output(self) -> str:
        return (self.stdout + "\n" + self.stderr).strip()


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (OSError, AttributeError):
        with contextlib.suppress(OSError):
            proc.kill()


def _decode(data: bytes | None) -> str:
    return (data or b"")[:_OUTPUT_LIMIT].decode("utf-8", "replace")


def run_probe_command(
    argv: Sequence[str], timeout: float, cwd: str | None = None, env: dict[str, str] | None = None
) -> CmdResult:
    """Run `argv` with stdin closed and output captured; kill its whole process group at `timeout`."""
    exe = argv[0]
    if os.sep not in exe and shutil.which(exe, path=(env or os.environ).get("PATH")) is None:
        return CmdResult("missing", reason=f"{exe} not found on PATH")
    start = time.monotonic()
    try:
        proc = subprocess.Popen(
            list(argv),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            env=env,
            start_new_session=True,
        )
    except FileNotFoundError:
        return CmdResult("missing", reason=f"{exe} not found")
    except OSError as exc:
        return CmdResult("error", reason=f"cannot run {exe}: {exc.strerror or exc}")
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        try:
            # A process stuck in the kernel (a hung driver) may not die; do not wait for it.
            out, err = proc.communicate(timeout=1.0)
        except subprocess.TimeoutExpired:
            out, err = b"", b""
        return CmdResult(
            "timeout",
            proc.returncode,
            _decode(out),
            _decode(err),
            time.monotonic() - start,
            f"no answer within {timeout:g}s",
        )
    return CmdResult("ok", proc.returncode, _decode(out), _decode(err), time.monotonic() - start)


@dataclass(frozen=True)
class SnippetResult:
    """A snippet's JSON payload, or why there is none (`reason`, one line)."""

    payload: dict[str, Any] | None
    reason: str = ""
    cmd: CmdResult | None = None


def _signal_name(code: int) -> str:
    try:
        return signal.Signals(-code).name
    except ValueError:
        return f"signal {-code}"


def last_line(text: str) -> str:
    """The last non-empty line of `text` (where Python puts the exception)."""
    lines = [x.strip() for x in text.splitlines() if x.strip()]
    return lines[-1] if lines else ""


def run_snippet(python: str, code: str, timeout: float, args: Sequence[str] = ()) -> SnippetResult:
    """Run `python -c code args...` in the current directory and parse the JSON it prints last."""
    cmd = run_probe_command([python, "-c", code, *args], timeout)
    if cmd.state != "ok":
        return SnippetResult(None, cmd.reason, cmd)
    for line in reversed(cmd.stdout.splitlines()):
        if line.startswith(MARKER):
            try:
                payload = json.loads(line[len(MARKER) :])
            except ValueError:
                break
            if isinstance(payload, dict):
                return SnippetResult(payload, "", cmd)
            break
    rc = cmd.returncode or 0
    if rc < 0:
        return SnippetResult(None, f"crashed with {_signal_name(rc)}", cmd)
    tail = last_line(cmd.stderr) or last_line(cmd.stdout)
    return SnippetResult(None, f"exited with code {rc}" + (f": {tail}" if tail else ""), cmd)
