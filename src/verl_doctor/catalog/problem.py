"""What is wrong with a rule file, one line each: the validator finds them, the loader reports
them, `rules lint` prints them."""

from __future__ import annotations

from verl_doctor.common.records import record

TYPE_CHECKING = False  # typing is only needed by type checkers; importing it costs start-up time
if TYPE_CHECKING:
    from typing import Any


@record(frozen=True)
class Problem:
    """One thing wrong with a rule file, as one line for the user."""

    path: str
    line: int | None
    rule: str | None
    field: str | None
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        parts = [where]
        if self.rule:
            parts.append(f"rule {self.rule}")
        if self.field:
            parts.append(f"field {self.field}")
        return ": ".join(parts) + f": {self.message}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "line": self.line,
            "rule": self.rule,
            "field": self.field,
            "message": self.message,
        }
