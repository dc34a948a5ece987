"""Rich output for a terminal: the same lines as the plain text, coloured.

Segments become `rich.text.Text` spans, never markup, so `[bold]` or `[/]` in a log line shows
as written."""

from __future__ import annotations

from verl_doctor.render.layout import StyledLine

TYPE_CHECKING = False  # typing is only needed by type checkers; importing it costs start-up time
if TYPE_CHECKING:
    from typing import TextIO

_STYLES = {
    "bold": "bold",
    "dim": "dim",
    "code": "bold red",
    "category": "magenta",
    "title": "bold",
    "label": "cyan",
    "evidence": "yellow",
    "command": "green",
    "pitfall": "red",
    "warn": "yellow",
    "": "",
}


def write(lines: list[StyledLine], stream: TextIO, force: bool = False) -> None:
    """Draw the lines; `force` colours a stream that is not a terminal (`--color always`)."""
    from rich.console import Console
    from rich.text import Text

    console = Console(
        file=stream,
        highlight=False,
        emoji=False,
        markup=False,
        soft_wrap=True,
        force_terminal=True if force else None,
        no_color=False if force else None,
    )
    for line in lines:
        text = Text()
        for content, style in line:
            text.append(content, style=_STYLES.get(style, ""))
        console.print(text)
