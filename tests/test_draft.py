"""`explain --draft-rule`: an unrecognized error becomes a rule file that lint guides to done."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

UNKNOWN = (
    "(WorkerDict pid=77, ip=10.0.0.2) Traceback (most recent call last):\n"
    '(WorkerDict pid=77, ip=10.0.0.2)   File "/opt/verl/verl/workers/fsdp_workers.py", line 900, in update_actor\n'
    "(WorkerDict pid=77, ip=10.0.0.2) FluxCapacitorError: capacitor 0x7f3a2b at /opt/data/run12/flux.bin "
    "lost sync after 88 steps\n"
)
# The same failure on another run: other address, path and count.
AGAIN = (
    "(WorkerDict pid=91, ip=10.0.0.7) FluxCapacitorError: capacitor 0x1d00 at /mnt/ckpt/b/flux.bin "
    "lost sync after 3 steps\n"
)


def test_draft_rule_from_an_unrecognized_error(run_cli, tmp_path: Path) -> None:
    r = run_cli(["explain", "--draft-rule"], stdin=UNKNOWN.encode())
    assert r.returncode == 3, r.stderr
    draft = r.stdout.decode()
    data = yaml.safe_load(draft)
    assert data["id"] == "FLOW900" and data["category"] == "flow"
    assert "update_actor" in draft  # where it was seen
    target = re.search(r"rename the file to\n# (rules/\S+\.yaml)", draft)
    assert target, draft[:300]

    pack = tmp_path / "pack"
    path = pack / target.group(1).removeprefix("rules/")
    path.parent.mkdir(parents=True)
    path.write_text(draft, encoding="utf-8")

    lint = run_cli(["rules", "lint", str(pack)])
    problems = lint.stdout.decode().splitlines()
    assert lint.returncode == 1
    assert problems and all("TODO" in p or "no fix step has a command" in p for p in problems), problems
    assert any("field cause.en" in p for p in problems)

    # Already usable: the generalized signature finds the same failure in another run.
    found = run_cli(["explain", "--rules", str(pack), "--format", "json"], stdin=AGAIN.encode())
    assert found.returncode == 1
    assert b'"rule": "FLOW900"' in found.stdout


def test_draft_rule_without_unrecognized_error_says_so(run_cli) -> None:
    r = run_cli(["explain", "--draft-rule"], stdin=b"(TaskRunner pid=1) step 3 loss 0.1\n")
    assert r.returncode == 0
    assert b"Traceback" not in r.stderr
    assert r.stdout.strip() and len(r.stdout.decode().splitlines()) <= 3
