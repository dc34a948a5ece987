"""Small helpers the judges share: turning a failed run into a verdict, reading import errors,
and the installed-package map from the inventory snippet."""

from __future__ import annotations

import os
import re
from typing import Any

from verl_doctor.env.model import FAIL, SKIPPED, ProbeResult
from verl_doctor.env.runner import SnippetResult

NO_PYTHON = "no Python interpreter to probe"


def norm(name: str) -> str:
    """Distribution names compare case-, dash- and underscore-insensitively (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def payload_of(res: SnippetResult | None) -> dict[str, Any] | None:
    return res.payload if res is not None else None


def unavailable(name: str, res: SnippetResult | None, python: str | None, what: str) -> ProbeResult:
    """The verdict for a probe whose subprocess gave no answer: skipped without an
    interpreter, otherwise fail with the one-line reason (timeout, crash, exit code)."""
    if python is None:
        return ProbeResult(name, SKIPPED, NO_PYTHON)
    reason = res.reason if res is not None else "not run"
    cmd = res.cmd if res is not None else None
    data: dict[str, Any] = {"reason": reason}
    if cmd is not None:
        data["returncode"] = cmd.returncode
        data["seconds"] = round(cmd.seconds, 2)
    if cmd is not None and cmd.state == "timeout":
        return ProbeResult(name, FAIL, f"{what} hung: {reason}", None, data)
    return ProbeResult(name, FAIL, f"{what} failed: {reason}", None, data)


_SYMBOL = re.compile(r"(?P<file>[^\s:]+\.so[^\s:]*): undefined symbol: (?P<sym>\S+)")
_SHARED = re.compile(r"(?P<lib>[\w.+-]+\.so[\w.]*): cannot open shared object file")


def classify_import_error(payload: dict[str, Any]) -> tuple[str | None, str]:
    """(rule, short reason) for an import failure reported by a snippet."""
    error = str(payload.get("error") or "")
    etype = str(payload.get("error_type") or "Error")
    m = _SYMBOL.search(error)
    if m:
        sym = m["sym"] if len(m["sym"]) <= 40 else m["sym"][:39] + "…"
        return "ENV006", (
            f"{os.path.basename(m['file'])}: undefined symbol {sym} (built against another torch/ABI)"
        )
    m = _SHARED.search(error)
    if m:
        return "ENV006", f"needs {m['lib']}, which is not found (built for another CUDA or library)"
    if "GLIBC" in error and "not found" in error:
        return "ENV006", "built for a newer glibc/libstdc++ than this system has"
    missing = payload.get("missing")
    if etype == "ModuleNotFoundError" and missing:
        return "ENV009", f"needs module '{missing}', which is not installed"
    first = error.splitlines()[0] if error else ""
    return None, f"{etype}: {first}" if first else etype


def installed(raw_inventory: dict[str, Any] | None) -> dict[str, str]:
    """Normalized distribution name -> version, from the inventory snippet."""
    dists = (raw_inventory or {}).get("dists") or {}
    return {
        norm(k): str(v.get("version")) for k, v in dists.items() if isinstance(v, dict) and v.get("version")
    }
