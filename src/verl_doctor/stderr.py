"""The one-line message every command prints on stderr for a problem the user can fix."""

from __future__ import annotations

import sys


def error_line(message: str) -> None:
    """`verl-doctor: MESSAGE` on stderr; a closed or broken stderr is not a second error."""
    try:
        sys.stderr.write(f"verl-doctor: {message}\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
