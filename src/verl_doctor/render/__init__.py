"""Renderers: each turns a Report into text for one audience. They never see raw log bytes
that have not passed through `sanitize.visible` (text) or their format's own escaping."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from verl_doctor.engine.report import Report

_MODULES = {"json": "json_out", "markdown": "markdown", "github": "github"}


def render_text(report: Report, fmt: str) -> str:
    """The report in `fmt` (json, markdown, github; anything else is plain text), importing
    only that format's renderer."""
    if fmt in _MODULES:
        import importlib

        module = importlib.import_module(f"{__name__}.{_MODULES[fmt]}")
        return str(module.render(report))
    from verl_doctor.render.layout import build, to_plain

    return to_plain(build(report))
