"""Tracebacks whose line ends a paste lost (a web form, a chat joined the lines with spaces)
are read as the lines they were made of."""

from __future__ import annotations

import json

import pytest

from verl_doctor.catalog.load import load_catalog
from verl_doctor.engine.flattened import flattened_pieces
from verl_doctor.engine.session import diagnose_text

_CATALOG = load_catalog(include_user=False, use_cache=False)


def _flattened_examples() -> list[tuple[str, str]]:
    """(rule id, example) for every catalog example that reads as a flattened traceback once its
    lines are joined: two frames, one frame and its exception, Hydra's failure and its cause."""
    out = []
    for rule in _CATALOG.rules:
        for example in rule.examples_match:
            lines = [line for line in example.splitlines() if line.strip()]
            flat = " ".join(line.strip() for line in lines)
            if flattened_pieces(flat) is not None:
                out.append((rule.id, example))
    return out


_EXAMPLES = _flattened_examples()


def test_the_catalog_has_tracebacks_to_flatten() -> None:
    assert len(_EXAMPLES) >= 100
    # (not only tracebacks of two frames or more)
    assert any(example.count('File "') == 1 for _, example in _EXAMPLES)


@pytest.mark.parametrize(
    ("rule_id", "example"), _EXAMPLES, ids=[f"{r}-{i}" for i, (r, _) in enumerate(_EXAMPLES)]
)
def test_a_flattened_traceback_reads_as_the_lines_it_was(rule_id: str, example: str) -> None:
    flat = " ".join(line.strip() for line in example.splitlines() if line.strip())
    as_printed = diagnose_text(example, _CATALOG).findings
    as_pasted = diagnose_text(flat, _CATALOG).findings
    assert as_printed and as_pasted
    assert as_pasted[0].rule == as_printed[0].rule == rule_id


def test_pieces_are_the_prefix_frame_source_line_and_exception() -> None:
    flat = (
        "(TaskRunner pid=2085) Unhandled error: ray::WorkerDict.ref_init_model() "
        '(TaskRunner pid=2085) File "/opt/verl/verl/single_controller/base/decorator.py", line 404, in inner '
        "(TaskRunner pid=2085) return func(*args, **kwargs) "
        '(TaskRunner pid=2085) File "/home/me/agent/fsdp_workers.py", line 207, in _build_model_optimizer '
        "(TaskRunner pid=2085) apply_monkey_patch(model=actor_module) "
        "(TaskRunner pid=2085) TypeError: apply_monkey_patch() got an unexpected keyword argument 'model'"
    )
    assert flattened_pieces(flat) == [
        "(TaskRunner pid=2085) Unhandled error: ray::WorkerDict.ref_init_model()",
        '(TaskRunner pid=2085) File "/opt/verl/verl/single_controller/base/decorator.py", line 404, in inner',
        "(TaskRunner pid=2085) return func(*args, **kwargs)",
        '(TaskRunner pid=2085) File "/home/me/agent/fsdp_workers.py", line 207, in _build_model_optimizer',
        "(TaskRunner pid=2085) apply_monkey_patch(model=actor_module)",
        "(TaskRunner pid=2085) TypeError: apply_monkey_patch() got an unexpected keyword argument 'model'",
    ]


@pytest.mark.parametrize(
    "line",
    [
        # a long line as printed: Hydra's overrides, one frame quoted in a message
        "Error executing job with overrides: ['data.train_files=/data/gsm8k/train.parquet', "
        "'actor_rollout_ref.model.path=Qwen/Qwen2.5-0.5B-Instruct', 'trainer.n_gpus_per_node=8', "
        "'trainer.logger=[\"console\",\"wandb\"]', 'trainer.project_name=gsm8k']",
        'RuntimeError: worker failed at File "/opt/verl/verl/trainer/main_ppo.py", line 88, in run: '
        + "x" * 200,
    ],
)
def test_a_long_line_as_printed_is_left_whole(line: str) -> None:
    assert flattened_pieces(line) is None


def test_a_flattened_paste_is_explained_from_the_command_line(run_cli) -> None:
    flat = (
        "Traceback (most recent call last): "
        'File "/opt/verl/verl/single_controller/ray/base.py", line 419, in func '
        "return getattr(self.worker_dict[key], name)(*args, **kwargs) "
        'File "/home/me/agent/fsdp_workers.py", line 207, in _build_model_optimizer '
        "apply_monkey_patch(model=actor_module) "
        "TypeError: apply_monkey_patch() got an unexpected keyword argument 'model'\n"
    )
    result = run_cli(["explain", "--format", "json", "-"], stdin=flat.encode())
    report = json.loads(result.stdout)
    assert [f["rule"] for f in report["findings"]] == ["ENV005"]
    assert report["findings"][0]["evidence"][0]["line"] == 1


def test_a_bare_exception_and_the_marks_under_a_statement_are_lines_of_their_own() -> None:
    flat = (
        'File "/venv/verl/trainer/ppo/ray_trainer.py", line 508, in _validate_config '
        "assert config.actor_rollout_ref.actor.ppo_micro_batch_size * sp_size >= n_gpus "
        "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ AssertionError  "
        "Set the environment variable HYDRA_FULL_ERROR=1 for a complete stack trace."
    )
    assert flattened_pieces(flat) == [
        'File "/venv/verl/trainer/ppo/ray_trainer.py", line 508, in _validate_config',
        "assert config.actor_rollout_ref.actor.ppo_micro_batch_size * sp_size >= n_gpus",
        "^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
        "AssertionError",
        "Set the environment variable HYDRA_FULL_ERROR=1 for a complete stack trace.",
    ]


def test_what_hydra_prints_without_a_traceback_is_cut_into_its_lines() -> None:
    flat = (
        "Error executing job with overrides: ['critic.model.external_lib=my_ext'] "
        "Error in call to target 'verl.workers.config.model.HFModelConfig': "
        "ModuleNotFoundError(\"No module named 'my_ext'\") full_key: critic.model  "
        "Set the environment variable HYDRA_FULL_ERROR=1 for a complete stack trace."
    )
    assert flattened_pieces(flat) == [
        "Error executing job with overrides: ['critic.model.external_lib=my_ext']",
        "Error in call to target 'verl.workers.config.model.HFModelConfig':",
        "ModuleNotFoundError(\"No module named 'my_ext'\")",
        "full_key: critic.model",
        "Set the environment variable HYDRA_FULL_ERROR=1 for a complete stack trace.",
    ]


def test_a_torchrun_prefix_opening_the_paste_stays_with_its_frame() -> None:
    flat = (
        '[rank1]:   File "/usr/lib/python3.10/site-packages/transformers/models/auto/configuration_auto.py", '
        "line 815, in __getitem__ [rank1]:     raise KeyError(key) [rank1]: KeyError: 'qwen3'"
    )
    assert flattened_pieces(flat) == [
        '[rank1]:   File "/usr/lib/python3.10/site-packages/transformers/models/auto/configuration_auto.py", '
        "line 815, in __getitem__",
        "[rank1]:     raise KeyError(key)",
        "[rank1]: KeyError: 'qwen3'",
    ]


def test_a_launcher_record_ends_the_line_before_it() -> None:
    flat = (
        "/venv/bin/python3: No module named verl.trainer.fsdp_sft_trainer "
        "W1206 09:20:48.771000 3120 torch/distributed/elastic/multiprocessing/api.py:897] Sending process 3187 "
        'Traceback (most recent call last): File "/venv/bin/torchrun", line 8, in <module> '
        "sys.exit(main()) torch.distributed.elastic.multiprocessing.errors.ChildFailedError: "
    )
    pieces = flattened_pieces(flat)
    assert pieces is not None
    assert pieces[0] == "/venv/bin/python3: No module named verl.trainer.fsdp_sft_trainer"


def test_findings_of_one_flattened_line_keep_the_order_of_its_pieces(run_cli) -> None:
    # The module verl lacks comes first in the traceback; the reward loader's wrapper after it.
    flat = (
        "ray.exceptions.RayTaskError(RuntimeError): ray::TaskRunner.run() (pid=31363, ip=10.0.0.2) "
        'File "/home/me/rl/myreward.py", line 1, in <module> '
        "from verl.utils.reward_score.math_reward import compute_score "
        "ModuleNotFoundError: No module named 'verl.utils.reward_score.math_reward' "
        "The above exception was the direct cause of the following exception: "
        'File "/venv/verl/trainer/ppo/reward.py", line 70, in get_custom_reward_fn '
        "raise RuntimeError(f\"Error loading module from '{file_path}': {e}\") from e "
        "RuntimeError: Error loading module from '/home/me/rl/myreward.py': "
        "No module named 'verl.utils.reward_score.math_reward'\n"
    )
    result = run_cli(["explain", "--format", "json", "-"], stdin=flat.encode())
    report = json.loads(result.stdout)
    assert [f["rule"] for f in report["findings"]][:2] == ["ENV005", "CFG008"]


def test_a_flattened_traceback_after_a_progress_bar_is_read(run_cli) -> None:
    # tqdm redraws its bar with carriage returns; the traceback follows the last one. The reward
    # file the run named raised: only the frames, read as lines, say so.
    command = (
        "python3 -m verl.trainer.main_eval +reward.custom_reward_function.path=/home/me/answer_reward.py\n"
    )
    flat = (
        "  0%|          | 0/16 [00:00<?, ?it/s]\r  0%|          | 0/16 [00:04<?, ?it/s]\r"
        'Traceback (most recent call last): File "/venv/verl/trainer/main_eval.py", line 37, in process_item '
        "score_lst = [reward_fn(data_source, r, ground_truth) for r in response_lst] "
        'File "/home/me/answer_reward.py", line 5, in compute_score '
        'pred = solution_str.split("####")[1].strip() '
        "IndexError: list index out of range\n"
    )
    result = run_cli(["explain", "--format", "json", "-"], stdin=(command + flat).encode())
    report = json.loads(result.stdout)
    assert [f["rule"] for f in report["findings"]] == ["CFG008"]


def test_an_envelope_and_the_exception_it_wraps_on_one_pasted_line_are_two_lines(run_cli) -> None:
    # Ray's envelope names the class; the exception under the frames is verl's own check. On one
    # pasted line they are still two records: the check answers, not the envelope.
    flat = (
        "ray.exceptions.RayTaskError(AssertionError): ray::vLLMHttpServer.launch_server() "
        "(pid=63310, ip=10.130.7.44) "
        'File "/opt/verl/verl/workers/rollout/vllm_rollout/vllm_async_server.py", line 859, in _apply_quantization '
        "check_vllm_ascend_before_server_launch() "
        'File "/opt/verl/verl/utils/vllm/npu_vllm_patch.py", line 118, in check_vllm_ascend_before_server_launch '
        "raise AssertionError( "
        "AssertionError: AscendSocVersion.A2 is not support VLLM_ASCEND_ENABLE_MATMUL_ALLREDUCE "
        "in Single-card multi-process scenario now.\n"
    )
    result = run_cli(["explain", "--format", "json", "-"], stdin=flat.encode())
    report = json.loads(result.stdout)
    assert [f["rule"] for f in report["findings"]] == ["CFG014"]


def test_pydantics_lines_under_its_error_are_lines_of_their_own() -> None:
    flat = (
        'File "/opt/verl/verl/tools/tool_registry.py", line 71, in initialize_tools_from_config '
        "tool_schema = OpenAIFunctionToolSchema.model_validate(tool_schema_dict) "
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for OpenAIFunctionToolSchema "
        "function.parameters.properties.expression   Input should be a valid dictionary "
        "[type=model_type, input_value='string', input_type=str]     "
        "For further information visit https://errors.pydantic.dev/2.14/v/model_type"
    )
    pieces = flattened_pieces(flat)
    assert pieces is not None
    assert pieces[-4:] == [
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for OpenAIFunctionToolSchema",
        "function.parameters.properties.expression",
        "Input should be a valid dictionary [type=model_type, input_value='string', input_type=str]",
        "For further information visit https://errors.pydantic.dev/2.14/v/model_type",
    ]
