"""Spelling a log's reader forgives: what people retype and what libraries write both ways.

A message quoted in an issue title, retyped in a chat, or printed by another release of the same
library writes its negations in any of several forms: `do not`, `don't`, `dont`, `donot`. A rule
written with one of them recognises all of them: its patterns are widened once, where they are
compiled and where the prefilter's literals are taken from them, so the literals still hold.
"""

from __future__ import annotations

import re

# An auxiliary verb and its negation, as plain text in a pattern (not escaped, not inside a
# word): `does not`, `doesn't`, `cannot`, `can not`, `can't`.
_PLAIN_START = r"(?:(?<![\\\w])|(?<=\\b)|(?<=\\s))"  # not inside a word; after `\b` or `\s` is fine
_NEGATION = re.compile(
    _PLAIN_START + r"(?P<aux>[Dd]o|[Dd]oes|[Dd]id|[Ii]s|[Aa]re|[Ww]as|[Ww]ere|[Hh]as|[Hh]ave|[Cc]ould|"
    r"[Ss]hould|[Ww]ould)(?: not|n't)(?![\w])"
)
_CANNOT = re.compile(_PLAIN_START + r"(?P<c>[Cc])an(?:not| not|'t)(?![\w])")


def tolerant(pattern: str) -> str:
    """`pattern` with each plain negation accepting its other spellings."""
    if "not" not in pattern and "n't" not in pattern:
        return pattern
    widened = _NEGATION.sub(lambda m: m.group("aux") + "(?: ?not|n'?t)", pattern)
    return _CANNOT.sub(lambda m: m.group("c") + "an(?: ?not|'?t)", widened)
