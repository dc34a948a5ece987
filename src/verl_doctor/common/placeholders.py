"""Filling `{name}`, `{name|fallback}`, `{?name:text}` and `{!name:text}` placeholders in causes
and fix steps from the named groups a rule's signatures and facts captured (the key the user
misspelt, the GPUs requested)."""

from __future__ import annotations

import re

_PLACEHOLDER = re.compile(r"\{(\w+)(?:\|([^{}]*))?\}")
# `{?name:text}` shows `text` (which may use `{name}`) only when `name` is known; `{!name:text}`
# only when it is not (the general reading a specific one replaces). `{?a,b:text}` shows when
# any of the names is known, `{!a,b:text}` when none is. Conditionals may nest.
_CONDITIONAL = re.compile(r"\{([?!])(\w+(?:,\w+)*):((?:[^{}]|\{\w+(?:\|[^{}]*)?\})*)\}")


def fill_placeholders(text: str, values: dict[str, str], keep_unknown: bool = False) -> str:
    """Known names are replaced; an unknown one takes its fallback, or stays as written when
    `keep_unknown` (commands show `<value>`-style slots to fill), else becomes `?`."""

    def sub(m: re.Match[str]) -> str:
        value = values.get(m.group(1))
        if value is not None:
            return value
        if m.group(2) is not None:
            return m.group(2)
        return m.group(0) if keep_unknown else "?"

    if "{" not in text:
        return text

    def choose(m: re.Match[str]) -> str:
        known = any(values.get(name) is not None for name in m.group(2).split(","))
        return m.group(3) if known == (m.group(1) == "?") else ""

    # Innermost conditionals first: once they are settled, the one around them reads as flat
    # text, so conditionals nest (`{!a:... {?b:...} ...}`).
    while True:
        settled = _CONDITIONAL.sub(choose, text)
        if settled == text:
            break
        text = settled
    return _PLACEHOLDER.sub(sub, text)
