"""Stable fingerprints for unrecognized errors: the same failure on another run, host or
checkout gets the same fingerprint, so it can be searched for and turned into a rule."""

from __future__ import annotations

from verl_doctor.common.lazy_re import lazy_compile

try:  # the C module behind hashlib.sha1, without hashlib's OpenSSL start-up
    from _sha1 import sha1  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - other Python implementations
    from hashlib import sha1

_NORMALIZERS = (
    (lazy_compile(r"""(?:[A-Za-z]:)?(?:[\\/][\w.@+\-]+){2,}[\\/]?"""), "<path>"),
    (lazy_compile(r"\b0x[0-9a-fA-F]+\b"), "<addr>"),
    (lazy_compile(r"\b[0-9a-f]{12,}\b"), "<id>"),
    (
        lazy_compile(r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b"),
        "<uuid>",
    ),
    (lazy_compile(r"\b\d+(?:\.\d+)?\b"), "<n>"),
    (lazy_compile(r"\s+"), " "),
)


def normalize_message(message: str) -> str:
    """The message with paths, addresses, hex ids and numbers replaced by placeholders."""
    text = message
    for pattern, repl in _NORMALIZERS:
        text = pattern.sub(repl, text)
    return text.strip()[:300]


def fingerprint(exc_type: str, message: str) -> str:
    key = f"{exc_type}: {normalize_message(message)}"
    return str(sha1(key.encode("utf-8", "replace")).hexdigest()[:12])
