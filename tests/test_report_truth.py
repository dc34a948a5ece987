"""The report tells the truth about itself: where a rule came from, which code is verl's, which
worker raised an error, which pids, colour when asked, and what verl-doctor writes."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from conftest import ROOT
from verl_doctor.engine.line_kinds import is_verl_path
from verl_doctor.render.layout import _numbers

OOM_LOG = ROOT / "examples" / "oom-8-workers.log"
OOM = (
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.91 GiB. GPU 0 has a total "
    "capacity of 79.25 GiB of which 2.02 GiB is free."
)


def _team_rules(tmp_path: Path) -> Path:
    (builtin,) = (ROOT / "rules" / "flow").glob("FLOW004-*.yaml")
    team = tmp_path / "team"
    (team / "flow").mkdir(parents=True)
    shutil.copy(builtin, team / "flow" / builtin.name)
    return team


def test_a_user_rule_that_replaces_a_built_in_says_so_in_every_format(run_cli, tmp_path: Path) -> None:
    team = _team_rules(tmp_path)
    rule_file = str(next((team / "flow").glob("*.yaml")))
    args = ["explain", "--no-step-summary", "--rules", str(team), str(OOM_LOG)]
    text = run_cli([*args, "--format", "text"]).stdout.decode()
    assert f"user rule from {rule_file}, replaces the built-in rule FLOW004" in text
    assert "fix (from your rule file, not checked by verl-doctor):" in text
    md = run_cli([*args, "--format", "markdown"]).stdout.decode()
    assert "replaces the built-in rule FLOW004" in md and "from your rule file" in md
    gh = run_cli([*args, "--format", "github"]).stdout.decode().splitlines()[0]
    assert gh.startswith("::error title=FLOW004 cuda-out-of-memory (user rule),")
    assert "replaces the built-in rule FLOW004" in gh and "from your rule file" in gh
    finding = json.loads(run_cli([*args, "--format", "json"]).stdout)["findings"][0]
    assert finding["rule_file"] == rule_file and finding["replaces"].endswith(Path(rule_file).name)
    builtin = json.loads(run_cli(["explain", "--format", "json", str(OOM_LOG)]).stdout)["findings"][0]
    assert builtin["rule_file"] is None
    plain = run_cli(["explain", "--format", "github", str(OOM_LOG)]).stdout.decode()
    assert "user rule" not in plain and "from your rule file" not in plain


def test_verl_code_is_verls_package_not_an_env_named_verl() -> None:
    env = "/opt/conda/envs/verl/lib/python3.10"
    assert is_verl_path(f"{env}/site-packages/verl/trainer/main_ppo.py")
    assert is_verl_path("/opt/verl/verl/workers/fsdp_workers.py")
    assert is_verl_path("verl/trainer/main_ppo.py")
    for other in (
        f"{env}/site-packages/omegaconf/dictconfig.py",
        f"{env}/site-packages/ray/_private/worker.py",
        f"{env}/runpy.py",
        "/home/me/.pyenv/versions/verl/lib/python3.10/site-packages/torch/nn/modules/module.py",
        "/usr/lib/python3/dist-packages/hydra/main.py",
    ):
        assert not is_verl_path(other), other


def test_conda_env_named_verl_does_not_make_omegaconf_the_phase(run_cli) -> None:
    site = "/opt/conda/envs/verl/lib/python3.10/site-packages"
    log = "\n".join(
        [
            "(TaskRunner pid=5) Traceback (most recent call last):",
            f'(TaskRunner pid=5)   File "{site}/verl/trainer/ppo/ray_trainer.py", line 1201, in fit',
            "(TaskRunner pid=5)     self._validate()",
            f'(TaskRunner pid=5)   File "{site}/omegaconf/dictconfig.py", line 355, in __getattr__',
            "(TaskRunner pid=5)     self._format_and_raise(key=key, value=None, cause=e)",
            "(TaskRunner pid=5) RuntimeError: frobnication of the widget failed",
        ]
    )
    (entry,) = json.loads(run_cli(["explain", "--format", "json"], stdin=log.encode()).stdout)["unrecognized"]
    assert entry["verl_frame"] == "verl/trainer/ppo/ray_trainer.py:1201 in fit"
    assert entry["phase"] != "__getattr__"


def test_an_error_re_raised_by_the_driver_is_credited_to_the_worker(run_cli) -> None:
    driver = "(TaskRunner pid=77123)"
    log = "\n".join(
        [
            f"{driver} Traceback (most recent call last):",
            f'{driver}   File "/opt/verl/verl/trainer/ppo/ray_trainer.py", line 1201, in fit',
            f"{driver}     actor_output = self.actor_rollout_wg.update_actor(batch)",
            f"{driver} ray.exceptions.RayTaskError(OutOfMemoryError): ray::WorkerDict.actor_rollout_update_actor() "
            "(pid=1201, ip=10.1.0.11, actor_id=fffe55f82f5a8d4901a57df302000000)",
            f'{driver}   File "/opt/verl/verl/workers/actor/dp_actor.py", line 402, in update_policy',
            f"{driver}     loss.backward()",
            f"{driver} {OOM}",
        ]
    )
    finding = json.loads(run_cli(["explain", "--format", "json"], stdin=log.encode()).stdout)["findings"][0]
    assert finding["rule"] == "FLOW004"
    assert finding["workers"] == [{"actor": "WorkerDict", "pid": 1201, "ip": "10.1.0.11", "rank": None}]
    text = run_cli(["explain"], stdin=log.encode()).stdout.decode()
    assert "on 1 worker: WorkerDict pid 1201" in text and "worker: TaskRunner" not in text


def test_one_process_is_one_worker_and_pids_are_not_a_false_range(run_cli) -> None:
    log = f"(TaskRunner pid=77123) {OOM}\n(TaskRunner pid=77123, ip=10.0.0.1) {OOM}\n"
    text = run_cli(["explain"], stdin=log.encode()).stdout.decode()
    assert "on 1 worker: TaskRunner pid 77123" in text and "77123–77123" not in text
    assert _numbers([1201, 1202, 1203]) == "1201–1203"
    assert _numbers([3, 9, 12]) == "3, 9, 12"
    assert _numbers([1, 5, 9, 12, 80]) == "1, 5, 9, …, 80"


def test_color_always_colours_a_pipe(run_cli) -> None:
    coloured = run_cli(["explain", "--color", "always", str(OOM_LOG)], env={"NO_COLOR": ""}).stdout
    assert b"\x1b[" in coloured and b"FLOW004" in coloured
    assert (
        b"\x1b[" in run_cli(["explain", "--color", "always", str(OOM_LOG)]).stdout
    )  # the flag beats NO_COLOR
    assert b"\x1b" not in run_cli(["explain", "--color", "never", str(OOM_LOG)], env={"NO_COLOR": ""}).stdout
    assert b"\x1b" not in run_cli(["explain", str(OOM_LOG)], env={"NO_COLOR": ""}).stdout  # auto: a pipe


def test_rules_list_is_rules(run_cli) -> None:
    listed = run_cli(["rules", "list"])
    assert (
        listed.returncode == 0 and listed.stdout == run_cli(["rules"]).stdout and b"FLOW004" in listed.stdout
    )
    env_only = run_cli(["rules", "list", "--category", "env", "--format", "json"])
    assert {r["category"] for r in json.loads(env_only.stdout)} == {"env"}


def _files_under(*roots: Path) -> set[Path]:
    return {Path(d) / f for root in roots for d, _, files in os.walk(root) for f in files}


def test_nothing_is_written_that_was_not_named(run_cli, tmp_path: Path) -> None:
    """README: only named outputs, plus the catalog cache under $XDG_CACHE_HOME/verl-doctor."""
    work = tmp_path / "work"
    work.mkdir()
    shutil.copy(OOM_LOG, work / "train.log")
    before = _files_under(tmp_path)
    own = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    r = run_cli(["rules", "docs"], cwd=work, env=own)
    assert r.returncode == 2 and b"--out" in r.stderr and r.stderr.count(b"\n") == 1
    run_cli(["explain", "train.log"], cwd=work, env={**own, "VERL_DOCTOR_NO_CACHE": "1"})
    run_cli(["rules", "list"], cwd=work, env={**own, "VERL_DOCTOR_NO_CACHE": "1"})
    assert _files_under(tmp_path) == before
    run_cli(["explain", "train.log"], cwd=work, env=own)
    new = _files_under(tmp_path) - before
    assert new and all(
        p.parent == tmp_path / "cache" / "verl-doctor" and p.name.startswith("catalog-") for p in new
    )
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "$XDG_CACHE_HOME/verl-doctor/catalog-*.marshal" in readme and "VERL_DOCTOR_NO_CACHE=1" in readme
