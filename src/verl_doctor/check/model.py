"""What the checks read and what they return: a command's Hydra overrides, and issues."""

from __future__ import annotations

from verl_doctor.common.records import record

# Where an override typed on the command line comes from (its "line" is its argument position).
COMMAND = "<command>"


@record(frozen=True)
class Override:
    """One Hydra override as the user wrote it. `op` is "" (set), "+" (append), "++" (force)
    or "~" (delete); `value` is the parsed value (None, bool, int, float, str, list, dict),
    `has_value` False for a bare `~key`."""

    text: str
    op: str
    key: str
    value_text: str
    value: object
    has_value: bool
    source: str
    line: int


@record(frozen=True)
class Invocation:
    """One verl command: its entry module, the config it names, its overrides in order."""

    entry: str
    overrides: tuple[Override, ...]
    syntax_errors: tuple[Issue, ...]
    config_name: str | None
    config_path: str | None
    command: str
    source: str
    line: int
    multirun: bool = False


@record(frozen=True)
class Issue:
    """A failure verl would hit. `code` is the rule verl's own failure is diagnosed as;
    `fix` the corrected override (or command) when there is one. `certain` is False for what
    fails only in some runs or only once workers start (a warning: it does not fail the check)."""

    code: str
    override: str
    why: str
    fix: tuple[str, ...]
    cites: tuple[str, ...]
    source: str = COMMAND
    line: int = 0
    certain: bool = True
