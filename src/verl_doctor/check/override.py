"""One Hydra override (`key=value`, `+key=value`, `++key=value`, `~key`), read the way Hydra's
override grammar reads it (hydra/core/override_parser, Hydra 1.3, which every verl release from
0.4 on uses): the key, the operator, and the value as Hydra types it (null, bool, int, float,
string, list, dict). Text Hydra would refuse becomes a CFG016 issue with Hydra's reason.
"""

from __future__ import annotations

import re

from verl_doctor.check.model import COMMAND, Issue, Override

# Hydra's lexer: ID = [a-zA-Z_$][\w$-]*, keys are IDs or digits joined by dots; config groups
# use `/` and `@package`.
_KEY = re.compile(r"[A-Za-z_$][\w$\-]*(?:[./][A-Za-z0-9_$][\w$\-]*)*(?:@[\w.$\-]*)?")
_INT = re.compile(r"[+-]?(?:0|[1-9][0-9_]*)")
_FLOAT = re.compile(
    r"[+-]?(?:(?:\d[\d_]*)?\.\d[\d_]*(?:[eE][+-]?\d+)?|\d[\d_]*(?:\.\d*)?[eE][+-]?\d+|\d[\d_]*\.)"
)
_SPECIAL_FLOAT = re.compile(r"[+-]?(?:inf|nan)", re.IGNORECASE)
_CLOSERS = {"[": "]", "{": "}", "(": ")"}

CITE_GRAMMAR = "hydra/core/override_parser/overrides_visitor.py (Hydra 1.3; verl 0.4-0.9 pin hydra-core 1.3)"


class OverrideSyntaxError(ValueError):
    """Why Hydra would refuse an override."""


def parse_override(text: str, source: str = COMMAND, line: int = 0) -> Override | Issue:
    """The override, or the CFG016 issue Hydra's parser would raise for it."""
    try:
        return _parse(text, source, line)
    except RecursionError:
        return Issue(
            "CFG016", text, "the value nests brackets too deeply to read", (), (CITE_GRAMMAR,), source, line
        )
    except OverrideSyntaxError as exc:
        return Issue(
            code="CFG016",
            override=text,
            why=f"Hydra cannot parse `{text}`: {exc}",
            fix=_syntax_fix(text),
            cites=(CITE_GRAMMAR,),
            source=source,
            line=line,
        )


def _parse(text: str, source: str, line: int) -> Override:
    op = ""
    rest = text
    for prefix in ("++", "+", "~"):
        if rest.startswith(prefix):
            op, rest = prefix, rest[len(prefix) :]
            break
    key, eq, value_text = rest.partition("=")
    key = key.strip()
    if not _KEY.fullmatch(key):
        raise OverrideSyntaxError(f"`{key or text}` is not a config key")
    if not eq:
        if op == "~":
            return Override(text, op, key, "", None, False, source, line)
        raise OverrideSyntaxError("missing `=` (an override is key=value)")
    value = parse_value(value_text.strip(), top_level=True)
    return Override(text, op, key, value_text, value, True, source, line)


def parse_value(text: str, top_level: bool = False) -> object:
    """A value as Hydra types it. Interpolations (`${...}`) stay strings."""
    if text == "":
        return ""
    parts = _split_top(text, ",")
    if len(parts) > 1:
        if top_level:
            raise OverrideSyntaxError(
                "a comma outside brackets makes a sweep, which needs --multirun; "
                "write a list as key=[a,b] or quote the text as key='a,b'"
            )
        raise OverrideSyntaxError("unexpected comma")
    if text[0] in "'\"":
        return _quoted(text)
    if text[0] == "[":
        if text[-1] != "]":
            raise OverrideSyntaxError("a list opened with `[` is not closed with `]`")
        inner = text[1:-1].strip()
        return [parse_value(p.strip()) for p in _split_top(inner, ",")] if inner else []
    if text[0] == "{":
        if text[-1] != "}":
            raise OverrideSyntaxError("a dict opened with `{` is not closed with `}`")
        inner = text[1:-1].strip()
        out: dict[str, object] = {}
        for item in _split_top(inner, ",") if inner else []:
            k, colon, v = item.partition(":")
            if not colon:
                raise OverrideSyntaxError(f"dict item `{item.strip()}` has no `:`")
            out[k.strip()] = parse_value(v.strip())
        return out
    _check_bare(text)
    return _primitive(text)


def _primitive(text: str) -> object:
    lower = text.lower()
    if lower == "null":
        return None
    if lower in ("true", "false"):
        return lower == "true"
    if _INT.fullmatch(text):
        return int(text.replace("_", ""))
    if _FLOAT.fullmatch(text) or _SPECIAL_FLOAT.fullmatch(text):
        return float(text.replace("_", ""))
    return text


def _quoted(text: str) -> str:
    quote = text[0]
    i, out = 1, []
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text):
            out.append(text[i + 1])
            i += 2
            continue
        if ch == quote:
            if text[i + 1 :].strip():
                raise OverrideSyntaxError(f"text after the closing {quote}")
            return "".join(out)
        out.append(ch)
        i += 1
    raise OverrideSyntaxError(f"the quote {quote} is not closed")


def _check_bare(text: str) -> None:
    """Characters Hydra's unquoted-string rule does not take (outside `${...}`)."""
    depth = 0
    i = 0
    while i < len(text):
        if text.startswith("${", i):
            depth += 1
            i += 2
            continue
        ch = text[i]
        if depth:
            depth += ch == "{"
            depth -= ch == "}"
        elif ch == "\\":
            i += 1
        elif ch in "=":
            raise OverrideSyntaxError(f"unexpected `{ch}` in the value; quote the value if it is text")
        elif ch in "'\"":
            raise OverrideSyntaxError(f"a quote ({ch}) inside an unquoted value")
        elif ch in "[]{}()":
            raise OverrideSyntaxError(f"unbalanced `{ch}` in the value")
        i += 1
    if depth:
        raise OverrideSyntaxError("an interpolation `${` is not closed with `}`")


def _split_top(text: str, sep: str) -> list[str]:
    """Split at `sep` outside brackets, quotes and interpolations; raise on unbalanced ones."""
    parts, stack, quote, start, i = [], [], "", 0, 0
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 2
                continue
            if ch == quote:
                quote = ""
        elif ch == "\\":
            i += 2
            continue
        elif ch in "'\"" and (i == start or text[i - 1] in "[{(:, "):
            quote = ch
        elif ch in _CLOSERS:
            stack.append(_CLOSERS[ch])
        elif ch in "]})":
            if not stack or stack.pop() != ch:
                raise OverrideSyntaxError(f"unbalanced `{ch}`")
        elif ch == sep and not stack:
            parts.append(text[start:i])
            start = i + 1
        i += 1
    if quote:
        raise OverrideSyntaxError(f"the quote {quote} is not closed")
    if stack:
        raise OverrideSyntaxError(f"`{ {']': '[', '}': '{', ')': '('}[stack[-1]] }` is not closed")
    parts.append(text[start:])
    return parts


def _syntax_fix(text: str) -> tuple[str, ...]:
    if text.startswith("--") and "=" in text:
        return (text[2:],)
    key, eq, value = text.partition("=")
    if not eq:
        return (f"{text}=<value>",)
    value = value.strip()
    opened = value.count("[") - value.count("]")
    if value.startswith("[") and opened > 0:
        return (f"{key}={value}{']' * opened}",)
    if "," in value and not value.startswith(("[", "'", '"')):
        return (f"{key}=[{value}]", f"{key}='{value}'")
    if value[:1] in "'\"" and value.count(value[0]) % 2:
        return (f"{key}={value}{value[0]}",)
    if value.startswith("="):
        return (f"{key}={value.lstrip('=')}",)
    return ()
