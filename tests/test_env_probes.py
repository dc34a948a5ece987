"""`verl-doctor env` probes against fake machines: stub nvidia-smi/ray on PATH, fake packages
on PYTHONPATH, a shadowing verl/ folder, hanging and crashing probes. No GPU or torch needed."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).with_name("fixtures") / "env"))

import fakes  # noqa: E402

from verl_doctor.env import collect, probe  # noqa: E402
from verl_doctor.env.model import EnvReport  # noqa: E402
from verl_doctor.env.ports import PortState  # noqa: E402


@pytest.fixture
def machine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """(site dir, bin dir); PATH holds only the stubs, PYTHONPATH only the fake site."""
    site, bin_dir, work = tmp_path / "site", tmp_path / "bin", tmp_path / "work"
    for d in (site, bin_dir, work):
        d.mkdir()
    monkeypatch.setenv("PATH", str(bin_dir))
    monkeypatch.setenv("PYTHONPATH", str(site))
    monkeypatch.setenv("RAY_TMPDIR", str(tmp_path / "raytmp"))
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    monkeypatch.delenv("CUDA_VISIBLE_DEVICES", raising=False)
    monkeypatch.chdir(work)
    # The fake box has no Ray running, whatever this machine's own ports hold.
    monkeypatch.setattr(collect, "check_port", lambda port, timeout=5.0: PortState(port, False, ""))
    return site, bin_dir


def run(timeout: float = 15.0) -> EnvReport:
    report, _, _ = probe(timeout, sys.executable)
    return report


def row(report: EnvReport, name: str) -> tuple[str, str | None, str]:
    p = report.get(name)
    assert p is not None, name
    return p.status, p.rule, p.detail


def test_broken_gpu_box(machine, monkeypatch: pytest.MonkeyPatch) -> None:
    site, bin_dir = machine
    fakes.fake_verl(
        site,
        "0.9.0",
        requires=(
            "ray[default]>=2.41.0",
            "transformers>=5.5.3,!=5.6.0,<5.11",
            "tensordict>=0.8.0,<=0.10.0,!=0.9.0",
        ),
    )
    fakes.write_dist(site, "ray", "2.60.0")
    fakes.write_dist(site, "transformers", "4.57.1")
    fakes.write_dist(site, "vllm", "0.11.0")
    fakes.fake_torch(site, devices=[fakes.V100], arch=["sm_75", "sm_80", "sm_86", "sm_90"])
    fakes.broken_flash_attn(site)
    fakes.nvidia_smi(bin_dir, gpus=[fakes.V100], driver="535.104.05", cuda="12.2")
    fakes.ray(bin_dir)
    monkeypatch.setenv("RAY_ADDRESS", "127.0.0.1:6379")
    report = run()

    assert row(report, "verl")[:2] == ("ok", None) and "0.9.0" in row(report, "verl")[2]
    status, rule, detail = row(report, "gpu-arch")
    assert (status, rule) == ("fail", "ENV002") and "sm_70" in detail and "Tesla V100" in detail
    assert row(report, "gpu-bf16")[:2] == ("warn", "ENV007")
    status, rule, detail = row(report, "flash-attn")
    assert (status, rule) == ("fail", "ENV006") and "undefined symbol" in detail
    status, rule, detail = row(report, "engine-versions")
    assert (status, rule) == ("fail", "ENV004") and "vllm 0.11.0" in detail and "0.18.0" in detail
    status, rule, detail = row(report, "transformers")
    assert (status, rule) == ("fail", "ENV010") and "4.57.1" in detail
    status, rule, detail = row(report, "dependencies")
    assert (status, rule) == ("fail", "ENV009") and "tensordict" in detail  # required, not installed
    status, _, detail = row(report, "cuda-versions")
    assert status == "warn" and "12.2" in detail and "12.8" in detail
    status, _, detail = row(report, "nvidia-driver")
    assert status == "ok" and "535.104.05" in detail and "sm_70" in detail
    status, _, detail = row(report, "ray")
    assert status == "ok" and "2 active node(s)" in detail and "GPU 0.0/16.0" in detail
    assert report.exit_code == 1
    assert report.summary["fail"] == sum(p.status == "fail" for p in report.probes)


def test_healthy_gpu_box(machine) -> None:
    site, bin_dir = machine
    fakes.fake_verl(site, "0.9.1", requires=("ray[default]>=2.41.0",), requires_python=">=3.10")
    fakes.write_dist(site, "ray", "2.60.0")
    fakes.write_dist(site, "transformers", "5.9.0")
    fakes.write_dist(site, "vllm", "0.24.0")
    fakes.fake_torch(
        site,
        version="2.11.0+cu130",
        cuda="13.0",
        devices=[fakes.H100, fakes.H100],
        arch=["sm_80", "sm_90", "sm_100", "sm_120"],
    )
    fakes.write_dist(site, "torch", "2.11.0+cu130")
    fakes.working_flash_attn(site)
    fakes.nvidia_smi(bin_dir, gpus=[fakes.H100, fakes.H100], driver="580.65.06", cuda="13.0")
    report = run()
    for name in (
        "verl",
        "verl-shadow",
        "dependencies",
        "engine-versions",
        "transformers",
        "torch",
        "nvidia-driver",
        "cuda-versions",
        "gpu-arch",
        "gpu-bf16",
        "flash-attn",
        "ray",
    ):
        assert row(report, name)[0] == "ok", (name, row(report, name))
    assert "2x NVIDIA H100 80GB HBM3 (sm_90)" in row(report, "nvidia-driver")[2]
    assert "vllm 0.24.0" in row(report, "engine-versions")[2]
    assert row(report, "ray")[2].endswith("no cluster running (verl starts a local one)")


def test_namespace_shadow_and_crashing_torch(machine) -> None:
    site, _ = machine
    clone = Path.cwd() / "verl"  # a git clone's root: no __init__.py, the package one level down
    (clone / "verl").mkdir(parents=True)
    (clone / "verl" / "__init__.py").write_text("__version__ = '0.9.0'\n")
    fakes.fake_torch(site, prelude="import os, signal; os.kill(os.getpid(), signal.SIGSEGV)")
    report = run()
    status, rule, detail = row(report, "verl")
    assert (status, rule) == ("fail", "ENV003") and "namespace" in detail
    status, rule, detail = row(report, "verl-shadow")
    assert (status, rule) == ("fail", "ENV003") and "./verl in the working directory" in detail
    status, _, detail = row(report, "torch")
    assert status == "fail" and "SIGSEGV" in detail
    assert row(report, "nvidia-driver")[0] == "skipped"  # no nvidia-smi on PATH
    assert row(report, "gpu-arch")[0] == "skipped"


def test_checkout_in_cwd_hides_installed_verl(machine) -> None:
    site, _ = machine
    fakes.fake_verl(site, "0.9.1")
    (Path.cwd() / "verl").mkdir()
    (Path.cwd() / "verl" / "__init__.py").write_text("__version__ = '0.10.0.dev'\n")
    report = run()
    assert "0.10.0.dev" in row(report, "verl")[2]
    status, _, detail = row(report, "verl-shadow")
    assert status == "warn" and "working directory" in detail and "0.9.1" in detail


def test_hanging_driver_and_import_cost_only_the_timeout(machine) -> None:
    site, bin_dir = machine
    fakes.nvidia_smi(bin_dir, hang=True)
    fakes.fake_torch(site, prelude="import time; time.sleep(30)")
    start = time.monotonic()
    report = run(timeout=1.5)
    elapsed = time.monotonic() - start
    assert elapsed < 10, elapsed
    status, _, detail = row(report, "nvidia-driver")
    assert status == "fail" and "hung" in detail and "1.5s" in detail
    status, _, detail = row(report, "torch")
    assert status == "fail" and "hung" in detail
    assert row(report, "python")[0] == "ok"  # the other probes still answered


def test_nothing_installed_is_still_a_report(machine) -> None:
    report = run()
    assert row(report, "verl")[:2] == ("fail", "ENV001")
    assert row(report, "nvidia-driver")[0] == "skipped"
    for p in report.probes:
        assert p.status in ("ok", "warn", "fail", "skipped") and p.detail and "\n" not in p.detail
