"""`verl-doctor explain`: read logs, print the diagnosis, exit with its code.

This is the hot path (a 20-line paste must be answered faster than importing typer and rich):
it imports rich only to draw in a terminal, and the engine only what the input needs.
"""

from __future__ import annotations

import os
import sys

from verl_doctor.cli.emit import emit, explain_exit_code
from verl_doctor.cli.stderr import error_line, skipped_rules
from verl_doctor.common.exit_codes import ExitCode

TYPE_CHECKING = False
if TYPE_CHECKING:
    from verl_doctor.cli.options import Values

PASTE_PROMPT = "Paste the log, then press Ctrl-D (Ctrl-Z then Enter on Windows) to get the diagnosis."


def main(values: Values) -> int:
    try:
        return _explain(values)
    except KeyboardInterrupt:
        return ExitCode.INTERRUPTED


def _explain(args: Values) -> int:
    from verl_doctor.catalog.load import load_catalog
    from verl_doctor.common.i18n import choose_lang
    from verl_doctor.engine.inputs import InputError, open_path, open_stdin
    from verl_doctor.engine.session import Session

    if args.until_idle is not None and not args.follow:
        error_line("--until-idle needs --follow")
        return ExitCode.USAGE
    lang = choose_lang(args.lang)
    catalog = load_catalog(
        extra_dirs=args.rules,
        include_user=not args.no_user_rules or bool(args.rules),
        allow_slow_rules=args.allow_slow_rules,
    )
    skipped_rules(catalog)
    if args.follow:
        from verl_doctor.cli.live import follow

        return follow(args, catalog, lang)
    session = Session(catalog, lang, read_binary=args.binary)
    inputs = list(args.files) or ["-"]
    read_any = False
    progress = None
    if progress_wanted(args.format):
        from verl_doctor.cli.progress import Progress

        progress = Progress(lambda: len(session.analyzer.states))
    for name in inputs:
        try:
            if name == "-":
                if _stdin_is_tty():
                    error_line(PASTE_PROMPT)
                source = open_stdin()
            else:
                source = open_path(name)
        except InputError as exc:
            session.note_error(str(exc), name)
            error_line(str(exc))
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
            error_line(session.input_errors[-1].message)
    report = session.report()
    if args.env:
        from verl_doctor.env.fusion import confirm_with_probes

        report = confirm_with_probes(report)
    if not read_any and not report.sources:
        return ExitCode.USAGE
    emit(report, args)
    if session.cut_inputs and not args.exit_zero:
        return ExitCode.USAGE  # the end of an input is missing: "no error found" would not be true
    return explain_exit_code(report, args)


def progress_wanted(output_format: str) -> bool:
    """Cheap checks first: the progress module is imported only for a terminal."""
    if output_format == "json" or os.environ.get("CI"):
        return False
    try:
        if not sys.stderr.isatty():
            return False
    except (AttributeError, ValueError, OSError):
        return False
    from verl_doctor.cli.progress import wanted

    return wanted(output_format)


def _stdin_is_tty() -> bool:
    try:
        return sys.stdin is not None and sys.stdin.isatty()
    except (ValueError, OSError):
        return False
