"""The `verl-doctor` console script.

`explain` (the command people run on every failure) and `check` go straight to their
argparse-based implementations, which keeps start-up to the interpreter, `regex` and the
cached catalog; every other command loads the typer app. No Python traceback reaches the user: unexpected
errors print one line (set VERL_DOCTOR_DEBUG=1 for the traceback) and exit 4.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence


def _quiet_broken_pipe() -> int:
    # stdout was closed early (`... | head`): say nothing, and stop Python's own flush error.
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
    return 141


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        if args and args[0] == "explain":
            from .explain_cmd import main as explain_main

            return explain_main(args[1:])
        if args and args[0] == "check":
            from .check_cmd import main as check_main

            return check_main(args[1:])
        from .cli import run_app

        return run_app(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return _quiet_broken_pipe()
    except SystemExit as exc:
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else 2)
    except Exception as exc:  # noqa: BLE001 - the one place that turns bugs into a clean line
        if os.environ.get("VERL_DOCTOR_DEBUG"):
            raise
        try:
            sys.stderr.write(
                f"verl-doctor: internal error: {exc.__class__.__name__}: {exc} "
                "(set VERL_DOCTOR_DEBUG=1 to see the traceback)\n"
            )
        except (OSError, ValueError):
            pass
        return 4


def console_main() -> None:
    sys.exit(main())
