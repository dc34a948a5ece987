"""The CLI as users run it: stdin, files, '-', gzip, several files, paste at a terminal,
the JSON contract and every exit code."""

from __future__ import annotations

import gzip
import json
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT, isolated_env

OOM = (
    b"(WorkerDict pid=1201, ip=10.0.0.1) torch.OutOfMemoryError: CUDA out of memory. Tried to allocate "
    b"2.00 GiB. GPU 0 has a total capacity of 79.25 GiB of which 1.00 GiB is free.\n"
)
UNKNOWN = b"(TaskRunner pid=7) RuntimeError: the frobnicator refused to start\n"
HEALTHY = b"(TaskRunner pid=7) step:3 - actor/grad_norm:0.21 - critic/score/mean:0.5\n"


def test_stdin_pipe_known_error(run_cli) -> None:
    r = run_cli(["explain"], stdin=OOM)
    assert r.returncode == 1, r.stderr
    out = r.stdout.decode()
    assert "FLOW004" in out and "cuda-out-of-memory" in out
    assert "<stdin>:1" in out  # evidence with its line number
    assert "actor_rollout_ref.rollout.gpu_memory_utilization=" in out  # a fix command


def test_file_and_dash_and_gzip(run_cli, tmp_path: Path) -> None:
    plain = tmp_path / "a.log"
    plain.write_bytes(HEALTHY + UNKNOWN)
    packed = tmp_path / "b.log.gz"
    packed.write_bytes(gzip.compress(HEALTHY * 3 + OOM))
    r = run_cli(["explain", "--format", "json", str(plain), "-", str(packed)], stdin=HEALTHY)
    assert r.returncode == 1, r.stderr
    report = json.loads(r.stdout)
    assert report["sources"] == [str(plain), "<stdin>", str(packed)]
    (finding,) = report["findings"]
    assert finding["rule"] == "FLOW004" and finding["source"] == str(packed) and finding["first_line"] == 4
    assert report["unrecognized"][0]["source"] == str(plain)


def test_gzip_detected_by_content_not_name(run_cli, tmp_path: Path) -> None:
    odd = tmp_path / "train.out"
    odd.write_bytes(gzip.compress(OOM))
    r = run_cli(["explain", "--format", "json", str(odd)])
    assert [f["rule"] for f in json.loads(r.stdout)["findings"]] == ["FLOW004"]


def test_python_dash_m_works_the_same(tmp_path: Path) -> None:
    r = subprocess.run(
        [sys.executable, "-m", "verl_doctor", "explain", "--format", "json"],
        input=OOM,
        capture_output=True,
        env=isolated_env(tmp_path),
        timeout=60,
    )
    assert r.returncode == 1 and json.loads(r.stdout)["findings"][0]["rule"] == "FLOW004"


def test_json_contract(run_cli) -> None:
    r = run_cli(["explain", "--format", "json"], stdin=OOM + UNKNOWN)
    report = json.loads(r.stdout)  # exactly one JSON object, nothing else on stdout
    assert report["schema_version"] == 1
    f = report["findings"][0]
    for key in (
        "rule",
        "name",
        "title",
        "category",
        "symptom",
        "first_line",
        "count",
        "evidence",
        "cause",
        "fixes",
        "confidence",
        "workers",
    ):
        assert key in f, key
    assert set(f["evidence"][0]) >= {"source", "line", "text"}
    assert set(f["fixes"][0]) >= {"step", "commands"} and isinstance(f["fixes"][0]["commands"], list)
    assert f["workers"] == [{"actor": "WorkerDict", "pid": 1201, "ip": "10.0.0.1", "rank": None}]
    u = report["unrecognized"][0]
    assert set(u) >= {"source", "line", "text"} and u["line"] == 2


def test_exit_codes(run_cli, tmp_path: Path) -> None:
    assert run_cli(["explain"], stdin=HEALTHY).returncode == 0
    assert run_cli(["explain"], stdin=OOM).returncode == 1
    assert run_cli(["explain"], stdin=UNKNOWN).returncode == 3
    missing = run_cli(["explain", str(tmp_path / "nope.log")])
    assert missing.returncode == 2
    assert missing.stderr.decode().strip().count("\n") == 0 and "nope.log" in missing.stderr.decode()
    assert b"Traceback" not in missing.stderr
    assert run_cli(["explain", "--format", "yaml"]).returncode == 2  # usage error
    assert run_cli(["explain", "--exit-zero"], stdin=OOM).returncode == 0
    assert run_cli(["explain", "--fail-on", "known"], stdin=UNKNOWN).returncode == 0
    assert run_cli(["explain", "--fail-on", "unrecognized"], stdin=OOM).returncode == 0
    assert run_cli(["explain", "--fail-on", "unrecognized"], stdin=UNKNOWN).returncode == 3


def test_nothing_found_says_so_in_one_line(run_cli) -> None:
    r = run_cli(["explain"], stdin=HEALTHY)
    assert r.stdout.decode().strip().count("\n") == 0
    assert "no error found" in r.stdout.decode()


def test_unrecognized_exception_is_shown(run_cli) -> None:
    r = run_cli(["explain"], stdin=UNKNOWN)
    out = r.stdout.decode()
    assert "not recognized" in out and "the frobnicator refused to start" in out


def test_some_inputs_unreadable_others_reported(run_cli, tmp_path: Path) -> None:
    good = tmp_path / "good.log"
    good.write_bytes(OOM)
    r = run_cli(["explain", str(tmp_path / "missing.log"), str(good)])
    assert r.returncode == 1
    assert "FLOW004" in r.stdout.decode() and "missing.log" in r.stderr.decode()


def test_paste_at_a_terminal(tmp_path: Path) -> None:
    """With a terminal on stdin and nothing piped, a prompt asks for the paste; Ctrl-D ends it."""
    pid, fd = pty.fork()
    if pid == 0:  # child: stdin/stdout/stderr are the pty
        os.chdir(tmp_path)
        env = isolated_env(tmp_path)
        os.execve(sys.executable, [sys.executable, "-m", "verl_doctor", "explain"], env)
    out = b""
    deadline = time.time() + 30
    while b"Ctrl-D" not in out and time.time() < deadline:
        if select.select([fd], [], [], 0.5)[0]:
            out += os.read(fd, 4096)
    assert b"Paste the log" in out
    os.write(fd, OOM.replace(b"\n", b"\r") + b"\r")
    time.sleep(0.3)
    os.write(fd, b"\x04")
    while time.time() < deadline:
        if select.select([fd], [], [], 0.5)[0]:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
        else:
            _, status = os.waitpid(pid, os.WNOHANG)
            if _:
                break
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass
    assert b"FLOW004" in out, out[-500:]


def test_text_output_has_no_escape_codes_when_piped(run_cli) -> None:
    r = run_cli(["explain"], stdin=OOM, env={"NO_COLOR": ""})
    assert b"\x1b" not in r.stdout


def test_shipped_example_log(run_cli) -> None:
    r = run_cli(["explain", "--format", "json", str(ROOT / "examples" / "oom-8-workers.log")])
    report = json.loads(r.stdout)
    assert report["findings"][0]["rule"] == "FLOW004"
    assert report["findings"][0]["count"] == 8


@pytest.mark.parametrize(
    ("args", "where", "says"),
    [
        (["rules", "--bogus"], "verl-doctor rules", "No such option: --bogus"),
        (["rules", "show"], "verl-doctor rules show", "Missing argument"),
        (["env", "--timeout", "soon"], "verl-doctor env", "--timeout"),
        (["env", "--format", "yaml"], "verl-doctor env", "yaml"),
        (["nosuch"], "verl-doctor", "No such command 'nosuch'"),
        (["explain", "--format", "yaml"], "verl-doctor explain", "yaml"),
    ],
)
def test_every_command_reports_a_usage_error_in_one_line(run_cli, args, where, says) -> None:
    r = run_cli(args)
    err = r.stderr.decode()
    assert r.returncode == 2 and not r.stdout
    assert err.count("\n") == 1 and err.startswith(f"{where}: error: ") and says in err, err
    assert err.rstrip().endswith("--help)") and "Traceback" not in err


def test_commands_keep_their_exit_codes(run_cli) -> None:
    assert run_cli(["rules", "show", "NOPE"]).returncode == 2
    assert run_cli(["run"]).returncode == 2
    assert run_cli(["run", "--", sys.executable, "-c", "raise SystemExit(7)"]).returncode == 7
    assert run_cli(["rules", "show", "FLOW004"]).returncode == 0
    bare = run_cli([])  # no command: the help, as a usage error
    assert bare.returncode == 2 and b"Commands:" in bare.stderr


VLLM_SERVE_REFUSAL = (
    "$ vllm serve /data/models/Qwen2.5-7B-Instruct --tensor-parallel-size 2 --enable-expert-parallel\n"
    "INFO 10-11 07:52:18 [api_server.py:1885] vLLM API server version 0.11.0\n"
    "Traceback (most recent call last):\n"
    '  File "/usr/local/bin/vllm", line 10, in <module>\n'
    "    sys.exit(main())\n"
    '  File "/usr/local/lib/python3.12/dist-packages/vllm/engine/arg_utils.py", line 1180, in create_engine_config\n'
    "    raise ValueError(\n"
    "ValueError: Invalid data-parallel launch options: `--data-parallel-hybrid-lb` and "
    "`--data-parallel-external-lb` cannot be enabled together.\n"
)


def test_an_engine_served_on_its_own_is_not_read_as_verls_config(run_cli) -> None:
    """`vllm serve` refusing its own flags, with nothing of verl in the log: no verl setting to
    name (exit 3, the error listed as not recognized); the same refusal after a verl command is
    the run's setting (exit 1)."""
    alone = run_cli(["explain", "--format", "json"], stdin=VLLM_SERVE_REFUSAL.encode())
    assert alone.returncode == 3, alone.stderr
    report = json.loads(alone.stdout)
    assert report["findings"] == []
    assert report["unrecognized"][0]["exception"] == "ValueError"
    in_verl = "$ python3 -m verl.trainer.main_ppo actor_rollout_ref.rollout.name=vllm\n" + VLLM_SERVE_REFUSAL
    run = run_cli(["explain", "--format", "json"], stdin=in_verl.encode())
    assert run.returncode == 1
    assert json.loads(run.stdout)["findings"][0]["rule"] == "CFG014"
