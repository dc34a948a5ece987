"""`verl-doctor env`: the machine checked for verl, as text or JSON."""

from __future__ import annotations

import sys

from verl_doctor.cli.stderr import error_line
from verl_doctor.common.exit_codes import ExitCode

TYPE_CHECKING = False
if TYPE_CHECKING:
    from verl_doctor.cli.options import Values


def main(values: Values) -> int:
    """Print the report; OK no probe failed, FOUND one did, USAGE a bad --timeout or --python."""
    from verl_doctor.env import probe, render

    if not values.timeout > 0:
        error_line("env: --timeout must be a positive number of seconds")
        return ExitCode.USAGE
    if values.python is not None:
        from verl_doctor.env.collect import resolve_python

        exe, error = resolve_python(values.python)
        if exe is None:
            error_line(f"env: {error}")
            return ExitCode.USAGE
    report, exe, _ = probe(values.timeout, values.python)
    if values.format == "json":
        sys.stdout.write(render.to_json(report))
    else:
        render.write_text(report, exe, sys.stdout)
    sys.stdout.flush()
    return report.exit_code
