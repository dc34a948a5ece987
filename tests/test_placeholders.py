"""Causes and fix steps are filled from what the signatures captured."""

from __future__ import annotations

from verl_doctor.common.placeholders import fill_placeholders

_CAUSE = "Could not load the model{?path: at {path}}{!damaged:: the path is not a folder}.{?damaged: A file is damaged.}"


def test_a_conditional_shows_when_its_name_was_captured_and_a_negated_one_when_not() -> None:
    assert fill_placeholders(_CAUSE, {}) == "Could not load the model: the path is not a folder."
    assert (
        fill_placeholders(_CAUSE, {"path": "/m"})
        == "Could not load the model at /m: the path is not a folder."
    )
    assert (
        fill_placeholders(_CAUSE, {"damaged": "HeaderTooLarge"})
        == "Could not load the model. A file is damaged."
    )


def test_an_unknown_name_takes_its_fallback_or_stays_for_commands() -> None:
    assert fill_placeholders("ls {path|/abs/model}", {}) == "ls /abs/model"
    assert fill_placeholders("ls {path}", {}) == "ls ?"
    assert fill_placeholders("ls {path}", {}, keep_unknown=True) == "ls {path}"


def test_a_conditional_over_several_names_shows_when_any_or_none_was_captured() -> None:
    text = "{?a,b:some}{!a,b:none}"
    assert fill_placeholders(text, {}) == "none"
    assert fill_placeholders(text, {"b": "x"}) == "some"
    assert fill_placeholders(text, {"a": "x", "b": "y"}) == "some"


def test_conditionals_nest() -> None:
    text = "{!shm:Host RAM ran out{?used:: {used} GB}. }{?shm:{shm} is full{?used: ({used} GB)}. }Done."
    assert fill_placeholders(text, {"used": "9"}) == "Host RAM ran out: 9 GB. Done."
    assert fill_placeholders(text, {"shm": "/dev/shm"}) == "/dev/shm is full. Done."
    assert fill_placeholders(text, {"shm": "/dev/shm", "used": "1"}) == "/dev/shm is full (1 GB). Done."
    assert fill_placeholders(text, {}) == "Host RAM ran out. Done."
