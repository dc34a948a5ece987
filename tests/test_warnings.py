"""Warning-level findings: shown apart, exit code unchanged unless --fail-on warning; a warning
that ends its log (a hang after it) stands for the failure."""

from __future__ import annotations

import json

import pytest

BARRIER = (
    "(WorkerDict pid=171653) [rank0]:[W330 10:12:48.082391574 ProcessGroupNCCL.cpp:4115] [PG ID 0 PG GUID 0 "
    "Rank 0]  using GPU 0 to perform barrier as devices used by this process are currently unknown. This can "
    "potentially cause a hang if this rank to GPU mapping is incorrect.\n"
)
TRAINING = "".join(
    f"(TaskRunner pid=12) step:{i} - actor/pg_loss:0.01 - critic/score/mean:0.5 - timing_s/gen:3.2\n"
    for i in range(1, 200)
)


def test_barrier_warning_in_a_run_that_goes_on_is_a_warning_only(run_cli) -> None:
    r = run_cli(["explain", "--format", "json"], stdin=(BARRIER + TRAINING).encode())
    report = json.loads(r.stdout)
    assert r.returncode == 0
    assert report["findings"] == []
    assert [w["rule"] for w in report["warnings"]] == ["DIST006"]
    assert report["warnings"][0]["severity"] == "warning"
    text = run_cli(["explain"], stdin=(BARRIER + TRAINING).encode()).stdout.decode()
    assert "no error found" in text and "1 warning" in text and "DIST006" in text


def test_fail_on_warning_makes_warnings_fail(run_cli) -> None:
    r = run_cli(["explain", "--fail-on", "warning"], stdin=(BARRIER + TRAINING).encode())
    assert r.returncode == 1
    healthy = run_cli(["explain", "--fail-on", "warning"], stdin=TRAINING.encode())
    assert healthy.returncode == 0


def test_barrier_warning_that_ends_the_log_stands_for_the_hang(run_cli) -> None:
    r = run_cli(["explain", "--format", "json"], stdin=(TRAINING + BARRIER * 4).encode())
    report = json.loads(r.stdout)
    assert r.returncode == 1
    assert report["findings"][0]["rule"] == "DIST006"
    assert report["findings"][0]["basis"].startswith("warning")


SHORT_TRAINING = [
    "(TaskRunner pid=12) step:1 - actor/pg_loss:0.01 - critic/score/mean:0.5 - timing_s/gen:3.2\n",
    "Training Progress:   0%|          | 2/870 [01:26<3:12:44, 41.2s/it]\n",
]


@pytest.mark.parametrize("progress", SHORT_TRAINING)
def test_a_few_training_steps_after_the_warning_near_the_end_keep_it_a_warning(run_cli, progress) -> None:
    # (the warning stands well within the lines its rule allows before the end)
    log = "".join(f"(WorkerDict pid=3) INFO: loading shard {i}\n" for i in range(50)) + BARRIER * 2
    log += "(TaskRunner pid=12) Total training steps: 870\n" + progress * 3
    report = json.loads(run_cli(["explain", "--format", "json"], stdin=log.encode()).stdout)
    assert report["findings"] == []
    assert [w["rule"] for w in report["warnings"]] == ["DIST006"]


def test_a_line_that_only_names_a_step_is_no_training_progress(run_cli) -> None:
    log = BARRIER * 2 + "(TaskRunner pid=12) resuming: global_step: 5, checkpoint step:5 loaded\n"
    report = json.loads(run_cli(["explain", "--format", "json"], stdin=log.encode()).stdout)
    assert report["findings"][0]["rule"] == "DIST006"


@pytest.mark.parametrize("block", [7, 64, 4096])
def test_where_training_last_went_on_does_not_depend_on_how_the_input_is_cut(block: int) -> None:
    from verl_doctor.engine.session import Session

    head = "".join(f"(WorkerDict pid=3) INFO: loading shard {i}\n" for i in range(50))
    data = (head + BARRIER + SHORT_TRAINING[0] + BARRIER + "tail line\n").encode()
    session = Session()
    scanner = session.scanner("log")
    for i in range(0, len(data), block):
        session.feed(scanner, data[i : i + block])
    session.finish(scanner)
    assert session.progress_at == {"log": 52}
    report = session.report()
    assert report.findings[0].rule == "DIST006"  # (the warning came again after the step)


def test_a_real_crash_after_the_warning_comes_first(run_cli) -> None:
    oom = (
        "(WorkerDict pid=5) torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. "
        "GPU 0 has a total capacity of 79.15 GiB of which 1.02 GiB is free.\n"
    )
    report = json.loads(run_cli(["explain", "--format", "json"], stdin=(BARRIER + oom).encode()).stdout)
    assert report["findings"][0]["rule"] == "FLOW004"
    assert "DIST006" not in [f["rule"] for f in report["findings"][:1]]


def test_a_warning_before_an_exception_no_rule_knows_is_only_a_hint_on_it(run_cli) -> None:
    log = (
        "WARNING 11-04 16:22:05 scheduler.py:1481] Sequence group 2519 is preempted by PreemptionMode.RECOMPUTE "
        "mode because there is not enough KV cache space. This can affect the end-to-end performance. Increase "
        "gpu_memory_utilization or tensor_parallel_size to provide more KV cache memory.\n"
        "Traceback (most recent call last):\n"
        '  File "/usr/local/lib/python3.11/site-packages/vllm/core/block/prefix_caching_block.py", line 330, '
        "in _free_block_id\n"
        '    assert block_id is not None, "Freeing unallocated block is undefined"\n'
        "AssertionError: Freeing unallocated block is undefined\n"
    )
    report = json.loads(run_cli(["explain", "--format", "json"], stdin=log.encode()).stdout)
    assert report["findings"] == []
    assert [w["rule"] for w in report["warnings"]] == ["FLOW004"]
    assert "possibly related: FLOW004" in report["unrecognized"][0]["hint"]


_UNKNOWN_ERROR = (
    "Traceback (most recent call last):\n"
    '  File "/usr/local/lib/python3.10/dist-packages/transformers/integrations/awq.py", line 233, '
    "in get_modules_to_fuse\n"
    "    raise ValueError(\n"
    "ValueError: Fusing mapping not found either on the quantization config or the supported "
    "`AWQ_FUSED_MAPPINGS`.\n"
)
_SLOW_WORKER = (
    "(raylet) [2025-08-02 14:07:19,544 E 2209987 2210012] (raylet) worker_pool.cc:586: Some workers of the "
    "worker process(2214890) have not registered within the timeout. The process {state}, probably it{how} "
    "during start.\n"
)


def test_a_worker_still_starting_is_a_warning_and_one_dead_the_failure(run_cli) -> None:
    """Ray's raylet gives up waiting for a worker to register: while the process is still alive
    (slow to start) that is a warning, printed after the crash it says nothing of it; a worker
    process that died while starting is the failure."""
    alive = _SLOW_WORKER.format(state="is still alive", how="'s hanging")
    report = json.loads(
        run_cli(["explain", "--format", "json"], stdin=(_UNKNOWN_ERROR + alive).encode()).stdout
    )
    assert report["findings"] == []
    assert [w["rule"] for w in report["warnings"]] == ["DIST008"]
    assert not report["unrecognized"][0]["hint"]
    # printed before the error, it may have led to it
    report = json.loads(
        run_cli(["explain", "--format", "json"], stdin=(alive + _UNKNOWN_ERROR).encode()).stdout
    )
    assert "possibly related: DIST008" in report["unrecognized"][0]["hint"]
    dead = _SLOW_WORKER.format(state="is dead", how=" crashed")
    report = json.loads(run_cli(["explain", "--format", "json"], stdin=dead.encode()).stdout)
    assert [f["rule"] for f in report["findings"]] == ["DIST008"]


def test_a_loading_script_run_with_a_future_warning_is_a_warning(run_cli) -> None:
    log = (
        "/usr/local/lib/python3.12/dist-packages/datasets/load.py:731: FutureWarning: The repository for math "
        "contains custom code which must be executed to correctly load the dataset. You can inspect the "
        "repository content at /data/raw/math/math.py\n"
        "You can avoid this message in future by passing the argument `trust_remote_code=True`.\n"
        "  warnings.warn(\n"
        "Generating train split: 7500 examples [00:02, 3411.07 examples/s]\n"
    )
    r = run_cli(["explain", "--format", "json"], stdin=log.encode())
    report = json.loads(r.stdout)
    assert r.returncode == 0
    assert report["findings"] == []
    assert [w["rule"] for w in report["warnings"]] == ["CFG007"]


def test_media_dropped_for_want_of_a_processor_is_a_warning(run_cli) -> None:
    # verl logs it and goes on training without the images (rollout/schemas.py, logger.warning)
    dropped = (
        "(AgentLoopWorker pid=51260) WARNING:verl.workers.rollout.schemas:There is multi_modal_data but you "
        "are not using a processor. Multi-modal data will be ignored.\n"
    )
    r = run_cli(["explain", "--format", "json"], stdin=(dropped * 3 + TRAINING).encode())
    report = json.loads(r.stdout)
    assert r.returncode == 0
    assert report["findings"] == []
    assert [w["rule"] for w in report["warnings"]] == ["CFG012"]


_P = "(WorkerDict pid=1896015) "
_PROBE_FAILED = (
    f'{_P}  File "/opt/conda/envs/verl/lib/python3.10/site-packages/sglang/srt/distributed/device_communicators/'
    'cuda_wrapper.py", line 117, in __init__\n'
    f'{_P}    assert so_file is not None, "libcudart is not loaded in the current process"\n'
    f"{_P}AssertionError: libcudart is not loaded in the current process\n"
)
_RELAYED = (
    f"{_P}[2025-06-28 09:15:56 TP0] Setup Custom allreduce failed with Error happened when batch testing "
    "peer-to-peer access from (0, 0, 1, 1) to (0, 1, 0, 1):\n"
    f"{_P}Traceback (most recent call last):\n" + _PROBE_FAILED + f"{_P}. To silence this warning, specify "
    "--disable-custom-all-reduce explicitly.\n"
    f"{_P}[2025-06-28 09:15:57 TP0] Load weight begin. avail mem=74.02 GB\n"
)


def test_an_error_a_warning_carries_whole_is_a_warning(run_cli) -> None:
    """SGLang's custom all-reduce set-up relays its failed peer-to-peer probe, traceback and all,
    in a warning and goes on with NCCL: what the traceback says is a warning, the run healthy;
    the same error raised on its own is the failure."""
    report = json.loads(run_cli(["explain", "--format", "json"], stdin=(_RELAYED + TRAINING).encode()).stdout)
    assert report["findings"] == [] and report["unrecognized"] == []
    assert [w["rule"] for w in report["warnings"]] == ["ENV015"]
    alone = f"{_P}Traceback (most recent call last):\n" + _PROBE_FAILED
    report = json.loads(run_cli(["explain", "--format", "json"], stdin=alone.encode()).stdout)
    assert [f["rule"] for f in report["findings"]] == ["ENV015"]
    # an error the same process prints after the warning's record is over is read as usual
    oom = f"{_P}torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n"
    report = json.loads(run_cli(["explain", "--format", "json"], stdin=(_RELAYED + oom).encode()).stdout)
    assert [f["rule"] for f in report["findings"]] == ["FLOW004"]


PAD_SET = "(TaskRunner pid=12) /opt/verl/verl/utils/tokenizer.py:30: UserWarning: tokenizer.pad_token_id is None. Now set to {}\n"


def test_the_pad_token_set_for_you_is_a_warning_but_set_to_none_is_the_error(run_cli) -> None:
    # verl's loader sets pad to eos and warns: informational, while training goes on
    r = run_cli(["explain", "--format", "json"], stdin=(PAD_SET.format(151643) + TRAINING).encode())
    report = json.loads(r.stdout)
    assert r.returncode == 0 and report["findings"] == []
    assert [w["rule"] for w in report["warnings"]] == ["CFG001"]
    # a tokenizer without an eos token either: pad is set to None, which is the failure
    r = run_cli(["explain", "--format", "json"], stdin=(PAD_SET.format("None") + TRAINING[:200]).encode())
    report = json.loads(r.stdout)
    assert [f["rule"] for f in report["findings"]] == ["CFG001"]
    assert "no eos token" in report["findings"][0]["cause"]


def _scorer_errors(repeats: int) -> str:
    """verl's sandbox-fusion reward catching an error on a sample's test cases, logging it with its
    traceback and scoring the sample 0; Ray folds the copies into `[repeated Nx across cluster]`."""
    p = "(TaskRunner pid=48213) "
    one = (
        f"{p}ERROR:2025-11-18 14:02:51,337:Error during compute_score: string indices must be integers{{mark}}\n"
        f"{p}Traceback (most recent call last):{{mark}}\n"
        f'{p}  File "/opt/verl/verl/utils/reward_score/sandbox_fusion/__init__.py", line 83, in compute_score\n'
        f"{p}    res_list, metadata_list = check_correctness(\n"
        f'{p}  File "/opt/verl/verl/utils/reward_score/sandbox_fusion/utils.py", line 483, in check_correctness\n'
        f'{p}    inputs = in_outs["inputs"]\n'
        f"{p}TypeError: string indices must be integers{{mark}}\n"
    )
    mark = f" [repeated {repeats}x across cluster]" if repeats > 1 else ""
    return one.format(mark="") + one.format(mark=mark)


def test_a_warning_met_for_most_samples_of_a_run_that_went_on_is_its_failure(run_cli) -> None:
    log = _scorer_errors(600) + TRAINING
    r = run_cli(["explain", "--format", "json"], stdin=log.encode())
    report = json.loads(r.stdout)
    assert r.returncode == 1
    [finding] = report["findings"]
    assert (finding["rule"], finding["confidence"]) == ("CFG012", "medium")
    assert finding["count"] >= 600 and finding["basis"].startswith("repeated")
    text = run_cli(["explain"], stdin=log.encode()).stdout.decode()
    assert "a warning, not an error" in text and "reward_model.ground_truth" in text
    # met a few times, it stays a warning: a few samples scored 0
    few = json.loads(
        run_cli(["explain", "--format", "json"], stdin=(_scorer_errors(3) + TRAINING).encode()).stdout
    )
    assert few["findings"] == [] and [w["rule"] for w in few["warnings"]] == ["CFG012"]


def test_a_repeated_warning_yields_to_an_exception_that_ended_the_run(run_cli) -> None:
    crash = (
        "(TaskRunner pid=12) Traceback (most recent call last):\n"
        '(TaskRunner pid=12)   File "/opt/verl/verl/trainer/ppo/ray_trainer.py", line 1102, in fit\n'
        "(TaskRunner pid=12)     batch = self._balance(batch)\n"
        "(TaskRunner pid=12) ZeroDivisionError: float division by zero in the balancer\n"
    )
    report = json.loads(
        run_cli(
            ["explain", "--format", "json"], stdin=(_scorer_errors(600) + TRAINING + crash).encode()
        ).stdout
    )
    assert report["findings"] == []
    assert [w["rule"] for w in report["warnings"]] == ["CFG012"]
    assert report["unrecognized"]


def _metrics(score: str) -> str:
    return (
        f"(TaskRunner pid=12) step:1 - actor/pg_loss:0.0 - critic/score/mean:{score} - "
        "critic/rewards/mean:0.0 - timing_s/gen:58.3\n"
    )


def test_a_warning_that_costs_a_sample_its_score_in_a_run_that_scored_nothing_is_its_failure(run_cli) -> None:
    log = _scorer_errors(1) * 3 + _metrics("0.0")
    report = json.loads(run_cli(["explain", "--format", "json"], stdin=log.encode()).stdout)
    [finding] = report["findings"]
    assert (finding["rule"], finding["confidence"], finding["basis"]) == ("CFG012", "medium", "unscored: 0")
    assert "no sample scored" in run_cli(["explain"], stdin=log.encode()).stdout.decode()
    # (numpy's repr of the mean, and validation's mean reward, say the same)
    for metric in ("critic/score/mean:np.float64(0.0)", "val-core/openai/gsm8k/reward/mean@1:0.0"):
        text = log.replace("critic/score/mean:0.0", metric)
        assert [
            f["rule"]
            for f in json.loads(run_cli(["explain", "--format", "json"], stdin=text.encode()).stdout)[
                "findings"
            ]
        ] == ["CFG012"]
    # a run whose samples score is a run the warning cost a few samples: a warning
    scored = json.loads(
        run_cli(
            ["explain", "--format", "json"], stdin=(_scorer_errors(1) * 3 + _metrics("0.42")).encode()
        ).stdout
    )
    assert scored["findings"] == [] and [w["rule"] for w in scored["warnings"]] == ["CFG012"]


@pytest.mark.parametrize("block", [7, 64, 4096])
def test_the_last_mean_score_does_not_depend_on_how_the_input_is_cut(block: int) -> None:
    from verl_doctor.engine.session import Session

    data = (_metrics("0.5") + "x\n" * 30 + _metrics("np.float64(0.0)") + "tail line\n").encode()
    session = Session()
    scanner = session.scanner("log")
    for i in range(0, len(data), block):
        session.feed(scanner, data[i : i + block])
    session.finish(scanner)
    assert session.last_scores == {"log": 0.0}
