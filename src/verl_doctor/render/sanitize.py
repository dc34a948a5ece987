"""Making log text safe to show: escape sequences never reach the terminal.

Well-formed colour/cursor/OSC sequences are removed; any other control character, C1 control
or bidi override left in the text is shown visibly (`\\x1b`, `\\u202e`) instead of acting.
"""

from __future__ import annotations

import re

from verl_doctor.engine.normalize import strip_ansi

_UNSAFE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]")
MAX_SHOWN = 400


def _escape(m: re.Match[str]) -> str:
    code = ord(m.group(0))
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str, limit: int | None = MAX_SHOWN) -> str:
    """`text` without escape sequences, tabs as spaces, cut to `limit` characters."""
    text = strip_ansi(text).replace("\t", "    ").rstrip("\r\n")
    text = _UNSAFE.sub(_escape, text)
    if limit is not None and len(text) > limit:
        text = text[: limit - 1] + "…"
    return text


def escape_json_text(serialized: str) -> str:
    """Escape, in already-serialized JSON, the characters json.dumps leaves raw but terminals act on."""
    return re.sub(
        r"[\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]",
        lambda m: f"\\u{ord(m.group(0)):04x}",
        serialized,
    )
