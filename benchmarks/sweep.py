"""Density sweep and real-corpus log: verl-doctor beside grep -E, grep -F, cat and ripgrep, in one run.

Logs (built here, deleted after use):
  copies   0% .. 20%  matching lines are copies of a few messages (barrier warning, nan metric
                      lines, grad_norm warnings, NCCL watchdog) with varying pids/ranks/numbers
  distinct 0.1% .. 20%  every matching line is a different message (rule examples, unique tails)
  corpus              the real logs of a corpus directory, shuffled and repeated
Each log buries a CUDA out-of-memory crash; verl-doctor's findings must be exactly the rules
the log was built with. Tools, each on the same file:
  verl-doctor explain --format json FILE
  LC_ALL=C grep -E -c -f SIGNATURES FILE | cat    (the catalog's signatures as POSIX ERE)
  LC_ALL=C grep -F -c -e error -e Error FILE | cat
  cat FILE | wc -c
  rg -c --regex-size-limit 1G --dfa-size-limit 1G -f SIGNATURES (Rust syntax; the catalog's
  ~300 signatures exceed rg's default 100 MB compiled-size limit), timed on the first RG_SAMPLE_MB and
  scaled: with ~300 patterns it runs at a few hundred KB/s (only when installed)
grep -E gets --grep-e-timeout seconds on the whole file; past that (with ~900 signatures it
crawls where many lines match) it is timed on its first GREP_E_SAMPLE_MB and scaled, marked `~`.
On the real-corpus log grep -E is skipped (minutes); grep -F is the baseline there.

    python benchmarks/sweep.py                          # 128 MB sweep, 256 MB corpus log
    python benchmarks/sweep.py --size-mb 32 --corpus-mb 64 --only copies
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from dense_logs import distinct_examples, write_corpus_log, write_density_log  # noqa: E402
from run import _doctor, signature_files, timed  # noqa: E402

DENSITIES = {"copies": [0.0, 0.001, 0.01, 0.05, 0.2], "distinct": [0.001, 0.01, 0.05, 0.2]}
# The labelled real logs, `shared/corpus/dev` beside (or above) the checkout, if there.
DEFAULT_CORPUS = next(
    (p / "shared" / "corpus" / "dev" for p in HERE.parents if (p / "shared" / "corpus" / "dev").is_dir()),
    HERE.parent.parent / "shared" / "corpus" / "dev",
)
RG_SAMPLE_MB = 4
RG = ["rg", "-c", "--regex-size-limit", "1G", "--dfa-size-limit", "1G"]
RG_TIMEOUT_S = 60
GREP_E_SAMPLE_MB = 1


def _best(reps: int, cmd: list[str], **kw: object) -> tuple[float, int, bytes]:
    runs = [timed(cmd, **kw) for _ in range(reps)]  # type: ignore[arg-type]
    return min(runs, key=lambda r: r[0])


def _head(path: Path, mb: int) -> tuple[Path, int]:
    """The first `mb` MB of `path` (whole lines) as a file beside it, and its size in bytes."""
    sample = path.with_suffix(".sample")
    with open(path, "rb") as src:
        head = src.read(mb * 1_000_000)
    head = head[: head.rfind(b"\n") + 1]
    sample.write_bytes(head)
    return sample, len(head)


def _rg_scaled(path: Path, sigs: Path, size_mb: float) -> float | None:
    if not shutil.which("rg"):
        return None
    sample, size = _head(path, RG_SAMPLE_MB)
    try:
        t, _, _ = timed([*RG, "-f", str(sigs), str(sample)], timeout=RG_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return float("inf")
    finally:
        sample.unlink()
    return t * size_mb / (size / 1e6)


def _grep_e(path: Path, sigs: Path, reps: int, size_mb: float, limit_s: float) -> tuple[float, bool]:
    """grep -E's time on the whole of `path`, or (when it runs past `limit_s`) its time on the
    first GREP_E_SAMPLE_MB scaled to the whole; and whether it was scaled."""
    cmd = ["env", "LC_ALL=C", "grep", "-E", "-c", "-f", str(sigs)]
    try:
        t, _, _ = _best(reps, [*cmd, str(path)], pipe_to_cat=True, timeout=limit_s)
        return t, False
    except subprocess.TimeoutExpired:
        pass
    sample, size = _head(path, GREP_E_SAMPLE_MB)
    try:
        t, _, _ = _best(reps, [*cmd, str(sample)], pipe_to_cat=True)
    finally:
        sample.unlink()
    return t * size_mb / (size / 1e6), True


def measure(
    path: Path,
    expected: list[str],
    sig_ere: Path,
    sig_rust: Path,
    reps: int,
    grep_e: bool = True,
    grep_e_limit_s: float = 120.0,
) -> dict:
    """Every tool on `path`. Without `grep_e` (the real-corpus log, where GNU grep -E with
    ~300 signatures takes minutes) grep -F is the baseline."""
    size_mb = path.stat().st_size / 1e6
    t, rss, out = _best(reps, [*_doctor(), "explain", "--format", "json", str(path)])
    found = reported(json.loads(out))
    grep_e_s: float | None = None
    grep_e_scaled = False
    if grep_e:
        grep_e_s, grep_e_scaled = _grep_e(path, sig_ere, reps, size_mb, grep_e_limit_s)
    grep_f, _, _ = _best(
        reps,
        ["env", "LC_ALL=C", "grep", "-F", "-c", "-e", "error", "-e", "Error", str(path)],
        pipe_to_cat=True,
    )
    cat, _, _ = _best(reps, ["sh", "-c", f'cat "{path}" | wc -c'])
    rg = _rg_scaled(path, sig_rust, size_mb)
    return {
        "size_mb": size_mb,
        "doctor_s": t,
        "doctor_rss_mb": rss,
        "correct": found == sorted(expected),
        "found": found,
        "expected": sorted(expected),
        "grep_e_s": grep_e_s,
        "grep_e_scaled": grep_e_scaled,
        "grep_f_s": grep_f,
        "cat_s": cat,
        "rg_s": rg,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size-mb", type=int, default=128, help="size of each sweep log")
    ap.add_argument("--corpus-mb", type=int, default=256, help="size of the real-corpus log (0: skip)")
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="directory of real *.log files")
    ap.add_argument("--only", choices=("copies", "distinct", "corpus"), action="append")
    ap.add_argument("--reps", type=int, default=1)
    ap.add_argument(
        "--grep-e-timeout",
        type=float,
        default=120.0,
        help="seconds grep -E gets on a whole log before it is timed on a sample and scaled",
    )
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    shapes = args.only or ["copies", "distinct", "corpus"]
    rows: list[tuple[str, dict]] = []
    with tempfile.TemporaryDirectory(prefix="verl-doctor-sweep-") as td:
        tmp = Path(td)
        sig_ere, sig_rust, n_sigs, n_ere, n_rust = signature_files(tmp)
        examples = distinct_examples() if "distinct" in shapes else []
        for shape in ("copies", "distinct"):
            if shape not in shapes:
                continue
            for density in DENSITIES[shape]:
                path = tmp / f"{shape}-{density}.log"
                expected = write_density_log(path, args.size_mb, density, shape, examples)
                result = measure(path, expected, sig_ere, sig_rust, args.reps, True, args.grep_e_timeout)
                rows.append((f"{shape} {density * 100:g}%", result))
                path.unlink()
                _report_row(rows[-1], args.json)
        if "corpus" in shapes and args.corpus_mb and args.corpus.is_dir():
            path = tmp / "corpus.log"
            one_round = write_corpus_log(path, args.corpus, args.corpus_mb)
            expected = _without_memo(one_round)
            rows.append(("real corpus", measure(path, expected, sig_ere, sig_rust, args.reps, grep_e=False)))
            path.unlink()
            _report_row(rows[-1], args.json)
    if args.json:
        print(json.dumps({"signatures": [n_sigs, n_ere, n_rust], "rows": dict(rows)}, indent=2))
        return 0
    print()
    print(
        f"catalog: {n_sigs} signatures ({n_ere} as ERE for grep -E, {n_rust} for rg); "
        f"{os.cpu_count()} cores; best of {args.reps}"
    )
    print_table(rows)
    return 0


def _without_memo(data: bytes) -> list[str]:
    """The rules found in one round of the corpus log, with the memo off: the whole log, with
    every line repeated hundreds of times, must give the same."""
    from verl_doctor.engine.session import Session
    from verl_doctor.render import json_out

    session = Session()
    session.analyzer.memo.enabled = False
    scanner = session.scanner("corpus")
    session.feed(scanner, data)
    session.finish(scanner)
    return reported(json.loads(json_out.render(session.report())))


def reported(report: dict) -> list[str]:
    """The rule codes of a JSON report: findings, and warnings marked `(warning)`."""
    codes = {f["rule"] for f in report["findings"]}
    codes |= {f"{w['rule']} (warning)" for w in report["warnings"]}
    return sorted(codes)


def _report_row(row: tuple[str, dict], quiet: bool) -> None:
    """One line on stderr as each log is done (the table comes at the end)."""
    if not quiet:
        name, r = row
        print(f"  measured {name}: {json.dumps(r)}", file=sys.stderr, flush=True)


def print_table(rows: list[tuple[str, dict]]) -> None:
    head = (
        f"{'log':15} {'MB':>5} | {'verl-doctor':>11} {'MB/s':>6} {'x grep-E':>8} {'RSS MB':>6} {'ok':>3} | "
        f"{'grep -E s':>9} {'grep -F s':>9} {'x grep-F':>8} | {'cat s':>6} | {'rg s':>8}"
    )
    print(head)
    print("-" * len(head))
    for name, r in rows:
        rg = r["rg_s"]
        ok = "yes" if r["correct"] else "NO"
        grep_e = r["grep_e_s"]
        mark = "~" if r.get("grep_e_scaled") else ""
        ge_s, ge_x = (
            ("-", "-") if grep_e is None else (f"{mark}{grep_e:.2f}", f"{mark}{grep_e / r['doctor_s']:.2f}")
        )
        rg_text = "-" if rg is None else ("timeout" if rg == float("inf") else f"{rg:8.1f}")
        print(
            f"{name:15} {r['size_mb']:5.0f} | {r['doctor_s']:11.2f} {r['size_mb'] / r['doctor_s']:6.0f} "
            f"{ge_x:>8} {r['doctor_rss_mb']:6d} {ok:>3} | "
            f"{ge_s:>9} {r['grep_f_s']:9.2f} {r['doctor_s'] / r['grep_f_s']:8.1f} | "
            f"{r['cat_s']:6.2f} | {rg_text:>8}"
        )
    print(
        "x grep-E: grep -E time / verl-doctor time (above 1: verl-doctor is faster); "
        "x grep-F: verl-doctor time / grep -F time; rg: scaled from its first "
        f"{RG_SAMPLE_MB} MB; ~: grep -E timed on the first {GREP_E_SAMPLE_MB} MB and scaled; "
        "ok: findings are exactly the rules the log was built with"
    )


if __name__ == "__main__":
    sys.exit(main())
