"""Paths and modules the command names: model folders (or well-formed hub ids), data files, and
custom reward / dataset / reward-manager modules with the function or class they name. Files
are read and parsed (`ast`), never imported or run.

What verl does with them (0.9; the same calls since 0.6 unless noted):
  model path  verl/utils/fs.py copy_to_local, then transformers AutoConfig / AutoTokenizer
              (verl/trainer/main_ppo.py TaskRunner.run): a missing folder fails with
              "Repo id must be in the form ..." / "does not appear to have a file named config.json"
  data files  verl/utils/dataset/rl_dataset.py RLHFDataset._read_files_and_tokenize
              (datasets.load_dataset): "Unable to find '<path>'"
  modules     verl/utils/import_utils.py load_extern_object (0.8-0.9; 0.6-0.7 load_extern_type),
              used by verl/trainer/ppo/reward.py get_custom_reward_fn and
              verl/trainer/main_ppo.py create_rl_dataset: "Custom module file not found",
              "Object not found in module"
"""

from __future__ import annotations

import ast
import json
import os
import re

from verl_doctor.check.model import COMMAND, Issue, Override
from verl_doctor.common.records import replace

TYPE_CHECKING = False
if TYPE_CHECKING:
    from verl_doctor.check.config import Config

CITE_MODEL = "verl/utils/fs.py copy_to_local, AutoConfig in verl/trainer/main_ppo.py TaskRunner.run (0.6-0.9)"
CITE_DATA = "verl/utils/dataset/rl_dataset.py RLHFDataset._read_files_and_tokenize (0.5-0.9)"
CITE_MODULE = "verl/utils/import_utils.py load_extern_object (0.8-0.9; 0.6-0.7 load_extern_type)"
# huggingface_hub validate_repo_id: 'repo_name' or 'namespace/repo_name', [\w.-], at most 96.
_HUB_ID = re.compile(r"[A-Za-z0-9][\w.\-]{0,95}(?:/[A-Za-z0-9][\w.\-]{0,95})?")
_REMOTE = ("hdfs://", "s3://", "gs://", "http://", "https://", "oss://", "modelscope://")


def _override_of(config: Config, key: str) -> Override | None:
    return config.set_by.get(key)


def _issue(config: Config, code: str, key: str, why: str, fix: tuple[str, ...], cite: str) -> Issue:
    o = _override_of(config, key)
    return Issue(
        code=code,
        override=o.text if o else f"{key}={config.raw(key)} (default)",
        why=why,
        fix=fix,
        cites=(cite,),
        source=o.source if o else COMMAND,
        line=o.line if o else 0,
    )


def _local(path: str, base: str) -> str:
    path = os.path.expanduser(os.path.expandvars(path))
    return path if os.path.isabs(path) else os.path.join(base, path)


def check_model(config: Config, key: str, base: str) -> list[Issue]:
    path = config.get(key)
    if not isinstance(path, str) or not path or "$" in path or path.startswith(_REMOTE):
        return []
    looks_local = path.startswith(("/", "./", "../", "~")) or os.path.exists(_local(path, base))
    if looks_local:
        folder = _local(path, base)
        if not os.path.isdir(folder):
            why = f"the model folder `{path}` does not exist"
            return [_issue(config, "CFG017", key, why, (f"{key}=<folder with config.json>",), CITE_MODEL)]
        if not os.path.isfile(os.path.join(folder, "config.json")):
            why = (
                f"`{path}` does not appear to have a file named config.json (not a Hugging Face model folder)"
            )
            return [_issue(config, "CFG017", key, why, (f"{key}=<folder with config.json>",), CITE_MODEL)]
        return []
    if not _HUB_ID.fullmatch(path) or "--" in path or ".." in path:
        why = (
            f"`{path}` is neither a local folder nor a hub id (hub ids are 'name' or 'namespace/name'), "
            "so transformers refuses it"
        )
        return [_issue(config, "CFG017", key, why, (f"{key}=<local folder or namespace/name>",), CITE_MODEL)]
    return []


def model_config(config: Config, key: str, base: str) -> dict[str, object] | None:
    """The model's config.json, when the path is a readable local folder."""
    path = config.get(key)
    if not isinstance(path, str) or path.startswith(_REMOTE):
        return None
    try:
        with open(os.path.join(_local(path, base), "config.json"), encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def weights_bytes(config: Config, key: str, base: str) -> int | None:
    """The size of the model's weights on disk, when the path is a local folder: the total a
    sharded checkpoint's index declares, else the size of its one weights file."""
    path = config.get(key)
    if not isinstance(path, str) or path.startswith(_REMOTE):
        return None
    folder = _local(path, base)
    for index in ("model.safetensors.index.json", "pytorch_model.bin.index.json"):
        try:
            with open(os.path.join(folder, index), encoding="utf-8") as f:
                total = json.load(f).get("metadata", {}).get("total_size")
            if isinstance(total, int) and total > 0:
                return total
        except (OSError, ValueError, AttributeError):
            continue
    for single in ("model.safetensors", "pytorch_model.bin"):
        try:
            return os.path.getsize(os.path.join(folder, single))
        except OSError:
            continue
    return None


def check_data(config: Config, key: str, base: str) -> list[Issue]:
    value = config.get(key)
    paths = value if isinstance(value, list) else [value]
    for path in paths:
        if not isinstance(path, str) or not path or "$" in path or path.startswith(_REMOTE):
            continue
        if not os.path.exists(_local(path, base)):
            why = f"the data file `{path}` does not exist (datasets: Unable to find '{path}')"
            return [_issue(config, "CFG013", key, why, (f"{key}=<existing .parquet file>",), CITE_DATA)]
    return []


def check_module(config: Config, path_key: str, name_key: str, base: str, what: str) -> list[Issue]:
    """A custom module file and the function or class named in it."""
    path = config.get(path_key)
    if not isinstance(path, str) or not path or "$" in path:
        return []
    name = config.get(name_key)
    file = _local(path, base)
    if not os.path.isfile(file):
        why = f"the {what} file `{path}` does not exist (verl: Custom module file not found)"
        return [_issue(config, "CFG008", path_key, why, (f"{path_key}=<existing .py file>",), CITE_MODULE)]
    try:
        with open(file, "rb") as f:
            tree = ast.parse(f.read(), filename=path)
    except SyntaxError as exc:
        why = (
            f"the {what} file `{path}` does not parse: {exc.msg} at line {exc.lineno}, so verl cannot load it"
        )
        return [_issue(config, "CFG008", path_key, why, (), CITE_MODULE)]
    except (OSError, ValueError) as exc:
        return [_issue(config, "CFG008", path_key, f"cannot read `{path}`: {exc}", (), CITE_MODULE)]
    if not isinstance(name, str) or not name:
        return []
    names, star = _top_level_names(tree)
    if name in names or star:
        return []
    near = [n for n in sorted(names) if not n.startswith("_")]
    fix = tuple(f"{name_key}={n}" for n in _closest(name, near))
    why = f"`{path}` defines no `{name}` at top level (verl: Object not found in module)" + (
        f"; it defines {', '.join(near[:6])}" if near else ""
    )
    return [_issue(config, "CFG008", name_key, why, fix, CITE_MODULE)]


def _top_level_names(tree: ast.Module) -> tuple[set[str], bool]:
    names: set[str] = set()
    star = False
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                if alias.name == "*":
                    star = True
                else:
                    names.add((alias.asname or alias.name).split(".")[0])
        elif isinstance(node, (ast.If, ast.Try)):
            inner, inner_star = _top_level_names(ast.Module(body=_branches(node), type_ignores=[]))
            names |= inner
            star = star or inner_star
    return names, star


def _branches(node: ast.If | ast.Try) -> list[ast.stmt]:
    if isinstance(node, ast.If):
        return node.body + node.orelse
    out = node.body + node.orelse + node.finalbody
    for handler in node.handlers:
        out += handler.body
    return out


def _closest(name: str, candidates: list[str]) -> list[str]:
    import difflib

    return difflib.get_close_matches(name, candidates, n=1, cutoff=0.3) or candidates[:1]


def check_agent_loop_config(config: Config, base: str) -> list[Issue]:
    """The agent-loop registry file: verl/experimental/agent_loop/agent_loop.py (0.9) reads it
    with OmegaConf.load when its workers start (a list of `name` + `_target_` entries), so
    verl's start-up checks do not see it: warnings. Local `_target_` modules are parsed, never
    imported."""
    key = "actor_rollout_ref.rollout.agent.agent_loop_config_path"
    path = config.get(key)
    if not isinstance(path, str) or not path or "$" in path:
        return []
    cite = "verl/experimental/agent_loop/agent_loop.py AgentLoopWorker (OmegaConf.load of the path, 0.9)"
    file = _local(path, base)
    if not os.path.isfile(file):
        why = f"the agent-loop config file `{path}` does not exist; the agent-loop workers fail to load it"
        return [
            replace(
                _issue(config, "CFG008", key, why, (f"{key}=<existing .yaml file>",), cite), certain=False
            )
        ]
    problems = _agent_loop_entries(file, path, base)
    return [replace(_issue(config, "CFG008", key, why, (), cite), certain=False) for why in problems]


def _agent_loop_entries(file: str, shown: str, base: str) -> list[str]:
    """What is wrong with the entries of an agent-loop config file, one sentence each."""
    import yaml

    try:
        with open(file, encoding="utf-8") as f:
            entries = yaml.safe_load(f)
    except (OSError, yaml.YAMLError) as exc:
        return [f"the agent-loop config file `{shown}` cannot be read as YAML: {str(exc).splitlines()[0]}"]
    if not isinstance(entries, list):
        return [f"the agent-loop config file `{shown}` must hold a list of agent loops (name, _target_)"]
    out = []
    for i, entry in enumerate(entries):
        target = entry.get("_target_") if isinstance(entry, dict) else None
        if not isinstance(entry, dict) or not entry.get("name") or not isinstance(target, str):
            out.append(f"entry {i} of `{shown}` needs a `name` and a `_target_` (module.Class)")
            continue
        module, _, attr = target.rpartition(".")
        source = _module_file(module, base)
        if source is None:
            continue  # an installed package, or not on this machine: nothing to read here
        try:
            with open(source, "rb") as f:
                names, star = _top_level_names(ast.parse(f.read(), filename=source))
        except (OSError, SyntaxError, ValueError) as exc:
            out.append(f"`{target}` (agent loop `{entry['name']}`): {module} does not parse: {exc}")
            continue
        if attr not in names and not star:
            out.append(
                f"`{target}` (agent loop `{entry['name']}`): {module} defines no `{attr}` at top level"
            )
    return out


def _module_file(module: str, base: str) -> str | None:
    """The local file of a dotted module (`recipe.agents.tool_loop`), from the launch folder."""
    parts = module.split(".")
    if not module or not all(p.isidentifier() for p in parts):
        return None
    stem = os.path.join(base, *parts)
    for candidate in (stem + ".py", os.path.join(stem, "__init__.py")):
        if os.path.isfile(candidate):
            return candidate
    return None


# verl 0.5-0.7 load the reward function in the TaskRunner (verl/trainer/main_ppo.py
# load_reward_manager), before the GPUs are allocated; 0.8-0.9 in the reward-loop workers
# (verl/experimental/reward_loop/reward_loop.py), once the GPUs are taken and the models loaded.
_LATE_REWARD = "; verl 0.8+ loads it in its reward-loop workers, so the run fails only after start-up"


def check_paths(config: Config, base: str, critic: bool, verl_version: str = "0.9") -> list[Issue]:
    """In the order verl's TaskRunner meets them: model (tokenizer), reward function, datasets."""
    from verl_doctor.common import versions

    issues = check_model(config, "actor_rollout_ref.model.path", base)
    if critic and config.get("critic.model.path") != config.get("actor_rollout_ref.model.path"):
        issues += check_model(config, "critic.model.path", base)
    late = verl_version == "head" or bool(versions.satisfies(verl_version, ">=0.8"))
    for prefix in ("reward.custom_reward_function", "custom_reward_function"):
        if f"{prefix}.path" in config.values:
            found = check_module(config, f"{prefix}.path", f"{prefix}.name", base, "reward function")
            issues += [replace(i, why=i.why + _LATE_REWARD) for i in found] if late else found
    if config.get("reward.reward_manager.source") == "importlib":
        issues += check_module(
            config,
            "reward.reward_manager.module.path",
            "reward.reward_manager.module.name",
            base,
            "reward manager",
        )
    issues += check_module(config, "data.custom_cls.path", "data.custom_cls.name", base, "dataset class")
    issues += check_agent_loop_config(config, base)
    issues += check_data(config, "data.train_files", base)
    issues += check_data(config, "data.val_files", base)
    return issues
