"""No rule can stall a run: a user rule that backtracks is not loaded unless asked for, and
when loaded it is switched off after its first timeouts, with one note naming it and its file.
(`benchmarks/slow_rule.py` times the same over 100,000 lines.)"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from verl_doctor.catalog.load import load_catalog
from verl_doctor.engine import analyze, verdict
from verl_doctor.engine.session import Session

SLOW_RULE = (Path(__file__).resolve().parents[1] / "benchmarks" / "slow_rule.py").read_text()
RULE_YAML = SLOW_RULE.split('RULE = """', 1)[1].split('"""', 1)[0]
ADVERSARIAL = ("a" * 26 + "b\n") * 40


@pytest.fixture
def slow_rules(tmp_path: Path) -> Path:
    folder = tmp_path / "team-rules"
    rule = folder / "flow" / "FLOW990-backtracking-user-rule.yaml"
    rule.parent.mkdir(parents=True)
    rule.write_text(RULE_YAML, encoding="utf-8")
    return folder


def _session(folder: Path, monkeypatch: pytest.MonkeyPatch) -> Session:
    monkeypatch.setattr(verdict, "REGEX_TIMEOUT", 0.005)  # the same switch-off, sooner
    catalog = load_catalog(extra_dirs=[str(folder)], use_cache=False, allow_slow_rules=True, environ={})
    assert catalog.by_id("FLOW990") is not None
    session = Session(catalog)
    scanner = session.scanner("adversarial.log")
    session.feed(scanner, ADVERSARIAL.encode())
    session.finish(scanner)
    return session


def test_a_rule_is_switched_off_after_its_first_timeouts(
    slow_rules: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = _session(slow_rules, monkeypatch)
    analyzer = session.analyzer
    assert analyzer.switched_off == {"FLOW990"}
    timeouts, _note = analyzer._timed_out["FLOW990"]
    assert timeouts == analyze.RULE_MAX_TIMEOUTS
    assert analyzer._spent["FLOW990"][1] == analyze.RULE_MAX_TIMEOUTS  # never searched again
    notes = [n for n in session.report().notes if "FLOW990" in n]
    assert len(notes) == 1 and "switched off" in notes[0]
    assert str(slow_rules / "flow" / "FLOW990-backtracking-user-rule.yaml") in notes[0]


def test_a_rule_over_its_time_budget_is_switched_off_once(
    slow_rules: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(analyze, "RULE_MAX_TIMEOUTS", 10**6)
    monkeypatch.setattr(analyze, "RULE_TIME_BUDGET", 0.02)
    monkeypatch.setattr(analyze, "SLOW_SEARCH", 0.0005)
    session = _session(slow_rules, monkeypatch)
    assert session.analyzer.switched_off == {"FLOW990"}
    assert session.analyzer._spent["FLOW990"][1] < 40
    notes = [n for n in session.report().notes if "FLOW990" in n]
    assert len(notes) == 1 and "switched off" in notes[0], notes


def test_catastrophic_user_rules_load_only_when_asked(run_cli, slow_rules: Path, tmp_path: Path) -> None:
    log = tmp_path / "a.log"
    log.write_text("aaaaaaaa\n")
    r = run_cli(["explain", "--format", "json", "--rules", str(slow_rules), str(log)])
    err = r.stderr.decode()
    assert r.returncode == 0 and err.count("\n") == 1 and "FLOW990" in err and "--allow-slow-rules" in err, (
        err
    )
    r = run_cli(["explain", "--format", "json", "--allow-slow-rules", "--rules", str(slow_rules), str(log)])
    assert json.loads(r.stdout)["findings"][0]["rule"] == "FLOW990" and not r.stderr
    r = run_cli(["explain", "--format", "json", str(log)], env={"VERL_DOCTOR_RULES": str(slow_rules)})
    assert "FLOW990" in r.stderr.decode() and not json.loads(r.stdout)["findings"]
