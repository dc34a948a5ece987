"""Drawing the env report: a rich table on a terminal, aligned plain text otherwise, or JSON.

Probe output is untrusted text (paths, error messages, tool output), so every string passes
through `visible()` and reaches rich as `Text`, never as markup.
"""

from __future__ import annotations

import json
import os
from typing import Any, TextIO

from verl_doctor.env.model import EnvReport, ProbeResult
from verl_doctor.render.sanitize import escape_json_text, visible

_STYLE = {"ok": "green", "warn": "yellow", "fail": "bold red", "skipped": "dim"}
_DETAIL_LIMIT = 300


def _clean(value: Any) -> Any:
    if isinstance(value, str):
        return visible(value, None)
    if isinstance(value, list | tuple):
        return [_clean(v) for v in value]
    if isinstance(value, dict):
        return {visible(str(k), None): _clean(v) for k, v in value.items()}
    return value


def to_json(report: EnvReport) -> str:
    return escape_json_text(json.dumps(_clean(report.to_dict()), ensure_ascii=False, indent=2)) + "\n"


def _cells(p: ProbeResult) -> tuple[str, str, str, str]:
    return p.status, visible(p.name, 40), visible(p.detail, _DETAIL_LIMIT), visible(p.rule or "", 20)


def _summary(report: EnvReport) -> str:
    s = report.summary
    return f"{s['ok']} ok, {s['warn']} warn, {s['fail']} fail, {s['skipped']} skipped"


def _header(report: EnvReport, python: str | None) -> str:
    return f"verl-doctor env: probing {visible(python or 'no Python', 200)}"


def _footer(report: EnvReport) -> list[str]:
    lines = [f"summary: {_summary(report)}"]
    rules = sorted({p.rule for p in report.probes if p.rule and p.status in ("fail", "warn")})
    if rules:
        lines.append(
            "what a rule means and how to fix it: verl-doctor rules show "
            + visible(rules[0], 20)
            + (f"  (also {', '.join(visible(r, 20) for r in rules[1:])})" if len(rules) > 1 else "")
        )
    return lines


def to_plain(report: EnvReport, python: str | None) -> str:
    rows = [("STATUS", "PROBE", "DETAIL", "RULE")] + [_cells(p) for p in report.probes]
    w0 = max(len(r[0]) for r in rows)
    w1 = max(len(r[1]) for r in rows)
    w2 = max(len(r[2]) for r in rows)
    out = [_header(report, python), ""]
    for status, name, detail, rule in rows:
        out.append(f"{status:<{w0}}  {name:<{w1}}  {detail:<{w2}}  {rule}".rstrip())
    out.append("")
    out += _footer(report)
    return "\n".join(out) + "\n"


def write_rich(report: EnvReport, python: str | None, stream: TextIO) -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    console = Console(file=stream, highlight=False, markup=False, emoji=False)
    table = Table(title=Text(_header(report, python)), title_justify="left", show_lines=False)
    table.add_column("status", no_wrap=True)
    table.add_column("probe", no_wrap=True, style="bold")
    table.add_column("detail", overflow="fold")
    table.add_column("rule", no_wrap=True, style="cyan")
    for p in report.probes:
        status, name, detail, rule = _cells(p)
        table.add_row(Text(status, style=_STYLE.get(status, "")), Text(name), Text(detail), Text(rule))
    console.print(table)
    for line in _footer(report):
        console.print(Text(line, style="dim"))


def use_color(stream: TextIO) -> bool:
    if os.environ.get("NO_COLOR"):
        return False
    try:
        return stream.isatty() and os.environ.get("TERM") != "dumb"
    except (ValueError, OSError):
        return False


def write_text(report: EnvReport, python: str | None, stream: TextIO) -> None:
    if use_color(stream):
        write_rich(report, python, stream)
    else:
        stream.write(to_plain(report, python))
