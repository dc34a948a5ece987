"""The streaming scanner: same result however the bytes are split, correct line numbers,
`\\r` segments and CR-only files, over-long lines in bounded memory, the Python fallback."""

from __future__ import annotations

import random

import pytest

from verl_doctor.catalog.load import load_catalog
from verl_doctor.engine import prefilter
from verl_doctor.engine.session import Session

CATALOG = load_catalog(include_user=False, use_cache=False)
OOM = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB."
HEALTHY = "(TaskRunner pid=1) step:{} - actor/grad_norm:0.2 - critic/score/mean:0.5"


def _scan(data: bytes, chunks: list[int] | None = None) -> list[tuple[str, int]]:
    session = Session(CATALOG)
    scanner = session.scanner("log")
    pos = 0
    for size in chunks or [len(data)]:
        session.feed(scanner, data[pos : pos + size])
        pos += size
    session.feed(scanner, data[pos:])
    session.finish(scanner)
    report = session.report()
    return [(f.rule, f.first_line) for f in report.findings]


def _log(n: int, at: int) -> bytes:
    lines = [HEALTHY.format(i) for i in range(n)]
    lines[at] = "(WorkerDict pid=9) " + OOM
    return ("\n".join(lines) + "\n").encode()


def test_line_number_matches_grep_n() -> None:
    assert _scan(_log(1000, 736)) == [("FLOW004", 737)]


@pytest.mark.parametrize("seed", range(5))
def test_any_split_of_the_bytes_gives_the_same_result(seed: int) -> None:
    data = _log(400, 251)
    rng = random.Random(seed)
    chunks = [rng.randint(1, 300) for _ in range(200)]
    assert _scan(data, chunks) == [("FLOW004", 252)]


def test_split_inside_the_literal_and_inside_crlf() -> None:
    data = _log(10, 4).replace(b"\n", b"\r\n")
    cut = data.index(b"out of memory") + 5
    assert _scan(data, [cut]) == [("FLOW004", 5)]


def test_tqdm_carriage_returns_split_segments() -> None:
    data = (
        "Training Progress:  10%|#| 1/10\rTraining Progress:  20%|##| 2/10\r(WorkerDict pid=3) " + OOM + "\n"
    ).encode()
    assert _scan(data) == [("FLOW004", 1)]


def test_cr_only_file_counts_cr_as_line_end() -> None:
    data = ("\r".join([HEALTHY.format(i) for i in range(5)] + [OOM]) + "\r").encode()
    assert _scan(data) == [("FLOW004", 6)]


def test_last_line_without_newline() -> None:
    assert _scan(("x\n" * 3 + OOM).encode()) == [("FLOW004", 4)]


def test_overlong_line_is_scanned_in_windows() -> None:
    long_line = b"x" * (3 * 1024 * 1024) + OOM.encode() + b"y" * (2 * 1024 * 1024)
    data = b"first\n" + long_line + b"\nlast\n"
    assert _scan(data, [1024 * 1024] * 6) == [("FLOW004", 2)]


def test_python_fallback_prefilter_gives_the_same_findings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(prefilter, "FORCE_FALLBACK", True)
    session = Session(CATALOG)
    assert session.searcher.backend == "python-re"
    assert _scan(_log(50, 20)) == [("FLOW004", 21)]


def test_anchor_across_a_thread_slice_boundary_is_found() -> None:
    """A block this large is searched in one slice per thread; an anchor that starts just
    before a slice ends must still be found, and found once."""
    searcher = Session(CATALOG).searcher
    anchor = next(a for a in CATALOG.anchors if len(a) >= 6).encode()
    size = 2 * 1024 * 1024
    for shift in range(1, len(anchor) + 1):
        block = bytearray(b"x" * size)
        at = size // 2 - shift  # crosses the middle cut (two or more threads)
        block[at : at + len(anchor)] = anchor
        assert searcher.collect(searcher.submit(memoryview(block))) == searcher.starts(bytes(block)) == [at]


@pytest.mark.parametrize(
    "line",
    [
        "CUDA out of memory",
        # normalizing joins these into the literal, so the early check must see them joined
        "CUDA out of \x1b[31mmemory\x1b[0m",
        "CUDA out of [1;31mmemory[0m",
        "[CUDA](https://example.org/oom) out of memory",
        "CUDA out [repeated 3x across cluster] of memory",
    ],
)
def test_early_drop_keeps_what_normalizing_turns_into_a_literal(line: str) -> None:
    from verl_doctor.engine.prefilter import BlockSearcher, LineSearcher
    from verl_doctor.engine.scan import LineScanner

    scanner = LineScanner(BlockSearcher(["CUDA"]), "log", LineSearcher(["CUDA out of memory"]))
    # A line at the very end waits for the lines that may continue it, until the input ends.
    (got,) = [*scanner.feed((line + "\n").encode()), *scanner.finish()]
    assert "CUDA out of memory" in got.text


def test_early_drop_drops_an_anchor_without_its_literal() -> None:
    from verl_doctor.engine.prefilter import BlockSearcher, LineSearcher
    from verl_doctor.engine.scan import LineScanner

    data = b"enable CUDA graph\nCUDA out of memory\n"
    kept = LineScanner(BlockSearcher(["CUDA"]), "log", LineSearcher(["CUDA out of memory"])).feed(data)
    assert [(ln.number, ln.text) for ln in kept] == [(2, "CUDA out of memory")]
    assert len(list(LineScanner(BlockSearcher(["CUDA"]), "log").feed(data))) == 2


def _findings(data: bytes, early_drop: bool) -> list[tuple[str, int, str]]:
    from verl_doctor.engine.scan import LineScanner

    session = Session(CATALOG)
    scanner = LineScanner(session.searcher, "log", session.analyzer.searcher if early_drop else None)
    session.feed(scanner, data)
    session.finish(scanner)
    return [(f.rule, f.first_line, f.evidence[0].text) for f in session.report().findings]


@pytest.mark.parametrize(
    "line",
    [
        "(WorkerDict pid=9) " + OOM,
        "(WorkerDict pid=9) torch.OutOfMemoryError: CUDA out of \x1b[31mmemory\x1b[0m. Tried to allocate 1 GiB",
        "(WorkerDict pid=9) " + OOM + " [repeated 7x across cluster]",
        "See [docs](https://verl.readthedocs.io/en/latest/faq.html) " + OOM,
        "Error executing job with overrides: ['trainer.n_gpus_per_node=8']",
        "(TaskRunner pid=1) WARNING: enable CUDA graph for speed",
    ],
)
def test_dropping_segments_without_a_literal_changes_no_finding(line: str) -> None:
    """The whole catalog, with and without the early drop: the same findings."""
    data = ("\n".join([HEALTHY.format(i) for i in range(5)] + [line, HEALTHY.format(6)]) + "\n").encode()
    assert _findings(data, early_drop=True) == _findings(data, early_drop=False)


def test_literals_looked_up_directly_or_by_the_automaton_are_the_same() -> None:
    catalog = load_catalog()
    lines = [
        line
        for rule in catalog.rules
        for example in rule.examples_match[:2]
        for line in example.splitlines()
        if line.strip()
    ][:200]
    searcher = prefilter.LineSearcher(catalog.literals)
    direct = [searcher.present(t) for t in lines[: searcher._DIRECT_LOOKUPS]]
    assert searcher._ac is None or not prefilter._use_rust()  # looked up one by one so far
    assert any(direct)
    for text in lines:  # enough lookups for the automaton to be built
        searcher.present(text)
    assert searcher._ac is not None or not prefilter._use_rust()
    assert [searcher.present(t) for t in lines[: searcher._DIRECT_LOOKUPS]] == direct
    assert [searcher.any(t) for t in lines] == [bool(searcher.present(t)) for t in lines]
