"""The rule catalog: find rule files, validate them, cache the result, report broken ones.

Rules come from the built-in `rules/` folder and from user folders (`--rules DIR`, the
`VERL_DOCTOR_RULES` path list, `$XDG_CONFIG_HOME/verl-doctor/rules`). A user rule with a
built-in code replaces the built-in one. A broken file becomes a `Problem` (file, line, rule,
field, message) and is skipped; the other rules still run.

Validation (YAML parsing, the pydantic schema, regex compilation, literal derivation) runs only
when the rule files change: its result is cached as JSON keyed on the files' content.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import __version__
from .classify import INTERNAL_LITERALS
from .rules import Rule

CACHE_FORMAT = 4
_BACKGROUND = Path(__file__).with_name("data") / "background.txt"


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a rule file, as one line for the user."""

    path: str
    line: int | None
    rule: str | None
    field: str | None
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        parts = [where]
        if self.rule:
            parts.append(f"rule {self.rule}")
        if self.field:
            parts.append(f"field {self.field}")
        return ": ".join(parts) + f": {self.message}"

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "line": self.line, "rule": self.rule, "field": self.field,
                "message": self.message}


@dataclass(frozen=True)
class Target:
    """What a prefilter literal leads to: a rule's signature, clue pattern or fact, or an
    internal line kind (exception, frame, envelope, context)."""

    rule: int  # index into Catalog.rules, or -1 for internal kinds
    kind: str  # "sig", "clue", "fact", or an internal kind name
    index: int = 0  # signature index, or clue index * 100 + pattern index


@dataclass
class Catalog:
    rules: list[Rule]
    problems: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # e.g. "user rule X replaces built-in X"
    anchors: list[str] = field(default_factory=list)
    literals: list[str] = field(default_factory=list)
    targets: list[list[Target]] = field(default_factory=list)  # per literal

    def by_id(self, code: str) -> Rule | None:
        code_l = code.lower()
        return next((r for r in self.rules if r.id.lower() == code_l or r.name == code_l), None)


# ---------------------------------------------------------------- locating rule files


def builtin_rules_dir() -> Path:
    """`verl_doctor/rules` in an installed wheel, else the repository's `rules/` folder."""
    packaged = Path(__file__).with_name("rules")
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "rules"


def user_rule_dirs(extra: Sequence[str] = (), environ: dict[str, str] | None = None) -> list[Path]:
    env = os.environ if environ is None else environ
    dirs = [Path(d) for d in extra]
    dirs += [Path(p) for p in env.get("VERL_DOCTOR_RULES", "").split(os.pathsep) if p]
    config_home = env.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    per_user = Path(config_home) / "verl-doctor" / "rules"
    if per_user.is_dir():
        dirs.append(per_user)
    return dirs


def rule_files(directory: Path) -> list[Path]:
    return sorted(p for p in directory.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())


# ---------------------------------------------------------------- loading with a cache


def load_catalog(
    extra_dirs: Sequence[str] = (),
    include_user: bool = True,
    include_builtin: bool = True,
    environ: dict[str, str] | None = None,
    use_cache: bool = True,
) -> Catalog:
    """The catalog as users see it: built-in rules, then user rules over them."""
    groups: list[tuple[str, list[tuple[Path, bytes]]]] = []
    problems: list[Problem] = []
    if include_builtin:
        groups.append(("built-in", _read_files(rule_files(builtin_rules_dir()), problems)))
    if include_user:
        for d in user_rule_dirs(extra_dirs, environ):
            if not d.is_dir():
                problems.append(Problem(str(d), None, None, None, "rule folder not found"))
                continue
            groups.append((str(d), _read_files(rule_files(d), problems)))
    digest = _digest(groups)
    cache = _cache_path(digest, environ) if use_cache else None
    data = _read_cache(cache)
    if data is None:
        data = build_catalog_data(groups)
        if cache is not None:
            _write_cache(cache, data)
    catalog = catalog_from_data(data)
    catalog.problems[:0] = problems
    return catalog


def _read_files(paths: Iterable[Path], problems: list[Problem]) -> list[tuple[Path, bytes]]:
    out = []
    for p in paths:
        try:
            out.append((p, p.read_bytes()))
        except OSError as exc:
            problems.append(Problem(str(p), None, None, None, f"cannot read: {exc.strerror}"))
    return out


def _digest(groups: list[tuple[str, list[tuple[Path, bytes]]]]) -> str:
    h = hashlib.sha256(f"{CACHE_FORMAT}:{__version__}".encode())
    for origin, files in groups:
        h.update(origin.encode() + b"\0")
        for path, content in files:
            h.update(str(path).encode() + b"\0" + hashlib.sha256(content).digest())
    if _BACKGROUND.is_file():
        h.update(_BACKGROUND.read_bytes())
    # The code that validates and compiles rules is part of the key, so an upgrade (or an
    # edited checkout) never reads a cache its predecessor wrote.
    here = Path(__file__).parent
    for name in ("catalog.py", "validate.py", "schema.py", "literals.py", "classify.py"):
        try:
            h.update(str((here / name).stat().st_mtime_ns).encode())
        except OSError:
            pass
    return h.hexdigest()[:32]


def _cache_path(digest: str, environ: dict[str, str] | None) -> Path | None:
    env = os.environ if environ is None else environ
    if env.get("VERL_DOCTOR_NO_CACHE"):
        return None
    base = env.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "verl-doctor" / f"catalog-{digest}.json"


def _read_cache(path: Path | None) -> dict[str, Any] | None:
    if path is None:
        return None
    try:
        data = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("format") == CACHE_FORMAT else None


def _write_cache(path: Path, data: dict[str, Any]) -> None:
    """Best effort, atomic: a read-only home or a full disk just means no cache."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".catalog-", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f, ensure_ascii=False)
        os.replace(tmp, path)
        for old in path.parent.glob("catalog-*.json"):
            if old != path and old.stat().st_mtime < path.stat().st_mtime - 86400:
                old.unlink(missing_ok=True)
    except OSError:
        pass


def catalog_from_data(data: dict[str, Any]) -> Catalog:
    rules = []
    for entry in data["rules"]:
        rule = Rule.from_data(entry["data"], entry["path"], entry["origin"])
        rule.replaces = entry.get("replaces")
        rules.append(rule)
    return Catalog(
        rules=rules,
        problems=[Problem(**p) for p in data["problems"]],
        notes=list(data["notes"]),
        anchors=list(data["anchors"]),
        literals=list(data["literals"]),
        targets=[[Target(*t) for t in ts] for ts in data["targets"]],
    )


# ---------------------------------------------------------------- validation (cache miss)


def build_catalog_data(groups: list[tuple[str, list[tuple[Path, bytes]]]]) -> dict[str, Any]:
    """Validate every file and derive the prefilter; the slow path, run when files change."""
    from .validate import validate_file

    problems: list[Problem] = []
    notes: list[str] = []
    chosen: dict[str, dict[str, Any]] = {}
    names: dict[str, str] = {}
    for origin, files in groups:
        seen_here: dict[str, str] = {}
        for path, content in files:
            result = validate_file(path, content, problems)
            if result is None:
                continue
            rid, name = result["id"], result["name"]
            if rid in seen_here:
                problems.append(Problem(str(path), None, rid, "id",
                                        f"duplicate code {rid} (also in {seen_here[rid]})"))
                continue
            seen_here[rid] = str(path)
            entry = {"data": result, "path": str(path), "origin": origin}
            if rid in chosen:
                notes.append(f"user rule {rid} ({path}) replaces the {chosen[rid]['origin']} rule {rid}")
                entry["replaces"] = chosen[rid]["path"]
            other = names.get(name)
            if other is not None and other != rid:
                problems.append(Problem(str(path), None, rid, "name", f"name {name} is already used by {other}"))
                continue
            names[name] = rid
            chosen[rid] = entry
    entries = list(chosen.values())
    literals, targets = _literal_table(entries)
    anchors = _anchors(literals)
    return {
        "format": CACHE_FORMAT,
        "rules": entries,
        "problems": [p.to_dict() for p in problems],
        "notes": notes,
        "anchors": anchors,
        "literals": literals,
        "targets": targets,
    }


def _literal_table(entries: list[dict[str, Any]]) -> tuple[list[str], list[list[list[Any]]]]:
    from .literals import required_literals

    table: dict[str, list[list[Any]]] = {}

    def add(lits: Iterable[str], target: list[Any]) -> None:
        for lit in lits:
            table.setdefault(lit, []).append(target)

    for ri, entry in enumerate(entries):
        data = entry["data"]
        declared = data.get("literals") or []
        for si, sig in enumerate(data["signatures"]):
            add(sorted(required_literals(sig) or declared), [ri, "sig", si])
        for ci, clue in enumerate(data.get("clues", [])):
            for pi, pat in enumerate(clue["all"]):
                add(sorted(required_literals(pat) or ()), [ri, "clue", ci * 100 + pi])
        for fi, fact in enumerate(data.get("facts", [])):
            add(sorted(required_literals(fact) or ()), [ri, "fact", fi])
    for kind, lits in INTERNAL_LITERALS.items():
        add(lits, [-1, kind, 0])
    literals = sorted(table)
    return literals, [table[lit] for lit in literals]


def _anchors(literals: list[str]) -> list[str]:
    from .literals import choose_anchors

    background = _BACKGROUND.read_text(encoding="utf-8") if _BACKGROUND.is_file() else ""
    return choose_anchors(literals, background)
