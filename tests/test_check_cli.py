"""`verl-doctor check` and `run --check` as a user runs them."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from verl_doctor.cli.check import check

FIX = Path(__file__).with_name("fixtures") / "check"
PPO = ["python3", "-m", "verl.trainer.main_ppo"]


@pytest.fixture
def base(tmp_path: Path) -> list[str]:
    """A correct command line whose model folder and data files exist."""
    (tmp_path / "model").mkdir()
    shutil.copy(FIX / "model-config.json", tmp_path / "model" / "config.json")
    for name in ("train.parquet", "test.parquet"):
        (tmp_path / name).write_bytes(b"PAR1")
    text = (FIX / "base-args").read_text()
    text = text.replace("{S}/tiny-qwen2", str(tmp_path / "model")).replace("{S}/data/gsm8k", str(tmp_path))
    return text.split()


def run_json(run_cli, args: list[str], cwd: Path | None = None) -> tuple[int, dict]:  # type: ignore[no-untyped-def]
    proc = run_cli(["check", "--format", "json", "--verl-version", "0.9.1", *args], cwd=cwd)
    return proc.returncode, json.loads(proc.stdout)


def test_correct_command_passes_and_names_the_version(run_cli, base: list[str]) -> None:  # type: ignore[no-untyped-def]
    code, out = run_json(run_cli, ["--", *PPO, *base])
    assert code == 0
    assert out["findings"] == []
    assert out["context"]["check"]["verl_version"] == "0.9.1"
    assert out["context"]["check"]["commands"][0]["passes"] is True
    text = run_cli(["check", "--verl-version", "0.9.1", "--", *PPO, *base]).stdout.decode()
    assert "checked against verl 0.9.1" in text


def test_finding_carries_override_reason_and_correction(run_cli, base: list[str]) -> None:  # type: ignore[no-untyped-def]
    code, out = run_json(run_cli, ["--", *PPO, *base, "actor_rollout_ref.actor.ppo_mini_batchsize=4"])
    assert code == 1
    (finding,) = out["findings"]
    assert finding["rule"] == "CFG005"
    assert finding["evidence"][0]["text"] == "actor_rollout_ref.actor.ppo_mini_batchsize=4"
    assert "actor_rollout_ref.actor.ppo_mini_batch_size=4" in finding["fixes"][0]["commands"]
    assert any("config_loader_impl" in r for r in finding["references"])


def test_key_moved_between_versions_is_named(base: list[str]) -> None:
    report, code = check([*PPO, *base, "ray_init.num_cpus=8"], verl_version="0.9.1")
    assert code == 1
    assert "0.5.x" in report.findings[0].cause
    assert report.findings[0].fixes[0].commands == ("ray_kwargs.ray_init.num_cpus=8",)
    # ...and in 0.5 that key is the right one.
    report, code = check(
        [*PPO, *[a for a in base if "ray_kwargs" not in a], "ray_init.num_cpus=8"], verl_version="0.5.0"
    )
    assert [f.rule for f in report.findings if f.rule == "CFG005"] == []


@pytest.mark.parametrize(
    ("override", "code"),
    [
        ("data.train_batch_size=2", "CFG004"),
        ("trainer.n_gpus_per_node=3", "CFG004"),
        ("actor_rollout_ref.rollout.log_prob_micro_batch_size=2", "CFG014"),
        ("actor_rollout_ref.actor.loss_agg_mode=token-avg", "CFG014"),
        ("actor_rollout_ref.actor.ppo_mini_batch_size=four", "CFG014"),
        ("trainer.nnodes=1.5", "CFG004"),
        ("trainer.logger=[console,wandbb]", "CFG014"),
        ("trainer.logger=console,wandb", "CFG016"),
        ("+data.train_batch_size=8", "CFG016"),
        ("trainer.n_gpus_per_node=???", "CFG011"),
        ("data.train_files=/nonexistent/x.parquet", "CFG013"),
        ("actor_rollout_ref.model.path=/nonexistent/model", "CFG017"),
        ("+actor_rollout_ref.actor.not_a_field=1", "CFG005"),
    ],
)
def test_each_kind_of_mistake(base: list[str], override: str, code: str) -> None:
    report, exit_code = check([*PPO, *base, override], verl_version="0.9.1")
    assert exit_code == 1
    assert report.findings[0].rule == code
    assert report.findings[0].evidence[0].text == override


def test_megatron_parallel_sizes_against_gpus(base: list[str]) -> None:
    cmd = [*PPO, "--config-name=ppo_megatron_trainer", *base]
    report, code = check(
        [*cmd, "actor_rollout_ref.actor.megatron.tensor_model_parallel_size=2"], verl_version="0.9.1"
    )
    assert (code, report.findings[0].rule) == (1, "CFG010")
    report, code = check(
        [*cmd, "trainer.n_gpus_per_node=2", "actor_rollout_ref.actor.megatron.tensor_model_parallel_size=2"],
        verl_version="0.9.1",
    )
    assert code == 0, [f.cause for f in report.findings]


def test_types_verl_does_not_enforce_are_warnings(base: list[str]) -> None:
    report, code = check([*PPO, *base, "actor_rollout_ref.actor.use_dynamic_bsz=maybe"], verl_version="0.9.1")
    assert code == 0
    assert [(f.rule, f.confidence) for f in report.findings] == [("CFG014", "medium")]


def test_model_limits_are_warnings(base: list[str]) -> None:
    report, code = check([*PPO, *base, "data.max_response_length=4000"], verl_version="0.9.1")
    assert code == 0  # verl's own start-up checks pass; the rollout engine refuses it later
    assert [(f.rule, f.confidence) for f in report.findings] == [("FLOW003", "medium")]
    assert "2048" in report.findings[0].cause
    _, strict = check([*PPO, *base, "data.max_response_length=4000"], verl_version="0.9.1", strict=True)
    assert strict == 1


def test_custom_module_is_parsed_not_imported(tmp_path: Path, base: list[str]) -> None:
    marker = tmp_path / "imported"
    reward = tmp_path / "reward.py"
    reward.write_text(
        f"open({str(marker)!r}, 'w').close()\n\ndef score(data_source, solution_str, ground_truth):\n    return 0\n"
    )
    report, code = check(
        [
            *PPO,
            *base,
            f"reward.custom_reward_function.path={reward}",
            "reward.custom_reward_function.name=compute_score",
        ],
        verl_version="0.9.1",
    )
    assert not marker.exists()
    assert (code, report.findings[0].rule) == (1, "CFG008")
    assert report.findings[0].fixes[0].commands == ("reward.custom_reward_function.name=score",)


def test_script_variables_resolved_with_lines(run_cli, tmp_path: Path, base: list[str]) -> None:  # type: ignore[no-untyped-def]
    script = tmp_path / "run_grpo.sh"
    rest = " \\\n    ".join(a for a in base if not a.startswith("data.train_batch_size"))
    script.write_text(
        "#!/bin/bash\nset -x\nBATCH=6\nGPUS=${GPUS:-4}\n"
        f"python3 -m verl.trainer.main_ppo \\\n    data.train_batch_size=$BATCH \\\n    {rest} \\\n"
        "    trainer.n_gpus_per_node=$GPUS \\\n    actor_rollout_ref.actor.ppo_mini_batch_size=2 $@\n"
    )
    code, out = run_json(run_cli, [str(script)])
    assert code == 1
    finding = out["findings"][0]
    assert finding["rule"] == "CFG004"
    assert "real_train_batch_size" in finding["cause"] and "(4," in finding["cause"]
    assert finding["source"] == str(script) and finding["first_line"] == 5


def test_config_file(run_cli, tmp_path: Path, base: list[str]) -> None:  # type: ignore[no-untyped-def]
    cfg = tmp_path / "my_ppo.yaml"
    cfg.write_text(
        "defaults:\n  - ppo_trainer\n  - _self_\ndata:\n  train_batch_size: 8\n  max_prompt_lenght: 512\n"
    )
    code, out = run_json(run_cli, ["--config", str(cfg), "--", *PPO, *base])
    assert code == 1
    finding = out["findings"][0]
    assert (finding["rule"], finding["source"], finding["first_line"]) == ("CFG005", str(cfg), 6)
    assert "data.max_prompt_length=512" in finding["fixes"][0]["commands"]


def test_secrets_in_the_command_are_redacted(run_cli, base: list[str]) -> None:  # type: ignore[no-untyped-def]
    secret = "hf_" + "a1B2c3D4e5F6g7H8i9J0kLmNoP"
    args = [
        "--",
        *PPO,
        *base,
        f"+ray_kwargs.ray_init.runtime_env.env_vars.HF_TOKEN={secret}",
        "trainer.nnodes=abc",
    ]
    for fmt in ("json", "text", "markdown", "github"):
        proc = run_cli(["check", "-f", fmt, "--verl-version", "0.9.1", *args])
        assert proc.returncode == 1
        assert secret not in proc.stdout.decode()


def test_text_headline_speaks_of_the_command_not_of_a_log(run_cli, base: list[str]) -> None:  # type: ignore[no-untyped-def]
    bad = run_cli(["check", "--verl-version", "0.9.1", "--", *PPO, *base, "data.train_batch=8"])
    first = bad.stdout.decode().splitlines()[0]
    assert "1 problem verl would stop on in <command>" in first and "known error" not in first
    # Issues of the defaults have no line of the command to point at: no `<command>:0`.
    defaults = run_cli(["check", "--verl-version", "0.9.1", "--", *PPO, "data.train_batch_size=16"])
    assert "<command>:0" not in defaults.stdout.decode() and "(defaults)" in defaults.stdout.decode()
    good = run_cli(["check", "--verl-version", "0.9.1", "--", *PPO, *base])
    assert good.returncode == 0 and "passes verl's start-up checks" in good.stdout.decode().splitlines()[0]


@pytest.mark.parametrize("fmt", ["markdown", "github"])
def test_other_formats(run_cli, base: list[str], fmt: str) -> None:  # type: ignore[no-untyped-def]
    proc = run_cli(["check", "-f", fmt, "--verl-version", "0.9.1", "--", *PPO, *base, "data.train_batch=8"])
    assert proc.returncode == 1
    assert "CFG005" in proc.stdout.decode()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "needs a command"),
        (["--", "ls", "-la"], "no verl entry point"),
        (["missing.sh"], "cannot read missing.sh"),
        (["--format", "xml", "--", *PPO], "'xml' is not one of"),
    ],
)
def test_usage_errors_are_one_line(run_cli, args: list[str], message: str) -> None:  # type: ignore[no-untyped-def]
    proc = run_cli(["check", *args])
    err = proc.stderr.decode()
    assert proc.returncode == 2
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_fast_and_light(tmp_path: Path, base: list[str]) -> None:
    code = (
        "import sys, time\n"
        "from verl_doctor.cli.main import main\n"
        "t = time.process_time()\n"
        f"rc = main(['check', '--verl-version', '0.9.1', '--', *{PPO + base!r}])\n"
        "t = time.process_time() - t\n"
        "heavy = sorted(m for m in ('torch', 'ray', 'hydra', 'omegaconf', 'verl', 'rich', 'typer') if m in sys.modules)\n"
        "print(rc, t, heavy, file=sys.stderr)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=tmp_path
    )
    rc, seconds, heavy = proc.stderr.strip().split(" ", 2)
    assert rc == "0" and heavy == "[]"
    # CPU time, so that a busy machine does not fail the test; typically ~0.1 s.
    assert float(seconds) < 0.5


def test_run_check_launches_only_what_passes(run_cli, tmp_path: Path, base: list[str]) -> None:  # type: ignore[no-untyped-def]
    marker = tmp_path / "launched"
    script = tmp_path / "train.sh"

    def write(extra: str) -> None:
        script.write_text(
            f"touch {marker}\n: python3 -m verl.trainer.main_ppo {' '.join(base)} {extra}\nexit 0\n"
        )

    write("data.train_batch=8")
    proc = run_cli(["run", "--check", "--verl-version", "0.9.1", "--", "bash", str(script)])
    assert proc.returncode == 1 and not marker.exists()
    assert "CFG005" in proc.stderr.decode() and "not launching" in proc.stderr.decode()
    write("")
    proc = run_cli(["run", "--check", "--verl-version", "0.9.1", "--", "bash", str(script)])
    assert proc.returncode == 0 and marker.exists()


def test_repeated_checks_are_cheap(base: list[str]) -> None:
    started = time.process_time()
    for _ in range(5):
        check([*PPO, *base], verl_version="0.9.1")
    assert (time.process_time() - started) / 5 < 0.2


def test_here_compares_gpus_with_this_machine(run_cli, tmp_path: Path, base: list[str]) -> None:  # type: ignore[no-untyped-def]
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    smi = bin_dir / "nvidia-smi"
    smi.write_text(
        "#!/bin/sh\necho '0, NVIDIA H100 80GB HBM3, 81559'\necho '1, NVIDIA H100 80GB HBM3, 81559'\n"
    )
    smi.chmod(0o755)
    path = f"{bin_dir}:/usr/bin:/bin"
    args = ["check", "-f", "json", "--here", "--verl-version", "0.9.1", "--", *PPO, *base]
    proc = run_cli([*args, "trainer.n_gpus_per_node=8"], env={"PATH": path})
    out = json.loads(proc.stdout)
    assert proc.returncode == 1
    assert out["findings"][0]["rule"] == "CFG003"
    assert out["findings"][0]["fixes"][0]["commands"] == ["trainer.n_gpus_per_node=2"]
    proc = run_cli([*args, "trainer.n_gpus_per_node=2"], env={"PATH": path})
    assert proc.returncode == 0, proc.stdout
    assert "NVIDIA H100" in " ".join(json.loads(proc.stdout)["notes"])
    proc = run_cli([*args, "trainer.n_gpus_per_node=2"], env={"PATH": path, "CUDA_VISIBLE_DEVICES": "1"})
    assert proc.returncode == 1
    # A 70 GB checkpoint in one tensor-parallel rank leaves a 0.6 x 80 GB share no room: a warning.
    index = {"metadata": {"total_size": 70 * 1024**3}, "weight_map": {}}
    (tmp_path / "model" / "model.safetensors.index.json").write_text(json.dumps(index))
    proc = run_cli([*args, "trainer.n_gpus_per_node=2"], env={"PATH": path})
    found = json.loads(proc.stdout)["findings"]
    assert proc.returncode == 0 and [(f["rule"], f["confidence"]) for f in found] == [("FLOW004", "medium")]
    assert "actor_rollout_ref.rollout.tensor_model_parallel_size=2" in found[0]["fixes"][0]["commands"]
    tp2 = "actor_rollout_ref.rollout.tensor_model_parallel_size=2"
    proc = run_cli([*args, "trainer.n_gpus_per_node=2", tp2], env={"PATH": path})
    assert json.loads(proc.stdout)["findings"] == []


def test_other_entry_points_get_their_own_keys() -> None:
    report, code = check(
        ["python3", "-m", "verl.trainer.main_eval", "data.path=x.parquet", "data.response_keys=responses"],
        verl_version="0.9.1",
    )
    assert (code, report.findings[0].rule) == (1, "CFG005")
    assert report.findings[0].fixes[0].commands == ("data.response_key=responses",)
    report, code = check(
        ["torchrun", "-m", "verl.trainer.sft_trainer", "whatever.key=1"], verl_version="0.9.1"
    )
    assert (code, report.findings[0].rule) == (1, "CFG005")
    assert any("sft_trainer_engine.yaml are checked" in n for n in report.notes)
    report, code = check(
        ["torchrun", "-m", "verl.trainer.sft_trainer_ray", "whatever.key=1"], verl_version="0.9.1"
    )
    assert code == 0 and any("only override syntax" in n for n in report.notes)


@pytest.mark.parametrize(
    ("argv", "version", "rule"),
    [
        # fsdp_sft_trainer (sft_trainer.yaml, `defaults: [optim: fsdp]` in 0.7) until 0.7 ...
        (["torchrun", "-m", "verl.trainer.fsdp_sft_trainer", "optim.lr=1e-5"], "0.7.1", None),
        (["torchrun", "-m", "verl.trainer.fsdp_sft_trainer", "optim.learning_rate=1"], "0.7.1", "CFG005"),
        # ... then gone: Python's `No module named verl.trainer.fsdp_sft_trainer`
        (["torchrun", "-m", "verl.trainer.fsdp_sft_trainer", "optim.lr=1e-5"], "0.8.0", "ENV005"),
        (["python3", "-m", "verl.trainer.main_generation", "data.path=x"], "0.9.1", "ENV005"),
        (["python3", "-m", "verl.trainer.sft_trainer", "model.path=x"], "0.5.0", "ENV005"),
        # the module is missing before any override is parsed
        (["python3", "-m", "verl.trainer.fsdp_sft_trainer", "data.x=[1"], "0.9.1", "ENV005"),
        # sft_trainer: the keys of sft_trainer_engine.yaml with its config groups composed
        (["torchrun", "-m", "verl.trainer.sft_trainer", "engine.fsdp_size=2", "optim.lr=1"], "0.9.1", None),
        (["torchrun", "-m", "verl.trainer.sft_trainer", "model.lora.rank=8"], "0.9.1", None),
        (["torchrun", "-m", "verl.trainer.sft_trainer", "actor_rollout_ref.model.path=m"], "0.9.1", "CFG005"),
        (["torchrun", "-m", "verl.trainer.sft_trainer", "+optim.lr=1"], "head", "CFG016"),
        # a config-group choice: its option's keys are not in the default list, so not judged
        (
            [
                "torchrun",
                "-m",
                "verl.trainer.sft_trainer",
                "engine=megatron",
                "engine.tensor_model_parallel_size=2",
            ],
            "0.9.1",
            None,
        ),
        # main_generation_server loads ppo_trainer; data.output_path must be added with `+`
        (
            ["python3", "-m", "verl.trainer.main_generation_server", "+data.output_path=o.parquet"],
            "0.9.1",
            None,
        ),
        (
            ["python3", "-m", "verl.trainer.main_generation_server", "data.output_path=o.parquet"],
            "0.9.1",
            "CFG005",
        ),
        (
            ["python3", "-m", "verl.trainer.main_generation_server", "actor_rollout_ref.rollout.n=2"],
            "0.6.0",
            None,
        ),
    ],
)
def test_sft_and_generation_entry_points(argv: list[str], version: str, rule: str | None) -> None:
    report, code = check(argv, verl_version=version)
    assert (code, report.findings[0].rule if report.findings else None) == (int(rule is not None), rule)


@pytest.mark.parametrize(
    ("prefix", "warned"),
    [
        (["python3", "-m"], True),
        (["torchrun", "--standalone", "--nproc_per_node=8", "-m"], False),
        (["python3", "-m", "torch.distributed.run", "--nproc_per_node=8", "-m"], False),
        (["env", "RANK=0", "WORLD_SIZE=1", "python3", "-m"], False),
    ],
)
def test_sft_trainer_without_torchrun_is_a_warning(prefix: list[str], warned: bool) -> None:
    report, code = check([*prefix, "verl.trainer.sft_trainer", "optim.lr=1e-5"], verl_version="0.9.1")
    assert code == 0
    assert [(f.rule, f.confidence) for f in report.findings] == ([("DIST001", "medium")] if warned else [])


def test_model_engine_chooses_the_megatron_keys_from_verl_0_8(run_cli, base: list[str]) -> None:  # type: ignore[no-untyped-def]
    megatron_key = "actor_rollout_ref.actor.megatron.tensor_model_parallel_size=1"
    on_09 = run_cli(
        ["check", "--verl-version", "0.9.1", "--", *PPO, *base, "model_engine=megatron", megatron_key]
    )
    assert "CFG005" not in on_09.stdout.decode()
    # verl 0.7 had no model_engine group: Hydra refuses the key.
    on_07 = run_cli(["check", "--verl-version", "0.7.0", "--", *PPO, *base, "model_engine=megatron"])
    assert on_07.returncode == 1 and "CFG005" in on_07.stdout.decode()


def test_agent_loop_file_entries_are_read_not_imported(run_cli, base: list[str], tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "agents").mkdir()
    (tmp_path / "agents" / "__init__.py").write_text("")
    # Importing this file would fail: check must only parse it.
    (tmp_path / "agents" / "loops.py").write_text(
        "raise SystemExit('imported!')\nclass ToolAgentLoop:\n    pass\n"
    )
    (tmp_path / "loops.yaml").write_text(
        "- name: tool_agent\n  _target_: agents.loops.ToolAgentLoop\n"
        "- name: typo_agent\n  _target_: agents.loops.ToolAgentLop\n"
        "- name: no_target\n"
        "- name: installed\n  _target_: some_installed_pkg.agents.Loop\n"
    )
    key = "actor_rollout_ref.rollout.agent.agent_loop_config_path=loops.yaml"
    code, out = run_json(run_cli, ["--", *PPO, *base, key], cwd=tmp_path)
    causes = [f["cause"] for f in out["findings"]]
    assert code == 0  # verl meets the file only when its agent-loop workers start: warnings
    assert len(causes) == 2, causes
    assert "ToolAgentLop" in causes[0] and "needs a `name` and a `_target_`" in causes[1]
    assert all(f["rule"] == "CFG008" and f["confidence"] == "medium" for f in out["findings"])


def test_expert_parallel_sizes_must_divide_the_gpus(run_cli, base: list[str]) -> None:  # type: ignore[no-untyped-def]
    def megatron_with_ep(ep: int):  # type: ignore[no-untyped-def]
        return run_cli(
            ["check", "--verl-version", "0.9.1", "--", *PPO, "--config-name", "ppo_megatron_trainer", *base]
            + ["trainer.n_gpus_per_node=8", "actor_rollout_ref.actor.megatron.tensor_model_parallel_size=2"]
            + [f"actor_rollout_ref.actor.megatron.expert_model_parallel_size={ep}"]
        )

    bad = megatron_with_ep(3)
    out = bad.stdout.decode()
    assert bad.returncode == 1 and "CFG010" in out and "expert_model_parallel_size=2" in out
    good = megatron_with_ep(4)
    assert "expert" not in good.stdout.decode()
