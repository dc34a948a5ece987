"""`explain --env`: probes confirm or refute log findings without changing the JSON contract."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).with_name("fixtures") / "env"))

import fakes  # noqa: E402

from conftest import isolated_env  # noqa: E402
from verl_doctor.engine.report import Evidence, Finding, Report  # noqa: E402
from verl_doctor.env.fusion import confirm_with_probes, verdict  # noqa: E402
from verl_doctor.env.model import EnvReport, ProbeResult  # noqa: E402

NO_KERNEL = "RuntimeError: CUDA error: no kernel image is available for execution on the device"


def finding(rule: str, facts: tuple[tuple[str, str], ...] = ()) -> Finding:
    return Finding(
        rule=rule,
        name="x",
        title="t",
        category="env",
        symptom=False,
        confidence="medium",
        first_line=1,
        source="train.log",
        count=1,
        evidence=(Evidence("train.log", 1, NO_KERNEL),),
        cause="c",
        fixes=(),
        pitfalls=(),
        references=(),
        facts=facts,
    )


def gpu_box(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """A V100 box whose torch has no sm_70 kernels; python3 and nvidia-smi are stubs on PATH."""
    site, bin_dir = tmp_path / "site", tmp_path / "bin"
    fakes.fake_torch(site, devices=[fakes.V100], arch=["sm_75", "sm_80", "sm_86", "sm_90"])
    fakes.nvidia_smi(bin_dir, gpus=[fakes.V100])
    fakes.python3(bin_dir)
    monkeypatch.setenv("PATH", str(bin_dir))
    monkeypatch.setenv("PYTHONPATH", str(site))
    monkeypatch.setenv("RAY_TMPDIR", str(tmp_path / "raytmp"))
    monkeypatch.chdir(tmp_path)
    return site, bin_dir


def test_env002_confirmed_when_sm_missing_from_arch_list(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gpu_box(tmp_path, monkeypatch)
    report = Report(findings=(finding("ENV002", (("sm", "70"),)),), unrecognized=(), notes=("catalog note",))
    out = confirm_with_probes(report)
    (f,) = out.findings
    assert f.confidence == "high"
    assert "sm_70" in dict(f.facts)["env_probe"] and dict(f.facts)["sm"] == "70"
    assert out.notes[0] == "catalog note" and any(n.startswith("ENV002 confirmed") for n in out.notes)
    # ENV001 is in the same run: verl is not importable in the probed python3.
    before, after = report.to_dict(), out.to_dict()
    assert set(before) == set(after) and set(before["findings"][0]) == set(after["findings"][0])
    assert after["context"]["env"]["summary"]["fail"] >= 1
    json.dumps(after)  # still serializable


def _env(**rows: tuple[str, str]) -> EnvReport:
    return EnvReport(
        tuple(
            ProbeResult(name.replace("_", "-"), status, detail, None)
            for name, (status, detail) in rows.items()
        )
    )


def test_verdicts() -> None:
    broken = _env(verl=("fail", "`import verl` fails: No module named 'verl'"))
    assert verdict(finding("ENV001"), broken) == (
        "confirmed",
        "verl: `import verl` fails: No module named 'verl'",
    )
    fine = _env(verl=("ok", "verl 0.9.1 at /venv/verl"))
    kind, text = verdict(finding("ENV001"), fine)  # type: ignore[misc]
    assert kind == "refuted" and "another Python" in text
    arch_ok = EnvReport(
        (
            ProbeResult(
                "gpu-arch",
                "ok",
                "sm_90 covered",
                None,
                {"gpus": [{"index": 0, "name": "H100", "sm": "sm_90"}]},
            ),
        )
    )
    kind, text = verdict(finding("ENV002", (("sm", "70"),)), arch_ok)  # type: ignore[misc]
    assert kind == "refuted" and "the log names sm_70; this machine has sm_90" in text
    assert verdict(finding("ENV002"), _env(gpu_arch=("skipped", "no NVIDIA GPU visible"))) is None
    assert verdict(finding("FLOW004"), broken) is None  # no probe speaks to OOM


def test_refuted_finding_keeps_confidence_and_gets_a_note() -> None:
    report = Report(findings=(finding("ENV001"),), unrecognized=())
    out = confirm_with_probes(report, env=_env(verl=("ok", "verl 0.9.1 at /venv/verl")))
    assert out.findings[0].confidence == "medium" and "env_probe" not in dict(out.findings[0].facts)
    assert len(out.notes) == 1 and out.notes[0].startswith("ENV001 not confirmed on this machine")


def test_explain_env_from_the_cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site, bin_dir = gpu_box(tmp_path, monkeypatch)
    env = isolated_env(tmp_path, PATH=str(bin_dir), PYTHONPATH=str(site), RAY_TMPDIR=str(tmp_path / "raytmp"))
    r = subprocess.run(
        [sys.executable, "-m", "verl_doctor", "explain", "--env", "--format", "json"],
        input=(NO_KERNEL + "\n").encode(),
        capture_output=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    assert r.returncode == 1, r.stderr
    data = json.loads(r.stdout)
    (f,) = [f for f in data["findings"] if f["rule"] == "ENV002"]
    assert f["confidence"] == "high" and "sm_70" in f["facts"]["env_probe"]
    assert any(n.startswith("ENV002 confirmed") for n in data["notes"])
