"""`verl-doctor run -- CMD`, `verl-doctor redact` and `verl-doctor env`."""

from __future__ import annotations

from enum import Enum

import typer

from .cli import app


class RunFmt(str, Enum):
    text = "text"
    json = "json"
    markdown = "markdown"
    github = "github"


@app.command("run", context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def run(
    ctx: typer.Context,
    log: str | None = typer.Option(
        None, "--log", metavar="FILE", help="Also append the command's output to FILE."
    ),
    report: str | None = typer.Option(
        None, "--report", metavar="FILE", help="Write the final diagnosis to FILE instead of stderr."
    ),
    fmt: RunFmt = typer.Option(RunFmt.text, "--format", "-f", help="Format of the final diagnosis."),
    lang: str | None = typer.Option(None, "--lang", help="en or zh."),
    rules: list[str] = typer.Option([], "--rules", metavar="DIR", help="Extra rule folder (repeatable)."),
    no_redact: bool = typer.Option(False, "--no-redact", help="Show secrets unmasked in the diagnosis."),
    check: bool = typer.Option(
        False, "--check", help="Check the command first (as `verl-doctor check`); launch only if it passes."
    ),
    verl_version: str | None = typer.Option(
        None, "--verl-version", metavar="V", help="With --check: the verl version to check against."
    ),
) -> None:
    """Run a training command, pass its output through, announce known errors as they appear
    (on stderr), print the diagnosis when it ends, and exit with the command's exit code.

    Example: verl-doctor run --log train.log -- python3 -m verl.trainer.main_ppo ...
    """
    from .catalog import load_catalog
    from .i18n import choose_lang
    from .live import run_command

    command = list(ctx.args)
    if command and command[0] == "--":
        command = command[1:]
    if not command:
        typer.echo(
            "verl-doctor: run needs a command after --, e.g. verl-doctor run -- bash train.sh", err=True
        )
        raise typer.Exit(2)
    if check:
        code = _check_first(command, fmt.value, lang, verl_version, no_redact)
        if code:
            raise typer.Exit(code)
    catalog = load_catalog(extra_dirs=rules)
    for problem in catalog.problems:
        typer.echo(f"verl-doctor: warning: skipped broken rule: {problem}", err=True)
    code = run_command(command, catalog, choose_lang(lang), log, report, fmt.value, not no_redact)
    raise typer.Exit(code)


@app.command("redact")
def redact(
    files: list[str] = typer.Argument(
        None, metavar="FILE", help="Logs (plain, gzip, UTF-16); '-' or none: stdin."
    ),
    output: str | None = typer.Option(
        None,
        "--output",
        "-o",
        metavar="FILE",
        help="Write to FILE (never one of the inputs) instead of stdout.",
    ),
) -> None:
    """Print a log with its secrets masked (API keys, tokens, passwords), to attach to an issue
    or keep as a CI artifact: the same masking as every report.

    Example: verl-doctor redact train.log -o train.redacted.log
    """
    from .redact_cmd import main

    raise typer.Exit(main(files or [], output))


def _check_first(
    command: list[str], fmt: str, lang: str | None, verl_version: str | None, no_redact: bool
) -> int:
    """`run --check`: the check's report on stderr (stdout is the command's); 0 to launch, else
    the exit code to stop with (1: verl would fail, 2: nothing to check)."""
    import sys

    from .check_cmd import UsageError, check
    from .explain_cmd import Options, emit

    try:
        report, code = check(command, verl_version=verl_version, lang=lang)
    except UsageError as exc:
        typer.echo(f"verl-doctor: run --check: {exc}", err=True)
        return 2
    if report.findings or code:
        emit(
            report,
            Options(format=fmt, lang=lang, no_redact=no_redact, color="never", no_step_summary=True),
            sys.stderr,
        )
    if code:
        typer.echo("verl-doctor: the check found problems verl would stop on; not launching", err=True)
    return code


class EnvFmt(str, Enum):
    text = "text"
    json = "json"


@app.command("env")
def env(
    fmt: EnvFmt = typer.Option(EnvFmt.text, "--format", "-f", help="text or json."),
    timeout: float = typer.Option(20.0, "--timeout", help="Seconds each probe may take."),
    python: str | None = typer.Option(
        None, "--python", metavar="PATH", help="Probe this Python interpreter (default: python3 on PATH)."
    ),
) -> None:
    """Check this machine for verl: Python, verl, torch/CUDA/GPUs, extensions, Ray, ports."""
    from .env import main as env_main

    raise typer.Exit(env_main(fmt.value, timeout, python))
