"""Markdown, GitHub annotations, step summary and redaction, as CI users see them."""

from __future__ import annotations

import json
import random
import string
from pathlib import Path

from verl_doctor.engine.session import diagnose_text
from verl_doctor.render import github, markdown

OOM = (
    "(WorkerDict pid=1201, ip=10.0.0.1) torch.OutOfMemoryError: CUDA out of memory. Tried to allocate "
    "2.00 GiB. GPU 0 has a total capacity of 79.25 GiB of which 1.00 GiB is free."
)
# A symptom that is no echo of the crash: it stays a finding of its own, after the root cause.
EMPTY = (
    "(TaskRunner pid=1100) ValueError: num_samples should be a positive integer value, but got num_samples=0"
)


def _token(prefix: str, n: int, alphabet: str = string.ascii_letters + string.digits) -> str:
    return prefix + "".join(random.choice(alphabet) for _ in range(n))


def test_markdown_structure() -> None:
    md = markdown.render(diagnose_text(f"{EMPTY}\n{OOM}\n"))
    lines = md.splitlines()
    assert lines[0].startswith("## verl-doctor: `FLOW004`")  # headline: root cause first
    assert "### 1. `FLOW004`" in md and "### 2. `CFG015`" in md
    assert md.index("### 1.") < md.index("### 2.")
    assert "```bash" in md and "actor_rollout_ref.rollout.gpu_memory_utilization=0.4" in md
    assert "<details><summary>evidence</summary>" in md
    assert md.count("```") % 2 == 0


def test_markdown_stays_small_for_a_huge_log() -> None:
    lines = [
        f"(WorkerDict pid={i}) RuntimeError: distinct failure number {i} " + "x" * 300 for i in range(3000)
    ]
    md = markdown.render(diagnose_text("\n".join(lines) + "\n" + OOM))
    assert len(md.encode()) < 300 * 1024


def test_markdown_cannot_break_out_of_its_fences() -> None:
    evil = (
        "(WorkerDict pid=1) " + OOM.split(") ", 1)[1] + " ```` </details> # heading [x](javascript:alert(1))"
    )
    md = markdown.render(diagnose_text(evil))
    fence_lines = [ln for ln in md.splitlines() if ln.lstrip().startswith("```")]
    assert all(
        len(ln.strip()) - len(ln.strip().lstrip("`")) >= 5 or ln.strip() in ("```bash", "```", "```text")
        for ln in fence_lines
    )
    outside, inside = [], False
    for ln in md.splitlines():
        if ln.lstrip().startswith("```"):
            inside = not inside if ln.strip().strip("`") in ("", "bash", "text") else inside
            continue
        if not inside:
            outside.append(ln)
    body = "\n".join(outside)
    assert body.count("</details>") == body.count("<details>")  # log text only inside fences


def test_github_annotations() -> None:
    gh = github.render(diagnose_text(f"{EMPTY}\n{OOM}\n"))
    lines = gh.strip().splitlines()
    assert lines[0].startswith("::error title=FLOW004 cuda-out-of-memory")
    assert lines[1].startswith("::warning title=CFG015 dataset-empty")  # symptoms are warnings
    assert "%0A" in lines[0]  # multi-line message escaped
    assert all(ln.count("::") >= 2 for ln in lines)


def test_github_escapes_properties_and_caps_at_ten() -> None:
    many = "\n".join(f"(TaskRunner pid=1) RuntimeError: broken thing {i}, a:b %" for i in range(30))
    gh = github.render(diagnose_text(many))
    assert len(gh.strip().splitlines()) <= 10
    for line in gh.strip().splitlines():
        data = line.split("::", 2)[2]
        assert "\n" not in data and "%" not in data.replace("%25", "").replace("%0A", "").replace("%0D", "")


def test_step_summary_is_appended(run_cli, tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    summary.write_text("# earlier step\n")
    r = run_cli(
        ["explain", "--format", "json"], stdin=OOM.encode(), env={"GITHUB_STEP_SUMMARY": str(summary)}
    )
    assert json.loads(r.stdout)["findings"][0]["rule"] == "FLOW004"
    text = summary.read_text()
    assert text.startswith("# earlier step\n") and "## verl-doctor: `FLOW004`" in text
    run_cli(["explain", "--no-step-summary"], stdin=OOM.encode(), env={"GITHUB_STEP_SUMMARY": str(summary)})
    assert summary.read_text() == text


def test_secrets_are_masked_in_every_format(run_cli) -> None:
    wandb_key = _token("", 40, "0123456789abcdef")
    hf = _token("hf_", 34)
    openai = _token("sk-", 48)
    aws_id = _token("AKIA", 16, string.ascii_uppercase + string.digits)
    password = _token("", 14)
    log = "\n".join(
        [
            f"(TaskRunner pid=1) ray init kwargs: {{'runtime_env': {{'env_vars': {{'WANDB_API_KEY': '{wandb_key}', 'NCCL_DEBUG': 'WARN'}}}}}}",
            f"export HF_TOKEN={hf}",
            f"(TaskRunner pid=1) RuntimeError: request failed with key {openai} for {aws_id} at https://bob:{password}@hub.example/x",
            f"(TaskRunner pid=1) ValueError: Authorization: Bearer {_token('', 30)} rejected",
            OOM,
        ]
    ).encode()
    sha = "1dda039b9c6311889a9c9a26040677e1254814f9"
    log += f"\n(WorkerDict pid=2) RuntimeError: commit {sha} actor_id=fffe55f82f5a8d4901a57df302000000\n".encode()
    for fmt in ("text", "json", "markdown", "github"):
        out = run_cli(["explain", "--format", fmt], stdin=log).stdout.decode()
        for secret in (wandb_key, hf[3:], openai[3:], aws_id[4:], password):
            assert secret not in out, (fmt, secret)
        if fmt in ("text", "json"):
            assert sha in out and "fffe55f82f5a8d4901a57df302000000" in out  # ids stay readable
    shown = run_cli(["explain", "--format", "json", "--no-redact"], stdin=log).stdout.decode()
    assert openai in shown
