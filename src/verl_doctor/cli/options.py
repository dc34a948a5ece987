"""Every command and option of the CLI, declared once.

Two parsers read these declarations: typer (cli/app.py), for help, usage errors and the
commands nobody waits for, and `parse_fast` here, which reads the usual command lines of
`explain` and `check` without importing typer (a 20-line paste is answered in less time than
typer and rich take to import). A property test holds the two to the same reading.
"""

from __future__ import annotations

from verl_doctor.catalog.categories import CATEGORIES
from verl_doctor.common.exit_codes import EXIT_CODES_HELP

TYPE_CHECKING = False  # typing is only needed by type checkers; importing it costs start-up time
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

REPORT_FORMATS = ("text", "json", "markdown", "github")
LANGS = ("en", "zh")


class Opt:
    """One option. kind: "flag" (on when given), "choice", "text", "float", "append" (repeatable
    value)."""

    __slots__ = ("flags", "dest", "kind", "help", "choices", "default", "metavar")

    def __init__(
        self,
        flags: tuple[str, ...],
        kind: str,
        help: str,  # noqa: A002 - the word every CLI library uses
        choices: tuple[str, ...] | None = None,
        default: Any = None,
        metavar: str | None = None,
        dest: str | None = None,
    ) -> None:
        self.flags, self.kind, self.help = flags, kind, help
        self.dest = dest or flags[-1].lstrip("-").replace("-", "_")
        self.choices, self.default, self.metavar = choices, default, metavar

    def only(self, *choices: str, help: str | None = None) -> Opt:  # noqa: A002
        """The same option with fewer choices (a command that renders fewer formats)."""
        return Opt(self.flags, self.kind, help or self.help, choices, self.default, self.metavar, self.dest)

    def initial(self) -> Any:
        if self.kind == "append":
            return []
        return False if self.kind == "flag" else self.default


class Arg:
    """The positional arguments of a command: `many` values (FILE...), or exactly one."""

    __slots__ = ("dest", "metavar", "help", "many", "required")

    def __init__(self, dest: str, metavar: str, help: str, many: bool = True, required: bool = False) -> None:  # noqa: A002
        self.dest, self.metavar, self.help, self.many, self.required = dest, metavar, help, many, required


class Command:
    """One command: its options, its arguments and, for `check` and `run`, the command line
    after `--` that it checks or runs (handed over untouched, never parsed as options)."""

    __slots__ = ("name", "summary", "help", "options", "argument", "takes_command", "epilog")

    def __init__(
        self,
        name: str,
        summary: str,
        help: str,  # noqa: A002
        options: tuple[Opt, ...],
        argument: Arg | None = None,
        takes_command: bool = False,
        epilog: str = "",
    ) -> None:
        self.name, self.summary, self.help, self.options = name, summary, help, options
        self.argument, self.takes_command, self.epilog = argument, takes_command, epilog


class Values:
    """A parsed command line: one attribute per option and argument (and `command`)."""

    def __init__(self, declared: Command, /, **given: Any) -> None:
        for opt in declared.options:
            setattr(self, opt.dest, opt.initial())
        if declared.argument is not None:
            setattr(self, declared.argument.dest, [] if declared.argument.many else None)
        self.command: list[str] = []
        self.__dict__.update(given)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Values) and vars(self) == vars(other)

    def __repr__(self) -> str:
        return f"Values({vars(self)!r})"

    def __getattr__(self, name: str) -> Any:
        # An option another command declares (emit reads `draft_rule`, `color`, ...): off.
        if name.startswith("__"):
            raise AttributeError(name)
        return None


# ------------------------------------------------------------------ the options, each once

FORMAT = Opt(("-f", "--format"), "choice", "output format", REPORT_FORMATS, "text")
LANG = Opt(
    ("--lang",), "choice", "language of titles, causes and fixes (default: from LC_ALL/LANGUAGE/LANG)", LANGS
)
RULES = Opt(
    ("--rules",),
    "append",
    "extra rule folder (repeatable); also VERL_DOCTOR_RULES and ~/.config/verl-doctor/rules",
    metavar="DIR",
)
NO_USER_RULES = Opt(("--no-user-rules",), "flag", "use the built-in rules only")
ALLOW_SLOW_RULES = Opt(
    ("--allow-slow-rules",),
    "flag",
    "also load user rules whose regexes `rules lint` finds catastrophically slow",
)
NO_REDACT = Opt(("--no-redact",), "flag", "show secrets (API keys, tokens, passwords) unmasked")
COLOR = Opt(
    ("--color",),
    "choice",
    "colour in text output (auto: in a terminal, unless NO_COLOR is set)",
    ("auto", "always", "never"),
    "auto",
)
EXIT_ZERO = Opt(("--exit-zero",), "flag", "exit 0 after any successful analysis")
NO_STEP_SUMMARY = Opt(
    ("--no-step-summary",), "flag", "do not append the markdown report to $GITHUB_STEP_SUMMARY"
)
VERL_VERSION = Opt(
    ("--verl-version",),
    "text",
    "check against this verl version (default: the installed one, else the newest known)",
    metavar="V",
)

EXPLAIN = Command(
    "explain",
    "Explain a log: the known error, its cause, fixes that work on verl.",
    "Explain why a verl run failed: known errors, their cause and fixes. Reads log files (plain, "
    "gzip, UTF-16), '-' for stdin, or a paste at the terminal.",
    (
        FORMAT,
        LANG,
        RULES,
        NO_USER_RULES,
        ALLOW_SLOW_RULES,
        Opt(("--binary",), "flag", "read files that look binary instead of skipping them"),
        NO_REDACT,
        COLOR,
        EXIT_ZERO,
        Opt(
            ("--fail-on",),
            "choice",
            "what makes the exit code non-zero (any error; 'warning': warnings too)",
            ("any", "known", "unrecognized", "warning"),
            "any",
        ),
        NO_STEP_SUMMARY,
        Opt(("--follow",), "flag", "keep reading FILE as it grows, report errors as they appear"),
        Opt(
            ("--until-idle",),
            "float",
            "with --follow: stop after this many seconds without new output",
            metavar="SECONDS",
        ),
        Opt(("--draft-rule",), "flag", "print a rule YAML drafted from the first unrecognized error"),
        Opt(("--env",), "flag", "also probe this machine and use it to confirm findings"),
    ),
    Arg("files", "FILE", "log files; '-' or nothing reads stdin"),
    epilog=EXIT_CODES_HELP,
)

CHECK = Command(
    "check",
    "Check a verl command before launch: keys, values, batch and parallel sizes, paths.",
    "Check a verl command, launch script or config file before launching it: unknown keys, "
    "invalid values, batch and parallel sizes, model/data paths, custom modules. Examples: "
    "verl-doctor check -- python3 -m verl.trainer.main_ppo data.train_batch_size=256 ...; "
    "verl-doctor check run_grpo.sh; verl-doctor check --config my_ppo.yaml.",
    (
        Opt(("--config",), "text", "a Hydra config file (as passed with --config-name)", metavar="FILE"),
        FORMAT,
        LANG,
        VERL_VERSION,
        Opt(("--here",), "flag", "also compare the GPUs asked for with this machine's"),
        Opt(("--strict",), "flag", "warnings (may fail at run time) also exit 1"),
        EXIT_ZERO.only(help="exit 0 whatever is found"),
        NO_REDACT,
        COLOR,
    ),
    Arg("files", "SCRIPT", "launch script(s) holding verl commands"),
    takes_command=True,
    epilog="Exit codes: 0 the command passes, 1 verl would fail, 2 usage error or nothing to check.",
)

RUN = Command(
    "run",
    "Run a training command and explain its failure the moment it happens.",
    "Run a training command, pass its output through, announce known errors as they appear (on "
    "stderr), print the diagnosis when it ends, and exit with the command's exit code. Example: "
    "verl-doctor run --log train.log -- python3 -m verl.trainer.main_ppo ...",
    (
        Opt(("--log",), "text", "also append the command's output to FILE", metavar="FILE"),
        Opt(("--report",), "text", "write the final diagnosis to FILE instead of stderr", metavar="FILE"),
        FORMAT,
        LANG,
        RULES,
        NO_USER_RULES,
        NO_REDACT,
        COLOR,
        NO_STEP_SUMMARY,
        Opt(
            ("--check",), "flag", "check the command first (as `verl-doctor check`); launch only if it passes"
        ),
        VERL_VERSION.only(help="with --check: the verl version to check against"),
    ),
    takes_command=True,
    epilog="Exit code: the command's own (2 when there is no command, or --check finds a problem).",
)

REDACT = Command(
    "redact",
    "Print a log with its secrets masked, to attach to an issue.",
    "Print a log with its secrets masked (API keys, tokens, passwords), to attach to an issue or "
    "keep as a CI artifact: the same masking as every report. Example: verl-doctor redact "
    "train.log -o train.redacted.log",
    (
        Opt(
            ("-o", "--output"),
            "text",
            "write to FILE (never one of the inputs) instead of stdout",
            metavar="FILE",
        ),
    ),
    Arg("files", "FILE", "logs (plain, gzip, UTF-16); '-' or none: stdin"),
    epilog="Exit codes: 0 done, 2 an input could not be read to its end.",
)

ENV = Command(
    "env",
    "Check this machine for verl: Python, verl, torch/CUDA/GPUs, extensions, Ray, ports.",
    "Check this machine for verl: Python, verl, torch/CUDA/GPUs, compiled extensions, Ray, ports.",
    (
        FORMAT.only("text", "json"),
        Opt(("--timeout",), "float", "seconds each probe may take", default=20.0, metavar="SECONDS"),
        Opt(
            ("--python",), "text", "probe this Python interpreter (default: python3 on PATH)", metavar="PATH"
        ),
    ),
    epilog="Exit codes: 0 no probe failed, 1 one did, 2 usage error.",
)

_CATEGORY = Opt(("-c", "--category"), "choice", "only this category", CATEGORIES)
_RULE_LIST_OPTIONS = (_CATEGORY, FORMAT.only("text", "json", "markdown"), LANG, RULES, NO_USER_RULES)

RULES_LIST = Command(
    "list",
    "Every rule, one line each: code, name, category, title.",
    "List every rule: code, name, category, title (`rules show CODE` for one in full).",
    _RULE_LIST_OPTIONS,
)
RULES_SHOW = Command(
    "show",
    "One rule in full: symptoms, cause, fixes, pitfalls, references, an example.",
    "Print one rule in full: symptoms, cause, fixes, pitfalls, references, an example.",
    (FORMAT.only("text", "json", "markdown"), LANG, RULES, NO_USER_RULES),
    Arg("code", "CODE", "rule code (FLOW004) or name (cuda-out-of-memory)", many=False, required=True),
)
RULES_LINT = Command(
    "lint",
    "Validate rule files, one line per problem.",
    "Validate rule files; one line per problem (file:line: rule: field: message).",
    (FORMAT.only("text", "json"),),
    Arg("dirs", "DIR", "rule folders (default: the built-in catalog)"),
    epilog="Exit codes: 0 no problem, 1 problems found.",
)
RULES_SCHEMA = Command(
    "schema",
    "The JSON Schema of a rule file.",
    "Print the JSON Schema of a rule file (for `# yaml-language-server: $schema=...`).",
    (),
)
RULES_DOCS = Command(
    "docs",
    "Generate the error-code reference and the rule schema from the catalog.",
    "Generate the error-code reference and the rule schema from the catalog.",
    (
        Opt(
            ("--out",),
            "text",
            "folder to write (or, with --check, compare) errors.md, errors.zh.md, rule.schema.json",
            metavar="DIR",
        ),
        Opt(("--check",), "flag", "only check the files are up to date; exit 1 if stale"),
    ),
)
RULES_COMMANDS = (RULES_LIST, RULES_SHOW, RULES_LINT, RULES_SCHEMA, RULES_DOCS)
RULES_GROUP_HELP = "Browse the rule catalog, lint rule files, print the rule schema."

COMMANDS = (EXPLAIN, CHECK, RUN, REDACT, ENV)


# ------------------------------------------------------------------ the fast parser


def split_command(command: Command, argv: Sequence[str]) -> tuple[list[str], list[str]]:
    """(the command's own arguments, the command line after `--` that `check`/`run` take)."""
    args = list(argv)
    if command.takes_command and "--" in args:
        i = args.index("--")
        return args[:i], args[i + 1 :]
    return args, []


def parse_fast(command: Command, argv: Sequence[str]) -> Values | None:
    """The usual command lines, read without typer. None means "let typer decide": help, an
    unknown or abbreviated option, a missing or invalid value; typer then says what is wrong."""
    by_flag = {flag: opt for opt in command.options for flag in opt.flags}
    own, after = split_command(command, argv)
    values: dict[str, Any] = {"command": after}
    positional: list[str] = []
    i, only_positional = 0, False
    while i < len(own):
        arg = own[i]
        i += 1
        if only_positional or arg == "-" or not arg.startswith("-"):
            positional.append(arg)
            continue
        if arg == "--":
            only_positional = True
            continue
        name, has_inline, inline = arg.partition("=") if arg.startswith("--") else (arg, "", "")
        opt = by_flag.get(name)
        if opt is None and not arg.startswith("--") and arg[:2] in by_flag:
            name, has_inline, inline = arg[:2], "=", arg[2:]  # -fjson
            opt = by_flag[name]
        if opt is None:
            return None
        if opt.kind == "flag":
            if has_inline:
                return None
            values[opt.dest] = True
            continue
        if has_inline:
            value = inline
        elif i < len(own) and not own[i].startswith("-"):
            value = own[i]
            i += 1
        else:
            return None
        if opt.kind == "append":
            values.setdefault(opt.dest, []).append(value)
        elif opt.kind == "float":
            try:
                values[opt.dest] = float(value)
            except ValueError:
                return None
        elif opt.choices is not None and value not in opt.choices:
            return None
        else:
            values[opt.dest] = value
    arg_decl = command.argument
    if arg_decl is None:
        if positional:
            return None
    elif arg_decl.many:
        values[arg_decl.dest] = positional
    elif len(positional) == 1:
        values[arg_decl.dest] = positional[0]
    elif positional or arg_decl.required:
        return None
    return Values(command, **values)
