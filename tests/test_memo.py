"""The memo (segments decided, lines normalized and verdicts given once for all copies alike
but for their digits) changes nothing but speed: reports with and without it are identical, over
every rule example, the shipped examples and fixtures, and logs full of copies that differ
only in their numbers."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import FIXTURES, ROOT
from verl_doctor.catalog.load import load_catalog
from verl_doctor.engine.normalize import mask_digits
from verl_doctor.engine.session import Session
from verl_doctor.engine.verdict import digit_blind
from verl_doctor.render.json_out import render

_CATALOG = load_catalog(include_user=False, use_cache=False)


def _report(text: str, memo: bool) -> tuple[str, int]:
    """The JSON report for `text`, and how many lines the memo answered (verdicts reused, and
    copies of a planned line taken without one)."""
    session = Session(_CATALOG)
    session.analyzer.memo.enabled = memo
    scanner = session.scanner("log")
    data = text.encode("utf-8", "surrogateescape")
    for i in range(0, len(data), 64 * 1024):  # several blocks, as a file is read
        session.feed(scanner, data[i : i + 64 * 1024])
    session.finish(scanner)
    return render(session.report()), session.analyzer.memo.hits + session.analyzer.copies_taken


def _same_with_and_without(text: str) -> int:
    with_memo, hits = _report(text, memo=True)
    without, _ = _report(text, memo=False)
    assert with_memo == without
    return hits


def _renumbered(text: str, seed: int) -> str:
    """`text` with every number replaced by another of the same length (pids, ranks, sizes...)."""
    counter = iter(range(seed, 10**9))

    def other(m: re.Match[str]) -> str:
        return str(next(counter) * 7919 % 10 ** len(m.group())).zfill(len(m.group()))

    return re.sub(r"\d+", other, text)


_EXAMPLES = [
    text
    for rule in _CATALOG.rules
    for texts in (rule.examples_match, rule.examples_no_match)
    for text in texts
]


def test_every_rule_example_alone_and_repeated_with_other_numbers() -> None:
    for text in _EXAMPLES:
        _same_with_and_without(text)
    # All examples in one log, each followed by copies with other numbers: the memo answers
    # those copies, and must answer them as the regexes would have.
    mixed = "".join(
        text.rstrip("\n") + "\n" + _renumbered(text, i).rstrip("\n") + "\n" + text.rstrip("\n") + "\n"
        for i, text in enumerate(_EXAMPLES)
    )
    assert _same_with_and_without(mixed) > len(_EXAMPLES)


@pytest.mark.parametrize(
    "path",
    sorted((ROOT / "examples").glob("*.log")) + sorted((FIXTURES / "healthy").glob("*.log")),
    ids=lambda p: p.name,
)
def test_shipped_logs(path: Path) -> None:
    text = path.read_text(encoding="utf-8", errors="surrogateescape")
    _same_with_and_without(text)
    _same_with_and_without(text + _renumbered(text, 3) + text)


def test_copies_keep_their_own_numbers_and_workers() -> None:
    lines = []
    for i in range(60):
        rank = i % 8
        lines.append(
            f"(WorkerDict pid={1000 + i}, ip=10.0.0.{rank}) [rank{rank}]:[W1203 10:00:{i % 60:02d}.{i:09d} "
            f"ProcessGroupNCCL.cpp:4561] [PG ID 0 PG GUID 0 Rank {rank}]  using GPU {rank} to perform barrier "
            "as devices used by this process are currently unknown. This can potentially cause a hang."
        )
        lines.append(f"(TaskRunner pid=77) step:{i} - actor/pg_loss:nan - actor/grad_norm:{i}.5")
        lines.append(
            f"(WorkerDict pid={2000 + i}) torch.OutOfMemoryError: CUDA out of memory. Tried to allocate "
            f"{i % 9}.{i % 7}0 GiB. GPU {rank} has a total capacity of 79.25 GiB of which 1.{i % 10} GiB is free."
        )
    text = "\n".join(lines) + "\n"
    assert _same_with_and_without(text) > 100
    assert _same_with_and_without("\n".join(reversed(lines)) + "\n") > 100


@pytest.mark.parametrize(
    "text",
    [
        # `Caught signal 11 (` is a literal; `Caught signal 12 (` masks alike but does not hold it.
        "RuntimeError: Caught signal 12 (Unknown)\n" * 3 + "RuntimeError: Caught signal 11 (Unknown)\n",
        # The literal `exitcode` occurs in both; only the signature tells -12 from -11.
        "failed (exitcode: -12) local_rank: 0\n" * 3 + "failed (exitcode: -11) local_rank: 0\n",
    ],
)
def test_digits_that_decide_keep_copies_apart(text: str) -> None:
    with_memo, _ = _report(text, memo=True)
    assert with_memo == _report(text, memo=False)[0]
    assert '"FLOW008"' in with_memo


@pytest.mark.parametrize(
    ("pattern", "blind"),
    [
        (r"GPU \d+ to perform", True),
        (r"Tried to allocate (?P<size>[\d.]+ [GM]iB)", True),
        (r"port[=:](?P<port>[0-9]+)", True),
        (r"(?!.*OOM)Error\b", True),
        (r"status code: 40[13]", False),
        (r"exit code [1-9]", False),
        (r"[^0]x", False),
        (r"(\d)\1", False),
        (r"Cuda failure 700\b", False),
    ],
)
def test_digit_blind(pattern: str, blind: bool) -> None:
    assert digit_blind(pattern) is blind


def test_the_patterns_behind_shared_work_treat_all_digits_alike() -> None:
    # Copies share a normalizing recipe and the classify step's verdict only because of this.
    from verl_doctor.engine import line_kinds as classify
    from verl_doctor.engine import normalize

    for pattern in (
        normalize._PREFIXES,
        normalize._RAY_BODY,
        normalize._CONFIG_DUMP,
        normalize._SHELL_TRACE,
        *classify.PATTERNS,
    ):
        assert digit_blind(pattern.pattern, pattern.flags), pattern.pattern


def test_mask_digits() -> None:
    assert mask_digits("pid=1234, rank 7") == b"pid=0000, rank 0"


def test_copies_of_a_line_that_only_records_hits_are_taken_without_a_line_each() -> None:
    # The barrier warning is a hit and a fact, nothing else: after the first of each shape, its
    # copies go from the scanner to the analyzer as copies; the report is the reference one.
    lines = [
        f"(WorkerDict pid={3000 + i % 16}, ip=10.0.1.{i % 4}) [rank{i % 8}]:[W1203 10:{i % 60:02d}:00.0 "
        f"ProcessGroupNCCL.cpp:4561] [PG ID 0 PG GUID 0 Rank {i % 8}]  using GPU {i % 8} to perform barrier "
        "as devices used by this process are currently unknown."
        for i in range(200)
    ]
    text = "\n".join(lines) + "\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n"
    session = Session(_CATALOG)
    scanner = session.scanner("log")
    session.feed(scanner, text.encode())
    session.finish(scanner)
    assert session.analyzer.copies_taken > 150
    assert render(session.report()) == _report(text, memo=False)[0]


@pytest.mark.parametrize(
    ("pattern", "needed"),
    [
        (r"ERR(?!99999)\d{5} [A-Z]{2,} (?:call|invalid)", "ERR"),
        (r"\bE[0-9A-Z]9999:? Inner Error", " Inner Error"),
        (r"status code: 40[13]", "status code: "),
        (r"a|b", None),  # no piece every match holds
        (r"(?i)retcode=0x", None),  # case may differ
    ],
)
def test_the_text_a_pattern_always_needs(pattern: str, needed: str | None) -> None:
    # A pattern that tells digits apart, failing on a text without that piece, fails on every
    # copy of it: the verdict is still shared.
    from verl_doctor.engine.verdict import required_text

    assert required_text(pattern) == needed


def test_the_keys_a_text_names_are_asked_again_once_the_overrides_change() -> None:
    """The run's keys a refusal names are remembered per text; an override read later (Hydra
    prints the list after the failure) is seen by the next question about the same text."""
    from verl_doctor.engine.context import ContextCollector

    context = ContextCollector()
    context._add_overrides(["trainer.nnodes=2"])
    text = "betas must be either both floats or both Tensors"
    assert context.set_keys_named_in(text) == []
    context._add_overrides(["+actor_rollout_ref.actor.optim.betas=[0,0.99]"])
    assert context.set_keys_named_in(text) == ["actor_rollout_ref.actor.optim.betas"]
    # an answer handed out is the caller's to change
    context.set_keys_named_in(text).append("x")
    assert context.set_keys_named_in(text) == ["actor_rollout_ref.actor.optim.betas"]
