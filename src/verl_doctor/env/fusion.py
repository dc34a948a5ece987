"""`verl-doctor explain --env`: use this machine's probes to confirm or refute log findings.

A probe that reproduces a finding's cause here (the GPU's sm_XY missing from torch's arch
list for ENV002, `import verl` failing for ENV001, ...) raises the finding's confidence to
high and records why; a probe that shows the cause absent adds a report note instead (the
log may come from another machine, environment or working directory). The report keeps its
JSON contract: only `facts["env_probe"]`, `notes` and `context["env"]` are added.
"""

from __future__ import annotations

from dataclasses import dataclass

from verl_doctor.common.records import replace
from verl_doctor.engine.report import Finding, Report
from verl_doctor.env.model import FAIL, OK, WARN, EnvReport, ProbeResult
from verl_doctor.render.sanitize import visible


@dataclass(frozen=True)
class Evidence:
    """Which probes speak to a rule: `confirm_on` statuses confirm it, all of them ok refutes it."""

    probes: tuple[str, ...]
    confirm_on: frozenset[str] = frozenset({FAIL, WARN})
    any_rule: bool = False  # confirm on the status alone, whatever rule the row names
    refuted: str = ""


EVIDENCE: dict[str, Evidence] = {
    "ENV001": Evidence(
        ("verl",),
        frozenset({FAIL}),
        any_rule=True,
        refuted="verl imports fine here: the failing run used another Python or env, "
        "or a Ray worker node lacks verl",
    ),
    "ENV002": Evidence(
        ("gpu-arch",),
        frozenset({FAIL}),
        refuted="torch here has kernels for every GPU; the missing kernel may be in vLLM, "
        "SGLang or flash-attn, or the run was on other hardware",
    ),
    "ENV003": Evidence(
        ("verl-shadow", "verl"),
        refuted="`import verl` finds the real package here: check the directory the run started in",
    ),
    "ENV004": Evidence(("engine-versions",), refuted="vLLM/SGLang here match what this verl declares"),
    "ENV006": Evidence(
        ("flash-attn", "extensions", "torch", "verl"),
        frozenset({FAIL}),
        refuted="the compiled extensions installed here import cleanly",
    ),
    "ENV007": Evidence(
        ("gpu-bf16",), frozenset({WARN, FAIL}), refuted="every GPU here is Ampere (sm_80) or newer"
    ),
    "ENV009": Evidence(
        ("dependencies", "verl", "ray"),
        frozenset({FAIL}),
        refuted="verl's requirements are all installed here",
    ),
    "ENV010": Evidence(("transformers",), refuted="transformers here is within what this verl declares"),
    "DIST002": Evidence(
        ("port-6379", "port-8265"),
        refuted="Ray's default ports 6379 and 8265 are free now; the clash may be over, "
        "or on another port or host",
    ),
}


def _confirming(rule: str, ev: Evidence, rows: list[ProbeResult]) -> ProbeResult | None:
    for row in rows:
        if row.status in ev.confirm_on and (ev.any_rule or row.rule == rule):
            return row
    return None


def verdict(finding: Finding, env: EnvReport) -> tuple[str, str] | None:
    """("confirmed" | "refuted", one-line reason) for a finding, or None when the probes cannot tell."""
    ev = EVIDENCE.get(finding.rule)
    if ev is None:
        return None
    rows = [r for name in ev.probes if (r := env.get(name)) is not None]
    hit = _confirming(finding.rule, ev, rows)
    if hit is not None:
        return "confirmed", f"{hit.name}: {hit.detail}"
    judged = [r for r in rows if r.status != "skipped"]
    if judged and all(r.status == OK for r in judged):
        reason = ev.refuted
        sm = dict(finding.facts).get("sm")
        gpus = (env.get("gpu-arch") or ProbeResult("", "", "")).data.get("gpus") or []
        here = sorted({str(g.get("sm")) for g in gpus if isinstance(g, dict)})
        if finding.rule == "ENV002" and sm and here and f"sm_{sm}" not in here:
            reason += f" (the log names sm_{sm}; this machine has {', '.join(here)})"
        return "refuted", f"{reason} ({judged[0].name}: {judged[0].detail})"
    return None


def _env_context(env: EnvReport) -> dict[str, object]:
    probes = [
        {"name": p.name, "status": p.status, "detail": visible(p.detail, None), "rule": p.rule}
        for p in env.probes
    ]
    return {"summary": env.summary, "probes": probes}


def confirm_with_probes(
    report: Report, env: EnvReport | None = None, timeout: float = 20.0, python: str | None = None
) -> Report:
    """A copy of `report` with findings confirmed or refuted by this machine's probes."""
    if env is None:
        from verl_doctor.env import probe

        env, _, _ = probe(timeout, python)
    findings: list[Finding] = []
    notes = list(report.notes)
    for f in report.findings:
        v = verdict(f, env)
        if v is not None:
            v = (v[0], visible(v[1]))  # probe output is untrusted text
        if v is not None and v[0] == "confirmed":
            facts = tuple(sorted({**dict(f.facts), "env_probe": v[1]}.items()))
            f = replace(f, confidence="high", facts=facts)
            notes.append(f"{f.rule} confirmed on this machine by verl-doctor env: {v[1]}")
        elif v is not None:
            notes.append(f"{f.rule} not confirmed on this machine: {v[1]}")
        findings.append(f)
    context = {**report.context, "env": _env_context(env)}
    return replace(report, findings=tuple(findings), notes=tuple(notes), context=context)
