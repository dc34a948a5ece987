"""Multi-literal search: Aho-Corasick from `ahocorasick-rs`, or a pure-Python fallback.

`BlockSearcher` finds anchor positions in a whole block of bytes (the hot path).
`LineSearcher` tells which of many literals occur in one decoded candidate line.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

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


class _Done:
    """An already computed result with the interface of a Future."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def result(self) -> Any:
        return self.value


def _pool() -> Any:
    global _POOL
    if _POOL is None:
        import os
        from concurrent.futures import ThreadPoolExecutor

        _POOL = ThreadPoolExecutor(
            max_workers=max(2, min(4, os.cpu_count() or 2)), thread_name_prefix="verl-doctor"
        )
    return _POOL


def _use_rust() -> bool:
    return _ac is not None and not FORCE_FALLBACK


class BlockSearcher:
    """Start offsets of anchor occurrences in a bytes-like block.

    With ahocorasick-rs the anchors are searched in groups of at most 60 (one pass each): up to
    that size the library uses a SIMD searcher an order of magnitude faster than one big
    automaton over all of them."""

    def __init__(self, anchors: Sequence[str]) -> None:
        from .literals import anchor_groups

        self.backend = "ahocorasick-rs" if _use_rust() else "python-re"
        self._acs = []
        self._re = None
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

    def submit(self, block: bytes | memoryview, parallel: bool = True) -> list[Any]:
        """Start searching `block`; with `parallel`, each anchor group runs on a worker thread
        (the Rust search releases the GIL) while the caller counts newlines."""
        if not self._acs:
            return [_Done([m.start() for m in self._re.finditer(block)] if self._re is not None else [])]
        if not parallel:
            return [_Done(ac.find_matches_as_indexes(block)) for ac in self._acs]
        pool = _pool()
        return [pool.submit(ac.find_matches_as_indexes, block) for ac in self._acs]

    def collect(self, pending: list[Any]) -> list[int]:
        results = [p.result() for p in pending]
        if not self._acs:
            return results[0]  # type: ignore[no-any-return]
        if len(results) == 1:
            return [s for _, s, _ in results[0]]
        return sorted({s for r in results for _, s, _ in r})


class LineSearcher:
    """Indexes of the literals that occur in a text line."""

    def __init__(self, literals: Sequence[str]) -> None:
        self.literals = list(literals)
        self._ac: Any = None
        if _use_rust() and self.literals:
            self._ac = _ac.AhoCorasick(self.literals, matchkind=_ac.MatchKind.Standard)

    def present(self, text: str) -> set[int]:
        if self._ac is not None:
            return {i for i, _, _ in self._ac.find_matches_as_indexes(text, overlapping=True)}
        return {i for i, lit in enumerate(self.literals) if lit in text}
