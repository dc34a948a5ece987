"""A log reads the same however it was passed on: with Windows line ends, behind timestamps,
a Markdown quote or code-block indentation, a launcher's labels, or hard-wrapped by a terminal
or a web page. Every catalog example keeps its first finding under each shape."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from verl_doctor.catalog.load import load_catalog
from verl_doctor.engine.session import diagnose_text

_CATALOG = load_catalog(include_user=False, use_cache=False)


def _each_line(f: Callable[[str], str]) -> Callable[[str], str]:
    return lambda text: "\n".join(f(line) for line in text.split("\n"))


def _terminal_wrap(width: int) -> Callable[[str], str]:
    """A terminal's hard wrap: every character kept, cut at the width."""
    return _each_line(lambda s: "\n".join(s[i : i + width] for i in range(0, max(len(s), 1), width)))


def _page_wrap(width: int) -> Callable[[str], str]:
    """A web page's word wrap: cut at the last space before the width, which is dropped."""
    return _each_line(
        lambda s: "\n".join(textwrap.wrap(s, width, break_long_words=True, break_on_hyphens=False) or [""])
    )


# Shapes that keep every line whole: each example must keep its first finding.
WHOLE_LINES = {
    "crlf": lambda t: t.replace("\n", "\r\n"),
    "timestamps": _each_line(lambda s: "2026-03-02T10:11:12.123456789Z " + s),
    "markdown-quote": _each_line(lambda s: "> " + s),
    "code-block": _each_line(lambda s: "    " + s),
    "srun-label": _each_line(lambda s: "0: " + s),
}
# Shapes that cut lines: what a message needs may fall across the cut, so a floor (measured:
# 317 and 322 of 329 examples) guards what the wrap readings give.
WRAPS = {"terminal-80": (_terminal_wrap(80), 0.96), "page-100": (_page_wrap(100), 0.97)}


def _examples() -> list[tuple[str, str]]:
    out = []
    for rule in _CATALOG.rules:
        for example in rule.examples_match:
            first = diagnose_text(example, _CATALOG).findings
            if first and first[0].rule == rule.id:
                out.append((rule.id, example))
    return out


_EXAMPLES = _examples()


def _first(text: str) -> str | None:
    findings = diagnose_text(text, _CATALOG).findings
    return findings[0].rule if findings else None


@pytest.mark.parametrize("shape", sorted(WHOLE_LINES))
def test_every_example_keeps_its_first_finding_when_its_lines_stay_whole(shape: str) -> None:
    reshape = WHOLE_LINES[shape]
    lost = [
        (rule_id, _first(reshape(example)))
        for rule_id, example in _EXAMPLES
        if _first(reshape(example)) != rule_id
    ]
    assert not lost, lost


@pytest.mark.parametrize("shape", sorted(WRAPS))
def test_examples_keep_their_first_finding_when_a_wrap_cuts_their_lines(shape: str) -> None:
    reshape, floor = WRAPS[shape]
    kept = sum(_first(reshape(example)) == rule_id for rule_id, example in _EXAMPLES)
    assert kept / len(_EXAMPLES) >= floor, f"{kept}/{len(_EXAMPLES)}"


def test_a_warning_a_wrap_cut_is_still_excluded_on_the_line_it_goes_on() -> None:
    """`UserWarning: torchtitan eng` / `ine is not available: ModuleNotFoundError(...)`: verl's
    start-up notice of an optional engine is no missing dependency, wherever the cut fell."""
    notice = (
        "(TaskRunnerV1 pid=12905) /opt/venv/lib/python3.11/site-packages/verl/workers/engine/__init__.py:32: "
        "UserWarning: torchtitan engine is not available: ModuleNotFoundError(\"No module named 'torchtitan'\")"
    )
    crash = "(TaskRunnerV1 pid=12905) FileNotFoundError: Unable to find '/data/gsm8k/train_v2.parquet'\n"
    assert _first(notice + "\n" + crash) == "CFG013"
    assert _first(_terminal_wrap(80)(notice) + "\n" + crash) == "CFG013"


# Logs an 80-column terminal cuts where a reading needs the whole line, with the code they give
# as printed and as cut.
_CUT_READINGS = {
    # cut just before `/runtime_env`: the line after, alone, reads as a frame of another file
    "frame-cut-inside-its-path": (
        '  File "/root/.cache/verl-sandbox/venv/lib/python3.11/site-packages/ray/_private/runtime_env/'
        'validation.py", line 447, in parse_and_validate_env_vars\n'
        "    raise TypeError(\n"
        "TypeError: runtime_env['env_vars'] must be of type Dict[str, str], but the value 1 is of type <class 'int'>\n",
        "CFG014",
    ),
    # the weight-sync clue needs `in update_params`: the cut leaves `in upda` / `te_params`
    "frame-cut-in-its-function-name": (
        '  File "/opt/verl/verl/workers/sharding_manager/fsdp_vllm.py", line 217, in __enter__\n'
        "    self.update_params(params, peft_config=peft_config)\n"
        '  File "/opt/verl/verl/workers/sharding_manager/fsdp_vllm.py", line 334, in update_params\n'
        "    loaded_params = model.load_weights(\n"
        '  File "/opt/venv/vllm/model_executor/models/qwen2.py", line 391, in load_weights\n'
        "    param = params_dict[name]\n"
        "KeyError: 'layers.0.self_attn.qkv_proj.base_layer.weight'\n",
        "FLOW006",
    ),
    # `RayTaskError(OutOfMemoryError): ray::T` / `askRunner.run() ...`: the envelope of Ray's
    # host-memory kill, not a GPU's out-of-memory error of its own
    "envelope-cut-before-its-method": (
        "(TaskRunner pid=98005) ray.exceptions.RayTaskError(OutOfMemoryError): ray::TaskRunner.run() "
        "(pid=98005, ip=10.0.0.7, actor_id=4c2e1f0a9b8d7c6e5f4a3b2c01000000)\n"
        "(TaskRunner pid=98005) ray.exceptions.OutOfMemoryError: Task was killed due to the node running "
        "low on memory.\n",
        "DIST005",
    ),
}


@pytest.mark.parametrize("case", sorted(_CUT_READINGS))
def test_a_reading_that_needs_a_whole_line_survives_a_terminals_cut(case: str) -> None:
    log, code = _CUT_READINGS[case]
    assert _first(log) == code
    assert _first(_terminal_wrap(80)(log)) == code


def test_a_bare_assert_is_read_from_its_statement_in_a_crlf_file(run_cli, tmp_path) -> None:
    log = (
        "Traceback (most recent call last):\r\n"
        '  File "/opt/venv/lib/python3.11/site-packages/verl/trainer/main_ppo.py", line 128, in run\r\n'
        '    assert config.critic.strategy in {"fsdp", "fsdp2"}\r\n'
        "AssertionError\r\n"
    )
    path = tmp_path / "run.log"
    path.write_bytes(log.encode())
    report = json.loads(run_cli(["explain", "--format", "json", str(path)]).stdout)
    assert [f["rule"] for f in report["findings"]] == ["CFG014"]
    assert "critic.strategy" in report["findings"][0]["cause"]


@pytest.mark.parametrize("prompt", ["$ ", "+ ", ""])
def test_a_launch_command_continued_with_backslashes_gives_its_overrides(run_cli, prompt: str) -> None:
    """A launch script pasted with its command over lines (`\\` at their ends): the settings on
    the lines after the first are the run's, as the shell joined them."""
    log = (
        f"{prompt}python3 -m verl.trainer.main_ppo \\\n"
        "    data.train_files=/data/train.parquet \\\n"
        "    actor_rollout_ref.actor.ppo_micro_batch_size=0 \\\n"
        "    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=null\n"
        "Traceback (most recent call last):\n"
        '  File "/opt/verl/verl/workers/config/actor.py", line 233, in validate\n'
        "    if self.ppo_mini_batch_size % self.ppo_micro_batch_size != 0:\n"
        "ZeroDivisionError: integer modulo by zero\n"
    )
    report = json.loads(run_cli(["explain", "--format", "json", "-"], stdin=log.encode()).stdout)
    assert [f["rule"] for f in report["findings"]] == ["CFG014"]
    assert "actor_rollout_ref.actor.ppo_micro_batch_size to 0" in report["findings"][0]["basis"]


_DIVIDED_BY_A_SETTING = (
    "Traceback (most recent call last):\n"
    '  File "/opt/verl/verl/workers/config/actor.py", line 233, in validate\n'
    "    if self.ppo_mini_batch_size % self.ppo_micro_batch_size != 0:\n"
    "ZeroDivisionError: integer modulo by zero\n"
)
_ZERO_BASIS = "actor_rollout_ref.actor.ppo_micro_batch_size to 0"
_COMMAND = (
    "$ ~/venv/bin/python -m verl.trainer.main_ppo $(cat ~/runs/base-args) data.train_batch_size=8 "
    "actor_rollout_ref.actor.ppo_micro_batch_size=0 "
    "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=null 2>&1 | tee run.log\n"
)
_HYDRA_LIST = (
    "Error executing job with overrides: ['data.train_files=/data/gsm8k/train.parquet', "
    "'data.train_batch_size=8', 'actor_rollout_ref.model.path=/models/Qwen2.5-0.5B-Instruct', "
    "'actor_rollout_ref.actor.ppo_micro_batch_size=0', "
    "'actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=null']\n"
)


def _explained(run_cli, log: str) -> dict:
    return json.loads(run_cli(["explain", "--format", "json", "-"], stdin=log.encode()).stdout)


@pytest.mark.parametrize("wrap", ["page-60", "page-100", "terminal-80"])
@pytest.mark.parametrize("where", ["command", "hydra-list"])
def test_settings_spread_over_lines_by_a_wrap_are_the_runs(run_cli, wrap: str, where: str) -> None:
    """The launch command or Hydra's override list that a wrap cut over lines (no `\\` at their
    ends): the settings past the first cut are the run's, so the failure is read by them."""
    shape = {"page-60": _page_wrap(60), "page-100": _page_wrap(100), "terminal-80": _terminal_wrap(80)}[wrap]
    settings = _COMMAND if where == "command" else _HYDRA_LIST
    assert len(settings.split("\n")[0]) > 200
    log = shape(settings) + _DIVIDED_BY_A_SETTING
    [finding] = _explained(run_cli, log)["findings"]
    assert finding["rule"] == "CFG014"
    assert _ZERO_BASIS in finding["basis"]


def test_a_command_reads_no_settings_from_the_output_after_it(run_cli) -> None:
    """The lines after a command that are its output, not its arguments, are not read as settings."""
    log = (
        "$ python3 -m verl.trainer.main_ppo data.train_batch_size=8\n"
        "ray.init(num_cpus=4) started the local cluster at address=127.0.0.1:6379\n"
        "trainer.total_epochs=1 is ignored by this launcher\n"
    ) + _DIVIDED_BY_A_SETTING
    report = _explained(run_cli, log)
    assert report["context"]["overrides"] == {"data.train_batch_size": "8"}
    assert [f["rule"] for f in report["findings"]] != ["CFG014"]


def test_a_frame_a_wrap_cut_after_its_path_is_read_whole(run_cli) -> None:
    """`File ".../actor.py",` with `line 233, in validate` on the line after it: the frame that
    raised is verl's, so a division by a setting the run set to 0 is read as that setting."""
    log = _COMMAND + _DIVIDED_BY_A_SETTING.replace('actor.py", line 233', 'actor.py",\nline 233')
    [finding] = _explained(run_cli, log)["findings"]
    assert finding["rule"] == "CFG014"
    assert _ZERO_BASIS in finding["basis"]


@pytest.mark.parametrize("shape", sorted(WHOLE_LINES))
def test_the_config_part_hydra_names_is_read_behind_any_prefix(shape: str) -> None:
    """Hydra's `full_key: actor_rollout_ref.model` under its wrapper says which part of the config
    failed to build, whatever prefix the log puts before it."""
    log = (
        "$ python3 -m verl.trainer.main_ppo actor_rollout_ref.model.path=/models/Qwen2.5-0.5B "
        "+actor_rollout_ref.model.override_config.rope_scaling.type=yarn\n"
        "Traceback (most recent call last):\n"
        '  File "/opt/venv/lib/python3.11/site-packages/hydra/_internal/instantiate/_instantiate2.py", '
        "line 97, in _call_target\n"
        "    raise InstantiationException(_with_full_key(msg, full_key)) from e\n"
        "hydra.errors.InstantiationException: Error in call to target "
        "'verl.workers.config.model.HFModelConfig':\n"
        "AttributeError(\"'dict' object has no attribute 'type'\")\n"
        "full_key: actor_rollout_ref.model\n"
    )
    report = diagnose_text(WHOLE_LINES[shape](log), _CATALOG)
    [finding] = report.findings
    assert finding.rule == "CFG014"
    assert "rope_scaling.type" in (finding.basis or "")


_KEY_VERL_READS = (
    "$ python3 -m verl.trainer.main_ppo --config-path=/work/myconf --config-name=grpo_gsm8k\n"
    "Error executing job with overrides: []\n"
    "Traceback (most recent call last):\n"
    '  File "/opt/venv/lib/python3.11/site-packages/verl/trainer/ppo/utils.py", line 98, in need_critic\n'
    "    if config.critic.enable is not None:\n"
    "       ^^^^^^^^^^^^^\n"
    "omegaconf.errors.ConfigAttributeError: Key 'critic' is not in struct\n"
    "    full_key: critic\n"
    "    object_type=dict\n"
)
_MERGE_REFUSED = (
    "$ python3 -m verl.trainer.main_ppo data.train_batch_size=8 "
    "actor_rollout_ref.actor.checkpoint=[model,optimizer,extra,hf_model]\n"
    "Error merging override actor_rollout_ref.actor.checkpoint=[model,optimizer,extra,hf_model]\n"
    "Cannot merge DictConfig with ListConfig\n"
    "    full_key: actor_rollout_ref.actor.checkpoint\n"
    "    object_type=dict\n"
)


@pytest.mark.parametrize("shape", sorted(WHOLE_LINES))
@pytest.mark.parametrize(("log", "code"), [(_KEY_VERL_READS, "CFG011"), (_MERGE_REFUSED, "CFG016")])
def test_the_lines_after_a_message_are_read_behind_the_same_prefix(shape: str, log: str, code: str) -> None:
    """Behind a prefix that names no worker (a timestamp, a quote, a launcher's label), a source
    line is not continued by the exception under it, nor a typed command by its output."""
    assert [f.rule for f in diagnose_text(log, _CATALOG).findings][0] == code
    assert [f.rule for f in diagnose_text(WHOLE_LINES[shape](log), _CATALOG).findings][0] == code


_CORPUS = Path(__file__).with_name("corpus")


@pytest.mark.parametrize(
    ("log", "shape"),
    [
        ("276.log", "code-block"),
        ("290.log", "code-block"),
        ("276.log", "markdown-quote"),
        ("480.log", "markdown-quote"),
    ],
)
def test_a_log_a_terminal_cut_reads_the_same_indented_or_quoted(log: str, shape: str) -> None:
    """Logs of the corpus cut at a terminal's width (a command, a message past its cut; one
    behind srun's labels; one whose message is followed by a worker's line), then indented as a
    code block or quoted: the pieces of each cut line are read together behind the margin, a
    worker's line behind it is a record of its own, and the first finding is the one the log
    gives as it is."""
    text = (_CORPUS / log).read_text(encoding="utf-8")
    first = diagnose_text(text, _CATALOG).findings[0].rule
    assert [f.rule for f in diagnose_text(WHOLE_LINES[shape](text), _CATALOG).findings][:1] == [first]


_WORKER_WRAPPED = (
    '(WorkerDict pid=3321)   File "/usr/local/lib/python3.10/dist-packages/sglang/srt/models/qwen\n'
    '2_moe.py", line 150, in __init__\n'
    "(WorkerDict pid=3321)     self.shared_expert = Qwen2MoeMLP(\n"
    '(WorkerDict pid=3321)   File "/usr/local/lib/python3.10/dist-packages/sglang/srt/models/qwen\n'
    '2_moe.py", line 102, in __init__\n'
    "(WorkerDict pid=3321)     raise ValueError(\n"
    "(WorkerDict pid=3321) ValueError: Unsupported activation: gelu. Only silu is supported for now.\n"
    "(WorkerDict pid=3321)\n"
    "(WorkerDict pid=3321) [2025-07-08 16:40:15 TP1] Scheduler hit an exception: Traceback (most recent call last):\n"
)


@pytest.mark.parametrize("shape", ["markdown-quote", "code-block"])
def test_a_worker_log_a_wrap_cut_reads_the_same_behind_a_quote(shape: str) -> None:
    """A terminal's log with Ray's worker prefixes, pasted behind a Markdown quote (or a code
    block's indentation): the rest of a frame's path a wrap cut is behind the quote only, and the
    worker's next line is a record of its own, not more of the message."""
    plain = diagnose_text(_WORKER_WRAPPED, _CATALOG).findings[0]
    shaped = diagnose_text(WHOLE_LINES[shape](_WORKER_WRAPPED), _CATALOG).findings[0]
    assert "qwen2_moe.py" in (plain.basis or "")
    assert (shaped.rule, shaped.basis) == (plain.rule, plain.basis)
