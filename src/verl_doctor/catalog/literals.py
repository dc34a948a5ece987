"""Prefilter literals: the substrings a line must contain before any regex runs on it.

Two jobs, both done once when the catalog cache is built:
- `required_literals(pattern)`: from a regex, a set of literals at least one of which every match
  contains (a disjunction), or None when the pattern has no usable literal.
- `choose_anchors(literals, background)`: a small set of short anchors such that every literal
  contains one. The first-stage Aho-Corasick scan runs over whole blocks; with 64 patterns or
  fewer it uses a SIMD searcher (Teddy) that is an order of magnitude faster than with more, and
  whose cost grows with each anchor and with how often anchors' first bytes occur in the text,
  so the catalog's few hundred literals are covered by anchors that are cheap on healthy log
  text (`background`), searched in groups of at most 64 (`anchor_groups`).
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

MAX_ANCHORS = 64  # the SIMD searcher's limit per pass
MIN_LITERAL = 4
FINGERPRINT = 4  # leading bytes of each anchor the SIMD searcher tests at every position
_ANCHOR_MIN, _ANCHOR_MAX = 4, 8
# Anchor costs, in candidate verifications (a few ns each) per byte of healthy text, as measured
# with ahocorasick-rs: one more anchor slows a pass by about 3,300 verifications' worth per 4 MB
# whatever the text, and each occurrence of the anchor itself costs a line cut out, decoded and
# checked for literals (about 1,000).
_PER_ANCHOR = 3300 / (4 << 20)
_PER_HIT = 1000.0

Disjunction = frozenset[str]

# Literals that bring the lines the engine reads apart from rule hits (exceptions, traceback
# frames, Ray/Hydra envelopes, run context); chosen so that a healthy training log almost never
# contains them.
INTERNAL_LITERALS: dict[str, list[str]] = {
    "exception": ["Error", "Exception", "Interrupt", "SystemExit", "Traceback (most recent", ".exc."],
    "frame": ['File "', '.py", line '],
    "envelope": [
        "RayTaskError",
        "ActorDiedError",
        "creation task",
        "Unhandled error",
        "Error executing job",
        "HYDRA_FULL_ERROR",
    ],
    "context": [
        "Version      :",
        "NCCL version",
        "CUDA Version",
        "CUDA Runtime",
        "verl.trainer.",
        "recipe.",
        "actor_rollout_ref.",
        "NVIDIA ",
        "Tesla ",
        "+cu1",
        "GPU Count",
        "Info---",
        "\t     : ",
        "torch==",
        "vllm==",
        "sglang==",
        "verl==",
        "LLM engine (v",
        "overrides",
        "export ",
    ],
    # the words that end a warning carrying a caught error (engine/analyze.py `_WARNING_CARRIES_AN_ERROR`)
    "warning_end": ["To silence this warning"],
}


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


class _TextModel:
    """How often a string turns up in healthy log text, per byte of text: counted where the
    background has it, else estimated from its character pairs, P(ab) * P(c|b) * ..., with
    smoothing, so what a small background never shows stays rare but not impossible."""

    def __init__(self, background: str) -> None:
        from collections import Counter

        self.text = background
        self.size = max(len(background), 1)
        self.chars = Counter(background)
        self.pairs = Counter(background[i : i + 2] for i in range(len(background) - 1))
        self.grams = Counter(background[i : i + FINGERPRINT] for i in range(len(background) - 3))

    def rate(self, text: str) -> float:
        if len(text) < 2:
            return (self.chars.get(text, 0) + 0.5) / self.size
        seen = 0.0
        if len(text) < FINGERPRINT or self.grams.get(text[:FINGERPRINT], 0):
            seen = self.text.count(text) / self.size  # only worth counting when its start occurs
        estimate = (self.pairs.get(text[:2], 0) + 0.5) / self.size
        for i in range(1, len(text) - 1):
            estimate *= (self.pairs.get(text[i : i + 2], 0) + 0.5) / (self.chars.get(text[i], 0) + 128)
        return max(seen, estimate)


def choose_anchors(literals: Iterable[str], background: str) -> list[str]:
    """Short substrings such that every literal contains one of them.

    A weighted set cover over substrings of the literals (4 to 8 characters). The first-stage
    searcher compares the first FINGERPRINT bytes of every anchor at every position of a block
    and verifies each position that fits, so an anchor costs a fixed share of a pass plus the
    verifications its fingerprint causes in healthy text, and each of its own occurrences there
    sends a line to the slower second stage. The cover picks, again and again, the substring
    covering the most literals per unit of that cost, estimated on `background`."""
    lits = sorted(set(literals))
    model = _TextModel(background)
    covers: dict[str, set[int]] = {}
    for i, lit in enumerate(lits):
        if len(lit) <= _ANCHOR_MIN:
            covers.setdefault(lit, set()).add(i)
            continue
        for n in range(_ANCHOR_MIN, min(_ANCHOR_MAX, len(lit)) + 1):
            for j in range(len(lit) - n + 1):
                sub = lit[j : j + n]
                if sub.strip():
                    covers.setdefault(sub, set()).add(i)

    def cost(sub: str) -> float:
        return _PER_ANCHOR + model.rate(sub[:FINGERPRINT]) + _PER_HIT * model.rate(sub)

    # Lazy greedy: a substring's gain only shrinks as literals get covered and its cost is
    # fixed, so a heap of stale ratios is re-checked only at its top.
    import heapq

    costs = {sub: cost(sub) for sub in covers}
    heap = [(-len(idx) / costs[sub], -len(sub), sub) for sub, idx in covers.items()]
    heapq.heapify(heap)
    uncovered = set(range(len(lits)))
    chosen: list[str] = []
    while uncovered and heap:
        neg_ratio, neg_len, sub = heapq.heappop(heap)
        gain = len(covers[sub] & uncovered)
        if gain == 0:
            continue
        ratio = gain / costs[sub]
        if ratio < -neg_ratio:
            heapq.heappush(heap, (-ratio, neg_len, sub))
            continue
        chosen.append(sub)
        uncovered -= covers[sub]
    return sorted(chosen)


def anchor_groups(anchors: Sequence[str], size: int = MAX_ANCHORS) -> list[list[str]]:
    """Anchors split into groups for the SIMD searcher (one block pass each), each group ordered
    so that anchors with similar fingerprints share a bucket.

    The searcher fingerprints as many leading bytes as the group's shortest anchor has (up to
    FINGERPRINT), so anchors shorter than that get a group of their own. Within a group it puts
    anchor i in bucket `B - 1 - i % B` (B = 8 buckets for 32 anchors or fewer, else 16) and tests
    a byte against the union of its bucket's nibbles; anchors with alike nibbles in one bucket
    keep that union, and the false candidates it lets through, small."""

    def fingerprint_len(a: str) -> int:
        return min(len(a.encode()), FINGERPRINT)

    def nibbles(a: str) -> tuple[tuple[int, int], ...]:
        return tuple((b >> 4, b & 15) for b in a.encode()[:FINGERPRINT])

    groups: list[list[str]] = []
    for length in sorted({fingerprint_len(a) for a in anchors}, reverse=True):
        same = sorted((a for a in anchors if fingerprint_len(a) == length), key=lambda a: (nibbles(a), a))
        count = -(-len(same) // size)
        for g in range(count):
            groups.append(_bucket_order(same[g * len(same) // count : (g + 1) * len(same) // count]))
    return groups or [[]]


def _bucket_order(group: list[str]) -> list[str]:
    """Reorder nibble-sorted anchors so that each bucket gets a run of neighbours: slot `i` of
    every row of B lands in bucket `B - 1 - i`, so a slot's run is spread one per row."""
    buckets = 8 if len(group) <= 32 else 16
    base, extra = divmod(len(group), buckets)
    runs, start = [], 0
    for slot in range(buckets):
        size = base + (slot < extra)  # the last row is partial: its first `extra` slots
        runs.append(group[start : start + size])
        start += size
    rows = base + (extra > 0)
    return [runs[slot][row] for row in range(rows) for slot in range(buckets) if row < len(runs[slot])]
