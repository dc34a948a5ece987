"""`verl-doctor env` as users run it: JSON on stdout, plain text when piped, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).with_name("fixtures") / "env"))

import fakes  # noqa: E402

from conftest import isolated_env  # noqa: E402

STATUSES = {"ok", "warn", "fail", "skipped"}


def env_cmd(args: list[str], tmp_path: Path, **extra: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "verl_doctor", "env", *args],
        capture_output=True,
        env=isolated_env(tmp_path, **extra),
        cwd=tmp_path,
        timeout=180,
    )


def test_json_on_this_machine(tmp_path: Path) -> None:
    r = env_cmd(["--format", "json"], tmp_path)
    assert r.returncode in (0, 1), r.stderr
    data = json.loads(r.stdout)
    assert data["schema_version"] == 1
    names = [p["name"] for p in data["probes"]]
    assert len(names) == len(set(names)) and {"python", "verl", "torch", "ray", "port-6379"} <= set(names)
    for p in data["probes"]:
        assert set(p) == {"name", "status", "detail", "rule", "data"} and p["status"] in STATUSES
    assert data["summary"] == {s: sum(p["status"] == s for p in data["probes"]) for s in STATUSES}
    assert r.returncode == (1 if data["summary"]["fail"] else 0)


def test_text_when_piped_has_no_escapes(tmp_path: Path) -> None:
    r = env_cmd([], tmp_path, NO_COLOR="", TERM="xterm-256color")
    assert r.returncode in (0, 1), r.stderr
    assert b"\x1b" not in r.stdout
    out = r.stdout.decode()
    assert out.startswith("verl-doctor env: probing ") and "STATUS" in out and "\nsummary: " in out


def test_fake_machine_exit_code_and_stub_tools(tmp_path: Path) -> None:
    site, bin_dir = tmp_path / "site", tmp_path / "bin"
    fakes.fake_torch(site)
    fakes.broken_flash_attn(site)
    fakes.nvidia_smi(bin_dir)
    r = env_cmd(
        ["--format", "json", "--python", sys.executable, "--timeout", "30"],
        tmp_path,
        PATH=str(bin_dir),
        PYTHONPATH=str(site),
        RAY_TMPDIR=str(tmp_path / "raytmp"),
    )
    assert r.returncode == 1, r.stderr
    rows = {p["name"]: p for p in json.loads(r.stdout)["probes"]}
    assert rows["flash-attn"]["status"] == "fail" and rows["flash-attn"]["rule"] == "ENV006"
    assert rows["gpu-arch"]["status"] == "ok" and rows["nvidia-driver"]["status"] == "ok"
    assert rows["torch"]["data"]["version"] == "2.9.1+cu128"


def test_usage_errors(tmp_path: Path) -> None:
    r = env_cmd(["--python", str(tmp_path / "no-such-python")], tmp_path)
    assert r.returncode == 2 and b"no such executable" in r.stderr and not r.stdout
    r = env_cmd(["--timeout", "0"], tmp_path)
    assert r.returncode == 2 and b"--timeout" in r.stderr
