"""Check that no rule can stall a run: a user rule with a catastrophically backtracking regex,
`(a|aa)+$`, over a 100,000-line log of lines it backtracks on.

Without `--allow-slow-rules` the rule is not loaded (one warning); with it, the rule is switched
off after its first timeouts (one note naming it and its file) and the run stays bounded.
Exits 1 when a run takes 15 s or more, or the warnings are not as described.

    python benchmarks/slow_rule.py            # 100,000 lines
    python benchmarks/slow_rule.py --lines 20000
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LIMIT_SECONDS = 15.0
RULE = """id: FLOW990
name: backtracking-user-rule
category: flow
title:
  en: A user rule that backtracks
  zh: 回溯的用户规则
signatures:
  - '(a|aa)+$'
literals:
  - aaaa
cause:
  en: Lines of a's.
  zh: 一行 a。
fixes:
  - step:
      en: Nothing to do.
      zh: 无需处理。
    commands:
      - 'true'
references:
  - verl/trainer/main_ppo.py
examples:
  match:
    - aaaaaaaa
  no_match:
    - bbbb
"""


def _run(args: list[str], cwd: Path) -> tuple[float, float, subprocess.CompletedProcess[str]]:
    """Wall and CPU seconds of one `explain` run (the CPU time shows what a loaded machine's
    wall time hides)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "verl_doctor", "explain", "--format", "json", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "HOME": str(cwd), "XDG_CACHE_HOME": str(cwd / "cache")},
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, cpu, proc


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=100_000)
    lines = parser.parse_args().lines
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        rule = work / "rules" / "flow" / "FLOW990-backtracking-user-rule.yaml"
        rule.parent.mkdir(parents=True)
        rule.write_text(RULE, encoding="utf-8")
        log = work / "adversarial.log"
        log.write_text(("a" * 28 + "b\n") * lines)

        empty = work / "empty.log"
        empty.write_text("")
        for flags in ([], ["--allow-slow-rules"]):  # build both catalogs' caches first: not timed
            _run([*flags, "--rules", str(work / "rules"), str(empty)], work)

        wall, cpu, proc = _run(["--rules", str(work / "rules"), str(log)], work)
        refused = [ln for ln in proc.stderr.splitlines() if "FLOW990" in ln]
        print(f"without --allow-slow-rules: {wall:6.2f} s wall, {cpu:6.2f} s CPU; stderr: {refused}")
        ok &= wall < LIMIT_SECONDS and len(refused) == 1 and "not loaded" in refused[0]

        wall, cpu, proc = _run(["--allow-slow-rules", "--rules", str(work / "rules"), str(log)], work)
        notes = [n for n in json.loads(proc.stdout)["notes"] if "FLOW990" in n]
        print(f"with --allow-slow-rules:    {wall:6.2f} s wall, {cpu:6.2f} s CPU; notes: {notes}")
        ok &= (
            wall < LIMIT_SECONDS and len(notes) == 1 and "switched off" in notes[0] and str(rule) in notes[0]
        )
    print("ok" if ok else f"FAILED (limit {LIMIT_SECONDS:g} s, one warning naming the rule and its file)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
