"""Rules as the engine uses them: frozen records (common/records.py) built from validated rule data.

Validation happens once (schema.py, when the catalog cache is built); this module only turns the
cached plain data back into objects and compiles each rule's regexes the first time a line
needs them, so a short paste pays for the few rules it touches, not for the whole catalog.
"""

from __future__ import annotations

import re

from verl_doctor.catalog.spelling import tolerant
from verl_doctor.common.records import field, record

TYPE_CHECKING = False  # typing is only needed by type checkers; importing it costs start-up time
if TYPE_CHECKING:
    from typing import Any

# Rule regexes are matched against normalized log lines; VERSION1 is not used (keeps `re` syntax).
REGEX_FLAGS = 0x2000  # regex.VERSION0, without importing `regex` at start-up


def compile_pattern(pattern: str, origin: str) -> Any:
    """Built-in rules (linted, tested on their examples) compile with `re`, several times
    faster than `regex` on the catalog's look-ahead patterns; user rules, and anything `re`
    cannot read, use `regex`, whose searches the analyzer runs under a timeout. Negations accept
    their other spellings (spelling.py)."""
    pattern = tolerant(pattern)
    if origin == "built-in":
        try:
            return re.compile(pattern)
        except re.error:
            pass
    import regex

    return regex.compile(pattern, REGEX_FLAGS)


def pick(text: dict[str, str | None], lang: str) -> str:
    """The text in `lang`, falling back to English."""
    return text.get(lang) or text["en"] or ""


@record(frozen=True)
class Fix:
    step: dict[str, str | None]
    commands: tuple[str, ...]
    verl: str | None = None
    when: str | None = None  # shown only when this group was captured
    unless: str | None = None  # left out when this group was captured
    exclusive: bool = False  # when it applies, the steps without `when` are left out


@record(frozen=True)
class Clue:
    patterns: tuple[str, ...]
    within: int
    confidence: str


@record
class Rule:
    id: str
    name: str
    category: str
    title: dict[str, str | None]
    symptom: bool
    signatures: tuple[str, ...]
    exclude: tuple[str, ...]
    literals: tuple[str, ...]
    clues: tuple[Clue, ...]
    facts: tuple[str, ...]
    cause: dict[str, str | None]
    fixes: tuple[Fix, ...]
    pitfalls: tuple[dict[str, str | None], ...]
    references: tuple[str, ...]
    examples_match: tuple[str, ...]
    examples_no_match: tuple[str, ...]
    handbook: str | None = None
    suggest: str | None = None
    severity: str = "error"  # or "warning": reported apart, does not fail the run by default
    echo: bool = False  # only says a process died or timed out: an unknown exception explains it
    warning_from: int = -1  # signatures from this index on are warning-level messages
    fatal_at_end: int | None = None
    fatal_when_repeated: int | None = None
    fatal_when_scored_zero: bool = False
    absorbs: tuple[str, ...] = ()  # codes whose finding in the same traceback this one replaces
    sources: tuple[str, ...] = ()  # `project@version path: text` of the statements printing it
    path: str = ""
    origin: str = "built-in"
    replaces: str | None = None
    position: int = -1  # index in its catalog
    _compiled: dict[str, Any] = field(default_factory=dict, repr=False)

    @classmethod
    def from_data(cls, data: dict[str, Any], path: str = "", origin: str = "built-in") -> Rule:
        return cls(
            id=data["id"],
            name=data["name"],
            category=data["category"],
            title=data["title"],
            symptom=bool(data.get("symptom", False)),
            echo=bool(data.get("echo", False)),
            signatures=tuple(data["signatures"]) + tuple(data.get("warnings", ())),
            exclude=tuple(data.get("exclude", ())),
            literals=tuple(data.get("literals", ())),
            clues=tuple(
                Clue(tuple(c["all"]), int(c.get("within", 60)), c.get("confidence", "low"))
                for c in data.get("clues", ())
            ),
            facts=tuple(data.get("facts", ())),
            cause=data["cause"],
            fixes=tuple(
                Fix(
                    f["step"],
                    tuple(f.get("commands", ())),
                    f.get("verl"),
                    f.get("when"),
                    f.get("unless"),
                    bool(f.get("exclusive", False)),
                )
                for f in data["fixes"]
            ),
            pitfalls=tuple(data.get("pitfalls", ())),
            references=tuple(data["references"]),
            examples_match=tuple(data["examples"]["match"]),
            examples_no_match=tuple(data["examples"]["no_match"]),
            handbook=data.get("handbook"),
            suggest=data.get("suggest"),
            severity=data.get("severity", "error"),
            warning_from=len(data["signatures"]) if data.get("warnings") else -1,
            fatal_at_end=data.get("fatal_at_end"),
            fatal_when_repeated=data.get("fatal_when_repeated"),
            fatal_when_scored_zero=bool(data.get("fatal_when_scored_zero", False)),
            absorbs=tuple(data.get("absorbs", ())),
            sources=tuple(data.get("sources", ())),
            path=path,
            origin=origin,
        )

    def is_warning(self, signature_index: int) -> bool:
        """Whether a hit on this signature is a warning rather than the failure itself."""
        return self.severity == "warning" or 0 <= self.warning_from <= signature_index

    def _patterns(self, kind: str, sources: tuple[str, ...]) -> tuple[Any, ...]:
        compiled = self._compiled.get(kind)
        if compiled is None:
            compiled = tuple(compile_pattern(p, self.origin) for p in sources)
            self._compiled[kind] = compiled
        return compiled

    @property
    def signature_res(self) -> tuple[Any, ...]:
        return self._patterns("signatures", self.signatures)

    def signature_re(self, index: int) -> Any:
        """One signature, compiled alone: a line's literals usually point at one of several."""
        key = f"sig{index}"
        compiled = self._compiled.get(key)
        if compiled is None:
            compiled = self._compiled[key] = compile_pattern(self.signatures[index], self.origin)
        return compiled

    @property
    def exclude_res(self) -> tuple[Any, ...]:
        return self._patterns("exclude", self.exclude)

    @property
    def fact_res(self) -> tuple[Any, ...]:
        return self._patterns("facts", self.facts)

    def clue_res(self, index: int) -> tuple[Any, ...]:
        return self._patterns(f"clue{index}", self.clues[index].patterns)
