"""Line normalization: prefixes stripped in any order, provenance kept."""

from __future__ import annotations

import pytest

from verl_doctor.engine.normalize import normalize


@pytest.mark.parametrize(
    ("raw", "text", "actor", "pid", "ip", "rank"),
    [
        (
            "(WorkerDict pid=835, ip=172.26.143.83) [rank38]:[E809 14:59:30.411244289 ProcessGroupNCCL.cpp:629] msg",
            "msg",
            "WorkerDict",
            835,
            "172.26.143.83",
            38,
        ),
        (
            "(vLLMHttpServer pid=65944) (Worker_TP1 pid=67809) ERROR 05-19 13:26:50 [multiproc_executor.py:962] msg",
            "msg",
            "Worker_TP1",
            67809,
            None,
            None,
        ),
        ("\x1b[36m(TaskRunner pid=84989)\x1b[0m msg", "msg", "TaskRunner", 84989, None, None),
        ("[36m(main_task pid=5847)[0m msg", "msg", "main_task", 5847, None, None),
        (
            '"2025-08-07T21:02:33+08:00" ray.exceptions.RayTaskError(X): y',
            "ray.exceptions.RayTaskError(X): y",
            None,
            None,
            None,
            None,
        ),
        (
            "[2026-03-11 17:47:54]     raise value.as_instanceof_cause()",
            "raise value.as_instanceof_cause()",
            None,
            None,
            None,
            None,
        ),
        ("2024-04-18T04:05:18.004375414Z TypeError: bad", "TypeError: bad", None, None, None, None),
        (
            "[2025-10-31 11:59:10,379 E 90821 90821] core_worker.cc:513: Failed to register",
            "Failed to register",
            None,
            None,
            None,
            None,
        ),
        ("(raylet) A worker died", "A worker died", "raylet", None, None, None),
        ("(pid=1234) msg", "msg", None, 1234, None, None),
        ("rank37]:[E1025 23:57:36.314335807 ProcessGroupNCCL.cpp:632] msg", "msg", None, None, None, 37),
        (
            "(WorkerDict pid=1, ip=[10.29.214.5](http://10.29.214.5/)) msg",
            "msg",
            "WorkerDict",
            1,
            "10.29.214.5",
            None,
        ),
        # a traceback quoted in Markdown (an issue, a chat)
        ("> ValueError: bad value", "ValueError: bad value", None, None, None, None),
        ("> (WorkerDict pid=7) msg", "msg", "WorkerDict", 7, None, None),
        # srun --label's task number, a launcher's node label
        (
            "0: ValueError: port must have value from 0 to 65535 but was 70412.",
            "ValueError: port must have value from 0 to 65535 but was 70412.",
            None,
            None,
            None,
            None,
        ),
        (
            '12:   File "/opt/verl/verl/utils/distributed.py", line 26, in f',
            'File "/opt/verl/verl/utils/distributed.py", line 26, in f',
            None,
            None,
            None,
            None,
        ),
        (
            "[node-0] ValueError: Port is absent in endpoint: gpu-a-001.",
            "ValueError: Port is absent in endpoint: gpu-a-001.",
            None,
            None,
            None,
            None,
        ),
        ("[gpu-a-001] [rank3]: msg", "msg", None, None, None, 3),
        (
            "(base) user@node:~$ python -c 'import verl'",
            "user@node:~$ python -c 'import verl'",
            None,
            None,
            None,
            None,
        ),
    ],
)
def test_prefixes(
    raw: str, text: str, actor: str | None, pid: int | None, ip: str | None, rank: int | None
) -> None:
    line = normalize("s", 1, raw)
    assert line.text == text
    assert (line.worker.actor, line.worker.pid, line.worker.ip, line.worker.rank) == (actor, pid, ip, rank)


def test_repeated_suffix_counted_and_stripped() -> None:
    line = normalize("s", 1, "(WorkerDict pid=1) boom [repeated 7x across cluster]")
    assert line.text == "boom" and line.repeats == 7


def test_nested_vllm_prefix_keeps_outer_actor() -> None:
    line = normalize(
        "s", 1, "(vLLMHttpServer pid=6840) (EngineCore_DP1 pid=7012) ERROR 06-09 17:58:55 [core.py:843] x"
    )
    assert line.worker.outer == "vLLMHttpServer" and line.worker.actor == "EngineCore_DP1"


@pytest.mark.parametrize(
    "raw",
    [
        "(TaskRunner pid=92717)           'max_prompt_length': 512,",
        "(TaskRunner pid=1)  'rollout': {'gpu_memory_utilization': 0.9,",
        "+ python3 -m verl.trainer.main_ppo trainer.n_gpus_per_node=8",
    ],
)
def test_config_dumps_and_shell_traces_are_marked(raw: str) -> None:
    assert normalize("s", 1, raw).is_config


def test_hydra_override_list_is_blanked() -> None:
    line = normalize(
        "s", 1, "Error executing job with overrides: ['a.b=CUDA out of memory', 'c=1'] Traceback x"
    )
    assert "CUDA out of memory" not in line.text and line.text.endswith("Traceback x")


def test_pdsh_host_labels_are_prefixes() -> None:
    # pdsh and clush put `host: ` before each line of a host; the message starts after it.
    from verl_doctor.engine.session import diagnose_text

    log = (
        "node01: Traceback (most recent call last):\n"
        'node01:   File "/usr/lib/python3/dist-packages/torch/distributed/launcher/api.py", line 176, in '
        "_get_addr_and_port\n"
        "node01:     raise ValueError(\n"
        "node01: ValueError: port is missing in endpoint: node01. Try to specify --master-port\n"
    )
    assert normalize("log", 4, log.splitlines()[3]).text.startswith("ValueError: port is missing")
    assert [f.rule for f in diagnose_text(log).findings] == ["CFG011"]


@pytest.mark.parametrize(
    ("raw", "text", "rank"),
    [
        ("[2025-08-15 09:02:11 TP0] ImportError: Please install gguf", "ImportError: Please install gguf", 0),
        ("[2025-08-15 09:02:11 DP1 TP3] Scheduler hit an exception", "Scheduler hit an exception", 3),
        ("(SGLangHttpServer pid=7) [2025-08-15 09:02:11 TP2 EP0] x", "x", 2),
    ],
)
def test_an_sglang_schedulers_prefix_names_its_tensor_parallel_rank(raw: str, text: str, rank: int) -> None:
    line = normalize("s", 1, raw)
    assert (line.text, line.worker.rank) == (text, rank)
