"""Multi-literal search: Aho-Corasick from `ahocorasick-rs`, or a pure-Python fallback.

`BlockSearcher` finds anchor positions in a whole block of bytes (the hot path).
`LineSearcher` tells which of many literals occur in one decoded candidate line.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from verl_doctor.engine.normalize import ASCII_DIGIT, mask_digits

TYPE_CHECKING = False  # typing is only needed by type checkers; importing it costs start-up time
if TYPE_CHECKING:
    from typing import Any

_ac: Any
try:
    import ahocorasick_rs as _ac
except ImportError:  # pragma: no cover - exercised by forcing the fallback in tests
    _ac = None

FORCE_FALLBACK = False  # tests flip this to exercise the pure-Python path
_POOL: Any = None
_WORKERS = 0  # threads in _POOL, each searching one slice of a block


class _Done:
    """An already computed result with the interface of a Future."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def result(self) -> Any:
        return self.value


def _pool() -> Any:
    global _POOL, _WORKERS
    if _POOL is None:
        import os
        from concurrent.futures import ThreadPoolExecutor

        _WORKERS = max(2, min(4, os.cpu_count() or 2))
        _POOL = ThreadPoolExecutor(max_workers=_WORKERS, thread_name_prefix="verl-doctor")
    return _POOL


def _use_rust() -> bool:
    return _ac is not None and not FORCE_FALLBACK


class BlockSearcher:
    """Start offsets of anchor occurrences in a bytes-like block.

    With ahocorasick-rs the anchors are searched in groups of at most 64 (one pass each): up to
    that size the library uses a SIMD searcher an order of magnitude faster than one big
    automaton over all of them."""

    def __init__(self, anchors: Sequence[str]) -> None:
        from verl_doctor.catalog.literals import anchor_groups

        self.backend = "ahocorasick-rs" if _use_rust() else "python-re"
        self._acs = []
        self._re = None
        # A slice boundary inside an anchor must not hide it: each slice reaches this far past
        # its end, so the slice an anchor starts in holds all of it.
        self._reach = max((len(a.encode()) for a in anchors), default=1) - 1
        if _use_rust():
            assert _ac is not None
            self._acs = [
                _ac.BytesAhoCorasick([a.encode() for a in group], matchkind=_ac.MatchKind.LeftmostFirst)
                for group in anchor_groups(list(anchors))
                if group
            ]
        else:
            pats = sorted((a.encode() for a in anchors), key=len, reverse=True)
            self._re = re.compile(b"|".join(re.escape(p) for p in pats)) if pats else None

    def starts(self, block: bytes | memoryview) -> list[int]:
        return self.collect(self.submit(block, parallel=False))

    def _search(self, block: bytes | memoryview, offset: int) -> list[int]:
        """Starts of every group's matches in `block`, shifted by `offset`."""
        found = []
        for ac in self._acs:
            found += [offset + s for _, s, _ in ac.find_matches_as_indexes(block)]
        return found

    def submit(self, block: bytes | memoryview, parallel: bool = True) -> list[Any]:
        """Start searching `block`. With `parallel`, the block is cut into one slice per worker
        thread, each searched for all groups (the Rust search releases the GIL), while the caller
        counts newlines; slices keep every thread equally busy, where one task per group would
        leave a thread idle whenever the groups' costs differ."""
        if not self._acs:
            return [_Done([m.start() for m in self._re.finditer(block)] if self._re is not None else [])]
        if not parallel:
            return [_Done(self._search(block, 0))]
        pool = _pool()
        n = len(block)
        cuts = [n * i // _WORKERS for i in range(_WORKERS + 1)]
        return [
            pool.submit(self._search, block[lo : min(hi + self._reach, n)], lo)
            for lo, hi in zip(cuts, cuts[1:], strict=False)
            if lo < hi
        ]

    def collect(self, pending: list[Any]) -> list[int]:
        results = [p.result() for p in pending]
        if len(results) == 1 and len(self._acs) <= 1:
            return results[0]  # type: ignore[no-any-return]
        # Each result is in order; a start two groups share comes twice, which the scanner
        # skips as inside a segment already taken (cheaper than a set here).
        found: list[int] = []
        for r in results:
            found += r
        found.sort()
        return found


class LineSearcher:
    """Indexes of the literals that occur in a text line."""

    # Building the automaton over the catalog's literals takes a few milliseconds, as long as
    # looking for each literal in about 30 lines one by one: a paste of a traceback, whose few
    # candidate lines are looked through directly, is answered without building it.
    _DIRECT_LOOKUPS = 16

    def __init__(self, literals: Sequence[str]) -> None:
        self.literals = list(literals)
        self._ac: Any = None
        self._lookups = 0 if _use_rust() and self.literals else -1  # -1: never build one
        self._digit_literals: LineSearcher | None = None  # built when first needed

    def _automaton(self) -> Any:
        if self._ac is None and self._lookups >= 0:
            self._lookups += 1
            if self._lookups > self._DIRECT_LOOKUPS:
                self._ac = _ac.AhoCorasick(self.literals, matchkind=_ac.MatchKind.Standard)
        return self._ac

    def masks_safely(self, text: str) -> bool:
        """True when every text alike but for its digits holds the same literals as `text`."""
        if self._digit_literals is None:
            # Literals with a digit, digits masked: when none occurs in a masked text, every
            # text with that mask holds the same literals.
            self._digit_literals = LineSearcher(
                [mask_digits(lit).decode() for lit in self.literals if ASCII_DIGIT.search(lit)]
            )
        return not self._digit_literals.any(mask_digits(text).decode())

    def any(self, text: str) -> bool:
        ac = self._automaton()
        if ac is not None:
            return bool(ac.find_matches_as_indexes(text))
        return any(lit in text for lit in self.literals)

    def present(self, text: str) -> set[int]:
        ac = self._automaton()
        if ac is not None:
            return {i for i, _, _ in ac.find_matches_as_indexes(text, overlapping=True)}
        return {i for i, lit in enumerate(self.literals) if lit in text}
