"""The catalog as a product: lint clean, user rule packs, overrides, JSON Schema, commands."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from conftest import ROOT
from verl_doctor.authoring.lint import lint_dirs
from verl_doctor.catalog.load import builtin_rules_dir, rule_files

OOM = b"(WorkerDict pid=1) torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB.\n"
TEAM_RULE = textwrap.dedent("""\
    id: FLOW950
    name: team-reward-server-down
    category: flow
    title: {en: Our reward server is down, zh: 奖励服务不可用}
    signatures: ['RewardServerUnavailable: (?P<host>\\S+)']
    cause: {en: 'The reward server {host} did not answer.', zh: '奖励服务 {host} 无响应。'}
    fixes: [{step: {en: Restart it, zh: 重启服务}, commands: ['systemctl restart reward-server']}]
    references: [internal wiki]
    examples:
      match: ['(TaskRunner pid=1) RewardServerUnavailable: rm-01:8000']
      no_match: ['(TaskRunner pid=1) reward server ok']
    """)


def test_builtin_catalog_lints_clean() -> None:
    problems = lint_dirs([builtin_rules_dir()])
    assert not problems, "\n".join(str(p) for p in problems)


def test_file_layout_matches_codes() -> None:
    for path in rule_files(builtin_rules_dir()):
        assert path.parent.parent == ROOT / "rules"
        assert path.parent.name in ("env", "config", "flow", "distributed")


def _pack(tmp: Path, name: str, content: str) -> Path:
    d = tmp / name / "flow"
    d.mkdir(parents=True)
    code = content.split("id: ", 1)[1].split()[0]
    rname = content.split("name: ", 1)[1].split()[0]
    (d / f"{code}-{rname}.yaml").write_text(content)
    return tmp / name


def test_user_rules_from_flag_env_and_config_dir(run_cli, tmp_path: Path) -> None:
    pack = _pack(tmp_path, "pack", TEAM_RULE)
    line = b"(TaskRunner pid=1) RewardServerUnavailable: rm-01:8000\n"
    for args, env in ((["--rules", str(pack)], {}), ([], {"VERL_DOCTOR_RULES": str(pack)})):
        r = run_cli(["explain", "--format", "json", *args], stdin=line, env=env)
        f = json.loads(r.stdout)["findings"][0]
        assert f["rule"] == "FLOW950" and f["cause"] == "The reward server rm-01:8000 did not answer."
    config_rules = tmp_path / "config" / "verl-doctor" / "rules"
    config_rules.mkdir(parents=True)
    (config_rules / "FLOW950-team-reward-server-down.yaml").write_text(TEAM_RULE)
    r = run_cli(["explain", "--format", "json"], stdin=line)
    assert json.loads(r.stdout)["findings"][0]["rule"] == "FLOW950"
    assert (
        json.loads(run_cli(["explain", "--format", "json", "--no-user-rules"], stdin=line).stdout)["findings"]
        == []
    )


def test_user_rule_replaces_builtin_code_and_report_says_so(run_cli, tmp_path: Path) -> None:
    override = TEAM_RULE.replace("FLOW950", "FLOW004").replace(
        "team-reward-server-down", "cuda-out-of-memory"
    )
    override = override.replace("RewardServerUnavailable: (?P<host>\\S+)", "CUDA out of memory")
    pack = _pack(tmp_path, "override", override)
    r = run_cli(["explain", "--rules", str(pack)], stdin=OOM)
    out = r.stdout.decode()
    assert "Our reward server is down" in out and "replaces the built-in" in out
    assert "replaces the built-in rule FLOW004" in out  # the note as well
    j = json.loads(run_cli(["explain", "--format", "json", "--rules", str(pack)], stdin=OOM).stdout)
    assert j["findings"][0]["replaces"].endswith("FLOW004-cuda-out-of-memory.yaml")


def test_broken_user_pack_is_reported_and_skipped(run_cli, tmp_path: Path) -> None:
    pack = _pack(tmp_path, "broken", TEAM_RULE.replace("category: flow", "category: flow\nseverity: high"))
    r = run_cli(["explain", "--rules", str(pack)], stdin=OOM)
    assert r.returncode == 1 and "FLOW004" in r.stdout.decode()
    (warning,) = [ln for ln in r.stderr.decode().splitlines() if "skipped broken rule" in ln]
    assert "FLOW950-team-reward-server-down.yaml:4" in warning and "field severity" in warning


def test_rules_list_show_schema(run_cli) -> None:
    r = run_cli(["rules", "--category", "config", "--format", "json"])
    rows = json.loads(r.stdout)
    assert rows and {row["category"] for row in rows} == {"config"}
    text = run_cli(["rules"]).stdout.decode()
    assert "FLOW004" in text and "ENV001" in text
    show = run_cli(["rules", "show", "cuda-out-of-memory"]).stdout.decode()
    for part in ("Symptoms:", "Cause:", "Fixes:", "Do not:", "References:", "Example:"):
        assert part in show
    assert "CUDA out of memory" in show
    md = run_cli(["rules", "show", "FLOW004", "--format", "markdown"]).stdout.decode()
    assert md.startswith("## FLOW004 cuda-out-of-memory")
    zh = run_cli(["rules", "show", "FLOW004", "--lang", "zh"]).stdout.decode()
    assert "显存" in zh and "原因" in zh
    assert run_cli(["rules", "show", "NOPE999"]).returncode == 2
    schema = json.loads(run_cli(["rules", "schema"]).stdout)
    assert schema["additionalProperties"] is False and "signatures" in schema["properties"]


def test_chinese_from_the_environment(run_cli) -> None:
    out = run_cli(["explain"], stdin=OOM, env={"LANG": "zh_CN.UTF-8"}).stdout.decode()
    assert "GPU 显存不足" in out and "原因" in out
    assert (
        "GPU ran out of memory"
        in run_cli(["explain", "--lang", "en"], stdin=OOM, env={"LANG": "zh_CN.UTF-8"}).stdout.decode()
    )


def test_generated_docs_are_fresh(run_cli) -> None:
    r = run_cli(["rules", "docs", "--check", "--out", str(ROOT / "docs")])
    assert r.returncode == 0, r.stderr.decode() + "\nregenerate with: verl-doctor rules docs --out docs"


def test_catalog_cache_is_used_and_invalidated(run_cli, tmp_path: Path) -> None:
    pack = _pack(tmp_path, "pack", TEAM_RULE)
    own = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    run_cli(["explain", "--rules", str(pack)], stdin=OOM, env=own)
    caches = list((tmp_path / "cache" / "verl-doctor").glob("catalog-*.marshal"))
    assert len(caches) == 1
    rule = next(pack.rglob("*.yaml"))
    rule.write_text(TEAM_RULE.replace("Our reward server is down", "Reward server down"))
    line = b"(TaskRunner pid=1) RewardServerUnavailable: rm-01:8000\n"
    out = run_cli(["explain", "--rules", str(pack)], stdin=line, env=own).stdout.decode()
    assert "Reward server down" in out


def test_rule_template_is_a_valid_rule(run_cli, tmp_path: Path) -> None:
    """docs/rule-template.yaml, copied as CONTRIBUTING.md says, lints clean and diagnoses its example."""
    pack = tmp_path / "pack" / "flow"
    pack.mkdir(parents=True)
    target = pack / "FLOW950-reward-server-unreachable.yaml"
    target.write_text((ROOT / "docs" / "rule-template.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    lint = run_cli(["rules", "lint", str(tmp_path / "pack")])
    assert lint.returncode == 0, lint.stdout.decode() + lint.stderr.decode()
    log = b"(TaskRunner pid=2210) RewardServerUnavailable: rm-01.internal:8000\n"
    out = run_cli(["explain", "--rules", str(tmp_path / "pack")], stdin=log)
    assert out.returncode == 1 and b"FLOW950" in out.stdout and b"rm-01.internal:8000" in out.stdout


def test_an_exclusive_step_leaves_out_the_general_ones_and_needs_when(run_cli, tmp_path: Path) -> None:
    spec = TEAM_RULE.replace(
        "signatures: ['RewardServerUnavailable: (?P<host>\\S+)']",
        "signatures: ['RewardServerUnavailable: (?P<host>\\S+)', 'RewardServerTimeout: (?P<slow>\\S+)']",
    ).replace(
        "fixes: [{step: {en: Restart it, zh: 重启服务}, commands: ['systemctl restart reward-server']}]",
        "fixes: [{step: {en: Give it more time, zh: 延长超时}, when: slow, exclusive: true, "
        "commands: ['export REWARD_TIMEOUT=600']}, "
        "{step: {en: Restart it, zh: 重启服务}, commands: ['systemctl restart reward-server']}]",
    )
    pack = _pack(tmp_path, "team", spec)
    slow = run_cli(
        ["explain", "--rules", str(pack)], stdin=b"(TaskRunner pid=1) RewardServerTimeout: rm-01:8000\n"
    )
    assert b"REWARD_TIMEOUT" in slow.stdout and b"systemctl restart" not in slow.stdout
    down = run_cli(
        ["explain", "--rules", str(pack)], stdin=b"(TaskRunner pid=1) RewardServerUnavailable: rm-01\n"
    )
    assert b"systemctl restart" in down.stdout and b"REWARD_TIMEOUT" not in down.stdout
    lint = run_cli(["rules", "lint", str(_pack(tmp_path, "bad", spec.replace("when: slow, ", "")))])
    assert (
        lint.returncode != 0
        and b"only a step with `when` can leave the others out" in lint.stdout + lint.stderr
    )
