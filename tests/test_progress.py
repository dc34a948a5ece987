"""The progress line: on a terminal's stderr while a long input is read, never in pipes, CI or
JSON output, and erased before the report."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import isolated_env

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")

LINE = (
    "(WorkerDict pid={pid}, ip=10.0.0.1) [rank{rank}]:[W1203 10:00:00.000000000 ProcessGroupNCCL.cpp:4561] "
    "[PG ID 0 PG GUID 0 Rank {rank}]  using GPU {rank} to perform barrier as devices used by this "
    "process are currently unknown. This can potentially cause a hang.\n"
)


def _log(tmp_path: Path) -> Path:
    """A log of a few blocks (the progress line is redrawn after each)."""
    path = tmp_path / "train.log"
    body = "".join(LINE.format(pid=1000 + i, rank=i % 8) for i in range(400))
    filler = "INFO step done, nothing to see here\n" * 200_000
    path.write_text(filler + body + filler + "torch.OutOfMemoryError: CUDA out of memory.\n")
    return path


def _run_with_terminal_stderr(args: list[str], tmp_path: Path, **env: str) -> tuple[bytes, bytes]:
    """Run the CLI with stderr on a pseudo-terminal; (stdout, what the terminal received)."""
    leader, follower = pty.openpty()
    environ = isolated_env(tmp_path, VERL_DOCTOR_PROGRESS_DELAY="0", **env)
    if "CI" not in env:
        environ.pop("CI", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "verl_doctor", *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=follower,
        env=environ,
        cwd=tmp_path,
    )
    os.close(follower)
    out = proc.stdout.read() if proc.stdout else b""
    proc.wait(timeout=120)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal's other end is closed: all was read
            break
        if not chunk:
            break
        seen += chunk
    os.close(leader)
    return out, seen


def test_progress_on_a_terminal_then_erased(tmp_path: Path) -> None:
    log = _log(tmp_path)
    out, seen = _run_with_terminal_stderr(["explain", str(log)], tmp_path)
    assert b"read," in seen and b"/s," in seen and b"so far" in seen
    assert seen.rstrip(b"\r\n").endswith(b"\r\x1b[K")  # the last thing drawn erases the line
    assert b"FLOW004" in out and b"so far" not in out


@pytest.mark.parametrize(
    ("args", "env"),
    [
        (["--format", "json"], {}),
        ([], {"CI": "true"}),
    ],
    ids=["json", "ci"],
)
def test_no_progress_in_json_or_ci(tmp_path: Path, args: list[str], env: dict[str, str]) -> None:
    log = _log(tmp_path)
    out, seen = _run_with_terminal_stderr(["explain", *args, str(log)], tmp_path, **env)
    assert b"so far" not in seen and b"so far" not in out
    assert b"FLOW004" in out


def test_no_progress_into_a_pipe(tmp_path: Path) -> None:
    log = _log(tmp_path)
    env = isolated_env(tmp_path, VERL_DOCTOR_PROGRESS_DELAY="0")
    proc = subprocess.run(
        [sys.executable, "-m", "verl_doctor", "explain", str(log)],
        capture_output=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    assert b"so far" not in proc.stderr and b"so far" not in proc.stdout
    assert b"FLOW004" in proc.stdout
