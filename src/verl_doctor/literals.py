"""Prefilter literals: the substrings a line must contain before any regex runs on it.

Two jobs, both done once when the catalog cache is built:
- `required_literals(pattern)`: from a regex, a set of literals at least one of which every match
  contains (a disjunction), or None when the pattern has no usable literal.
- `choose_anchors(literals, background)`: a small set of short anchors such that every literal
  contains one. The first-stage Aho-Corasick scan runs over whole blocks; with 64 patterns or
  fewer it uses a SIMD searcher that is an order of magnitude faster than with more, so the
  catalog's few hundred literals are covered by a few dozen anchors that are absent from
  healthy log text (`background`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

try:  # Python 3.11+
    from re import _parser as sre_parse  # type: ignore[attr-defined]
    from re._constants import (  # type: ignore[import-not-found]
        BRANCH,
        LITERAL,
        MAX_REPEAT,
        MIN_REPEAT,
        SUBPATTERN,
    )
except ImportError:  # pragma: no cover - Python 3.10
    import sre_parse  # type: ignore[no-redef]
    from sre_constants import BRANCH, LITERAL, MAX_REPEAT, MIN_REPEAT, SUBPATTERN  # type: ignore

MAX_ANCHORS = 60
MIN_LITERAL = 3
_ANCHOR_MIN, _ANCHOR_MAX = 4, 10

Disjunction = frozenset[str]


def _score(d: Disjunction) -> tuple[int, int]:
    """Prefer disjunctions whose shortest member is longest, then fewer members."""
    return (min(len(s) for s in d), -len(d))


def _best(cands: Iterable[Disjunction]) -> Disjunction | None:
    usable = [d for d in cands if d and min(len(s) for s in d) >= MIN_LITERAL]
    return max(usable, key=_score) if usable else None


def _sequence(items: Sequence[tuple[object, object]]) -> Disjunction | None:
    cands: list[Disjunction] = []
    run: list[str] = []

    def close_run() -> None:
        if run:
            cands.append(frozenset(["".join(run)]))
            run.clear()

    for op, av in items:
        if op is LITERAL:
            run.append(chr(av))  # type: ignore[arg-type]
            continue
        if op is SUBPATTERN:
            inner = av[-1]  # type: ignore[index]
            flags_on = av[1]  # type: ignore[index]
            if flags_on & re.IGNORECASE:
                close_run()
                continue
            # A plain group is transparent: its literals join the surrounding run when it is
            # itself a run of literals.
            sub = list(inner)
            if sub and all(o is LITERAL for o, _ in sub):
                run.extend(chr(a) for _, a in sub)  # type: ignore[arg-type]
                continue
            close_run()
            d = _sequence(sub)
            if d:
                cands.append(d)
            continue
        close_run()
        if op is BRANCH:
            branches = av[1]  # type: ignore[index]
            parts = [_sequence(list(b)) for b in branches]
            if all(parts):
                cands.append(frozenset().union(*parts))  # type: ignore[arg-type]
        elif op in (MAX_REPEAT, MIN_REPEAT):
            lo, _hi, inner = av  # type: ignore[misc]
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


def choose_anchors(literals: Iterable[str], background: str, limit: int = MAX_ANCHORS) -> list[str]:
    """A set of at most `limit` substrings such that every literal contains one of them.

    Greedy set cover over substrings of the literals, skipping substrings that occur in the
    background text. Returns the literals themselves when they already fit, or when no cover
    within the limit exists.
    """
    lits = sorted(set(literals))
    if len(lits) <= limit:
        return lits
    covers: dict[str, set[int]] = {}
    for i, lit in enumerate(lits):
        if len(lit) <= _ANCHOR_MIN:
            covers.setdefault(lit, set()).add(i)
            continue
        for n in range(_ANCHOR_MIN, min(_ANCHOR_MAX, len(lit)) + 1):
            for j in range(len(lit) - n + 1):
                covers.setdefault(lit[j : j + n], set()).add(i)
    common = {s for s in covers if s in background}
    uncovered = set(range(len(lits)))
    chosen: list[str] = []
    while uncovered and len(chosen) < limit:
        best, best_key = None, (0, 0, 0)
        for sub, idx in covers.items():
            gain = len(idx & uncovered)
            if not gain:
                continue
            key = (0 if sub in common else 1, gain, len(sub))
            if key > best_key:
                best, best_key = sub, key
        if best is None:
            break
        chosen.append(best)
        uncovered -= covers[best]
    if uncovered:
        return lits
    return chosen
