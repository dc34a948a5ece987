"""The labelled corpus of real failure logs in tests/corpus (anonymised excerpts of public
threads and of failures made with real verl), scored the way users feel it: a wrong code
shown first, or any finding on a log that has none, fails; misses are counted, and the share
of logs whose labelled cause comes first must not fall below what it is today."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from verl_doctor.catalog.load import load_catalog
from verl_doctor.engine.session import diagnose

CORPUS = Path(__file__).with_name("corpus")
CASES = json.loads((CORPUS / "cases.json").read_text(encoding="utf-8"))
_CATALOG = load_catalog(include_user=False, use_cache=False)
TOP1_FLOOR = 0.91  # measured: 1760/1893 labelled causes first (the newest blind-built logs are the hardest)


def _codes(case: dict[str, object]) -> list[str]:
    return [f.rule for f in diagnose([str(CORPUS / str(case["file"]))], _CATALOG).findings]


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_no_wrong_code_first_and_nothing_on_quiet_logs(case: dict[str, object]) -> None:
    codes = _codes(case)
    allowed = {case["code"], *case.get("also_codes", [])} - {None}  # type: ignore[misc]
    if case["code"] is None:
        assert not [c for c in codes if c not in allowed], f"findings on a log with none: {codes}"
    elif codes:
        assert codes[0] in allowed, f"{codes[0]} first, the log is {case['code']}"


def test_labelled_causes_come_first() -> None:
    scored = [c for c in CASES if c["code"] and c.get("evidence", "visible") == "visible"]
    hits = sum(1 for c in scored if _codes(c)[:1] == [c["code"]])
    assert hits / len(scored) >= TOP1_FLOOR, f"{hits}/{len(scored)}"
