"""The one-line messages commands print on stderr: a closed or broken stderr is not a second error."""

from __future__ import annotations

import sys


def say(text: str) -> None:
    """One line on stderr, as it is."""
    try:
        sys.stderr.write(text + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def error_line(message: str) -> None:
    """`verl-doctor: MESSAGE` on stderr, for a problem the user can fix."""
    say(f"verl-doctor: {message}")


def skipped_rules(catalog: object) -> None:
    """One warning per broken rule file the catalog skipped."""
    for problem in getattr(catalog, "problems", ()):
        error_line(f"warning: skipped broken rule: {problem}")
