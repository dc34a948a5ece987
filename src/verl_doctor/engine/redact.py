"""Masking secrets in everything the report shows and in logs passed through `verl-doctor redact`.

Two ways a secret is recognised:
- by the name it is assigned to: `k=v`, `k: v`, `"k": "v"`, `--k v`, Hydra overrides and env
  dumps, where the name's last word is a key, token, secret, password or credential
  (`wandb_api_key`, `HF_TOKEN`, `apiKey`, `mlflow_tracking_password`), whatever the value's
  length; and passwords in URLs (`https://user:pw@host`, `redis://:pw@host`);
- by the value's own shape: wandb keys after "API key" or `wandb login`, and the token formats
  of Hugging Face, OpenAI, Anthropic, GitHub, GitLab, AWS, GCP, Slack, JWTs and private-key blocks.
Names such as `tokenizer`, `max_num_batched_tokens`, `KeyError` or `data.prompt_key` (a dataset
column) are not secret names, so the report keeps them readable; so do git SHAs and Ray ids.
"""

from __future__ import annotations

import re

from verl_doctor.common.records import fields, is_record, replace

TYPE_CHECKING = False  # typing is only needed by type checkers; importing it costs start-up time
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

MASK = "****"

# The last word of a secret name ends with one of these (apikey, authtoken, client_secret).
_SECRET_ENDINGS = (
    "key",
    "token",
    "secret",
    "secrets",
    "password",
    "passwd",
    "passphrase",
    "credential",
    "credentials",
)
# Words that make a name secret wherever they stand (private_key_id, db_password_plain).
_SECRET_WORDS = ("password", "passwd", "private", "credential", "credentials", "passphrase", "secret")
# A `..._key` or `..._token` after these words names data, not a credential: verl's dataset
# columns (data.prompt_key, data.reward_fn_key) and tokenizer specials (pad_token: <pad>).
_NOT_SECRET_BEFORE = {
    "key": (
        "prompt",
        "image",
        "video",
        "audio",
        "fn",
        "teacher",
        "response",
        "answer",
        "label",
        "sort",
        "full",
    ),
    "token": (
        "pad",
        "eos",
        "bos",
        "unk",
        "sep",
        "cls",
        "mask",
        "special",
        "image",
        "video",
        "audio",
        "vision",
    ),
}
_HARMLESS_VALUES = frozenset(("", "true", "false", "none", "null", "~", MASK, "''", '""', "<redacted>"))
_PLACEHOLDER_VALUE = re.compile(r"<[\w .-]{1,40}>|\.\.\.|value|VALUE|\$\{?\w+\}?")
_WORDS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


def is_secret_name(name: str) -> bool:
    """True for a variable, option or config key whose value is a credential."""
    words = [w.lower() for w in _WORDS.findall(name)]
    if not words:
        return False
    last = words[-1]
    if any(w in _SECRET_WORDS for w in words):
        return True
    for ending in _SECRET_ENDINGS:
        if last.endswith(ending):
            before = words[-2] if len(words) > 1 else ""
            return last != ending or before not in _NOT_SECRET_BEFORE.get(ending, ())
    return False


def is_secret_value(name: str, value: str) -> bool:
    """Whether `value`, assigned to `name`, is a credential to mask wherever else it appears."""
    return is_secret_name(name) and _mask_value(value) != value and len(value) >= _MIN_ECHOED_SECRET


def _mask_value(value: str) -> str:
    bare = value.strip("\"'")
    if value.startswith("${") or bare.lower() in _HARMLESS_VALUES or _PLACEHOLDER_VALUE.fullmatch(bare):
        # not a secret: a flag, an empty value (quoted once or twice), an interpolation, or a
        # slot to fill in (`key=value`, `--hf-token <token>` in a fix step or a pitfall)
        return value
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[0] + MASK + value[0]
    return MASK


def _assignment(match: re.Match[str]) -> str:
    if not is_secret_name(match.group("name")):
        return match.group(0)
    return match.group("k") + _mask_value(match.group("v"))


_NAME = r"[\w.\-]*(?:key|token|secret|passw|credential|passphrase|private)[\w.\-]*"
_NAME_GATES = ("key", "token", "secret", "passw", "credential", "passphrase", "private")
_VALUE = r"""(?P<v>"(?:[^"\\\n]|\\.)*"|'[^'\n]*'|[^\s"',;}\])&]+)"""
# (gates, pattern, replacement): every match contains one of the lower-cased gates, so a text
# without any skips the pattern, and patterns compile on first use (most reports need none).
_RULES: tuple[tuple[tuple[str, ...], str, str | Callable[[re.Match[str]], str]], ...] = (
    # Private-key blocks: from BEGIN to END, or to the end of the text when END is elsewhere.
    (
        ("private key-----",),
        r"(?s)(?P<k>-----BEGIN[A-Z0-9 ]*PRIVATE KEY-----).*?"
        r"(?P<e>-----END[A-Z0-9 ]*PRIVATE KEY-----|(?=\r?\n?\Z))",
        rf"\g<k>{MASK}\g<e>",
    ),
    # Assignments to a secret name: k=v, k: v, "k": "v", 'K': 'v', env['K'] = v, --k=v, -e K=v.
    (
        _NAME_GATES,
        rf"""(?i)(?P<k>(?<![\w.\-])(?P<name>{_NAME})["'\]]*[ \t]*[:=][ \t]*){_VALUE}""",
        _assignment,
    ),
    # Command-line options with the value after a space: --api-key VALUE, --hf-token VALUE.
    (_NAME_GATES, rf"(?i)(?P<k>(?<![\w.\-])--(?P<name>{_NAME})[ \t]+)(?!-){_VALUE}", _assignment),
    (
        ("api", "login"),
        r"(?i)(?P<k>\b(?:api[ _-]?key|wandb[ \t]+login(?:[ \t]+--?[a-z\-]+)*)[ \t:='\"]*)"
        r"(?P<v>(?=[A-Za-z_\-]*\d)[A-Za-z0-9_\-]{20,})",
        rf"\g<k>{MASK}",
    ),
    (("bearer",), r"(?i)(?P<k>\bbearer[ \t]+)(?P<v>(?!\*{4})[A-Za-z0-9._~+/\-]{8,}=*)", rf"\g<k>{MASK}"),
    (("://",), r"(?P<k>\b[a-zA-Z][a-zA-Z0-9+.\-]*://[^\s:/@]*:)(?P<v>[^\s@/]+)(?=@)", rf"\g<k>{MASK}"),
    # Self-identifying tokens: masked wherever they appear.
    (("hf_",), r"\b(?P<k>hf_)[A-Za-z0-9]{20,}", rf"\g<k>{MASK}"),
    (("sk-",), r"\b(?P<k>sk-(?:ant-|proj-)?)[A-Za-z0-9_\-]{20,}", rf"\g<k>{MASK}"),
    (("akia", "asia", "abia", "acca"), r"\b(?P<k>(?:AKIA|ASIA|ABIA|ACCA))[0-9A-Z]{16}\b", rf"\g<k>{MASK}"),
    (("aiza",), r"\b(?P<k>AIza)[0-9A-Za-z_\-]{30,}", rf"\g<k>{MASK}"),
    (("eyj",), r"\b(?P<k>eyJ)[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}", rf"\g<k>{MASK}"),
    (
        (
            "ghp_",
            "gho_",
            "ghu_",
            "ghs_",
            "ghr_",
            "github_pat_",
            "glpat-",
            "xoxa-",
            "xoxb-",
            "xoxp-",
            "xoxr-",
            "xoxs-",
        ),
        r"\b(?P<k>gh[pousr]_|github_pat_|glpat-|xox[abprs]-)[A-Za-z0-9_\-]{10,}",
        rf"\g<k>{MASK}",
    ),
)
_COMPILED: dict[int, re.Pattern[str]] = {}


def _pattern(index: int) -> re.Pattern[str]:
    pattern = _COMPILED.get(index)
    if pattern is None:
        pattern = _COMPILED[index] = re.compile(_RULES[index][1])
    return pattern


def redact(text: str, found: set[str] | None = None) -> str:
    """`text` with its secrets masked; the values masked for their name are added to `found`."""
    lower = text.lower()
    for index, (gates, _source, repl) in enumerate(_RULES):
        if any(gate in lower for gate in gates):
            if found is not None and repl is _assignment:
                repl = _collecting(found)
            text = _pattern(index).sub(repl, text)
    return text


def _collecting(found: set[str]) -> Callable[[re.Match[str]], str]:
    def assignment(match: re.Match[str]) -> str:
        masked = _assignment(match)
        if masked != match.group(0):
            found.add(match.group("v").strip("\"'"))
        return masked

    return assignment


# A value masked for its name is masked wherever else it appears too (a fact, a fix command,
# another line), unless it is too short to be told apart from ordinary text.
_MIN_ECHOED_SECRET = 4


def _walk(value: Any, found: set[str]) -> Any:
    if isinstance(value, str):
        return redact(value, found)
    if isinstance(value, tuple):
        return tuple(_walk(v, found) for v in value)
    if isinstance(value, list):
        return [_walk(v, found) for v in value]
    if isinstance(value, dict):
        # A mapping such as context.overrides holds the name apart from its value.
        out = {}
        for k, v in value.items():
            if isinstance(k, str) and isinstance(v, str) and is_secret_name(k):
                masked = _mask_value(v)
                if masked != v:
                    found.add(v.strip("\"'"))
                out[_walk(k, found)] = masked
            else:
                out[_walk(k, found)] = _walk(v, found)
        return out
    if is_record(value):
        return replace(value, **{name: _walk(getattr(value, name), found) for name in fields(value)})
    return value


def _mask_everywhere(value: Any, secrets: list[str]) -> Any:
    if isinstance(value, str):
        for secret in secrets:
            if secret in value:
                value = value.replace(secret, MASK)
        return value
    if isinstance(value, tuple):
        return tuple(_mask_everywhere(v, secrets) for v in value)
    if isinstance(value, list):
        return [_mask_everywhere(v, secrets) for v in value]
    if isinstance(value, dict):
        return {_mask_everywhere(k, secrets): _mask_everywhere(v, secrets) for k, v in value.items()}
    if is_record(value):
        return replace(
            value, **{name: _mask_everywhere(getattr(value, name), secrets) for name in fields(value)}
        )
    return value


def redact_report(report: Any) -> Any:
    """A copy of the report with every string field redacted, and every value that was masked
    for its name masked wherever else it appears."""
    # (with the values the log itself assigned to credential names, `export HF_TOKEN=...`, which
    # no field of the report holds beside their name)
    found: set[str] = set(getattr(report, "secret_values", ()))
    if found:
        report = replace(report, secret_values=())
    report = _walk(report, found)
    secrets = sorted((s for s in found if len(s) >= _MIN_ECHOED_SECRET and s != MASK), key=len, reverse=True)
    return _mask_everywhere(report, secrets) if secrets else report


_PEM_BEGIN = re.compile(r"-----BEGIN[A-Z0-9 ]*PRIVATE KEY-----")
_PEM_END = re.compile(r"-----END[A-Z0-9 ]*PRIVATE KEY-----")


class LogRedactor:
    """Redacts a log fed in pieces of whole lines. A private key's body lines, which no single
    line identifies, are masked from its BEGIN line to its END line, across pieces."""

    def __init__(self) -> None:
        self.in_key = False
        # values masked for their name so far (`export HF_TOKEN=...`): masked on later lines too
        self.found: set[str] = set()

    def feed(self, text: str) -> str:
        if not self.in_key and "PRIVATE KEY-----" not in text:
            text = redact(text, self.found)
        else:
            text = "".join(self._line(line) for line in text.splitlines(keepends=True))
        for secret in sorted(self.found, key=len, reverse=True):
            if len(secret) >= _MIN_ECHOED_SECRET and secret != MASK and secret in text:
                text = text.replace(secret, MASK)
        return text

    def _line(self, line: str) -> str:
        if self.in_key:
            end = _PEM_END.search(line)
            if end is None:
                return MASK + line[len(line.rstrip("\r\n")) :]
            self.in_key = False
            line = MASK + line[end.start() :]
        begins = list(_PEM_BEGIN.finditer(line))
        if begins and _PEM_END.search(line, begins[-1].end()) is None:
            self.in_key = True
        return redact(line, self.found)
