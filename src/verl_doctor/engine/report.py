"""The report: what the engine returns and every renderer reads.

Frozen records (common/records.py) rather than dataclasses or pydantic models: they are built
on every run, and importing either would cost more than diagnosing a short paste. `to_dict()` gives the JSON
contract (schema_version 1; fields are only ever added).
"""

from __future__ import annotations

from verl_doctor.common.exit_codes import ExitCode
from verl_doctor.common.records import asdict, field, record

TYPE_CHECKING = False  # typing is only needed by type checkers; importing it costs start-up time
if TYPE_CHECKING:
    from typing import Any

SCHEMA_VERSION = 1


@record(frozen=True)
class Evidence:
    source: str
    line: int
    text: str


@record(frozen=True)
class WorkerRef:
    actor: str | None
    pid: int | None
    ip: str | None
    rank: int | None


@record(frozen=True)
class FixOut:
    step: str
    commands: tuple[str, ...]
    verl: str | None = None  # version bound, when the step depends on the verl version
    notes: tuple[str, ...] = ()  # e.g. "you set actor_rollout_ref.rollout.gpu_memory_utilization=0.9"


@record(frozen=True)
class Finding:
    rule: str
    name: str
    title: str
    category: str
    symptom: bool
    confidence: str  # high | medium | low
    first_line: int
    source: str
    count: int
    evidence: tuple[Evidence, ...]
    cause: str
    fixes: tuple[FixOut, ...]
    pitfalls: tuple[str, ...]
    references: tuple[str, ...]
    workers: tuple[WorkerRef, ...] = ()
    hosts: tuple[str, ...] = ()
    workers_total: int = 0
    phase: str | None = None
    phase_detail: str | None = None
    facts: tuple[tuple[str, str], ...] = ()
    origin: str = "built-in"  # or the user rule folder it came from
    replaces: str | None = None  # the built-in rule file a user rule replaces
    rule_file: str | None = None  # a user rule's file: its fixes come from there, unchecked
    # What the finding rests on: "message" (the rule's own message is in the log), "envelope"
    # (only a Ray wrapper names the exception type), "clue" (traceback shape), or
    # "exception: ..." (the exception's class and names, when no rule knows its wording).
    basis: str = "message"
    severity: str = "error"  # or "warning"


@record(frozen=True)
class Unrecognized:
    source: str
    line: int
    text: str
    exception: str | None = None
    kind: str = "exception"  # exception | echo
    count: int = 1
    phase: str | None = None
    verl_frame: str | None = None
    fingerprint: str | None = None
    hint: str | None = None


@record(frozen=True)
class InputNote:
    source: str
    message: str
    level: str = "error"  # error | warning


@record(frozen=True)
class Report:
    findings: tuple[Finding, ...]
    unrecognized: tuple[Unrecognized, ...]
    context: dict[str, Any] = field(default_factory=dict)
    sources: tuple[str, ...] = ()
    lines: int = 0
    notes: tuple[str, ...] = ()  # catalog notes (user rules replacing built-ins), rule timeouts
    input_errors: tuple[InputNote, ...] = ()
    lang: str = "en"
    # Warning-level findings: what verl and its libraries warn before a failure (a pad token
    # set for you, prompts truncated); they never make the run count as failed by themselves.
    warnings: tuple[Finding, ...] = ()
    # Values the log assigned to credential names (`export WANDB_API_KEY=...`): never shown, only
    # masked wherever a field holds them (engine/redact.py redact_report).
    secret_values: tuple[str, ...] = ()

    @property
    def exit_code(self) -> int:
        """OK: no error found, FOUND: a known error, UNRECOGNIZED: an error, none recognized."""
        if self.findings:
            return ExitCode.FOUND
        return ExitCode.UNRECOGNIZED if self.unrecognized else ExitCode.OK

    def to_dict(self) -> dict[str, Any]:
        def finding_dict(f: Finding) -> dict[str, Any]:
            d: dict[str, Any] = asdict(f)
            d["facts"] = dict(f.facts)
            return d

        return {
            "schema_version": SCHEMA_VERSION,
            "findings": [finding_dict(f) for f in self.findings],
            "warnings": [finding_dict(f) for f in self.warnings],
            "unrecognized": [asdict(u) for u in self.unrecognized],
            "context": self.context,
            "sources": list(self.sources),
            "lines": self.lines,
            "notes": list(self.notes),
            "input_errors": [asdict(e) for e in self.input_errors],
            "lang": self.lang,
        }
