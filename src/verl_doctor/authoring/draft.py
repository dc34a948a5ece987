"""`explain --draft-rule`: a rule YAML drafted from the first unrecognized error, ready to edit.

The signature is the exception line with its variable parts generalized (numbers, paths, hex
ids), the log line becomes the first match example, and every text to write says TODO, so
`verl-doctor rules lint` points at what is left to do.
"""

from __future__ import annotations

import json
import re

from verl_doctor.catalog.categories import CODE_PREFIX
from verl_doctor.engine.report import Report

_GENERALIZE = (
    (re.compile(r"(?:[A-Za-z]:)?(?:/[\w.@+\-]+){2,}/?"), r"\\S+"),
    (re.compile(r"0x[0-9a-fA-F]+"), r"0x[0-9a-f]+"),
    (re.compile(r"\b[0-9a-f]{12,}\b"), r"[0-9a-f]+"),
    (re.compile(r"\d+(?:\.\d+)?"), r"\\d+(?:\\.\\d+)?"),
)
_CATEGORY_HINTS = (
    ("env", ("ImportError", "ModuleNotFoundError", "undefined symbol", "version")),
    ("config", ("ConfigKeyError", "ConfigAttributeError", "MissingMandatoryValue", "KeyError", "config")),
    ("distributed", ("NCCL", "nccl", "Ray", "raylet", "DistBackendError", "socket")),
)


def q(value: str) -> str:
    """JSON strings are valid YAML scalars: this quotes any character safely."""
    return json.dumps(value, ensure_ascii=False)


def _escape(text: str) -> str:
    """re.escape, but spaces stay readable (they are only special in verbose mode)."""
    return re.escape(text).replace("\\ ", " ")


def signature_for(text: str, max_len: int = 120) -> str:
    """An escaped, generalized regex for the distinctive start of an error message."""
    text = text.strip()[:max_len]
    out, pos = [], 0
    spans: list[tuple[int, int, str]] = []
    for pattern, repl in _GENERALIZE:
        for m in pattern.finditer(text):
            if not any(s < m.end() and m.start() < e for s, e, _ in spans):
                spans.append((m.start(), m.end(), repl))
    for start, end, repl in sorted(spans):
        out.append(_escape(text[pos:start]))
        out.append(repl.replace("\\\\", "\\"))
        pos = end
    out.append(_escape(text[pos:]))
    return "".join(out)


def _kebab(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "-", name).lower().strip("-") or "unknown-error"


def draft_rule(report: Report) -> str:
    exc = next((u for u in report.unrecognized if u.kind == "exception"), None)
    if exc is None:
        return "# verl-doctor: no unrecognized exception to draft a rule from\n"
    etype = (exc.exception or "Error").rsplit(".", 1)[-1]
    message = exc.text
    idx = message.find(etype)
    body = message[idx:] if idx >= 0 else message
    category = next((c for c, keys in _CATEGORY_HINTS if any(k in body for k in keys)), "flow")
    code = f"{CODE_PREFIX[category]}900"
    name = f"draft-{_kebab(etype)}"
    lines = [
        "# Draft rule from verl-doctor --draft-rule. Edit every TODO, rename the file to",
        f"# rules/{category}/{code}-{name}.yaml (pick a free code), then run: verl-doctor rules lint",
        "# yaml-language-server: $schema=../../docs/rule.schema.json",
        f"id: {code}",
        f"name: {name}",
        f"category: {category}",
        "title:",
        f"  en: {q('TODO one-line title for ' + etype)}",
        f"  zh: {q('TODO 标题')}",
        "signatures:",
        f"  - {q(signature_for(body))}",
        "cause:",
        f"  en: {q('TODO why this happens in a verl run (fingerprint ' + str(exc.fingerprint) + ')')}",
        f"  zh: {q('TODO 原因')}",
        "fixes:",
        "  - step:",
        f"      en: {q('TODO what to do')}",
        f"      zh: {q('TODO 修复步骤')}",
        "    commands: []",
        "references:",
        f"  - {q('TODO verl source file or doc that backs the fix')}",
        "examples:",
        "  match:",
        f"    - {q(exc.text)}",
        "  no_match:",
        f"    - {q('TODO a look-alike line that must not match')}",
    ]
    if exc.phase or exc.verl_frame:
        lines.insert(
            3,
            f"# seen {('while ' + exc.phase) if exc.phase else ''}"
            f"{(' at ' + exc.verl_frame) if exc.verl_frame else ''}",
        )
    return "\n".join(lines) + "\n"
