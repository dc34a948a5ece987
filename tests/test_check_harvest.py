"""benchmarks/harvest_entry_keys.py: Hydra's defaults list composed from a config tree, as the
key lists in data/entry_keys/ are written from verl's release tags."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "harvest_entry_keys", ROOT / "benchmarks" / "harvest_entry_keys.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


harvest = _load()

# A tiny tree in verl's shapes: a primary config whose defaults pick options of config groups
# into packages, a group option with defaults of its own (`../group@pkg`, a sibling config),
# a `# @package _global_` option named by `${...}` in another entry, a list of options,
# `optional`, `null`, and a second primary that includes the first and overrides a choice.
TREE = {
    "trainer.yaml": """
defaults:
  - backend: dp
  - actor@model.actor: ${backend}_actor
  - data@data: plain
  - optional extra@extra: absent
  - skipped@skipped: null
  - _self_
model:
  actor:
    lr: 0.5
trainer:
  logger: [console, wandb]
  kwargs: {}
""",
    "big_trainer.yaml": """
defaults:
  - trainer
  - override backend: mp
  - _self_
trainer:
  big: true
""",
    "backend/dp.yaml": "# @package _global_\nbackend: dp\n",
    "backend/mp.yaml": "# @package _global_\nbackend: mp\n",
    "actor/base.yaml": "lr: 1.0\nclip: 0.2\n",
    "actor/dp_actor.yaml": """
defaults:
  - ../optim@optim: adam
  - base
  - _self_
_target_: pkg.ActorConfig
strategy: fsdp
""",
    "actor/mp_actor.yaml": """
defaults:
  - ../optim@optim: [adam, mp_extra]
  - base
strategy: megatron
tensor_parallel: 1
""",
    "optim/adam.yaml": "_target_: pkg.OptimConfig\nbetas: [0.9, 0.95]\nlr: 1e-5\n",
    "optim/mp_extra.yaml": "overlap: true\n",
    "data/plain.yaml": "path: null\nmax_length: 10\n",
}


@pytest.fixture()
def tree(tmp_path: Path) -> Any:
    for name, text in TREE.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return harvest.dir_reader(tmp_path)


def test_defaults_are_composed_into_their_packages(tree: Any) -> None:
    keys = harvest.entry_keys(tree, "trainer")
    assert keys == sorted(keys)
    assert set(keys) == {
        "backend",  # a `_global_` option lands at the root
        "data",
        "data.path",
        "data.max_length",
        "model",
        "model.actor",
        "model.actor.lr",
        "model.actor.clip",  # the sibling config `base`, in the parent's package
        "model.actor.strategy",
        "model.actor.optim",  # `../optim@optim`, relative to the actor's package
        "model.actor.optim.betas",
        "model.actor.optim.lr",
        "trainer",
        "trainer.logger",  # a list is a value: its items are no keys
        "trainer.kwargs",  # an empty mapping is a key
    }


def test_self_position_decides_which_value_wins(tree: Any) -> None:
    config = harvest.Composer(tree).compose("trainer")
    assert config["model"]["actor"]["lr"] == 0.5  # the primary's `_self_` comes last
    assert config["model"]["actor"]["optim"]["_target_"] == "pkg.OptimConfig"
    assert "_target_" not in harvest.flatten(config) and "model.actor._target_" in harvest.flatten(
        config, targets=True
    )


def test_override_and_interpolated_choice_and_option_list(tree: Any) -> None:
    keys = set(harvest.entry_keys(tree, "big_trainer"))
    assert {"model.actor.tensor_parallel", "model.actor.optim.overlap", "trainer.big"} <= keys
    assert "model.actor.strategy" in keys and "model.actor.clip" in keys
    config = harvest.Composer(tree).compose("big_trainer")
    assert config["backend"] == "mp" and config["model"]["actor"]["strategy"] == "megatron"
    # mp_actor has no `_self_`: Hydra puts it last, after `base`
    assert config["model"]["actor"]["lr"] == 0.5


def test_a_missing_option_is_an_error_unless_optional(tree: Any, tmp_path: Path) -> None:
    (tmp_path / "data" / "plain.yaml").unlink()
    with pytest.raises(harvest.ComposeError, match="data/plain"):
        harvest.entry_keys(tree, "trainer")


def test_merge_replaces_values_and_merges_mappings() -> None:
    dst = {"a": {"b": 1, "c": {"d": 2}}, "e": {"f": 1}}
    harvest.merge(dst, {"a": {"c": {"x": 3}}, "e": None})
    assert dst == {"a": {"b": 1, "c": {"d": 2, "x": 3}}, "e": None}


VERL_GIT = os.environ.get("VERL_GIT_DIR", "/work/.mirror/verl-project+verl/repo")


@pytest.mark.skipif(not Path(VERL_GIT).is_dir(), reason="no verl git directory (set VERL_GIT_DIR)")
@pytest.mark.parametrize(
    ("name", "version"),
    [("sft_trainer", "0.7.0"), ("sft_trainer_engine", "0.9.0"), ("generation_server", "0.8.0")],
)
def test_shipped_lists_are_what_verl_composes(name: str, version: str) -> None:
    config, _ = harvest.TABLE[name]
    keys = harvest.entry_keys(harvest.git_reader(VERL_GIT, harvest.tag_for(version)), config)
    shipped = (ROOT / "src" / "verl_doctor" / "data" / "entry_keys" / f"{name}-{version}.txt").read_text()
    assert keys == shipped.split()


@pytest.mark.skipif(not Path(VERL_GIT).is_dir(), reason="no verl git directory (set VERL_GIT_DIR)")
@pytest.mark.parametrize(("name", "version"), [("fully_async", "0.7.0"), ("one_step_off", "head")])
def test_asynchronous_trainer_lists_are_their_keys_beyond_the_trainers(name: str, version: str) -> None:
    keys = harvest.variant_keys(VERL_GIT, name, version)
    shipped = (ROOT / "src" / "verl_doctor" / "data" / "entry_keys" / f"{name}-{version}.txt").read_text()
    assert keys == shipped.split()
    assert not set(keys) & set(
        (ROOT / "src" / "verl_doctor" / "data" / "hydra_keys" / f"{version}.txt").read_text().split()
    )


def test_a_message_naming_an_asynchronous_trainers_option_names_its_key() -> None:
    from verl_doctor.catalog.verl_keys import keys_named_in

    assert keys_named_in("staleness_threshold must larger than 0") == ["async_training.staleness_threshold"]
    # in code, a one-word name compared with literal choices is a setting's value
    assert keys_named_in('assert truncation in ["left", "right"]', code=True) == ["data.truncation"]
    assert keys_named_in('assert truncation in ["left", "right"]') == []


def test_a_section_and_its_option_written_apart_name_the_key() -> None:
    from verl_doctor.catalog.verl_keys import keys_named_in

    named = keys_named_in("Unknown precision_debugger stages: ['compute_log_prob', 'update_actor']")
    assert named and all(k.endswith(".precision_debugger.stages") for k in named)
    # a name whose type is checked is a value handed in, however many options end in it
    assert keys_named_in("temperature must be a float, but got <class 'int'>") == ["temperature"]
    assert keys_named_in("temperature is too high for this model") == []
