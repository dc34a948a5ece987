"""One way out for every report: masked, rendered in the chosen format (coloured in a
terminal), written to its stream or file, and appended to the GitHub step summary."""

from __future__ import annotations

import os
import sys

from verl_doctor.cli.stderr import error_line
from verl_doctor.common.exit_codes import ExitCode

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TextIO

    from verl_doctor.cli.options import Values
    from verl_doctor.engine.report import Report


def emit(
    report: Report,
    values: Values,
    stream: TextIO | None = None,
    path: str | None = None,
    step_summary: bool = True,
) -> bool:
    """Render `report` as `values` asks (format, colour, redaction, --draft-rule) to `path`,
    else `stream`, else stdout; False when `path` could not be written."""
    if not values.no_redact:
        from verl_doctor.engine.redact import redact_report

        report = redact_report(report)
    if path is not None:
        try:
            with open(path, "w", encoding="utf-8") as f:
                _render(report, values, f, color="never")
        except OSError as exc:
            error_line(f"cannot write {path}: {(exc.strerror or str(exc)).lower()}")
            return False
    else:
        out = stream or sys.stdout
        _render(report, values, out, values.color or "auto")
        out.flush()
    if step_summary and not values.no_step_summary and os.environ.get("GITHUB_STEP_SUMMARY"):
        _step_summary(report, os.environ["GITHUB_STEP_SUMMARY"])
    return True


def _render(report: Report, values: Values, out: TextIO, color: str) -> None:
    if values.draft_rule:
        from verl_doctor.authoring.draft import draft_rule

        out.write(draft_rule(report))
        return
    fmt = values.format or "text"
    if fmt == "text" and _use_color(color, out):
        from verl_doctor.render.layout import build
        from verl_doctor.render.terminal import write

        write(build(report), out, force=color == "always")
        return
    from verl_doctor.render import render_text

    out.write(render_text(report, fmt))


def _use_color(choice: str, out: TextIO) -> bool:
    if choice != "auto":  # the flag is the user's explicit word: it wins over NO_COLOR
        return choice == "always"
    if os.environ.get("NO_COLOR"):
        return False
    try:
        return out.isatty() and os.environ.get("TERM") != "dumb"
    except (ValueError, OSError, AttributeError):
        return False


def _step_summary(report: Report, path: str) -> None:
    from verl_doctor.render.markdown import render as md

    try:
        with open(path, "a", encoding="utf-8") as f:
            f.write(md(report) + "\n")
    except OSError as exc:
        error_line(f"warning: cannot append to GITHUB_STEP_SUMMARY ({path}): {exc.strerror}")


def explain_exit_code(report: Report, values: Values) -> int:
    """The exit code `explain` earns: the report's, shaped by --exit-zero and --fail-on."""
    if values.exit_zero:
        return ExitCode.OK
    known, unknown = bool(report.findings), bool(report.unrecognized)
    if values.fail_on == "known":
        return ExitCode.FOUND if known else ExitCode.OK
    if values.fail_on == "unrecognized":
        return ExitCode.UNRECOGNIZED if unknown else ExitCode.OK
    if values.fail_on == "warning" and report.warnings and report.exit_code == ExitCode.OK:
        return ExitCode.FOUND
    return report.exit_code
