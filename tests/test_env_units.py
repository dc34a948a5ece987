"""Pure parts of `verl-doctor env`: version bounds, arch coverage, tool-output parsing, port
ownership, verdicts and rendering. No subprocess except the port owner lookup."""

from __future__ import annotations

import io
import json
import os
import socket

from verl_doctor.common.versions import satisfies
from verl_doctor.env.collect import Raw
from verl_doctor.env.compat import RELEASES, release_for
from verl_doctor.env.gpu import coverage, parse_smi_header, parse_smi_query
from verl_doctor.env.model import EnvReport, ProbeResult
from verl_doctor.env.pins import engine_probe, parse_requirement, python_probe, transformers_probe
from verl_doctor.env.ports import Owner, PortState, check_port
from verl_doctor.env.render import to_json, to_plain, write_rich
from verl_doctor.env.services import parse_ray_status, port_probe


def test_satisfies_follows_pep440_enough() -> None:
    assert satisfies("2.9.1+cu128", "==2.9.1")  # local label ignored
    assert satisfies("5.10.4", ">=5.5.3,!=5.6.0,<5.11")
    assert not satisfies("5.6.0", ">=5.5.3,!=5.6.0,<5.11")
    assert not satisfies("0.10.0.dev", ">=0.10")  # a dev release is before the release
    assert not satisfies("0.5.8.post1", "==0.5.8")
    assert satisfies("2.9", "==2.9.0") and satisfies("2.9.3", "==2.9.*")
    assert satisfies("0.12.0", "<=0.12.0") and not satisfies("0.12.1", "<=0.12.0")
    assert satisfies("garbage", ">=1") is None


def test_release_lookup() -> None:
    assert release_for("0.9.1").version == "0.9.1"  # type: ignore[union-attr]
    assert release_for("0.9.0").version == "0.9.0"  # type: ignore[union-attr]
    assert release_for("0.8.2").version == "0.8"  # type: ignore[union-attr]
    assert release_for("0.10.0.dev").version == "0.10"  # type: ignore[union-attr]
    assert release_for("0.5.0") is None and release_for("1.4.0") is None
    for rel in RELEASES:  # every entry cites where its bounds came from
        assert rel.source and rel.requires_python.startswith(">=3.10")


def test_arch_coverage() -> None:
    arch = ["sm_75", "sm_80", "sm_86", "sm_90", "compute_90"]
    assert coverage((9, 0), arch) == "exact"
    assert coverage((8, 9), arch) == "compatible"  # sm_86 cubin runs on sm_89
    assert coverage((7, 0), arch) is None  # V100 on a cu128 wheel: no kernel image
    assert coverage((12, 0), arch) == "ptx"  # only PTX JIT from compute_90
    assert coverage((12, 0), ["sm_90a", "sm_100"]) is None  # arch-specific targets run nowhere else


def test_nvidia_smi_parsing() -> None:
    gpus, driver = parse_smi_query(
        "0, NVIDIA H100 80GB HBM3, 9.0, 570.86.15, 81559\n1, Tesla V100-SXM2-32GB, 7.0, 570.86.15, 32768\n"
    )
    assert driver == "570.86.15" and [g.sm for g in gpus] == ["sm_90", "sm_70"]
    old, _ = parse_smi_query("0, Tesla P100-PCIE-16GB, 470.82.01, 16280\n")  # no compute_cap field
    assert old[0].capability is None
    assert parse_smi_header("| NVIDIA-SMI 570.86.15   Driver Version: 570.86.15   CUDA Version: 12.8 |") == (
        "570.86.15",
        "12.8",
    )


def test_ray_status_parsing() -> None:
    info = parse_ray_status(
        "Active:\n 2 node_ab\n 1 node_cd\nPending:\n (no pending nodes)\n"
        "Usage:\n 4.0/64.0 CPU\n 2.0/16.0 GPU\n"
    )
    assert info == {"nodes": 3, "resources": {"CPU": "4.0/64.0", "GPU": "2.0/16.0"}}


def test_requirement_parsing() -> None:
    assert parse_requirement("ray[default]>=2.41.0") == ("ray", ">=2.41.0", False)
    assert parse_requirement("transformers!=5.6.0,<5.11,>=5.5.3") == (
        "transformers",
        "!=5.6.0,<5.11,>=5.5.3",
        False,
    )
    assert parse_requirement('vllm==0.24.0; extra == "vllm"') == ("vllm", "==0.24.0", True)
    assert parse_requirement("TransferQueue @ git+https://github.com/Ascend/TransferQueue.git@main") == (
        "TransferQueue",
        "",
        False,
    )


def _inv(
    py: list[int], verl: str | None = None, requires_python: str | None = None, **dists: str
) -> dict[str, object]:
    all_dists: dict[str, object] = {k.replace("_", "-"): {"version": v} for k, v in dists.items()}
    if verl:
        all_dists["verl"] = {"version": verl, "requires_python": requires_python}
    python = {"version": py, "executable": "/usr/bin/python3", "prefix": "/usr", "base_prefix": "/usr"}
    return {"python": python, "dists": all_dists}


def test_python_version_bounds() -> None:
    assert python_probe(_inv([3, 11, 7])).status == "ok"
    old = python_probe(_inv([3, 9, 18]))
    assert (old.status, old.rule) == ("fail", "ENV001") and "3.10" in old.detail
    assert python_probe(_inv([3, 13, 1])).status == "warn"  # current verl stops at 3.12
    pinned = python_probe(_inv([3, 13, 1], verl="0.9.1", requires_python="<3.13,>=3.10"))
    assert (pinned.status, pinned.rule) == ("fail", "ENV001")


def test_engine_and_transformers_pins() -> None:
    # verl 0.8 declares vllm<=0.12.0 for its extra: outside it is a warning, not a refusal.
    drift = engine_probe(_inv([3, 11, 0], verl="0.8.0", vllm="0.13.0"))
    assert (drift.status, drift.rule) == ("warn", "ENV004") and "<=0.12.0" in drift.detail
    # verl 0.9.0's own import gate refuses vLLM < 0.18 unless SGLang can serve instead.
    gated = engine_probe(_inv([3, 11, 0], verl="0.9.0", vllm="0.11.0", sglang="0.5.8"))
    assert gated.status == "warn" and "0.18.0" in gated.detail
    torch_pin = engine_probe(_inv([3, 11, 0], verl="0.9.0", sglang="0.5.8", torch="2.8.0"))
    assert torch_pin.status == "warn" and "torch 2.8.0 not in ==2.9.1" in torch_pin.detail
    none = engine_probe(_inv([3, 11, 0], verl="0.9.1"))
    assert none.status == "warn" and "neither vLLM nor SGLang" in none.detail
    tf = transformers_probe(
        _inv([3, 11, 0], verl="0.9.1", vllm="0.24.0", torch="2.11.0", transformers="5.10.4")
    )
    assert (tf.status, tf.rule) == ("warn", "ENV010") and "==5.9.0" in tf.detail  # the vllm extra's pin
    assert transformers_probe(_inv([3, 11, 0], verl="0.8.0", transformers="4.57.0")).status == "ok"


def test_port_owner_is_found_from_proc() -> None:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(1)
    port = sock.getsockname()[1]
    try:
        state = check_port(port)
    finally:
        sock.close()
    assert state.in_use is True
    if state.owner_source == "proc":  # /proc may be unreadable in some sandboxes
        assert any(o.pid == os.getpid() for o in state.owners)


def test_port_verdicts() -> None:
    raw = Raw(python=None)
    redis = Owner(77, "redis-server", "/usr/bin/redis-server *:6379")
    gcs = Owner(99, "gcs_server", "/venv/lib/python3.11/site-packages/ray/core/src/ray/gcs/gcs_server")
    raw.ports = {6379: PortState(6379, True, "", (redis,), "proc"), 8265: PortState(8265, False)}
    taken = port_probe(raw, 6379)
    assert (taken.status, taken.rule) == ("fail", "DIST002") and "redis-server (pid 77)" in taken.detail
    assert port_probe(raw, 8265).status == "ok"
    raw.ports[6379] = PortState(6379, True, "", (gcs,), "proc")
    assert port_probe(raw, 6379).status == "ok"
    raw.ports[6379] = PortState(6379, True, "", (), "")
    unknown = port_probe(raw, 6379)
    assert (unknown.status, unknown.rule) == ("warn", "DIST002")


HOSTILE = "2.9.1\x1b[31m[bold]red[/bold]\x1b]0;title\x07\u202e"


def test_rendering_never_passes_escapes_or_markup() -> None:
    report = EnvReport(
        (
            ProbeResult("torch", "fail", f"torch {HOSTILE} broke", "ENV006", {"v": HOSTILE}),
            ProbeResult("ray", "ok", "fine"),
        )
    )
    plain = to_plain(report, "/usr/bin/python3")
    assert "\x1b" not in plain and "\u202e" not in plain and "[bold]red" in plain
    assert "summary: 1 ok, 0 warn, 1 fail, 0 skipped" in plain
    out = io.StringIO()
    write_rich(report, "/usr/bin/python3", out)
    assert "[bold]red[/bold]" in out.getvalue() and "\x1b]0;" not in out.getvalue()
    data = json.loads(to_json(report))
    assert data["schema_version"] == 1 and data["summary"] == {"ok": 1, "warn": 0, "fail": 1, "skipped": 0}
    assert "\x1b" not in data["probes"][0]["detail"] and "\x1b" not in data["probes"][0]["data"]["v"]
    assert set(data["probes"][0]) == {"name", "status", "detail", "rule", "data"}
