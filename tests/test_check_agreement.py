"""`check` against what real verl did with the same commands.

tests/fixtures/check/cases.json holds the commands (a working base command line plus one change
each); verl/NAME.log is what verl 0.9.1 printed for each in a CPU sandbox (recorded by
benchmarks/check_agreement.py). verl's verdict is read from its own output here, by the same
engine `explain` uses: the code of its first root-cause finding, or `pass` when verl got past
its config checks to the GPU resource check (the sandbox has no GPU), or to the spec's
`pass_code` where the entry point stops elsewhere on CPU (cases-sft.json: DIST001, the process
group verl.trainer.sft_trainer creates right after Hydra). `check` must name the same code first,
or pass exactly the commands verl passed. A case may name its own `entry`.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from verl_doctor.catalog.load import Catalog
from verl_doctor.cli.check import check
from verl_doctor.engine.inputs import open_path
from verl_doctor.engine.session import Session

FIX = Path(__file__).with_name("fixtures") / "check"
SPECS = [json.loads(p.read_text()) for p in sorted(FIX.glob("cases*.json"))]
RECORDED = [
    (spec, case)
    for spec in SPECS
    for case in spec["cases"]
    if (FIX / spec["logs"] / f"{case['name']}.log").exists()
]
GPU_CHECK = "CFG003"
# Cases where verl fails but `explain` cannot name the failure in verl's output: check names the
# code the failure belongs to. Listed so that the day explain learns it, this test says so.
EXPLAIN_GAPS: dict[tuple[str, str], str] = {}
# Failures verl meets only after its GPU check, which the CPU sandbox cannot pass: verl "passes"
# there, and check names the failure the run meets on GPUs (the source line says where).
BEYOND_REACH: dict[tuple[str, str], str] = {
    # verl/experimental/reward_loop/reward_loop.py (0.8-0.9) loads the reward function in the
    # reward-loop workers, after the resource pools are created.
    ("0.9.1", "custom-reward-syntax-error"): "CFG008",
    ("0.9.1", "custom-reward-missing-file"): "CFG008",
    ("0.9.1", "custom-reward-missing-function"): "CFG008",
    # verl/trainer/ppo/reward.py resolve_reward_manager_cls -> get_reward_manager_cls (0.9), called by
    # the reward-loop workers (verl/experimental/reward_loop/reward_loop.py load_reward_manager).
    ("0.9.1", "value-reward-manager"): "CFG014",
    # verl/trainer/ppo/core_algos.py get_policy_loss_fn (0.9), first called by the actor's loss
    # (verl/workers/utils/losses.py) in the training loop.
    ("0.9.1", "value-policy-loss-mode"): "CFG014",
    # verl/workers/rollout/base.py get_rollout_class (0.9), called when the workers build the
    # rollout (verl/workers/engine_workers.py init_model).
    ("0.9.1", "value-rollout-name"): "CFG014",
    # verl/workers/config/rollout.py RolloutConfig.__post_init__ ("Rollout mode 'sync' has been
    # removed") runs when the agent-loop workers build the rollout config
    # (verl/experimental/agent_loop/agent_loop.py, omega_conf_to_dataclass(rollout_config)).
    ("0.9.1", "value-rollout-mode-sync"): "CFG014",
    # verl/trainer/ppo/ray_trainer.py RayPPOTrainer.fit creates Tracking (its supported_backend
    # assertion) after init_workers has taken the GPUs.
    ("0.9.1", "value-logger"): "CFG014",
    # verl/trainer/ppo/ray_trainer.py compute_advantage -> core_algos.get_adv_estimator_fn, first
    # called in the training loop.
    ("0.9.1", "value-adv-estimator"): "CFG014",
}


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The model and data files base-args names, as far as `check` looks at them."""
    root = tmp_path_factory.mktemp("sandbox")
    (root / "tiny-qwen2").mkdir()
    shutil.copy(FIX / "model-config.json", root / "tiny-qwen2" / "config.json")
    (root / "data" / "gsm8k").mkdir(parents=True)
    for name in ("train.parquet", "test.parquet"):
        (root / "data" / "gsm8k" / name).write_bytes(b"PAR1")
    return root


def verl_verdict(spec: dict[str, str], name: str, catalog: Catalog) -> str:
    session = Session(catalog, "en")
    source = open_path(str(FIX / spec["logs"] / f"{name}.log"))
    try:
        session.read(source)
    finally:
        source.close()
    report = session.report()
    roots = [f.rule for f in report.findings if not f.symptom] or [f.rule for f in report.findings]
    if not roots:
        return "none"
    return "pass" if roots[0] == spec.get("pass_code", GPU_CHECK) else roots[0]


def check_verdict(spec: dict[str, str], case: dict[str, object], sandbox: Path) -> str:
    base = (FIX / spec["base_args"]).read_text().split()
    args = [
        str(a).replace("{S}", str(sandbox)).replace("{F}", str(FIX / "files"))
        for a in list(case.get("before", [])) + base + list(case["args"])  # type: ignore[attr-defined, call-overload]
    ]
    entry = str(case.get("entry", spec["entry"]))
    report, code = check(["python3", "-m", entry, *args], verl_version=spec["verl_version"])
    certain = [f.rule for f in report.findings if f.confidence == "high"]
    assert (code == 1) == bool(certain)
    return certain[0] if certain else "pass"


def test_enough_cases_recorded() -> None:
    assert len(RECORDED) >= 60
    kinds = set()
    for spec in SPECS:
        verdicts = json.loads((FIX / spec["logs"] / "expected.json").read_text())
        kinds |= {v["verl"] for v in verdicts.values()}
    assert {"pass", "CFG004", "CFG005", "CFG008", "CFG013", "CFG014", "CFG016", "CFG017"} <= kinds


@pytest.mark.parametrize(
    ("spec", "case"), RECORDED, ids=[f"{s['verl_version']}-{c['name']}" for s, c in RECORDED]
)
def test_check_agrees_with_verl(
    spec: dict[str, str], case: dict[str, object], sandbox: Path, catalog: Catalog
) -> None:
    name = str(case["name"])
    verl = verl_verdict(spec, name, catalog)
    recorded = json.loads((FIX / spec["logs"] / "expected.json").read_text())[name]["verl"]
    assert verl == recorded, "explain reads verl's output differently from when it was recorded"
    mine = check_verdict(spec, case, sandbox)
    gap = EXPLAIN_GAPS.get((spec["verl_version"], name))
    late = BEYOND_REACH.get((spec["verl_version"], name))
    if gap:
        assert (verl, mine) == ("none", gap)
    elif late:
        assert (verl, mine) == ("pass", late)
    else:
        assert mine == verl
