"""`verl-doctor rules ...`: browse, lint and document the catalog."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from verl_doctor.catalog.categories import CATEGORIES
from verl_doctor.cli.stderr import error_line, say, skipped_rules
from verl_doctor.common.exit_codes import ExitCode

TYPE_CHECKING = False
if TYPE_CHECKING:
    from verl_doctor.catalog.load import Catalog
    from verl_doctor.cli.options import Values


def _catalog(values: Values) -> Catalog:
    from verl_doctor.catalog.load import load_catalog

    catalog = load_catalog(
        extra_dirs=values.rules, include_user=not values.no_user_rules or bool(values.rules)
    )
    skipped_rules(catalog)
    return catalog


def _out(text: str) -> None:
    sys.stdout.write(text + "\n")


def list_rules(values: Values) -> int:
    from verl_doctor.catalog.reference import rule_summary
    from verl_doctor.common.i18n import choose_lang

    language = choose_lang(values.lang)
    catalog = _catalog(values)
    selected = [r for r in catalog.rules if not values.category or r.category == values.category]
    selected.sort(key=lambda r: (CATEGORIES.index(r.category), r.id))
    rows = [rule_summary(r, language) for r in selected]
    if values.format == "json":
        _out(json.dumps(rows, ensure_ascii=False, indent=2))
    elif values.format == "markdown":
        _out("| code | name | category | title |\n|---|---|---|---|")
        for row in rows:
            _out(f"| {row['id']} | {row['name']} | {row['category']} | {row['title']} |")
    else:
        for row in rows:
            mark = " (symptom)" if row["symptom"] else ""
            _out(f"{row['id']:8} {row['name']:34} {row['category']:12} {row['title']}{mark}")
    return ExitCode.OK


def show(values: Values) -> int:
    from verl_doctor.catalog.reference import rule_detail, rule_markdown, rule_text
    from verl_doctor.common.i18n import choose_lang

    language = choose_lang(values.lang)
    rule = _catalog(values).by_id(values.code)
    if rule is None:
        error_line(f"no rule {values.code!r} (see `verl-doctor rules`)")
        return ExitCode.USAGE
    if values.format == "json":
        _out(json.dumps(rule_detail(rule, language), ensure_ascii=False, indent=2))
    elif values.format == "markdown":
        _out(rule_markdown(rule, language))
    else:
        _out(rule_text(rule, language))
    return ExitCode.OK


def lint(values: Values) -> int:
    from verl_doctor.authoring.lint import lint_dirs
    from verl_doctor.catalog.load import builtin_rules_dir

    targets = [Path(d) for d in values.dirs] or [builtin_rules_dir()]
    problems = lint_dirs(targets, with_builtin=bool(values.dirs))
    if values.format == "json":
        _out(json.dumps([p.to_dict() for p in problems], ensure_ascii=False, indent=2))
    else:
        for p in problems:
            _out(str(p))
        n = len(problems)
        say(f"{n} problem{'s' if n != 1 else ''} in {', '.join(str(d) for d in targets)}")
    return ExitCode.FOUND if problems else ExitCode.OK


def schema(values: Values) -> int:
    from verl_doctor.catalog.schema import json_schema

    _out(json.dumps(json_schema(), indent=2))
    return ExitCode.OK


def docs(values: Values) -> int:
    from verl_doctor.catalog.reference import write_docs

    if not values.out:
        error_line("rules docs: --out DIR is required")
        return ExitCode.USAGE
    out = Path(values.out)
    stale = write_docs(out, check=values.check)
    if values.check and stale:
        for name in stale:
            say(f"{name} is stale; run: verl-doctor rules docs --out {out}")
        return ExitCode.FOUND
    if not values.check:
        _out(f"wrote {', '.join(stale) or 'nothing (already up to date)'}")
    return ExitCode.OK
