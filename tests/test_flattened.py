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
    """(rule id, example) for every catalog example that is a traceback of two frames or more."""
    out = []
    for rule in _CATALOG.rules:
        for example in rule.examples_match:
            lines = [line for line in example.splitlines() if line.strip()]
            flat = " ".join(line.strip() for line in lines)
            if sum('File "' in line for line in lines) >= 2 and flattened_pieces(flat) is not None:
                out.append((rule.id, example))
    return out


_EXAMPLES = _flattened_examples()


def test_the_catalog_has_tracebacks_to_flatten() -> None:
    assert len(_EXAMPLES) >= 20


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
