"""Judging installed versions against what verl declares: its own requirements (from the
installed wheel's metadata, else the table), the engine combinations and transformers."""

from __future__ import annotations

import re
from typing import Any

from verl_doctor.common.versions import satisfies
from verl_doctor.env.compat import CURRENT_PYTHON, Check, Release, check_pins, release_for
from verl_doctor.env.facts import NO_PYTHON, norm
from verl_doctor.env.model import FAIL, OK, SKIPPED, WARN, ProbeResult, worst

_REQ = re.compile(
    r"\s*(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*"
    r"(?P<rest>[^;]*)(?P<marker>;.*)?$"
)
_NOT_INSTALLED = "verl is not installed"


def parse_requirement(req: str) -> tuple[str, str, bool] | None:
    """(name, version spec, has a marker) from a Requires-Dist line."""
    m = _REQ.match(req)
    if not m:
        return None
    rest = m["rest"].strip()
    spec = "" if rest.startswith("@") else rest.strip("() ")
    return m["name"], spec, bool(m["marker"])


def python_probe(inv: dict[str, Any]) -> ProbeResult:
    """Interpreter version against verl's Requires-Python (the installed verl's, else current verl's)."""
    py = inv.get("python") or {}
    version = ".".join(str(x) for x in py.get("version", [])[:3]) or "?"
    where = [f"{py.get('implementation', 'Python')} {version} at {py.get('executable')}"]
    if py.get("conda_prefix") and str(py.get("prefix", "")).startswith(str(py["conda_prefix"])):
        where.append(f"conda env {py.get('conda_env') or py['conda_prefix']}")
    elif py.get("prefix") != py.get("base_prefix"):
        where.append(f"venv {py.get('prefix')}")
    else:
        where.append("no venv or conda env")
    verl = (inv.get("dists") or {}).get("verl") or {}
    spec = verl.get("requires_python") or CURRENT_PYTHON
    source = (
        f"verl {verl['version']} requires Python {spec}" if verl else f"current verl supports Python {spec}"
    )
    ok = satisfies(version, spec)
    data = {**py, "requires_python": spec}
    if ok is None or ok:
        return ProbeResult("python", OK, ", ".join(where), None, data)
    too_old = tuple(py.get("version", [0]))[:2] < (3, 10)
    status = FAIL if too_old or verl else WARN
    return ProbeResult("python", status, f"Python {version}: {source} ({', '.join(where)})", "ENV001", data)


def _installed_map(inv: dict[str, Any]) -> dict[str, str]:
    dists = inv.get("dists") or {}
    return {norm(k): str(v["version"]) for k, v in dists.items() if isinstance(v, dict) and v.get("version")}


def _release(inv: dict[str, Any]) -> tuple[str | None, Release | None]:
    verl = (inv.get("dists") or {}).get("verl") or {}
    version = verl.get("version")
    return version, (release_for(version) if version else None)


def dependencies_probe(inv: dict[str, Any]) -> ProbeResult:
    """verl's install_requires: present and in range (what `pip check` would say), transformers aside."""
    version, release = _release(inv)
    if version is None:
        return ProbeResult("dependencies", SKIPPED, _NOT_INSTALLED)
    have = _installed_map(inv)
    requires = ((inv.get("dists") or {}).get("verl") or {}).get("requires")
    reqs: list[tuple[str, str]] = []
    if requires is not None:
        for line in requires:
            parsed = parse_requirement(str(line))
            if parsed and not parsed[2]:
                reqs.append((parsed[0], parsed[1]))
        source = f"verl {version}'s metadata"
    elif release is not None:
        reqs = [(p.package, p.spec) for p in release.pins if p.extra is None]
        source = release.source
    else:
        return ProbeResult("dependencies", SKIPPED, f"no requirement list for verl {version}")
    reqs = [(n, s) for n, s in reqs if norm(n) != "transformers"]  # judged by its own probe
    missing = [n for n, _ in reqs if norm(n) not in have]
    bad = [
        f"{n} {have[norm(n)]} not in {s}"
        for n, s in reqs
        if norm(n) in have and s and satisfies(have[norm(n)], s) is False
    ]
    listed = [{"name": n, "spec": s, "installed": have.get(norm(n))} for n, s in reqs]
    data = {"source": source, "requirements": listed}
    if missing:
        return ProbeResult(
            "dependencies",
            FAIL,
            f"verl {version} needs {', '.join(missing)}: not installed"
            + (f"; {'; '.join(bad)}" if bad else ""),
            "ENV009",
            data,
        )
    if bad:
        return ProbeResult("dependencies", FAIL, f"{'; '.join(bad)} (required by verl {version})", None, data)
    return ProbeResult(
        "dependencies",
        OK,
        f"all {len(reqs)} requirements of verl {version} installed and in range",
        None,
        data,
    )


def _checks_data(checks: list[Check]) -> list[dict[str, Any]]:
    return [
        {"package": c.package, "installed": c.installed, "spec": c.spec, "extra": c.extra, "ok": c.ok}
        for c in checks
    ]


def engine_probe(inv: dict[str, Any]) -> ProbeResult:
    """vLLM / SGLang (and the torch / flash-attn they are paired with) against verl's combinations."""
    name = "engine-versions"
    version, release = _release(inv)
    if version is None:
        return ProbeResult(name, SKIPPED, _NOT_INSTALLED)
    if release is None:
        return ProbeResult(
            name, SKIPPED, f"no declared combinations for verl {version} in the table (0.6 to 0.10.dev)"
        )
    have = _installed_map(inv)
    engines = [p for p in ("vllm", "sglang") if p in have]
    checks = [c for c in check_pins(release, have) if c.extra and norm(c.package) != "transformers"]
    data: dict[str, Any] = {
        "verl": version,
        "table": release.version,
        "source": release.source,
        "vllm_gate": release.vllm_gate,
        "checks": _checks_data(checks),
    }
    problems: list[tuple[str, str]] = []
    vllm = have.get("vllm")
    if vllm and release.vllm_gate and satisfies(vllm, f">={release.vllm_gate}") is False:
        status = WARN if "sglang" in have else FAIL
        problems.append((status, f"verl {version} refuses vllm {vllm} (needs >= {release.vllm_gate})"))
    problems += [(WARN, c.describe(release)) for c in checks if c.ok is False]
    if problems:
        status = worst([s for s, _ in problems])
        return ProbeResult(name, status, "; ".join(t for _, t in problems), "ENV004", data)
    if not engines:
        return ProbeResult(
            name,
            WARN,
            f"neither vLLM nor SGLang is installed: verl {version} needs one for rollout",
            "ENV009",
            data,
        )
    parts = [f"{c.package} {c.installed}" for c in checks if c.ok] or engines
    return ProbeResult(name, OK, f"{', '.join(parts)} match verl {version}'s declared pins", None, data)


def transformers_probe(inv: dict[str, Any]) -> ProbeResult:
    """transformers against verl's install_requires bound and the engine extras' exact pins."""
    name = "transformers"
    have = _installed_map(inv)
    version, release = _release(inv)
    tf = have.get("transformers")
    if tf is None:
        return ProbeResult(name, SKIPPED, "transformers is not installed")
    if version is None:
        return ProbeResult(name, SKIPPED, f"transformers {tf}; {_NOT_INSTALLED}, nothing to compare")
    if release is None:
        return ProbeResult(
            name, SKIPPED, f"transformers {tf}; no declared bounds for verl {version} in the table"
        )
    checks = [c for c in check_pins(release, have) if norm(c.package) == "transformers"]
    data = {"installed": tf, "verl": version, "source": release.source, "checks": _checks_data(checks)}
    base = [c for c in checks if c.extra is None and c.ok is False]
    extra = [c for c in checks if c.extra and c.ok is False]
    if base or extra:
        status = FAIL if base else WARN
        return ProbeResult(name, status, "; ".join(c.describe(release) for c in base + extra), "ENV010", data)
    bounds = ", ".join(c.spec for c in checks)
    detail = (
        f"transformers {tf} within verl {version}'s {bounds}"
        if bounds
        else f"transformers {tf} (verl {release.version} declares no bound)"
    )
    return ProbeResult(name, OK, detail, None, data)


def version_probes(
    inv: dict[str, Any] | None, python: str | None, unavailable: ProbeResult | None
) -> list[ProbeResult]:
    """python, dependencies, engine-versions, transformers: all from the one inventory snippet."""
    names = ("python", "dependencies", "engine-versions", "transformers")
    if inv is None:
        if python is None or unavailable is None:
            return [ProbeResult(n, SKIPPED, NO_PYTHON) for n in names]
        rest = [ProbeResult(n, SKIPPED, "the inventory snippet gave no answer") for n in names[1:]]
        return [unavailable, *rest]
    return [python_probe(inv), dependencies_probe(inv), engine_probe(inv), transformers_probe(inv)]
