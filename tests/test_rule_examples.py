"""Every rule's own examples, run against the whole built-in catalog as users see it.

A `match` example must give its rule as the first finding; a `no_match` example must not give
the rule at all. Ids look like FLOW004-match-0, so `pytest -k FLOW004` runs one rule.

The first finding of each `match` example is also rendered (title, cause with its placeholders
filled, fix steps and commands) and compared with `tests/snapshots/rules/<CODE>.txt`, so a
broken placeholder or a changed fix fails here. After a deliberate change, rewrite the
snapshots with `VERL_DOCTOR_UPDATE_SNAPSHOTS=1 python -m pytest tests/test_rule_examples.py`
and read the diff."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from verl_doctor.catalog.load import load_catalog
from verl_doctor.engine.session import diagnose_text

_CATALOG = load_catalog(include_user=False, use_cache=False)
_CASES = [
    pytest.param(rule.id, kind, text, id=f"{rule.id}-{kind}-{i}")
    for rule in _CATALOG.rules
    for kind, texts in (("match", rule.examples_match), ("no_match", rule.examples_no_match))
    for i, text in enumerate(texts)
]


@pytest.mark.parametrize(("code", "kind", "text"), _CASES)
def test_rule_example(code: str, kind: str, text: str) -> None:
    report = diagnose_text(text, _CATALOG)
    errors = [f.rule for f in report.findings]
    if kind == "match":
        # A warning-level message on its own (nothing failed) is reported as a warning.
        codes = errors or [f.rule for f in report.warnings]
        assert codes and codes[0] == code, f"expected {code} first, got {codes}"
    else:
        # A look-alike may still be reported as a warning; it must never be an error.
        assert code not in errors, f"{code} matched its no_match example"


SNAPSHOTS = Path(__file__).parent / "snapshots" / "rules"


def rendered_first_finding(text: str) -> str:
    """The first finding as the user reads it: code, title, cause, numbered fixes."""
    report = diagnose_text(text, _CATALOG)
    found = (report.findings or report.warnings)[0]
    lines = [f"{found.rule} {found.title}", f"cause: {found.cause}"]
    for i, fix in enumerate(found.fixes, 1):
        lines.append(f"{i}. {fix.step}")
        lines += [f"   $ {command}" for command in fix.commands]
    return "\n".join(lines)


@pytest.mark.parametrize("code", sorted({rule.id for rule in _CATALOG.rules if rule.examples_match}))
def test_rendered_findings_match_snapshot(code: str) -> None:
    rule = _CATALOG.by_id(code)
    assert rule is not None
    rendered = "\n\n".join(
        f"--- match example {i}\n{rendered_first_finding(text)}" for i, text in enumerate(rule.examples_match)
    )
    path = SNAPSHOTS / f"{code}.txt"
    if os.environ.get("VERL_DOCTOR_UPDATE_SNAPSHOTS"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(rendered + "\n", encoding="utf-8")
    assert path.exists(), f"no snapshot for {code}: run with VERL_DOCTOR_UPDATE_SNAPSHOTS=1"
    assert rendered + "\n" == path.read_text(encoding="utf-8")


def test_catalog_is_not_empty() -> None:
    assert len(_CATALOG.rules) >= 12
    assert not _CATALOG.problems, [str(p) for p in _CATALOG.problems]
