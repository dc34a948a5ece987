"""A progress line on stderr while a long input is read: bytes read, rate, findings so far.

Shown only when stderr is a terminal, never in CI (the `CI` variable), never with JSON output,
and only once reading has taken longer than `DELAY_S`, so a short paste or a pipe into another
program sees nothing. The line is redrawn in place and erased before the report is printed.
"""

from __future__ import annotations

import os
import sys
import time

TYPE_CHECKING = False  # typing is only needed by type checkers; importing it costs start-up time
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TextIO

DELAY_S = 1.0  # reading shorter than this shows nothing
EVERY_S = 0.25  # redraw at most this often
DELAY_ENV = "VERL_DOCTOR_PROGRESS_DELAY"  # seconds before the line appears (tests set 0)


def wanted(output_format: str, stream: TextIO | None = None) -> bool:
    stream = stream if stream is not None else sys.stderr
    if output_format == "json" or os.environ.get("CI") or os.environ.get("TERM") == "dumb":
        return False
    try:
        return stream is not None and stream.isatty()
    except (ValueError, OSError):
        return False


class Progress:
    """Call with the bytes read so far; `done()` erases the line."""

    def __init__(self, findings: Callable[[], int], stream: TextIO | None = None) -> None:
        self.findings = findings
        self.stream = stream if stream is not None else sys.stderr
        self.start = time.monotonic()
        self.delay = _delay()
        self.last = 0.0
        self.shown = False

    def __call__(self, name: str, done_bytes: int) -> None:
        now = time.monotonic()
        elapsed = now - self.start
        if elapsed < self.delay or now - self.last < EVERY_S:
            return
        self.last = now
        rate = done_bytes / elapsed if elapsed > 0 else 0.0
        count = self.findings()
        noun = "finding" if count == 1 else "findings"
        self._write(
            f"\rverl-doctor: {_short(name)}: {_size(done_bytes)} read, {_size(rate)}/s, "
            f"{count} {noun} so far\x1b[K"
        )
        self.shown = True

    def done(self) -> None:
        if self.shown:
            self._write("\r\x1b[K")
            self.shown = False

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):
            pass


def _delay() -> float:
    try:
        return float(os.environ.get(DELAY_ENV, DELAY_S))
    except ValueError:
        return DELAY_S


def _size(n: float) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000
    return f"{n:.1f} GB"  # pragma: no cover - the loop always returns


def _short(name: str) -> str:
    """The input's name, printable and short (it is shown on a terminal)."""
    name = "".join(ch if ch.isprintable() else "?" for ch in name)
    return name if len(name) <= 40 else "..." + name[-37:]
