"""Negations written another way (`donot`, `don't`, `cannot`) still match the rule that wrote them
one way: retyped messages in issue titles and other releases' wording are the same failure."""

from __future__ import annotations

import json
import re

import pytest

from verl_doctor.catalog.literals import required_literals
from verl_doctor.catalog.spelling import tolerant


@pytest.mark.parametrize(
    ("pattern", "texts", "not_texts"),
    [
        (
            "tokens do not match",
            ["tokens do not match", "tokens donot match", "tokens don't match", "tokens dont match"],
            ["tokens do match", "tokens do now match"],
        ),
        ("doesn't support", ["does not support", "doesnot support", "doesnt support"], ["does support"]),
        (
            "Cannot re-initialize",
            ["Cannot re-initialize", "Can not re-initialize", "Can't re-initialize"],
            [],
        ),
        (r"\bis not a valid", ["is not a valid", "isn't a valid", "isnot a valid"], ["is a valid"]),
    ],
)
def test_a_negation_matches_its_other_spellings(pattern: str, texts: list[str], not_texts: list[str]) -> None:
    widened = re.compile(tolerant(pattern))
    assert all(widened.search(t) for t in texts)
    assert not any(widened.search(t) for t in not_texts)


@pytest.mark.parametrize(
    "pattern",
    [r"\\do not", "xdo not", "(?:is|are) not supported", "[Dd]o not", "nothing here"],
)
def test_escaped_or_inner_words_are_left_alone(pattern: str) -> None:
    assert tolerant(pattern) == pattern


def test_the_prefilter_literals_cover_every_spelling() -> None:
    literals = required_literals(tolerant("image tokens do not match"))
    assert literals is not None
    for text in ("image tokens donot match", "image tokens don't match"):
        assert any(lit in text for lit in literals)


def test_a_retyped_message_is_recognised_from_the_cli(run_cli) -> None:  # type: ignore[no-untyped-def]
    log = "> ValueError: Image features and image tokens donot match: tokens: 4, features 655\n"
    proc = run_cli(["explain", "--format", "json"], stdin=log.encode())
    assert proc.returncode == 1, proc.stderr
    assert [f["rule"] for f in json.loads(proc.stdout)["findings"]] == ["FLOW005"]
