"""The typer app: `rules`, `env`, `run`, and `explain` / `check` (forwarded to explain_cmd
and check_cmd, whose argparse parsers are the single definition of their options).
Glue only: the work is elsewhere."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import typer

from . import __version__

app = typer.Typer(
    name="verl-doctor",
    help="Explains why a verl training run died: the known error, its cause, fixes that work on verl.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"verl-doctor {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version."
    ),
) -> None:
    """verl-doctor: explain verl failures from their logs."""


@app.command(
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True, "help_option_names": []},
    add_help_option=False,
)
def explain(ctx: typer.Context) -> None:
    """Explain a log: `verl-doctor explain train.log`, or pipe/paste it (see `explain --help`)."""
    from .explain_cmd import main

    raise typer.Exit(main(list(ctx.args)))


@app.command(
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True, "help_option_names": []},
    add_help_option=False,
)
def check(ctx: typer.Context) -> None:
    """Check a verl command before launch: `verl-doctor check -- python3 -m verl.trainer.main_ppo ...`."""
    from .check_cmd import main

    raise typer.Exit(main(list(ctx.args)))


def run_app(args: Sequence[str]) -> int:
    from . import (
        cli_more,  # noqa: F401  (registers `run` and `env`)
        cli_rules,  # noqa: F401  (registers `rules`)
    )

    # click's error classes: typer vendors click from 0.20 on and only exports their subclasses
    # (BadParameter is a UsageError, which is a ClickException), so find them through it.
    bases: dict[str, Any] = {c.__name__: c for c in typer.BadParameter.__mro__}
    usage_error, click_error = bases["UsageError"], bases["ClickException"]
    try:
        # Not standalone: click raises its errors here instead of printing a usage block, and
        # returns the code of a `typer.Exit`.
        code = app(args=list(args), prog_name="verl-doctor", standalone_mode=False)
    except usage_error as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":  # `verl-doctor rules` alone: the help
            _err(exc.format_message())
            return 2
        # One line, like `explain`'s: `verl-doctor rules: error: No such option: --x (see ... --help)`
        ctx = getattr(exc, "ctx", None)
        where = ctx.command_path if ctx is not None else "verl-doctor"
        _err(f"{where}: error: {exc.format_message()} (see {where} --help)")
        return 2
    except click_error as exc:
        _err(f"verl-doctor: error: {exc.format_message()}")
        return int(exc.exit_code)
    except typer.Exit as exc:
        return int(exc.exit_code)
    except typer.Abort:
        return 130  # Ctrl-C while typer was parsing or prompting
    except SystemExit as exc:
        status = exc.code
        return status if isinstance(status, int) else (0 if status is None else 2)
    return code if isinstance(code, int) else 0


def _err(message: str) -> None:
    import sys

    try:
        sys.stderr.write(message + "\n")
    except (OSError, ValueError):
        pass
