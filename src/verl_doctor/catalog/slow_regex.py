"""Finding regexes that backtrack catastrophically: each is run on adversarial input with a
time limit. Used when loading user rules and by `rules lint`."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import regex

from verl_doctor.catalog.rule import REGEX_FLAGS

SLOW_SECONDS = 0.25  # catastrophic backtracking takes seconds; normal patterns take microseconds


def _adversarial(pattern: str) -> Iterable[str]:
    from verl_doctor.catalog.literals import required_literals

    lits = sorted(required_literals(pattern) or ()) or ["a"]
    chars = sorted({c for c in pattern if c.isalnum()} | set("a0 x./_-'"))
    for lit in lits[:3]:
        yield lit * 400
        yield (lit + "a") * 300 + "!"
        for ch in chars:
            yield lit + ch * 3000 + "\x00"
    yield "a" * 20000 + "!"
    yield " " * 20000 + "x"
    yield "(" * 5000
    yield "'" * 3000 + "x"


def slow_patterns(patterns: Sequence[str]) -> list[tuple[int, str]]:
    """Indexes of patterns that time out on adversarial input, with the reason."""
    out = []
    for i, pat in enumerate(patterns):
        compiled = regex.compile(pat, REGEX_FLAGS)
        for text in _adversarial(pat):
            try:
                compiled.search(text, timeout=SLOW_SECONDS)
            except TimeoutError:
                out.append((i, "timed out on adversarial input (catastrophic backtracking?)"))
                break
    return out
