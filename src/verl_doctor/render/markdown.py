"""Markdown for a GitHub step summary or a PR comment: headline first, fixes as code blocks,
evidence in collapsible details. Log text goes only into fenced blocks (fences longer than
any backtick run inside), so it cannot inject markup; the whole report is capped well under
GitHub's 1 MiB step-summary limit."""

from __future__ import annotations

import re

from verl_doctor.common.i18n import basis_note, words
from verl_doctor.engine.report import Finding, Report
from verl_doctor.render.layout import fix_label, user_rule_note, where_line, workers_summary
from verl_doctor.render.sanitize import visible

MAX_BYTES = 256 * 1024
MAX_FINDINGS = 10
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+!|<>~])")


def escape(text: str) -> str:
    """Inline text with Markdown and HTML specials escaped."""
    return _MD_SPECIAL.sub(r"\\\1", visible(text, None))


def fence(text: str, lang: str = "") -> str:
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    f = "`" * max(3, longest + 1)
    return f"{f}{lang}\n{text}\n{f}"


def _finding(i: int | str, f: Finding, w: dict[str, str], lang: str = "en") -> list[str]:
    role = w["warning"] if f.severity == "warning" else w["symptom"] if f.symptom else w["root"]
    title = f"{w['possibly']}: {f.title}" if f.confidence == "low" else f.title
    out = [
        f"### {i}. `{f.rule}` {escape(f.name)}: {escape(title)}",
        "",
        f"**{escape(f.category)}** · {escape(role)} · {w['confidence']} {f.confidence}"
        + (f" · {w['phase']} {escape(f.phase)}" if f.phase else ""),
        "",
    ]
    note = basis_note(f.basis, lang)
    if note:
        out += [f"*{escape(note)}*", ""]
    summary = workers_summary(f, w)
    if summary or f.count > 1:
        out += [
            escape(
                " · ".join(
                    x for x in (summary, f"{f.count} {w['occurrences']}" if f.count > 1 else None) if x
                )
            ),
            "",
        ]
    note = user_rule_note(f, w)
    if note:
        out += [f"*{escape(note)}*", ""]
    out += [f"**{w['cause']}:** {escape(f.cause)}", ""]
    if f.fixes:
        out += [f"**{escape(fix_label(f, w))}**", ""]
        for n, fix in enumerate(f.fixes, 1):
            bound = f" ({w['applies']} {escape(fix.verl)})" if fix.verl else ""
            out.append(f"{n}. {escape(fix.step)}{bound}")
            for note in fix.notes:
                out.append(f"   *{escape(note)}*")
            if fix.commands:
                block = fence("\n".join(visible(c, None) for c in fix.commands), "bash")
                out += ["", "   " + block.replace("\n", "\n   "), ""]
        out.append("")
    if f.pitfalls:
        out += [f"**{w['pitfalls']}:**", ""] + [f"- {escape(p)}" for p in f.pitfalls] + [""]
    evidence = "\n".join(f"{where_line(e.source, e.line)}: {visible(e.text)}" for e in f.evidence)
    out += [f"<details><summary>{w['evidence']}</summary>", "", fence(evidence, "text"), "", "</details>", ""]
    return out


def render(report: Report) -> str:
    w = words(report.lang)
    where = ", ".join(report.sources) or "stdin"
    n = len(report.findings)
    if n:
        head = report.findings[0]
        lines = [
            f"## verl-doctor: `{head.rule}` {escape(head.title)}",
            "",
            f"{n} {w['known'] if n == 1 else w['known_plural']} {w['in']} "
            f"`{visible(where, 200).replace('`', '')}`"
            f" ({report.lines:,} {w['lines']}).",
            "",
        ]
    elif report.unrecognized:
        lines = [f"## verl-doctor: {escape(w['unknown_only'])}", ""]
    else:
        lines = [
            f"## verl-doctor: {escape(w['none'])}",
            "",
            f"`{visible(where, 200).replace('`', '')}` ({report.lines:,} {w['lines']}).",
            "",
        ]
    for i, f in enumerate(report.findings[:MAX_FINDINGS], 1):
        lines += _finding(i, f, w, report.lang)
    if len(report.findings) > MAX_FINDINGS:
        lines += [f"… {len(report.findings) - MAX_FINDINGS} more", ""]
    if report.unrecognized:
        title = w["also_unrecognized"] if report.findings else w["unrecognized"]
        body = "\n".join(
            f"{where_line(u.source, u.line)}: {visible(u.text)}"
            + (f"  [{u.fingerprint}]" if u.fingerprint else "")
            for u in report.unrecognized
        )
        lines += [f"**{escape(title)}:**", "", fence(body, "text"), ""]
        hints = [u.hint for u in report.unrecognized if u.hint]
        if hints:
            lines += [escape(hints[0]), ""]
    if report.warnings:
        lines += [f"**{escape(w['warnings'])}:**", ""]
        for i, f in enumerate(report.warnings[:MAX_FINDINGS], 1):
            lines += _finding(f"W{i}", f, w, report.lang)
    text = "\n".join(lines)
    if len(text.encode("utf-8")) > MAX_BYTES:
        text = text.encode("utf-8")[:MAX_BYTES].decode("utf-8", "ignore") + "\n\n… (truncated)\n"
    return text
