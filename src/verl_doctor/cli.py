"""The typer app: `rules`, `env`, `run`, and `explain` (forwarded to explain_cmd, whose
argparse parser is the single definition of its options). Glue only: the work is elsewhere."""

from __future__ import annotations

from collections.abc import Sequence

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


def run_app(args: Sequence[str]) -> int:
    from . import (
        cli_more,  # noqa: F401  (registers `run` and `env`)
        cli_rules,  # noqa: F401  (registers `rules`)
    )

    try:
        app(args=list(args), prog_name="verl-doctor")
    except SystemExit as exc:  # typer reports usage errors itself and exits 2
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else 2)
    return 0
