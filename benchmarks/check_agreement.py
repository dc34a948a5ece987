"""Does `verl-doctor check` agree with real verl? Run every case of a case file
(tests/fixtures/check/cases.json for verl 0.9.1, cases-0.5.0.json for 0.5.0) through a CPU
sandbox of that verl and through `check`, and print the agreement table.

    python benchmarks/check_agreement.py --sandbox ~/.cache/verl-sandbox [--record] [--only NAME]
    python benchmarks/check_agreement.py --sandbox ~/.cache/verl-sandbox-0.5.0 --spec cases-0.5.0.json
    python benchmarks/check_agreement.py --sandbox ~/.cache/verl-sandbox --spec cases-sft.json --jobs 1

The sandbox is a folder with `venv/` (verl installed), `base-args` (a working command line) and
the model and data files that base-args names. verl's verdict for a case is the rule code that
`verl-doctor explain` names on verl's output, or `pass` when verl got past its config
validation to the GPU resource check (the sandbox has no GPU, so that is where a correct
command stops). A case file whose entry point stops elsewhere on CPU names that code as
`pass_code` (verl.trainer.sft_trainer: DIST001, the process group it creates right after Hydra
has composed the config, which a plain `python -m` without torchrun's variables cannot).
A case may name its own `entry` (a module the release does not ship, say). `check`'s verdict
is the code of its first certain finding (warnings do not reject a command), or `pass`.

With --record, verl's output (trimmed to its last lines, sandbox paths replaced by `{S}`) is
written to tests/fixtures/check/<logs>/NAME.log and the verdicts to <logs>/expected.json, which
tests/test_check_agreement.py replays without verl. --from-logs judges recorded outputs again.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "check"
ANSI = re.compile(r"\x1b\[[0-9;]*m")
KEEP_LINES = 60
GPU_CHECK = "CFG003"  # the sandbox has no GPU: a correct command fails here


def doctor() -> str:
    here = Path(sys.executable).parent / "verl-doctor"
    return str(here) if here.exists() else "verl-doctor"


def case_args(case: dict[str, Any], sandbox: str, base_file: str = "base-args") -> list[str]:
    base = (FIXTURES / base_file).read_text().split()
    args = [str(a) for a in case.get("before", [])] + base + [str(a) for a in case["args"]]
    return [a.replace("{S}", sandbox).replace("{F}", str(FIXTURES / "files")) for a in args]


def trim(output: str, sandbox: str) -> str:
    text = ANSI.sub("", output).replace(sandbox, "{S}").replace(str(FIXTURES / "files"), "{F}")
    lines = [ln for ln in text.splitlines() if ln.strip()]
    return "\n".join(lines[-KEEP_LINES:]) + "\n"


def explain_code(log_text: str, pass_code: str = GPU_CHECK) -> str:
    proc = subprocess.run(
        [doctor(), "explain", "--format", "json", "--no-user-rules"],
        input=log_text,
        capture_output=True,
        text=True,
        check=False,
    )
    try:
        findings = json.loads(proc.stdout)["findings"]
    except (ValueError, KeyError):
        return "error"
    roots = [f["rule"] for f in findings if not f["symptom"]] or [f["rule"] for f in findings]
    if not roots:
        return "none"
    return "pass" if roots[0] == pass_code else str(roots[0])


def check_code(args: list[str], entry: str, version: str) -> str:
    proc = subprocess.run(
        [doctor(), "check", "--format", "json", "--verl-version", version, "--", "python3", "-m", entry]
        + args,
        capture_output=True,
        text=True,
        check=False,
    )
    try:
        findings = json.loads(proc.stdout)["findings"]
    except (ValueError, KeyError):
        return f"error(rc={proc.returncode})"
    # Warnings (confidence medium: may fail once workers run) do not reject a command.
    certain = [f["rule"] for f in findings if f["confidence"] == "high"]
    return str(certain[0]) if certain else "pass"


def run_verl(python: str, entry: str, args: list[str], timeout: int) -> str:
    """verl's output for one command. It runs in its own session, and on a timeout the whole
    group (the driver and the Ray processes it started) is killed, so that cases running side
    by side do not stop each other's Ray clusters."""
    env = dict(os.environ, HYDRA_FULL_ERROR="0", PYTHONUNBUFFERED="1")
    # Hydra writes outputs/ into the working directory: keep it out of this checkout.
    work = tempfile.mkdtemp(prefix="verl-case-")
    proc = subprocess.Popen(
        [python, "-m", entry, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
        cwd=work,
        start_new_session=True,
    )
    try:
        output, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        output, _ = proc.communicate()
        output += "\n[timed out]\n"
    shutil.rmtree(work, ignore_errors=True)
    return output


# The sandbox machine, not verl's config handling, failed: such a run says nothing and is redone.
INFRA = (
    "[timed out]",
    "The current node timed out during startup",
    "Owner's node has crashed",
    "node has crashed",
)


def _recorded(path: Path) -> bool:
    return path.exists() and not any(mark in path.read_text() for mark in INFRA)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sandbox", required=True, help="sandbox folder (venv/, base-args)")
    p.add_argument("--record", action="store_true", help="write verl's outputs and verdicts as fixtures")
    p.add_argument("--only", action="append", default=[], help="run only this case (repeatable)")
    p.add_argument("--timeout", type=int, default=300, help="seconds per verl run")
    p.add_argument("--jobs", type=int, default=2, help="verl runs at once (each starts its own Ray)")
    p.add_argument(
        "--spec", default="cases.json", help="case file in tests/fixtures/check/ (one per verl version)"
    )
    p.add_argument("--resume", action="store_true", help="with --record: skip cases already recorded")
    p.add_argument("--from-logs", action="store_true", help="judge the recorded outputs again, without verl")
    opts = p.parse_args()
    sandbox = str(Path(opts.sandbox).expanduser().resolve())
    python = str(Path(sandbox) / "venv" / "bin" / "python")
    spec = json.loads((FIXTURES / opts.spec).read_text())
    version = spec["verl_version"]
    expected_path = FIXTURES / spec["logs"] / "expected.json"
    expected = json.loads(expected_path.read_text()) if expected_path.exists() else {}
    out_dir = FIXTURES / spec["logs"]
    out_dir.mkdir(exist_ok=True)
    cases = [c for c in spec["cases"] if not opts.only or c["name"] in opts.only]
    if opts.resume or opts.from_logs:
        recorded = [c for c in cases if _recorded(out_dir / f"{c['name']}.log")]
        cases = recorded if opts.from_logs else [c for c in cases if c not in recorded]

    def one(case: dict[str, Any]) -> tuple[str, str, str, float]:
        args = case_args(case, sandbox, spec["base_args"])
        entry = case.get("entry", spec["entry"])
        started = time.monotonic()
        if opts.from_logs:
            log_text = (out_dir / f"{case['name']}.log").read_text()
        else:
            log_text = trim(run_verl(python, entry, args, opts.timeout), sandbox)
        seconds = time.monotonic() - started
        verl = explain_code(log_text, spec.get("pass_code", GPU_CHECK))
        mine = check_code(args, entry, version)
        if any(mark in log_text for mark in INFRA):
            verl = "infra"
        if opts.record and not opts.from_logs and verl != "infra":
            (out_dir / f"{case['name']}.log").write_text(log_text)
        print(
            f"{case['name']:40} verl={verl:8} check={mine:8} "
            f"{'ok' if verl == mine else 'DIFFER'} {seconds:.0f}s"
        )
        sys.stdout.flush()
        return case["name"], verl, mine, seconds

    with ThreadPoolExecutor(max_workers=max(1, opts.jobs)) as pool:
        rows = list(pool.map(one, cases))
    agree = sum(verl == mine for _, verl, mine, _ in rows)
    if opts.record:
        for name, verl, _, _ in rows:
            if verl == "infra":
                continue
            expected[name] = {"verl": verl, "verl_version": version}
        expected_path.write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n")
    print(f"\n{agree}/{len(rows)} agree")
    print("\n| case | override | verl | check |\n|---|---|---|---|")
    by_name = {c["name"]: c for c in spec["cases"]}
    for name, verl, mine, _ in rows:
        shown = shlex.join(by_name[name]["args"]).replace("|", "\\|")
        print(f"| {name} | `{shown}` | {verl} | {mine} |")
    return 0 if agree == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
