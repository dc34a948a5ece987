"""`run -- CMD` and `explain --follow` as a user runs them."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

from conftest import interruptible, isolated_env

FAKE_TRAIN = r"""
import os, sys, time
print("(TaskRunner pid=4001) Training from scratch", flush=True)
print("(TaskRunner pid=4001) step:1 - actor/grad_norm:0.3 - critic/score/mean:0.4", flush=True)
print("(WorkerDict pid=4101, ip=10.0.0.3) torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.",
      file=sys.stderr, flush=True)
time.sleep(float(os.environ.get("FAKE_DELAY", "3")))
print("(WorkerDict pid=4102, ip=10.0.0.3) [rank1]:[E1 0:0:0.1 ProcessGroupNCCL.cpp:629] [Rank 1] Watchdog caught "
      "collective operation timeout: WorkNCCL(SeqNum=9, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) "
      "ran for 600017 milliseconds before timing out.", file=sys.stderr, flush=True)
print("env-check", os.environ.get("MY_MARKER"), os.getcwd(), flush=True)
sys.exit(7)
"""


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "verl_doctor", *args]


def test_run_wraps_a_training_command(tmp_path: Path) -> None:
    script = tmp_path / "train.py"
    script.write_text(FAKE_TRAIN)
    log = tmp_path / "train.log"
    log.write_text("kept from an earlier run\n")
    env = isolated_env(tmp_path, MY_MARKER="unchanged")
    work = tmp_path / "work"
    work.mkdir()
    start = time.time()
    proc = subprocess.Popen(
        _cli("run", "--log", str(log), "--", sys.executable, str(script)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd=work,
    )
    assert proc.stderr is not None and proc.stdout is not None
    early = b""
    while b"detected FLOW004" not in early and time.time() - start < 30:
        if select.select([proc.stderr], [], [], 0.2)[0]:
            early += os.read(proc.stderr.fileno(), 65536)
    announced_after = time.time() - start
    assert b"verl-doctor: detected FLOW004 cuda-out-of-memory" in early
    assert proc.poll() is None  # announced while the command still runs
    out, err = proc.communicate(timeout=60)
    err = early + err
    assert proc.returncode == 7
    assert announced_after < 3.0
    text = out.decode()
    assert "(TaskRunner pid=4001) Training from scratch" in text  # passed through unchanged
    assert f"env-check unchanged {work}" in text  # same environment and working directory
    assert "(WorkerDict pid=4101, ip=10.0.0.3) torch.OutOfMemoryError" in err.decode()
    assert b"detected FLOW002" not in early  # symptoms are not announced
    # The NCCL timeout on the other ranks echoes the out-of-memory error: one answer.
    final = err.decode().split("verl-doctor: 1 known error", 1)
    assert len(final) == 2 and "FLOW004" in final[1] and "FLOW002" not in final[1]
    kept = log.read_text()
    assert (
        kept.startswith("kept from an earlier run\n") and "Watchdog caught" in kept
    )  # appended, not clobbered


def test_run_json_report_to_file_and_signal_forwarding(tmp_path: Path) -> None:
    script = tmp_path / "sleepy.py"
    script.write_text(
        "import signal, sys, time\n"
        "signal.signal(signal.SIGTERM, lambda *a: (print('got SIGTERM', flush=True), sys.exit(5)))\n"
        "print('ready', flush=True)\n"
        "time.sleep(60)\n"
    )
    report = tmp_path / "report.json"
    proc = subprocess.Popen(
        _cli("run", "--report", str(report), "--format", "json", "--", sys.executable, str(script)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=isolated_env(tmp_path),
    )
    assert proc.stdout is not None
    assert proc.stdout.readline() == b"ready\n"
    proc.send_signal(signal.SIGTERM)
    out, _ = proc.communicate(timeout=30)
    assert b"got SIGTERM" in out
    assert proc.returncode == 5
    assert json.loads(report.read_text())["findings"] == []


def test_run_missing_command(tmp_path: Path) -> None:
    r = subprocess.run(
        _cli("run", "--", "no-such-program-xyz"), capture_output=True, env=isolated_env(tmp_path)
    )
    assert r.returncode == 127 and b"Traceback" not in r.stderr
    r = subprocess.run(_cli("run"), capture_output=True, env=isolated_env(tmp_path))
    assert r.returncode == 2


def test_follow_reports_errors_while_the_file_grows(tmp_path: Path) -> None:
    log = tmp_path / "live.log"
    log.write_text("(TaskRunner pid=1) Training from scratch\n")
    proc = subprocess.Popen(
        _cli("explain", "--follow", str(log), "--until-idle", "4", "--format", "json"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=isolated_env(tmp_path),
    )
    assert proc.stderr is not None
    time.sleep(1.0)
    with open(log, "a") as f:
        f.write("(WorkerDict pid=9) torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1 GiB.\n")
        f.flush()
    seen = b""
    deadline = time.time() + 20
    while b"detected FLOW004" not in seen and time.time() < deadline:
        if select.select([proc.stderr], [], [], 0.2)[0]:
            seen += os.read(proc.stderr.fileno(), 65536)
    assert b"detected FLOW004" in seen
    assert proc.poll() is None  # still following
    out, _ = proc.communicate(timeout=30)
    assert proc.returncode == 1
    assert json.loads(out)["findings"][0]["rule"] == "FLOW004"


def test_follow_survives_truncation_and_reports_a_hang(tmp_path: Path) -> None:
    log = tmp_path / "live.log"
    log.write_text("(TaskRunner pid=1) noise\n" * 50)
    proc = subprocess.Popen(
        _cli("explain", "--follow", str(log), "--until-idle", "3", "--format", "json"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=isolated_env(tmp_path),
    )
    time.sleep(1.0)
    log.write_text(
        "Training Progress:   1%|          | 3/435 [04:05<9:49:10, 81.83s/it]\n"
        "(TaskRunner pid=1) step:3 - actor/grad_norm:0.2\n"
    )  # truncated and rewritten
    out, _ = proc.communicate(timeout=30)
    report = json.loads(out)
    assert report["findings"] == []
    (hang,) = report["unrecognized"]
    assert hang["kind"] == "hang" and "may be hung" in hang["hint"] and "step:3" in hang["text"]


def test_follow_ctrl_c_prints_the_summary(tmp_path: Path) -> None:
    log = tmp_path / "live.log"
    log.write_text(
        "(WorkerDict pid=9) torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1 GiB.\n"
    )
    proc = subprocess.Popen(
        _cli("explain", "--follow", str(log)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=isolated_env(tmp_path),
        preexec_fn=interruptible,
    )
    assert proc.stderr is not None
    seen, deadline = b"", time.time() + 30
    while b"detected FLOW004" not in seen and time.time() < deadline:
        if select.select([proc.stderr], [], [], 0.2)[0]:
            seen += os.read(proc.stderr.fileno(), 65536)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert b"FLOW004" in out and b"Traceback" not in seen + err
