"""The pieces of `check`: Hydra's override grammar, scripts, the verl version it picks."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from verl_doctor.check.model import Issue, Override
from verl_doctor.check.override import parse_override
from verl_doctor.check.parse import from_argv, from_script


@pytest.mark.parametrize(
    ("text", "op", "key", "value"),
    [
        ("a.b=1", "", "a.b", 1),
        ("a.b=1e-6", "", "a.b", 1e-6),
        ("a.b=True", "", "a.b", True),
        ("a.b=null", "", "a.b", None),
        ("a.b=[console,'wandb']", "", "a.b", ["console", "wandb"]),
        ("a.b={x: 1, y: [2]}", "", "a.b", {"x": 1, "y": [2]}),
        ("+a.b='x,y'", "+", "a.b", "x,y"),
        ("++a.b=${c.d}", "++", "a.b", "${c.d}"),
        ("a.b=/path/to-file_1.parquet", "", "a.b", "/path/to-file_1.parquet"),
        ("~a.b", "~", "a.b", None),
        ("a.b=", "", "a.b", ""),
    ],
)
def test_hydra_values(text: str, op: str, key: str, value: object) -> None:
    parsed = parse_override(text)
    assert isinstance(parsed, Override)
    assert (parsed.op, parsed.key, parsed.value) == (op, key, value)


@pytest.mark.parametrize(
    ("text", "fix"),
    [
        ("a.b", "a.b=<value>"),
        ("a.b=[1,2", "a.b=[1,2]"),
        ("a.b=1,2", "a.b=[1,2]"),
        ("a.b='open", "a.b='open'"),
        ("a.b==1", "a.b=1"),
        ("a b=1", None),
    ],
)
def test_hydra_refusals(text: str, fix: str | None) -> None:
    parsed = parse_override(text)
    assert isinstance(parsed, Issue) and parsed.code == "CFG016"
    if fix:
        assert parsed.fix[0] == fix


def test_command_forms() -> None:
    inv = from_argv(
        ["WANDB_MODE=offline", "torchrun", "--nproc_per_node=8", "-m", "verl.trainer.main_ppo", "a.b=1"]
    )
    assert inv.entry == "verl.trainer.main_ppo" and [o.key for o in inv.overrides] == ["a.b"]
    inv = from_argv(["python3", "verl/trainer/main_ppo.py", "--config-path=cfg", "--config-name", "x", "a=1"])
    assert (inv.config_path, inv.config_name) == ("cfg", "x")
    inv = from_argv(["python3", "-m", "verl.trainer.main_ppo", "--data.x=1"])
    assert inv.syntax_errors[0].code == "CFG016" and inv.syntax_errors[0].fix == ("data.x=1",)


def test_script_expansion_respects_quotes_and_defaults() -> None:
    script = (
        "MODEL=/m\nexport N=${N:-4}\n"
        "python3 -m verl.trainer.main_ppo \\\n"
        "  actor_rollout_ref.model.path=$MODEL \\\n"
        "  'trainer.experiment_name=$MODEL' \\\n"
        "  trainer.n_gpus_per_node=${N} trainer.nnodes=$UNSET $EXTRA_ARGS\n"
    )
    (inv,) = from_script(script, "run.sh")
    values = {o.key: o.value for o in inv.overrides}
    assert values["actor_rollout_ref.model.path"] == "/m"
    assert values["trainer.experiment_name"] == "$MODEL"  # single quotes: not expanded
    assert values["trainer.n_gpus_per_node"] == 4
    assert values["trainer.nnodes"] == "$UNSET"
    assert inv.line == 3


def test_installed_verl_read_without_importing_it(tmp_path: Path) -> None:
    (tmp_path / "verl").mkdir()
    (tmp_path / "verl" / "__init__.py").write_text("raise SystemExit('verl was imported')\n")
    meta = tmp_path / "verl-0.6.1.dist-info"
    meta.mkdir()
    (meta / "METADATA").write_text("Metadata-Version: 2.1\nName: verl\nVersion: 0.6.1\n")
    code = "from verl_doctor.check.version import choose; print(choose(None))"
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )
    assert out.stdout.strip() == "('0.6.1', 'installed', '0.6.0')", out.stderr


def test_sweeps_need_multirun() -> None:
    plain = from_argv(["python3", "-m", "verl.trainer.main_ppo", "trainer.logger=console,wandb"])
    assert [e.code for e in plain.syntax_errors] == ["CFG016"]
    swept = from_argv(
        ["python3", "-m", "verl.trainer.main_ppo", "--multirun", "trainer.logger=console,wandb"]
    )
    assert swept.syntax_errors == () and swept.multirun


def test_flags_after_overrides_are_unrecognized() -> None:
    inv = from_argv(["python3", "-m", "verl.trainer.main_ppo", "a.b=1", "--config-name=x", "c.d=2"])
    assert [(e.code, e.override) for e in inv.syntax_errors] == [("CFG016", "c.d=2")]
    inv = from_argv(["python3", "-m", "verl.trainer.main_ppo", "--config-name=x", "a.b=1", "c.d=2"])
    assert inv.syntax_errors == ()
