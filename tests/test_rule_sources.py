"""Every message a rule records in `sources` (the statements that print it, per project and
version), filled with sample values and printed as a worker prints it, gives that rule first.

Ids look like CFG003-src-2, so `pytest -k CFG003-src` runs one rule's sources."""

from __future__ import annotations

import pytest

from verl_doctor.catalog.load import load_catalog
from verl_doctor.catalog.source_messages import as_log, fill, parse_source, sample_value
from verl_doctor.engine.session import diagnose_text

_CATALOG = load_catalog(include_user=False, use_cache=False)
_CASES = [
    pytest.param(rule.id, entry, id=f"{rule.id}-src-{i}")
    for rule in _CATALOG.rules
    for i, entry in enumerate(rule.sources)
]


@pytest.mark.parametrize(("code", "entry"), _CASES)
def test_source_message_gives_its_rule_first(code: str, entry: str) -> None:
    log = as_log(parse_source(entry))
    report = diagnose_text(log, _CATALOG)
    # A warning-level message on its own (nothing failed) is reported as a warning.
    found = [f.rule for f in report.findings] or [f.rule for f in report.warnings]
    assert found and found[0] == code, f"expected {code} first, got {found} for:\n{log}"


def test_parse_source_splits_origin_and_text() -> None:
    msg = parse_source("verl@0.4.1 verl/trainer/ppo/ray_trainer.py: ValueError: a {n} b")
    assert (msg.project, msg.version, msg.path, msg.text) == (
        ["verl", "0.4.1"][0],
        "0.4.1",
        "verl/trainer/ppo/ray_trainer.py",
        "ValueError: a {n} b",
    )
    assert msg.origin == "verl@0.4.1 verl/trainer/ppo/ray_trainer.py"
    with pytest.raises(ValueError):
        parse_source("no origin here")


def test_fill_uses_names_and_explicit_samples() -> None:
    assert fill("GPUs {num_gpus} at {model_path} mode {mode=sync} {}") == (
        "GPUs 8 at /data/ckpt/model mode sync 8"
    )
    assert sample_value("estimator") == "bogus"


def test_raised_messages_get_a_traceback_and_logged_ones_do_not() -> None:
    raised = as_log(parse_source("vllm@0.8.5 vllm/engine/arg_utils.py: ValueError: bad {x}"))
    assert "Traceback (most recent call last):" in raised
    assert raised.rstrip().endswith("ValueError: bad value1")
    logged = as_log(parse_source("verl@0.9.1 verl/utils/tokenizer.py: tokenizer.pad_token_id is None."))
    assert "Traceback" not in logged and logged.count("\n") == 1


def test_every_rule_records_its_sources() -> None:
    missing = [r.id for r in _CATALOG.rules if not r.sources]
    assert not missing, f"rules without sources: {missing}"
