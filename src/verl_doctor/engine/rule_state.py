"""What the analysis has seen of one rule: its first and best evidence, how often and where
(workers, hosts, Ray envelopes), the groups its messages filled, and what its leading evidence
rests on."""

from __future__ import annotations

from verl_doctor.catalog.rule import Rule
from verl_doctor.common.records import field, record
from verl_doctor.engine.normalize import Line, Worker


@record
class RuleState:
    rule: Rule
    first: Line | None = None
    first_conf: str = "low"
    best_conf: str = "low"
    evidence: list[Line] = field(default_factory=list)
    evidence_worker: Worker | None = None
    count: int = 0
    envelope_count: int = 0
    workers: dict[tuple[object, ...], Worker] = field(default_factory=dict)
    envelope_workers: dict[tuple[object, ...], Worker] = field(default_factory=dict)
    workers_total: int = 0
    hosts: set[str] = field(default_factory=set)
    occurrences: dict[tuple[object, ...], int] = field(default_factory=dict)  # worker -> last line
    groups: dict[str, str] = field(default_factory=dict)
    phase: str | None = None
    phase_detail: str | None = None
    basis: str = "message"  # what the leading evidence is: message | envelope | clue | exception
    last_line: int = 0
