"""Comparing versions against the bounds fix steps carry (`<0.8`, `>=0.6,<0.9`)."""

from __future__ import annotations

import re

_PART = re.compile(r"\d+")
_CLAUSE = re.compile(r"\s*(<=|>=|==|!=|<|>)\s*(\d+(?:\.\d+)*)\s*")


def parse(version: str) -> tuple[int, ...] | None:
    """`0.8.0.dev` -> (0, 8, 0); None when the text holds no version."""
    m = re.match(r"\s*v?(\d+(?:\.\d+)*)", version)
    return tuple(int(p) for p in _PART.findall(m.group(1))) if m else None


def _cmp(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    n = max(len(a), len(b))
    a, b = a + (0,) * (n - len(a)), b + (0,) * (n - len(b))
    return (a > b) - (a < b)


def satisfies(version: str, bound: str) -> bool | None:
    """Whether `version` meets every clause of `bound`; None when the version is unreadable."""
    v = parse(version)
    if v is None:
        return None
    ops = {
        "<": lambda c: c < 0,
        "<=": lambda c: c <= 0,
        ">": lambda c: c > 0,
        ">=": lambda c: c >= 0,
        "==": lambda c: c == 0,
        "!=": lambda c: c != 0,
    }
    for clause in bound.split(","):
        m = _CLAUSE.fullmatch(clause)
        if not m:
            return None
        ref = parse(m.group(2))
        assert ref is not None
        if not ops[m.group(1)](_cmp(v, ref)):
            return False
    return True
