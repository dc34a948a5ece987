"""`verl-doctor explain`: read logs, print the diagnosis, exit with its code.

This is the hot path (a 20-line paste must be answered faster than importing typer and rich),
so it parses its own arguments with argparse and imports rich only to draw in a terminal.
The typer app in cli.py forwards `explain` here, so these options are defined once.

Exit codes: 0 no error found, 1 a known error, 3 errors found but none recognized,
2 usage error or no input could be read, 130 interrupted, 4 internal error.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import TextIO

EXIT_NONE, EXIT_KNOWN, EXIT_USAGE, EXIT_UNRECOGNIZED, EXIT_INTERNAL = 0, 1, 2, 3, 4
FORMATS = ("text", "json", "markdown", "github")
PASTE_PROMPT = "Paste the log, then press Ctrl-D (Ctrl-Z then Enter on Windows) to get the diagnosis."


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="verl-doctor explain",
        description="Explain why a verl run failed: known errors, their cause and fixes.",
        epilog="Exit codes: 0 no error found, 1 known error, 3 error found but none recognized, "
        "2 usage error or unreadable input, 130 interrupted.",
    )
    p.add_argument("files", nargs="*", metavar="FILE",
                   help="log files (plain or gzip); '-' or nothing reads stdin")
    p.add_argument("-f", "--format", choices=FORMATS, default="text", help="output format (default: text)")
    p.add_argument("--lang", choices=("en", "zh"), default=None,
                   help="language of causes and fixes (default: from LC_ALL/LANGUAGE/LANG)")
    p.add_argument("--rules", action="append", default=[], metavar="DIR",
                   help="extra rule folder (repeatable); also VERL_DOCTOR_RULES and ~/.config/verl-doctor/rules")
    p.add_argument("--no-user-rules", action="store_true", help="use the built-in rules only")
    p.add_argument("--binary", action="store_true", help="read files that look binary instead of skipping them")
    p.add_argument("--no-redact", action="store_true", help="show secrets (API keys, tokens) unmasked")
    p.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                   help="colour in text output (default: auto; NO_COLOR disables)")
    p.add_argument("--exit-zero", action="store_true", help="exit 0 after any successful analysis")
    p.add_argument("--fail-on", choices=("any", "known", "unrecognized"), default="any",
                   help="what makes the exit code non-zero (default: any)")
    p.add_argument("--no-step-summary", action="store_true",
                   help="do not append the markdown report to $GITHUB_STEP_SUMMARY")
    p.add_argument("--follow", action="store_true", help="keep reading FILE as it grows, report errors as they appear")
    p.add_argument("--until-idle", type=float, default=None, metavar="SECONDS",
                   help="with --follow: stop after this many seconds without new output")
    p.add_argument("--draft-rule", action="store_true",
                   help="print a rule YAML drafted from the first unrecognized error")
    p.add_argument("--env", action="store_true", help="also probe this machine and use it to confirm findings")
    return p


def main(argv: Sequence[str]) -> int:
    args = build_parser().parse_args(list(argv))
    try:
        return _explain(args)
    except KeyboardInterrupt:
        return 130


def _err(message: str) -> None:
    try:
        sys.stderr.write(f"verl-doctor: {message}\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def _explain(args: argparse.Namespace) -> int:
    from .catalog import load_catalog
    from .engine import Session
    from .i18n import choose_lang
    from .sources import InputError, open_path, open_stdin

    if args.until_idle is not None and not args.follow:
        _err("--until-idle needs --follow")
        return EXIT_USAGE
    lang = choose_lang(args.lang)
    catalog = load_catalog(extra_dirs=args.rules, include_user=not args.no_user_rules or bool(args.rules))
    for problem in catalog.problems:
        _err(f"warning: skipped broken rule: {problem}")
    if args.follow:
        from .live import follow

        return follow(args, catalog, lang)
    session = Session(catalog, lang, read_binary=args.binary)
    inputs = list(args.files) or ["-"]
    read_any = False
    for name in inputs:
        try:
            if name == "-":
                if _stdin_is_tty():
                    _err(PASTE_PROMPT)
                source = open_stdin()
            else:
                source = open_path(name)
        except InputError as exc:
            session.note_error(str(exc), name)
            _err(str(exc))
            continue
        try:
            ok = session.read(source)
        finally:
            source.close()
        read_any = read_any or ok or bool(session.sources)
        if not ok and session.input_errors:
            note = session.input_errors[-1]
            _err(note.message)
    report = session.report()
    if args.env:
        from .env.fusion import confirm_with_probes

        report = confirm_with_probes(report)
    if not read_any and not report.sources:
        return EXIT_USAGE
    return emit(report, args)


def _stdin_is_tty() -> bool:
    try:
        return sys.stdin is not None and sys.stdin.isatty()
    except (ValueError, OSError):
        return False


def emit(report: object, args: argparse.Namespace, stream: TextIO | None = None) -> int:
    """Render to stdout (and the GitHub step summary), return the exit code."""
    from .report import Report

    assert isinstance(report, Report)
    if not args.no_redact:
        from .redact import redact_report

        report = redact_report(report)
    out = stream or sys.stdout
    if args.draft_rule:
        from .draft import draft_rule

        out.write(draft_rule(report))
    else:
        _render(report, args, out)
    out.flush()
    if not args.no_step_summary and os.environ.get("GITHUB_STEP_SUMMARY"):
        _step_summary(report, os.environ["GITHUB_STEP_SUMMARY"])
    return exit_code(report, args)


def _render(report: object, args: argparse.Namespace, out: TextIO) -> None:
    fmt = args.format
    if fmt == "json":
        from .render.json_out import render

        out.write(render(report))  # type: ignore[arg-type]
    elif fmt == "markdown":
        from .render.markdown import render as md

        out.write(md(report))  # type: ignore[arg-type]
    elif fmt == "github":
        from .render.github import render as gh

        out.write(gh(report))  # type: ignore[arg-type]
    else:
        from .render.layout import build, to_plain

        lines = build(report)  # type: ignore[arg-type]
        if _use_color(args.color, out):
            from .render.terminal import write

            write(lines, out)
        else:
            out.write(to_plain(lines))


def _use_color(choice: str, out: TextIO) -> bool:
    if choice == "never" or os.environ.get("NO_COLOR"):
        return False
    if choice == "always":
        return True
    try:
        return out.isatty() and os.environ.get("TERM") != "dumb"
    except (ValueError, OSError):
        return False


def _step_summary(report: object, path: str) -> None:
    from .render.markdown import render as md

    try:
        with open(path, "a", encoding="utf-8") as f:
            f.write(md(report) + "\n")  # type: ignore[arg-type]
    except OSError as exc:
        _err(f"warning: cannot append to GITHUB_STEP_SUMMARY ({path}): {exc.strerror}")


def exit_code(report: object, args: argparse.Namespace) -> int:
    from .report import Report

    assert isinstance(report, Report)
    if args.exit_zero:
        return EXIT_NONE
    known, unknown = bool(report.findings), bool(report.unrecognized)
    if args.fail_on == "known":
        return EXIT_KNOWN if known else EXIT_NONE
    if args.fail_on == "unrecognized":
        return EXIT_UNRECOGNIZED if unknown else EXIT_NONE
    return report.exit_code
