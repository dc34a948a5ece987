"""A rule's `sources`: the statements that print its messages, turned into sample log text.

Each entry reads `project@version path: text as printed`, where the text keeps the
`ExceptionType: ` prefix the log shows and marks the parts the program fills in as `{name}`
(or `{name=sample}` to choose the sample). The catalog test fills every template and checks
that the rule it belongs to ranks first, so a rule is held to the messages its failure prints
in every version recorded, not only to the examples it was written from.
"""

from __future__ import annotations

import re

from verl_doctor.common.records import record

_SOURCE = re.compile(
    r"^(?P<project>[\w.-]+)@(?P<version>[\w.+-]+) (?P<path>[^\s:]+)(?::\d+)?: (?P<text>\S[\s\S]*)$"
)
_PLACEHOLDER = re.compile(r"\{(?P<name>[A-Za-z_][\w.\[\]'\"()-]*)?(?:=(?P<sample>[^{}]*))?\}")
_EXCEPTION_PREFIX = re.compile(
    r"^(?:[A-Za-z_][\w]*\.)*[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Failure|Timeout)\b[^:\n]*: "
)

# Sample values by what a placeholder's name suggests: realistic enough to pass the signatures'
# own captures (a number where a count goes, a path where a path goes).
_SAMPLES: tuple[tuple[str, str], ...] = (
    (r"path|file|dir|folder|ckpt|checkpoint", "/data/ckpt/model"),
    (r"model|repo|name_or", "Qwen/Qwen2.5-7B-Instruct"),
    (r"key|option|param|field|attr|arg", "ppo_micro_batch_size"),
    (r"module|package|pkg|lib", "math_verify"),
    (r"dtype", "torch.bfloat16"),
    (r"device", "cuda:0"),
    (r"version|ver\b", "0.8.3"),
    (r"mode|strategy|estimator|backend|engine|method|type|kind|loss", "bogus"),
    (
        r"size|num|count|n_|len|length|gpus|step|batch|rank|world|tp|pp|dp|cp|ep|heads|tokens|"
        r"max|min|total|bsz|port|id|idx|index|^n$|^i$|^k$",
        "8",
    ),
)


@record(frozen=True)
class SourceMessage:
    project: str
    version: str
    path: str
    text: str

    @property
    def origin(self) -> str:
        return f"{self.project}@{self.version} {self.path}"


def parse_source(entry: str) -> SourceMessage:
    """One `sources` entry; ValueError if it is not `project@version path: text`."""
    m = _SOURCE.match(entry)
    if m is None:
        raise ValueError(f"not 'project@version path: text': {entry[:80]!r}")
    return SourceMessage(m["project"], m["version"], m["path"], m["text"])


def sample_value(name: str | None) -> str:
    lowered = (name or "").lower()
    for pattern, value in _SAMPLES:
        if re.search(pattern, lowered):
            return value
    return "value1" if name else "8"


def fill(template: str) -> str:
    """The template with every placeholder replaced by its sample value."""
    return _PLACEHOLDER.sub(
        lambda m: m["sample"] if m["sample"] is not None else sample_value(m["name"]), template
    )


def as_log(message: SourceMessage, worker: str = "(WorkerDict pid=20731, ip=10.0.0.2)") -> str:
    """The filled message as a worker prints it: raised exceptions after a short traceback
    through the file that raises them, other messages as one logged line."""
    text = fill(message.text)
    lines = text.splitlines() or [""]
    if _EXCEPTION_PREFIX.match(lines[0]):
        frame_path = message.path if message.path.endswith(".py") else "module.py"
        head = [
            "Traceback (most recent call last):",
            f'  File "/usr/local/lib/python3.10/site-packages/{frame_path}", line 412, in run',
            "    raise",
        ]
        lines = head + lines
    return "\n".join(f"{worker} {line}" for line in lines) + "\n"
