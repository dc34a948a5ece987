"""`verl-doctor explain`: read logs, print the diagnosis, exit with its code.

This is the hot path (a 20-line paste must be answered faster than importing typer and rich),
so it parses the usual command lines itself (argparse only for help and usage errors) and
imports rich only to draw in a terminal.
The typer app in cli.py forwards `explain` here, so these options are defined once.

Exit codes: 0 no error found, 1 a known error, 3 errors found but none recognized,
2 usage error, no input could be read, or an input was cut short (a truncated or corrupt gzip,
analysed up to its last readable byte), 130 interrupted, 4 internal error.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from .stderr import error_line as _err

TYPE_CHECKING = False  # typing is only needed by type checkers; importing it costs start-up time
if TYPE_CHECKING:
    import argparse
    from typing import Any, TextIO

    from .report import Report

EXIT_NONE, EXIT_KNOWN, EXIT_USAGE, EXIT_UNRECOGNIZED, EXIT_INTERNAL = 0, 1, 2, 3, 4
FORMATS = ("text", "json", "markdown", "github")
PASTE_PROMPT = "Paste the log, then press Ctrl-D (Ctrl-Z then Enter on Windows) to get the diagnosis."


class Opt:
    """One option of `explain`; the table below feeds both parsers, so they cannot drift."""

    __slots__ = ("flags", "dest", "kind", "choices", "default", "metavar", "help")

    def __init__(
        self,
        flags: tuple[str, ...],
        kind: str,
        help: str,  # noqa: A002 - argparse's own word
        choices: tuple[str, ...] | None = None,
        default: Any = None,
        metavar: str | None = None,
    ) -> None:
        self.flags, self.kind, self.help = flags, kind, help
        self.dest = flags[-1].lstrip("-").replace("-", "_")
        self.choices, self.default, self.metavar = choices, default, metavar


# kind: "flag" (store_true), "choice", "float", "append" (repeatable value)
OPTIONS = (
    Opt(("-f", "--format"), "choice", "output format (default: text)", FORMATS, "text"),
    Opt(
        ("--lang",),
        "choice",
        "language of causes and fixes (default: from LC_ALL/LANGUAGE/LANG)",
        ("en", "zh"),
    ),
    Opt(
        ("--rules",),
        "append",
        "extra rule folder (repeatable); also VERL_DOCTOR_RULES and ~/.config/verl-doctor/rules",
        metavar="DIR",
    ),
    Opt(("--no-user-rules",), "flag", "use the built-in rules only"),
    Opt(
        ("--allow-slow-rules",),
        "flag",
        "also load user rules whose regexes `rules lint` finds catastrophically slow",
    ),
    Opt(("--binary",), "flag", "read files that look binary instead of skipping them"),
    Opt(("--no-redact",), "flag", "show secrets (API keys, tokens) unmasked"),
    Opt(
        ("--color",),
        "choice",
        "colour in text output (default: auto: in a terminal, unless NO_COLOR is set)",
        ("auto", "always", "never"),
        "auto",
    ),
    Opt(("--exit-zero",), "flag", "exit 0 after any successful analysis"),
    Opt(
        ("--fail-on",),
        "choice",
        "what makes the exit code non-zero (default: any error; 'warning': warnings too)",
        ("any", "known", "unrecognized", "warning"),
        "any",
    ),
    Opt(("--no-step-summary",), "flag", "do not append the markdown report to $GITHUB_STEP_SUMMARY"),
    Opt(("--follow",), "flag", "keep reading FILE as it grows, report errors as they appear"),
    Opt(
        ("--until-idle",),
        "float",
        "with --follow: stop after this many seconds without new output",
        metavar="SECONDS",
    ),
    Opt(("--draft-rule",), "flag", "print a rule YAML drafted from the first unrecognized error"),
    Opt(("--env",), "flag", "also probe this machine and use it to confirm findings"),
)
_BY_FLAG = {flag: opt for opt in OPTIONS for flag in opt.flags}


class Options:
    """The parsed command line (the attributes argparse would give, without importing it)."""

    files: list[str]
    format: str
    lang: str | None
    rules: list[str]
    no_user_rules: bool
    allow_slow_rules: bool
    binary: bool
    no_redact: bool
    color: str
    exit_zero: bool
    fail_on: str
    no_step_summary: bool
    follow: bool
    until_idle: float | None
    draft_rule: bool
    env: bool

    def __init__(self, **values: Any) -> None:
        self.files = []
        for opt in OPTIONS:
            if opt.kind == "append":
                setattr(self, opt.dest, [])
            else:
                setattr(self, opt.dest, False if opt.kind == "flag" else opt.default)
        self.__dict__.update(values)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Options) and vars(self) == vars(other)

    def __repr__(self) -> str:
        return f"Options({vars(self)!r})"


def build_parser() -> argparse.ArgumentParser:
    """The full argparse parser: help text, and the error message for any command line that
    the fast parser leaves to it."""
    import argparse

    class OneLineErrors(argparse.ArgumentParser):
        def error(self, message: str) -> Any:  # argparse prints the whole usage block first
            self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see --help)\n")

    p = OneLineErrors(
        prog="verl-doctor explain",
        description="Explain why a verl run failed: known errors, their cause and fixes.",
        epilog="Exit codes: 0 no error found, 1 known error, 3 error found but none recognized, "
        "2 usage error, unreadable input or an input cut short (truncated gzip), 130 interrupted.",
    )
    p.add_argument(
        "files", nargs="*", metavar="FILE", help="log files (plain or gzip); '-' or nothing reads stdin"
    )
    for opt in OPTIONS:
        extra: dict[str, Any] = {"dest": opt.dest, "help": opt.help}
        if opt.kind == "flag":
            extra["action"] = "store_true"
        elif opt.kind == "append":
            extra.update(action="append", default=[], metavar=opt.metavar)
        elif opt.kind == "float":
            extra.update(type=float, default=opt.default, metavar=opt.metavar)
        else:
            extra.update(choices=opt.choices, default=opt.default)
        p.add_argument(*opt.flags, **extra)
    return p


def parse_fast(argv: Sequence[str]) -> Options | None:
    """Parse the common command lines without argparse (whose import and set-up cost ~8 ms,
    a sixth of answering a paste). None means "let argparse decide": help, an unknown or
    abbreviated option, a missing or invalid value; argparse then prints its usual message."""
    values: dict[str, Any] = {"files": [], "rules": []}
    i, only_files = 0, False
    while i < len(argv):
        arg = argv[i]
        i += 1
        if only_files or arg == "-" or not arg.startswith("-"):
            values["files"].append(arg)
            continue
        if arg == "--":
            only_files = True
            continue
        name, has_inline, inline = arg.partition("=") if arg.startswith("--") else (arg, "", "")
        opt = _BY_FLAG.get(name)
        if opt is None and not arg.startswith("--") and arg[:2] in _BY_FLAG:
            name, has_inline, inline = arg[:2], "=", arg[2:]  # -fjson
            opt = _BY_FLAG[name]
        if opt is None:
            return None
        if opt.kind == "flag":
            if has_inline:
                return None
            values[opt.dest] = True
            continue
        if has_inline:
            value = inline
        elif i < len(argv) and not argv[i].startswith("-"):
            value = argv[i]
            i += 1
        else:
            return None
        if opt.kind == "append":
            values[opt.dest].append(value)
        elif opt.kind == "float":
            try:
                values[opt.dest] = float(value)
            except ValueError:
                return None
        elif opt.choices is not None and value not in opt.choices:
            return None
        else:
            values[opt.dest] = value
    return Options(**values)


def parse_args(argv: Sequence[str]) -> Options:
    fast = parse_fast(argv)
    if fast is not None:
        return fast
    return parse_with_argparse(argv)


def parse_with_argparse(argv: Sequence[str]) -> Options:
    """argparse's reading of the command line; it exits with its message on a usage error
    (exit 2) or with the help (exit 0). Options and files may be mixed; after `--` everything
    is a file (argparse's intermixed mode would still read options there)."""
    parser = build_parser()
    argv = list(argv)
    namespace = parser.parse_args(argv) if "--" in argv else parser.parse_intermixed_args(argv)
    return Options(**vars(namespace))


def main(argv: Sequence[str]) -> int:
    args = parse_args(argv)
    try:
        return _explain(args)
    except KeyboardInterrupt:
        return 130


def _explain(args: Options) -> int:
    from .catalog import load_catalog
    from .engine import Session
    from .i18n import choose_lang
    from .sources import InputError, open_path, open_stdin

    if args.until_idle is not None and not args.follow:
        _err("--until-idle needs --follow")
        return EXIT_USAGE
    lang = choose_lang(args.lang)
    catalog = load_catalog(
        extra_dirs=args.rules,
        include_user=not args.no_user_rules or bool(args.rules),
        allow_slow_rules=args.allow_slow_rules,
    )
    for problem in catalog.problems:
        _err(f"warning: skipped broken rule: {problem}")
    if args.follow:
        from .live import follow

        return follow(args, catalog, lang)
    session = Session(catalog, lang, read_binary=args.binary)
    inputs = list(args.files) or ["-"]
    read_any = False
    progress = None
    if progress_wanted(args.format):
        from .progress import Progress

        progress = Progress(lambda: len(session.analyzer.states))
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
            # Nothing is drawn while someone types or pastes into the terminal.
            ok = session.read(source, progress=None if source.interactive else progress)
        finally:
            source.close()
            if progress is not None:
                progress.done()
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
    code = emit(report, args)
    if session.cut_inputs and not args.exit_zero:
        return EXIT_USAGE  # the end of an input is missing: "no error found" would not be true
    return code


def progress_wanted(output_format: str) -> bool:
    """Cheap checks first: the progress module is imported only for a terminal."""
    if output_format == "json" or os.environ.get("CI"):
        return False
    try:
        if not sys.stderr.isatty():
            return False
    except (AttributeError, ValueError, OSError):
        return False
    from .progress import wanted

    return wanted(output_format)


def _stdin_is_tty() -> bool:
    try:
        return sys.stdin is not None and sys.stdin.isatty()
    except (ValueError, OSError):
        return False


def emit(report: Report, args: Options, stream: TextIO | None = None) -> int:
    """Render to stdout (and the GitHub step summary), return the exit code."""
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


def _render(report: Report, args: Options, out: TextIO) -> None:
    if args.format == "text" and _use_color(args.color, out):
        from .render.layout import build
        from .render.terminal import write

        write(build(report), out, force=args.color == "always")
        return
    from .render import render_text

    out.write(render_text(report, args.format))


def _use_color(choice: str, out: TextIO) -> bool:
    if choice != "auto":  # the flag is the user's explicit word: it wins over NO_COLOR
        return choice == "always"
    if os.environ.get("NO_COLOR"):
        return False
    try:
        return out.isatty() and os.environ.get("TERM") != "dumb"
    except (ValueError, OSError):
        return False


def _step_summary(report: Report, path: str) -> None:
    from .render.markdown import render as md

    try:
        with open(path, "a", encoding="utf-8") as f:
            f.write(md(report) + "\n")
    except OSError as exc:
        _err(f"warning: cannot append to GITHUB_STEP_SUMMARY ({path}): {exc.strerror}")


def exit_code(report: Report, args: Options) -> int:
    if args.exit_zero:
        return EXIT_NONE
    known, unknown = bool(report.findings), bool(report.unrecognized)
    if args.fail_on == "known":
        return EXIT_KNOWN if known else EXIT_NONE
    if args.fail_on == "unrecognized":
        return EXIT_UNRECOGNIZED if unknown else EXIT_NONE
    if args.fail_on == "warning" and report.warnings and report.exit_code == EXIT_NONE:
        return EXIT_KNOWN
    return report.exit_code
