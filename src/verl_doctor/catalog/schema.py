"""The rule-file schema: pydantic models that validate one YAML rule.

This is a public interface (teams write their own rules against it), so unknown fields are
rejected. It is imported only when the catalog cache is rebuilt, by `rules lint` and by
`rules schema`; a normal `explain` run reads the validated catalog from the cache instead.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from verl_doctor.catalog.categories import CATEGORIES, CODE_PREFIX

Category = Literal[CATEGORIES]  # type: ignore[valid-type]

Confidence = Literal["medium", "low"]
Severity = Literal["error", "warning"]
# `project@version path: text as printed`, e.g.
# `verl@0.4.1 verl/trainer/ppo/ray_trainer.py: ValueError: Total available GPUs {n} is less than ...`
SOURCE_PATTERN = r"^[\w.-]+@[\w.+-]+ [^\s:]+(?::\d+)?: \S[\s\S]*$"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Text(_Strict):
    """A text in English and, optionally, Chinese. A plain string is read as English."""

    en: Annotated[str, Field(min_length=1)]
    zh: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _from_plain_string(cls, value: Any) -> Any:
        return {"en": value} if isinstance(value, str) else value


class FixStep(_Strict):
    """One numbered fix: what to do, and the commands to copy."""

    step: Text
    commands: list[str] = Field(default_factory=list)
    verl: str | None = Field(
        default=None,
        description="verl versions this step applies to, e.g. '<0.8' or '>=0.6,<0.9'.",
        pattern=r"^\s*(?:[<>]=?|==|!=)\s*\d+(?:\.\d+)*\s*(?:,\s*(?:[<>]=?|==|!=)\s*\d+(?:\.\d+)*\s*)*$",
    )
    when: str | None = Field(
        default=None,
        description="A named group of a signature or fact: the step is shown only when it was captured.",
        pattern=r"^[A-Za-z_]\w*$",
    )
    unless: str | None = Field(
        default=None,
        description="A named group of a signature or fact: the step is left out when it was captured.",
        pattern=r"^[A-Za-z_]\w*$",
    )
    exclusive: bool = Field(
        default=False,
        description=(
            "With `when`: when this step applies, the rule's steps without `when` (written for its "
            "other messages) are left out."
        ),
    )


class Clue(_Strict):
    """Weaker evidence: every pattern must match a line within `within` lines of one source."""

    all: Annotated[list[str], Field(min_length=1)]
    within: Annotated[int, Field(ge=1, le=2000)] = 60
    confidence: Confidence = "low"


class Examples(_Strict):
    """Log excerpts in the real shape: `match` must give this rule first, `no_match` never this rule."""

    match: Annotated[list[str], Field(min_length=1)]
    no_match: Annotated[list[str], Field(min_length=1)]


class RuleSpec(_Strict):
    """One rule file: `rules/<category>/<id>-<name>.yaml`."""

    id: Annotated[str, Field(pattern=r"^[A-Z]{2,6}\d{3}$", description="Stable code, e.g. FLOW004.")]
    name: Annotated[str, Field(pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)*$", description="kebab-case name.")]
    category: Category
    title: Text
    handbook: str | None = Field(default=None, description="Handbook section this rule comes from.")
    symptom: bool = Field(
        default=False, description="True when this error is usually the echo of another failure."
    )
    echo: bool = Field(
        default=False,
        description="True when the message only says that a process died, did not start or timed "
        "out (a Ray actor's death, an engine that failed to start): an exception no rule knows in "
        "the same log is then the reason, and leads the report.",
    )
    severity: Severity = Field(
        default="error",
        description="'warning' for messages printed before a failure (or by runs that go on): "
        "they are reported apart from errors and do not change the exit code unless asked.",
    )
    signatures: Annotated[list[str], Field(min_length=1, description="Regexes; any match is a hit.")]
    warnings: list[str] = Field(
        default_factory=list,
        description="Regexes for messages printed before this failure, or by runs that survive "
        "it (a pad token set for you): a match is a warning-level finding of this rule.",
    )
    fatal_at_end: Annotated[int, Field(ge=0, le=10000)] | None = Field(
        default=None,
        description="For warnings that precede a hang: a warning followed by at most this many "
        "lines of log is reported as the error (the run stopped making progress after it).",
    )
    fatal_when_repeated: Annotated[int, Field(ge=2, le=1_000_000_000)] | None = Field(
        default=None,
        description="For warnings that each cost a sample or a weight (a reward scorer scoring a "
        "sample 0, a request truncated, a weight the engine skipped): met this many times in a log "
        "that shows no error, and not ended by an exception, a warning is reported as the error "
        "(the run went on, learning from little or nothing).",
    )
    fatal_when_scored_zero: bool = Field(
        default=False,
        description="For warnings that each cost a sample its score (a reward scorer that cannot "
        "read a sample's test cases scores it 0): met in a log whose last logged mean score "
        "(critic/score/mean, or validation's reward/mean@N) is 0, and not ended by an exception, a "
        "warning is reported as the error (no sample scored).",
    )
    absorbs: list[Annotated[str, Field(pattern=r"^[A-Z]{2,6}\d{3}$")]] = Field(
        default_factory=list,
        description="Codes whose finding this rule's takes the place of when both come from one "
        "stretch of log: what failed (the checkpoint merger, a connect to a cluster) explains the "
        "message it failed with (a model path that is not a model folder, an unreachable GCS).",
    )
    exclude: list[str] = Field(default_factory=list, description="Regexes that veto a line.")
    literals: list[str] = Field(
        default_factory=list,
        description="Prefilter substrings for signatures from which none can be derived "
        "(each signature otherwise uses the longest literal every match contains).",
    )
    clues: list[Clue] = Field(default_factory=list)
    facts: list[str] = Field(
        default_factory=list,
        description="Regexes with named groups, read near a hit, that fill {placeholders} in the cause.",
    )
    analyzer_groups: list[str] = Field(
        default_factory=list,
        description="Groups the analyzer fills in when it reads this rule's failure from an "
        "exception's mechanism rather than a message (e.g. the user's function verl called with "
        "arguments it does not take); fixes may name them in `when`/`unless`.",
    )
    suggest: Literal["config-key"] | None = Field(
        default=None,
        description="Computed fix to add: 'config-key' suggests the real verl config key nearest to the "
        "one a signature or fact captured as (?P<key>...), with (?P<value>...) if captured.",
    )
    cause: Text
    fixes: Annotated[list[FixStep], Field(min_length=1)]
    pitfalls: list[Text] = Field(default_factory=list)
    references: Annotated[list[str], Field(min_length=1)]
    sources: list[Annotated[str, Field(pattern=SOURCE_PATTERN)]] = Field(
        default_factory=list,
        description="The statements that print this rule's messages, as "
        "'project@version path: text as printed' with {name} placeholders ({name=sample} "
        "gives the sample value the catalog test fills in); each must give this rule first.",
    )
    examples: Examples

    @field_validator("signatures", "warnings", "exclude", "facts", "literals")
    @classmethod
    def _no_empty_strings(cls, values: list[str]) -> list[str]:
        if any(not v for v in values):
            raise ValueError("empty string")
        return values

    @model_validator(mode="after")
    def _when_names_a_group(self) -> RuleSpec:
        patterns = [*self.signatures, *self.warnings, *self.facts]
        for i, fix in enumerate(self.fixes):
            for field, name in (("when", fix.when), ("unless", fix.unless)):
                if (
                    name
                    and name not in self.analyzer_groups
                    and not any(f"(?P<{name}>" in p for p in patterns)
                ):
                    raise ValueError(f"fixes.{i}.{field}: no signature or fact captures (?P<{name}>...)")
            if fix.exclusive and not fix.when:
                raise ValueError(f"fixes.{i}.exclusive: only a step with `when` can leave the others out")
        return self

    @model_validator(mode="after")
    def _prefix_matches_category(self) -> RuleSpec:
        prefix = CODE_PREFIX[self.category]
        if not (self.id.startswith(prefix) and self.id[len(prefix) :].isdigit()):
            raise ValueError(f"id {self.id} must start with {prefix} for category {self.category}")
        return self


def json_schema() -> dict[str, Any]:
    """The JSON Schema of a rule file, for editors (`# yaml-language-server: $schema=...`)."""
    schema = RuleSpec.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "verl-doctor rule"
    return schema
