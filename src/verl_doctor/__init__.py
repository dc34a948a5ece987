"""verl-doctor: explains why a verl training run died.

`diagnose(path_or_text) -> Report` is the Python API; the CLI renders the same report.
"""

from __future__ import annotations

from verl_doctor.common.about import __version__

TYPE_CHECKING = False  # typing is only needed by type checkers; importing it costs start-up time
if TYPE_CHECKING:
    from typing import Any

    from verl_doctor.engine.report import Report


__all__ = ["__version__", "diagnose"]


def diagnose(inputs: Any, **kwargs: Any) -> Report:
    """Diagnose a log file path, a list of paths, or log text. See `verl_doctor.engine`."""
    from verl_doctor.engine.session import diagnose as _diagnose

    return _diagnose(inputs, **kwargs)
