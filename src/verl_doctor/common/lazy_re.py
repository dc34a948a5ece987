"""Regular expressions compiled when first used, not when their module is imported.

Most of the engine's module-level patterns serve checks that a given log never reaches (an
exception no rule explained, an override of one kind). Compiling them all at import was a
tenth of the time a short paste takes to answer. After the first call a pattern's methods are
the compiled pattern's own bound methods, stored on the instance: no cost on hot paths.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False  # (not `typing.TYPE_CHECKING`: importing typing costs the start-up)
if TYPE_CHECKING:
    from typing import Any


class _LazyPattern:
    def __init__(self, pattern: str, flags: int) -> None:
        self._source = pattern
        self._flags = flags

    def __getattr__(self, name: str) -> Any:
        # Only reached for names not yet on the instance: compile once, then keep every public
        # attribute of the compiled pattern so later lookups are plain instance lookups.
        compiled = re.compile(self._source, self._flags)
        for attr in dir(compiled):
            if not attr.startswith("_"):
                setattr(self, attr, getattr(compiled, attr))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy_compile({self._source!r}, {self._flags!r})"


def lazy_compile(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """Like `re.compile`, but the compiling waits until the pattern is first used.

    It is not an instance of `re.Pattern`; use it where a pattern's methods are called."""
    return _LazyPattern(pattern, flags)  # type: ignore[return-value]  # duck-typed as a pattern
