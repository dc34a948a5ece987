"""Run every check on one verl invocation, in the order verl meets the failures: Hydra's parser,
Hydra's composition (keys), values, verl's config validation (arithmetic), then what its
TaskRunner opens (model, reward and dataset modules, data files), then the machine."""

from __future__ import annotations

import os
from pathlib import Path

from verl_doctor.check import parse
from verl_doctor.check.arithmetic import check_arithmetic, need_critic
from verl_doctor.check.config import check_interpolations
from verl_doctor.check.keys import build, check_plain_keys
from verl_doctor.check.limits import check_limits
from verl_doctor.check.model import Invocation, Issue, Override
from verl_doctor.check.paths import check_paths, model_config
from verl_doctor.check.values import check_missing, check_values
from verl_doctor.common.resources import data_path

# Entry points whose config the shipped key lists describe.
PPO_ENTRIES = ("verl.trainer.main_ppo", "verl.trainer.main_ppo_sync")


class Checked:
    """The issues of one invocation and what they were checked against."""

    def __init__(self, invocation: Invocation, issues: list[Issue], notes: list[str]) -> None:
        self.invocation, self.issues, self.notes = invocation, issues, notes


def check_invocation(
    inv: Invocation,
    key_version: str,
    verl_version: str,
    base_dir: str | None = None,
    file_overrides: tuple[Override, ...] = (),
    gpus: list[tuple[str, int]] | None | bool = False,
) -> Checked:
    """`gpus`: False without --here, else what the machine has (None: unknown)."""
    base = base_dir or os.getcwd()
    notes: list[str] = []
    issues = list(inv.syntax_errors)
    if issues:
        return Checked(inv, issues, notes)  # Hydra stops at the parser; nothing else runs
    if inv.entry not in PPO_ENTRIES:
        plain = _plain_config_keys(inv.entry, key_version)
        if plain is None:
            notes.append(f"{inv.entry}: only override syntax is checked (its config keys are not known here)")
        else:
            issues += check_plain_keys(inv.overrides, plain[1], plain[0])
            notes.append(f"{inv.entry}: override syntax and the keys of {plain[0]}.yaml are checked")
        return Checked(inv, issues, notes)
    name = inv.config_name or "ppo_trainer"
    megatron = "megatron" in name
    extra = file_overrides or _user_config(inv, base, notes)
    if name not in ("ppo_trainer", "ppo_megatron_trainer") and not extra:
        notes.append(f"config {name}: its own keys are not known here; checked against ppo_trainer")
    config, key_issues = build(extra + inv.overrides, key_version, megatron)
    # Every stage runs (the user wants all the mistakes at once); the list keeps verl's order,
    # so its first issue is the one verl stops at.
    issues += key_issues
    issues += check_interpolations(config)
    issues += check_missing(config)
    issues += check_arithmetic(config)
    issues += check_values(config, verl_version, extra + inv.overrides)
    issues += check_paths(config, base, need_critic(config), verl_version)
    issues += check_limits(config, model_config(config, "actor_rollout_ref.model.path", base))
    if gpus is not False:
        from verl_doctor.check.machine import check_machine

        machine_issues, seen = check_machine(config, gpus if isinstance(gpus, list) else None)
        issues += machine_issues
        notes.append("this machine: " + ", ".join(f"{k} {v}" for k, v in seen.items()))
    return Checked(inv, issues, notes)


# Entry points whose config is one plain YAML file in the release (data/entry_keys/).
PLAIN_CONFIGS = {
    "verl.trainer.main_eval": "evaluation",
    "verl.trainer.main_generation": "generation",
    "verl.trainer.fsdp_sft_trainer": "sft_trainer",
}


def _plain_config_keys(entry: str, key_version: str) -> tuple[str, frozenset[str]] | None:
    name = PLAIN_CONFIGS.get(entry)
    if name is None:
        return None
    path = Path(data_path("entry_keys", f"{name}-{key_version}.txt"))
    try:
        return name, frozenset(path.read_text(encoding="utf-8").split())
    except OSError:
        return None


def _user_config(inv: Invocation, base: str, notes: list[str]) -> tuple[Override, ...]:
    """The overrides in a user config named by --config-path/--config-name, when readable."""
    if not inv.config_path or not inv.config_name:
        return ()
    name = inv.config_name if inv.config_name.endswith(".yaml") else inv.config_name + ".yaml"
    path = os.path.join(os.path.expanduser(inv.config_path), name)
    if not os.path.isabs(path):
        path = os.path.join(base, path)
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        notes.append(f"config file {path} could not be read; checked against ppo_trainer")
        return ()
    found = parse.from_config_file(text, path)
    return tuple(o for o in found if isinstance(o, Override))
