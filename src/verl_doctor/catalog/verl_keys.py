"""verl's real config keys, per verl version, for checking and suggesting Hydra overrides.

The lists in `data/hydra_keys/` are every dotted key of verl's generated trainer configs
(`verl/trainer/config/_generated_ppo_trainer.yaml` and the Megatron variant) at each release.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from functools import cache

from verl_doctor.common.lazy_re import lazy_compile
from verl_doctor.common.resources import data_path
from verl_doctor.common.versions import parse

_DIR = data_path("hydra_keys")
VERSIONS = ("0.5.0", "0.6.0", "0.7.0", "0.8.0", "0.9.0", "head")


# os.path rather than pathlib: this module is on the path of every diagnosis, and pathlib's
# imports cost a short paste's start-up a few milliseconds.
def _lines(path: str) -> list[str]:
    with open(path, encoding="utf-8") as f:
        return [line.strip() for line in f if line.strip()]


def _listed(folder: str, prefix: str) -> list[str]:
    """The `.txt` files of a data folder whose names start with `prefix`, sorted."""
    where = data_path(folder)
    return [
        os.path.join(where, n)
        for n in sorted(os.listdir(where))
        if n.startswith(prefix) and n.endswith(".txt")
    ]


@cache
def keys(version: str = "head", megatron: bool = True) -> frozenset[str]:
    """Keys of one version ("0.9.0", "head"); with `megatron`, the Megatron trainer's keys too."""
    names = [f"{version}.txt"] + ([f"{version}-megatron.txt"] if megatron else [])
    out: set[str] = set()
    for name in names:
        path = os.path.join(_DIR, name)
        if os.path.isfile(path):
            out.update(_lines(path))
    return frozenset(out)


@cache
def all_keys() -> frozenset[str]:
    return frozenset().union(*(keys(v) for v in VERSIONS))


@cache
def entry_point_keys() -> frozenset[str]:
    """The keys of verl's other entry points (generation, SFT, evaluation, generation server) in
    every shipped release: a message from one of them names these, not the trainer's."""
    out: set[str] = set()
    for path in _listed("entry_keys", ""):
        out.update(_lines(path))
    return frozenset(out)


# verl's asynchronous PPO trainers (fully-async, one-step-off): the trainer's config plus sections
# of their own, whose keys (those the trainer lacks) are listed in data/entry_keys/ per release.
TRAINER_VARIANTS = ("fully_async", "one_step_off")


@cache
def variant_keys() -> frozenset[str]:
    """The keys the asynchronous trainers add to the trainer's, in any shipped release."""
    out: set[str] = set()
    for name in TRAINER_VARIANTS:
        for path in _listed("entry_keys", f"{name}-"):
            out.update(_lines(path))
    return frozenset(out)


@cache
def _keys_and_sections() -> frozenset[str]:
    out: set[str] = set()
    for key in all_keys() | entry_point_keys() | variant_keys():
        parts = key.split(".")
        out.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
    return frozenset(out)


def known(key: str) -> bool:
    """Whether some verl config (the trainer's, another entry point's, an asynchronous trainer's,
    in any shipped release) has `key`, as a value or as a section (`ray_init`)."""
    return key.lstrip("+~") in _keys_and_sections()


def version_for(verl_version: str | None) -> str:
    """The shipped key list closest to a verl version (newest at or below it), else head."""
    v = parse(verl_version) if verl_version else None
    if v is None:
        return "head"
    best = "head"
    for name in VERSIONS[:-1]:
        ref = parse(name)
        assert ref is not None
        if ref[:2] <= v[:2]:
            best = name
    return best if v[:2] <= (parse(VERSIONS[-2]) or (0,))[:2] else "head"


def exists(key: str, version: str | None = None) -> bool:
    """Whether `key` is a config key (in `version`, or in any shipped version). A `+key` for a
    free-form dict such as `engine_kwargs.vllm` counts when its parent exists."""
    pool = keys(version) if version else all_keys()
    return key.lstrip("+~") in pool


def parent_exists(key: str, version: str | None = None) -> bool:
    pool = keys(version) if version else all_keys()
    parts = key.lstrip("+~").split(".")
    return any(".".join(parts[:i]) in pool for i in range(len(parts) - 1, 0, -1))


# Namespaces that circulate in tutorials but never existed in verl, and where their keys live.
INVENTED_NAMESPACES = {
    "rollout_config": "actor_rollout_ref.rollout",
    "vllm_config": "actor_rollout_ref.rollout",
    "actor_config": "actor_rollout_ref.actor",
    "ref_config": "actor_rollout_ref.ref",
    "model_config": "actor_rollout_ref.model",
    "critic_config": "critic",
    "reward_config": "reward",
    "log_config": "trainer",
    "data_config": "data",
    "trainer_config": "trainer",
}
# ... and a section that moved (verl < 0.6 had `ray_init.*` at the top level).
_ALIASES = {**INVENTED_NAMESPACES, "ray_init": "ray_kwargs.ray_init"}


def _score(wanted: str, candidate: str) -> float:
    import difflib  # only when a key is misspelt: not on the start-up path

    w_parent, _, w_leaf = wanted.rpartition(".")
    c_parent, _, c_leaf = candidate.rpartition(".")
    score = difflib.SequenceMatcher(None, w_leaf, c_leaf).ratio()
    if w_leaf and (w_leaf in c_leaf or c_leaf in w_leaf):
        score += 0.5
    if w_parent == c_parent:
        score += 1.0
    elif c_parent.startswith(w_parent) or w_parent.startswith(c_parent):
        score += 0.3
    score += 0.3 * difflib.SequenceMatcher(None, wanted, candidate).ratio()
    if candidate.startswith(("reward_model.", "custom_reward_function.")):
        score -= 0.2  # legacy top-level groups kept for old configs
    return score


def nearest(key: str, version: str | None = None, n: int = 3, min_score: float = 1.2) -> list[str]:
    """Real keys closest to a misspelt or invented one, best first."""
    pool = keys(version) if version else all_keys()
    key = key.lstrip("+~")
    head, _, rest = key.partition(".")
    if head in _ALIASES and rest:
        key = f"{_ALIASES[head]}.{rest}"
    if key in pool:
        return [key]
    import difflib

    leaf = key.rpartition(".")[2]
    leaves = _leaves(version)
    # Cheap pass first: only keys whose leaf looks somewhat alike get the full score.
    cands = [
        k for k in leaves if difflib.SequenceMatcher(None, leaf, k.rpartition(".")[2]).quick_ratio() > 0.5
    ]
    scored = sorted(((_score(key, k), k) for k in cands), reverse=True)
    if not scored or scored[0][0] < min_score:
        return []
    best = scored[0][0]
    # Only alternatives nearly as good as the best are worth showing.
    return [k for s, k in scored[:n] if s >= min_score and s >= best - 0.25]


# The score of a key that a slip of the keyboard turned into another (see nearest_in_section).
_MISSPELT = 2.0


def nearest_in_section(key: str, version: str | None = None) -> list[str]:
    """Real keys of the same section closest to `key` (`trainer.project_name` for
    `trainer.project`): the key it misspells. A key with no section, or whose near keys sit in
    other sections, misspells none (`data_dir` is a path from the wrong root, not a typo)."""
    section = key.lstrip("+~").rpartition(".")[0]
    if not section:
        return []
    # (close enough to be a slip of the keyboard: `trainer.project` scores 2.5 against
    # trainer.project_name, an invented `data.no_such_length` 1.7 against data.max_response_length)
    return [k for k in nearest(key, version, min_score=_MISSPELT) if k.rpartition(".")[0] == section]


@cache
def _leaves(version: str | None, entry_points: bool = False) -> frozenset[str]:
    """Keys that hold a value (not a section), for suggestions; with `entry_points` (and no
    version), those of verl's other entry points too."""
    pool = keys(version) if version else all_keys() | (entry_point_keys() if entry_points else frozenset())
    sections = {k.rpartition(".")[0] for k in pool}
    return frozenset(pool - sections)


def top_level_groups() -> frozenset[str]:
    return frozenset(k for k in all_keys() if "." not in k) | frozenset(_ALIASES)


def overrides_in(commands: Iterable[str]) -> list[tuple[str, bool]]:
    """(key, appended) for every Hydra override `key=value` / `+key=value` in fix commands."""
    groups = top_level_groups()
    out: list[tuple[str, bool]] = []
    for command in commands:
        for token in command.replace("'", " ").replace('"', " ").split():
            key, eq, _ = token.partition("=")
            if not eq:
                continue
            appended = key.startswith(("+", "~"))
            key = key.lstrip("+~")
            if "." in key and key.split(".", 1)[0] in groups and (key, appended) not in out:
                out.append((key, appended))
    return out


@cache
def _by_leaf(version: str | None, entry_points: bool = False, variants: bool = False) -> dict[str, list[str]]:
    """Full keys by their last part (`ppo_mini_batch_size` -> the keys that end in it); with
    `variants`, the asynchronous trainers' own keys too (they are trainer options)."""
    by_leaf: dict[str, list[str]] = {}
    pool = _leaves(version, entry_points)
    if variants:
        extra = variant_keys()
        pool = pool | (extra - {k.rpartition(".")[0] for k in extra})
    for key in pool:
        by_leaf.setdefault(key.rpartition(".")[2], []).append(key)
    return by_leaf


def _ending_in(by_leaf: dict[str, list[str]], token: str) -> list[str]:
    """The full keys a dotted tail (`rollout.name`) ends."""
    return sorted(k for k in by_leaf.get(token.rpartition(".")[2], ()) if k.endswith("." + token))


def is_option_name(word: str) -> bool:
    """A word specific enough to be an option's name when a message says it (`max_resp_len`,
    not `batch` or `n`)."""
    return "_" in word and len(word) >= 6


def feature_keys(words: str) -> list[str]:
    """The options that switch a feature named in words on (`gradient checkpointing` ->
    actor_rollout_ref.model.enable_gradient_checkpointing, ...): keys whose last part is the
    words joined with `_`, alone or after `enable_` or `use_`."""
    snake = "_".join(words.lower().split())
    if len(snake) < 6:
        return []
    by_leaf = _by_leaf(None, variants=True)
    found = {k for leaf in (snake, "enable_" + snake, "use_" + snake) for k in by_leaf.get(leaf, ())}
    return sorted(found)[:3]


# In code, a name compared with literal choices (`truncation in ["left", "right"]`, `mode == "async"`)
# is a setting's value checked, as much as one read off an object.
_CHOICE_SUBJECT = re.compile(
    r"\b(?P<name>[A-Za-z_]\w*)\s+(?:not\s+)?in\s+[\[({]\s*[\"']|\b(?P<name2>[A-Za-z_]\w*)\s*[!=]=\s*[\"']"
)
# Two words in a row, read overlapping (`a b c`: `a b`, `b c`).
_SECTION_THEN_WORD = re.compile(r"(?=\b([A-Za-z_]\w*) ([a-z_]\w*)\b)")
# In a message, a name whose type is checked (`temperature must be a float, but got <class 'int'>`,
# `analysis must be of type bool`) is a value handed in: a setting's, when an option ends in it.
_TYPE_CHECKED = re.compile(
    r"\b(?P<name>[A-Za-z_]\w{3,}) (?:must|should) be (?:an? |of type )"
    r"(?:float|int|integer|str|string|bool|boolean|list|tuple|dict)\b"
)


def keys_named_in(
    message: str, verl_version: str | None = None, limit: int = 4, code: bool = False
) -> list[str]:
    """Config options a message names, as full dotted keys: a dotted key written out, or an
    option's own name (`ppo_mini_batch_size`) with the few keys that end in it. In `code` (a
    source line), a one-word option read off an object (`self.truncation`) or compared with
    literal choices (`truncation in ["left", "right"]`) counts too."""

    # A log rarely says its verl version: the keys of any release may be named, and written out
    # with a dot (`data.n_samples`), those of the other entry points too; a bare word such as
    # `batch_size` is only taken for the trainer's options.
    version = version_for(verl_version) if verl_version else None
    pool = _leaves(version, entry_points=True)
    dotted_by_leaf = _by_leaf(version, entry_points=True)
    by_leaf = _by_leaf(version, variants=True)
    out: list[str] = []
    compared = (
        {m.group("name") or m.group("name2") for m in _CHOICE_SUBJECT.finditer(message)} if code else set()
    )
    typed = {m.group("name") for m in _TYPE_CHECKED.finditer(message)}
    for token in re.findall(r"[A-Za-z_][\w.]*\w", message):
        # Read off an object in code (`self.truncation`, `config.data.shuffle`), or compared with
        # literal choices: even a one-word name is then a setting's value, not an English word.
        read = code and (token.startswith(("self.", "config.", "cfg.")) or token in compared)
        token = token.removeprefix("self.").removeprefix("config.").removeprefix("cfg.")
        if "." in token and token in pool:
            found = [token]
        elif "." in token and (ends := _ending_in(dotted_by_leaf, token)):
            found = ends[:3]  # `rollout.name`: the keys it ends
        elif is_option_name(token):
            found = sorted(by_leaf.get(token.rpartition(".")[2], []))
            if len(found) > 3:
                found = [token.rpartition(".")[2]]
        elif token in typed and by_leaf.get(token):
            found = sorted(by_leaf[token]) if len(by_leaf[token]) <= 3 else [token]
        elif read and len(token) >= 6 and 0 < len(by_leaf.get(token, ())) <= 3:
            found = sorted(by_leaf[token])
        else:
            found = []
        for key in found:
            if key not in out:
                out.append(key)
    # A section's name and one of its options written apart (`Unknown precision_debugger stages`).
    for section, leaf in _SECTION_THEN_WORD.findall(message):
        if is_option_name(section):
            for key in _ending_in(dotted_by_leaf, f"{section}.{leaf}")[:3]:
                if key not in out:
                    out.append(key)
    return out[:limit]


# What a key's value names, by the key's spelling in every release: data files, a model (folder or
# hub id), a user's Python file, a saved checkpoint to resume from.
_PATH_KINDS = (
    ("data", lazy_compile(r"(?:^|\.)data\.\w*files$|^data\.(?:train|val|test)_path$")),
    ("model", lazy_compile(r"(?:^|\.)(?:model\.path|tokenizer_path|model_path|hf_model_path)$")),
    (
        "module",
        lazy_compile(
            r"(?:custom_reward_function|custom_cls|reward_manager|reward_loop\w*)\.path$|_tool_path$"
        ),
    ),
    ("checkpoint", lazy_compile(r"(?:^|\.)resume_from_path$")),
)


def path_kind(key: str) -> str | None:
    """What the path a key holds is (`data`, `model`, `module`, `checkpoint`), or None."""
    key = key.lstrip("+~")
    return next((kind for kind, pattern in _PATH_KINDS if pattern.search(key)), None)
