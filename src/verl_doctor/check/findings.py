"""Issues as the report every renderer reads: one Finding per issue, named and titled by the
catalog rule verl's own failure would match, the override as evidence, the corrected override
as the fix, the verl source it mirrors as references."""

from __future__ import annotations

from verl_doctor.check.model import Issue
from verl_doctor.engine.report import Evidence, Finding, FixOut, Report

TYPE_CHECKING = False
if TYPE_CHECKING:
    from verl_doctor.catalog.load import Catalog
    from verl_doctor.check.run import Checked

_STEP = {
    "en": (
        "Write the override as",
        "Write it as one of these (the first is the likeliest)",
        "Change the command: there is no single correction to propose",
    ),
    "zh": ("将覆盖项改为", "改为以下之一（第一个最可能）", "需要手动修改命令"),
}


def _finding(issue: Issue, catalog: Catalog, lang: str) -> Finding:
    rule = catalog.by_id(issue.code)
    name = rule.name if rule else issue.code
    title = (rule.title.get(lang) or rule.title.get("en") or name) if rule else name
    category = rule.category if rule else "config"
    one, several, none = _STEP.get(lang, _STEP["en"])
    step = none if not issue.fix else one if len(issue.fix) == 1 else several
    fixes = (FixOut(step, issue.fix),)
    return Finding(
        rule=issue.code,
        name=name,
        title=title,
        category=category,
        symptom=False,
        confidence="high" if issue.certain else "medium",
        first_line=issue.line,
        source=issue.source,
        count=1,
        evidence=(Evidence(issue.source, issue.line, issue.override),),
        cause=issue.why,
        fixes=fixes,
        pitfalls=(),
        references=issue.cites,
        facts=(("override", issue.override), ("will_fail", "yes" if issue.certain else "maybe")),
    )


def to_report(
    checked: list[Checked],
    catalog: Catalog,
    lang: str,
    verl_version: str,
    version_from: str,
    key_version: str,
    sources: tuple[str, ...],
) -> Report:
    findings = tuple(_finding(i, catalog, lang) for c in checked for i in c.issues)
    shown_keys = "main" if key_version == "head" else key_version
    notes = [f"checked against verl {verl_version} ({version_from}; config keys of verl {shown_keys})"]
    for c in checked:
        notes.extend(c.notes)
    commands = [
        {
            "entry": c.invocation.entry,
            "source": c.invocation.source,
            "line": c.invocation.line,
            "command": c.invocation.command,
            "overrides": len(c.invocation.overrides),
            "passes": not any(i.certain for i in c.issues),
        }
        for c in checked
    ]
    context = {
        "versions": {"verl": verl_version},
        "check": {
            "verl_version": verl_version,
            "verl_version_from": version_from,
            "config_keys_of": shown_keys,
            "commands": commands,
        },
    }
    return Report(
        findings=findings,
        unrecognized=(),
        context=context,
        sources=sources,
        lines=sum(len(c.invocation.overrides) + len(c.invocation.syntax_errors) for c in checked),
        notes=tuple(notes),
        lang=lang,
    )
