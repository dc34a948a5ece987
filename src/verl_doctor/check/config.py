"""The config verl would run with: the defaults of its trainer config for one verl version
(`data/hydra_defaults/`, the leaves of `_generated_ppo_trainer.yaml` / the Megatron variant)
with the command's overrides applied the way Hydra applies them, and interpolations resolved
the way OmegaConf resolves them (`${a.b}`, `${.x}`, `${oc.select:a.b,default}`).
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

from verl_doctor.catalog import verl_keys as hydra_keys
from verl_doctor.check.model import Issue, Override
from verl_doctor.common.resources import data_path

_DIR = Path(data_path("hydra_defaults"))
MISSING = "???"


class _Unknown:
    """A value the check cannot know (an unset shell variable, an environment lookup)."""

    def __repr__(self) -> str:
        return "<unknown>"


UNKNOWN = _Unknown()


class InterpolationError(LookupError):
    """An interpolation points at a key that does not exist."""


@cache
def defaults(version: str, megatron: bool) -> dict[str, object]:
    """Leaf defaults of one key-list version ("0.9.0", "head") of the FSDP or Megatron config."""
    path = _DIR / f"{version}.json"
    if not path.is_file():
        return {}
    values: dict[str, object] = json.loads(path.read_text(encoding="utf-8"))
    if megatron:
        extra = json.loads((_DIR / f"{version}-megatron.json").read_text(encoding="utf-8"))
        for key in extra.pop("__absent__", []):
            values.pop(key, None)
        values.update(extra)
    return values


@cache
def config_keys(version: str, megatron: bool) -> frozenset[str]:
    """Every key (leaves and sections) of that config, `_target_` included."""
    leaves = defaults(version, megatron)
    out = set(leaves)
    for key in leaves:
        parts = key.split(".")
        out.update(".".join(parts[:i]) for i in range(1, len(parts)))
    # Empty sections ({} in the YAML: free-form dicts such as engine_kwargs.vllm) have no leaf.
    out.update(hydra_keys.keys(version, megatron=megatron))
    return frozenset(out)


def is_dataclass_section(section: str, keys: frozenset[str]) -> bool:
    """verl turns sections with a `_target_` into dataclasses, which refuse unknown fields."""
    return f"{section}._target_" in keys


class Config:
    """Key -> value after the overrides; sections are implied by their dotted leaves."""

    def __init__(self, version: str, megatron: bool) -> None:
        self.version = version
        self.megatron = megatron
        self.keys = set(config_keys(version, megatron))
        self.values: dict[str, object] = dict(defaults(version, megatron))
        self.set_by: dict[str, Override] = {}
        self.sections = {k.rpartition(".")[0] for k in self.values}

    def exists(self, key: str) -> bool:
        return key in self.keys

    def set(self, override: Override) -> None:
        key = override.key
        if isinstance(override.value, dict):
            for sub, value in _flatten(override.value, key + ".").items():
                self._store(sub, value, override)
            self._add_key(key)
            return
        if key in self.sections:  # a section replaced by a value
            for old in [k for k in self.values if k.startswith(key + ".")]:
                del self.values[old]
        self._store(key, override.value, override)

    def _store(self, key: str, value: object, override: Override) -> None:
        self.values[key] = value
        self.set_by[key] = override
        self._add_key(key)

    def _add_key(self, key: str) -> None:
        parts = key.split(".")
        self.keys.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))

    def delete(self, key: str) -> None:
        for k in [k for k in self.values if k == key or k.startswith(key + ".")]:
            del self.values[k]
        self.keys = {k for k in self.keys if k != key and not k.startswith(key + ".")}

    def raw(self, key: str) -> object:
        return self.values.get(key)

    def get(self, key: str) -> object:
        """The resolved value; UNKNOWN when it depends on something the check cannot see (or
        on a missing key, which check_interpolations reports)."""
        try:
            return self.resolved(key)
        except InterpolationError:
            return UNKNOWN

    def resolved(self, key: str, _depth: int = 0) -> object:
        """The resolved value; InterpolationError for a `${...}` to a missing key."""
        value = self.values.get(key)
        if isinstance(value, str) and "${" in value:
            return self._resolve(key, value, _depth)
        if isinstance(value, list):
            return [self._resolve(key, v, _depth) if isinstance(v, str) and "${" in v else v for v in value]
        return value

    def _resolve(self, key: str, text: str, depth: int) -> object:
        if depth > 20:
            return UNKNOWN
        whole = _INTERP.fullmatch(text)
        if whole:
            return self._lookup(key, whole.group(1), depth)
        pieces: list[str] = []
        pos = 0
        for m in _INTERP.finditer(text):
            pieces.append(text[pos : m.start()])
            value = self._lookup(key, m.group(1), depth)
            if value is UNKNOWN:
                return UNKNOWN
            pieces.append("None" if value is None else str(value))
            pos = m.end()
        pieces.append(text[pos:])
        return "".join(pieces)

    def _lookup(self, key: str, expr: str, depth: int) -> object:
        expr = expr.strip()
        if expr.startswith("oc.select:"):
            target, _, default = expr[len("oc.select:") :].partition(",")
            path = _absolute(key, target.strip())
            if path in self.values:
                return self.resolved(path, depth + 1)
            if path in self.keys:
                return None  # an empty section
            return _default(default.strip()) if default else None
        if ":" in expr:
            return UNKNOWN  # another resolver (oc.env, oc.decode, ...): not known before run time
        path = _absolute(key, expr)
        if path not in self.values:
            if path in self.keys:
                return UNKNOWN
            raise InterpolationError(path)
        return self.resolved(path, depth + 1)


_INTERP = re.compile(r"\$\{([^${}]*)\}")


def _absolute(key: str, target: str) -> str:
    """`.x` is a sibling of `key`, `..x` a sibling of its parent (OmegaConf's relative keys)."""
    if not target.startswith("."):
        return target
    dots = len(target) - len(target.lstrip("."))
    parts = key.split(".")[:-dots]
    return ".".join(parts + [target[dots:]]) if target[dots:] else ".".join(parts)


def _default(text: str) -> object:
    from verl_doctor.check.override import parse_value

    try:
        return parse_value(text)
    except ValueError:
        return text


def _flatten(value: dict[str, object], prefix: str) -> dict[str, object]:
    out: dict[str, object] = {}
    for k, v in value.items():
        if isinstance(v, dict) and v:
            out.update(_flatten(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = v
    return out


def check_interpolations(config: Config) -> list[Issue]:
    """Overrides whose `${...}` points at a key that does not exist: OmegaConf raises
    InterpolationKeyError when verl reads them. Their value becomes unknown."""
    issues: list[Issue] = []
    for key, o in list(config.set_by.items()):
        if not (isinstance(o.value, str) and "${" in o.value):
            continue
        try:
            config.resolved(key)
        except InterpolationError as exc:
            config.values[key] = UNKNOWN
            issues.append(
                Issue(
                    # (explain reads the same: to one of verl's keys of another release, a section
                    # missing; to a key no verl config has, the ${...} written wrong)
                    code="CFG011" if hydra_keys.known(str(exc)) else "CFG016",
                    override=o.text,
                    why=f"the interpolation in `{o.text}` points at `{exc}`, which is not a config key "
                    f"(OmegaConf: Interpolation key '{exc}' not found)",
                    fix=(),
                    cites=("omegaconf InterpolationKeyError, raised when verl reads the key (verl 0.4-0.9)",),
                    source=o.source,
                    line=o.line,
                )
            )
    return issues
