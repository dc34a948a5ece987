"""The catalog as documentation: `rules`/`rules show` output and the generated reference
(`docs/errors.md`, `docs/errors.zh.md`, `docs/rule.schema.json`)."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from verl_doctor.catalog.categories import CATEGORIES, CATEGORY_TITLES
from verl_doctor.catalog.rule import Rule, pick

_HEAD = {
    "en": {
        "symptoms": "Symptoms",
        "cause": "Cause",
        "fixes": "Fixes",
        "pitfalls": "Do not",
        "references": "References",
        "example": "Example",
        "symptom_note": "Usually an echo of another failure: look for an earlier, more specific error.",
        "title": "verl error-code reference",
        "intro": "Every error verl-doctor recognizes, by category. Generated from `rules/` by "
        "`verl-doctor rules docs`; do not edit by hand.",
        "applies": "applies to verl",
    },
    "zh": {
        "symptoms": "症状",
        "cause": "原因",
        "fixes": "修复",
        "pitfalls": "不要",
        "references": "参考",
        "example": "示例",
        "symptom_note": "通常是其他故障的连带报错：请查找更早、更具体的错误。",
        "title": "verl 错误码参考",
        "intro": "verl-doctor 能识别的全部错误，按类别列出。由 `verl-doctor rules docs` "
        "从 `rules/` 生成，请勿手工编辑。",
        "applies": "适用于 verl",
    },
}

_READABLE = (
    (re.compile(r"\(\?P<(\w+)>(?:[^()]|\([^()]*\))*\)"), r"<\1>"),
    (re.compile(r"\(\?<?[=!](?:[^()]|\([^()]*\))*\)"), ""),
    (re.compile(r"\(\?:"), "("),
    (re.compile(r"\\d\+|\[\\d\.\]\+|\\d\{\d+(?:,\d*)?\}|\\d"), "N"),
    (re.compile(r"\.\{\d*,?\d*\}|\.\*\??|\.\+\??|\\S\+|\[\^[^\]]*\]\+"), "…"),
    (re.compile(r"\\s[+*?]?|\\s\{\d*,?\d*\}"), " "),
    (re.compile(r"\\w\+|\[\\w[^\]]*\][+*]"), "NAME"),
    (re.compile(r"\\([^a-zA-Z0-9])"), r"\1"),
    (re.compile(r"\^|\$|\\b"), ""),
)


def readable(pattern: str) -> str:
    """A signature regex as text a person can search for."""
    text = pattern
    for rx, repl in _READABLE:
        text = rx.sub(repl, text)
    return text


def rule_summary(rule: Rule, lang: str) -> dict[str, Any]:
    return {
        "id": rule.id,
        "name": rule.name,
        "category": rule.category,
        "title": pick(rule.title, lang),
        "symptom": rule.symptom,
        "origin": rule.origin,
    }


def rule_detail(rule: Rule, lang: str) -> dict[str, Any]:
    return {
        **rule_summary(rule, lang),
        "handbook": rule.handbook,
        "symptoms": [readable(s) for s in rule.signatures],
        "signatures": list(rule.signatures),
        "cause": pick(rule.cause, lang),
        "fixes": [
            {
                "step": pick(f.step, lang),
                "commands": list(f.commands),
                "verl": f.verl,
                "when": f.when,
                "unless": f.unless,
                "exclusive": f.exclusive,
            }
            for f in rule.fixes
        ],
        "pitfalls": [pick(p, lang) for p in rule.pitfalls],
        "references": list(rule.references),
        "example": rule.examples_match[0] if rule.examples_match else "",
        "path": rule.path,
    }


def _strip_placeholders(text: str) -> str:
    from verl_doctor.common.placeholders import fill_placeholders

    return fill_placeholders(text, {}, keep_unknown=False)


def rule_text(rule: Rule, lang: str) -> str:
    h = _HEAD[lang]
    d = rule_detail(rule, lang)
    lines = [
        f"{rule.id} {rule.name} [{rule.category}]" + (" (symptom)" if rule.symptom else ""),
        f"  {d['title']}",
        "",
        f"{h['symptoms']}:",
    ]
    lines += [f"  - {s}" for s in d["symptoms"]]
    lines += ["", f"{h['cause']}:", f"  {_strip_placeholders(d['cause'])}", "", f"{h['fixes']}:"]
    for i, f in enumerate(d["fixes"], 1):
        bound = f" ({h['applies']} {f['verl']})" if f["verl"] else ""
        lines.append(f"  {i}. {_strip_placeholders(f['step'])}{bound}")
        lines += [f"       {_strip_placeholders(c)}" for c in f["commands"]]
    if d["pitfalls"]:
        lines += ["", f"{h['pitfalls']}:"] + [f"  - {p}" for p in d["pitfalls"]]
    lines += ["", f"{h['references']}:"] + [f"  - {r}" for r in d["references"]]
    lines += ["", f"{h['example']}:"] + [f"  {ln}" for ln in d["example"].rstrip("\n").splitlines()]
    return "\n".join(lines)


def _fence(text: str, lang: str = "") -> str:
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{lang}\n{text.rstrip()}\n{fence}"


def rule_markdown(rule: Rule, lang: str, level: int = 2) -> str:
    h = _HEAD[lang]
    d = rule_detail(rule, lang)
    hashes = "#" * level
    out = [
        f"{hashes} {rule.id} {rule.name}",
        "",
        f"**{d['title']}** · `{rule.category}`" + (f" · handbook §{rule.handbook}" if rule.handbook else ""),
        "",
    ]
    if rule.symptom:
        out += [f"> {h['symptom_note']}", ""]
    out += [f"**{h['symptoms']}**", ""] + [f"- `{s}`" if "`" not in s else f"- {s}" for s in d["symptoms"]]
    out += ["", f"**{h['cause']}** {_strip_placeholders(d['cause'])}", "", f"**{h['fixes']}**", ""]
    for i, f in enumerate(d["fixes"], 1):
        bound = f" ({h['applies']} {f['verl']})" if f["verl"] else ""
        out.append(f"{i}. {_strip_placeholders(f['step'])}{bound}")
        if f["commands"]:
            out += [
                "",
                "   "
                + _fence("\n".join(_strip_placeholders(c) for c in f["commands"]), "bash").replace(
                    "\n", "\n   "
                ),
                "",
            ]
    if d["pitfalls"]:
        out += ["", f"**{h['pitfalls']}**", ""] + [f"- {p}" for p in d["pitfalls"]]
    out += ["", f"**{h['references']}**", ""] + [f"- {r}" for r in d["references"]]
    out += [
        "",
        f"<details><summary>{h['example']}</summary>",
        "",
        _fence(d["example"], "text"),
        "",
        "</details>",
        "",
    ]
    return "\n".join(out)


def reference_markdown(rules: Sequence[Rule], lang: str) -> str:
    h = _HEAD[lang]
    out = [f"# {h['title']}", "", h["intro"], ""]
    for cat in CATEGORIES:
        members = sorted((r for r in rules if r.category == cat), key=lambda r: r.id)
        if not members:
            continue
        out += [f"- [{CATEGORY_TITLES[lang][cat]}](#{cat})"]
        out += [f"  - [{r.id} {r.name}](#{r.id.lower()}-{r.name}) — {pick(r.title, lang)}" for r in members]
    out.append("")
    for cat in CATEGORIES:
        members = sorted((r for r in rules if r.category == cat), key=lambda r: r.id)
        if not members:
            continue
        out += [f'<a id="{cat}"></a>', "", f"# {CATEGORY_TITLES[lang][cat]}", ""]
        out += [rule_markdown(r, lang) for r in members]
    return "\n".join(out).rstrip() + "\n"


def generated_files() -> dict[str, str]:
    """File name -> content of every generated document, from the built-in catalog only."""
    from verl_doctor.catalog.load import load_catalog
    from verl_doctor.catalog.schema import json_schema

    rules = load_catalog(include_user=False).rules
    return {
        "errors.md": reference_markdown(rules, "en"),
        "errors.zh.md": reference_markdown(rules, "zh"),
        "rule.schema.json": json.dumps(json_schema(), indent=2, ensure_ascii=False) + "\n",
    }


def write_docs(out: Path, check: bool = False) -> list[str]:
    """Write (or with `check`, compare) the generated docs; returns the stale/written names."""
    changed = []
    for name, content in generated_files().items():
        path = out / name
        current = path.read_text(encoding="utf-8") if path.is_file() else None
        if current != content:
            changed.append(name)
            if not check:
                out.mkdir(parents=True, exist_ok=True)
                path.write_text(content, encoding="utf-8")
    return changed
