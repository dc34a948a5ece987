"""Logs where many lines reach the second stage: the density sweep and the real-corpus log.

`copies`: a share of the lines are copies of a few messages a rule matches, with different
pids, ranks, timestamps and numbers (the barrier warning every rank prints, `nan` metric lines
after a divergence, a logger's retry warnings, Ray's `[repeated Nx across cluster]`).
`distinct`: every matching line is a different message (a rule example with a unique tail).
Both bury one CUDA out-of-memory crash. `corpus_log` shuffles and repeats real logs.

Each builder returns the rule codes the report must hold, warnings marked `(warning)`
(checked by the benchmark).
"""

from __future__ import annotations

import random
from pathlib import Path

from generate_log import WORKERS, _metric_line, _pool

OOM = [
    "Traceback (most recent call last):",
    '  File "/opt/verl/verl/workers/fsdp_workers.py", line 741, in update_actor',
    "    metrics = self.actor.update_policy(data=data)",
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.91 GiB. GPU 0 has a total "
    "capacity of 79.25 GiB of which 2.02 GiB is free.",
]
_WORDS = ["shard", "bucket", "actor", "rollout", "reward", "critic", "buffer", "tensor", "layer"]


def _stamp(rng: random.Random) -> str:
    """A c10d timestamp such as `1203 14:59:30.411244289`."""
    r = rng.randrange
    return f"{r(1, 13)}{r(10, 29)} {r(10, 24)}:{r(10, 60)}:{r(10, 60)}.{r(10**8, 10**9)}"


def _copy_line(rng: random.Random, step: int) -> str:
    """One of a few rule-matching messages, with varying pids, ranks, timestamps, numbers."""
    rank = rng.randrange(16)
    pid = rng.randrange(1000, 99999)
    ip = f"10.1.{rng.randrange(4)}.{rng.randrange(2, 250)}"
    pick = rng.random()
    if pick < 0.35:
        line = (
            f"(WorkerDict pid={pid}, ip={ip}) [rank{rank}]:[W{_stamp(rng)} ProcessGroupNCCL.cpp:4561] "
            f"[PG ID 0 PG GUID 0 Rank {rank}]  using GPU {rank % 8} to perform barrier as devices used by "
            "this process are currently unknown. This can potentially cause a hang if this rank to GPU "
            "mapping is incorrect. Specify device_ids in barrier() to force use of a particular device, "
            "or call init_process_group() with a device_id."
        )
        if rng.random() < 0.2:
            line += f" [repeated {rng.randrange(2, 16)}x across cluster]"
        return line
    if pick < 0.7:
        return (
            f"(TaskRunner pid={pid}) step:{step} - actor/entropy:nan - actor/pg_loss:nan - "
            f"actor/grad_norm:nan - actor/ppo_kl:{rng.random():.4f} - critic/score/mean:{rng.random():.3f} - "
            f"timing_s/gen:{rng.random() * 100:.3f} - timing_s/step:{rng.random() * 100:.3f}"
        )
    if pick < 0.85:
        return f"(WorkerDict pid={pid}, ip={ip}) WARN: grad_norm is not finite: nan"
    return (
        f"(WorkerDict pid={pid}, ip={ip}) [rank{rank}]:[E{_stamp(rng)} ProcessGroupNCCL.cpp:629] "
        f"[Rank {rank}] Watchdog caught collective operation timeout: "
        f"WorkNCCL(SeqNum={step}, OpType=ALLREDUCE, "
        f"NumelIn={rng.randrange(1, 9999)}, NumelOut=1, Timeout(ms)=600000) ran for "
        f"{rng.randrange(600000, 700000)} milliseconds before timing out."
    )


# The barrier warning is printed by healthy multi-GPU runs: a warning, never an error finding.
# The NCCL watchdog lines echo the out-of-memory crash every log buries: no finding of their own.
COPIES_CODES = ["DIST006 (warning)", "FLOW001", "FLOW004"]


def _background(rng: random.Random, pool: list[str], step: int) -> tuple[str, int]:
    r = rng.random()
    if r < 0.3:
        return _metric_line(rng, step + 1), step + 1
    if r < 0.5:
        pct = step % 100
        return f"Training Progress:  {pct:>2}%| {step}/4350 [1:{pct:02d}:10<2:39:10, 24.93s/it]", step
    return rng.choice(pool), step


def write_density_log(
    out: Path, size_mb: int, density: float, shape: str, distinct_lines: list[tuple[str, str]], seed: int = 0
) -> list[str]:
    """A log of `size_mb` where `density` of the lines match a rule; returns the expected codes."""
    rng = random.Random(seed)
    pool = _pool(rng)
    target = size_mb * 1_000_000
    codes = {"FLOW004"}
    written, step, serial = 0, 0, 0
    oom_at, oom_done = target // 2, False
    with open(out, "w", encoding="utf-8", newline="\n") as f:
        while written < target:
            parts = []
            for _ in range(2000):
                if rng.random() < density:
                    if shape == "copies":
                        step += 1
                        parts.append(_copy_line(rng, step))
                    else:
                        code, example = distinct_lines[serial % len(distinct_lines)]
                        serial += 1
                        tail = "-".join(rng.choice(_WORDS) for _ in range(3))
                        parts.append(f"{example} (in {tail}-{_letters(serial)})")
                        codes.add(code)
                else:
                    line, step = _background(rng, pool, step)
                    parts.append(line)
            if written >= oom_at and not oom_done:
                oom_done = True
                prefix, _ = rng.choice(WORKERS)
                parts += [prefix + ln for ln in OOM]
            chunk = "\n".join(parts) + "\n"
            f.write(chunk)
            written += len(chunk.encode())
    if shape == "copies" and density > 0:
        return COPIES_CODES
    return reported_codes(codes)


def reported_codes(codes: set[str]) -> list[str]:
    """What a report of these rules' messages holds: a rule whose message only echoes a failure
    (`echo`) yields to the out-of-memory crash every log buries, and a rule reported as an error
    is not listed again as a warning."""
    from verl_doctor.catalog.load import load_catalog

    echoes = {r.id for r in load_catalog(include_user=False).rules if r.echo}
    errors = {c for c in codes if " " not in c}
    return sorted(
        c for c in codes if c not in echoes and not (c.endswith(" (warning)") and c.split()[0] in errors)
    )


def _letters(n: int) -> str:
    """`n` spelt in letters, so no two lines are alike even with their digits masked."""
    out = ""
    while True:
        n, r = divmod(n, 26)
        out += chr(97 + r)
        if not n:
            return out


def distinct_examples() -> list[tuple[str, str]]:
    """(rule code, one-line example) for every single-line rule example that, with a unique tail,
    still gives exactly its own rule at high confidence when diagnosed alone."""
    from verl_doctor.catalog.load import load_catalog
    from verl_doctor.engine.session import diagnose_text

    catalog = load_catalog(include_user=False)
    out = []
    for rule in catalog.rules:
        for example in rule.examples_match:
            text = example.strip()
            if "\n" in text:
                continue
            line = f"{text} (in queue-shard-zz)"
            report = diagnose_text(line + "\n", catalog)
            found = [(f.rule, f.confidence) for f in report.findings]
            if found == [(rule.id, "high")] and not report.unrecognized:
                # A warning-level message alone stands for the failure; beside errors it stays a warning.
                warning = report.findings[0].basis.startswith("warning")
                out.append((f"{rule.id} (warning)" if warning else rule.id, text))
    return out


def write_corpus_log(out: Path, corpus: Path, size_mb: int, seed: int = 0) -> bytes:
    """Real logs shuffled and repeated to `size_mb` (each round in a new order); returns the
    first round's bytes."""
    files = sorted(corpus.glob("*.log"))
    texts = [p.read_bytes() for p in files]
    texts = [t if t.endswith(b"\n") else t + b"\n" for t in texts]
    rng = random.Random(seed)
    target = size_mb * 1_000_000
    written = 0
    first = b""
    with open(out, "wb") as f:
        while written < target:
            order = list(range(len(texts)))
            rng.shuffle(order)
            round_bytes = b"".join(texts[i] for i in order)
            first = first or round_bytes
            f.write(round_bytes)
            written += len(round_bytes)
    return first
