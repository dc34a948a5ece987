"""Masking secrets in everything the report shows: API keys and tokens keep their name and lose
their value. Prefixless secrets (wandb keys, AWS secret keys) are masked only next to a keyword
that names them, so git SHAs, Ray actor ids and hashes stay readable."""

from __future__ import annotations

import dataclasses
from typing import Any

import re

MASK = "****"
_VALUE = rf"""(?P<v>(?!\*{{4}})(?!(?:true|false|none|null|\d+)\b)[^\s"',;}}\]]{{6,}})"""
_SEP = r"""["']?\s*[:=]\s*["']?"""
_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    # Environment-style names: WANDB_API_KEY=..., 'HF_TOKEN': '...', AWS_SECRET_ACCESS_KEY: ...
    (re.compile(
        r"(?P<k>\b[A-Z0-9_]*(?:API_?KEY|TOKEN(?!IZER)S?|SECRET|PASSWORD|PASSWD|ACCESS_KEY|PRIVATE_KEY|CREDENTIALS?)"
        rf"[A-Z0-9_]*\b{_SEP}){_VALUE}"), rf"\g<k>{MASK}"),
    # Lower-case option and field names: --api-key ..., "password": "...", access_token=...
    (re.compile(
        r"(?i)(?P<k>(?:--)?\b(?:api[_-]?key|access[_-]?token|auth[_-]?token|secret[_-]?key|client[_-]?secret"
        rf"|password|passwd|hf[_-]?token|wandb[_-]?api[_-]?key)\b(?:{_SEP}|\s+)){_VALUE}"), rf"\g<k>{MASK}"),
    (re.compile(r"(?i)(?P<k>\bbearer\s+)(?P<v>(?!\*{4})[A-Za-z0-9._~+/\-]{8,}=*)"), rf"\g<k>{MASK}"),
    (re.compile(r"(?P<k>\b[a-z][a-z0-9+.\-]*://[^\s:/@]+:)(?P<v>[^\s@/]+)(?=@)"), rf"\g<k>{MASK}"),
    # Self-identifying tokens: masked wherever they appear.
    (re.compile(r"\b(?P<k>hf_)[A-Za-z0-9]{20,}"), rf"\g<k>{MASK}"),
    (re.compile(r"\b(?P<k>sk-(?:ant-|proj-)?)[A-Za-z0-9_\-]{20,}"), rf"\g<k>{MASK}"),
    (re.compile(r"\b(?P<k>(?:AKIA|ASIA))[0-9A-Z]{16}\b"), rf"\g<k>{MASK}"),
    (re.compile(r"\b(?P<k>gh[pousr]_|github_pat_|glpat-|xox[abprs]-)[A-Za-z0-9_\-]{16,}"), rf"\g<k>{MASK}"),
)


def redact(text: str) -> str:
    for pattern, repl in _PATTERNS:
        text = pattern.sub(repl, text)
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
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.replace(value, **{f.name: _walk(getattr(value, f.name))
                                             for f in dataclasses.fields(value) if f.init})
    return value


def redact_report(report: Any) -> Any:
    """A copy of the report with every string field redacted."""
    return _walk(report)
