"""Generate a large, realistic verl training log with known errors buried in it.

8 ranks on 2 hosts, Ray/rank prefixes, ANSI colour, tqdm `\\r` redraws, vLLM INFO lines,
per-step metric lines, occasional 50 KB lines, and tracebacks of several rules at seeded
random places. `--manifest` writes the rule codes that the log contains, which the benchmark
checks the findings against.

    python benchmarks/generate_log.py --size-mb 100 --out benchmarks/data/100mb.log
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

WORKERS = [(f"\x1b[36m(WorkerDict pid={1200 + i}, ip=10.1.0.{11 + i // 4})\x1b[0m ", i) for i in range(8)]
DRIVER = "\x1b[36m(TaskRunner pid=90211)\x1b[0m "

# Each buried error: the rule it must produce, and the lines (printed by one worker).
BURIED = {
    "FLOW004": [
        "Traceback (most recent call last):",
        '  File "/opt/verl/verl/workers/fsdp_workers.py", line 741, in update_actor',
        "    metrics = self.actor.update_policy(data=data)",
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.91 GiB. GPU 0 has a total "
        "capacity of 79.25 GiB of which 2.02 GiB is free.",
    ],
    "FLOW002": [
        "[rank{r}]:[E511 03:22:30.411244289 ProcessGroupNCCL.cpp:629] [Rank {r}] Watchdog caught collective "
        "operation timeout: WorkNCCL(SeqNum=812, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) "
        "ran for 600092 milliseconds before timing out."
    ],
    "DIST002": [
        "torch.distributed.DistNetworkError: The server socket has failed to listen on any local network "
        "address. port: 41733, useIpv6: false, code: -98, name: EADDRINUSE, message: address already in use"
    ],
    "ENV002": ["RuntimeError: CUDA error: no kernel image is available for execution on the device"],
    "FLOW003": ["NotImplementedError: sequence_length=1081 is larger than max_length=1024"],
}


def _metric_line(rng: random.Random, step: int) -> str:
    keys = [
        "actor/entropy",
        "actor/pg_loss",
        "actor/pg_clipfrac",
        "actor/ppo_kl",
        "actor/grad_norm",
        "perf/mfu/actor",
        "perf/max_memory_allocated_gb",
        "perf/max_memory_reserved_gb",
        "critic/score/mean",
        "critic/rewards/mean",
        "response_length/mean",
        "response_length/clip_ratio",
        "prompt_length/max",
        "timing_s/gen",
        "timing_s/update_actor",
        "timing_s/step",
    ] * 4
    return DRIVER + f"step:{step} - " + " - ".join(f"{k}:{rng.random() * 10:.3f}" for k in keys)


def _pool(rng: random.Random) -> list[str]:
    lines = []
    for prefix, rank in WORKERS:
        lines += [
            prefix
            + "INFO 05-11 03:02:20 [worker.py:267] Memory profiling takes 1.02 seconds; the current vLLM "
            "instance can use total_gpu_memory (79.25GiB) x gpu_memory_utilization (0.60) = 47.55GiB",
            prefix + "INFO 05-11 03:02:21 [executor_base.py:112] # cuda blocks: 112000, # CPU blocks: 9362",
            prefix
            + f"[rank{rank}]:[W511 03:02:44.123456789 ProcessGroupNCCL.cpp:4561] [PG ID 0 PG GUID 0 Rank {rank}]  "
            "barrier(): using the device under current context. You can specify device_id in init_process_group().",
            prefix
            + "kwargs: {'n': 5, 'logprobs': 0, 'max_tokens': 1024, 'detokenize': False, 'temperature': 1.0}",
            prefix
            + "Loading safetensors checkpoint shards:  50% Completed | 2/4 [00:01<00:01,  1.60it/s]\r"
            + prefix
            + "Loading safetensors checkpoint shards: 100% Completed | 4/4 [00:02<00:00,  1.60it/s]",
            prefix + "before init cache memory allocated: 2.1GB, reserved: 2.3GB",
            prefix
            + "/usr/local/lib/python3.10/dist-packages/torch/distributed/fsdp/_state_dict_utils.py:773: "
            "FutureWarning: FSDP.state_dict_type() and FSDP.set_state_dict_type() are being deprecated.",
        ]
    lines += [
        DRIVER + "[prompt] system\\nPlease reason step by step, and put your final answer within \\boxed{}.",
        DRIVER + "[response] To find the total, we add the two numbers together and get 42.",
        DRIVER + "[score] 1.0",
        DRIVER + "validation generation end",
    ]
    return lines


def generate(out: Path, size_mb: int, seed: int = 0, errors: list[str] | None = None) -> list[str]:
    rng = random.Random(seed)
    pool = _pool(rng)
    target = size_mb * 1024 * 1024
    chosen = errors if errors is not None else sorted(BURIED)
    n_blocks = max(1, target // (1 << 20))
    places = {rng.randrange(n_blocks): code for code in chosen}
    long_line = (
        DRIVER + "prompt token ids: [" + ", ".join(str(rng.randrange(150000)) for _ in range(8000)) + "]"
    )
    written, block, step = 0, 0, 0
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w", encoding="utf-8", newline="") as f:
        while written < target:
            parts = []
            size = 0
            while size < (1 << 20):
                r = rng.random()
                if r < 0.30:
                    step += 1
                    line = _metric_line(rng, step)
                elif r < 0.55:
                    pct = step % 100
                    line = f"Training Progress:  {pct:>2}%|{'█' * (pct // 10):<10}| {step}/4350 [1:{pct:02d}:10<2:39:10, 24.93s/it]\r"
                    line += f"Training Progress:  {pct:>2}%|{'█' * (pct // 10):<10}| {step + 1}/4350 [1:{pct:02d}:35<2:38:45, 24.93s/it]"
                elif r < 0.5503:
                    line = long_line
                else:
                    line = rng.choice(pool)
                parts.append(line)
                size += len(line) + 1
            if block in places:
                prefix, rank = rng.choice(WORKERS)
                parts.insert(
                    rng.randrange(len(parts)),
                    "\n".join(prefix + ln.format(r=rank) for ln in BURIED[places[block]]),
                )
            chunk = "\n".join(parts) + "\n"
            f.write(chunk)
            written += len(chunk.encode("utf-8"))
            block += 1
    return [places[b] for b in sorted(places) if b < block]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size-mb", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--manifest", type=Path, help="write the buried rule codes as JSON here")
    args = ap.parse_args()
    codes = generate(args.out, args.size_mb, args.seed)
    if args.manifest:
        args.manifest.write_text(json.dumps(sorted(codes)))
    print(f"wrote {args.out} ({args.size_mb} MB) with {', '.join(codes)}")


if __name__ == "__main__":
    main()
