"""`verl-doctor rules lint`: everything that can be wrong with a rule folder, one line each.

Checks: YAML and schema (unknown fields rejected), unique codes and names, code prefix vs
category vs folder vs file name, regexes compile and have a prefilter literal, both languages
present, every rule's own examples pass against the whole catalog, no signature matches an empty
or a healthy line, no pattern backtracks catastrophically, and every config key a fix names
exists in verl.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from verl_doctor.catalog.load import (
    Catalog,
    build_catalog_data,
    builtin_rules_dir,
    catalog_from_data,
    rule_files,
)
from verl_doctor.catalog.problem import Problem
from verl_doctor.catalog.rule import Rule
from verl_doctor.catalog.slow_regex import slow_patterns
from verl_doctor.common.resources import data_path

HEALTHY = Path(data_path("background.txt"))


def lint_dirs(dirs: Sequence[Path], with_builtin: bool = False) -> list[Problem]:
    """Lint the rule files in `dirs` (examples run against those rules, plus the built-in ones
    when `with_builtin`, since that is the catalog users will run them in)."""
    groups: list[tuple[str, list[tuple[Path, bytes]]]] = []
    if with_builtin:
        groups.append(("built-in", [(p, p.read_bytes()) for p in rule_files(builtin_rules_dir())]))
    problems: list[Problem] = []
    for d in dirs:
        if not d.is_dir():
            problems.append(Problem(str(d), None, None, None, "not a folder"))
            continue
        files = rule_files(d)
        if not files:
            problems.append(Problem(str(d), None, None, None, "no .yaml rule files"))
        groups.append((str(d), [(p, p.read_bytes()) for p in files]))
    data = build_catalog_data(groups)
    catalog = catalog_from_data(data)
    problems += catalog.problems
    linted = {str(p) for _, files in groups[1 if with_builtin else 0 :] for p, _ in files}
    for rule in catalog.rules:
        if rule.path in linted:
            problems += check_rule(rule, catalog)
    return problems


def check_rule(rule: Rule, catalog: Catalog) -> list[Problem]:
    out: list[Problem] = []
    out += check_languages(rule)
    out += check_unfinished(rule)
    out += check_placeholders(rule)
    out += check_healthy(rule)
    out += check_backtracking(rule)
    out += check_config_keys(rule)
    for kind, index, message in example_failures(rule, catalog):
        out.append(Problem(rule.path, None, rule.id, f"examples.{kind}.{index}", message))
    return out


def _problem(rule: Rule, field: str, message: str) -> Problem:
    return Problem(rule.path, None, rule.id, field, message)


def check_languages(rule: Rule) -> list[Problem]:
    texts: list[tuple[str, dict[str, str | None]]] = [("title", rule.title), ("cause", rule.cause)]
    texts += [(f"fixes.{i}.step", f.step) for i, f in enumerate(rule.fixes)]
    texts += [(f"pitfalls.{i}", p) for i, p in enumerate(rule.pitfalls)]
    return [_problem(rule, name, "Chinese text (zh) missing") for name, t in texts if not t.get("zh")]


def check_unfinished(rule: Rule) -> list[Problem]:
    """A drafted rule (`explain --draft-rule`) says TODO wherever a person has to write."""
    texts: list[tuple[str, str]] = [(f"title.{k}", v or "") for k, v in rule.title.items()]
    texts += [(f"cause.{k}", v or "") for k, v in rule.cause.items()]
    for i, fix in enumerate(rule.fixes):
        texts += [(f"fixes.{i}.step.{k}", v or "") for k, v in fix.step.items()]
    texts += [(f"references.{i}", r) for i, r in enumerate(rule.references)]
    texts += [(f"examples.no_match.{i}", e) for i, e in enumerate(rule.examples_no_match)]
    out = [_problem(rule, name, "unfinished: replace the TODO text") for name, t in texts if "TODO" in t]
    if not any(fix.commands for fix in rule.fixes):
        out.append(_problem(rule, "fixes", "no fix step has a command to copy"))
    return out


def check_placeholders(rule: Rule) -> list[Problem]:
    """Causes and steps must render cleanly whether or not their placeholders are known."""
    from verl_doctor.common.placeholders import fill_placeholders

    out = []
    texts: list[tuple[str, dict[str, str | None]]] = [("cause", rule.cause)]
    texts += [(f"fixes.{i}.step", f.step) for i, f in enumerate(rule.fixes)]
    for name, t in texts:
        for lang, text in t.items():
            if text and any(c in fill_placeholders(text, {}) for c in "{}"):
                out.append(_problem(rule, f"{name}.{lang}", "malformed placeholder (stray brace)"))
    return out


def _healthy_lines() -> list[str]:
    return [ln for ln in HEALTHY.read_text(encoding="utf-8").splitlines() if ln.strip()]


def check_healthy(rule: Rule) -> list[Problem]:
    from verl_doctor.engine.normalize import normalize

    out = []
    lines = [normalize("healthy", i, ln).text for i, ln in enumerate(_healthy_lines(), 1)]
    for i, pattern in enumerate(rule.signature_res):
        if pattern.search(""):
            out.append(_problem(rule, f"signatures.{i}", "matches an empty line"))
            continue
        for text in lines:
            if pattern.search(text):
                out.append(_problem(rule, f"signatures.{i}", f"matches a healthy log line: {text[:80]!r}"))
                break
    return out


def check_backtracking(rule: Rule) -> list[Problem]:
    groups = [("signatures", rule.signatures), ("exclude", rule.exclude), ("facts", rule.facts)]
    for ci, clue in enumerate(rule.clues):
        groups.append((f"clues.{ci}.all", clue.patterns))
    return [_problem(rule, f"{name}.{i}", why) for name, pats in groups for i, why in slow_patterns(pats)]


def check_config_keys(rule: Rule) -> list[Problem]:
    from verl_doctor.catalog import verl_keys as hydra_keys

    out = []
    for i, fix in enumerate(rule.fixes):
        versions = _versions_for(fix.verl)
        for key, appended in hydra_keys.overrides_in(fix.commands):
            ok = any(
                hydra_keys.exists(key, v) or (appended and hydra_keys.parent_exists(key, v)) for v in versions
            )
            if not ok:
                hint = hydra_keys.nearest(key)
                msg = f"config key {key} does not exist in verl {', '.join(versions)}"
                out.append(
                    _problem(rule, f"fixes.{i}.commands", msg + (f" (nearest: {hint[0]})" if hint else ""))
                )
    return out


def _versions_for(bound: str | None) -> list[str]:
    from verl_doctor.catalog import verl_keys as hydra_keys
    from verl_doctor.common.versions import satisfies

    if not bound:
        return list(hydra_keys.VERSIONS)
    picked = [v for v in hydra_keys.VERSIONS[:-1] if satisfies(v, bound)]
    if satisfies("0.10.0", bound):
        picked.append("head")
    return picked or list(hydra_keys.VERSIONS)


def example_failures(rule: Rule, catalog: Catalog) -> list[tuple[str, int, str]]:
    """(kind, index, message) for each of the rule's examples that does not behave."""
    from verl_doctor.engine.session import diagnose_text

    out = []
    for i, text in enumerate(rule.examples_match):
        report = diagnose_text(text, catalog)
        codes = [f.rule for f in report.findings] or [f.rule for f in report.warnings]
        if not codes or codes[0] != rule.id:
            out.append(("match", i, f"expected {rule.id} first, got {codes or 'nothing'}"))
    for i, text in enumerate(rule.examples_no_match):
        report = diagnose_text(text, catalog)
        if rule.id in [f.rule for f in report.findings]:
            out.append(("no_match", i, f"{rule.id} matched a no_match example"))
    return out


def lint_report(problems: Sequence[Problem]) -> list[dict[str, Any]]:
    return [p.to_dict() for p in problems]
