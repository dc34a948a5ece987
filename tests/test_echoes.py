"""Messages that only say a process died, did not start or timed out (a rule's `echo`): they
never stand beside the failure that caused them, and never push that failure down to "not
recognized" when no rule knows it."""

from __future__ import annotations

import json

from verl_doctor.catalog.load import load_catalog
from verl_doctor.engine.session import diagnose_text

_CATALOG = load_catalog(include_user=False, use_cache=False)
_W = "(WorkerDict pid=3318, ip=10.0.0.3) "
_RAYLET = (
    "(raylet, ip=10.0.0.3) A worker died or was killed while executing a task by an unexpected system "
    "error. To troubleshoot the problem, check the logs for the dead worker. Worker exit type: SYSTEM_ERROR"
)


def _traceback(last: str, path: str = "/usr/lib/python3/dist-packages/vllm/model_executor/loader.py") -> str:
    return (
        f"{_W}Traceback (most recent call last):\n"
        f'{_W}  File "{path}", line 541, in _initialize_loader_state\n'
        f"{_W}    raise AttributeError(\n"
        f"{_W}{last}\n"
    )


def test_an_unknown_exception_leads_and_names_the_worker_death_that_followed() -> None:
    last = "AttributeError: MoE Model DeepseekV3ForCausalLM does not support BitsAndBytes quantization yet."
    report = diagnose_text(_traceback(last) + _RAYLET + "\n", _CATALOG)
    assert report.findings == ()
    (unknown,) = report.unrecognized
    assert unknown.exception == "AttributeError"
    assert unknown.hint is not None and "followed by: DIST003" in unknown.hint


def test_the_death_alone_is_still_reported() -> None:
    report = diagnose_text(_RAYLET + "\n", _CATALOG)
    assert [f.rule for f in report.findings] == ["DIST003"]


def test_a_bare_exception_is_itself_an_echo_and_does_not_hide_the_symptom() -> None:
    text = (
        f"{_W}[2025-05-20 07:31:49] Rank 0 scheduler is dead. Please check if there are relevant logs.\n"
        + _traceback("EOFError", "/usr/lib/python3.10/multiprocessing/connection.py")
    )
    report = diagnose_text(text, _CATALOG)
    assert [f.rule for f in report.findings] == ["FLOW010"]


def test_a_known_cause_takes_the_place_of_its_echoes() -> None:
    oom = (
        f"{_W}torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total "
        "capacity of 79.25 GiB of which 1.00 GiB is free."
    )
    watchdog = (
        "(WorkerDict pid=3319, ip=10.0.0.3) [rank1]:[E1 00:00:00.1 ProcessGroupNCCL.cpp:629] [Rank 1] Watchdog "
        "caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, "
        "Timeout(ms)=600000) ran for 600017 milliseconds before timing out."
    )
    report = diagnose_text("\n".join([watchdog, oom, _RAYLET]) + "\n", _CATALOG)
    assert [f.rule for f in report.findings] == ["FLOW004"]


def test_a_symptom_that_is_no_echo_stays_beside_its_cause() -> None:
    # An empty dataset is the end of a filtering problem, not a process's death: it stays listed.
    text = (
        f"{_W}torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n"
        "(TaskRunner pid=1100) ValueError: num_samples should be a positive integer value, but got num_samples=0\n"
    )
    assert [f.rule for f in diagnose_text(text, _CATALOG).findings] == ["FLOW004", "CFG015"]


def test_a_ray_prefix_starts_a_new_record_not_a_wrapped_continuation(run_cli) -> None:
    # Joined to the exception above it, the raylet line used to make that exception a DIST003 hit.
    last = "AttributeError: the loader state could not be initialised for this checkpoint layout"
    r = run_cli(["explain", "--format", "json"], stdin=(_traceback(last) + _RAYLET + "\n").encode())
    report = json.loads(r.stdout)
    assert [u["exception"] for u in report["unrecognized"]] == ["AttributeError"]
    assert report["unrecognized"][0]["line"] == 4


def test_a_client_that_lost_its_server_does_not_lead_the_engines_own_error() -> None:
    """SGLang's scheduler asserts and the engine goes down; the agent loop's HTTP client then
    reports `Server disconnected`. The engine's message is the answer, not the client's."""
    s = "(SGLangHttpServer pid=48810) "
    text = (
        f"{s}Traceback (most recent call last):\n"
        f'{s}  File "/usr/local/lib/python3.12/dist-packages/sglang/srt/mem_cache/memory_pool.py", line 1598, '
        "in alloc\n"
        f"{s}    assert mid is not None, (\n"
        f"{s}AssertionError: Not enough space for mamba cache, try to increase --mamba-full-memory-ratio or "
        "--max-mamba-cache-size.\n"
        f"{s}[2026-01-12 04:24:03] Received sigquit from a child process. It usually means the child failed.\n"
        "(TaskRunner pid=47702) Traceback (most recent call last):\n"
        "(TaskRunner pid=47702) aiohttp.client_exceptions.ServerDisconnectedError: Server disconnected\n"
    )
    assert [f.rule for f in diagnose_text(text, _CATALOG).findings] == ["FLOW013"]


def test_an_error_no_rule_knows_that_the_running_engine_died_of_is_the_engine_dying() -> None:
    """SGLang's scheduler loop raises an error of its own bookkeeping mid-training, then the
    engine goes down: that the engine died is said, and its error is shown beside it. The same
    error raised outside the engine leads as an unknown exception, the death only named on it."""
    s = "(WorkerDict pid=18422) "
    tail = (
        f"{s}ValueError: kv_pool_allocator slot accounting is off: available_size=1186112, total=1186432\n"
        f"{s}[2025-07-09 13:52:41] Received sigquit from a child process. It usually means the child failed.\n"
    )

    def raised_in(path: str) -> str:
        return (
            f"{s}[2025-07-09 13:52:41 TP0] Scheduler hit an exception: Traceback (most recent call last):\n"
            f'{s}  File "{path}", line 1259, in check_memory\n'
            f"{s}    raise ValueError(msg)\n"
        ) + tail

    report = diagnose_text(
        raised_in("/usr/local/lib/python3.10/dist-packages/sglang/srt/managers/scheduler.py"), _CATALOG
    )
    assert [f.rule for f in report.findings] == ["FLOW013"]
    assert [u.exception for u in report.unrecognized] == ["ValueError"]
    report = diagnose_text(raised_in("/opt/verl/verl/workers/rollout/utils.py"), _CATALOG)
    assert report.findings == ()
    assert "followed by: FLOW013" in (report.unrecognized[0].hint or "")


def test_an_error_no_rule_knows_raised_while_the_engine_was_built_is_no_death_of_a_running_engine() -> None:
    """SGLang's scheduler raises while its model runner loads the model (constructors and a
    loader are its callers), then the sigquit notice follows: the engine never started, so its
    error is shown alone, the notice only named on it."""
    s = "(WorkerDict pid=18422) "
    sg = "/usr/local/lib/python3.10/dist-packages/sglang/srt"
    text = (
        f"{s}[2025-10-30 15:42:26 TP0] Scheduler hit an exception: Traceback (most recent call last):\n"
        f'{s}  File "{sg}/managers/scheduler.py", line 2966, in run_scheduler_process\n'
        f"{s}    scheduler = Scheduler(server_args, port_args, gpu_id, tp_rank, dp_rank)\n"
        f'{s}  File "{sg}/managers/scheduler.py", line 312, in __init__\n'
        f"{s}    self.tp_worker = TpWorkerClass(\n"
        f'{s}  File "{sg}/model_executor/model_runner.py", line 240, in __init__\n'
        f"{s}    self.initialize(min_per_gpu_memory)\n"
        f'{s}  File "{sg}/model_executor/model_runner.py", line 316, in load_model\n'
        f"{s}    self.model = get_model(model_config=self.model_config)\n"
        f'{s}  File "{sg}/layers/quantization/fp8.py", line 402, in process_weights_after_loading\n'
        f"{s}    assert cpu_has_amx_support()\n"
        f"{s}AssertionError: Fp8LinearMethod on CPU requires that CPU has AMX support\n"
        f"{s}[2025-10-30 15:42:26] Received sigquit from a child process. It usually means the child failed.\n"
    )
    report = diagnose_text(text, _CATALOG)
    assert report.findings == ()
    assert [u.exception for u in report.unrecognized] == ["AssertionError"]


def test_an_error_no_rule_knows_that_kept_the_engine_from_starting_is_the_failed_start() -> None:
    """vLLM's model class raises while the engine builds it, and the engine says it failed to
    start: that is the finding, the exception's own message shown beside it."""
    w = "(WorkerDict pid=60788) "
    vllm = "/opt/conda/lib/python3.10/site-packages/vllm"
    text = (
        f"{w}Traceback (most recent call last):\n"
        f'{w}  File "{vllm}/model_executor/model_loader/utils.py", line 63, in initialize_model\n'
        f"{w}    return model_class(vllm_config=vllm_config, prefix=prefix)\n"
        f'{w}  File "{vllm}/model_executor/models/deepseek_v2.py", line 1242, in __init__\n'
        f'{w}    raise RuntimeError("No DeepseekV2MoE layer found in model.layers.")\n'
        f"{w}RuntimeError: No DeepseekV2MoE layer found in model.layers.\n"
        "RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): "
        "{'EngineCore_DP0': 1}\n"
    )
    report = diagnose_text(text, _CATALOG)
    assert [f.rule for f in report.findings] == ["FLOW010"]
    assert [u.exception for u in report.unrecognized] == ["RuntimeError"]


def test_an_engine_that_never_finished_loading_did_not_die_after_starting() -> None:
    """SGLang's ranks did not all finish loading; its sigquit notice that follows is the same
    failed start, not a second failure of a running engine."""
    text = (
        f"{_W}ValueError: TP rank 3 could finish the model loading, but there are other ranks that didn't finish "
        "loading. It is likely due to unexpected failures (e.g., OOM) or a slow node.\n"
        f"{_W}[2025-06-20 14:09:02] Received sigquit from a child process. It usually means the child failed.\n"
    )
    assert [f.rule for f in diagnose_text(text, _CATALOG).findings] == ["FLOW010"]


def test_a_message_cut_short_in_a_sockets_receive_is_the_peer_dying_not_a_cause() -> None:
    """SGLang's tokenizer manager reads a truncated pickle from the detokenizer that died
    mid-send, then dumps its requests and kills its processes: the engine died."""
    text = (
        "[2026-01-12 04:02:17] TokenizerManager hit an exception: Traceback (most recent call last):\n"
        '  File "/usr/local/lib/python3.12/dist-packages/sglang/srt/managers/tokenizer_manager.py", line 2469, '
        "in handle_loop\n"
        "    recv_obj = await async_sock_recv(self.recv_from_detokenizer)\n"
        '  File "/usr/local/lib/python3.12/dist-packages/zmq/_future.py", line 360, in recv_pyobj\n'
        "    return self._deserialize(msg, pickle.loads)\n"
        "_pickle.UnpicklingError: pickle data was truncated\n"
        "[2026-01-12 04:02:17] Dumping requests before crash. crash_dump_folder=None\n"
    )
    report = diagnose_text(text, _CATALOG)
    assert [f.rule for f in report.findings] == ["FLOW013"]
    # a truncated file read by torch.load is no peer: it stays the exception to explain
    on_disk = text.replace("zmq/_future.py", "torch/serialization.py").replace("recv_pyobj", "load")
    assert diagnose_text(on_disk, _CATALOG).unrecognized


def test_the_ranks_that_lost_a_dead_rank_over_gloo_do_not_lead_why_it_died() -> None:
    """Rank 0's rollout server died while it started; the other ranks, waiting at a gloo barrier,
    report the peer gone. The server that failed to start is the answer, not the lost peer."""
    text = (
        "[rank0]: Traceback (most recent call last):\n"
        '[rank0]:   File "/usr/local/lib/python3.11/site-packages/sglang/srt/entrypoints/http_server_engine.py", '
        "line 43, in launch_server_process\n"
        '[rank0]:     raise Exception("Server process terminated unexpectedly.")\n'
        "[rank0]: Exception: Server process terminated unexpectedly.\n"
        "[rank3]: Traceback (most recent call last):\n"
        '[rank3]:   File "/usr/local/lib/python3.11/site-packages/torch/distributed/distributed_c10d.py", '
        "line 4166, in barrier\n"
        "[rank3]:     work = group.barrier(opts=opts)\n"
        "[rank3]: RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:534] Connection closed by peer "
        "[10.31.4.11]:6741\n"
    )
    report = diagnose_text(text, _CATALOG)
    assert [f.rule for f in report.findings] == ["FLOW010"]


def test_a_disk_full_on_a_temporary_file_is_no_checkpoint() -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3.12/tempfile.py", line 256, in _mkstemp_inner\n'
        "    fd = _os.open(file, flags, 0o600)\n"
        "OSError: [Errno 28] No space left on device: '/tmp/tmp8h2k1x9c'\n"
    )
    assert "FLOW012" not in [f.rule for f in diagnose_text(text, _CATALOG).findings]
    shard = text.replace("/tmp/tmp8h2k1x9c", "/ckpt/global_step_200/actor/model_world_size_8_rank_3.pt")
    assert [f.rule for f in diagnose_text(shard, _CATALOG).findings] == ["FLOW012"]
