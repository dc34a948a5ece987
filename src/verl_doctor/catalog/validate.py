"""Validating one rule file: YAML, schema, regexes, literals; problems carry the YAML line.

Used when the catalog cache is rebuilt and by `rules lint`. Imports yaml and pydantic, which a
normal run never loads.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import regex
import yaml
from pydantic import ValidationError

from verl_doctor.catalog.categories import CATEGORIES
from verl_doctor.catalog.literals import required_literals
from verl_doctor.catalog.problem import Problem
from verl_doctor.catalog.rule import REGEX_FLAGS
from verl_doctor.catalog.schema import RuleSpec

# libyaml's loader when PyYAML was built with it: parsing is most of a cold catalog build.
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _node_line(node: yaml.Node | None, loc: tuple[Any, ...]) -> int | None:
    """The 1-based line of the YAML node at `loc` (keys and list indexes), or its nearest parent."""
    line = node.start_mark.line + 1 if node is not None else None
    for key in loc:
        if isinstance(node, yaml.MappingNode):
            nxt = next((v for k, v in node.value if getattr(k, "value", None) == key), None)
            if nxt is None:
                key_node = next((k for k, _ in node.value if getattr(k, "value", None) == key), None)
                return key_node.start_mark.line + 1 if key_node is not None else line
            node = nxt
        elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and key < len(node.value):
            node = node.value[key]
        else:
            break
        line = node.start_mark.line + 1
    return line


def _field(loc: tuple[Any, ...]) -> str:
    return ".".join(str(p) for p in loc if p not in ("function-after[_prefix_matches_category()]",))


def validate_file(path: Path, content: bytes, problems: list[Problem]) -> dict[str, Any] | None:
    """The rule as plain data, or None (with problems appended) when it is unusable."""
    where = str(path)
    try:
        text = content.decode("utf-8")
        loader = _Loader(text)
        try:
            node = loader.get_single_node()
            raw = loader.construct_document(node) if node is not None else None
        finally:
            loader.dispose()
    except UnicodeDecodeError:
        problems.append(Problem(where, None, None, None, "not UTF-8 text"))
        return None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        msg = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        context, cmark = getattr(exc, "context", None), getattr(exc, "context_mark", None)
        if context and cmark is not None and cmark.line + 1 != line:
            msg += f" ({context} at line {cmark.line + 1})"
        problems.append(Problem(where, line, None, None, f"YAML syntax error: {msg}"))
        return None
    if not isinstance(raw, dict):
        problems.append(Problem(where, 1, None, None, "a rule file must be a YAML mapping"))
        return None
    rid = raw.get("id") if isinstance(raw.get("id"), str) else None
    try:
        spec = RuleSpec.model_validate(raw)
    except ValidationError as exc:
        for err in exc.errors():
            loc = tuple(err["loc"])
            msg = err["msg"]
            if err["type"] == "extra_forbidden":
                msg = "unknown field (not in the rule schema)"
            problems.append(Problem(where, _node_line(node, loc), rid, _field(loc) or None, msg))
        return None
    before = len(problems)
    _check_regexes(spec, node, where, problems)
    _check_file_name(spec, path, where, problems)
    if len(problems) > before:
        return None
    return spec.model_dump(mode="json")


def _check_regexes(spec: RuleSpec, node: yaml.Node | None, where: str, problems: list[Problem]) -> None:
    groups: list[tuple[str, list[str]]] = [
        ("signatures", spec.signatures),
        ("warnings", spec.warnings),
        ("exclude", spec.exclude),
        ("facts", spec.facts),
    ]
    for ci, clue in enumerate(spec.clues):
        groups.append((f"clues.{ci}.all", clue.all))
    for fld, pats in groups:
        for i, pat in enumerate(pats):
            loc = (*fld.split("."), i)
            loc = tuple(int(p) if isinstance(p, str) and p.isdigit() else p for p in loc)
            try:
                regex.compile(pat, REGEX_FLAGS)
            except (regex.error, OverflowError, RecursionError) as exc:
                problems.append(
                    Problem(where, _node_line(node, loc), spec.id, f"{fld}.{i}", f"bad regex: {exc}")
                )
                continue
            needs_literal = fld != "exclude" and not (fld in ("signatures", "warnings") and spec.literals)
            # Signatures without a derivable literal use the rule's declared `literals`.
            if needs_literal and required_literals(pat) is None:
                problems.append(
                    Problem(
                        where,
                        _node_line(node, loc),
                        spec.id,
                        f"{fld}.{i}",
                        "no literal substring of 4+ characters that every match contains; "
                        "add one to the pattern or declare `literals:`",
                    )
                )


def _check_file_name(spec: RuleSpec, path: Path, where: str, problems: list[Problem]) -> None:
    expected = f"{spec.id}-{spec.name}"
    if path.stem != expected:
        problems.append(Problem(where, 1, spec.id, "id", f"file name must be {expected}{path.suffix}"))
    if path.parent.name in CATEGORIES and path.parent.name != spec.category:
        problems.append(
            Problem(
                where,
                1,
                spec.id,
                "category",
                f"category {spec.category} does not match folder {path.parent.name}/",
            )
        )
