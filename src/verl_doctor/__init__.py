"""verl-doctor: explains why a verl training run died.

`diagnose(path_or_text) -> Report` is the Python API; the CLI renders the same report.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"
__all__ = ["__version__", "diagnose"]

if TYPE_CHECKING:
    from .report import Report


def diagnose(inputs: Any, **kwargs: Any) -> Report:
    """Diagnose a log file path, a list of paths, or log text. See `verl_doctor.engine`."""
    from .engine import diagnose as _diagnose

    return _diagnose(inputs, **kwargs)
