"""`verl-doctor rules ...`: browse, lint and document the catalog."""

from __future__ import annotations

import json
import sys
from enum import Enum
from pathlib import Path

import typer

from .cli import app

rules_app = typer.Typer(
    help="Browse the rule catalog, lint rule files, print the rule schema.",
    invoke_without_command=True,
    no_args_is_help=False,
)
app.add_typer(rules_app, name="rules")


class Fmt(str, Enum):
    text = "text"
    json = "json"
    markdown = "markdown"


def _catalog(rules_dirs: list[str], no_user_rules: bool):  # type: ignore[no-untyped-def]
    from .catalog import load_catalog

    catalog = load_catalog(extra_dirs=rules_dirs, include_user=not no_user_rules or bool(rules_dirs))
    for problem in catalog.problems:
        typer.echo(f"verl-doctor: warning: skipped broken rule: {problem}", err=True)
    return catalog


RulesOpt = typer.Option([], "--rules", metavar="DIR", help="Extra rule folder (repeatable).")
NoUserOpt = typer.Option(False, "--no-user-rules", help="Built-in rules only.")
LangOpt = typer.Option(None, "--lang", help="en or zh (default: from LC_ALL/LANGUAGE/LANG).")


@rules_app.callback()
def rules_list(
    ctx: typer.Context,
    category: str | None = typer.Option(None, "--category", "-c", help="env, config, flow or distributed."),
    fmt: Fmt = typer.Option(Fmt.text, "--format", "-f", help="text, json or markdown."),
    lang: str | None = LangOpt,
    rules: list[str] = RulesOpt,
    no_user_rules: bool = NoUserOpt,
) -> None:
    """List every rule: code, name, category, title (`rules show CODE` for one in full)."""
    if ctx.invoked_subcommand is not None:
        return
    _list_rules(category, fmt, lang, rules, no_user_rules)


@rules_app.command("list")
def rules_list_command(
    category: str | None = typer.Option(None, "--category", "-c", help="env, config, flow or distributed."),
    fmt: Fmt = typer.Option(Fmt.text, "--format", "-f", help="text, json or markdown."),
    lang: str | None = LangOpt,
    rules: list[str] = RulesOpt,
    no_user_rules: bool = NoUserOpt,
) -> None:
    """The same as `verl-doctor rules`: every rule, one line each."""
    _list_rules(category, fmt, lang, rules, no_user_rules)


def _list_rules(
    category: str | None, fmt: Fmt, lang: str | None, rules: list[str], no_user_rules: bool
) -> None:
    from .docs import rule_summary
    from .i18n import choose_lang

    language = choose_lang(lang)
    catalog = _catalog(rules, no_user_rules)
    if category and category not in ("env", "config", "flow", "distributed"):
        typer.echo(f"verl-doctor: unknown category {category!r} (env, config, flow, distributed)", err=True)
        raise typer.Exit(2)
    selected = [r for r in catalog.rules if not category or r.category == category]
    selected.sort(key=lambda r: (("env", "config", "flow", "distributed").index(r.category), r.id))
    rows = [rule_summary(r, language) for r in selected]
    if fmt is Fmt.json:
        typer.echo(json.dumps(rows, ensure_ascii=False, indent=2))
    elif fmt is Fmt.markdown:
        typer.echo("| code | name | category | title |\n|---|---|---|---|")
        for row in rows:
            typer.echo(f"| {row['id']} | {row['name']} | {row['category']} | {row['title']} |")
    else:
        for row in rows:
            mark = " (symptom)" if row["symptom"] else ""
            typer.echo(f"{row['id']:8} {row['name']:34} {row['category']:12} {row['title']}{mark}")


@rules_app.command("show")
def rules_show(
    code: str = typer.Argument(..., help="Rule code (FLOW004) or name (cuda-out-of-memory)."),
    fmt: Fmt = typer.Option(Fmt.text, "--format", "-f", help="text, json or markdown."),
    lang: str | None = LangOpt,
    rules: list[str] = RulesOpt,
    no_user_rules: bool = NoUserOpt,
) -> None:
    """Print one rule in full: symptoms, cause, fixes, pitfalls, references, an example."""
    from .docs import rule_detail, rule_markdown, rule_text
    from .i18n import choose_lang

    language = choose_lang(lang)
    catalog = _catalog(rules, no_user_rules)
    rule = catalog.by_id(code)
    if rule is None:
        typer.echo(f"verl-doctor: no rule {code!r} (see `verl-doctor rules`)", err=True)
        raise typer.Exit(2)
    if fmt is Fmt.json:
        typer.echo(json.dumps(rule_detail(rule, language), ensure_ascii=False, indent=2))
    elif fmt is Fmt.markdown:
        typer.echo(rule_markdown(rule, language))
    else:
        typer.echo(rule_text(rule, language))


@rules_app.command("lint")
def rules_lint(
    dirs: list[Path] = typer.Argument(None, help="Rule folders (default: the built-in catalog)."),
    fmt: Fmt = typer.Option(Fmt.text, "--format", "-f", help="text or json."),
) -> None:
    """Validate rule files; one line per problem (file:line: rule: field: message); exit 1 if any."""
    from .catalog import builtin_rules_dir
    from .lint import lint_dirs

    targets = list(dirs) if dirs else [builtin_rules_dir()]
    problems = lint_dirs(targets, with_builtin=bool(dirs))
    if fmt is Fmt.json:
        typer.echo(json.dumps([p.to_dict() for p in problems], ensure_ascii=False, indent=2))
    else:
        for p in problems:
            typer.echo(str(p))
        n = len(problems)
        typer.echo(f"{n} problem{'s' if n != 1 else ''} in {', '.join(str(d) for d in targets)}", err=True)
    raise typer.Exit(1 if problems else 0)


@rules_app.command("schema")
def rules_schema() -> None:
    """Print the JSON Schema of a rule file (for `# yaml-language-server: $schema=...`)."""
    from .schema import json_schema

    sys.stdout.write(json.dumps(json_schema(), indent=2) + "\n")


@rules_app.command("docs")
def rules_docs(
    out: Path = typer.Option(
        ...,
        "--out",
        help="Folder to write (or, with --check, compare) errors.md, errors.zh.md, rule.schema.json.",
    ),
    check: bool = typer.Option(
        False, "--check", help="Only check the files are up to date; exit 1 if stale."
    ),
) -> None:
    """Generate the error-code reference and the rule schema from the catalog."""
    from .docs import write_docs

    stale = write_docs(out, check=check)
    if check and stale:
        for name in stale:
            typer.echo(f"{name} is stale; run: verl-doctor rules docs --out {out}", err=True)
        raise typer.Exit(1)
    if not check:
        typer.echo(f"wrote {', '.join(stale) or 'nothing (already up to date)'}")
