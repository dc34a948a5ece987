"""The JSON contract: exactly one object on stdout (see the README)."""

from __future__ import annotations

import json

from verl_doctor.engine.report import Report
from verl_doctor.render.sanitize import escape_json_text


def render(report: Report) -> str:
    return escape_json_text(json.dumps(report.to_dict(), ensure_ascii=False, indent=2)) + "\n"
