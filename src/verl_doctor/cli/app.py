"""The typer app, built from the declarations in cli/options.py: one help style for every
command, usage errors in one line. Each command's work is a function `Values -> int` in its
own module (cli/commands.py names them); this module only wires."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any, Literal

import typer

from verl_doctor.cli import options as o
from verl_doctor.cli.stderr import say
from verl_doctor.common.about import __version__
from verl_doctor.common.exit_codes import ExitCode

_HELP = {"help_option_names": ["-h", "--help"]}


def _annotation(opt: o.Opt) -> Any:
    if opt.kind == "flag":
        return bool
    if opt.kind == "float":
        return float | None if opt.default is None else float
    if opt.kind == "append":
        return list[str]
    if opt.choices:
        return Literal[opt.choices] if opt.default is not None else Literal[opt.choices] | None
    return str | None


def _parameters(command: o.Command) -> list[inspect.Parameter]:
    kw = inspect.Parameter.KEYWORD_ONLY
    params = [inspect.Parameter("ctx", kw, annotation=typer.Context)]
    for opt in command.options:
        default = opt.initial()
        option = typer.Option(
            default, *opt.flags, help=opt.help, metavar=opt.metavar, show_default=bool(default)
        )
        params.append(inspect.Parameter(opt.dest, kw, default=option, annotation=_annotation(opt)))
    arg = command.argument
    if arg is not None:
        argument = typer.Argument(
            ... if arg.required else None, metavar=arg.metavar, help=arg.help, show_default=False
        )
        annotation: Any = (list[str] | None) if arg.many else (str if arg.required else str | None)
        params.append(inspect.Parameter(arg.dest, kw, default=argument, annotation=annotation))
    return params


def register(
    target: typer.Typer, command: o.Command, work: Callable[[o.Values], int], group: bool = False
) -> None:
    """Declare `command` on `target` (or as the callback of a command group) from its
    declaration; typer parses, `work` does the rest."""
    params = _parameters(command)

    def handler(**given: Any) -> None:
        ctx: typer.Context = given.pop("ctx")
        if group and ctx.invoked_subcommand is not None:
            return
        if command.argument is not None and command.argument.many:
            given[command.argument.dest] = list(given[command.argument.dest] or [])
        after = ctx.obj if isinstance(ctx.obj, list) else list(ctx.args)
        raise typer.Exit(int(work(o.Values(command, command=after, **given))))

    handler.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    handler.__annotations__ = {p.name: p.annotation for p in params}
    handler.__doc__ = command.help + (f"\n\n{command.epilog}" if command.epilog else "")
    handler.__name__ = command.name
    settings: dict[str, Any] = {}
    if command.takes_command and command.argument is None:
        # `run CMD ARGS...` without `--`: the first word that is not an option starts the command
        settings = {"allow_extra_args": True, "allow_interspersed_args": False}
    # `check`/`run` take the command line to check or run after `--`: the usage line says so.
    metavar = "[OPTIONS]"
    if command.takes_command:
        metavar += " [-- COMMAND...]" if command.argument is not None else " -- COMMAND..."
    if group:
        target.callback(invoke_without_command=True, context_settings=settings)(handler)
    else:
        target.command(
            command.name,
            help=handler.__doc__,
            short_help=command.summary,
            context_settings=settings,
            options_metavar=metavar,
        )(handler)


def build_app() -> typer.Typer:
    from verl_doctor.cli import commands

    app = typer.Typer(
        name="verl-doctor",
        help="Explains why a verl training run died: the known error, its cause, fixes that work on verl.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,
        context_settings=_HELP,
    )

    def _version(value: bool) -> None:
        if value:
            typer.echo(f"verl-doctor {__version__}")
            raise typer.Exit()

    @app.callback()
    def _root(
        version: bool = typer.Option(
            False, "--version", callback=_version, is_eager=True, help="print the version"
        ),
    ) -> None:
        """verl-doctor: explain verl failures from their logs, check verl commands before launch."""

    for command in o.COMMANDS:
        register(app, command, commands.WORK[command.name])
    rules_app = typer.Typer(
        help=o.RULES_GROUP_HELP, no_args_is_help=False, rich_markup_mode=None, context_settings=_HELP
    )
    register(rules_app, o.RULES_LIST, commands.WORK["rules list"], group=True)
    for command in o.RULES_COMMANDS:
        register(rules_app, command, commands.WORK[f"rules {command.name}"])
    app.add_typer(rules_app, name="rules", short_help=o.RULES_GROUP_HELP)
    return app


def run_app(args: Sequence[str]) -> int:
    """Parse `args` with typer and run the command; usage errors in one line, exit 2."""
    args = list(args)
    after = None
    named = {c.name: c for c in o.COMMANDS}
    if args and args[0] in named and named[args[0]].takes_command and "--" in args:
        # The command line after `--` is handed over untouched (click would read it as FILEs).
        i = args.index("--")
        args, after = args[:i], args[i + 1 :]
    # click's error classes: typer vendors click from 0.20 on and only exports their subclasses
    # (BadParameter is a UsageError, which is a ClickException), so find them through it.
    bases: dict[str, Any] = {c.__name__: c for c in typer.BadParameter.__mro__}
    usage_error, click_error = bases["UsageError"], bases["ClickException"]
    try:
        # Not standalone: click raises its errors here instead of printing a usage block, and
        # returns the code of a `typer.Exit`.
        code = build_app()(args=args, prog_name="verl-doctor", standalone_mode=False, obj=after)
    except usage_error as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":  # `verl-doctor` alone: the help
            say(exc.format_message())
            return ExitCode.USAGE
        ctx = getattr(exc, "ctx", None)
        where = ctx.command_path if ctx is not None else "verl-doctor"
        say(f"{where}: error: {exc.format_message()} (see {where} --help)")
        return ExitCode.USAGE
    except click_error as exc:
        say(f"verl-doctor: error: {exc.format_message()}")
        return int(exc.exit_code)
    except typer.Exit as exc:
        return int(exc.exit_code)
    except typer.Abort:
        return ExitCode.INTERRUPTED  # Ctrl-C while typer was parsing or prompting
    return code if isinstance(code, int) else ExitCode.OK
