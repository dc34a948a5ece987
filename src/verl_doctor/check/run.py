"""Run every check on one verl invocation, in the order verl meets the failures: Hydra's parser,
Hydra's composition (keys), values, verl's config validation (arithmetic), then what its
TaskRunner opens (model, reward and dataset modules, data files), then the machine."""

from __future__ import annotations

import os
import re
from functools import cache
from pathlib import Path

from verl_doctor.catalog import verl_keys as hydra_keys
from verl_doctor.check import parse
from verl_doctor.check.arithmetic import check_arithmetic, need_critic
from verl_doctor.check.config import check_interpolations
from verl_doctor.check.keys import build, check_plain_keys, shown_version
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
    missing = missing_entry(inv, key_version)
    if missing:
        return Checked(inv, [missing], notes)  # Python stops before Hydra reads a single override
    issues = list(inv.syntax_errors)
    if issues:
        return Checked(inv, issues, notes)  # Hydra stops at the parser; nothing else runs
    if inv.entry not in PPO_ENTRIES:
        list_name = PLAIN_CONFIGS.get(inv.entry)
        keys = plain_keys(list_name, key_version) if list_name else None
        if list_name is None or keys is None:
            notes.append(f"{inv.entry}: only override syntax is checked (its config keys are not known here)")
        else:
            label = CONFIG_FILES.get(list_name, list_name)
            reads = READ_EXTRA.get(list_name, frozenset())
            issues += check_plain_keys(inv.overrides, keys, label, _others(list_name, key_version), reads)
            notes.append(f"{inv.entry}: override syntax and the keys of {label}.yaml are checked")
        launcher = _without_torchrun(inv)
        if launcher:
            issues.append(launcher)
        return Checked(inv, issues, notes)
    name = inv.config_name or "ppo_trainer"
    # verl 0.8+ also picks the engine with the `model_engine` config group (ppo_trainer.yaml defaults).
    engine = next((o.value for o in inv.overrides if o.key == "model_engine" and o.op in ("", "++")), None)
    megatron = "megatron" in name or engine == "megatron"
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
        from verl_doctor.check.paths import weights_bytes

        weights = weights_bytes(config, "actor_rollout_ref.model.path", base)
        machine_issues, seen = check_machine(config, gpus if isinstance(gpus, list) else None, weights)
        issues += machine_issues
        notes.append("this machine: " + ", ".join(f"{k} {v}" for k, v in seen.items()))
    return Checked(inv, issues, notes)


# Entry points checked against the key list of their config (data/entry_keys/<name>-<version>.txt,
# written by benchmarks/harvest_entry_keys.py from the release's config files, Hydra defaults
# composed). main_generation_server loads ppo_trainer, but reads no section as a dataclass and
# runs no validate_config: its keys are all that Hydra checks.
PLAIN_CONFIGS = {
    "verl.trainer.main_eval": "evaluation",
    "verl.trainer.main_generation": "generation",
    "verl.trainer.main_generation_server": "generation_server",
    "verl.trainer.fsdp_sft_trainer": "sft_trainer",
    "verl.trainer.sft_trainer": "sft_trainer_engine",
}
# The YAML file a key list was composed from, where its name differs.
CONFIG_FILES = {"generation_server": "ppo_trainer"}
# Keys an entry point reads that its config does not declare (users add them with `+`):
# main_generation_server writes to config.data.output_path (verl 0.6-0.9, main).
READ_EXTRA = {"generation_server": frozenset({"data.output_path"})}
# Entry modules that only some releases ship (key-list versions), and what replaced them.
_ALL = hydra_keys.VERSIONS  # 0.5.0 ... 0.9.0, head
ENTRY_VERSIONS: dict[str, tuple[tuple[str, ...], str]] = {
    "verl.trainer.fsdp_sft_trainer": (_ALL[:3], "verl.trainer.sft_trainer"),
    "verl.trainer.main_generation": (_ALL[:3], "verl.trainer.main_generation_server"),
    "verl.trainer.sft_trainer": (_ALL[1:], "verl.trainer.fsdp_sft_trainer"),
    "verl.trainer.main_generation_server": (_ALL[1:], "verl.trainer.main_generation"),
    "verl.trainer.main_ppo_sync": (("0.8.0",), "verl.trainer.main_ppo"),
}
CITE_MODULE = "verl/trainer/ (the entry modules of each release tag, verl 0.5-0.9 and main)"


def missing_entry(inv: Invocation, key_version: str) -> Issue | None:
    """ENV005 for an entry module the checked release does not have (`python3 -m` stops with
    `No module named verl.trainer.X` before Hydra runs)."""
    known = ENTRY_VERSIONS.get(inv.entry)
    if known is None or key_version in known[0]:
        return None
    versions, other = known
    shown = shown_version(key_version)
    has_other = key_version in ENTRY_VERSIONS.get(other, (_ALL, ""))[0]
    first, last = (v.removesuffix(".0") for v in (versions[0], versions[-1]))
    span = f"verl {first}" + (" and newer" if last == "head" else f" to {last}" if last != first else "")
    why = (
        f"verl {shown} has no module `{inv.entry}` (it ships in {span}), so Python stops with "
        f"`No module named {inv.entry}` before the config is read"
    )
    if has_other:
        why += f"; in verl {shown} the same job is `{other}`, whose config keys differ"
    return Issue(
        code="ENV005",
        override=f"-m {inv.entry}",
        why=why,
        fix=(f"-m {other}",) if has_other else (),
        cites=(CITE_MODULE,),
        source=inv.source,
        line=inv.line,
    )


# Entry points that build their torch.distributed process group from torchrun's variables
# (verl/utils/distributed.py initialize_global_process_group, init_process_group with env://,
# called first thing in run_sft; verl 0.5-0.9, main).
TORCHRUN_ENTRIES = ("verl.trainer.fsdp_sft_trainer", "verl.trainer.sft_trainer")
_LAUNCHED = re.compile(r"torchrun|torch\.distributed\.(?:run|launch)|accelerate|deepspeed|\bRANK=")


def _without_torchrun(inv: Invocation) -> Issue | None:
    """A warning: an SFT trainer started by plain Python stops at init_process_group (RANK,
    WORLD_SIZE ... not set), unless the environment already holds torchrun's variables."""
    if inv.entry not in TORCHRUN_ENTRIES or _LAUNCHED.search(inv.command):
        return None
    return Issue(
        code="DIST001",
        override=f"python3 -m {inv.entry}",
        why=f"`{inv.entry}` creates its torch.distributed process group from the variables torchrun "
        "sets (RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR); started by plain Python it stops with "
        "'environment variable RANK expected, but not set' unless they are already set",
        fix=(f"torchrun --standalone --nnodes=1 --nproc_per_node=<GPUs per node> -m {inv.entry}",),
        cites=("verl/utils/distributed.py initialize_global_process_group (verl 0.5-0.9)",),
        source=inv.source,
        line=inv.line,
        certain=False,
    )


def _others(list_name: str, key_version: str) -> tuple[tuple[str, frozenset[str]], ...]:
    """The other entry points' configs (of the same release, else of the last release that had
    the entry point), to name the one a key belongs to."""
    found: list[tuple[str, frozenset[str]]] = []
    if CONFIG_FILES.get(list_name) != "ppo_trainer":
        found.append(("main_ppo's config (ppo_trainer.yaml)", hydra_keys.keys(key_version, megatron=False)))
    for entry, other in PLAIN_CONFIGS.items():
        if other == list_name or other in CONFIG_FILES:
            continue
        where = f"{entry.rpartition('.')[2]}'s config ({other}.yaml"
        keys = plain_keys(other, key_version)
        if keys is None and entry in ENTRY_VERSIONS:
            last = ENTRY_VERSIONS[entry][0][-1]
            keys, where = plain_keys(other, last), f"{where}, verl {last.removesuffix('.0')}"
        if keys is not None:
            found.append((where + ")", keys))
    return tuple(found)


@cache
def plain_keys(name: str, key_version: str) -> frozenset[str] | None:
    """The shipped key list `name` of one key-list version, None where the release lacks it."""
    path = Path(data_path("entry_keys", f"{name}-{key_version}.txt"))
    try:
        return frozenset(path.read_text(encoding="utf-8").split())
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
