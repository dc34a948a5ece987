"""Property-based tests: arbitrary bytes and text through the scanner, normalizer, matcher and
every renderer. Whatever a log holds, verl-doctor must not raise, must produce valid JSON, must
keep terminal control sequences out of its output, and must not depend on how the input was
split into blocks.

HYPOTHESIS_PROFILE=thorough runs ten times more cases than the default.
"""

from __future__ import annotations

import io
import json
import os
import re

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from conftest import MARKUP, TERMINAL_ATTACKS
from verl_doctor.catalog.load import Catalog, load_catalog
from verl_doctor.cli import commands
from verl_doctor.cli.app import run_app
from verl_doctor.cli.options import CHECK, EXPLAIN, Command, Values, parse_fast
from verl_doctor.engine.normalize import normalize, strip_ansi
from verl_doctor.engine.redact import redact_report
from verl_doctor.engine.session import Session
from verl_doctor.render import github, json_out, markdown
from verl_doctor.render.layout import build, to_plain
from verl_doctor.render.terminal import write

settings.register_profile(
    "default", max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "thorough", max_examples=1200, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

_CATALOG: Catalog | None = None


def catalog() -> Catalog:
    global _CATALOG
    if _CATALOG is None:
        _CATALOG = load_catalog(include_user=False, use_cache=False)
    return _CATALOG


# Pieces real logs are made of, and pieces hostile ones add.
KNOWN_ERRORS = [
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.",
    "ModuleNotFoundError: No module named 'verl'",
    "[rank3]:[E809 14:59:30.411244289 ProcessGroupNCCL.cpp:629] [Rank 3] Watchdog caught collective "
    "operation timeout: WorkNCCL(SeqNum=12, OpType=ALLREDUCE) ran for 600000 milliseconds before timing out.",
    "ValueError: Total available GPUs 4 is less than total desired GPUs 8.",
    "RuntimeError: CUDA error: no kernel image is available for execution on the device",
    "torch.distributed.DistNetworkError: The server socket has failed to listen on any local network "
    "address. port: 29500, useIPv6: false, code: -98, name: EADDRINUSE, message: address already in use",
    "ray.exceptions.RayTaskError(ValueError): ray::WorkerDict.actor_rollout_generate_sequences()",
    "ValueError: Default process group has not been initialized, please make sure to call "
    "init_process_group.",
    "Traceback (most recent call last):",
    '  File "/opt/verl/verl/workers/fsdp_workers.py", line 812, in update_actor',
    "SomeUnheardOfError: the flux capacitor is out of sync",
    "Error executing job with overrides: ['trainer.n_gpus_per_node=8']",
]
PREFIXES = [
    "",
    "(WorkerDict pid=1201, ip=10.0.0.1) ",
    "(TaskRunner pid=77) ",
    "(vLLMHttpServer pid=65944) (Worker_TP1 pid=67809) ERROR 05-19 13:26:50 [multiproc_executor.py:962] ",
    "\x1b[36m(WorkerDict pid=9)\x1b[0m ",
    '"2025-08-07T21:02:33+08:00" ',
]
HOSTILE = [
    *TERMINAL_ATTACKS,
    *MARKUP,
    "\u2066",
    "`",
    "```",
    "<details>",
    "%0A::error::x",
    " [repeated 7x across cluster]",
    "\r",
    "\t",
]
LINE_ENDINGS = ["\n", "\r\n", "\r", "\n\n"]

fragment = st.one_of(
    st.sampled_from(KNOWN_ERRORS),
    st.sampled_from(HOSTILE),
    st.text(max_size=40),
    st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x9F), max_size=20),
)
log_line = st.builds(
    lambda prefix, parts: prefix + "".join(parts),
    st.sampled_from(PREFIXES),
    st.lists(fragment, min_size=1, max_size=4),
)
log_text = st.builds(
    lambda lines, ends: "".join(line + ends[i % len(ends)] for i, line in enumerate(lines)),
    st.lists(log_line, max_size=25),
    st.lists(st.sampled_from(LINE_ENDINGS), min_size=1, max_size=4),
)
log_bytes = st.one_of(
    log_text.map(lambda t: t.encode("utf-8", "surrogatepass")),
    st.binary(max_size=2048),
    st.builds(
        lambda a, b, c: a + b + c, log_text.map(str.encode), st.binary(max_size=256), log_text.map(str.encode)
    ),
)

# Only the colour sequences rich emits for our own styles may reach a terminal.
_OWN_SGR = re.compile(r"\x1b\[[0-9;]*m")
_FORBIDDEN = ("\x1b", "\x9b", "\x00", "\u202e", "\u2066", "\x07")


def _analyze(data: bytes, cuts: list[int]) -> object:
    session = Session(catalog(), "en", read_binary=True)
    scanner = session.scanner("<prop>")
    bounds = sorted({min(c, len(data)) for c in cuts} | {0, len(data)})
    for start, end in zip(bounds, bounds[1:], strict=False):
        session.feed(scanner, data[start:end])
    session.finish(scanner)
    return session.report()


def _summary(report: object) -> list[tuple[object, ...]]:
    return [
        (f.rule, f.count, f.first_line, tuple(e.line for e in f.evidence))
        for f in report.findings  # type: ignore[attr-defined]
    ] + [(u.text, u.line) for u in report.unrecognized]  # type: ignore[attr-defined]


def _check_renderers(report: object) -> None:
    for candidate in (report, redact_report(report)):
        doc = json.loads(json_out.render(candidate))  # type: ignore[arg-type]
        assert isinstance(doc["findings"], list)
        plain = to_plain(build(candidate))  # type: ignore[arg-type]
        md = markdown.render(candidate)  # type: ignore[arg-type]
        gh = github.render(candidate)  # type: ignore[arg-type]
        for out in (plain, md, gh):
            for seq in _FORBIDDEN:
                assert seq not in out, (seq, out[:500])
        for line in gh.splitlines():
            assert line.startswith("::"), line  # one workflow command per line, data escaped
        terminal = io.StringIO()
        write(build(candidate), terminal)  # type: ignore[arg-type]
        leftover = _OWN_SGR.sub("", terminal.getvalue())
        for seq in _FORBIDDEN:
            assert seq not in leftover, (seq, leftover[:500])


@given(data=log_bytes, cuts=st.lists(st.integers(min_value=0, max_value=4096), max_size=6))
def test_any_bytes_any_split_same_report_and_safe_output(data: bytes, cuts: list[int]) -> None:
    whole = _analyze(data, [])
    split = _analyze(data, cuts)
    assert _summary(split) == _summary(whole)
    _check_renderers(whole)


@given(text=log_text)
def test_any_text_renders_safely(text: str) -> None:
    data = text.encode("utf-8", "surrogatepass")
    _check_renderers(_analyze(data, []))


@given(raw=st.text(max_size=300), prefix=st.sampled_from(PREFIXES))
def test_normalizer_is_total_and_colour_blind(raw: str, prefix: str) -> None:
    line = normalize("<prop>", 1, prefix + raw)
    assert isinstance(line.text, str) and line.number == 1
    if "\x1b" not in raw and "\x9b" not in raw:
        coloured = normalize("<prop>", 1, prefix + "\x1b[1;31m" + raw + "\x1b[0m")
        assert coloured.text == line.text
        assert strip_ansi("\x1b[1;31m" + raw + "\x1b[0m") == strip_ansi(raw)


@given(
    line=log_line,
    token_body=st.text(
        alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnop0123456789", min_size=24, max_size=40
    ),
)
def test_generated_secrets_never_reach_any_format(line: str, token_body: str) -> None:
    assume(token_body not in line)
    secret = "hf_" + token_body
    text = f"(WorkerDict pid=3) HF_TOKEN={secret} {line}\n{KNOWN_ERRORS[0]} token {secret}\n"
    report = redact_report(_analyze(text.encode("utf-8", "surrogatepass"), []))
    outputs = [
        json_out.render(report),
        to_plain(build(report)),
        markdown.render(report),
        github.render(report),
    ]
    for out in outputs:
        assert token_body not in out


# --------------------------------------------------------------------------- the fast parser

_ARG = st.one_of(
    st.sampled_from(
        [
            "-f",
            "--format",
            "--format=json",
            "-fjson",
            "json",
            "markdown",
            "github",
            "text",
            "yaml",
            "--lang",
            "en",
            "zh",
            "fr",
            "--rules",
            "--rules=team",
            "team",
            "--no-user-rules",
            "--allow-slow-rules",
            "--binary",
            "--no-redact",
            "--color",
            "always",
            "never",
            "auto",
            "--exit-zero",
            "--fail-on",
            "known",
            "unrecognized",
            "any",
            "--no-step-summary",
            "--follow",
            "--until-idle",
            "2.5",
            "x",
            "--draft-rule",
            "--env",
            "-",
            "--",
            "run.log",
            "a.log.gz",
            "--form",
            "--colour",
            "-q",
            "--binary=yes",
            "--until-idle=-1",
            "--lang=zh",
        ]
    ),
    st.text(alphabet="abc.-=", min_size=1, max_size=6),
)


def typer_reading(command: Command, argv: list[str]) -> Values | None:
    """What the typer app hands to the command for `argv`; None when typer rejects it."""
    seen: list[Values] = []
    saved = commands.WORK[command.name]
    commands.WORK[command.name] = lambda values: seen.append(values) or 0
    try:
        code = run_app([command.name, *argv])
    finally:
        commands.WORK[command.name] = saved
    return seen[0] if seen and code == 0 else None


@given(argv=st.lists(_ARG, max_size=7))
def test_fast_parser_agrees_with_typer(argv: list[str]) -> None:
    """Where the fast parser accepts a command line, typer (which answers help and usage
    errors from the same declarations) reads it the same way."""
    for command in (EXPLAIN, CHECK):
        fast = parse_fast(command, argv)
        if fast is None:
            continue  # left to typer, which prints help or a usage error
        slow = typer_reading(command, argv)
        if slow is None and "--" in argv:
            continue  # files after options after `--`: the fast parser reads more than click
        assert fast == slow, (command.name, argv)


def test_fast_parser_leaves_every_mistake_to_typer() -> None:
    for argv in (
        ["-h"],
        ["--help"],
        ["--format", "yaml"],
        ["--format"],
        ["--form", "json"],  # abbreviations: argparse resolves or rejects them
        ["--lang", "fr"],
        ["--until-idle", "soon"],
        ["--binary=yes"],
        ["--rules"],
        ["--format", "--binary"],
        ["-q"],
    ):
        assert parse_fast(EXPLAIN, argv) is None, argv
    mixed = parse_fast(EXPLAIN, ["a.log", "--format", "json", "b.log", "--", "--env"])
    assert mixed is not None and mixed.files == ["a.log", "b.log", "--env"] and mixed.format == "json"
