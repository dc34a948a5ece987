"""Find the verl command to check: in an argv (`check -- python3 -m verl.trainer.main_ppo ...`),
in a launch script (its shell variables resolved where the script sets them), or in a YAML
config file (each leaf becomes an override). Nothing here runs the script or imports verl."""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence

from verl_doctor.check.model import COMMAND, Invocation, Issue, Override
from verl_doctor.check.override import CITE_GRAMMAR, parse_override

# verl's entry modules, and the config each loads by default (its @hydra.main config_name).
ENTRIES = {
    "verl.trainer.main_ppo": "ppo_trainer",
    "verl.trainer.main_ppo_sync": "ppo_trainer",
    "verl.trainer.fsdp_sft_trainer": "sft_trainer",
    "verl.trainer.sft_trainer": "sft_trainer_engine",
    "verl.trainer.main_generation": "generation",
    "verl.trainer.main_generation_server": "ppo_trainer",
    "verl.trainer.main_eval": "evaluation",
}
# Hydra's own command-line flags (hydra/_internal/utils.py get_args_parser), with whether they
# take a value.
_HYDRA_FLAGS = {
    "--config-path": True,
    "-cp": True,
    "--config-name": True,
    "-cn": True,
    "--config-dir": True,
    "-cd": True,
    "--package": True,
    "-p": True,
    "--cfg": True,
    "-c": True,
    "--experimental-rerun": True,
    "--shell-completion": False,
    "-sc": True,
    "--multirun": False,
    "-m": False,
    "--resolve": False,
    "--help": False,
    "-h": False,
    "--hydra-help": False,
    "--version": False,
    "--info": False,
    "-i": False,
    "--run": False,
    "-r": False,
}
_PYTHONS = re.compile(r"(?:.*/)?(?:python(?:\d(?:\.\d+)?)?|torchrun|accelerate|deepspeed)$")
_ENTRY_FILE = re.compile(r"(?:^|/)verl/trainer/(\w+)\.py$")
_SHELL_ARG = re.compile(r"^\$(?:[@*#]|\{?[A-Za-z_]\w*(?:[:\-=?][^}]*)?\}?$)")
_ASSIGN = re.compile(r"^(?:export\s+|local\s+|readonly\s+|declare\s+(?:-\w+\s+)*)?([A-Za-z_]\w*)=(.*)$")


class NoCommand(ValueError):
    """The text holds no verl command."""


def from_argv(argv: Sequence[str], source: str = COMMAND, line: int = 0) -> Invocation:
    """The verl invocation in one command line (env assignments, `python3 -m`, torchrun or
    `ray job submit --` before it are skipped)."""
    args = list(argv)
    start = _entry_index(args)
    if start is None:
        raise NoCommand(f"no verl entry point (python3 -m verl.trainer.main_ppo, ...) in: {shlex.join(args)}")
    entry, index = start
    overrides: list[Override] = []
    errors: list[Issue] = []
    config_name = config_path = None
    multirun = False
    rest = args[index + 1 :]
    # Hydra's argparse takes the overrides as one positional run (nargs="*"): overrides after
    # a flag that follows earlier overrides are "unrecognized arguments".
    run_started = run_ended = False
    stray: list[str] = []
    flags_after: list[str] = []
    i = 0
    while i < len(rest):
        arg = rest[i]
        i += 1
        if _SHELL_ARG.match(arg):
            continue  # "$@", $EXTRA: filled in by whoever runs the script, unknown here
        if arg.startswith("-"):
            flag, eq, value = arg.partition("=")
            if flag not in _HYDRA_FLAGS:
                errors.append(_unknown_flag(arg, source, line if source != COMMAND else index + 1 + i))
                continue
            if _HYDRA_FLAGS[flag] and not eq:
                value = rest[i] if i < len(rest) else ""
                i += 1
            if run_started and not run_ended:
                run_ended = True
            if run_started:
                flags_after.append(arg if eq or not _HYDRA_FLAGS[flag] else f"{flag} {value}")
            if flag in ("--config-name", "-cn"):
                config_name = value
            elif flag in ("--config-path", "-cp"):
                config_path = value
            elif flag in ("--multirun", "-m"):
                multirun = True
            continue
        # In a command the "line" is the argument's position; in a script, the script line.
        where = line if source != COMMAND else index + 1 + i
        run_started = True
        if run_ended:
            if not stray:
                errors.append(_after_flag(arg, flags_after, args[: index + 1], source, where))
            stray.append(arg)
            continue
        parsed = parse_override(arg, source, where)
        if isinstance(parsed, Issue):
            errors.append(parsed)
        else:
            overrides.append(parsed)
    if multirun:  # with --multirun a comma-separated value is a sweep, not a mistake
        errors = [e for e in errors if "makes a sweep" not in e.why]
    return Invocation(
        entry=entry,
        overrides=tuple(overrides),
        syntax_errors=tuple(errors),
        config_name=config_name,
        config_path=config_path,
        command=shlex.join(args),
        source=source,
        line=line,
        multirun=multirun,
    )


def _after_flag(arg: str, flags: list[str], head: list[str], source: str, line: int) -> Issue:
    return Issue(
        code="CFG016",
        override=arg,
        why=f"`{arg}` comes after `{flags[0]}`, which follows other overrides; Hydra's command line takes "
        "the overrides as one run, so it stops with 'unrecognized arguments'. Put the flags first",
        fix=(f"{shlex.join(head)} {' '.join(flags)} <all the overrides>",),
        cites=("hydra/_internal/utils.py get_args_parser: overrides nargs='*' (Hydra 1.3)",),
        source=source,
        line=line,
    )


def _unknown_flag(arg: str, source: str, line: int) -> Issue:
    fix = (arg.lstrip("-"),) if "=" in arg and not arg.startswith("--config") else ()
    return Issue(
        code="CFG016",
        override=arg,
        why=f"Hydra's command line has no option `{arg.split('=', 1)[0]}` (it stops with "
        "'unrecognized arguments'); config overrides are written key=value, without dashes",
        fix=fix,
        cites=("hydra/_internal/utils.py get_args_parser (Hydra 1.3)", CITE_GRAMMAR),
        source=source,
        line=line,
    )


def _entry_index(args: list[str]) -> tuple[str, int] | None:
    """(entry module, index of the token naming it)."""
    for i, arg in enumerate(args):
        if arg == "-m" and i + 1 < len(args) and args[i + 1].startswith("verl.") and _after_python(args, i):
            return args[i + 1], i + 1
        m = _ENTRY_FILE.search(arg)
        if m and i > 0:
            return f"verl.trainer.{m.group(1)}", i
    return None


def _after_python(args: list[str], i: int) -> bool:
    return any(_PYTHONS.match(a) for a in args[:i])


def from_script(text: str, source: str) -> list[Invocation]:
    """Every verl command in a shell script, with the script's own variables filled in."""
    variables: dict[str, str] = {}
    found: list[Invocation] = []
    for number, logical in _logical_lines(text):
        stripped = logical.strip()
        if not stripped or stripped.startswith("#"):
            continue
        m = _ASSIGN.match(stripped)
        if m and " " not in m.group(2).strip().strip("'\"").split("#", 1)[0].strip():
            variables[m.group(1)] = _unquote(_expand(m.group(2), variables))
            continue
        if "verl." not in stripped and "verl/trainer" not in stripped:
            continue
        expanded = _expand(stripped, variables)
        try:
            argv = shlex.split(expanded, comments=True)
        except ValueError:
            continue
        try:
            found.append(from_argv(argv, source, number))
        except NoCommand:
            continue
    return found


def _logical_lines(text: str) -> list[tuple[int, str]]:
    """Lines with backslash continuations joined, numbered by their first physical line."""
    out: list[tuple[int, str]] = []
    buffer, first = "", 0
    for number, raw in enumerate(text.splitlines(), 1):
        if not buffer:
            first = number
        line = raw.rstrip()
        if line.endswith("\\"):
            buffer += line[:-1] + " "
            continue
        out.append((first, buffer + line))
        buffer = ""
    if buffer:
        out.append((first, buffer))
    return out


_VAR = re.compile(r"\$(?:\{([A-Za-z_]\w*)(?::?-([^}]*))?\}|([A-Za-z_]\w*))")


def _expand(text: str, variables: dict[str, str]) -> str:
    """$VAR, ${VAR} and ${VAR:-default} replaced where the script set VAR; not inside single
    quotes (the shell does not expand there). Unknown variables stay as written."""
    out, i, in_single = [], 0, False
    while i < len(text):
        ch = text[i]
        if ch == "'" and not _in_double(text, i):
            in_single = not in_single
        if ch == "$" and not in_single:
            m = _VAR.match(text, i)
            if m:
                name = m.group(1) or m.group(3)
                if name in variables:
                    out.append(variables[name])
                    i = m.end()
                    continue
                if m.group(2) is not None:
                    out.append(m.group(2))
                    i = m.end()
                    continue
        out.append(ch)
        i += 1
    return "".join(out)


def _in_double(text: str, index: int) -> bool:
    return text[:index].count('"') % 2 == 1


def _unquote(value: str) -> str:
    """A shell assignment's value without its quotes."""
    try:
        parts = shlex.split(value, comments=True)
    except ValueError:
        return value
    return " ".join(parts) if parts else ""


def from_config_file(text: str, source: str) -> list[Override | Issue]:
    """Overrides equivalent to a Hydra config file's values (its `defaults` list and `hydra`
    section are Hydra's own and are left out)."""
    import yaml

    try:
        root = yaml.compose(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        return [
            Issue(
                code="CFG016",
                override=source,
                why=f"the config file is not valid YAML: {getattr(exc, 'problem', exc)}",
                fix=(),
                cites=("hydra/_internal/config_loader_impl.py (yaml.load of the config file)",),
                source=source,
                line=(mark.line + 1) if mark is not None else 0,
            )
        ]
    out: list[Override | Issue] = []
    if root is None or not isinstance(root, yaml.MappingNode):
        return out

    def walk(node: yaml.Node, prefix: str) -> None:
        assert isinstance(node, yaml.MappingNode)
        for key_node, value_node in node.value:
            key = f"{prefix}{key_node.value}"
            if not prefix and key_node.value in ("defaults", "hydra"):
                continue
            if isinstance(value_node, yaml.MappingNode) and value_node.value:
                walk(value_node, key + ".")
                continue
            line = key_node.start_mark.line + 1
            value = yaml.safe_load(yaml.serialize(value_node))
            text_value = _yaml_text(value_node, value)
            out.append(Override(f"{key}: {text_value}", "", key, text_value, value, True, source, line))

    walk(root, "")
    return out


def _yaml_text(node: object, value: object) -> str:
    scalar = getattr(node, "value", None)
    return scalar if isinstance(scalar, str) else str(value)
