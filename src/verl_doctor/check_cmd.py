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

from .stderr import error_line as _err

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from typing import NoReturn

    from .check.run import Checked
    from .report import Report

EXIT_PASS, EXIT_FAIL, EXIT_USAGE = 0, 1, 2
FORMATS = ("text", "json", "markdown", "github")
_SHELLS = ("bash", "sh", "zsh", "/bin/bash", "/bin/sh", "/usr/bin/bash", "/usr/bin/env")


class UsageError(Exception):
    """Nothing to check: one line for the user, exit 2."""


def build_parser() -> argparse.ArgumentParser:
    import argparse

    class OneLineErrors(argparse.ArgumentParser):
        def error(self, message: str) -> NoReturn:  # argparse prints the usage block first
            self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see --help)\n")

    p = OneLineErrors(
        prog="verl-doctor check",
        description="Check a verl command, launch script or config file before launching it: unknown "
        "keys, invalid values, batch and parallel sizes, model/data paths, custom modules.",
        epilog="Examples: verl-doctor check -- python3 -m verl.trainer.main_ppo data.train_batch_size=256 "
        "...; verl-doctor check run_grpo.sh; verl-doctor check --config my_ppo.yaml. "
        "Exit codes: 0 passes, 1 verl would fail, 2 usage error or nothing to check.",
    )
    p.add_argument("files", nargs="*", metavar="SCRIPT", help="launch script(s) holding verl commands")
    p.add_argument("--config", metavar="FILE", help="a Hydra config file (as passed with --config-name)")
    p.add_argument("-f", "--format", choices=FORMATS, default="text", help="output format (default: text)")
    p.add_argument("--lang", choices=("en", "zh"), help="language of titles (default: from the locale)")
    p.add_argument("--verl-version", metavar="V", help="check against this verl (default: the installed one)")
    p.add_argument("--here", action="store_true", help="also compare the GPUs asked for with this machine's")
    p.add_argument("--strict", action="store_true", help="warnings (may fail at run time) also exit 1")
    p.add_argument("--exit-zero", action="store_true", help="exit 0 whatever is found")
    p.add_argument("--no-redact", action="store_true", help="show secrets in the command unmasked")
    p.add_argument(
        "--color", choices=("auto", "always", "never"), default="auto", help="colour in text output"
    )
    return p


def split_argv(argv: Sequence[str]) -> tuple[list[str], list[str]]:
    """(check's own options, the command after `--`)."""
    args = list(argv)
    if "--" in args:
        i = args.index("--")
        return args[:i], args[i + 1 :]
    return args, []


def main(argv: Sequence[str]) -> int:
    own, command = split_argv(argv)
    opts = build_parser().parse_args(own)
    if not command and not opts.files and not opts.config:
        _err("check needs a command after --, a launch script or --config FILE (see --help)")
        return EXIT_USAGE
    try:
        report, exit_code = check(
            command, opts.files, opts.config, opts.verl_version, opts.here, opts.lang, opts.strict
        )
    except UsageError as exc:
        _err(str(exc))
        return EXIT_USAGE
    _emit(report, opts)
    return EXIT_PASS if opts.exit_zero else exit_code


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
    from .catalog import load_catalog
    from .check import parse
    from .check.findings import to_report
    from .check.model import COMMAND, Invocation, Override
    from .check.run import check_invocation
    from .check.version import choose
    from .i18n import choose_lang

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
        from .check.machine import local_gpus

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
    return report, EXIT_FAIL if failing else EXIT_PASS


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


def _emit(report: Report, opts: argparse.Namespace) -> None:
    from .explain_cmd import Options, emit

    emit(
        report,
        Options(
            format=opts.format,
            lang=opts.lang,
            no_redact=opts.no_redact,
            color=opts.color,
            no_step_summary=True,
        ),
    )
