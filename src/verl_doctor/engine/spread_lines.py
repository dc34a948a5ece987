"""A launch command or Hydra's override list that a log spread over lines, read as the one line it
was: a command continued with `\\` (a pasted launch script, `set -x`), and a command or an
override list that a terminal's hard wrap or a page's word wrap cut. The run's settings are read
from that one line; the lines themselves are still scanned as they stand.
"""

from __future__ import annotations

from collections.abc import Iterator

from verl_doctor.common.lazy_re import lazy_compile
from verl_doctor.engine.normalize import WRAPPED_WIDTH, paste_margin, strip_ansi

MAX_SPREAD_LINES = 200  # lines of one command or override list read as one
# A verl entry point or a script the shell was asked to run.
_ENTRY = r"(?:-m\s+(?:verl|recipe)\.[\w.]{1,200}|[\w./~-]{1,300}\.py)\b"
_CONTINUED_COMMAND = lazy_compile(_ENTRY + r".*\\\s*$")
# A command line as typed: a Python (or launcher) running a verl module or a script.
_COMMAND = lazy_compile(
    r"(?:^|\s)(?:\S*/)?(?:python[\d.]*|torchrun|deepspeed|accelerate\s+launch)\s+(?:\S+\s+){0,12}?" + _ENTRY
)
# One word of a command line's arguments: an override (its key may be the rest of one a wrap
# cut), a flag, a number, or a path or piece of shell (`$(cat`, `~/base-args)`, `"a b"`).
_ARG = r"""(?:[+~]{0,2}[\w.\-/@]*=\S*|--?[A-Za-z][\w.\-]*(?:=\S*)?|\d[\w.]*|\S*[/$()"'{}\[\]]\S*)"""
# ... and what a pipe or redirection after them runs or names (`2>&1 | tee run.log`).
_ARGS_ONLY = lazy_compile(rf"\s*{_ARG}(?:\s+{_ARG})*(?:\s+(?:\d?>|\||&&|;).*)?\s*")
_HYDRA_LIST = "Error executing job with overrides:"


def starts_spread_line(raw: str) -> bool:
    """Whether `raw` (a whole line) may begin a command or override list spread over lines: the
    cheap question asked of every candidate line before `spread_line`."""
    return ("-m " in raw or ".py" in raw or _HYDRA_LIST in raw) and 'File "' not in raw


def spread_line(buf: bytes | bytearray, first: str, le: int, end: int) -> str | None:
    """`first` (the line that ends at `le` in `buf`) joined with the lines after it that go on
    with it, up to `end`; None when no line goes on with it."""
    text = strip_ansi(first).rstrip("\r ")
    # (the margin a paste put before every line is taken off the lines that go on with the first,
    # so that a wrap's cut pieces meet again)
    margin = paste_margin(text)
    text = text[len(margin) :]
    if text.endswith("\\") and _CONTINUED_COMMAND.search(text):
        return _continued_command(buf, text, le, end, margin)
    if _HYDRA_LIST in text:
        return _override_list(buf, text, le, end, margin)
    if _COMMAND.search(text):
        return _wrapped_command(buf, text, le, end, margin)
    return None


def _next_lines(buf: bytes | bytearray, pos: int, end: int, margin: str) -> Iterator[str]:
    """The lines from `pos` on (without colour codes and line ends, and without the first line's
    `margin` where they start with it), up to MAX_SPREAD_LINES."""
    for _ in range(MAX_SPREAD_LINES):
        if pos >= end:
            return
        nl = buf.find(b"\n", pos, end)
        line = strip_ansi(bytes(buf[pos : nl if nl >= 0 else end]).decode("utf-8", "replace")).rstrip("\r")
        yield line[len(margin) :] if margin and line.startswith(margin) else line
        if nl < 0:
            return
        pos = nl + 1


def _continued_command(buf: bytes | bytearray, first: str, le: int, end: int, margin: str) -> str:
    """The command joined as the shell joins lines that end in a backslash."""
    parts = [first.removesuffix("\\")]
    for text in _next_lines(buf, le + 1, end, margin):
        text = text.rstrip()
        parts.append(text.removesuffix("\\"))
        if not text.endswith("\\"):
            break
    return " ".join(p.strip() for p in parts if p.strip())


def _wrapped_command(buf: bytes | bytearray, first: str, le: int, end: int, margin: str) -> str | None:
    """The command with the lines a wrap cut from it: lines of nothing but arguments. A terminal
    cuts at its width (every cut line as long as the first), a page at a space it drops."""
    parts = [first]
    width = len(first) if len(first) >= WRAPPED_WIDTH else 0  # where a terminal may have cut it
    for text in _next_lines(buf, le + 1, end, margin):
        words = text.split()
        if not words:
            break
        # (a terminal's cut splits a word: the end of one line and the start of the next are
        # pieces of words, whatever they look like)
        if width and len(parts[-1]) == width:
            words = words[1:]
        if width and len(text) == width:
            words = words[:-1]
        if words and _ARGS_ONLY.fullmatch(" ".join(words)) is None:
            break
        parts.append(text)
    if len(parts) == 1:
        return None
    # (one cut line alone cannot tell the two apart: read as a page's, the commoner paste)
    widths = {len(p) for p in parts[:-1]}
    if len(parts) > 2 and len(widths) == 1 and len(first) >= WRAPPED_WIDTH:
        return "".join(parts)
    return " ".join(p.strip() for p in parts)


def _override_list(buf: bytes | bytearray, first: str, le: int, end: int, margin: str) -> str | None:
    """Hydra's override list with the lines a wrap cut from it, up to the `]` that closes it. A
    word wrap cuts at the space after an item's comma, a hard wrap anywhere."""
    if _closed(first.partition(_HYDRA_LIST)[2]):
        return None
    joined = first
    for text in _next_lines(buf, le + 1, end, margin):
        # (`overrides:` / `['a=1',` / `'b=2']`: the spaces a word wrap cut at)
        cut_at_space = joined.endswith((",", ":")) and not text[:1].isspace()
        joined += (" " if cut_at_space else "") + text
        if _closed(joined.partition(_HYDRA_LIST)[2]):
            return joined
    return None


def _closed(rest: str) -> bool:
    """Whether the printed list in `rest` (what follows Hydra's words) is whole."""
    start = rest.find("[")
    return start >= 0 and list_end(rest[start:]) >= 0


def list_end(text: str) -> int:
    """Index of the `]` closing the Python list literal at the start of `text`, or -1."""
    quote: str | None = None
    escaped = False
    for i, ch in enumerate(text):
        if quote:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "]":
            return i
    return -1
