"""Normalizing one log line: strip colour codes, timestamps and worker prefixes, keep provenance.

Real verl lines look like
    (vLLMHttpServer pid=65944) (Worker_TP1 pid=67809) ERROR 05-19 13:26:50 [multiproc_executor.py:962] msg
        [repeated 7x across cluster]  (on the same line)
    (WorkerDict pid=835, ip=172.26.143.83) [rank38]:[E809 14:59:30.411244289 ProcessGroupNCCL.cpp:629] msg
    "2025-08-07T21:02:33+08:00" ray.exceptions.RayTaskError(ImportError): ...
Rules match the message; who printed it (actor, pid, ip, rank) and Ray's repeat count are kept.
"""

from __future__ import annotations

import re

from verl_doctor.common.lazy_re import lazy_compile
from verl_doctor.common.records import record

# ESC-based sequences (CSI, OSC, DCS/SOS/PM/APC, two-byte escapes), 8-bit CSI, and the ESC-less
# SGR remnants that survive copy-paste (`[36m`, `[0m`, `[1;31m`).
_ANSI = lazy_compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"
    r"|\x1b[PX^_][^\x1b]*(?:\x1b\\)?"
    r"|\x1b[@-Z\\-_]"
    r"|\x9b[0-?]*[ -/]*[@-~]"
    r"|\[\d{1,3}(?:;\d{1,3})*m"
)
_AUTOLINK = lazy_compile(r"\[([^\]\s]{1,200})\]\(https?://[^)\s]{1,300}\)")
_REPEATED = lazy_compile(r"\s*\[repeated (\d+)x across cluster\]")


def without_repeat_marks(text: str) -> str:
    """`text` without Ray's `[repeated Nx across cluster]` (on the last piece of a wrapped line)."""
    return _REPEATED.sub("", text) if "[repeated " in text else text


# Launchers' labels before every line of a task: `srun --label`'s task number (`0: `) and a node's
# name (`[node-0] `). Written to read the same with and without re.VERBOSE.
SRUN_LABEL = r"\d{1,5}:[ ]"
NODE_LABEL = r"\[[A-Za-z][\w.-]{0,60}\d\][ ]"
# pdsh's and clush's `node01: ` before each line of a host (a host name with a digit in it).
HOST_LABEL = r"[a-z][a-z0-9-]{0,62}\d(?:\.[a-z0-9-]{1,63}){0,4}:[ ](?=\S)"
WRAPPED_WIDTH = 76  # a line shorter than the narrowest terminal was not hard-wrapped
# How an exception line ends when a paste put its message on the lines after it (`ImportError:`).
BARE_EXCEPTION_ENDS = ("Error:", "Exception:")
# What starts a new log record rather than continuing a hard-wrapped one.
NEW_RECORD = lazy_compile(
    # (a command bash's `set -x` traces, `+ cp run.log /mnt/logs/`, at the start of its line)
    r"^\+{1,4} \S|"
    r"^\s*(?:\((?:[\w.:-]+,? )?(?:pid|ip)=|\(raylet\)|\[|" + SRUN_LABEL + "|" + HOST_LABEL + "|"
    r"Traceback |File \"|line \d+, in \w|During handling|"
    r"The above exception|Error executing job|Set the environment variable HYDRA_FULL_ERROR|"
    r"Error in call to target|Exception in thread|Fatal Python error|srun: |"
    r"(?:[A-Za-z_][\w.]*\.)?[A-Z]\w*(?:Error|Exception|Warning):|\d{4}-\d\d-\d\d|\d\d:\d\d:\d\d|"
    r"(?:INFO|WARNING|ERROR|DEBUG|CRITICAL)\b|[EWI]\d{4} |\^+\s*$|\$ |>>> |#)"
)
# The rest of a frame a wrap cut after its path (`line 233, in validate`): a new record for the
# lines before it but for that path.
FRAME_REST = lazy_compile(r"\s*line \d+, in [\w<>.]")
_PREFIXES = lazy_compile(
    r"""
    (?P<ts>"?\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?"?\s+)
    | (?P<bts>\[\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)?
        (?:\ (?:[A-Z]{2,4}\d+\ )*TP(?P<tprank>\d+)(?:\ [A-Z]{2,4}\d+)*)?\]\s*)  # SGLang's `[... DP0 TP3] `
    | (?P<glog>\[\d{4}-\d\d-\d\d\ \d\d:\d\d:\d\d,\d+\ [DIWEF]\ \d+\ \d+\]\s+\S+:\d+:\s*)
    | (?P<c10>\[[DIWEF]\d{3,4}\ \d\d:\d\d:\d\d\.\d+\ [^\]]{1,120}\]\s*)
    | (?P<rank>\[?rank(?P<rankno>\d+)\]:\s*)
    | (?P<ray>\((?P<ray_body>[^()]{0,200})\)\s*)
    | (?P<level>(?:DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL)
        \ \d\d-\d\d\ \d\d:\d\d:\d\d(?:\.\d+)?\ \[[^\]]{1,120}\]\s*)
    | (?P<pylog>(?:DEBUG|INFO|WARNING|ERROR|CRITICAL):\d{4}-\d\d-\d\d\ \d\d:\d\d:\d\d,\d+:)
    | (?P<quote>>{1,3}\ )  # a Markdown quote: a traceback pasted into an issue or a chat
    """
    + f"| (?P<srun>{SRUN_LABEL}) | (?P<node>{NODE_LABEL}(?=\\S)) | (?P<host>{HOST_LABEL})",
    re.VERBOSE,
)
_RAY_BODY = lazy_compile(
    r"^(?:(?P<actor>[A-Za-z_][\w.:-]*)(?![\w=])\s*)?(?:pid=(?P<pid>\d+))?(?:,\s*ip=(?P<ip>[\w.:-]+))?"
)
# Pretty-printed config dumps (`'n_gpus_per_node': 2,`) and Hydra's override list name config
# keys that rules would otherwise mistake for errors.
_CONFIG_DUMP = lazy_compile(r"""^\s*[{\[(]*\s*'[\w.\-/]+'\s*:\s""")
_OVERRIDES = lazy_compile(r"(Error executing job with overrides: )\[(?:'(?:[^'\\]|\\.)*'(?:,\s*)?)*\]")
_SHELL_TRACE = lazy_compile(r"^\+{1,4} ")
# Ray prefixes without a pid; any other bare "(word)" prefix (a conda env in a shell prompt) is
# stripped but not taken for a worker.
_PIDLESS_ACTORS = {"raylet", "gcs_server", "autoscaler", "monitor", "dashboard"}
# Besides colour codes and the line's start, `normalize` rewrites text only where one of these
# occurs (links, Ray's repeat counts, Hydra's override list).
REWRITE_MARKERS = ("](http", "[repeated ", "Error executing job with overrides")


@record(frozen=True)
class Worker:
    """Who printed a line: the Ray actor (innermost first in `nested`), its pid, host and rank."""

    actor: str | None = None
    pid: int | None = None
    ip: str | None = None
    rank: int | None = None
    outer: str | None = None  # the enclosing actor for nested vLLM prefixes

    def key(self) -> tuple[object, ...]:
        return (self.actor, self.pid, self.ip, self.rank)

    def is_known(self) -> bool:
        return self.actor is not None or self.pid is not None or self.ip is not None or self.rank is not None


NO_WORKER = Worker()


@record(frozen=True)
class Line:
    """A normalized line: `text` is what rules match; `raw` is what the user sees."""

    source: str
    number: int
    text: str
    raw: str
    worker: Worker
    repeats: int  # extra copies Ray folded into this line ('[repeated Nx across cluster]')
    is_config: bool  # config dump, shell trace: never evidence of an error
    follow: str = ""  # the next physical lines, raw: a message a terminal or page wrapped goes on there
    # The line before, raw (bytes: read only when no signature hits the line alone), when it may
    # have been wrapped into this one.
    before: bytes = b""
    cut: bool = False  # kept only for a literal that runs across its edge into a line next to it
    # Where a piece of a flattened line stands in it (0: a line as printed): pieces share their
    # line's number, and the earlier piece comes first.
    piece: int = 0


# Every sequence _ANSI removes starts with ESC, an 8-bit CSI, or this remnant; searching for it
# alone (a literal `[` first) is several times faster than running the alternation over the line.
_SGR_REMNANT = lazy_compile(r"\[\d{1,3}(?:;\d{1,3})*m")


def strip_ansi(text: str) -> str:
    if "\x1b" in text or "\x9b" in text or ("[" in text and _SGR_REMNANT.search(text)):
        return _ANSI.sub("", text)
    return text


ASCII_DIGIT = lazy_compile("[0-9]")  # what mask_digits masks


def mask_digits(text: str) -> bytes:
    """The text with every ASCII digit made `0`: the key shared by texts alike but for digits."""
    return text.encode("utf-8", "surrogatepass").translate(_DIGITS_TO_ZERO)


# A line's shape once its digits are masked -> where its message starts and ends, the spans of
# who printed it, whether it is a config dump (see `normalize`).
Span = tuple[int, int] | None
Recipe = tuple[int, int, tuple[Span, Span, Span, Span, Span] | None, bool]
RECIPE_ENTRIES = 4096
RECIPE_MAX_TEXT = 2048
_DIGITS_TO_ZERO = bytes.maketrans(b"123456789", b"000000000")
_workers: dict[tuple[object, ...], Worker] = {}


def normalize(
    source: str,
    number: int,
    raw: str,
    prefix: str | None = None,
    recipes: dict[bytes, Recipe] | None = None,
    stripped: str | None = None,
    follow: str = "",
    masked: bytes | None = None,
    before: bytes = b"",
) -> Line:
    """Normalize `raw` (one line or one `\\r` segment; `prefix` is its line's start if cut off).

    With `recipes`, lines alike but for their digits (timestamps, pids, ranks, steps) are
    normalized once: every pattern that strips a prefix treats all digits alike, so the
    message and the worker's fields sit at the same places in each copy and are read from
    that copy's own text. Lines that normalizing rewrites in the middle take the full path.
    `stripped` is `strip_ansi(raw)` and `masked` is `mask_digits(stripped)` when the caller
    already has them."""
    text = strip_ansi(raw) if stripped is None else stripped
    if recipes is not None and prefix is None and _by_recipe(text):
        key = mask_digits(text) if masked is None else masked
        recipe = recipes.get(key)
        if recipe is None:
            if len(recipes) >= RECIPE_ENTRIES:
                recipes.clear()
            recipe = recipes[key] = _recipe(text)
        start, end, spans, is_config = recipe
        worker = NO_WORKER if spans is None else worker_at(text, spans)
        return Line(source, number, text[start:end], raw, worker, 0, is_config, follow, before)
    if "](http" in text:
        text = _AUTOLINK.sub(r"\1", text)
    repeats = 0
    if "[repeated " in text:
        for m in _REPEATED.finditer(text):
            repeats += int(m.group(1))
        text = _REPEATED.sub("", text)
    head = text if prefix is None else _AUTOLINK.sub(r"\1", strip_ansi(prefix))
    spans, pos = _prefix_spans(head)
    worker = NO_WORKER if spans is None else worker_at(head, spans)
    if prefix is None:
        text = text[pos:]
    text = text.strip()
    if "Error executing job with overrides" in text:
        text = _OVERRIDES.sub(r"\1[...]", text)
    is_config = bool(_CONFIG_DUMP.match(text) or _SHELL_TRACE.match(text))
    return Line(source, number, text, raw, worker, repeats, is_config, follow, before)


def message_of(text: str) -> str:
    """A line's message as `normalize` reads it, for code that reads the raw lines after a
    candidate (a frame's source line): no colour codes, worker or time prefixes, Markdown quote,
    or the `\r` of a CRLF file."""
    text = strip_ansi(text).rstrip("\r")
    return text[_prefix_spans(text)[1] :].strip()


def _by_recipe(text: str) -> bool:
    """Whether `text` (a whole line) is normalized by its recipe: all but what normalizing
    rewrites in the middle."""
    return (
        len(text) <= RECIPE_MAX_TEXT
        and "](http" not in text
        and "[repeated " not in text
        and "Error executing job with overrides" not in text
    )


def copy_recipe(text: str) -> Recipe | None:
    """The recipe `normalize` applies to the whole line `text`, or None when it takes the full path."""
    return _recipe(text) if _by_recipe(text) else None


def _recipe(text: str) -> Recipe:
    spans, pos = _prefix_spans(text)
    rest = text[pos:]
    start = pos + len(rest) - len(rest.lstrip())
    end = max(start, pos + len(rest.rstrip()))
    message = text[start:end]
    return start, end, spans, bool(_CONFIG_DUMP.match(message) or _SHELL_TRACE.match(message))


def worker_at(text: str, spans: tuple[Span, Span, Span, Span, Span]) -> Worker:
    """The worker whose fields sit at `spans` of `text`; equal workers are one object."""
    a, p, i, r, o = spans
    actor = None if a is None else text[a[0] : a[1]]
    pid = None if p is None else text[p[0] : p[1]]
    ip = None if i is None else text[i[0] : i[1]]
    rank = None if r is None else text[r[0] : r[1]]
    outer = None if o is None else text[o[0] : o[1]]
    key = (actor, pid, ip, rank, outer)
    worker = _workers.get(key)
    if worker is None:
        if len(_workers) >= RECIPE_ENTRIES:
            _workers.clear()
        worker = _workers[key] = Worker(
            actor, int(pid) if pid else None, ip, int(rank) if rank is not None else None, outer
        )
    return worker


def _span(m: re.Match[str], group: str, offset: int) -> Span:
    s, e = m.span(group)
    return None if s < 0 else (s + offset, e + offset)


# Indentation before a worker's prefix: a log pasted as a Markdown code block (four spaces).
_INDENTED_WORKER = lazy_compile(
    rf"[ \t]+(?=\((?:[\w.:-]+,? )?(?:pid|ip)=|\[rank\d+\]:|{SRUN_LABEL}\S|{NODE_LABEL}\S)"
)

# What a paste puts before every line of a log: a code block's indentation, a Markdown quote.
_PASTE_MARGIN = lazy_compile(r"(?:[ \t]*>[ \t]?|[ \t]+)*")


def paste_margin(text: str) -> str:
    """The indentation and quote marks a paste put before `text` (empty when none)."""
    return _PASTE_MARGIN.match(text).group(0)  # type: ignore[union-attr]


def plain_prefix_end(text: str) -> int:
    """Where the message starts after prefixes that name no worker (a timestamp, a Markdown
    quote, a launcher's label); 0 when a prefix names a worker (its lines are told apart by it)."""
    spans, end = _prefix_spans(text)
    return 0 if spans is not None else end


def _prefix_spans(text: str) -> tuple[tuple[Span, Span, Span, Span, Span] | None, int]:
    """Spans of (actor, pid, ip, rank, outer actor) in the line's prefixes, or None when no
    worker is named, and where the message starts."""
    actors: list[tuple[Span, Span, Span]] = []
    rank: Span = None
    lead = _INDENTED_WORKER.match(text)  # (a paste indented as a Markdown code block)
    pos = lead.end() if lead else 0
    for _ in range(12):
        m = _PREFIXES.match(text, pos)
        if not m or m.end() == pos:
            break
        if m.group("rank"):
            rank = _span(m, "rankno", 0)
        elif m.group("tprank"):  # an SGLang scheduler's tensor-parallel rank
            rank = _span(m, "tprank", 0)
        elif m.group("ray") is not None:
            body_at = m.start("ray_body")
            b = _RAY_BODY.match(m.group("ray_body"))
            if b and (b.group("pid") or b.group("actor") in _PIDLESS_ACTORS):
                actors.append((_span(b, "actor", body_at), _span(b, "pid", body_at), _span(b, "ip", body_at)))
        pos = m.end()
    if not actors and rank is None:
        return None, pos
    inner = actors[-1] if actors else (None, None, None)
    outer = actors[0][0] if len(actors) > 1 else None
    ip = next((a[2] for a in actors if a[2]), None)
    return (inner[0], inner[1], ip, rank, outer), pos
