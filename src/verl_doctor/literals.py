"""Prefilter literals: the substrings a line must contain before any regex runs on it.

Two jobs, both done once when the catalog cache is built:
- `required_literals(pattern)`: from a regex, a set of literals at least one of which every match
  contains (a disjunction), or None when the pattern has no usable literal.
- `choose_anchors(literals, background)`: a small set of short anchors such that every literal
  contains one. The first-stage Aho-Corasick scan runs over whole blocks; with 64 patterns or
  fewer it uses a SIMD searcher that is an order of magnitude faster than with more, so the
  catalog's few hundred literals are covered by anchors that are absent from healthy log text
  (`background`), searched in groups of at most 60.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

try:  # Python 3.11+
    from re import _parser as sre_parse  # type: ignore[attr-defined]
    from re._constants import (  # type: ignore[import-not-found]
        BRANCH,
        IN,
        LITERAL,
        MAX_REPEAT,
        MIN_REPEAT,
        SUBPATTERN,
    )
except ImportError:  # pragma: no cover - Python 3.10
    import sre_parse
    from sre_constants import BRANCH, IN, LITERAL, MAX_REPEAT, MIN_REPEAT, SUBPATTERN

MAX_ANCHORS = 60
MIN_LITERAL = 4
_ANCHOR_MIN, _ANCHOR_MAX = 6, 12

Disjunction = frozenset[str]


def _score(d: Disjunction) -> tuple[int, int]:
    """Prefer disjunctions whose shortest member is longest, then fewer members."""
    return (min(len(s) for s in d), -len(d))


def _best(cands: Iterable[Disjunction]) -> Disjunction | None:
    usable = [d for d in cands if d and min(len(s) for s in d) >= MIN_LITERAL]
    return max(usable, key=_score) if usable else None


_MAX_PRODUCT = 16


def _literal_alternatives(op: object, av: object) -> list[str] | None:
    """The strings a small literal-only construct can match (`(?:a|b)`, `[Ee]`, `x?`), or None."""
    if op is LITERAL:
        return [chr(av)]  # type: ignore[arg-type]
    if op is IN:
        items = list(av)  # type: ignore[call-overload]
        if items and all(o is LITERAL for o, _ in items) and len(items) <= 4:
            return [chr(a) for _, a in items]
        return None
    if op is SUBPATTERN:
        if av[1] & re.IGNORECASE:  # type: ignore[index]
            return None
        return _alternatives_of(list(av[-1]))  # type: ignore[index]
    if op in (MAX_REPEAT, MIN_REPEAT):
        lo, hi, inner = av[0], av[1], av[2]  # type: ignore[index]
        if lo == 0 and hi == 1:
            alts = _alternatives_of(list(inner))
            return None if alts is None else ["", *alts]
    return None


def _alternatives_of(items: list[tuple[object, object]]) -> list[str] | None:
    out = [""]
    for op, av in items:
        if op is BRANCH:
            alts: list[str] = []
            for branch in av[1]:  # type: ignore[index]
                sub = _alternatives_of(list(branch))
                if sub is None:
                    return None
                alts += sub
        else:
            got = _literal_alternatives(op, av)
            if got is None:
                return None
            alts = got
        out = [a + b for a in out for b in alts]
        if len(out) > _MAX_PRODUCT:
            return None
    return out


def _sequence(items: Sequence[tuple[object, object]]) -> Disjunction | None:
    """Best literal disjunction of a sequence: runs of literals, extended through small
    literal alternatives (`'?verl'?` gives `verl`, `'verl`, `verl'`, `'verl'`)."""
    cands: list[Disjunction] = []
    run = [""]

    def close_run() -> None:
        nonlocal run
        if any(run):
            cands.append(frozenset(run))
        run = [""]

    for op, av in items:
        alts = _literal_alternatives(op, av)
        if alts is None and op is BRANCH:
            alts = _alternatives_of([(op, av)])
        if alts is not None and len(run) * len(alts) <= _MAX_PRODUCT:
            run = [r + a for r in run for a in alts]
            continue
        close_run()
        if alts is not None:
            cands.append(frozenset(alts))
            continue
        if op is SUBPATTERN:
            if not av[1] & re.IGNORECASE:  # type: ignore[index]
                d = _sequence(list(av[-1]))  # type: ignore[index]
                if d:
                    cands.append(d)
        elif op is BRANCH:
            parts = [_sequence(list(b)) for b in av[1]]  # type: ignore[index]
            if all(parts):
                cands.append(frozenset().union(*parts))  # type: ignore[arg-type]
        elif op in (MAX_REPEAT, MIN_REPEAT):
            lo, inner = av[0], av[2]  # type: ignore[index]
            if lo >= 1:
                d = _sequence(list(inner))
                if d:
                    cands.append(d)
    close_run()
    return _best(cands)


def required_literals(pattern: str) -> Disjunction | None:
    """Literals one of which any match of `pattern` must contain, or None."""
    try:
        parsed = sre_parse.parse(pattern)
    except (re.error, OverflowError, RecursionError):
        return None
    if parsed.state.flags & re.IGNORECASE:
        return None
    return _sequence(list(parsed))


def choose_anchors(literals: Iterable[str], background: str) -> list[str]:
    """Short substrings such that every literal contains one of them.

    Greedy set cover over substrings of the literals (6 to 12 characters) that never occur in
    the healthy background text; a literal no such substring covers is kept whole. Fewer
    anchors than literals means fewer first-stage passes (see `anchor_groups`)."""
    lits = sorted(set(literals))
    covers: dict[str, set[int]] = {}
    for i, lit in enumerate(lits):
        for n in range(_ANCHOR_MIN, min(_ANCHOR_MAX, len(lit)) + 1):
            for j in range(len(lit) - n + 1):
                sub = lit[j : j + n]
                if sub.strip() and sub not in background:
                    covers.setdefault(sub, set()).add(i)
    # Lazy greedy set cover: a substring's gain only shrinks as literals get covered, so a
    # heap of stale gains is re-checked only at its top.
    import heapq

    uncovered = set(range(len(lits)))
    chosen: list[str] = []
    heap = [(-len(idx), -len(sub), sub) for sub, idx in covers.items() if len(idx) > 1]
    heapq.heapify(heap)
    while heap:
        neg_gain, neg_len, sub = heapq.heappop(heap)
        gain = len(covers[sub] & uncovered)
        if gain < 2:
            continue
        if gain < -neg_gain:
            heapq.heappush(heap, (-gain, neg_len, sub))
            continue
        chosen.append(sub)
        uncovered -= covers[sub]
    return sorted(chosen + [lits[i] for i in uncovered])


def anchor_groups(anchors: Sequence[str], size: int = MAX_ANCHORS) -> list[list[str]]:
    """Anchors split into groups small enough for the SIMD searcher (one block pass each).

    Grouped by length: the searcher fingerprints as many leading bytes as its shortest
    pattern has, so one short anchor would make every pattern of its group match loosely."""
    ordered = sorted(anchors, key=lambda a: (-len(a.encode()), a))
    return [ordered[i : i + size] for i in range(0, len(ordered), size)] or [[]]
