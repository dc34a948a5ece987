"""The rule catalog: find rule files, validate them, cache the result, report broken ones.

Rules come from the built-in `rules/` folder and from user folders (`--rules DIR`, the
`VERL_DOCTOR_RULES` path list, `$XDG_CONFIG_HOME/verl-doctor/rules`). A user rule with a
built-in code replaces the built-in one. A broken file becomes a `Problem` (file, line, rule,
field, message) and is skipped; the other rules still run.

Validation (YAML parsing, the pydantic schema, regex compilation, literal derivation) runs only
when the rule files change: its result is cached (in `marshal` format, which loads several
times faster than JSON) keyed on the files' content. The hot path works on `str` paths:
`pathlib` alone costs a few milliseconds of start-up, a visible share of answering a paste.
"""

from __future__ import annotations

import marshal
import os
import sys
from collections.abc import Iterable, Iterator, Sequence

from verl_doctor.catalog.literals import INTERNAL_LITERALS
from verl_doctor.catalog.problem import Problem
from verl_doctor.catalog.rule import Rule
from verl_doctor.common.about import __version__
from verl_doctor.common.records import field, record
from verl_doctor.common.resources import PACKAGE_DIR, builtin_rules_path, data_path

TYPE_CHECKING = False  # typing is only needed by type checkers; importing it costs start-up time
if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path
    from typing import Any, TypeVar

    T = TypeVar("T")

    PathLike = str | os.PathLike[str]

CACHE_FORMAT = 8
_BACKGROUND = data_path("background.txt")
# The modules whose code shapes the cached catalog.
_CACHE_KEY_MODULES = (
    "catalog/load.py",
    "catalog/validate.py",
    "catalog/schema.py",
    "catalog/literals.py",
    "catalog/spelling.py",
    "catalog/rule.py",
)


@record(frozen=True)
class Target:
    """What a prefilter literal leads to: a rule's signature, clue pattern or fact, or an
    internal line kind (exception, frame, envelope, context)."""

    rule: int  # index into Catalog.rules, or -1 for internal kinds
    kind: str  # "sig", "clue", "fact", or an internal kind name
    index: int = 0  # signature, clue or fact index
    part: int = 0  # for a clue: which of its patterns


@record
class Catalog:
    rules: Sequence[Rule]
    problems: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # e.g. "user rule X replaces built-in X"
    anchors: list[str] = field(default_factory=list)
    literals: list[str] = field(default_factory=list)
    targets: Sequence[list[Target]] = field(default_factory=list)  # per literal

    def by_id(self, code: str) -> Rule | None:
        code_l = code.lower()
        return next((r for r in self.rules if r.id.lower() == code_l or r.name == code_l), None)


# ---------------------------------------------------------------- locating rule files


def builtin_rules_dir() -> Path:
    """`verl_doctor/rules` in an installed wheel, else the repository's `rules/` folder."""
    from pathlib import Path

    return Path(builtin_rules_path())


def user_rule_dirs(extra: Sequence[str] = (), environ: dict[str, str] | None = None) -> list[str]:
    env = os.environ if environ is None else environ
    dirs = [os.fspath(d) for d in extra]
    dirs += [p for p in env.get("VERL_DOCTOR_RULES", "").split(os.pathsep) if p]
    config_home = env.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    per_user = os.path.join(config_home, "verl-doctor", "rules")
    if os.path.isdir(per_user):
        dirs.append(per_user)
    return dirs


def _rule_paths(directory: PathLike) -> list[str]:
    found = []
    for root, subdirs, files in os.walk(directory):
        subdirs.sort()
        for name in files:
            path = os.path.join(root, name)
            if name.endswith((".yaml", ".yml")) and os.path.isfile(path):
                found.append(path)
    return sorted(found)


def rule_files(directory: PathLike) -> list[Path]:
    """The rule files (.yaml, .yml) under `directory`, sorted."""
    from pathlib import Path

    return [Path(p) for p in _rule_paths(directory)]


# ---------------------------------------------------------------- loading with a cache


def load_catalog(
    extra_dirs: Sequence[str] = (),
    include_user: bool = True,
    include_builtin: bool = True,
    environ: dict[str, str] | None = None,
    use_cache: bool = True,
    allow_slow_rules: bool = False,
) -> Catalog:
    """The catalog as users see it: built-in rules, then user rules over them. A user rule
    whose regexes backtrack catastrophically (as `rules lint` finds) is skipped with a problem
    unless `allow_slow_rules`."""
    groups: list[tuple[str, list[tuple[str, bytes]]]] = []
    problems: list[Problem] = []
    if include_builtin:
        groups.append(("built-in", _read_files(_rule_paths(builtin_rules_path()), problems)))
    if include_user:
        for d in user_rule_dirs(extra_dirs, environ):
            if not os.path.isdir(d):
                problems.append(Problem(d, None, None, None, "rule folder not found"))
                continue
            groups.append((d, _read_files(_rule_paths(d), problems)))
    digest = _digest(groups, allow_slow_rules)
    cache = _cache_path(digest, environ) if use_cache else None
    data = _read_cache(cache)
    if data is None:
        data = build_catalog_data(groups, check_user_regexes=not allow_slow_rules)
        if cache is not None:
            _write_cache(cache, data)
    catalog = catalog_from_data(data)
    catalog.problems[:0] = problems
    return catalog


def _read_files(paths: Iterable[str], problems: list[Problem]) -> list[tuple[str, bytes]]:
    out = []
    for p in paths:
        try:
            with open(p, "rb") as f:
                out.append((p, f.read()))
        except OSError as exc:
            problems.append(Problem(p, None, None, None, f"cannot read: {exc.strerror}"))
    return out


def _hasher(data: bytes) -> Any:
    try:  # the C module behind hashlib.blake2b, without hashlib's OpenSSL start-up
        from _blake2 import blake2b
    except ImportError:  # pragma: no cover - other Python implementations
        from hashlib import blake2b
    return blake2b(data, digest_size=16)


def _digest(groups: Sequence[tuple[str, Sequence[tuple[PathLike, bytes]]]], allow_slow: bool = False) -> str:
    # marshal's format belongs to the Python version that wrote it
    h = _hasher(f"{CACHE_FORMAT}:{__version__}:{sys.implementation.cache_tag}:{allow_slow}".encode())
    for origin, files in groups:
        h.update(origin.encode() + b"\0")
        for path, content in files:
            h.update(os.fspath(path).encode() + b"\0" + _hasher(content).digest())
    try:
        with open(_BACKGROUND, "rb") as f:
            h.update(f.read())
    except OSError:
        pass
    # The code that validates and compiles rules is part of the key, so an upgrade (or an
    # edited checkout) never reads a cache its predecessor wrote.
    for name in _CACHE_KEY_MODULES:
        try:
            h.update(str(os.stat(os.path.join(PACKAGE_DIR, name)).st_mtime_ns).encode())
        except OSError:
            pass
    return str(h.hexdigest())


def _cache_path(digest: str, environ: dict[str, str] | None) -> str | None:
    env = os.environ if environ is None else environ
    if env.get("VERL_DOCTOR_NO_CACHE"):
        return None
    base = env.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "verl-doctor", f"catalog-{digest}.marshal")


def _read_cache(path: str | None) -> dict[str, Any] | None:
    if path is None:
        return None
    try:
        with open(path, "rb") as f:
            data = marshal.loads(f.read())  # load(f) reads in small pieces: 4x slower
    except (OSError, ValueError, EOFError, TypeError):  # missing, truncated or foreign: rebuild
        return None
    return data if isinstance(data, dict) and data.get("format") == CACHE_FORMAT else None


def _write_cache(path: str, data: dict[str, Any]) -> None:
    """Best effort, atomic: a read-only home or a full disk just means no cache."""
    import tempfile

    folder = os.path.dirname(path)
    try:
        os.makedirs(folder, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".catalog-", suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            marshal.dump(data, f)
        os.replace(tmp, path)
        newest = os.stat(path).st_mtime
        for name in os.listdir(folder):
            old = os.path.join(folder, name)
            if name.startswith("catalog-") and old != path and os.stat(old).st_mtime < newest - 86400:
                os.unlink(old)
    except OSError:
        pass


class LazyList(Sequence["T"]):  # a string: T exists only for type checkers
    """Items built from their cached data the first time each is used: a paste touches two or
    three rules and a few literals' targets, so building all of them would be most of the
    catalog's cost."""

    def __init__(self, raw: list[Any], build: Callable[[int, Any], T]) -> None:
        self._raw = raw
        self._make = build
        self._built: list[T | None] = [None] * len(raw)

    def __len__(self) -> int:
        return len(self._raw)

    def _item(self, index: int) -> T:
        item = self._built[index]
        if item is None:
            item = self._built[index] = self._make(index, self._raw[index])
        return item

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self._item(i) for i in range(len(self))[index]]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("catalog index out of range")
        return self._item(index)

    def __iter__(self) -> Iterator[T]:
        return (self._item(i) for i in range(len(self)))

    def __repr__(self) -> str:
        return f"LazyList({len(self)} items)"


def _rule_from_entry(index: int, entry: dict[str, Any]) -> Rule:
    rule = Rule.from_data(entry["data"], entry["path"], entry["origin"])
    rule.replaces = entry.get("replaces")
    rule.position = index
    return rule


def _targets_from_raw(_index: int, raw: list[list[Any]]) -> list[Target]:
    return [Target(*t) for t in raw]


def catalog_from_data(data: dict[str, Any]) -> Catalog:
    return Catalog(
        rules=LazyList(data["rules"], _rule_from_entry),
        problems=[Problem(**p) for p in data["problems"]],
        notes=list(data["notes"]),
        anchors=list(data["anchors"]),
        literals=list(data["literals"]),
        targets=LazyList(data["targets"], _targets_from_raw),
    )


# ---------------------------------------------------------------- validation (cache miss)


def build_catalog_data(
    groups: Sequence[tuple[str, Sequence[tuple[PathLike, bytes]]]], check_user_regexes: bool = False
) -> dict[str, Any]:
    """Validate every file and derive the prefilter; the slow path, run when files change.
    With `check_user_regexes`, user rules whose regexes time out on adversarial input are
    left out (built-in rules are checked by the test suite)."""
    from pathlib import Path

    from verl_doctor.catalog.validate import validate_file

    problems: list[Problem] = []
    notes: list[str] = []
    chosen: dict[str, dict[str, Any]] = {}
    names: dict[str, str] = {}
    for origin, files in groups:
        seen_here: dict[str, str] = {}
        for path, content in files:
            result = validate_file(Path(path), content, problems)
            if result is None:
                continue
            rid, name = result["id"], result["name"]
            if rid in seen_here:
                problems.append(
                    Problem(str(path), None, rid, "id", f"duplicate code {rid} (also in {seen_here[rid]})")
                )
                continue
            seen_here[rid] = str(path)
            if check_user_regexes and origin != "built-in" and _reject_slow(result, str(path), problems):
                continue
            entry = {"data": result, "path": str(path), "origin": origin}
            if rid in chosen:
                notes.append(f"user rule {rid} ({path}) replaces the {chosen[rid]['origin']} rule {rid}")
                entry["replaces"] = chosen[rid]["path"]
            other = names.get(name)
            if other is not None and other != rid:
                problems.append(
                    Problem(str(path), None, rid, "name", f"name {name} is already used by {other}")
                )
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


def _reject_slow(data: dict[str, Any], path: str, problems: list[Problem]) -> bool:
    """True (with a problem) when one of the rule's regexes backtracks catastrophically."""
    from verl_doctor.catalog.slow_regex import slow_patterns

    fields: list[tuple[str, list[str]]] = [
        ("signatures", data["signatures"]),
        ("exclude", data.get("exclude") or []),
        ("facts", data.get("facts") or []),
    ]
    fields += [(f"clues.{i}.all", clue["all"]) for i, clue in enumerate(data.get("clues") or [])]
    for name, patterns in fields:
        for index, why in slow_patterns(patterns):
            problems.append(
                Problem(
                    path,
                    None,
                    data["id"],
                    f"{name}.{index}",
                    f"{why}: not loaded (--allow-slow-rules loads it)",
                )
            )
            return True
    return False


def _literal_table(entries: list[dict[str, Any]]) -> tuple[list[str], list[list[list[Any]]]]:
    from verl_doctor.catalog.literals import required_literals as literals_of
    from verl_doctor.catalog.spelling import tolerant

    def required_literals(pattern: str) -> frozenset[str] | None:
        return literals_of(tolerant(pattern))  # the literals of the pattern as compiled

    table: dict[str, list[list[Any]]] = {}

    def add(lits: Iterable[str], target: list[Any]) -> None:
        for lit in lits:
            table.setdefault(lit, []).append(target)

    for ri, entry in enumerate(entries):
        data = entry["data"]
        declared = data.get("literals") or []
        for si, sig in enumerate(data["signatures"] + data.get("warnings", [])):
            add(sorted(required_literals(sig) or declared), [ri, "sig", si])
        for ci, clue in enumerate(data.get("clues", [])):
            for pi, pat in enumerate(clue["all"]):
                add(sorted(required_literals(pat) or ()), [ri, "clue", ci, pi])
        for fi, fact in enumerate(data.get("facts", [])):
            add(sorted(required_literals(fact) or ()), [ri, "fact", fi])
    for kind, lits in INTERNAL_LITERALS.items():
        add(lits, [-1, kind, 0])
    literals = sorted(table)
    return literals, [table[lit] for lit in literals]


def _anchors(literals: list[str]) -> list[str]:
    from verl_doctor.catalog.literals import choose_anchors

    try:
        with open(_BACKGROUND, encoding="utf-8") as f:
            background = f.read()
    except OSError:
        background = ""
    return choose_anchors(literals, background)
