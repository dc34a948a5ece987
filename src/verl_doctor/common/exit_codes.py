"""Every exit code the commands return, named once."""

from __future__ import annotations

from enum import IntEnum  # `re` imports enum already: free on the start-up path


class ExitCode(IntEnum):
    OK = 0  # explain: no error found; check: the command passes; env: no probe failed
    FOUND = 1  # explain: a known error; check: verl would fail; env: a probe failed; lint: problems
    USAGE = 2  # a usage error, nothing readable (or an input cut short), nothing to check
    UNRECOGNIZED = 3  # explain: errors found, none recognized
    INTERNAL = 4  # a bug in verl-doctor, said in one line
    INTERRUPTED = 130  # Ctrl-C
    BROKEN_PIPE = 141  # stdout closed early (`... | head`)


EXIT_CODES_HELP = (
    "Exit codes: 0 no error found (check: the command passes), 1 a known error (check: verl would "
    "fail), 3 errors found but none recognized, 2 usage error, unreadable input or an input cut "
    "short, 4 internal error, 130 interrupted."
)
