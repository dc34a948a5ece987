"""Multi-literal search: Aho-Corasick from `ahocorasick-rs`, or a pure-Python fallback.

`BlockSearcher` finds anchor positions in a whole block of bytes (the hot path).
`LineSearcher` tells which of many literals occur in one decoded candidate line.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

try:
    import ahocorasick_rs as _ac
except ImportError:  # pragma: no cover - exercised by forcing the fallback in tests
    _ac = None

FORCE_FALLBACK = False  # tests flip this to exercise the pure-Python path


def _use_rust() -> bool:
    return _ac is not None and not FORCE_FALLBACK


class BlockSearcher:
    """Start offsets of anchor occurrences in a bytes-like block."""

    def __init__(self, anchors: Sequence[str]) -> None:
        pats = [a.encode() for a in anchors]
        self.backend = "ahocorasick-rs" if _use_rust() else "python-re"
        if _use_rust():
            assert _ac is not None
            self._ac = _ac.BytesAhoCorasick(pats, matchkind=_ac.MatchKind.LeftmostFirst)
            self._re = None
        else:
            self._ac = None
            self._re = re.compile(b"|".join(re.escape(p) for p in sorted(pats, key=len, reverse=True)))

    def starts(self, block: bytes | memoryview) -> list[int]:
        if self._ac is not None:
            return [s for _, s, _ in self._ac.find_matches_as_indexes(block)]
        assert self._re is not None
        return [m.start() for m in self._re.finditer(block)]


class LineSearcher:
    """Indexes of the literals that occur in a text line."""

    def __init__(self, literals: Sequence[str]) -> None:
        self.literals = list(literals)
        if _use_rust() and self.literals:
            assert _ac is not None
            self._ac = _ac.AhoCorasick(self.literals, matchkind=_ac.MatchKind.Standard)
        else:
            self._ac = None

    def present(self, text: str) -> set[int]:
        if self._ac is not None:
            return {i for i, _, _ in self._ac.find_matches_as_indexes(text, overlapping=True)}
        return {i for i, lit in enumerate(self.literals) if lit in text}
