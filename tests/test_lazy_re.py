"""Patterns compiled on first use behave as the compiled pattern does."""

from __future__ import annotations

import re

from verl_doctor.common import lazy_re
from verl_doctor.common.lazy_re import lazy_compile


def test_compiles_only_when_first_used(monkeypatch):
    calls = []
    real = re.compile
    monkeypatch.setattr(lazy_re.re, "compile", lambda *a: calls.append(a) or real(*a))
    pattern = lazy_compile(r"rank (?P<rank>\d+)", re.I)
    assert calls == []
    assert pattern.search("RANK 3 died")["rank"] == "3"
    assert pattern.sub("rank N", "rank 1, rank 22") == "rank N, rank N"
    assert len(calls) == 1  # the second method came from the first compile


def test_same_answers_as_re_compile():
    source = r"(?P<key>[\w.]+)=(?P<value>\S*)"
    lazy, eager = lazy_compile(source), re.compile(source)
    text = "data.train_files=a.parquet trainer.n_gpus_per_node=8 x="
    assert [m.groupdict() for m in lazy.finditer(text)] == [m.groupdict() for m in eager.finditer(text)]
    assert lazy.findall(text) == eager.findall(text)
    assert lazy.fullmatch("a=b") is not None and lazy.match("=b") is None
    assert lazy.split(text) == eager.split(text)
    assert (lazy.pattern, lazy.groups, dict(lazy.groupindex)) == (source, 2, dict(eager.groupindex))
