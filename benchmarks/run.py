"""Benchmark verl-doctor against grep -E, ripgrep and cat, side by side in one run.

For each size it generates (once, seeded) a realistic verl log with known errors buried in it,
then measures wall time, throughput and peak RSS of:
  verl-doctor explain --format json FILE       (the full shipped catalog)
  cat FILE | verl-doctor explain --format json  (stdin from a pipe)
  grep -E -c -f SIGNATURES FILE | cat          (the same signatures, as POSIX ERE)
  rg -c -f SIGNATURES FILE | cat               (when ripgrep is installed; with ~300
                                               patterns it runs at a few hundred KB/s, so it
                                               is timed on the first RG_SAMPLE_MB of the log)
  cat FILE | wc -c
It checks that verl-doctor's findings are exactly the buried errors, measures peak memory on a
single 200 MB line without a newline, and the start-up ratio: diagnosing a 20-line paste vs
`python -c "import typer, rich.console, pydantic, yaml, regex"`.

    python benchmarks/run.py                 # 100 MB and 1 GB
    python benchmarks/run.py --sizes 100     # quicker
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from generate_log import generate  # noqa: E402

VENV_BIN = Path(sys.executable).parent


def _doctor() -> list[str]:
    exe = shutil.which("verl-doctor", path=str(VENV_BIN)) or shutil.which("verl-doctor")
    return [exe] if exe else [sys.executable, "-m", "verl_doctor"]


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # a normal install has its bytecode cached
    env["NO_COLOR"] = "1"
    return env


GNU_TIME = "/usr/bin/time"


RG_SAMPLE_MB = 4
RG_TIMEOUT_S = 300


def timed(
    cmd: list[str],
    stdin_path: Path | None = None,
    pipe_to_cat: bool = False,
    pipe_from_cat: bool = False,
    timeout: float | None = None,
) -> tuple[float, int, bytes]:
    """(seconds, peak RSS in MB of the measured command itself, its stdout).

    RSS comes from GNU time wrapped around the command alone (a fork of this Python process
    would report the parent's pages). With `pipe_to_cat`, the output goes through `| cat`:
    grep stops early when it writes to /dev/null. With `pipe_from_cat`, stdin is `cat FILE |`
    (a real pipe, not a redirected file)."""
    fd, rss_name = tempfile.mkstemp(suffix=".rss")
    os.close(fd)
    wrapped = [GNU_TIME, "-f", "%M", "-o", rss_name, *cmd] if os.path.exists(GNU_TIME) else cmd
    feeder = None
    start = time.perf_counter()
    if stdin_path and pipe_from_cat:
        feeder = subprocess.Popen(["cat", str(stdin_path)], stdout=subprocess.PIPE)
        stdin = feeder.stdout
    else:
        stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL  # noqa: SIM115
    proc = subprocess.Popen(
        wrapped,
        stdin=stdin,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_env(),
        start_new_session=True,
    )
    if feeder is not None:
        feeder.stdout.close()  # type: ignore[union-attr]
    if pipe_to_cat:
        cat = subprocess.Popen(["cat"], stdin=proc.stdout, stdout=subprocess.PIPE)
        proc.stdout.close()  # type: ignore[union-attr]
        try:
            out = cat.communicate(timeout=timeout)[0]
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)  # the command; cat then sees the pipe close
            cat.communicate()
            proc.wait()
            raise
    else:
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)  # GNU time and the command under it
            proc.communicate()
            raise
    if pipe_to_cat:
        err = proc.stderr.read() if proc.stderr else b""
    rc = proc.wait()
    if feeder is not None:
        feeder.wait()
    elapsed = time.perf_counter() - start
    if stdin_path and feeder is None:
        stdin.close()  # type: ignore[union-attr]
    if rc not in (0, 1, 3):
        raise RuntimeError(f"{cmd[0]} failed ({rc}): {err.decode(errors='replace')[-300:]}")
    try:
        rss = int(Path(rss_name).read_text().split()[-1]) // 1024
    except (OSError, ValueError, IndexError):
        rss = -1
    os.unlink(rss_name)
    return elapsed, rss, out


def best_of(n: int, fn):  # type: ignore[no-untyped-def]
    runs = [fn() for _ in range(n)]
    return min(runs, key=lambda r: r[0]), runs


def to_ere(pattern: str) -> str | None:
    """Python regex -> POSIX ERE for grep -E, or None when it has no ERE equivalent."""
    if re.search(r"\(\?[=!<]|\\[bB]|\(\?i\)", pattern):
        pattern = re.sub(r"\(\?<?[=!][^()]*\)", "", pattern).replace("\\b", "")
        if "(?" in pattern.replace("(?:", "").replace("(?P<", ""):
            return None
    pattern = re.sub(r"\(\?P<\w+>", "(", pattern).replace("(?:", "(")
    for py, ere in (
        ("\\d", "[0-9]"),
        ("\\s", "[[:space:]]"),
        ("\\S", "[^[:space:]]"),
        ("\\w", "[[:alnum:]_]"),
    ):
        pattern = pattern.replace(py, ere)
    pattern = re.sub(r"\[([^\]]*)\[\[:(\w+):\]\]([^\]]*)\]", r"[\1[:\2:]\3]", pattern)
    return pattern


def to_rust(pattern: str) -> str | None:
    """Python regex -> Rust regex for ripgrep (no look-around; group names may not repeat)."""
    if re.search(r"\(\?<?[=!]", pattern):
        pattern = re.sub(r"\(\?<?[=!][^()]*\)", "", pattern)
    return re.sub(r"\(\?P<\w+>", "(", pattern)


def signature_files(tmp: Path) -> tuple[Path, Path, int]:
    from verl_doctor.catalog.load import load_catalog

    sigs = [s for r in load_catalog(include_user=False).rules for s in r.signatures]
    ere = [p for p in (to_ere(s) for s in sigs) if p]
    rust = [p for p in (to_rust(s) for s in sigs) if p]
    valid_ere = []
    for p in ere:  # keep what grep accepts
        if subprocess.run(["grep", "-E", "-c", "-e", p, "/dev/null"], capture_output=True).returncode in (
            0,
            1,
        ):
            valid_ere.append(p)
    valid_rust = [
        p
        for p in rust
        if not shutil.which("rg")
        or subprocess.run(["rg", "-c", "-e", p, "/dev/null"], capture_output=True).returncode in (0, 1)
    ]
    (tmp / "sigs.ere").write_text("\n".join(valid_ere) + "\n")
    (tmp / "sigs.rust").write_text("\n".join(valid_rust) + "\n")
    return tmp / "sigs.ere", tmp / "sigs.rust", len(sigs), len(valid_ere), len(valid_rust)


def throughput_rows(path: Path, manifest: list[str], sig_ere: Path, sig_rust: Path, reps: int) -> list[dict]:
    size_mb = path.stat().st_size / 1e6
    doctor = _doctor()
    rows = []
    (t, rss, out), _ = best_of(reps, lambda: timed([*doctor, "explain", "--format", "json", str(path)]))
    codes = sorted(f["rule"] for f in json.loads(out)["findings"])
    rows.append(
        {
            "tool": "verl-doctor (file)",
            "s": t,
            "MB/s": size_mb / t,
            "rss_mb": rss,
            "correct": codes == sorted(manifest),
            "found": codes,
        }
    )
    (t, rss, out), _ = best_of(
        reps, lambda: timed([*doctor, "explain", "--format", "json"], stdin_path=path, pipe_from_cat=True)
    )
    codes = sorted(f["rule"] for f in json.loads(out)["findings"])
    rows.append(
        {
            "tool": "verl-doctor (stdin pipe)",
            "s": t,
            "MB/s": size_mb / t,
            "rss_mb": rss,
            "correct": codes == sorted(manifest),
        }
    )
    (t, rss, _), _ = best_of(
        reps, lambda: timed(["grep", "-E", "-c", "-f", str(sig_ere), str(path)], pipe_to_cat=True)
    )
    rows.append({"tool": "grep -E -c | cat", "s": t, "MB/s": size_mb / t, "rss_mb": rss})
    if shutil.which("rg"):
        rows.append(_ripgrep_row(path, sig_rust, size_mb))
    # cat into a pipe read by wc: how fast the bytes can be read at all (output stays tiny)
    (t, rss, _), _ = best_of(reps, lambda: timed(["sh", "-c", f'cat "{path}" | wc -c']))
    rows.append({"tool": "cat | wc -c", "s": t, "MB/s": size_mb / t, "rss_mb": rss})
    return rows


def _ripgrep_row(path: Path, sig_rust: Path, size_mb: float) -> dict:
    """ripgrep on the first RG_SAMPLE_MB of the log (whole lines), its time scaled to the full size."""
    sample = path.with_name(path.stem + f".rg-sample-{RG_SAMPLE_MB}mb.log")
    if not sample.exists():
        with open(path, "rb") as src:
            head = src.read(RG_SAMPLE_MB * 1_000_000)
        sample.write_bytes(head[: head.rfind(b"\n") + 1])
    sample_mb = sample.stat().st_size / 1e6
    try:
        t, rss, _ = timed(
            ["rg", "-c", "-f", str(sig_rust), str(sample)], pipe_to_cat=False, timeout=RG_TIMEOUT_S
        )
    except subprocess.TimeoutExpired:
        return {
            "tool": f"rg -c (over {RG_TIMEOUT_S} s on {sample_mb:.0f} MB)",
            "s": float("inf"),
            "MB/s": 0.0,
            "rss_mb": -1,
        }
    rate = sample_mb / t
    return {
        "tool": f"rg -c (on {sample_mb:.0f} MB, scaled)",
        "s": size_mb / rate,
        "MB/s": rate,
        "rss_mb": rss,
    }


def long_line_rss(tmp: Path) -> int:
    path = tmp / "one-line.log"
    with open(path, "wb") as f:
        chunk = b"x" * (1 << 20)
        for i in range(200):
            f.write(chunk)
            if i == 120:
                f.write(b"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1 GiB.")
    _, rss, out = timed([*_doctor(), "explain", "--format", "json", str(path)])
    assert json.loads(out)["findings"][0]["rule"] == "FLOW004"
    path.unlink()
    return rss


def startup(tmp: Path, reps: int = 15) -> tuple[float, float]:
    paste = tmp / "paste.log"
    paste.write_text(
        "".join(
            f"(WorkerDict pid={1200 + i}, ip=10.0.0.1) INFO 05-11 03:02:20 [worker.py:267] line {i}\n"
            for i in range(19)
        )
        + "(WorkerDict pid=1207, ip=10.0.0.1) torch.OutOfMemoryError: CUDA out of memory. "
        "Tried to allocate 1 GiB.\n"
    )
    doctor = _doctor()
    timed([*doctor, "explain", str(paste)])  # warm the catalog cache
    ours = statistics.median(timed([*doctor, "explain", str(paste)])[0] for _ in range(reps))
    imports = statistics.median(
        timed([sys.executable, "-c", "import typer, rich.console, pydantic, yaml, regex"])[0]
        for _ in range(reps)
    )
    return ours, imports


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="100,1000", help="sizes in MB (comma list)")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--data", type=Path, default=HERE / "data")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    results: dict = {"sizes": {}}
    with tempfile.TemporaryDirectory() as td:
        tmp = Path(td)
        sig_ere, sig_rust, n_sigs, n_ere, n_rust = signature_files(tmp)
        results["signatures"] = {"catalog": n_sigs, "grep": n_ere, "rg": n_rust}
        for size in (int(s) for s in args.sizes.split(",")):
            path = args.data / f"{size}mb.log"
            manifest_path = args.data / f"{size}mb.json"
            if not path.exists() or not manifest_path.exists():
                manifest_path.parent.mkdir(parents=True, exist_ok=True)
                manifest_path.write_text(json.dumps(generate(path, size)))
            manifest = json.loads(manifest_path.read_text())
            results["sizes"][size] = throughput_rows(path, manifest, sig_ere, sig_rust, args.reps)
        results["long_line_rss_mb"] = long_line_rss(tmp)
        ours, imports = startup(tmp)
        results["startup"] = {"paste_s": ours, "imports_s": imports, "ratio": ours / imports}
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    sig = results["signatures"]
    print(
        f"catalog: {sig['catalog']} signatures ({sig['grep']} as ERE for grep, {sig['rg']} for rg); "
        f"machine: {os.cpu_count()} cores"
    )
    for size, rows in results["sizes"].items():
        doc = rows[0]
        print(f"\n{size} MB log")
        print(f"  {'tool':28} {'seconds':>8} {'MB/s':>8} {'peak RSS MB':>12}")
        for r in rows:
            extra = (
                ""
                if "correct" not in r
                else ("  findings = buried errors" if r["correct"] else "  WRONG FINDINGS")
            )
            print(f"  {r['tool']:28} {r['s']:8.3f} {r['MB/s']:8.0f} {r['rss_mb']:12d}{extra}")
        by = {r["tool"]: r for r in rows}
        grep = by.get("grep -E -c | cat")
        rg = next((r for r in rows if r["tool"].startswith("rg ")), None)
        if grep:
            print(f"  verl-doctor vs grep -E: {grep['s'] / doc['s']:.2f}x faster")
        if rg:
            print(f"  verl-doctor vs ripgrep: {rg['s'] / doc['s']:.2f}x ripgrep's speed")
        pipe = by["verl-doctor (stdin pipe)"]
        print(f"  stdin pipe vs file: {doc['s'] / pipe['s']:.2f}x the file's speed")
    print(f"\npeak RSS on one 200 MB line without newline: {results['long_line_rss_mb']} MB")
    s = results["startup"]
    print(
        f"start-up: 20-line paste {s['paste_s'] * 1000:.0f} ms vs eager stack imports "
        f"{s['imports_s'] * 1000:.0f} ms: ratio {s['ratio']:.2f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
