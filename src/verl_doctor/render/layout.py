"""The text report as styled lines, shared by the plain and the rich (terminal) output.

A line is a list of (text, style) segments; styles are names the terminal renderer maps to
colours. Every log-derived string goes through `visible()` here, once.
"""

from __future__ import annotations

from verl_doctor.common.i18n import basis_note, words
from verl_doctor.engine.report import Finding, Report, Unrecognized
from verl_doctor.render.sanitize import visible

Segment = tuple[str, str]
StyledLine = list[Segment]


def workers_summary(f: Finding, w: dict[str, str]) -> str | None:
    """'on 8 workers of 2 hosts: WorkerDict pid 1201–1208'."""
    if not f.workers:
        return None
    n, hosts = f.workers_total or len(f.workers), len(f.hosts)
    actors = sorted({x.actor or "?" for x in f.workers})
    pids = sorted({x.pid for x in f.workers if x.pid is not None})
    ranks = sorted({x.rank for x in f.workers if x.rank is not None})
    text = f"{w['on']} {n} {w['worker'] if n == 1 else w['workers']}"
    if hosts > 1:
        text += f" of {hosts} {w['hosts']}"
    detail = "/".join(actors)
    if pids:
        detail += " pid " + _numbers(pids)
    if ranks:
        detail += " rank " + _numbers(ranks)
    return f"{text}: {detail}"


def user_rule_note(f: Finding, w: dict[str, str]) -> str | None:
    """'user rule from team/FLOW004-oom.yaml, replaces the built-in rule FLOW004'."""
    if f.rule_file is None and f.replaces is None:
        return None
    text = f"{w['user_rule']} {f.rule_file or f.origin}"
    return text + (f", {w['replaces']} {f.rule}" if f.replaces else "")


def fix_label(f: Finding, w: dict[str, str]) -> str:
    """'fix:', or for a user rule 'fix (from your rule file, not checked by verl-doctor):'."""
    return f"{w['fix']} ({w['user_fixes']}):" if f.rule_file or f.replaces else f"{w['fix']}:"


def _numbers(values: list[int]) -> str:
    """Distinct sorted numbers: `1201`, `1201–1208` when consecutive, else `3, 9, 12` or
    `3, 9, 12, …, 80` (a range would claim the numbers in between)."""
    if len(values) == 1:
        return str(values[0])
    if values[-1] - values[0] == len(values) - 1:
        return f"{values[0]}–{values[-1]}"
    if len(values) <= 4:
        return ", ".join(map(str, values))
    return ", ".join(map(str, values[:3])) + f", …, {values[-1]}"


def where_line(source: str, line: int) -> str:
    """`train.log:12`; a check's `<command>` with no line (defaults) is the source alone."""
    return f"{visible(source, 80)}:{line}" if line else visible(source, 80)


def _check_headline(report: Report, w: dict[str, str], where: str) -> StyledLine:
    """`check`: what verl would stop on, apart from what may fail once it runs."""
    fail = sum(1 for f in report.findings if f.confidence == "high")
    maybe = len(report.findings) - fail
    out: StyledLine = [("verl-doctor: ", "dim")]
    if fail:
        out.append((f"{fail} {w['check_fail'] if fail == 1 else w['check_fail_plural']}", "bold"))
    else:
        out.append((w["check_pass"], "bold"))
    if maybe:
        out.append((f"; {maybe} {w['check_maybe']}", "warn"))
    out.append((f" {w['in']} {visible(where, 200)}", ""))
    out.append((f" ({report.lines:,} {w['override'] if report.lines == 1 else w['overrides']})", "dim"))
    return out


def _headline(report: Report, w: dict[str, str]) -> StyledLine:
    where = ", ".join(report.sources) or "<stdin>"
    if "check" in report.context:
        return _check_headline(report, w, where)
    n = len(report.findings)
    if n:
        label = w["known"] if n == 1 else w["known_plural"]
        return [
            ("verl-doctor: ", "dim"),
            (f"{n} {label}", "bold"),
            (f" {w['in']} {visible(where, 200)}", ""),
            (f" ({report.lines:,} {w['lines']})", "dim"),
        ]
    if report.unrecognized:
        return [("verl-doctor: ", "dim"), (w["unknown_only"], "bold"), (f" ({visible(where, 200)})", "dim")]
    out: StyledLine = [
        ("verl-doctor: ", "dim"),
        (w["none"], "bold"),
        (f" {w['in']} {visible(where, 200)}", ""),
        (f" ({report.lines:,} {w['lines']})", "dim"),
    ]
    if report.warnings:
        out.append((f"; {len(report.warnings)} {w['warning']}", "warn"))
    return out


def _finding(index: int | str, f: Finding, w: dict[str, str], lang: str = "en") -> list[StyledLine]:
    role = w["warning"] if f.severity == "warning" else w["symptom"] if f.symptom else w["root"]
    out: list[StyledLine] = [
        [
            (f"[{index}] ", "bold"),
            (f.rule, "code"),
            (f" {f.name}", "bold"),
            (f"  {f.category}", "category"),
            (f" · {role} · {w['confidence']} {f.confidence}", "dim"),
        ]
    ]
    title = visible(f.title, None)
    out.append([("    ", ""), (f"{w['possibly']}: {title}" if f.confidence == "low" else title, "title")])
    note = basis_note(f.basis, lang)
    if note:
        out.append([("    ", ""), (visible(note, 300), "warn")])
    meta = []
    summary = workers_summary(f, w)
    if summary:
        meta.append(summary)
    if f.count > 1:
        meta.append(f"{f.count} {w['occurrences']}")
    if f.phase:
        meta.append(
            f"{w['phase']} {visible(f.phase, 120)}"
            + (f" ({visible(f.phase_detail, 120)})" if f.phase_detail else "")
        )
    if meta:
        out.append([("    ", ""), (" · ".join(meta), "dim")])
    note = user_rule_note(f, w)
    if note:
        out.append([("    ", ""), (visible(note, 300), "warn")])
    out.append([("    ", ""), (f"{w['evidence']}:", "label")])
    for e in f.evidence:
        out.append(
            [("      ", ""), (f"{where_line(e.source, e.line)}  ", "dim"), (visible(e.text), "evidence")]
        )
    out.append([("    ", ""), (f"{w['cause']}: ", "label"), (visible(f.cause, None), "")])
    out.append([("    ", ""), (fix_label(f, w), "label")])
    for i, fix in enumerate(f.fixes, 1):
        step = visible(fix.step, None)
        if fix.verl:
            step += f" ({w['applies']} {fix.verl})"
        out.append([("      ", ""), (f"{i}. ", "bold"), (step, "")])
        for note in fix.notes:
            out.append([("         ", ""), (visible(note, 300), "warn")])
        for cmd in fix.commands:
            out.append([("           ", ""), (visible(cmd, None), "command")])
    if f.pitfalls:
        out.append([("    ", ""), (f"{w['pitfalls']}:", "label")])
        for p in f.pitfalls:
            out.append([("      - ", ""), (visible(p, None), "pitfall")])
    if f.references:
        out.append(
            [("    ", ""), (f"{w['references']}: ", "label"), (visible("; ".join(f.references), None), "dim")]
        )
    return out


def _unrecognized(u: Unrecognized, w: dict[str, str]) -> list[StyledLine]:
    out: list[StyledLine] = [
        [("  ", ""), (f"{where_line(u.source, u.line)}  ", "dim"), (visible(u.text), "evidence")]
    ]
    meta = []
    if u.count > 1:
        meta.append(f"{u.count} {w['occurrences']}")
    if u.phase:
        meta.append(f"{w['phase']} {visible(u.phase, 120)}")
    if u.verl_frame:
        meta.append(f"{w['verl_frame']}: {visible(u.verl_frame, 160)}")
    if u.fingerprint:
        meta.append(f"{w['fingerprint']} {u.fingerprint}")
    if meta:
        out.append([("      ", ""), (" · ".join(meta), "dim")])
    if u.hint:
        out.append([("      ", ""), (visible(u.hint, None), "warn")])
    return out


def build(report: Report, show_context: bool = True) -> list[StyledLine]:
    w = words(report.lang)
    lines: list[StyledLine] = [_headline(report, w)]
    for i, f in enumerate(report.findings, 1):
        lines.append([])
        lines.extend(_finding(i, f, w, report.lang))
    if report.unrecognized:
        lines.append([])
        title = w["also_unrecognized"] if report.findings else w["unrecognized"]
        lines.append([(f"{title}:", "label")])
        for u in report.unrecognized:
            lines.extend(_unrecognized(u, w))
    if report.warnings:
        lines.append([])
        lines.append([(f"{w['warnings']}:", "label")])
        for i, f in enumerate(report.warnings, 1):
            lines.extend(_finding(f"W{i}", f, w, report.lang))
    ctx = report.context
    parts = [f"{k} {v}" for k, v in ctx.get("versions", {}).items()]
    gpu = ctx.get("gpu", {})
    if gpu.get("model"):
        parts.append(str(gpu["model"]) + (f" x{gpu['count']}" if gpu.get("count") else ""))
    if gpu.get("requested"):
        parts.append(f"{gpu['requested']} GPUs requested")
    if show_context and (report.findings or report.unrecognized) and parts:
        lines.append([])
        lines.append([(f"{w['context']}: ", "label"), (visible(", ".join(parts), 400), "dim")])
    for note in report.notes:
        lines.append([("note: ", "warn"), (visible(note, 300), "dim")])
    return lines


def to_plain(lines: list[StyledLine]) -> str:
    return "\n".join("".join(text for text, _ in line).rstrip() for line in lines) + "\n"
