"""Messages a terminal or a web page hard-wrapped, or a traceback elided, still match."""

from __future__ import annotations

import pytest

from verl_doctor.catalog.load import load_catalog
from verl_doctor.engine.session import diagnose_text

_CATALOG = load_catalog(include_user=False, use_cache=False)
_GPUS = (
    "(TaskRunner pid=2231) ValueError: Total available GPUs 4.0 is less than total desired GPUs 8. "
    "Please check your resource pool specification."
)


def _wrap(text: str, width: int) -> str:
    return "\n".join(text[i : i + width] for i in range(0, len(text), width)) + "\n"


def _first(text: str) -> str | None:
    findings = diagnose_text(text, _CATALOG).findings
    return findings[0].rule if findings else None


@pytest.mark.parametrize("width", [60, 80, 75])
def test_mid_word_terminal_wrap(width: int) -> None:
    assert _first(_GPUS + "\n") == "CFG003"
    assert _first(_wrap(_GPUS, width)) == "CFG003"


def test_wrap_at_a_space_loses_the_space() -> None:
    head, tail = _GPUS.split(" total desired ")
    assert _first(f"{head} total\ndesired {tail}\n") == "CFG003"


def test_elided_lines_are_skipped() -> None:
    head, tail = _GPUS.split(" total desired ")
    assert _first(f"{head}\n    ...<2 lines>...\n total desired {tail}\n") == "CFG003"


def test_another_workers_line_is_not_joined() -> None:
    head = "(TaskRunner pid=2231) ValueError: Total available GPUs 4.0 is less than total"
    text = f"{head}\n(WorkerDict pid=4410) desired GPUs 8. Please check your resource pool specification.\n"
    assert _first(text) != "CFG003"


def test_a_record_of_its_own_is_not_joined() -> None:
    head = "(TaskRunner pid=2231) ValueError: Total available GPUs 4.0 is less than total"
    text = f"{head}\n(TaskRunner pid=2231) INFO 12-03 10:00:01 desired GPUs 8. Please check your resource pool.\n"
    assert _first(text) != "CFG003"


def test_a_message_with_a_newline_goes_on_under_the_same_worker_prefix() -> None:
    """Ray prefixes every line a worker prints, so a message with a newline in it (or one a
    terminal wrapped before Ray saw it) comes out as lines that each carry the same prefix."""
    head = "(TaskRunner pid=2231) ValueError: Total available GPUs 4.0 is less than total"
    text = f"{head}\n(TaskRunner pid=2231) desired GPUs 8. Please check your resource pool specification.\n"
    assert _first(text) == "CFG003"


def test_what_a_rule_excludes_on_the_wrapped_part_still_excludes_it() -> None:
    """verl's old Megatron registry words its refusal like vLLM's, with verl's own three models;
    the list that tells them apart may be on the line the terminal wrapped to."""
    message = (
        "ValueError: Model architectures ['Gemma2ForCausalLM'] are not supported for now. "
        "Supported architectures: ['LlamaForCausalLM', 'Qwen2ForCausalLM', 'MistralForCausalLM']"
    )
    assert _first(message + "\n") != "ENV004"
    for width in (120, 100):
        assert _first(_wrap(message, width)) != "ENV004"
    engine = message.replace("['LlamaForCausalLM'", "dict_keys(['AquilaModel', 'LlamaForCausalLM'") + ")"
    assert _first(_wrap(engine, 120)) == "ENV004"


def test_the_next_runs_lines_do_not_lend_their_options_to_a_paste_that_ended() -> None:
    # A paste whose last line is long enough to have been wrapped, then another run's output
    # naming a key an earlier run set: the key is not what verl's error was about.
    earlier = "python3 -m verl.trainer.main_ppo ray_init.num_cpus=16 trainer.nnodes=1\n"
    paste = (
        'File "verl/workers/fsdp_workers.py", line 202, in _build_model_optimizer\n'
        "      state_dict[key] = torch.cat(state_dict[key], dim=0)\n"
        "  RuntimeError: zero-dimensional tensor (at position 0) cannot be concatenated\n"
    )
    after = "ray init kwargs: {'num_cpus': None, 'runtime_env': {'env_vars': {}}}\n"
    assert [f.rule for f in diagnose_text(earlier + paste + after, _CATALOG).findings] == []
    # the same key named on the exception's own line is what the check was about
    named = paste.replace("cannot be concatenated", "num_cpus cannot be concatenated")
    assert [f.rule for f in diagnose_text(earlier + named + after, _CATALOG).findings] == ["CFG014"]


_FRAME_LINE = (
    '(TaskRunner pid=3012)   File "/usr/local/lib/python3.10/dist-packages/verl/utils/dataset/'
    'multiturn_sft_dataset.py", line 60, in __init__'
)


@pytest.mark.parametrize(
    "cut",
    [
        _FRAME_LINE.index("dist-packages") + 4,  # inside the path
        _FRAME_LINE.index(", line") + 6,  # `..., line` / `60, in __init__`
        _FRAME_LINE.index(" in __init__") + 5,  # `in __` / `init__`
        len(_FRAME_LINE) - 3,
    ],
)
def test_frames_a_terminal_wrapped_still_name_the_raising_code_and_its_statement(cut: int) -> None:
    """A wrap inside `File "...", line N, in f` leaves the frame on two lines; the frame, and the
    source line after it, are read whole."""
    text = (
        "(TaskRunner pid=3012) Traceback (most recent call last):\n"
        + _FRAME_LINE[:cut]
        + "\n"
        + _FRAME_LINE[cut:]
        + "\n"
        + '(TaskRunner pid=3012)     assert self.truncation in ["error", "left", "right"]\n'
        + "(TaskRunner pid=3012) AssertionError\n"
    )
    report = diagnose_text(text, _CATALOG)
    assert [f.rule for f in report.findings] == ["CFG014"]
    assert "data.truncation" in report.findings[0].basis


def test_a_progress_bar_under_the_same_prefix_does_not_continue_a_message() -> None:
    """Ray prefixes every line of a worker; a tqdm bar printed right after an exception is a
    record of its own, and its words (`prompts longer than`) say nothing about the error."""
    text = (
        "(TaskRunner pid=21544) Traceback (most recent call last):\n"
        '(TaskRunner pid=21544)   File "/workspace/verl/verl/utils/dataset/rl_dataset.py", line 130, in __init__\n'
        '(TaskRunner pid=21544)     raise ValueError(f"Invalid truncation {self.truncation} for data.truncation")\n'
        "(TaskRunner pid=21544) ValueError: Invalid truncation middle for data.truncation, use one of error, left, "
        "right\n"
        "(TaskRunner pid=21544) Filtering prompts longer than 2048 tokens (num_proc=8):  14%|█▍        | "
        "7923/56112 [00:02<00:12, 3871.55 examples/s]\n"
    )
    assert [f.rule for f in diagnose_text(text, _CATALOG).findings] == ["CFG014"]


def test_srun_labelled_lines_of_one_task_do_not_continue_another_tasks_message() -> None:
    """`srun --label` puts `0: `, `1: ` before each task's lines; an exception's message is not
    continued by its own task's blank line, nor by the next task's lines."""
    text = (
        "0: Traceback (most recent call last):\n"
        '0:   File "/home/user/verl/verl/trainer/fsdp_sft_trainer.py", line 646, in _determine_resume_path\n'
        "0:     assert os.path.exists(resume_from_path), (\n"
        "0: AssertionError: resume_from_path must be null or an existing path when resume_mode is 'auto' "
        "(the terminal was wide)\n"
        "0: \n"
        "0: Set the environment variable HYDRA_FULL_ERROR=1 for a complete stack trace.\n"
        "1: Error executing job with overrides: ['trainer.resume_mode=auto']\n"
        "1: Traceback (most recent call last):\n"
        "1: AssertionError: resume_from_path must be null or an existing path when resume_mode is 'auto' "
        "(the terminal was wide)\n"
    )
    report = diagnose_text(text, _CATALOG)
    assert [f.rule for f in report.findings] == ["FLOW014"]
    # each task's exception is its own line, not continued by the other task's
    assert [e.text.split(": ", 1)[0] for e in report.findings[0].evidence] == ["0", "1"]


def test_hydras_wrapper_after_a_workers_exception_does_not_continue_its_message() -> None:
    """The driver prints Hydra's `Error executing job with overrides: [...]` right after the
    worker's last line: a record of its own, not the wrapped rest of the worker's message."""
    text = (
        "(TaskRunner pid=26900) Traceback (most recent call last):\n"
        '(TaskRunner pid=26900)   File "/usr/local/lib/python3.10/dist-packages/sglang/srt/sampling/'
        'sampling_params.py", line 115, in verify\n'
        "(TaskRunner pid=26900)     raise ValueError(\n"
        "(TaskRunner pid=26900) ValueError: min_new_tokens must be in [0, max_new_tokens], got -1.\n"
        "Error executing job with overrides: ['+actor_rollout_ref.rollout.min_new_tokens=-1']\n"
    )
    assert [f.rule for f in diagnose_text(text, _CATALOG).findings] == ["CFG014"]


def test_a_bare_exception_line_reads_its_message_from_the_lines_after_it() -> None:
    """A paste that put `ImportError:` on a line of its own and the message on the next lines."""
    text = (
        "Failed to import VLLM Rollout. Please make sure vllm is installed.\n"
        "\n"
        "ImportError:\n"
        "cannot import name 'Fp8LinearOp'\n"
        "from vllm.model_executor.layers.quantization.utils.w8a8_utils\n"
        "\n"
        "It appears that Fp8LinearOp may have been removed.\n"
    )
    assert _first(text) == "ENV004"


_PREEMPTED = (
    "(WorkerDict pid=44102) WARNING 06-30 02:03:44 [scheduler.py:1768] Sequence group 1533 is preempted by "
    "PreemptionMode.RECOMPUTE mode because there is not enough KV cache space. This can affect the "
    "end-to-end performance."
)
_WATCHDOG = (
    "[rank6]:[E429 13:55:49.384372190 ProcessGroupNCCL.cpp:1743] [PG ID 0 PG GUID 0(default_pg) Rank 6] "
    "ProcessGroupNCCL's watchdog got stuck for 480 seconds without making progress in monitoring "
    "enqueued collectives."
)


@pytest.mark.parametrize("width", [80, 85, 90, 95, 100, 105, 110, 115, 120, 130])
def test_a_message_whose_words_a_terminal_cut_anywhere_still_matches(width: int) -> None:
    """Wherever the cut falls (before the words a rule keys on, or after them), the lines are
    read together: the line before a continuation, and the one after a cut line. (A cut through
    the few bytes the prefilter searches for, at 125 columns in the watchdog message, is not
    found: the prefilter sees neither line.)"""
    warned = diagnose_text(_wrap(_PREEMPTED, width), _CATALOG).warnings
    assert [w.rule for w in warned][:1] == ["FLOW004"]
    assert _first(_wrap(_WATCHDOG, width)) == "FLOW002"
    assert _first(_wrap(_GPUS, width)) == "CFG003"


def test_a_continuation_line_is_not_joined_to_a_record_of_its_own_before_it() -> None:
    """A line that begins a record (a worker prefix, a timestamp) is not the rest of the line
    before it, however long that one is."""
    head = "(TaskRunner pid=2231) step:3 - actor/entropy:0.41 - actor/pg_loss:0.02 - critic/score/mean:0.3 - timing"
    text = (
        head + "\n(TaskRunner pid=2231) is less than total desired GPUs 8. Please check your resource pool\n"
    )
    assert _first(text) is None


def test_a_command_the_user_typed_is_not_wrapped_into_its_output() -> None:
    command = "$ python3 -m verl.trainer.main_ppo " + " ".join(f"data.k{i}=value_{i}" for i in range(40))
    log = (
        f"{command}\n"
        "Error merging override actor_rollout_ref.actor.checkpoint=[model,optimizer]\n"
        "Cannot merge DictConfig with ListConfig\n"
        "    full_key: actor_rollout_ref.actor.checkpoint\n"
    )
    findings = diagnose_text(log, _CATALOG).findings
    assert [(f.rule, f.first_line) for f in findings][:1] == [("CFG016", 2)]


def test_a_clue_whose_line_a_wrap_cut_is_read_joined() -> None:
    """RAY_ADDRESS pointing at a cluster that is not there: the announcement of the address and
    the failed connection are one clue; a terminal's wrap at 80 columns cuts both lines."""
    from verl_doctor.catalog.load import load_catalog
    from verl_doctor.engine.session import diagnose_text

    log = (
        "2026-12-04 13:24:35,475\tINFO worker.py:1691 -- Using address 127.0.0.1:6379 set in the environment "
        "variable RAY_ADDRESS\n"
        "2026-12-04 13:24:35,475\tINFO worker.py:1841 -- Connecting to existing Ray cluster at address: "
        "192.0.2.2:6379...\n"
        "[2026-12-04 13:24:40,483 W 10517 10517] rpc_client.h:153: Failed to connect to GCS at address "
        "192.0.2.2:6379 within 5 seconds.\n"
        "[2026-12-04 13:25:15,491 W 10517 10517] gcs_client.cc:210: Failed to get cluster ID from GCS server: "
        "TimedOut: Timed out while waiting for GCS to become available.\n"
    )
    wrapped = "\n".join(line[i : i + 80] for line in log.split("\n") for i in range(0, max(len(line), 1), 80))
    catalog = load_catalog(include_user=False, use_cache=False)
    assert [f.rule for f in diagnose_text(log, catalog).findings][:1] == ["DIST012"]
    assert [f.rule for f in diagnose_text(wrapped, catalog).findings][:1] == ["DIST012"]


_PYDANTIC_REFUSAL = (
    "Traceback (most recent call last):\n"
    '  File "/opt/verl/verl/workers/rollout/vllm_rollout/vllm_async_server.py", line 291, in launch_server\n'
    "    vllm_config = engine_args.create_engine_config()\n"
    '  File "/usr/local/lib/python3.11/site-packages/vllm/engine/arg_utils.py", line 1350, in '
    "create_engine_config\n"
    "    scheduler_config = SchedulerConfig(\n"
    '  File "/usr/local/lib/python3.11/site-packages/pydantic/_internal/_dataclasses.py", line 123, in '
    "__init__\n"
    "    s.__pydantic_validator__.validate_python(ArgsKwargs(args, kwargs), self_instance=s)\n"
    "pydantic_core._pydantic_core.ValidationError: 1 validation error for SchedulerConfig\n"
    "  Value error, max_num_partial_prefills (0) must be greater than or equal to 1. [type=value_error, "
    "input_value=ArgsKwargs((), {}), input_type=ArgsKwargs]\n"
)


@pytest.mark.parametrize("width", [78, 80])
def test_config_class_name_cut_by_a_wrap(width: int) -> None:
    """pydantic's `N validation error for <class>` cut inside the class's name by a terminal (the
    rest of the name alone on the next line): still the config class refusing a value."""
    wrapped = "\n".join(
        "\n".join(line[i : i + width] for i in range(0, len(line), width)) or line
        for line in _PYDANTIC_REFUSAL.split("\n")
    )
    assert "error for SchedulerConfig" not in wrapped  # (cut inside the name)
    assert _first(_PYDANTIC_REFUSAL) == "CFG014"
    assert _first(wrapped) == "CFG014"
