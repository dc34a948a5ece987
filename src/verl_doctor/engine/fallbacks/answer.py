"""The answer a fallback gives: a code, the groups its text fills, and what it rests on."""

from __future__ import annotations

from verl_doctor.common.records import record


@record(frozen=True)
class Fallback:
    code: str
    groups: dict[str, str]
    basis: str  # what the answer rests on, said to the user


def an(exc_type: str) -> str:
    """`an AssertionError`, `a ValueError`."""
    return ("an " if exc_type[:1] in "AEIOU" else "a ") + exc_type


def where_in(path: str, package: str) -> str:
    """`path` from its package's folder on (`sglang/srt/models/qwen2.py`)."""
    return (
        path[path.rfind("/" + package + "/") + 1 :]
        if "/" + package + "/" in path
        else path.rsplit("/", 1)[-1]
    )
