"""`verl-doctor check`: find the config mistakes in a verl command before it is launched.

    verl-doctor check -- python3 -m verl.trainer.main_ppo data.train_batch_size=256 ...
    verl-doctor check run_grpo.sh          # the verl commands in a launch script
    verl-doctor check --config my_ppo.yaml # a config file for --config-path/--config-name

Exit codes: 0 the command passes (warnings may be printed), 1 verl would fail on it,
2 usage error or nothing to check (no verl command found, a file unreadable), 4 internal error.
Nothing is imported from verl or from the user's files, and nothing is run.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from verl_doctor.cli.emit import emit
from verl_doctor.cli.stderr import error_line
from verl_doctor.common.exit_codes import ExitCode

TYPE_CHECKING = False
if TYPE_CHECKING:
    from verl_doctor.check.run import Checked
    from verl_doctor.cli.options import Values
    from verl_doctor.engine.report import Report

_SHELLS = ("bash", "sh", "zsh", "/bin/bash", "/bin/sh", "/usr/bin/bash", "/usr/bin/env")


class UsageError(Exception):
    """Nothing to check: one line for the user, exit 2."""


def main(values: Values) -> int:
    if not values.command and not values.files and not values.config:
        error_line("check needs a command after --, a launch script or --config FILE (see --help)")
        return ExitCode.USAGE
    try:
        report, exit_code = check(
            values.command,
            values.files,
            values.config,
            values.verl_version,
            values.here,
            values.lang,
            values.strict,
        )
    except UsageError as exc:
        error_line(str(exc))
        return ExitCode.USAGE
    emit(report, values, step_summary=False)
    return ExitCode.OK if values.exit_zero else exit_code


def check(
    command: Sequence[str],
    scripts: Sequence[str] = (),
    config_file: str | None = None,
    verl_version: str | None = None,
    here: bool = False,
    lang: str | None = None,
    strict: bool = False,
) -> tuple[Report, int]:
    """The report on a command / scripts / config file, and the exit code it earns."""
    from verl_doctor.catalog.load import load_catalog
    from verl_doctor.check import parse
    from verl_doctor.check.findings import to_report
    from verl_doctor.check.model import COMMAND, Invocation, Override
    from verl_doctor.check.run import check_invocation
    from verl_doctor.check.version import choose
    from verl_doctor.common.i18n import choose_lang

    version, version_from, key_version = choose(verl_version)
    invocations: list[Invocation] = []
    sources: list[str] = []
    file_overrides: tuple[Override, ...] = ()
    config_issues = []
    if config_file:
        text = _read(config_file)
        found = parse.from_config_file(text, config_file)
        file_overrides = tuple(o for o in found if isinstance(o, Override))
        config_issues = [i for i in found if not isinstance(i, Override)]
        sources.append(config_file)
        if not command and not scripts:
            command = [
                "python3",
                "-m",
                "verl.trainer.main_ppo",
                "--config-name",
                _config_name(config_file, text),
            ]
    if command:
        script = _script_in(command)
        if script:
            scripts = [*scripts, script]
        else:
            try:
                invocations.append(parse.from_argv(command))
            except parse.NoCommand as exc:
                raise UsageError(str(exc)) from None
            sources.append(COMMAND)
    for path in scripts:
        found_here = parse.from_script(_read(path), path)
        if not found_here:
            raise UsageError(f"no verl command (python3 -m verl.trainer...) found in {path}")
        invocations.extend(found_here)
        sources.append(path)
    gpus: list[tuple[str, int]] | None | bool = False
    if here:
        from verl_doctor.check.machine import local_gpus

        gpus = local_gpus()
    checked: list[Checked] = [
        check_invocation(inv, key_version, version, None, file_overrides, gpus) for inv in invocations
    ]
    if config_issues and checked:
        checked[0].issues[:0] = config_issues
    report = to_report(
        checked, load_catalog(), choose_lang(lang), version, version_from, key_version, tuple(sources)
    )
    failing = [f for f in report.findings if strict or f.confidence == "high"]
    return report, ExitCode.FOUND if failing else ExitCode.OK


def _script_in(command: Sequence[str]) -> str | None:
    """`bash run.sh` / `sh run.sh` / `./run.sh`: the script to read instead of a verl command."""
    if not command:
        return None
    first = command[0]
    if first in _SHELLS or first.endswith(("/bash", "/sh")):
        rest = [a for a in command[1:] if not a.startswith("-") and a not in ("bash", "sh")]
        return rest[0] if rest and os.path.isfile(rest[0]) else None
    if first.endswith(".sh") and os.path.isfile(first):
        return first
    return None


def _config_name(path: str, text: str) -> str:
    """The trainer config the file builds on: ppo_megatron_trainer when its defaults say so."""
    return "ppo_megatron_trainer" if "ppo_megatron_trainer" in text else "ppo_trainer"


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None
