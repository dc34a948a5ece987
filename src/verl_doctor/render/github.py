"""GitHub workflow commands: one `::error` (or `::warning` for symptoms) annotation per
finding, root cause first, at most ten. Data and property values are escaped as the
workflow-command format requires (% \\r \\n, plus : and , in properties)."""

from __future__ import annotations

from verl_doctor.common.i18n import basis_note, words
from verl_doctor.engine.report import Report
from verl_doctor.render.layout import fix_label, user_rule_note
from verl_doctor.render.sanitize import visible

MAX_ANNOTATIONS = 10


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render(report: Report) -> str:
    w = words(report.lang)
    out = []
    for f in (report.findings + report.warnings)[:MAX_ANNOTATIONS]:
        level = "warning" if f.symptom or f.severity == "warning" else "error"
        note = user_rule_note(f, w)
        title = f"{f.rule} {f.name}" + (" (possibly)" if f.confidence == "low" else "")
        title += " (user rule)" if note else ""
        props = [f"title={escape_property(title)}"]
        if f.source and f.source not in ("<stdin>", "<text>", "<command>"):
            props.append(f"file={escape_property(visible(f.source, 300))}")
            if f.first_line:
                props.append(f"line={f.first_line}")
        steps = "\n".join(
            f"{i}. {fix.step}" + "".join(f"\n   {c}" for c in fix.commands)
            for i, fix in enumerate(f.fixes, 1)
        )
        basis = basis_note(f.basis, report.lang)
        message = (
            f"{f.title}: {f.cause}\n"
            + (f"({basis})\n" if basis else "")
            + (f"{note}\n{fix_label(f, w)}\n" if note else "")
            + steps
        )
        out.append(f"::{level} {','.join(props)}::{escape_data(visible(message, None))}")
    room = MAX_ANNOTATIONS - len(out)
    for u in report.unrecognized[: max(room, 0) if report.findings else min(room, 3)]:
        props = [f"title={escape_property('verl-doctor: unrecognized error')}"]
        out.append(f"::warning {','.join(props)}::{escape_data(visible(u.text, 500))}")
    if not out:
        out.append("::notice title=verl-doctor::no error found")
    return "\n".join(out) + "\n"
