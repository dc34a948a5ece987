"""Masking secrets in everything the report shows: API keys and tokens keep their name and lose
their value. Prefixless secrets (wandb keys, AWS secret keys) are masked only next to a keyword
that names them, so git SHAs, Ray actor ids and hashes stay readable."""

from __future__ import annotations

import re

from .records import fields, is_record, replace

TYPE_CHECKING = False  # typing is only needed by type checkers; importing it costs start-up time
if TYPE_CHECKING:
    from typing import Any

MASK = "****"
_VALUE = r"""(?P<v>(?!\*{4})(?!(?:true|false|none|null|\d+)\b)[^\s"',;}\]]{6,})"""
_SEP = r"""["']?\s*[:=]\s*["']?"""
# (gates, pattern, replacement): every match contains one of the lower-cased gates, so a text
# without any skips the pattern, and patterns compile on first use (most reports need none).
_RULES: tuple[tuple[tuple[str, ...], str, str], ...] = (
    # Environment-style names: WANDB_API_KEY=..., 'HF_TOKEN': '...', AWS_SECRET_ACCESS_KEY: ...
    (
        ("apikey", "api_key", "token", "secret", "passw", "access_key", "private_key", "credential"),
        r"(?P<k>\b[A-Z0-9_]*(?:API_?KEY|TOKEN(?!IZER)S?|SECRET|PASSWORD|PASSWD|ACCESS_KEY|PRIVATE_KEY|CREDENTIALS?)"
        rf"[A-Z0-9_]*\b{_SEP}){_VALUE}",
        rf"\g<k>{MASK}",
    ),
    # Lower-case option and field names: --api-key ..., "password": "...", access_token=...
    (
        ("key", "token", "secret", "passw"),
        r"(?i)(?P<k>(?:--)?\b(?:api[_-]?key|access[_-]?token|auth[_-]?token|secret[_-]?key|client[_-]?secret"
        rf"|password|passwd|hf[_-]?token|wandb[_-]?api[_-]?key)\b(?:{_SEP}|\s+)){_VALUE}",
        rf"\g<k>{MASK}",
    ),
    (("bearer",), r"(?i)(?P<k>\bbearer\s+)(?P<v>(?!\*{4})[A-Za-z0-9._~+/\-]{8,}=*)", rf"\g<k>{MASK}"),
    (("://",), r"(?P<k>\b[a-z][a-z0-9+.\-]*://[^\s:/@]+:)(?P<v>[^\s@/]+)(?=@)", rf"\g<k>{MASK}"),
    # Self-identifying tokens: masked wherever they appear.
    (("hf_",), r"\b(?P<k>hf_)[A-Za-z0-9]{20,}", rf"\g<k>{MASK}"),
    (("sk-",), r"\b(?P<k>sk-(?:ant-|proj-)?)[A-Za-z0-9_\-]{20,}", rf"\g<k>{MASK}"),
    (("akia", "asia"), r"\b(?P<k>(?:AKIA|ASIA))[0-9A-Z]{16}\b", rf"\g<k>{MASK}"),
    (
        (
            "ghp_",
            "gho_",
            "ghu_",
            "ghs_",
            "ghr_",
            "github_pat_",
            "glpat-",
            "xoxa-",
            "xoxb-",
            "xoxp-",
            "xoxr-",
            "xoxs-",
        ),
        r"\b(?P<k>gh[pousr]_|github_pat_|glpat-|xox[abprs]-)[A-Za-z0-9_\-]{16,}",
        rf"\g<k>{MASK}",
    ),
)
_COMPILED: dict[int, re.Pattern[str]] = {}


def _pattern(index: int) -> re.Pattern[str]:
    pattern = _COMPILED.get(index)
    if pattern is None:
        pattern = _COMPILED[index] = re.compile(_RULES[index][1])
    return pattern


def redact(text: str) -> str:
    lower = text.lower()
    for index, (gates, _source, repl) in enumerate(_RULES):
        if any(gate in lower for gate in gates):
            text = _pattern(index).sub(repl, text)
    return text


def _walk(value: Any) -> Any:
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, tuple):
        return tuple(_walk(v) for v in value)
    if isinstance(value, list):
        return [_walk(v) for v in value]
    if isinstance(value, dict):
        return {k: _walk(v) for k, v in value.items()}
    if is_record(value):
        return replace(value, **{name: _walk(getattr(value, name)) for name in fields(value)})
    return value


def redact_report(report: Any) -> Any:
    """A copy of the report with every string field redacted."""
    return _walk(report)
