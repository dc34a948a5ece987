"""What `verl-doctor env` produces: one result per probe, and the whole report.

Frozen dataclasses (the env report is built once per run, off the hot path); `EnvReport.to_dict()` is the JSON
contract of `verl-doctor env --format json` (schema_version 1; fields are only ever added).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from verl_doctor.common.exit_codes import ExitCode

SCHEMA_VERSION = 1
OK, WARN, FAIL, SKIPPED = "ok", "warn", "fail", "skipped"
STATUSES = (OK, WARN, FAIL, SKIPPED)
_RANK = {SKIPPED: 0, OK: 1, WARN: 2, FAIL: 3}


def worst(statuses: list[str]) -> str:
    """The most serious of `statuses` (fail > warn > ok > skipped); skipped when empty."""
    return max(statuses, key=_RANK.__getitem__, default=SKIPPED)


@dataclass(frozen=True)
class ProbeResult:
    """One line of the report: a check, its verdict, a one-line reason and the rule it points to."""

    name: str
    status: str  # ok | warn | fail | skipped
    detail: str
    rule: str | None = None
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "status": self.status,
            "detail": self.detail,
            "rule": self.rule,
            "data": self.data,
        }


@dataclass(frozen=True)
class EnvReport:
    """All probe results, in display order."""

    probes: tuple[ProbeResult, ...]

    def get(self, name: str) -> ProbeResult | None:
        return next((p for p in self.probes if p.name == name), None)

    @property
    def summary(self) -> dict[str, int]:
        counts = dict.fromkeys(STATUSES, 0)
        for p in self.probes:
            counts[p.status] += 1
        return counts

    @property
    def exit_code(self) -> int:
        """0 when no probe failed, 1 when any did."""
        return ExitCode.FOUND if any(p.status == FAIL for p in self.probes) else ExitCode.OK

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema_version": SCHEMA_VERSION,
            "probes": [p.to_dict() for p in self.probes],
            "summary": self.summary,
        }
