"""Reading a real multi-worker verl log the way an expert does: one finding per error across
workers, root cause before echoes, phases from Ray envelopes, cut-off pastes, fingerprints."""

from __future__ import annotations

from verl_doctor.engine.session import diagnose_text

OOM_LINE = (
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.91 GiB. GPU 0 has a total "
    "capacity of 79.25 GiB of which 2.02 GiB is free."
)


def _oom_traceback(pid: int, ip: str) -> list[str]:
    w = f"(WorkerDict pid={pid}, ip={ip})"
    return [
        f"{w} Traceback (most recent call last):",
        f'{w}   File "/opt/verl/verl/workers/fsdp_workers.py", line 741, in update_actor',
        f"{w}     metrics = self.actor.update_policy(data=data)",
        f"{w} {OOM_LINE}",
    ]


def test_eight_workers_same_oom_is_one_finding_with_count_8() -> None:
    lines = []
    for i, pid in enumerate(range(1201, 1209)):
        lines += _oom_traceback(pid, "10.1.0.11" if i < 4 else "10.1.0.12")
    report = diagnose_text("\n".join(lines))
    (f,) = report.findings
    assert f.rule == "FLOW004" and f.count == 8
    assert sorted(w.pid for w in f.workers) == list(range(1201, 1209))
    assert f.hosts == ("10.1.0.11", "10.1.0.12")
    # evidence lines come from one worker only
    assert {e.text.split(")")[0] for e in f.evidence} == {"(WorkerDict pid=1201, ip=10.1.0.11"}


def test_ray_repeated_suffix_adds_to_the_count() -> None:
    text = (
        f"(WorkerDict pid=1201) {OOM_LINE}\n(WorkerDict pid=1202) {OOM_LINE} [repeated 7x across cluster]\n"
    )
    (f,) = diagnose_text(text).findings
    assert f.count == 9


def test_interleaved_tracebacks_keep_evidence_per_worker() -> None:
    a, b = _oom_traceback(1, "10.0.0.1"), _oom_traceback(2, "10.0.0.2")
    interleaved = [x for pair in zip(a, b, strict=False) for x in pair]
    (f,) = diagnose_text("\n".join(interleaved)).findings
    assert all(e.text.startswith("(WorkerDict pid=1,") for e in f.evidence)
    assert f.count == 2


def test_oom_on_one_rank_then_watchdog_and_actor_death_ranks_oom_first() -> None:
    lines = _oom_traceback(1201, "10.1.0.11")
    for rank in range(1, 8):
        lines.append(
            f"(WorkerDict pid={1300 + rank}, ip=10.1.0.11) [rank{rank}]:[E511 03:22:30.4 ProcessGroupNCCL.cpp:629] "
            f"[Rank {rank}] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=812, OpType=ALLREDUCE, "
            "NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600092 milliseconds before timing out."
        )
    lines.append(
        "(raylet) A worker died or was killed while executing a task by an unexpected system error. "
        "To troubleshoot the problem, check the logs for the dead worker. Worker exit type: SYSTEM_ERROR"
    )
    lines.append("ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.")
    # the watchdog lines come first in the file in many logs: put them before the OOM too
    report = diagnose_text("\n".join(lines[4:11] + lines[:4] + lines[11:]))
    # The watchdog timeouts on the other ranks and the actor's death echo the OOM: one answer.
    assert [f.rule for f in report.findings] == ["FLOW004"]


def test_phase_comes_from_the_ray_envelope() -> None:
    text = "\n".join(
        _oom_traceback(1201, "10.0.0.1")
        + [
            "ray.exceptions.RayTaskError(OutOfMemoryError): ray::WorkerDict.actor_rollout_compute_log_prob() "
            "(pid=1201, ip=10.0.0.1, actor_id=5f1c, repr=<verl.single_controller.ray.base.WorkerDict object at 0x7f2a>)"
        ]
    )
    (f,) = diagnose_text(text).findings
    assert f.phase == "computing log-probs"
    assert f.phase_detail == "WorkerDict.actor_rollout_compute_log_prob"
    assert f.count == 1  # the envelope echoes the worker's error; it is not another occurrence


def test_head_only_paste_is_never_a_wrong_rule() -> None:
    head = "\n".join(
        [
            "Traceback (most recent call last):",
            '  File "/opt/verl/verl/trainer/main_ppo.py", line 45, in main',
            "    run_ppo(config)",
            '  File "/usr/lib/python3.11/site-packages/ray/_private/worker.py", line 1012, in get_objects',
            "    raise value.as_instanceof_cause()",
            "ray.exceptions.RayTaskError(RuntimeError): [36mray::TaskRunner.run()[39m (pid=670053, ip=10.119.5.132, "
            "actor_id=fffe55f82f5a8d4901a57df302000000, repr=<main_ppo.TaskRunner object at 0xffff861e0690>)",
        ]
    )
    report = diagnose_text(head)
    assert all(f.confidence in ("low", "medium") for f in report.findings)
    if not report.findings:
        (u,) = report.unrecognized
        assert u.kind == "echo" and u.exception == "RuntimeError" and "cut off" in (u.hint or "")
    assert report.exit_code in (1, 3)


def test_cut_off_oom_envelope_is_a_medium_confidence_finding() -> None:
    text = (
        "ray.exceptions.RayTaskError(OutOfMemoryError): ray::WorkerDict.actor_rollout_update_actor() "
        "(pid=1, ip=10.0.0.1, actor_id=ab, repr=<verl.single_controller.ray.base.WorkerDict object at 0x7f>)"
    )
    (f,) = diagnose_text(text).findings
    assert f.rule == "FLOW004" and f.confidence == "medium" and f.phase == "updating the actor"


def test_fingerprint_is_stable_across_runs() -> None:
    def run(pid: int, path: str, addr: str, step: int) -> str:
        return "\n".join(
            [
                f'(WorkerDict pid={pid}, ip=10.0.0.{pid % 200})   File "{path}/verl/workers/fsdp_workers.py", line 812, in update_actor',
                f"(WorkerDict pid={pid}, ip=10.0.0.{pid % 200}) RuntimeError: bucket {addr} overflowed at step {step} "
                f"while writing {path}/ckpt/global_step_{step}/shard.bin",
            ]
        )

    a = diagnose_text(run(1201, "/home/alice/verl", "0x7f3a2b00", 12)).unrecognized
    b = diagnose_text(run(88231, "/mnt/job42/code", "0x55e1c0ff", 317)).unrecognized
    assert a[0].fingerprint == b[0].fingerprint
    assert a[0].verl_frame == "verl/workers/fsdp_workers.py:812 in update_actor"
    c = diagnose_text("RuntimeError: a different failure").unrecognized
    assert c[0].fingerprint != a[0].fingerprint


def test_hydra_echo_alone_says_what_to_look_for() -> None:
    text = "\n".join(
        [
            "Training Progress:   7%|▋         | 55/766 [7:54:19<102:11:45, 517.45s/it]",
            "Error executing job with overrides: []",
            "Traceback (most recent call last):",
            '  File "/opt/verl/verl/trainer/main_ppo.py", line 375, in <module>',
            "    main()",
        ]
    )
    report = diagnose_text(text)
    assert report.findings == ()
    assert report.unrecognized and report.unrecognized[0].kind == "echo"


def test_run_context_versions_gpus_and_overrides() -> None:
    text = "\n".join(
        [
            "----------Python Info----------",
            "Version      : 3.12.9",
            "------------Pip Info-----------",
            "Version      : 25.0",
            "vllm\t     : 0.18.0",
            "ray\t     : 2.51.1",
            "torch\t     : 2.10.0+cu128",
            "----------verl Info-----------",
            "Version      : 0.8.0.dev",
            "----------System Info----------",
            "GPU Count\t: 8",
            "GPU 0\tType    : NVIDIA H100 80GB HBM3",
            "Error executing job with overrides: ['actor_rollout_ref.rollout.gpu_memory_utilization=0.9', 'trainer.n_gpus_per_node=8']",
            f"(WorkerDict pid=1) {OOM_LINE}",
        ]
    )
    report = diagnose_text(text)
    ctx = report.context
    assert ctx["versions"] == {
        "cuda": "12.8",
        "python": "3.12.9",
        "ray": "2.51.1",
        "torch": "2.10.0+cu128",
        "verl": "0.8.0.dev",
        "vllm": "0.18.0",
    }
    assert ctx["gpu"]["count"] == 8 and ctx["gpu"]["model"].startswith("NVIDIA H100")
    assert ctx["overrides"]["actor_rollout_ref.rollout.gpu_memory_utilization"] == "0.9"
    notes = [n for fix in report.findings[0].fixes for n in fix.notes]
    assert "you set actor_rollout_ref.rollout.gpu_memory_utilization=0.9" in notes


def test_launch_command_overrides() -> None:
    text = (
        "+ python3 -m verl.trainer.main_ppo data.max_prompt_length=4096 'trainer.logger=[\"console\"]' "
        "+actor_rollout_ref.model.override_config.attn_implementation=sdpa\n"
    )
    ctx = diagnose_text(text).context
    assert ctx["entry_point"] == "verl.trainer.main_ppo"
    assert ctx["overrides"]["data.max_prompt_length"] == "4096"
    assert ctx["overrides"]["actor_rollout_ref.model.override_config.attn_implementation"] == "sdpa"


def test_version_bound_steps_follow_the_verl_version() -> None:
    timeout = (
        "[rank1]:[E1 00:00:00.1 ProcessGroupNCCL.cpp:629] [Rank 1] Watchdog caught collective operation "
        "timeout: WorkNCCL(SeqNum=1, OpType=ALLGATHER, NumelIn=1, NumelOut=8, Timeout(ms)=600000) ran for "
        "600017 milliseconds before timing out."
    )

    def steps(prefix: str) -> list[str]:
        (f,) = diagnose_text(prefix + timeout).findings
        return [c for fix in f.fixes for c in fix.commands]

    unknown = steps("")
    assert "actor_rollout_ref.nccl_timeout=3600" in unknown  # shown, with its bound
    assert "actor_rollout_ref.nccl_timeout=3600" in steps(
        "----------verl Info-----------\nVersion      : 0.7.1\n"
    )
    assert "actor_rollout_ref.nccl_timeout=3600" not in steps(
        "----------verl Info-----------\nVersion      : 0.9.1\n"
    )
