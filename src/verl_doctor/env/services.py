"""Ray: installed, a cluster reachable when one seems to be up, and who holds ports 6379/8265
(DIST002)."""

from __future__ import annotations

import re

from verl_doctor.env.collect import Raw
from verl_doctor.env.facts import installed, payload_of
from verl_doctor.env.model import FAIL, OK, SKIPPED, WARN, ProbeResult
from verl_doctor.env.ports import RAY_PORTS, PortState, is_ray
from verl_doctor.env.runner import CmdResult, last_line


def parse_ray_status(text: str) -> dict[str, object]:
    """Active node count and CPU/GPU usage from `ray status` output."""
    nodes = 0
    in_active = False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("Active:"):
            in_active = True
            continue
        if in_active:
            m = re.match(r"(\d+)\s+\S+", stripped)
            if m:
                nodes += int(m[1])
                continue
            if stripped.startswith("("):
                continue
            in_active = False
    resources = {m[3]: f"{m[1]}/{m[2]}" for m in re.finditer(r"([\d.]+)/([\d.]+)\s+(CPU|GPU)\b", text)}
    return {"nodes": nodes, "resources": resources}


def _cluster_summary(status: CmdResult) -> tuple[str, dict[str, object]]:
    info = parse_ray_status(status.stdout)
    res = info["resources"]
    assert isinstance(res, dict)
    used = ", ".join(f"{k} {v}" for k, v in sorted(res.items(), key=lambda kv: kv[0] != "GPU"))
    return f"cluster reachable: {info['nodes']} active node(s)" + (f", {used} in use" if used else ""), info


def ray_probe(raw: Raw) -> ProbeResult:
    name = "ray"
    inv = payload_of(raw.inventory)
    have = installed(inv)
    version = have.get("ray")
    data: dict[str, object] = {"version": version, "cli": raw.ray_cli, "evidence": raw.ray_evidence}
    if version is None and raw.ray_cli is None:
        if "verl" in have:
            return ProbeResult(
                name, FAIL, "ray is not installed, and verl runs its PPO/GRPO trainers on Ray", "ENV009", data
            )
        return ProbeResult(name, SKIPPED, "ray is not installed", None, data)
    label = f"ray {version}" if version else f"ray CLI {raw.ray_cli} (package not in this Python)"
    if not raw.ray_evidence:
        local = [
            f"{o.name or '?'} pid {o.pid} on {port}"
            for port, st in sorted(raw.ports.items())
            for o in st.owners
            if is_ray(o)
        ]
        if local:
            return ProbeResult(
                name,
                OK,
                f"{label}; a local Ray instance is running ({', '.join(local)}), "
                "none at the default GCS address",
                None,
                data,
            )
        return ProbeResult(name, OK, f"{label}; no cluster running (verl starts a local one)", None, data)
    why = ", ".join(raw.ray_evidence)
    status = raw.ray_status
    if raw.ray_cli is None or status is None:
        return ProbeResult(
            name,
            WARN,
            f"{label}; a cluster may be up ({why}) but there is no ray executable to ask",
            None,
            data,
        )
    if status.state == "timeout":
        return ProbeResult(name, WARN, f"{label}; `ray status` {status.reason} ({why})", None, data)
    if status.state != "ok":
        return ProbeResult(name, WARN, f"{label}; cannot run `ray status`: {status.reason}", None, data)
    if status.returncode == 0:
        summary, info = _cluster_summary(status)
        data.update(info)
        return ProbeResult(name, OK, f"{label}; {summary}", None, data)
    tail = last_line(status.stderr) or last_line(status.stdout) or f"exit code {status.returncode}"
    return ProbeResult(
        name,
        WARN,
        f"{label}; a cluster seems to be up ({why}) but `ray status` cannot reach it: {tail}",
        None,
        data,
    )


def _owner_text(state: PortState) -> str:
    shown = [f"{o.name or '?'} (pid {o.pid})" for o in state.owners[:3]]
    return ", ".join(shown)


def port_probe(raw: Raw, port: int) -> ProbeResult:
    name = f"port-{port}"
    role = RAY_PORTS.get(port, "port")
    state = raw.ports.get(port)
    if state is None:
        return ProbeResult(name, SKIPPED, raw.ports_error or "not checked")
    data: dict[str, object] = {
        "port": port,
        "in_use": state.in_use,
        "owner_source": state.owner_source,
        "owners": [{"pid": o.pid, "name": o.name, "cmdline": o.cmdline[:300]} for o in state.owners],
    }
    if state.in_use is None:
        return ProbeResult(name, SKIPPED, state.reason, None, data)
    if not state.in_use:
        return ProbeResult(name, OK, f"{role} port {port} is free", None, data)
    ray_up = raw.ray_status is not None and raw.ray_status.state == "ok" and raw.ray_status.returncode == 0
    if state.owners and all(is_ray(o) for o in state.owners):
        return ProbeResult(
            name,
            OK,
            f"{role} port {port} is held by Ray: {_owner_text(state)} (a Ray instance is running)",
            None,
            data,
        )
    if state.owners:
        return ProbeResult(
            name,
            FAIL,
            f"{role} port {port} is held by {_owner_text(state)}, not Ray: "
            "`ray start --head` on the default port will fail",
            "DIST002",
            data,
        )
    if ray_up and port == 6379:
        return ProbeResult(
            name, OK, f"{role} port {port} is in use and `ray status` reaches a cluster", None, data
        )
    return ProbeResult(
        name,
        WARN,
        f"{role} port {port} is in use by a process this user cannot see (another user, or no /proc access)",
        "DIST002",
        data,
    )


def service_probes(raw: Raw) -> list[ProbeResult]:
    return [ray_probe(raw)] + [port_probe(raw, port) for port in RAY_PORTS]
