"""The `verl-doctor` console script.

`explain` (the command people run on every failure) and `check` are parsed from their
declarations without typer when the command line is a usual one, which keeps start-up to the
interpreter and the cached catalog; help, usage errors and every other command go through the
typer app. No Python traceback reaches the user: unexpected errors print one line (set
VERL_DOCTOR_DEBUG=1 for the traceback) and exit 4.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from verl_doctor.common.exit_codes import ExitCode


def _quiet_broken_pipe() -> int:
    # stdout was closed early (`... | head`): say nothing, and stop Python's own flush error.
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
    return ExitCode.BROKEN_PIPE


def dispatch(args: list[str]) -> int:
    """Run one command line: the fast reading where it applies, else typer's."""
    if args and args[0] in ("explain", "check"):
        from verl_doctor.cli import commands, options

        command = options.EXPLAIN if args[0] == "explain" else options.CHECK
        values = options.parse_fast(command, args[1:])
        if values is not None:
            return commands.WORK[command.name](values)
    from verl_doctor.cli.app import run_app

    return run_app(args)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        return int(dispatch(args))
    except KeyboardInterrupt:
        return ExitCode.INTERRUPTED
    except BrokenPipeError:
        return _quiet_broken_pipe()
    except SystemExit as exc:
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else ExitCode.USAGE)
    except Exception as exc:  # noqa: BLE001 - the one place that turns bugs into a clean line
        if os.environ.get("VERL_DOCTOR_DEBUG"):
            raise
        from verl_doctor.cli.stderr import error_line

        error_line(
            f"internal error: {exc.__class__.__name__}: {exc} (set VERL_DOCTOR_DEBUG=1 to see the traceback)"
        )
        return ExitCode.INTERNAL


def console_main() -> None:
    sys.exit(main())
