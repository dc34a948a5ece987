"""Which function does each command's work: `Values -> exit code`, imported only when run."""

from __future__ import annotations

from importlib import import_module

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from verl_doctor.cli.options import Values

# command -> (module, function)
_WHERE = {
    "explain": ("verl_doctor.cli.explain", "main"),
    "check": ("verl_doctor.cli.check", "main"),
    "run": ("verl_doctor.cli.run", "main"),
    "redact": ("verl_doctor.cli.redact", "main"),
    "env": ("verl_doctor.cli.env", "main"),
    "rules list": ("verl_doctor.cli.rules", "list_rules"),
    "rules show": ("verl_doctor.cli.rules", "show"),
    "rules lint": ("verl_doctor.cli.rules", "lint"),
    "rules schema": ("verl_doctor.cli.rules", "schema"),
    "rules docs": ("verl_doctor.cli.rules", "docs"),
}


def _lazy(name: str) -> Callable[[Values], int]:
    def work(values: Values) -> int:
        module, function = _WHERE[name]
        return int(getattr(import_module(module), function)(values))

    return work


WORK: dict[str, Callable[[Values], int]] = {name: _lazy(name) for name in _WHERE}
