"""Every rule's own examples, run against the whole built-in catalog as users see it.

A `match` example must give its rule as the first finding; a `no_match` example must not give
the rule at all. Ids look like FLOW004-match-0, so `pytest -k FLOW004` runs one rule."""

from __future__ import annotations

import pytest

from verl_doctor.catalog import load_catalog
from verl_doctor.engine import diagnose_text

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


def test_catalog_is_not_empty() -> None:
    assert len(_CATALOG.rules) >= 12
    assert not _CATALOG.problems, [str(p) for p in _CATALOG.problems]
