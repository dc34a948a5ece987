"""From raw probe output to the report: verl itself, the shadow check, compiled extensions,
and the order of all rows (the version, GPU and service judges live in their own modules)."""

from __future__ import annotations

import os
from typing import Any
from urllib.parse import unquote, urlparse

from verl_doctor.env.collect import EXTENSIONS, Raw
from verl_doctor.env.facts import classify_import_error, installed, payload_of, unavailable
from verl_doctor.env.gpu import gpu_probes
from verl_doctor.env.model import FAIL, OK, SKIPPED, WARN, EnvReport, ProbeResult, worst
from verl_doctor.env.pins import version_probes
from verl_doctor.env.services import service_probes


def _where(p: dict[str, Any]) -> str:
    """Where the imported verl lives and how it got there."""
    folder = os.path.dirname(str(p.get("file") or "")) or "?"
    dist = p.get("dist") or {}
    if dist.get("editable"):
        return f"{folder} (editable install)"
    if dist:
        return f"{folder} (regular install)"
    return f"{folder} (not installed: imported from sys.path)"


def _expected_dir(dist: dict[str, Any]) -> str | None:
    """The folder the installed distribution's `verl` package should be imported from."""
    url = str(dist.get("url") or "")
    if dist.get("editable") and url.startswith("file://"):
        return os.path.realpath(unquote(urlparse(url).path))
    if dist.get("location"):
        return os.path.realpath(os.path.join(str(dist["location"]), "verl"))
    return None


def verl_probe(raw: Raw) -> ProbeResult:
    name = "verl"
    p = payload_of(raw.verl)
    if p is None:
        return unavailable(name, raw.verl, raw.python, "importing verl")
    dist = p.get("dist") or {}
    if not p.get("found"):
        extra = f" (metadata says verl {dist['version']} is installed; its files are missing)" if dist else ""
        return ProbeResult(name, FAIL, f"`import verl` fails: No module named 'verl'{extra}", "ENV001", p)
    if p.get("namespace"):
        where = ", ".join(p.get("locations") or []) or "?"
        return ProbeResult(
            name,
            FAIL,
            f"`import verl` gives an empty namespace package from {where} (no __init__.py, no __version__)",
            "ENV003",
            p,
        )
    if not p.get("import_ok"):
        rule, why = classify_import_error(p)
        if p.get("error_type") == "SyntaxError":
            rule, why = "ENV001", "SyntaxError: this Python is too old for verl (needs 3.10+)"
        return ProbeResult(name, FAIL, f"`import verl` raises {why}", rule or "ENV001", p)
    if not p.get("version"):
        return ProbeResult(name, WARN, f"verl imports from {_where(p)} but has no __version__", "ENV003", p)
    return ProbeResult(name, OK, f"verl {p['version']} at {_where(p)}", None, p)


def shadow_probe(raw: Raw) -> ProbeResult:
    """ENV003: a `verl/` folder earlier on sys.path (usually the working directory) hijacking the import."""
    name = "verl-shadow"
    p = payload_of(raw.verl)
    if p is None:
        why = "the verl probe gave no answer" if raw.python else "no Python interpreter to probe"
        return ProbeResult(name, SKIPPED, why)
    cwd = str(p.get("cwd") or os.getcwd())
    here = os.path.join(cwd, "verl")
    cwd_verl = p.get("cwd_verl") or {}
    dist = p.get("dist") or {}
    data = {"cwd": cwd, "cwd_verl": cwd_verl, "locations": p.get("locations"), "file": p.get("file")}
    hidden = f"; it hides the installed verl {dist['version']}" if dist else "; no verl is installed"
    if p.get("namespace"):
        locations = [str(x) for x in p.get("locations") or []]
        in_cwd = any(os.path.realpath(x) == os.path.realpath(here) for x in locations)
        what = "./verl in the working directory" if in_cwd else ", ".join(locations)
        if not in_cwd:
            fix = "remove that folder from sys.path/PYTHONPATH"
        elif dist:
            fix = "run from another directory"
        else:
            fix = "cd into the clone, or `pip install -e ./verl`"
        return ProbeResult(
            name,
            FAIL,
            f"{what} (a folder with no __init__.py) is what `import verl` finds{hidden}: {fix}",
            "ENV003",
            data,
        )
    if not p.get("found"):
        return ProbeResult(name, OK, "no verl/ folder on sys.path or in the working directory", None, data)
    imported = os.path.realpath(os.path.dirname(str(p.get("file") or "")))
    expected = _expected_dir(dist) if dist else None
    if expected and not (imported == expected or imported.startswith(expected + os.sep)):
        origin = " (the working directory)" if imported == os.path.realpath(here) else ""
        return ProbeResult(
            name,
            WARN,
            f"verl is imported from {imported}{origin}, not from the installed "
            f"verl {dist.get('version')} at {expected}",
            None,
            data,
        )
    if imported == os.path.realpath(here):
        return ProbeResult(
            name, OK, "verl is imported from ./verl in the working directory (a source checkout)", None, data
        )
    if cwd_verl.get("exists") and not cwd_verl.get("has_init"):
        return ProbeResult(
            name,
            OK,
            "./verl here has no __init__.py but the installed package wins "
            "(a regular package beats a namespace folder)",
            None,
            data,
        )
    return ProbeResult(name, OK, "no verl/ folder shadows the imported package", None, data)


def _import_verdict(
    label: str, res_payload: dict[str, Any] | None, version: str | None
) -> tuple[str, str, str | None]:
    """(status, text, rule) for one extension import."""
    assert res_payload is not None
    shown = f"{label} {version}" if version else label
    if res_payload.get("ok"):
        return OK, f"{shown} imports", None
    rule, why = classify_import_error(res_payload)
    return FAIL, f"{shown}: {why}", rule


_DIST_OF = {
    "flash-attn": "flash-attn",
    "vLLM kernels": "vllm",
    "SGLang kernels": "sgl-kernel",
    "Transformer Engine": "transformer-engine",
    "apex": "apex",
}


def extension_probes(raw: Raw) -> list[ProbeResult]:
    """flash-attn on its own row, the other compiled extensions together (ENV006)."""
    have = installed(payload_of(raw.inventory))
    rows: list[ProbeResult] = []
    others: list[tuple[str, str, str | None]] = []
    others_data: dict[str, Any] = {}
    for label, _top, _module in EXTENSIONS:
        res = raw.extensions.get(label)
        p = payload_of(res)
        version = have.get(_DIST_OF[label])
        if version is None and label == "SGLang kernels":
            version = have.get("sglang-kernel")  # the kernel wheel's newer name
        if label == "flash-attn":
            if p is None:
                rows.append(unavailable("flash-attn", res, raw.python, "importing flash_attn"))
            elif not p.get("installed"):
                rows.append(
                    ProbeResult(
                        "flash-attn",
                        SKIPPED,
                        "flash-attn is not installed (needed for attn_implementation=flash_attention_2)",
                        None,
                        p,
                    )
                )
            else:
                status, text, rule = _import_verdict(label, p, version)
                rows.append(ProbeResult("flash-attn", status, text, rule, {**p, "version": version}))
            continue
        if p is None:
            if raw.python is not None:
                others.append((FAIL, f"{label}: import {res.reason if res else 'not run'}", None))
            continue
        if p.get("installed"):
            others.append(_import_verdict(label, p, version))
            others_data[label] = {**p, "version": version}
    if not others:
        why = (
            "none of vLLM, SGLang kernels, Transformer Engine, apex is installed"
            if raw.python
            else "no Python interpreter to probe"
        )
        rows.append(ProbeResult("extensions", SKIPPED, why, None, others_data))
    else:
        status = worst([s for s, _, _ in others])
        rule = next((r for s, _, r in others if s == status and r), None)
        shown = [t for s, t, _ in others if s == status] if status != OK else [t for _, t, _ in others]
        rows.append(ProbeResult("extensions", status, "; ".join(shown), rule, others_data))
    return rows


def judge(raw: Raw) -> EnvReport:
    """Every row, in the order they are shown."""
    inv = payload_of(raw.inventory)
    verl_version = ((inv or {}).get("dists") or {}).get("verl", {}).get("version") if inv else None
    rows = version_probes(
        inv,
        raw.python,
        unavailable("python", raw.inventory, raw.python, "running Python") if raw.python else None,
    )
    if raw.python is None:
        rows[0] = ProbeResult("python", FAIL, raw.python_error, "ENV001")
    rows[1:1] = [verl_probe(raw), shadow_probe(raw)]
    rows += gpu_probes(raw, verl_version)
    rows += extension_probes(raw)
    rows += service_probes(raw)
    return EnvReport(tuple(rows))
