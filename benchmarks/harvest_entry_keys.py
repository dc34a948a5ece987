"""Write the key lists `check` reads for verl's entry points (src/verl_doctor/data/entry_keys/),
from verl's own config files at a release tag, without installing verl or Hydra.

An entry point's config is composed the way Hydra 1.3 composes it: the primary YAML file of
its `@hydra.main(config_name=...)`, with its `defaults:` list resolved from the config groups in
the same tag (`group@package: option`, `../group@pkg: option`, a list of options, `override`,
`optional`, `null`, `${group}` in an option, `_self_` anywhere or implied last, a bare config
name, a `# @package` header). The list is every dotted key of the result, sections included,
sorted, one per line; `_target_` keys and list items are left out (as in data/hydra_keys/).

    python benchmarks/harvest_entry_keys.py --git-dir /work/.mirror/verl-project+verl/repo \\
        --tag v0.9.0 --config sft_trainer_engine            # print one list
    python benchmarks/harvest_entry_keys.py --git-dir DIR --all            # compare every shipped list
    python benchmarks/harvest_entry_keys.py --git-dir DIR --all --write    # (re)write them

The asynchronous trainers (VARIANTS: fully-async, one-step-off) are composed the same way from
their own folder with verl/trainer/config on the searchpath; their lists hold only the keys
they add to the trainer's (the message analysis reads those as trainer options).

`--all` compares each list in TABLE and VARIANTS with the shipped file and prints what differs; it writes
only with `--write` (new files always; changed files too, after you have read the difference).
"""

from __future__ import annotations

import argparse
import copy
import posixpath
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = ROOT / "src" / "verl_doctor" / "data" / "entry_keys"
TRAINER_KEYS_DIR = ROOT / "src" / "verl_doctor" / "data" / "hydra_keys"  # the trainer's own lists
CONFIG_DIR = "verl/trainer/config"

# Shipped list name -> (the @hydra.main config_name, the key-list versions whose release has
# the entry point). Versions are those of catalog/verl_keys.py VERSIONS; "head" is verl's main.
TABLE: dict[str, tuple[str, tuple[str, ...]]] = {
    # verl.trainer.main_eval
    "evaluation": ("evaluation", ("0.5.0", "0.6.0", "0.7.0", "0.8.0", "0.9.0", "head")),
    # verl.trainer.main_generation (removed in 0.8)
    "generation": ("generation", ("0.5.0", "0.6.0", "0.7.0")),
    # verl.trainer.main_generation_server (0.6+): its @hydra.main loads ppo_trainer
    "generation_server": ("ppo_trainer", ("0.6.0", "0.7.0", "0.8.0", "0.9.0", "head")),
    # verl.trainer.fsdp_sft_trainer (removed in 0.8)
    "sft_trainer": ("sft_trainer", ("0.5.0", "0.6.0", "0.7.0")),
    # verl.trainer.sft_trainer (0.6+)
    "sft_trainer_engine": ("sft_trainer_engine", ("0.6.0", "0.7.0", "0.8.0", "0.9.0", "head")),
}

# verl's asynchronous PPO trainers: ppo_trainer (found on their searchpath) plus sections of
# their own, in a folder of their own per release (recipe/ until 0.7, verl/experimental/ after).
# Both the FSDP and the Megatron config are composed; the list holds the keys of their union
# that the trainer's own lists (data/hydra_keys/) lack.
# name -> (config names, {key-list version: config folder})
VARIANTS: dict[str, tuple[tuple[str, ...], dict[str, str]]] = {
    "fully_async": (
        ("fully_async_ppo_trainer", "fully_async_ppo_megatron_trainer"),
        {
            "0.7.0": "recipe/fully_async_policy/config",
            **{v: "verl/experimental/fully_async_policy/config" for v in ("0.8.0", "0.9.0", "head")},
        },
    ),
    "one_step_off": (
        ("one_step_off_ppo_trainer", "one_step_off_ppo_megatron_trainer"),
        {
            **{v: "recipe/one_step_off_policy/config" for v in ("0.5.0", "0.6.0", "0.7.0")},
            **{v: "verl/experimental/one_step_off_policy/config" for v in ("0.8.0", "0.9.0", "head")},
        },
    ),
}

Reader = Callable[[str], "str | None"]


class ComposeError(ValueError):
    """The defaults list names a config the tree does not have."""


def tag_for(version: str) -> str:
    return "main" if version == "head" else f"v{version}"


def git_reader(
    git_dir: str, rev: str, config_dir: str = CONFIG_DIR, searchpath: tuple[str, ...] = ()
) -> Reader:
    """Reads `<config_dir>/<path>` at `rev` of a git directory, else the same path in the
    `searchpath` folders in order, as Hydra's `hydra.searchpath` does (None when absent)."""

    def read(path: str) -> str | None:
        for folder in (config_dir, *searchpath):
            proc = subprocess.run(
                ["git", "--git-dir", git_dir, "show", f"{rev}:{folder}/{path}"],
                capture_output=True,
                text=True,
                check=False,
            )
            if proc.returncode == 0:
                return proc.stdout
        return None

    return read


def dir_reader(root: Path) -> Reader:
    """Reads config files from a folder (tests)."""

    def read(path: str) -> str | None:
        file = root / path
        return file.read_text(encoding="utf-8") if file.is_file() else None

    return read


_HEADER = re.compile(r"^\s*#\s*@package\s+(\S+)", re.MULTILINE)


def _load(read: Reader, path: str) -> tuple[dict[str, Any], str | None] | None:
    """(content, `# @package` header) of `path` (no .yaml), or None when absent."""
    import yaml

    text = read(path + ".yaml")
    if text is None:
        return None
    header = None
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            break  # the header is read only above the first YAML line
        m = _HEADER.match(line)
        if m:
            header = m.group(1)
    content = yaml.safe_load(text) or {}
    if not isinstance(content, dict):
        raise ComposeError(f"{path}.yaml is not a mapping")
    return content, header


def _join(*parts: str) -> str:
    return ".".join(p for p in parts if p)


def _final_package(parent: str, package: str) -> str:
    """Hydra's InputDefault._get_final_package: relative to the parent, `_global_` resets."""
    ret = _join(parent, package)
    at = ret.rfind("_global_")
    return ret if at == -1 else ret[at + len("_global_") + 1 :]


def _nest(package: str, content: dict[str, Any]) -> dict[str, Any]:
    for part in reversed([p for p in package.split(".") if p]):
        content = {part: content}
    return content


def merge(dst: dict[str, Any], src: dict[str, Any]) -> dict[str, Any]:
    """OmegaConf.merge on plain data: mappings merge key by key, anything else replaces."""
    for key, value in src.items():
        if isinstance(value, dict) and isinstance(dst.get(key), dict):
            merge(dst[key], value)
        else:
            dst[key] = copy.deepcopy(value)
    return dst


class _Entry:
    """One item of a defaults list."""

    def __init__(self, raw: object) -> None:
        self.is_self = raw == "_self_"
        self.override = self.optional = False
        self.options: list[str] = []
        self.group: str | None = None  # a config group (`group: option`), else a config path
        if isinstance(raw, str):
            self.path, _, pkg = raw.partition("@")
            self.package: str | None = pkg or None
            return
        if not isinstance(raw, dict) or len(raw) != 1:
            raise ComposeError(f"unreadable defaults entry: {raw!r}")
        ((key, value),) = raw.items()
        words = str(key).split()
        self.override = "override" in words[:-1]
        self.optional = "optional" in words[:-1]
        group, _, pkg = words[-1].partition("@")
        self.group, self.package, self.path = group, pkg or None, ""
        if value is None:
            self.options = []
        elif isinstance(value, list):
            self.options = [str(v) for v in value]
        else:
            self.options = [str(value)]


class Composer:
    """Composes one primary config from a tree of config files."""

    def __init__(self, read: Reader) -> None:
        self.read = read
        self.overrides: dict[str, list[str]] = {}  # group -> options (`override` entries)
        self.choices: dict[str, str] = {}  # group -> option chosen (for `${group}` in options)

    def compose(self, name: str) -> dict[str, Any]:
        loaded = _load(self.read, name)
        if loaded is None:
            raise ComposeError(f"no config {name}.yaml")
        result: dict[str, Any] = {}
        self._config(name, loaded, "", result)
        result.pop("hydra", None)
        return result

    def _config(
        self, path: str, loaded: tuple[dict[str, Any], str | None], package: str, out: dict[str, Any]
    ) -> None:
        content, _ = loaded
        content = dict(content)
        raw = content.pop("defaults", None) or []
        entries = [_Entry(r) for r in raw]
        here = posixpath.dirname(path)
        for e in entries:  # outer overrides win over inner ones: register before descending
            if e.override and e.group is not None:
                self.overrides.setdefault(_abs(here, e.group), e.options)
        if not any(e.is_self for e in entries) and (any(not e.override for e in entries) or not entries):
            entries.append(_Entry("_self_"))
        for e in entries:
            if e.is_self:
                merge(out, _nest(package, content))
            elif e.override:
                continue
            elif e.group is None:
                self._child_config(_abs(here, e.path), e, package, out, here)
            else:
                self._group(e, package, out, here)

    def _child_config(self, path: str, e: _Entry, parent: str, out: dict[str, Any], here: str) -> None:
        loaded = _load(self.read, path)
        if loaded is None:
            if e.optional:
                return
            raise ComposeError(f"defaults of {here or '<primary>'}: no config {path}.yaml")
        rel_group = posixpath.dirname(e.path.lstrip("/"))
        package = self._package(e.package, loaded[1], rel_group, parent, posixpath.basename(path))
        self._config(path, loaded, package, out)

    def _group(self, e: _Entry, parent: str, out: dict[str, Any], here: str) -> None:
        assert e.group is not None
        group = _abs(here, e.group)
        options = self.overrides.get(group, e.options)
        options = [self._interpolate(o) for o in options]
        if options:
            self.choices.setdefault(group, options[-1])
        for option in options:
            path = f"{group}/{option}" if group else option
            loaded = _load(self.read, path)
            if loaded is None:
                if e.optional:
                    continue
                raise ComposeError(f"defaults of {here or '<primary>'}: no config {path}.yaml")
            rel_group = e.group.lstrip("/").replace("../", "")
            package = self._package(e.package, loaded[1], rel_group, parent, option)
            self._config(path, loaded, package, out)

    def _interpolate(self, option: str) -> str:
        def sub(m: re.Match[str]) -> str:
            name = m.group(1).strip()
            if name not in self.choices:
                raise ComposeError(f"`${{{name}}}` in a defaults list names no group chosen before it")
            return self.choices[name]

        return re.sub(r"\$\{([^}]*)\}", sub, option)

    @staticmethod
    def _package(explicit: str | None, header: str | None, rel_group: str, parent: str, name: str) -> str:
        default = rel_group.replace("/", ".")
        package = explicit if explicit is not None else header if header is not None else default
        package = package.replace("_group_", default).replace("_name_", name)
        if package == "_here_":
            package = ""
        return _final_package(parent, package)


def _abs(here: str, path: str) -> str:
    """A group or config path in a defaults list, from the config tree's root."""
    if path.startswith("/"):
        return path.lstrip("/")
    return posixpath.normpath(posixpath.join(here, path)) if here else posixpath.normpath(path)


def flatten(config: dict[str, Any], prefix: str = "", targets: bool = False) -> set[str]:
    """Every dotted key, sections included (list items are values, not keys)."""
    keys: set[str] = set()
    for key, value in config.items():
        key = str(key)
        if key == "_target_" and not targets:
            continue
        dotted = f"{prefix}{key}"
        keys.add(dotted)
        if isinstance(value, dict):
            keys |= flatten(value, dotted + ".", targets)
    return keys


def entry_keys(read: Reader, config_name: str) -> list[str]:
    return sorted(flatten(Composer(read).compose(config_name)))


def variant_keys(git_dir: str, name: str, version: str) -> list[str]:
    """The keys an asynchronous trainer of VARIANTS adds to the trainer's, at one key-list version."""
    configs, folders = VARIANTS[name]
    read = git_reader(git_dir, tag_for(version), folders[version], searchpath=(CONFIG_DIR,))
    composed = set().union(*(flatten(Composer(read).compose(c)) for c in configs))
    trainer = set((TRAINER_KEYS_DIR / f"{version}.txt").read_text().split())
    megatron = TRAINER_KEYS_DIR / f"{version}-megatron.txt"
    trainer |= set(megatron.read_text().split()) if megatron.exists() else set()
    return sorted(composed - trainer)


def _diff(old: list[str], new: list[str]) -> str:
    gone, added = sorted(set(old) - set(new)), sorted(set(new) - set(old))
    return "; ".join(
        part
        for part in (
            f"{len(gone)} only in the shipped file: {', '.join(gone[:8])}{' ...' if len(gone) > 8 else ''}"
            if gone
            else "",
            f"{len(added)} only in verl: {', '.join(added[:8])}{' ...' if len(added) > 8 else ''}"
            if added
            else "",
        )
        if part
    )


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--git-dir", required=True, help="a verl git directory (a bare mirror works)")
    p.add_argument("--tag", help="a tag or branch (v0.9.0, main)")
    p.add_argument("--config", help="the config name (sft_trainer_engine, ppo_trainer, ...)")
    p.add_argument("--all", action="store_true", help="every list in TABLE, against the shipped files")
    p.add_argument("--write", action="store_true", help="with --all: write the lists")
    p.add_argument("--out", type=Path, default=OUT_DIR, help="folder of the lists (with --all)")
    opts = p.parse_args()
    if not opts.all:
        if not opts.tag or not opts.config:
            p.error("give --tag and --config, or --all")
        print("\n".join(entry_keys(git_reader(opts.git_dir, opts.tag), opts.config)))
        return 0
    differ = 0
    lists = [
        (name, version, lambda c=config, v=version: entry_keys(git_reader(opts.git_dir, tag_for(v)), c))
        for name, (config, versions) in TABLE.items()
        for version in versions
    ] + [
        (name, version, lambda n=name, v=version: variant_keys(opts.git_dir, n, v))
        for name, (_, folders) in VARIANTS.items()
        for version in folders
    ]
    for name, version, compose in lists:
        keys = compose()
        path = opts.out / f"{name}-{version}.txt"
        old = path.read_text(encoding="utf-8").split() if path.exists() else None
        if old is None:
            state = "new"
        elif old == keys:
            state = "same"
        else:
            state = "DIFFERS: " + _diff(old, keys)
            differ += 1
        print(f"{path.name:34} {len(keys):5} keys  {state}")
        if opts.write and old != keys:
            path.write_text("\n".join(keys) + "\n", encoding="utf-8")
    return 1 if differ and not opts.write else 0


if __name__ == "__main__":
    sys.exit(main())
