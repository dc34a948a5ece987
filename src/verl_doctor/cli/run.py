"""`verl-doctor run -- CMD`: run a training command, explain its failure as it happens."""

from __future__ import annotations

import sys

from verl_doctor.cli.stderr import error_line, skipped_rules
from verl_doctor.common.exit_codes import ExitCode

TYPE_CHECKING = False
if TYPE_CHECKING:
    from verl_doctor.cli.options import Values


def main(values: Values) -> int:
    from verl_doctor.catalog.load import load_catalog
    from verl_doctor.cli.live import run_command
    from verl_doctor.common.i18n import choose_lang

    command = list(values.command)
    if not command:
        error_line("run needs a command after --, e.g. verl-doctor run -- bash train.sh")
        return ExitCode.USAGE
    if values.check:
        code = _check_first(command, values)
        if code:
            return code
    catalog = load_catalog(
        extra_dirs=values.rules, include_user=not values.no_user_rules or bool(values.rules)
    )
    skipped_rules(catalog)
    return run_command(command, catalog, choose_lang(values.lang), values)


def _check_first(command: list[str], values: Values) -> int:
    """`run --check`: the check's report on stderr (stdout is the command's); 0 to launch, else
    the exit code to stop with (1: verl would fail, 2: nothing to check)."""
    from verl_doctor.cli.check import UsageError, check
    from verl_doctor.cli.emit import emit

    try:
        report, code = check(command, verl_version=values.verl_version, lang=values.lang)
    except UsageError as exc:
        error_line(f"run --check: {exc}")
        return ExitCode.USAGE
    if report.findings or code:
        emit(report, values, sys.stderr, step_summary=False)
    if code:
        error_line("the check found problems verl would stop on; not launching")
    return code
