"""Key checks: an override of a key the config does not have, `+` on a key it has, `~` on a
key it lacks, and a new key added to a section verl turns into a dataclass.

Hydra composes verl's config in struct mode, so:
  key=v    on a missing key: "Could not override 'key'. ... Key 'key' is not in struct"
  +key=v   on an existing key: "Could not append to config. An item is already at 'key'"
  ~key     on a missing key: "Could not delete from config. 'key' does not exist."
(hydra/_internal/config_loader_impl.py `_apply_overrides_to_config`, Hydra 1.3; every verl
release 0.4-0.9 composes its trainer config through @hydra.main.)
verl then builds dataclasses from the sections that carry `_target_`
(verl/utils/config.py `omega_conf_to_dataclass`, 0.5-0.9), which refuse fields they do not
declare: a `+actor_rollout_ref.actor.foo=1` passes Hydra and fails there.
"""

from __future__ import annotations

from typing import Any

from verl_doctor.catalog import verl_keys as hydra_keys
from verl_doctor.catalog.verl_keys import INVENTED_NAMESPACES
from verl_doctor.check.config import Config, is_dataclass_section
from verl_doctor.check.model import Issue, Override

CITE_STRUCT = "hydra/_internal/config_loader_impl.py _apply_overrides_to_config (Hydra 1.3, verl 0.4-0.9)"
CITE_DATACLASS = "verl/utils/config.py omega_conf_to_dataclass (verl 0.5-0.9)"


def _value(o: Override) -> str:
    return o.value_text if o.has_value else "<value>"


def unknown_key(o: Override, config: Config, into_dataclass: str | None = None) -> Issue:
    key = o.key
    head = key.split(".", 1)[0]
    reasons: list[str] = []
    if into_dataclass:
        reasons.append(
            f"`{into_dataclass}` becomes a verl dataclass, which has no field `{key.rpartition('.')[2]}`: "
            "Hydra adds the key, then verl stops when it builds the section"
        )
    elif head in INVENTED_NAMESPACES:
        reasons.append(
            f"`{head}` is not a verl config section (it appears in tutorials, never in verl); "
            f"these settings live under `{INVENTED_NAMESPACES[head]}`"
        )
    else:
        reasons.append(
            f"verl {shown_version(config.version)} has no config key `{key}`, so Hydra refuses the override"
        )
    elsewhere = [v for v in hydra_keys.VERSIONS if v != config.version and key in hydra_keys.keys(v)]
    if elsewhere and not into_dataclass:
        reasons.append(f"the key exists in verl {_ranges(elsewhere)}: that version's config, not this one")
    near = [k for k in hydra_keys.nearest(key, config.version) if k in config.keys and k != key]
    fix = tuple(f"{k}={_value(o)}" for k in near[:2])
    if not fix and not into_dataclass and _free_form_parent(key, config):
        fix = (f"+{key}={_value(o)}",)
        reasons.append("its parent is a free-form dict, where new keys are added with `+`")
    if near:
        reasons.append("did you mean " + " or ".join(f"`{k}`" for k in near[:2]) + "?")
    return Issue(
        code="CFG005",
        override=o.text,
        why="; ".join(reasons),
        fix=fix,
        cites=(CITE_DATACLASS,) if into_dataclass else (CITE_STRUCT,),
        source=o.source,
        line=o.line,
    )


def _free_form_parent(key: str, config: Config) -> bool:
    parent = key.rpartition(".")[0]
    while parent and parent not in config.keys:
        parent = parent.rpartition(".")[0]
    if not parent:
        return False
    has_leaf_children = any(k.startswith(parent + ".") for k in config.values)
    return not has_leaf_children and not is_dataclass_section(parent, frozenset(config.keys))


def append_existing(o: Override) -> Issue:
    return Issue(
        code="CFG016",
        override=o.text,
        why=f"`+` appends a new key, and `{o.key}` already exists (Hydra: 'Could not append to config. "
        f"An item is already at {o.key}'); set it without `+`, or force with `++`",
        fix=(f"{o.key}={_value(o)}",),
        cites=(CITE_STRUCT,),
        source=o.source,
        line=o.line,
    )


def delete_missing(o: Override) -> Issue:
    return Issue(
        code="CFG005",  # the key does not exist; Hydra's words: 'Could not delete from config'
        override=o.text,
        why=f"`~` deletes a key, and there is no `{o.key}` to delete (Hydra: 'Could not delete from config')",
        fix=(),
        cites=(CITE_STRUCT,),
        source=o.source,
        line=o.line,
    )


def shown_version(version: str) -> str:
    return "main" if version == "head" else version.removesuffix(".0") + ".x"


def _ranges(versions: list[str]) -> str:
    shown = [shown_version(v) for v in versions]
    return (
        shown[0]
        if len(shown) == 1
        else f"{shown[0]}-{shown[-1]}"
        if _contiguous(versions)
        else ", ".join(shown)
    )


def _contiguous(versions: list[str]) -> bool:
    order = list(hydra_keys.VERSIONS)
    idx = [order.index(v) for v in versions]
    return idx == list(range(idx[0], idx[0] + len(idx)))


def check_plain_keys(
    overrides: tuple[Override, ...],
    keys: frozenset[str],
    label: str,
    others: tuple[tuple[str, frozenset[str]], ...] = (),
    read_extra: frozenset[str] = frozenset(),
) -> list[Issue]:
    """Key checks for an entry point checked against one key list (main_eval, main_generation,
    main_generation_server, fsdp_sft_trainer, sft_trainer): Hydra's struct rules against the
    keys of its composed config, with a did-you-mean among them. `others`: (where, keys) of
    the other entry points' configs, named when the key is one of theirs; `read_extra`: keys
    the entry point reads although its config lacks them (to be added with `+`)."""
    import difflib

    issues: list[Issue] = []
    present = set(keys)
    chosen: list[str] = []  # sections a config-group choice replaced: their keys are not known here
    for o in overrides:
        if o.key.startswith("hydra.") or "/" in o.key or "@" in o.key:
            continue
        if any(o.key.startswith(c + ".") for c in chosen):
            continue
        if o.op == "" and _group_choice(o, present):
            chosen.append(o.key)  # `engine=megatron`: Hydra loads config group engine/megatron.yaml
            continue
        if o.op == "~":
            if o.key not in present:
                issues.append(delete_missing(o))
            continue
        if o.op == "+" and o.key in present:
            issues.append(append_existing(o))
            continue
        if o.op == "" and o.key not in present:
            issues.append(_unknown_plain_key(o, present, label, others, read_extra, difflib))
            continue
        parts = o.key.split(".")
        present.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
    return issues


def _unknown_plain_key(
    o: Override,
    present: set[str],
    label: str,
    others: tuple[tuple[str, frozenset[str]], ...],
    read_extra: frozenset[str],
    difflib: Any,
) -> Issue:
    why = f"the {label} config has no key `{o.key}`, so Hydra refuses the override"
    if o.key in read_extra:
        why += "; the entry point reads it all the same: add it with `+`"
        fix: tuple[str, ...] = (f"+{o.key}={_value(o)}",)
    else:
        near = difflib.get_close_matches(o.key, sorted(present), n=2, cutoff=0.75)
        owners = [where for where, keys in others if o.key in keys]
        if owners:
            why += f"; `{o.key}` is a key of {' and of '.join(owners)}, not of this one"
        if near:
            why += "; did you mean " + " or ".join(f"`{k}`" for k in near) + "?"
        fix = tuple(f"{k}={_value(o)}" for k in near)
    return Issue(
        code="CFG005",
        override=o.text,
        why=why,
        fix=fix,
        cites=(CITE_STRUCT,),
        source=o.source,
        line=o.line,
    )


def _group_choice(o: Override, keys: set[str]) -> bool:
    """`section=word` on a section the list has (engine, optim, model in sft_trainer_engine):
    Hydra reads it as the choice of a config group, whose keys the default list does not hold."""
    return (
        isinstance(o.value, str)
        and o.value.replace("_", "").replace("-", "").isalnum()
        and o.key in keys
        and any(k.startswith(o.key + ".") for k in keys)
    )


def build(overrides: tuple[Override, ...], version: str, megatron: bool) -> tuple[Config, list[Issue]]:
    """Apply the overrides in order; Hydra's refusals become issues (and the override is
    skipped, as Hydra stops at the first)."""
    config = Config(version, megatron)
    issues: list[Issue] = []
    for o in overrides:
        if o.key.startswith("hydra.") or "/" in o.key or "@" in o.key:
            continue  # Hydra's own settings and config-group choices
        if o.op == "~":
            if not config.exists(o.key):
                issues.append(delete_missing(o))
            else:
                config.delete(o.key)
            continue
        if o.op == "+" and config.exists(o.key):
            issues.append(append_existing(o))
            continue
        if o.op == "" and not config.exists(o.key):
            issues.append(unknown_key(o, config))
            continue
        if o.op in ("+", "++") and not config.exists(o.key):
            parent = o.key.rpartition(".")[0]
            if parent and is_dataclass_section(parent, frozenset(config.keys)):
                issues.append(unknown_key(o, config, into_dataclass=parent))
                continue
        config.set(o)
    return config, issues
