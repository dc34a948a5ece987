"""Hostile and broken input: never crash, never lie, never let a log take over the terminal."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import MARKUP, TERMINAL_ATTACKS, interruptible, isolated_env
from verl_doctor.engine import inputs as sources
from verl_doctor.engine.session import diagnose_text
from verl_doctor.render import github, json_out, markdown
from verl_doctor.render.layout import build, to_plain

OOM = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB."
NASTY = TERMINAL_ATTACKS


def _hostile_log() -> str:
    lines = [f"(WorkerDict pid=1) RuntimeError: weird {n} end" for n in NASTY + MARKUP]
    lines.append(f"(WorkerDict pid=2) {OOM} {' '.join(NASTY + MARKUP)}")
    return "\n".join(lines) + "\n"


def _no_terminal_control(out: str) -> None:
    for seq in ("\x1b]", "\x1bP", "\x1b[?1049h", "\x1b[2J", "\x1b[6n", "\x9b", "\x00", "\u202e", "\x1b[5A"):
        assert seq not in out, repr(seq)


def test_plain_text_has_no_escape_at_all(run_cli) -> None:
    r = run_cli(["explain"], stdin=_hostile_log().encode())
    out = r.stdout.decode()
    assert r.returncode == 1
    assert "\x1b" not in out and "\x9b" not in out and "\x00" not in out and "\u202e" not in out
    assert "\\u202e" in out  # shown visibly instead


def test_rich_terminal_output_shows_markup_literally(run_cli) -> None:
    r = run_cli(
        ["explain", "--color", "always"], stdin=_hostile_log().encode(), env={"NO_COLOR": "", "TERM": "xterm"}
    )
    assert r.returncode == 1, r.stderr
    out = r.stdout.decode()
    _no_terminal_control(out)
    for text in ("[bold red]boom[/bold red]", "[/]", "list[str]", ":thumbs_up:"):
        assert text in out, text
    assert b"Traceback" not in r.stderr


def test_markdown_and_github_escape_what_they_need() -> None:
    report = diagnose_text(
        _hostile_log()
        + "(WorkerDict pid=3) RuntimeError: ```\n<script>alert(1)</script> | *x* %0A::error::\n"
    )
    md = markdown.render(report)
    _no_terminal_control(md)
    assert "<script>" not in md.replace("```", "") or "\\<script\\>" in md or "```" in md
    gh = github.render(report)
    _no_terminal_control(gh)
    for line in gh.splitlines():
        assert line.startswith("::")
        assert "\n" not in line and "\r" not in line
    assert "%25" in gh or "%" not in gh.replace("%0A", "").replace("%25", "").replace("%3A", "").replace(
        "%2C", ""
    )


@pytest.mark.parametrize(
    "data",
    [
        b"\xff\xfe\x00garbage\x80\x81 " + OOM.encode() + b"\n",
        OOM.encode() + b"\x00\x00\n",
        b"line one\rline two\r" + OOM.encode() + b"\r",
        b"",
    ],
)
def test_bad_bytes_never_crash(run_cli, data: bytes) -> None:
    r = run_cli(["explain", "--format", "json"], stdin=data)
    assert r.returncode in (0, 1), r.stderr
    report = json.loads(r.stdout)
    assert (report["findings"] != []) == (b"out of memory" in data)
    assert b"Traceback" not in r.stderr


def test_200mb_line_without_newline(run_cli, tmp_path: Path) -> None:
    big = tmp_path / "one-line.log"
    with open(big, "wb") as f:
        chunk = b"x" * (1024 * 1024)
        for i in range(200):
            f.write(chunk)
            if i == 150:
                f.write(OOM.encode())
    r = run_cli(["explain", "--format", "json", str(big)], timeout=120)
    assert r.returncode == 1, r.stderr
    assert json.loads(r.stdout)["findings"][0]["rule"] == "FLOW004"


def test_closed_stdin(tmp_path: Path) -> None:
    r = subprocess.run(
        f'"{sys.executable}" -m verl_doctor explain <&-',
        shell=True,
        capture_output=True,
        env=isolated_env(tmp_path),
        timeout=60,
    )
    assert r.returncode == 2
    assert r.stderr.decode().strip() == "verl-doctor: stdin is closed"


def test_directory_missing_and_binary_files(run_cli, tmp_path: Path) -> None:
    binary = tmp_path / "model.bin"
    binary.write_bytes(b"\x7fELF\x02\x01\x01" + bytes(range(256)) * 40)
    good = tmp_path / "good.log"
    good.write_text(OOM + "\n")
    r = run_cli(["explain", str(tmp_path), str(tmp_path / "missing.log"), str(binary), str(good)])
    err = r.stderr.decode().strip().splitlines()
    assert r.returncode == 1 and "FLOW004" in r.stdout.decode()
    assert any("is a directory" in e for e in err)
    assert any("missing.log" in e and "no such file" in e for e in err)
    assert any("binary file, skipped" in e for e in err)
    assert b"Traceback" not in r.stderr
    only_unreadable = run_cli(["explain", str(tmp_path), str(binary)])
    assert only_unreadable.returncode == 2


def test_binary_flag_reads_it_anyway(run_cli, tmp_path: Path) -> None:
    binary = tmp_path / "dump.bin"
    binary.write_bytes(b"\x00\x01\x02\x03" * 1000 + b"\n" + OOM.encode() + b"\n")
    assert run_cli(["explain", str(binary)]).returncode == 2
    assert run_cli(["explain", "--binary", str(binary)]).returncode == 1


def test_permission_denied_is_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    target = tmp_path / "secret.log"
    target.write_text("x")

    def deny(*_a: object, **_k: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("builtins.open", deny)
    with pytest.raises(sources.InputError) as err:
        sources.open_path(str(target))
    assert str(err.value) == f"{target}: permission denied"


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_permission_denied_cli(run_cli, tmp_path: Path) -> None:
    target = tmp_path / "secret.log"
    target.write_text(OOM)
    target.chmod(0)
    r = run_cli(["explain", str(target)])
    assert r.returncode == 2 and "permission denied" in r.stderr.decode()


@pytest.mark.parametrize("lang", [None, "C", "en_US.UTF-8", "zh_CN.UTF-8", "POSIX"])
def test_any_locale(run_cli, lang: str | None) -> None:
    env = {"LANG": lang, "LC_ALL": lang} if lang else {}
    if lang is None:
        env["PYTHONIOENCODING"] = ""
    r = run_cli(["explain"], stdin=(OOM + " 显存 ✓\n").encode(), env=env)
    assert r.returncode == 1, r.stderr
    assert b"Traceback" not in r.stderr


def test_stdout_into_head(tmp_path: Path) -> None:
    log = tmp_path / "x.log"
    log.write_text((OOM + "\n") * 3 + "(TaskRunner pid=1) RuntimeError: other\n")
    r = subprocess.run(
        f'"{sys.executable}" -m verl_doctor explain "{log}" | head -1',
        shell=True,
        capture_output=True,
        env=isolated_env(tmp_path),
        timeout=60,
    )
    assert r.stdout.count(b"\n") == 1
    assert b"Traceback" not in r.stderr and b"BrokenPipe" not in r.stderr


def test_ctrl_c_mid_match_exits_130(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "verl_doctor", "explain"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=isolated_env(tmp_path),
        preexec_fn=interruptible,
    )
    assert proc.stdin is not None
    line = (f"(WorkerDict pid=1) {OOM}\n" * 2000).encode()
    for _ in range(20):
        proc.stdin.write(line)
    proc.stdin.flush()
    time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    try:
        proc.stdin.close()
    except BrokenPipeError:
        pass
    proc.wait(timeout=60)
    assert proc.stderr is not None
    err = proc.stderr.read()
    assert proc.returncode == 130
    assert b"Traceback" not in err and b"KeyboardInterrupt" not in err


def test_user_rule_with_catastrophic_regex_cannot_hang(run_cli, tmp_path: Path) -> None:
    rules = tmp_path / "team-rules" / "flow"
    rules.mkdir(parents=True)
    (rules / "FLOW901-slow-pattern.yaml").write_text("""
id: FLOW901
name: slow-pattern
category: flow
title: {en: slow, zh: 慢}
signatures: ['boom(a|aa)+$']
cause: {en: c, zh: 原因}
fixes: [{step: {en: s, zh: 步骤}, commands: []}]
references: [x]
examples: {match: ['boomaa'], no_match: ['nothing']}
""")
    text = ("boom" + "a" * 3000 + "b\n").encode() + (OOM + "\n").encode()
    start = time.time()
    r = run_cli(["explain", "--format", "json", "--rules", str(tmp_path / "team-rules")], stdin=text)
    assert time.time() - start < 30
    assert (
        b"FLOW901" in r.stderr and b"not loaded (--allow-slow-rules loads it)" in r.stderr
    )  # lint's verdict
    start = time.time()
    flags = ["--allow-slow-rules", "--rules", str(tmp_path / "team-rules")]
    r = run_cli(["explain", "--format", "json", *flags], stdin=text)
    assert time.time() - start < 30
    report = json.loads(r.stdout)
    assert report["findings"][0]["rule"] == "FLOW004"
    assert any(n.startswith("rule FLOW901 (") and "timed out on line 1" in n for n in report["notes"])
    lint = run_cli(["rules", "lint", str(tmp_path / "team-rules")])
    assert lint.returncode == 1 and b"catastrophic" in lint.stdout


def test_bad_rule_files_are_one_line_each_and_skipped(run_cli, tmp_path: Path) -> None:
    d = tmp_path / "bad"
    d.mkdir()
    (d / "FLOW902-yaml-error.yaml").write_text("id: FLOW902\nname: [unclosed\n")
    (d / "FLOW903-unknown-field.yaml").write_text(
        "id: FLOW903\nname: unknown-field\ncategory: flow\ntitle: t\nsignatures: ['zzz']\ncause: c\n"
        "fixes: [{step: s}]\nreferences: [r]\nexamples: {match: [zzz], no_match: [y]}\ncolour: red\n"
    )
    (d / "FLOW904-bad-regex.yaml").write_text(
        "id: FLOW904\nname: bad-regex\ncategory: flow\ntitle: t\nsignatures: ['abc(']\ncause: c\n"
        "fixes: [{step: s}]\nreferences: [r]\nexamples: {match: [abc], no_match: [y]}\n"
    )
    (d / "FLOW905-dup.yaml").write_text(
        "id: FLOW904\nname: dup\ncategory: flow\ntitle: t\nsignatures: ['abcd']\ncause: c\n"
        "fixes: [{step: s}]\nreferences: [r]\nexamples: {match: [abcd], no_match: [y]}\n"
    )
    r = run_cli(["explain", "--rules", str(d)], stdin=(OOM + "\n").encode())
    assert r.returncode == 1 and "FLOW004" in r.stdout.decode()  # the rest still run
    err = r.stderr.decode().splitlines()
    assert any("FLOW902-yaml-error.yaml:3" in e and "YAML syntax error" in e and "line 2" in e for e in err)
    assert any(
        "FLOW903-unknown-field.yaml:10" in e and "field colour" in e and "unknown field" in e for e in err
    )
    assert any("FLOW904-bad-regex.yaml:5" in e and "signatures.0" in e and "bad regex" in e for e in err)
    assert b"Traceback" not in r.stderr
    lint = run_cli(["rules", "lint", str(d)])
    assert lint.returncode == 1
    lines = lint.stdout.decode().splitlines()
    assert any("FLOW905-dup.yaml" in ln for ln in lines)
    assert all(": " in ln for ln in lines)


def test_nothing_is_written_and_no_command_is_run(run_cli, tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    log = work / "train.log"
    log.write_text(OOM + "\nCould not override 'x.y'.\n")
    before = {p: p.stat().st_mtime_ns for p in work.rglob("*")}
    r = run_cli(["explain", str(log)], cwd=work, env={"PATH": str(tmp_path / "empty-bin")})
    assert r.returncode == 1
    after = {p: p.stat().st_mtime_ns for p in work.rglob("*")}
    assert before == after  # the input untouched, nothing new next to it


def test_renderers_on_a_hostile_report_in_process() -> None:
    report = diagnose_text(_hostile_log())
    plain = to_plain(build(report))
    assert "\x1b" not in plain and "\x00" not in plain
    json.loads(json_out.render(report))
