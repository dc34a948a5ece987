"""Every `verl-doctor explain` command shown in docs/ci.md, run as written in a CI-like
directory (a failed run's train.log, GITHUB_STEP_SUMMARY set), with its documented effect."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, isolated_env

DOC = ROOT / "docs" / "ci.md"
LOG = ROOT / "examples" / "oom-8-workers.log"


def _doc_commands() -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    fenced = re.findall(r"^\s*(?:- )?(verl-doctor explain [^\n#]*?)\s*(?:#.*)?$", text, re.M)
    inline = re.findall(r"`(verl-doctor explain [^`]+)`", text)
    commands = list(dict.fromkeys(c.strip() for c in fenced + inline))
    assert len(commands) >= 5, commands  # the examples are still there to test
    return commands


def _bin_dir(tmp: Path) -> Path:
    """Where `verl-doctor` is found: the installed console script, or a shim for this checkout."""
    installed = Path(sys.executable).with_name("verl-doctor")
    if installed.exists():
        return installed.parent
    shim_dir = tmp / "bin"
    shim_dir.mkdir()
    shim = shim_dir / "verl-doctor"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m verl_doctor "$@"\n')
    shim.chmod(0o755)
    return shim_dir


@pytest.mark.parametrize("command", _doc_commands())
def test_ci_doc_command_works_as_documented(command: str, tmp_path: Path) -> None:
    work = tmp_path / "job"
    work.mkdir()
    shutil.copy(LOG, work / "train.log")
    shutil.copy(LOG, work / "train.redacted.log")
    summary = tmp_path / "step_summary.md"
    summary.write_text("")
    env = isolated_env(tmp_path, GITHUB_STEP_SUMMARY=str(summary), GITHUB_ACTIONS="true")
    env["PATH"] = f"{_bin_dir(tmp_path)}:{env.get('PATH', '/usr/bin:/bin')}"
    proc = subprocess.run(
        ["bash", "-c", f"set -o pipefail; {command}"],
        cwd=work,
        env=env,
        capture_output=True,
        timeout=120,
    )
    assert b"Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == (0 if "--exit-zero" in command else 1), proc.stderr

    redirect = re.search(r">\s*(\S+)\s*$", command)
    output = (work / redirect.group(1)).read_text() if redirect else proc.stdout.decode()
    assert "FLOW004" in output, proc.stderr
    if "--format json" in command:
        assert json.loads(output)["findings"][0]["rule"] == "FLOW004"
    if "--format github" in command:
        lines = output.splitlines()
        assert lines and all(line.startswith("::") for line in lines)
        assert lines[0].startswith("::error title=FLOW004 cuda-out-of-memory,file=train.log,line=")

    written = summary.read_text()
    if "--no-step-summary" in command:
        assert written == ""
    else:
        assert written.startswith("## verl-doctor: `FLOW004`"), written[:200]


def _redact_commands() -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    found = re.findall(r"(verl-doctor redact [^\n#`]*?)\s*(?:#.*)?(?:`|$)", text, re.M)
    commands = list(dict.fromkeys(c.strip() for c in found))
    assert commands, "docs/ci.md shows how to keep a redacted log"
    return commands


@pytest.mark.parametrize("command", _redact_commands())
def test_ci_doc_redact_command_masks_the_log(command: str, tmp_path: Path) -> None:
    work = tmp_path / "job"
    work.mkdir()
    key = "0123456789abcdef" * 2 + "01234567"
    raw = (
        LOG.read_text() + f"(TaskRunner pid=1) wandb: ERROR Invalid API key {key}\nexport HF_TOKEN=hf_{key}\n"
    )
    (work / "train.log").write_text(raw)
    env = isolated_env(tmp_path)
    env["PATH"] = f"{_bin_dir(tmp_path)}:{env.get('PATH', '/usr/bin:/bin')}"
    proc = subprocess.run(["bash", "-c", command], cwd=work, env=env, capture_output=True, timeout=120)
    assert proc.returncode == 0 and not proc.stderr, proc.stderr
    target = re.search(r"-o\s+(\S+)", command)
    redacted = (work / target.group(1)).read_text() if target else proc.stdout.decode()
    assert key not in redacted and redacted.count("\n") == raw.count("\n")
    assert (work / "train.log").read_text() == raw  # the input is never rewritten


def test_ci_doc_uploads_no_raw_log() -> None:
    text = DOC.read_text(encoding="utf-8")
    uploaded = re.findall(r"^\s+path: \|\n((?:\s+\S+\n)+)", text, re.M) + re.findall(
        r"paths: \[([^\]]*)\]", text
    )
    files = [f.strip() for block in uploaded for f in re.split(r"[\s,]+", block) if f.strip()]
    assert files and "train.log" not in files and "train.redacted.log" in files, files
