"""No secret leaves the process: secrets named by their key or recognisable by their shape are
masked in every format, in `run`'s announcements and reports, and by `verl-doctor redact`."""

from __future__ import annotations

import gzip
import json
import string
import sys
from functools import cache
from pathlib import Path

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from conftest import FIXTURES, ROOT
from verl_doctor.authoring.draft import draft_rule
from verl_doctor.catalog.load import load_catalog
from verl_doctor.engine.redact import is_secret_name, redact, redact_report
from verl_doctor.engine.session import diagnose_text
from verl_doctor.render import github, json_out, markdown
from verl_doctor.render.layout import build, to_plain

OOM = (
    "(WorkerDict pid=1201, ip=10.1.0.11) torch.OutOfMemoryError: CUDA out of memory. Tried to allocate "
    "3.91 GiB. GPU 0 has a total capacity of 79.25 GiB of which 2.02 GiB is free."
)
ALNUM = string.ascii_letters + string.digits
HEX = "0123456789abcdef"
SECRET_NAMES = (
    "wandb_api_key",
    "WANDB_API_KEY",
    "trainer.wandb_api_key",
    "trainer.swanlab_api_key",
    "trainer.mlflow_tracking_password",
    "HF_TOKEN",
    "HUGGING_FACE_HUB_TOKEN",
    "aws_secret_access_key",
    "AWS_SESSION_TOKEN",
    "db_passwd",
    "client_secret",
    "GOOGLE_APPLICATION_CREDENTIALS",
    "apiKey",
    "access_token",
    "password",
    "Password",
    "private_key",
)
# How a name and its value are written: k=v, k: v, JSON, a Python dict, options, env, Hydra.
ASSIGNMENTS = (
    "{k}={v}",
    "{k}: {v}",
    '"{k}": "{v}"',
    "'{k}': '{v}'",
    "--{k}={v}",
    "--{k} {v}",
    "export {k}={v}",
    'declare -x {k}="{v}"',
    "+{k}={v}",
    "Error executing job with overrides: ['trainer.nnodes=1', '{k}={v}']",
    "environ({{'PATH': '/usr/bin', '{k}': '{v}'}})",
)


def _chars(alphabet: str, n: int) -> st.SearchStrategy[str]:
    return st.text(alphabet=alphabet, min_size=n, max_size=n)


# (text to insert, the secret that must not come out)
def _shaped() -> st.SearchStrategy[tuple[str, str]]:
    pair = lambda fmt, body: body.map(lambda b: (fmt.format(b), b))  # noqa: E731
    return st.one_of(
        pair("wandb: ERROR Invalid API key {}", _chars(HEX, 40)),
        pair("wandb login {}", _chars(HEX, 40)),
        pair("wandb login --relogin {}", _chars(HEX, 40)),
        pair("hf_{}", _chars(ALNUM, 34)),
        pair("sk-{}", _chars(ALNUM, 48)),
        pair("sk-proj-{}", _chars(ALNUM + "_-", 56)),
        pair("sk-ant-api03-{}", _chars(ALNUM + "_-", 93)),
        pair("ghp_{}", _chars(ALNUM, 36)),
        pair("gho_{}", _chars(ALNUM, 36)),
        pair("ghs_{}", _chars(ALNUM, 36)),
        pair("github_pat_{}", _chars(ALNUM + "_", 82)),
        pair("glpat-{}", _chars(ALNUM + "_-", 20)),
        pair("AKIA{}", _chars(string.ascii_uppercase + string.digits, 16)),
        pair("AIza{}", _chars(ALNUM + "_-", 35)),
        pair("xoxb-{}", _chars(string.digits + "-" + ALNUM, 40)),
        pair("xoxp-{}", _chars(string.digits + "-" + ALNUM, 40)),
        pair("eyJhbGciOiJIUzI1NiJ9.eyJ{}", _chars(ALNUM + "_-", 40).map(lambda b: b + "." + b[::-1])),
        pair("https://bob:{}@hub.example/repo.git", _chars(ALNUM + "!*~", 12)),
        pair("redis://:{}@10.0.0.1:6379/0", _chars(ALNUM, 10)),
        pair("Authorization: Bearer {}", _chars(ALNUM + "._-", 32)),
        pair(
            "-----BEGIN PRIVATE KEY-----\n{}\n-----END PRIVATE KEY-----",
            _chars(string.ascii_letters + "+/", 64),
        ),
    )


def _named() -> st.SearchStrategy[tuple[str, str]]:
    value = st.text(alphabet=ALNUM + "!#%*+-./~^", min_size=6, max_size=24).filter(
        lambda v: not v.startswith("-") and v.lower() not in ("true", "false", "none", "null")
    )
    return st.tuples(st.sampled_from(ASSIGNMENTS), st.sampled_from(SECRET_NAMES), value).map(
        lambda t: (t[0].format(k=t[1], v=t[2]), t[2])
    )


EXAMPLE_LOGS = sorted((ROOT / "examples").glob("*.log")) + sorted((FIXTURES / "healthy").glob("*.log"))


@cache
def _catalog():  # type: ignore[no-untyped-def]
    return load_catalog(include_user=False, use_cache=False)


def _outputs(text: str) -> list[str]:
    report = redact_report(diagnose_text(text, _catalog()))
    return [
        json_out.render(report),
        to_plain(build(report)),
        markdown.render(report),
        github.render(report),
        draft_rule(report),
    ]


@cache
def _clean_outputs(log: Path) -> str:
    return "\n".join(_outputs(log.read_text()))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    log=st.sampled_from(EXAMPLE_LOGS),
    secret=st.one_of(_shaped(), _named()),
    where=st.floats(min_value=0, max_value=1),
    inline=st.booleans(),
    error_line=st.booleans(),
)
def test_a_secret_inserted_anywhere_in_an_example_log_never_comes_out(
    log: Path, secret: tuple[str, str], where: float, inline: bool, error_line: bool
) -> None:
    inserted, value = secret
    # The lines this test writes around the secret are the log's words too (`RuntimeError`).
    around = ("(TaskRunner pid=9) RuntimeError: upload failed ", "(TaskRunner pid=9) ValueError: ", OOM + " ")
    assume(value not in _clean_outputs(log) and value not in log.read_text())
    assume(not any(value in text for text in around))
    lines = log.read_text().splitlines()
    if error_line:  # an exception line with the secret: it becomes evidence or unrecognized
        lines.extend(text + inserted for text in around)
    else:
        at = int(where * len(lines))
        if inline and at < len(lines) and " " in lines[at]:
            words = lines[at].split(" ")
            cut = max(1, int(where * len(words)))
            lines[at] = " ".join(words[:cut] + [inserted] + words[cut:])
        else:
            lines.insert(at, inserted)
    text = "\n".join(lines) + "\n"
    for out in _outputs(text):
        if value in out:
            # A value that is also a word of the output's own wording ("signatures" in a draft
            # rule) is not a leak: it must be there with a stand-in secret too.
            stand_in = "".join(_outputs(text.replace(value, "Q" * len(value))))
            assume(value not in stand_in)
        assert value not in out, (inserted, out[:2000])


def test_overrides_keep_their_key_and_lose_their_value(run_cli) -> None:
    log = (
        "(TaskRunner pid=1) Error executing job with overrides: ['trainer.wandb_api_key=abc123', "
        "'trainer.swanlab_api_key=sw4n', 'trainer.mlflow_tracking_password=mlpw9', 'trainer.nnodes=2', "
        "'data.prompt_key=question']\n" + OOM + "\n"
    )
    r = run_cli(["explain", "--format", "json"], stdin=log.encode())
    overrides = json.loads(r.stdout)["context"]["overrides"]
    assert overrides["trainer.wandb_api_key"] == "****"
    assert overrides["trainer.swanlab_api_key"] == "****"
    assert overrides["trainer.mlflow_tracking_password"] == "****"
    assert overrides["trainer.nnodes"] == "2" and overrides["data.prompt_key"] == "question"
    for leaked in ("abc123", "sw4n", "mlpw9"):
        assert leaked not in r.stdout.decode()


def test_a_value_masked_for_its_name_is_masked_where_it_is_echoed(run_cli) -> None:
    log = (
        "(TaskRunner pid=1) Error executing job with overrides: ['trainer.wandb_api_key=q7Zr2mXw']\n"
        "(TaskRunner pid=1) wandb.errors.AuthenticationError: the key q7Zr2mXw was rejected\n"
    )
    for fmt in ("json", "text", "markdown", "github"):
        out = run_cli(["explain", "--format", fmt, "--no-step-summary"], stdin=log.encode()).stdout.decode()
        assert "q7Zr2mXw" not in out and ("AuthenticationError" in out or fmt == "github"), (fmt, out)
        assert "ENV011" in out  # the error is still recognized


def test_a_value_the_launch_shell_exported_under_a_secret_name_is_masked_where_it_is_echoed(run_cli) -> None:
    log = (
        "root@node-3:/workspace# export JUDGE_API_KEY=hunter2xyz\n"
        "Traceback (most recent call last):\n"
        '  File "/home/u/judge/client.py", line 12, in score\n'
        "    raise ValueError(f'Unknown credential {key}')\n"
        "ValueError: Unknown credential hunter2xyz\n"
    )
    for fmt in ("json", "text", "markdown", "github"):
        out = run_cli(["explain", "--format", fmt, "--no-step-summary"], stdin=log.encode()).stdout.decode()
        assert "hunter2xyz" not in out and "Unknown credential" in out, (fmt, out)
    # ... and in a log passed through `redact`, on every line after the export
    out = run_cli(["redact"], stdin=log.encode()).stdout.decode()
    assert "hunter2xyz" not in out and "export JUDGE_API_KEY=****" in out


def test_a_flag_quoted_twice_is_no_secret_and_stays_readable_elsewhere() -> None:
    found: set[str] = set()
    text = """hf_token='"false"' use_remove_padding=false api_key='"s3cr3tval"'"""
    assert redact(text, found) == """hf_token='"false"' use_remove_padding=false api_key='****'"""
    assert found == {"s3cr3tval"}


def test_a_slot_to_fill_is_no_secret_and_the_word_stays_readable(run_cli) -> None:
    found: set[str] = set()
    text = "key=value --hf-token <token> HF_TOKEN=$HF_TOKEN token=... api_key=s3cr3tval"
    assert redact(text, found) == "key=value --hf-token <token> HF_TOKEN=$HF_TOKEN token=... api_key=****"
    assert found == {"s3cr3tval"}
    # A rule whose pitfall writes `key=value` (CFG016) used to mask every "value" in the report.
    log = (
        "Error executing job with overrides: ['trainer.total_epochs=2', 'trainer.logger=[console,wandb']\n"
        "no viable alternative at input '[console,wandb'\n"
    )
    out = run_cli(["explain", "--format", "json"], stdin=log.encode()).stdout.decode()
    assert "CFG016" in out and "key=value" in out and "****" not in out


def test_names_that_only_look_like_secrets_stay_readable() -> None:
    for name in (
        "tokenizer",
        "max_num_batched_tokens",
        "ppo_max_token_len_per_gpu",
        "KeyError",
        "data.prompt_key",
        "data.reward_fn_key",
        "pad_token",
        "full_key",
        "skip_tokenizer_init",
        "monkey_patch",
    ):
        assert not is_secret_name(name), name
    text = "KeyError: 'actor' full_key: actor_rollout_ref.rollout.n max_num_batched_tokens=8192 tokenizer=/m"
    assert redact(text) == text
    sha = "commit 1dda039b9c6311889a9c9a26040677e1254814f9 actor_id=fffe55f82f5a8d4901a57df302000000"
    assert redact(sha) == sha


PROBES = {
    "Invalid API key 0123456789abcdef0123456789abcdef01234567": "0123456789abcdef0123456789abcdef01234567",
    "wandb login 89abcdef0123456789abcdef0123456789abcdef": "89abcdef0123456789abcdef0123456789abcdef",
    "aws_secret_access_key=wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY": "wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY",
    "redis://:redispw77@10.0.0.1:6379": "redispw77",
    "password=pw12": "pw12",
}


def test_every_format_and_output_masks_the_issues_probes(run_cli, tmp_path: Path) -> None:
    lines = [f"(TaskRunner pid=1) RuntimeError: {probe}" for probe in PROBES] + [OOM]
    log = ("\n".join(lines) + "\n").encode()
    summary = tmp_path / "summary.md"
    outputs = []
    for fmt in ("text", "json", "markdown", "github"):
        r = run_cli(["explain", "--format", fmt], stdin=log, env={"GITHUB_STEP_SUMMARY": str(summary)})
        outputs += [r.stdout.decode(), r.stderr.decode()]
    outputs.append(run_cli(["explain", "--draft-rule", "--no-step-summary"], stdin=log).stdout.decode())
    outputs.append(summary.read_text())
    (tmp_path / "train.log").write_bytes(log)
    report = tmp_path / "diagnosis.md"
    r = run_cli(["run", "--report", str(report), "-f", "markdown", "--", "cat", str(tmp_path / "train.log")])
    outputs += [report.read_text(), r.stderr.decode()[r.stderr.decode().find("verl-doctor:") :]]
    assert "FLOW004" in outputs[0] and "detected FLOW004" in outputs[-1]
    for out in outputs:
        for secret in PROBES.values():
            assert secret not in out, (secret, out[:1000])
    shown = run_cli(["explain", "--format", "json", "--no-redact"], stdin=log).stdout.decode()
    assert all(secret in shown for secret in PROBES.values())


def test_run_announces_each_error_with_its_own_line(run_cli, tmp_path: Path) -> None:
    config = (ROOT / "examples" / "unknown-config-key.log").read_text()
    script = tmp_path / "two.sh"
    script.write_text(f"cat <<'EOF'\n{OOM}\n{config}EOF\n")
    r = run_cli(["run", "--", "bash", str(script)])
    announced = [ln for ln in r.stderr.decode().splitlines() if ln.startswith("verl-doctor: detected")]
    assert len(announced) >= 2, r.stderr
    by_code = {ln.split()[2]: ln for ln in announced}
    assert "OutOfMemoryError" in by_code["FLOW004"]
    other = [ln for code, ln in by_code.items() if code != "FLOW004"]
    assert other and all("OutOfMemoryError" not in ln for ln in other), announced


def test_redact_command(run_cli, tmp_path: Path) -> None:
    raw = "step:1 ok\nexport HF_TOKEN=hf_abcdefghijklmnopqrstuvwxyz012345\npassword=pw12\n-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----\nlast line without newline"
    log = tmp_path / "train.log"
    log.write_text(raw)
    for args, stdin in (
        (["redact", str(log)], b""),
        (["redact"], raw.encode()),
        (["redact", "-"], raw.encode()),
    ):
        r = run_cli(args, stdin=stdin)
        out = r.stdout.decode()
        assert r.returncode == 0 and not r.stderr
        assert (
            "abcdefghijklmnopqrstuvwxyz012345" not in out
            and "pw12" not in out
            and "MIIEowIBAAKCAQEA" not in out
        )
        assert out.count("\n") == raw.count("\n") and out.endswith("last line without newline")
        assert out.startswith("step:1 ok\nexport HF_TOKEN=****\npassword=****\n")
    packed = tmp_path / "train.log.gz"
    packed.write_bytes(gzip.compress(raw.encode())[:-12])
    target = tmp_path / "out.log"
    r = run_cli(["redact", str(packed), "-o", str(target)])
    assert r.returncode == 2 and "gzip data ends early" in r.stderr.decode() and r.stderr.count(b"\n") == 1
    assert target.read_text().startswith("step:1 ok\nexport HF_TOKEN=****")
    r = run_cli(["redact", str(log), "-o", str(log)])
    assert r.returncode == 2 and log.read_text() == raw and r.stderr.count(b"\n") == 1
    r = run_cli(["redact", str(tmp_path / "missing.log")])
    assert r.returncode == 2 and b"missing.log" in r.stderr and b"Traceback" not in r.stderr
    assert sys.executable  # run_cli uses this interpreter
