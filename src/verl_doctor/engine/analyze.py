"""From normalized lines to a report: rule hits, grouping across workers, ranking, unknowns.

`Analyzer.add(line)` takes candidate lines in order (one or several sources) and returns the
rules that produced their first hit on that line, so `run` and `--follow` can announce errors as
they appear. engine/assemble.py builds the report from what it gathered:

- hits of one rule are one finding; hits of one worker within a few lines are one occurrence;
  `count` adds occurrences over workers plus Ray's `[repeated Nx across cluster]`;
- a hit on a Ray envelope line (`RayTaskError(OutOfMemoryError): ray::...`) knows only the
  exception type: medium confidence, and it does not count when the inner error is also seen;
- ranking: root causes before symptoms, then confidence, then the earliest line;
- exceptions no rule knows are listed as unrecognized, with a fingerprint, the deepest verl
  frame and the phase (from the Ray envelope or the frames).
"""

from __future__ import annotations

import re
from collections import deque
from time import perf_counter

from verl_doctor.catalog.load import Catalog, Target
from verl_doctor.catalog.rule import Rule
from verl_doctor.common.lazy_re import lazy_compile
from verl_doctor.common.records import field, record, replace
from verl_doctor.engine.context import ContextCollector
from verl_doctor.engine.fingerprint import fingerprint
from verl_doctor.engine.line_kinds import SAVING_CHECKPOINT, ExceptionLine, Frame, describe_phase, frame_match
from verl_doctor.engine.normalize import (
    BARE_EXCEPTION_ENDS,
    HOST_LABEL,
    NEW_RECORD,
    NO_WORKER,
    NODE_LABEL,
    SRUN_LABEL,
    WRAPPED_WIDTH,
    Line,
    Span,
    Worker,
    copy_recipe,
    mask_digits,
    strip_ansi,
    worker_at,
)
from verl_doctor.engine.prefilter import LineSearcher
from verl_doctor.engine.verdict import Classifier, Verdict, VerdictMemo, groups_at, search

TYPE_CHECKING = False  # typing is only needed by type checkers; importing it costs start-up time
if TYPE_CHECKING:
    from typing import Any

    from verl_doctor.engine.fallbacks import Fallback

    # (where the message starts and ends, the spans of who printed it, its verdict)
    CopyPlan = tuple[int, int, tuple[Span, Span, Span, Span, Span] | None, Verdict]

# A rule whose regexes time out this often, or spend this long at more than SLOW_SEARCH a
# search on average, is switched off for the rest of the run: no rule can stall a run.
RULE_MAX_TIMEOUTS = 3
RULE_TIME_BUDGET = 1.0  # seconds
SLOW_SEARCH = 0.001  # seconds: healthy rules take microseconds
OCCURRENCE_GAP = 30  # hits of one worker closer than this are one occurrence
MAX_EVIDENCE = 3
MAX_WORKERS = 256
MAX_UNRECOGNIZED = 20
MAX_ENVELOPES = 64
MAX_ECHOES = 64  # distinct echoes kept (the report shows five)
MAX_COPY_PLANS = 4096
FRAME_LOOKBACK = 80
# Lines from an import machinery frame to the imported file's `<module>` frame (the frozen
# frames print no source line; a file's own frame may follow one or two of them).
_IMPORT_TO_MODULE = 4
# Lines from the innermost frame (numbered by its last line) to the exception raised in it: its
# source line, which a wrap may have cut in two.
_RAISED_WITHIN = 4
_CONF_RANK = {"high": 0, "medium": 1, "low": 2}
_GENERIC_METHODS = {"run", "main_task", "__init__", "main"}
# verl's functions that load a user's file by its path (custom reward functions, dataset classes,
# reward managers, tools).
# Errors that say a file or folder is not there, and the rule for what the key that named it holds.
_NOT_FOUND_TYPES = frozenset(
    ("FileNotFoundError", "OSError", "IOError", "ValueError", "RuntimeError", "AssertionError")
)
_NOT_FOUND = lazy_compile(
    r"not found|does not exist|doesn't exist|No such file|[Uu]nable to find|[Cc]ouldn't find|[Cc]annot find"
)
# A value a check says it got, with its name (`but got batch_size=-1`).
_NAMED_VALUE = lazy_compile(r"\b(?:got|Got|received|given):? ([a-z][a-z0-9_]{2,60})=['\"]?(-?[\w.+-]{1,60})")
# Python's words for a module used while it is still being imported, with the file when it says so.
_PARTIAL_MODULE = lazy_compile(
    r"partially initialized module '(?P<module>[\w.]+)'(?:[^(]*\(most likely due to a circular import\))?"
    r"(?: \((?P<path>[^()]+)\))?"
)
# A value a check says it got, alone and quoted (`got '0.5'`).
_GOT_VALUE = lazy_compile(r"\b(?:got|Got|received|given):? '(-?[\w.+/-]{1,60})'")
# A library saying something is gone, and a name it quotes (`storage`, 'storage', "storage").
_REMOVED = lazy_compile(
    r"\b(?:has been|was|were|been) removed\b|\bno longer (?:supported|exists?|available)\b"
)
_QUOTED_NAME = lazy_compile(r"[`'\"]([A-Za-z_]\w{2,60})[`'\"]")
# The interpreter's own objects and the attributes that change with Python's version.
_INTERPRETER_ATTRIBUTE = lazy_compile(
    r"^'(?:code|frame|function|generator|coroutine|traceback|cell)' object "
    r"has no attribute '(?:co|f|gi|cr|tb|func)_\w+'"
)
_RULE_FOR_PATH = {"data": "CFG013", "model": "CFG017", "module": "CFG008", "checkpoint": "FLOW014"}
# A Hub dataset's name (`namespace/name`), not a file: verl reads files, it does not download these.
_HUB_NAME = lazy_compile(
    r"[A-Za-z0-9][\w.-]{0,95}/[A-Za-z0-9][\w-]{0,95}(?:\.[\w-]+)?(?<!\.parquet)(?<!\.jsonl)(?<!\.json)"
)
_LOADS_BY_PATH = frozenset(
    ("get_custom_reward_fn", "load_extern_type", "load_extern_object", "load_module", "load_custom_module")
)
# An object of some type lacking an attribute the code read (`'dict' object has no attribute 'type'`).
_OBJECT_HAS_NO = lazy_compile(r"^'\w+' object has no attribute '(?P<attr>\w+)'")
# A plain value read as if it were a config section.
_SCALAR_HAS_NO = lazy_compile(r"^'(?:str|int|float|bool)' object has no attribute '(?P<attr>\w+)'")
# What code calls on a mapping (or a sequence) it was given.
_MAPPING_METHODS = frozenset(("get", "items", "keys", "values", "update", "pop", "copy", "append", "extend"))
# The libraries that read a run's data files.
_DATA_LIBRARIES = frozenset(("datasets", "pyarrow", "pandas"))
# verl's functions that write model.override_config into the model's config (verl/utils/model.py).
_APPLIES_MODEL_OVERRIDES = frozenset(("update_model_config",))
# verl's functions that import a module by a name a setting gives (or a path or a name).
_LOADS_BY_NAME = frozenset(
    ("load_class_from_fqn", "import_external_libs", "load_extern_type", "load_extern_object")
)
# A Ray worker's `(TaskRunner pid=1, ip=...)`, torch elastic's `[rank0]:`, an SGLang scheduler's
# `[2025-08-15 09:02:11 TP0] `, srun's `0: `, a node's `[node-0] `.
_PREFIX = lazy_compile(
    r"^\s*(?:\((?:\w+ )?pid=[^)]*\)\s?|\[rank\d+\]:\s?|"
    r"\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?: [A-Z]{2,4}\d+)+\]\s?|"
    rf"{SRUN_LABEL}|{NODE_LABEL}|{HOST_LABEL})+"
)
# A verl training checkpoint's model folder (`.../global_step_8/actor`), and the settings that
# name a model to load.
# Hydra naming the part of the config a failed build was for (`full_key: optim`).
_FULL_KEY = lazy_compile(r"^\s*(?:\([^)]*\)\s*)?full_key: (?P<key>[\w.]+)\s*$", re.M)
# (an SFT trainer's checkpoint is the step folder itself)
_CHECKPOINT_FOLDER = lazy_compile(r"(?:^|/)global_step_\d+(?:/(?:actor|critic))?/?$")
_MODEL_PATH_KEYS = ("model.path", "tokenizer_path", "model_path")
_PLACEHOLDER = lazy_compile(r"\{[\w.\[\]'\"!:]*\}")  # an f-string's field, as source code prints it
_ELISION = lazy_compile(r"^\s*\.\.\.\s*<\d+ lines?>\s*\.\.\.\s*$")
# A progress bar (tqdm's `  14%|█▍   | 7923/56112 [00:02<00:12, ...]`) is a record of its own.
_PROGRESS_BAR = lazy_compile(r"\b\d{1,3}%\|")
# A frame line a terminal wrapped before its function name: `File "/x/model_runner.py", line`;
# and the rest of a function name a wrap cut (`in __` / `init__`), not an exception's bare type.
# A feature refused outright (`load from hdfs is not implemented yet`).
_NOT_BUILT = lazy_compile(
    r"\bnot (?:yet )?implemented\b|\bnot (?:yet |currently )?supported\b|"
    r"\bdoes(?: not|n't) support\b|\bunsupported\b",
    re.I,
)
_WORD = lazy_compile(r"[a-z][a-z0-9]{3,}")
# Parts of option names (and words of messages) too common to tie a refusal to one option.
_COMMON = (
    "default path size enable enabled use max min num type name model data batch train val file files "
    "mode config ratio micro mini global local kwargs key length len total steps step dir save load freq "
    "per gpu gpus node nodes test with from when this that yet implemented supported support only none "
    "true false auto http https"
)
_COMMON_PARTS = frozenset(_COMMON.split())

# Frames that only pass a call on: validation libraries and generated code.
_PLUMBING = lazy_compile(r"/pydantic|/huggingface_hub/dataclasses\.py$|^<string>$")
_CUT_FRAME = lazy_compile(
    r'(?:File "[^"]*|^\s*"[^"]*\.py)(?:"(?:, ?(?:line(?: \d+(?:, ?(?:i(?:n(?: [\w<>.]*)?)?)?)?)?|l\w*)?)?)?$'
)
# The rest of a function's name alone on a line (`_init`, `__`).
_BARE_NAME = lazy_compile(r"[\w<>.]+")
# A path that begins inside a folder name: the tail of a frame a wrap cut inside its path.
_RELATIVE = lazy_compile(r"(?![/\\<~.]|[A-Za-z]:)")
_NAME_GOES_ON = lazy_compile(
    r"[\w<>.]+(?<!Error)(?<!Exception)(?<!Warning)(?<!Interrupt)(?<!Exit)\s*(?:\n|$)"
)
# Hydra's wrapper around an error raised while building a verl config class, and the error itself
# on the line after it: `ValueError('...')`.
_HYDRA_TARGET = lazy_compile(r"Error in call to target '(?P<target>verl\.[\w.]+)'")
_INNER_CALL = lazy_compile(
    r"^\s*(?P<type>[A-Z]\w*(?:Error|Exception))\((?:(?P<q>['\"])(?P<msg>.+)(?P=q),?)?\)\s*$"
)
# pydantic's report of a config class it refused to build, and the refusal on the lines after it.
_VALIDATION_FOR = lazy_compile(r"\bValidationError: \d+ validation errors? for (?P<cls>[A-Za-z_]\w*)")
_VALIDATOR_SAID = lazy_compile(
    r"^(?P<kind>Value error|Assertion failed), (?P<msg>.+?)(?: \[type=[a-z_]+[,\]].*)?$"
)
_FIELD_NAME = lazy_compile(r"^[A-Za-z_][\w.]*$")
_FIELD_SAID = lazy_compile(r"^(?P<msg>.+?) \[type=[a-z_]+[,\]]")
# A config class refusing a value (a TypeError there is a field it does not have: CFG005's).
_REFUSAL_TYPES = frozenset(
    ("AssertionError", "ValueError", "NotImplementedError", "RuntimeError", "KeyError")
)
# Exceptions that say a file could not be written or found, and distributed checkpointing's own.
_SAVE_ERROR_TYPES = frozenset(
    (
        "OSError",
        "IOError",
        "FileNotFoundError",
        "PermissionError",
        "IsADirectoryError",
        "NotADirectoryError",
        "FileExistsError",
        "CheckpointException",
        "CheckpointingException",
    )
)
_CONFIG_CHECK_TYPES = {
    "AssertionError",
    "ValueError",
    "TypeError",
    "KeyError",
    "NotImplementedError",
    "RuntimeError",
    "Exception",  # `raise Exception(...)`: research code and engines refuse settings with it too
}
# A library's own refusal classes, by the name's end: argparse's `ArgumentTypeError`, vLLM's
# `VLLMValidationError`, a `...ConfigError`, a `...ValueError` subclass.
_REFUSAL_CLASS = lazy_compile(r"(?:Validation|Argument(?:Type)?|Config(?:uration)?|Value|Assertion)Error$")


@record
class _Occurrence:
    worker: Worker
    last_line: int


@record
class _RuleState:
    rule: Rule
    first: Line | None = None
    first_conf: str = "low"
    best_conf: str = "low"
    evidence: list[Line] = field(default_factory=list)
    evidence_worker: Worker | None = None
    count: int = 0
    envelope_count: int = 0
    workers: dict[tuple[object, ...], Worker] = field(default_factory=dict)
    envelope_workers: dict[tuple[object, ...], Worker] = field(default_factory=dict)
    workers_total: int = 0
    hosts: set[str] = field(default_factory=set)
    occurrences: dict[tuple[object, ...], int] = field(default_factory=dict)  # worker -> last line
    groups: dict[str, str] = field(default_factory=dict)
    phase: str | None = None
    phase_detail: str | None = None
    basis: str = "message"  # what the leading evidence is: message | envelope | clue | exception
    last_line: int = 0


# A client whose server went away: what follows an engine's death, never its cause.
_PEER_LOST = frozenset(
    (
        "ServerDisconnectedError",
        "ClientConnectionError",
        "ClientOSError",
        "ClientPayloadError",
        "RemoteDisconnected",
        "ConnectionResetError",
        "BrokenPipeError",
        "IncompleteRead",
    )
)


@record
class _Unknown:
    line: Line
    exc: ExceptionLine
    count: int
    phase: str | None
    verl_frame: str | None
    peer_lost: bool = False  # it only says the process at the other end went away


class Analyzer:
    """Feeds normalized lines through the catalog; see the module docstring."""

    def __init__(self, catalog: Catalog, lang: str = "en") -> None:
        self.catalog = catalog
        self.lang = lang
        self.searcher = LineSearcher(catalog.literals)
        self.classifier = Classifier(catalog, self.searcher, self._timed_out_on)
        self.memo = VerdictMemo(self.classifier)
        self.states: dict[str, _RuleState] = {}
        self.warning_states: dict[str, _RuleState] = {}  # hits of warning-level messages
        self.context = ContextCollector()
        self.lines_seen = 0
        self.timeouts: list[str] = []  # one note per rule that timed out
        self._timed_out: dict[str, tuple[int, int]] = {}  # rule id: (timeouts, index of its note)
        self._spent: dict[str, list[float]] = {}  # rule id: [seconds, searches]
        self.switched_off = self.classifier.switched_off
        self.classifier.on_spent = self._spend
        self._unknown: dict[str, _Unknown] = {}
        self._echoes: list[tuple[Line, str | None]] = []  # the first of each distinct echo
        self._echo_keys: set[tuple[str | None, str]] = set()
        self._settled: set[tuple[str, int]] = set()  # envelopes `settle` has credited
        self._envelopes: deque[tuple[Line, Any]] = deque(maxlen=MAX_ENVELOPES)
        # The last of those envelopes per (source, worker), with its place in the order of all
        # envelopes: who raised a line is then one lookup, not a walk back through the deque.
        self._last_envelope: dict[tuple[str, Worker], tuple[int, Line, Any]] = {}
        self._envelopes_seen = 0
        self._frames: dict[tuple[object, ...], deque[tuple[int, Frame]]] = {}
        self._clue_hits: dict[tuple[int, int], dict[int, list[int]]] = {}
        self._clue_vetoes: dict[tuple[int, int], int] = {}  # the last line a clue's rule excluded
        self._facts: dict[int, list[tuple[int, dict[str, str]]]] = {}
        self.sources_order: list[str] = []
        self._rule_index: dict[str, Rule] | None = None  # built on first fallback: rules load lazily
        self._innermost: dict[tuple[object, ...], tuple[int, Frame]] = {}  # last frame per worker
        self._caller: dict[tuple[object, ...], tuple[str, ...]] = {}  # the functions that called it
        self._own_frame: dict[tuple[object, ...], tuple[int, Frame]] = {}  # last frame in no package
        # Per worker: a library's frames entered from the user's own code (the function called,
        # and whether that code was itself called by a library: a custom loss or reward plugged
        # into verl), and whether the last user frame was called by a library.
        self._entered: dict[tuple[object, ...], tuple[str, bool]] = {}
        self._plugged: dict[tuple[object, ...], bool] = {}
        self._answered_fps: set[str] = set()  # exceptions an analysis answered, by fingerprint
        self._frame_follow: dict[tuple[object, ...], str] = {}  # what came after that frame
        # Per worker: the last verl frame whose source line reads the run's config, and that line.
        self._config_read: dict[tuple[object, ...], tuple[int, str]] = {}
        # Per worker: the last frame of Python's import machinery, and the last user file whose
        # module code ran right under it (a custom file verl was told to load).
        self._importing: dict[tuple[object, ...], int] = {}
        self._user_module: dict[tuple[object, ...], tuple[int, str]] = {}
        # Per source: the last line of a frame read whole from a wrap (its tail, on lines of no
        # worker's prefix, is no frame).
        self._frame_tail_until: dict[str, int] = {}
        # Digit-masked shapes of lines that only record signature hits (`_is_pure`) -> where their
        # message and worker sit, and their verdict: the scanner hands copies to `add_copy`.
        self.copy_plans: dict[bytes, CopyPlan] = {}
        self.copies_taken = 0

    # ------------------------------------------------------------------ per line

    def add(self, line: Line) -> list[str]:
        """Analyze one candidate line; returns codes of rules first hit on this line."""
        self.lines_seen += 1
        if line.source not in self.sources_order:
            self.sources_order.append(line.source)
        text = line.text
        verdict = self.memo.verdict(text, line.is_config, line)
        if verdict is None:
            # A line kept for a literal that a hard wrap cut across its edge: only a joined
            # reading can match.
            return (self._wrapped_hits(line, None) or []) if line.cut else []
        if self.memo.enabled and not line.cut:  # without the memo: the reference path, always
            pure = verdict.pure
            if pure is None:
                pure = verdict.pure = self._is_pure(verdict, text)
            if pure:
                return self._hits_only(line, verdict)
        kinds = verdict.kinds
        if "context" in kinds or line.is_config or "frame" in kinds:
            self.context.add(line)
        if line.is_config:
            return []
        fr = verdict.frame_of(text)
        follow = line.follow
        tail_until = self._frame_tail_until.get(line.source, -1)
        if fr is not None and tail_until >= line.number and _RELATIVE.match(fr.path):
            fr = None  # the rest of a frame a wrap cut inside its path, read whole on the line before
        elif follow and (
            _CUT_FRAME.search(text)
            if fr is None
            else len(line.raw) >= WRAPPED_WIDTH and _NAME_GOES_ON.match(follow) is not None
        ):
            fr, follow, used = self._wrapped_frame(line, fr)
            if used:
                tail_until = self._frame_tail_until[line.source] = line.number + used
        ends = max(line.number, tail_until)
        if fr is not None:
            if fr.is_verl:
                self._frames_of(line.worker).append((line.number, fr))
                if "config." in follow[:400]:
                    self._note_config_read(line, follow)
            if len(self._innermost) > MAX_WORKERS:
                self._innermost.clear()
                self._caller.clear()
                self._own_frame.clear()
                self._entered.clear()
                self._plugged.clear()
                self._frame_follow.clear()
                self._config_read.clear()
            # pydantic's validation plumbing (and huggingface_hub's, which transformers' config
            # classes validate with) is never where a setting is checked: the frame that built
            # the config class (vLLM's arg_utils) stays the innermost one. Nor is the `__init__`
            # a dataclass generates (`File "<string>"`) between its caller and `__post_init__`.
            if _PLUMBING.search(fr.path) is None:
                # (numbered by its last line: a frame a wrap spread over lines ends there)
                key = line.worker.key()
                before = self._innermost.get(key)
                near = before is not None and 0 <= line.number - before[0] <= _RAISED_WITHIN
                # (the library's own callers, nearest last: a user's `main` calling it is not the
                # library starting)
                if near and before is not None and before[1].package == fr.package:
                    callers = self._caller.get(key, ())
                    self._caller[key] = (*callers[-(_CALLERS_KEPT - 1) :], before[1].func)
                else:
                    self._caller.pop(key, None)
                    if fr.package is not None and near and before is not None and _user_frame(before[1]):
                        self._entered[key] = (fr.func, self._plugged.get(key, False))
                    else:
                        self._entered.pop(key, None)
                if _user_frame(fr):
                    self._plugged[key] = near and before is not None and before[1].package is not None
                self._innermost[key] = (ends, fr)
                self._frame_follow[key] = follow
            if fr.package is None and not fr.path.startswith("<"):
                self._own_frame[line.worker.key()] = (ends, fr)
            self._note_import(line, fr)
        env = verdict.envelope_of(text)
        if env is not None:
            self._envelopes.append((line, env))
            if len(self._last_envelope) > 4 * MAX_ENVELOPES:  # forget those out of the window
                oldest = self._envelopes_seen - MAX_ENVELOPES
                self._last_envelope = {k: v for k, v in self._last_envelope.items() if v[0] >= oldest}
            self._last_envelope[(line.source, line.worker)] = (self._envelopes_seen, line, env)
            self._envelopes_seen += 1
        new: list[str] = []
        hit_any = False
        for rule, spans, warning in verdict.sigs:
            if spans is not None:
                if rule.exclude_res and line.follow and self._excluded_in(rule, line, self._joined(line)):
                    continue
                if "has no attribute" in text and self._name_held_in_a_variable(line, rule.id):
                    continue
                if rule.id == "ENV009" and self._missing_by_its_own_words(line, text, spans):
                    continue
                hit_any = True
                groups = groups_at(text, spans)
                conf = "medium" if env is not None else "high"
                if warning:
                    self._record(rule, line, conf, groups, states=self.warning_states)
                elif self._record(rule, line, conf, groups):
                    new.append(rule.id)
        for (rule, t), hit in zip(verdict.clues, verdict.clue_hits, strict=True):
            if hit:
                code = self._clue(rule, t, line, verdict)
                if code:
                    new.append(code)
        for ri in verdict.facts:
            self._fact(ri, line, verdict)
        if not hit_any and fr is None:
            joined = self._wrapped_hits(line, env)
            if joined is not None:
                return new + joined
        if verdict.envelope_echo and env is not None:
            self._echo(line, env.inner or None)
        elif verdict.exception:
            if not (" validation error" in text and self._validation_refused(line)):
                self._maybe_unknown(line, verdict)
        elif verdict.echo:
            self._echo(line, None)
        elif not hit_any and "exception" in kinds and "Error in call to target" in text:
            self._config_class_refused(line)
        return new

    def _is_pure(self, verdict: Verdict, text: str) -> bool:
        """Whether all a line with this verdict does is record its signature hits (and facts): no
        frame, envelope, context or clue, no rule that reads the lines around it, and nothing a
        wrap could have cut. Such a line's neighbours never matter. Decided once per verdict: a
        verdict shared by texts alike but for digits gives the same answer for each, as
        `_CUT_FRAME` treats all digits alike."""
        hits = [rule for rule, spans, _ in verdict.sigs if spans is not None]
        return bool(
            hits
            and not verdict.kinds & {"context", "frame", "envelope"}
            and not any(verdict.clue_hits)
            and not any(rule.exclude_res for rule in hits)
            and not _CUT_FRAME.search(text)
        )

    def _hits_only(self, line: Line, verdict: Verdict) -> list[str]:
        """What `add` does for a pure line (see `_is_pure`), without the questions whose answer
        is known to be no. A digit-safe verdict's line shape becomes a copy plan."""
        new = self._record_hits(line, verdict)
        if verdict.shared and not line.repeats and not line.is_config:
            self._plan_copies(line, verdict)
        return new

    def _record_hits(self, line: Line, verdict: Verdict) -> list[str]:
        new: list[str] = []
        text = line.text
        for rule, spans, warning in verdict.sigs:
            if spans is not None:
                states = self.warning_states if warning else self.states
                state = states.get(rule.id)
                # Only a rule's first value of each group is kept: copies need not read theirs.
                groups = (
                    None
                    if state is not None and spans.keys() <= state.groups.keys()
                    else groups_at(text, spans)
                )
                if self._record(rule, line, "high", groups, states=states) and not warning:
                    new.append(rule.id)
        for ri in verdict.facts:
            self._fact(ri, line, verdict)
        return new

    def _plan_copies(self, line: Line, verdict: Verdict) -> None:
        """Remember, by the line's digit-masked shape, where its message and worker sit and its
        verdict: the scanner hands copies of it to `add_copy` without a Line or a regex."""
        plans = self.copy_plans
        stripped = strip_ansi(line.raw)
        recipe = copy_recipe(stripped)
        if recipe is None or recipe[3] or stripped[recipe[0] : recipe[1]] != line.text:
            return
        if len(plans) >= MAX_COPY_PLANS:
            plans.clear()
        plans[mask_digits(stripped)] = (recipe[0], recipe[1], recipe[2], verdict)

    def add_copy(self, plan: CopyPlan, source: str, number: int, raw: str, text: str) -> None:
        """A copy of a line `_plan_copies` planned (`text`: `raw` without colour codes): exactly
        what `add` would do with it, which is recording its hits."""
        start, end, spans, verdict = plan
        worker = NO_WORKER if spans is None else worker_at(text, spans)
        self.lines_seen += 1
        self.copies_taken += 1
        if source not in self.sources_order:
            self.sources_order.append(source)
        self._record_hits(Line(source, number, text[start:end], raw, worker, 0, False), verdict)

    def _wrapped_hits(self, line: Line, env: Any) -> list[str] | None:
        """Signatures tried on the line joined with the lines that continue it and, when it goes
        on a message a hard wrap began on the line before, with that line too; None when no
        joined reading hits."""
        if line.follow:
            joined = self._rejoined(line, env, self._joined(line))
            if joined is not None:
                return joined
        if not line.before or NEW_RECORD.match(strip_ansi(line.raw)):
            return None
        start = strip_ansi(line.before.decode("utf-8", "replace")).rstrip("\r")
        exact = self._continuation(line, exact=True) if line.follow else []
        rest = [p.strip() for p in exact]
        # A terminal's wrap keeps every character; a page's may have cut at a space it dropped.
        variants = [start + strip_ansi(line.raw) + "".join(exact)]
        for v in (start + line.text, start + " " + line.text):
            variants += [v + sep + sep.join(rest) for sep in ("", " ")] if rest else [v]
        return self._rejoined(line, env, variants)

    def _wrapped_frame(self, line: Line, fr: Frame | None) -> tuple[Frame | None, str, int]:
        """The frame a terminal's hard wrap split over lines (`..., line` / `418, in load_model`,
        or inside its path), joined mid-word (`in __` / `init__`) or at a space, the lines after
        it (its source line comes next) and how many lines it took; `fr`, the lines after it and
        0 when no joined reading is a frame."""
        pieces = self._continuation(line)
        for k in range(1, len(pieces) + 1):
            for sep in ("", " "):
                joined = line.text + sep + sep.join(pieces[:k])
                m = frame_match(joined)
                if m is not None and m.end() == len(joined):
                    # A function's name cut twice (`in __post` / `_init` / `__`): the rest of it
                    # is on the lines after, one bare piece each.
                    while k < len(pieces) and _BARE_NAME.fullmatch(pieces[k]):
                        longer = frame_match(joined + pieces[k])
                        if longer is None or longer.end() != len(joined) + len(pieces[k]):
                            break
                        joined, m, k = joined + pieces[k], longer, k + 1
                    rest = "\n".join(line.follow.split("\n")[k:])
                    return Frame(m.group("path"), int(m.group("line")), m.group("func")), rest, k
        return fr, line.follow, 0

    def _echo(self, line: Line, inner: str | None) -> None:
        """Keep the first line of each distinct echo (a log repeats them on every rank and
        every retry): the report names a few, and memory stays flat however long the log."""
        key = (inner, line.text[:60])
        if key not in self._echo_keys and len(self._echo_keys) < MAX_ECHOES:
            self._echo_keys.add(key)
            self._echoes.append((line, inner))

    def _excluded_in(self, rule: Rule, line: Line, variants: list[str]) -> bool:
        """Whether a joined reading of a wrapped message is what the rule excludes (a message
        that reads like an engine's but names verl's own models on the wrapped part)."""
        return any(self._excluded(rule, replace(line, text=v, follow="")) for v in variants)

    def _joined(self, line: Line) -> list[str]:
        """`line` joined with the lines that continue it, read as a terminal's wrap (every
        character kept), a wrap mid-word and one at a space; empty when nothing continues it."""
        exact = self._continuation(line, exact=True)
        if not exact:
            return []
        pieces = [p.strip() for p in exact]
        variants = [line.text + "".join(pieces), line.text + " " + " ".join(pieces)]
        # Two cuts may have fallen one mid-word and one at a space: as the terminal printed them.
        return [line.text + "".join(exact), *variants] if len(exact) > 1 else variants

    def _continuation(self, line: Line, exact: bool = False) -> list[str]:
        """The lines after `line` that continue its message: a terminal's or web page's hard wrap
        (mid-word or at a space), lines past a `...<N lines>...` elision, or lines under the same
        worker prefix (Ray prefixes every line of a message with a newline in it). `exact` keeps
        their spaces at both ends."""
        pieces: list[str] = []
        own = _PREFIX.match(line.raw)
        own_prefix = own.group(0).strip() if own else None
        for nxt in line.follow.split("\n")[:3]:
            piece = strip_ansi(nxt).rstrip("\r")
            if own_prefix is not None:
                theirs = _PREFIX.match(piece)
                if theirs is not None and theirs.group(0).strip() == own_prefix:
                    piece = piece[theirs.end() :]
            if _ELISION.match(piece):
                continue
            if not piece.strip() or NEW_RECORD.match(piece) or _PROGRESS_BAR.search(piece):
                break
            pieces.append(piece if exact else piece.strip())
        return pieces

    def _rejoined(self, line: Line, env: Any, variants: list[str]) -> list[str] | None:
        """Signatures tried on the line joined with the lines that continue it (or with the line
        it continues). None when no joined form hits; else the codes first found."""
        for variant in variants:
            present = self.searcher.present(variant)
            sigs: dict[int, set[int]] = {}
            for li in present:
                for t in self.catalog.targets[li]:
                    if t.kind == "sig" and t.rule >= 0:
                        sigs.setdefault(t.rule, set()).add(t.index)
            if not sigs:
                continue
            joined = replace(line, text=variant, follow="")
            new: list[str] = []
            hit = False
            for ri, sig_idx in sigs.items():
                rule = self.catalog.rules[ri]
                matched = self._matches(rule, joined, sig_idx)
                # A wrap at a space or mid-word: either reading may be the one the rule excludes.
                if matched is None or (rule.exclude_res and self._excluded_in(rule, line, variants)):
                    continue
                hit = True
                groups, si = matched
                conf = "medium" if env is not None else "high"
                if rule.is_warning(si):
                    self._record(rule, line, conf, groups, states=self.warning_states)
                elif self._record(rule, line, conf, groups):
                    new.append(rule.id)
            if hit:
                return new
        return None

    def _frames_of(self, worker: Worker) -> deque[tuple[int, Frame]]:
        key = worker.key()
        frames = self._frames.get(key)
        if frames is None:
            if len(self._frames) > MAX_WORKERS:
                self._frames.clear()
            frames = self._frames[key] = deque(maxlen=16)
        return frames

    def _search(self, rule: Rule, pattern: Any, text: str, line: Line) -> Any:
        if rule.id in self.switched_off:
            return None
        start = perf_counter()
        try:
            return search(rule, pattern, text, line, self._timed_out_on)
        finally:
            self._spend(rule, perf_counter() - start)

    def _spend(self, rule: Rule, seconds: float) -> None:
        spent = self._spent.get(rule.id)
        if spent is None:
            spent = self._spent[rule.id] = [0.0, 0]
        spent[0] += seconds
        spent[1] += 1
        if spent[0] > RULE_TIME_BUDGET and spent[0] > spent[1] * SLOW_SEARCH:
            self._switch_off(rule, f"its regexes took {spent[0]:.1f} s over {spent[1]:,} searches")

    def _timed_out_on(self, rule: Rule, line: Line) -> None:
        count, note = self._timed_out.get(rule.id, (0, len(self.timeouts)))
        if count == 0:
            self.timeouts.append(
                f"rule {rule.id} ({rule.path}) timed out on line {line.number} of {line.source}"
            )
        self._timed_out[rule.id] = (count + 1, note)
        if count + 1 >= RULE_MAX_TIMEOUTS:
            first = self.timeouts[note].rsplit(" timed out ", 1)[-1]
            self._switch_off(rule, f"its regexes timed out {count + 1} times, first {first}")

    def _switch_off(self, rule: Rule, why: str) -> None:
        """One note per rule: the switch-off replaces the rule's timeout note."""
        if rule.id in self.switched_off:
            return
        self.switched_off.add(rule.id)
        message = f"rule {rule.id} ({rule.path}) was switched off for the rest of the run: {why}"
        _count, note = self._timed_out.get(rule.id, (0, -1))
        if note >= 0:
            self.timeouts[note] = message
        else:
            self.timeouts.append(message)

    def _matches(self, rule: Rule, line: Line, sig_idx: set[int]) -> tuple[dict[str, str], int] | None:
        """The named groups and index of the first signature that matches, or None (also when
        excluded)."""
        match = None
        i = -1
        for i in sorted(sig_idx):
            match = self._search(rule, rule.signature_re(i), line.text, line)
            if match:
                break
        if not match or self._excluded(rule, line):
            return None
        return {k: v for k, v in match.groupdict().items() if v}, i

    def _excluded(self, rule: Rule, line: Line) -> bool:
        return any(self._search(rule, ex, line.text, line) for ex in rule.exclude_res)

    def _record(
        self,
        rule: Rule,
        line: Line,
        conf: str,
        groups: dict[str, str] | None = None,
        basis: str | None = None,
        states: dict[str, _RuleState] | None = None,
    ) -> bool:
        """Add a hit; True when it is the rule's first. `basis` says what the hit rests on when it
        is not the rule's own message (medium confidence otherwise means a Ray envelope)."""
        states = self.states if states is None else states
        state = states.get(rule.id)
        is_new = state is None
        if state is None:
            state = states[rule.id] = _RuleState(rule)
        for k, v in (groups or {}).items():
            # (a traceback's source line shows the f-string, `'{inter_key}'`: not a value)
            if not (v[:1] == "{" and _PLACEHOLDER.fullmatch(v)):
                state.groups.setdefault(k, v)
        if state.first is None or _CONF_RANK[conf] < _CONF_RANK[state.first_conf]:
            # First hit, or a stronger kind of evidence than before: it leads the finding.
            state.first, state.first_conf = line, conf
            state.evidence, state.evidence_worker = [line], line.worker
            state.phase = None
            state.basis = basis or ("message" if conf == "high" else "envelope")
        elif (
            conf == state.first_conf
            and line.worker == state.evidence_worker
            and len(state.evidence) < MAX_EVIDENCE
            and line.source == state.evidence[-1].source
            and line.number - state.evidence[-1].number <= OCCURRENCE_GAP
        ):
            state.evidence.append(line)
        state.best_conf = state.first_conf
        state.last_line = max(state.last_line, line.number)
        self._count(state, line, conf if basis is None else "high")
        if state.phase is None and conf == state.first_conf:
            state.phase, state.phase_detail = self._frame_phase(line)
        return is_new

    def _count(self, state: _RuleState, line: Line, conf: str) -> None:
        """Occurrences per worker; envelope hits are counted apart (they echo the inner error)."""
        envelope_hit = conf == "medium"
        worker = self._raiser(line)
        key = (line.source, *worker.key(), envelope_hit)
        last = state.occurrences.get(key)
        added = line.repeats + (1 if last is None or line.number - last > OCCURRENCE_GAP else 0)
        state.occurrences[key] = line.number
        if envelope_hit:
            state.envelope_count += added
        else:
            state.count += added
        if not worker.is_known():
            return
        target = state.envelope_workers if envelope_hit else state.workers
        if worker.key() not in target:
            if not envelope_hit:
                state.workers_total += 1
            if len(target) < MAX_WORKERS:
                target[worker.key()] = worker
        if worker.ip and len(state.hosts) < MAX_WORKERS:
            state.hosts.add(worker.ip)

    def _raiser(self, line: Line) -> Worker:
        """Who raised the error on `line`: a driver (TaskRunner) that re-raises a Ray worker's
        exception prints it after a `RayTaskError(...): ray::WorkerDict.m() (pid=1201, ip=...)`
        envelope; the error belongs to that worker, not to the driver."""
        last = self._last_envelope.get((line.source, line.worker))
        if last is None or last[0] < self._envelopes_seen - MAX_ENVELOPES:
            return line.worker  # none from this worker among the envelopes kept
        _, env_line, env = last
        # A remote function has no actor: Ray's own line prefix names it by the function.
        actor = env.actor or env.method
        if (
            env.pid is not None
            and 0 <= line.number - env_line.number <= FRAME_LOOKBACK
            and (actor, env.pid) != (line.worker.actor, line.worker.pid)
        ):
            return Worker(actor, env.pid, env.ip)
        return line.worker

    def _frame_phase(self, line: Line) -> tuple[str | None, str | None]:
        """The deepest verl frame the same worker printed just before `line`."""
        frames = self._frames.get(line.worker.key())
        if frames:
            for number, fr in reversed(frames):
                if 0 <= line.number - number <= FRAME_LOOKBACK:
                    return describe_phase(fr.func), f"{_short_path(fr.path)}:{fr.line} in {fr.func}"
        return None, None

    def _envelope_phase(self, line: Line) -> tuple[str | None, str | None]:
        """A Ray envelope anywhere in the log naming this line's exception type; a worker method
        (actor_rollout_update_actor) beats the driver's generic `run`."""
        best = None
        for env_line, env in self._envelopes:
            if not env.inner or not (env.inner in line.text or env_line is line):
                continue
            if best is None or (best.method in _GENERIC_METHODS and env.method not in _GENERIC_METHODS):
                best = env
        if best is not None and best.method not in _GENERIC_METHODS:
            where = best.method if best.actor is None else f"{best.actor}.{best.method}"
            return describe_phase(best.method), where
        return None, None

    def _phase_for(self, line: Line) -> tuple[str | None, str | None]:
        phase = self._envelope_phase(line)
        return phase if phase[0] else self._frame_phase(line)

    def _clue(self, rule: Rule, target: Target, line: Line, verdict: Verdict) -> str | None:
        """A clue pattern matched `line`: a hit when all its clue's patterns matched lately."""
        ci, pi = target.index, target.part
        clue = rule.clues[ci]
        hits = self._clue_hits.setdefault((id(rule), ci), {})
        recent = hits.setdefault(pi, [])
        recent.append(line.number)
        del recent[:-8]
        lo = line.number - clue.within
        # A part seen on a line the rule excludes (the exception of a traceback whose frames
        # come after it) vetoes the clue for its window, like the line that completes it.
        if rule.exclude_res and self.classifier.lazy_excluded(verdict, rule, line.text, line):
            self._clue_vetoes[(id(rule), ci)] = line.number
            return None
        if len(hits) < len(clue.patterns):
            return None
        if not all(any(n >= lo for n in hits.get(p, ())) for p in range(len(clue.patterns))):
            return None
        vetoed = self._clue_vetoes.get((id(rule), ci))
        if vetoed is not None and vetoed >= lo:
            return None
        return rule.id if self._record(rule, line, clue.confidence, basis="clue") else None

    def _fact(self, ri: int, line: Line, verdict: Verdict) -> None:
        rule = self.catalog.rules[ri]
        found = self._facts.setdefault(ri, [])
        if len(found) >= 8:
            return
        # (a line the rule excludes, `torchtitan engine is not available: No module named ...`,
        # tells nothing about its finding)
        if rule.exclude_res and self.classifier.lazy_excluded(verdict, rule, line.text, line):
            return
        for groups in self.classifier.lazy_facts(verdict, rule, line.text, line):
            found.append((line.number, groups))

    def _maybe_unknown(self, line: Line, verdict: Verdict) -> None:
        own = line.text
        if line.follow and (
            len(line.raw) >= WRAPPED_WIDTH or line.text.rstrip().endswith(BARE_EXCEPTION_ENDS)
        ):
            # A message a terminal wrapped, or one a paste put on the lines after its bare
            # `ImportError:`: its class and its words are read whole.
            pieces = self._continuation(line, exact=True)
            if pieces:
                readings = _readings(line, pieces)
                line = replace(line, text=readings[0])
                # One line cut at the terminal's width cannot tell a word cut in two (`larg` /
                # `er`) from a space a page dropped: the other reading is tried too.
                for other in readings[1:]:
                    exc = verdict.exception_of(other)
                    if exc is not None and self._answered(replace(line, text=other), exc, own):
                        return
        exc = verdict.exception_of(line.text)
        if exc is not None and self._answered(line, exc, own):
            if len(self._answered_fps) >= MAX_UNRECOGNIZED * 64:
                self._answered_fps.clear()
            self._answered_fps.add(fingerprint(exc.type, exc.message))
            return
        if exc is None:
            if "System error: " in line.text:
                self._fallback(line, None)
            return
        self._remember_unknown(line, exc)

    def _answered(self, line: Line, exc: ExceptionLine, own: str) -> bool:
        """Whether the exception's class and names, the import of a user's file, or a settings
        check answer it."""
        return (
            # (an argument the run set itself, `reward_kwargs.format_weight`, before the contract)
            self._override_passed_as_argument(line, exc)
            or self._user_function_called_wrongly(line, exc)
            or self._own_module_missing(line, exc)
            or self._package_shadowed(line, exc)
            or self._module_the_run_names(line, exc)
            or self._path_the_run_names(line, exc)
            or self._override_value_refused(line, exc)
            or self._divided_by_a_zero_set(line, exc)
            or self._removed_option_set(line, exc)
            or self._section_set_to_a_value(line, exc)
            or self._mapping_given_as_text(line, exc)
            or self._reward_function_not_given(line, exc)
            or self._user_code_raised(line, exc)
            or (exc.type == "AttributeError" and self._user_module_lacks_name(line, exc.message))
            or self._optional_import_missing(line, exc)
            or self._python_internals_changed(line, exc)
            or self._fallback(line, exc)
            or self._user_module_failed(line, exc)
            or self._config_check(line, exc, own)
            or self._override_named_in_refusal(line, exc)
        )

    def _note_import(self, line: Line, fr: Frame) -> None:
        """Follow Python importing a file: its `exec_module` frame, then the file's `<module>`."""
        if fr.func == "exec_module" or fr.path.startswith("<frozen importlib"):
            self._importing[line.worker.key()] = line.number
        elif fr.func == "<module>" and not fr.path.startswith("<") and fr.package is None:
            key = line.worker.key()
            started = self._importing.get(key)
            if started is not None and 0 <= line.number - started <= _IMPORT_TO_MODULE:
                if len(self._user_module) > MAX_WORKERS:
                    self._user_module.clear()
                self._user_module[key] = (line.number, fr.path)

    def _user_function_called_wrongly(self, line: Line, exc: ExceptionLine) -> bool:
        """A call that does not fit the signature of the user's own code that verl was told to
        load: the reward function (custom_reward_function.name, or the contract's `compute_score`
        called from verl's code) or a custom class (data.custom_cls.name): it does not take the
        arguments verl's contract passes it."""
        if exc.type != "TypeError":
            return False
        from verl_doctor.engine.fallbacks import (
            DATASET_ARGS_SINCE,
            USER_CONTRACT,
            Fallback,
            called_function,
            unexpected_keyword,
        )

        callee = called_function(exc.message)
        if callee is None:
            return False
        parts = callee.split(".")
        named: dict[str, str] = {}  # the user's names the run set -> the key that set them
        for option, value in self.context.overrides.items():
            if option.endswith(".name") and "custom_" in option:
                named[value.strip("'\"")] = option
        key = next((named[p] for p in parts if p in named), None)
        if key is not None and "custom_cls" in key:
            cls = next(p for p in parts if p in named)
            call = unexpected_keyword(exc.message)
            since = DATASET_ARGS_SINCE.get(call[1]) if call else None
            if call and since:
                # an argument verl's own dataset class gained in a later release: the class was
                # written against an older verl's RLHFDataset
                basis = (
                    f"a TypeError building the custom class {cls} ({key}) with {call[1]}, an argument "
                    f"verl's dataset classes take since {since}"
                )
                groups = {"older_class": cls, "kwarg": call[1], "since": since}
                return self._credit(line, Fallback("ENV005", groups, basis))
            basis = f"a TypeError building the custom class {cls} ({key}) with the arguments verl passes it"
            return self._credit(line, Fallback("CFG008", {"constructed": cls}, basis))
        name = parts[-1]
        if key is None:
            last = self._last_frame(line)
            by_verl = last is not None and 0 <= line.number - last[0] <= _RAISED_WITHIN and last[1].is_verl
            if name not in USER_CONTRACT or not by_verl:
                return False
        basis = f"a TypeError calling the custom function {name}() with the arguments verl passes it"
        return self._credit(line, Fallback("CFG008", {"called": name}, basis))

    def _override_passed_as_argument(self, line: Line, exc: ExceptionLine) -> bool:
        """A keyword argument a call does not take that is a key this run set
        (`+reward_model.reward_kwargs.max_resp_len=64` handed to a reward manager whose __init__
        has no max_resp_len): verl passes that part of the config on as arguments, and the
        setting is one the chosen class does not have."""
        if exc.type != "TypeError":
            return False
        from verl_doctor.engine.fallbacks import Fallback, unexpected_keyword

        call = unexpected_keyword(exc.message)
        if call is None:
            return False
        callee, kwarg = call
        keys = [k for k in self.context.overrides if k.rsplit(".", 1)[-1] == kwarg]
        if not keys:
            return False
        basis = f"a TypeError: {callee}() takes no argument {kwarg}, which this run set as {keys[0]}"
        return self._credit(line, Fallback("CFG014", {"options": ", ".join(keys[:4])}, basis))

    def _package_shadowed(self, line: Line, exc: ExceptionLine) -> bool:
        """An installed package half imported because a file of the user's carries its name
        (`partially initialized module 'ray' has no attribute 'init'`, raised in ~/rl/ray.py,
        which Python found first on sys.path): the real package never loads."""
        m = _PARTIAL_MODULE.search(exc.message)
        if m is None:
            return False
        from verl_doctor.engine.fallbacks import Fallback, an, known_package

        top = m["module"].split(".")[0]
        if known_package(top) is None:
            return False  # a user's own module importing itself in a circle
        own = (f"/{top}.py", f"/{top}/__init__.py")
        shadow = m["path"] if m["path"] and m["path"].endswith(own) else None
        # (the shadow may import another package that trips over it: a frame of it in this traceback)
        mine = self._own_frame.get(line.worker.key())
        if (
            shadow is None
            and mine is not None
            and 0 <= line.number - mine[0] <= FRAME_LOOKBACK
            and mine[1].path.endswith(own)
        ):
            shadow = mine[1].path
        if shadow is None:
            return False
        folder = shadow[: shadow.rfind("/" + top)] or "."
        groups = {"shadow": shadow, "shadowed": top, "shadow_renamed": f"{folder}/my_{top}.py"}
        basis = f"{an(exc.type)} from {shadow}, a file of yours named like the installed package {top}"
        return self._credit(line, Fallback("ENV009", groups, basis))

    def _module_the_run_names(self, line: Line, exc: ExceptionLine) -> bool:
        """A module Python cannot import that the run named itself: a file path given where a
        setting takes a module name (`No module named '/home/me/lib/patch'`, which no module name
        can be), or the module of a dotted name a key was set to
        (`trainer.checkpoint_callback_class=my_callbacks.Copy`) that no known package provides."""
        if exc.type not in ("ModuleNotFoundError", "ImportError"):
            return False
        from verl_doctor.engine.fallbacks import Fallback, an, known_package, missing_module_name

        name = missing_module_name(exc.message)
        if name is None:
            return False
        given = {k: v.strip("'\"") for k, v in self.context.overrides.items()}
        # keys set to the module itself or to a name inside it (`my_callbacks.Copy`)
        named = [(k, v) for k, v in given.items() if v == name or v.startswith(name + ".")]
        if "/" in name:
            folder, _, module = name.rpartition("/")
            groups = {"path_module": name, "module_dir": folder or "/", "module_name": module}
            if named:
                groups["path_key"] = named[0][0]
            basis = f"{an(exc.type)} for {name}: a file path where a module name is expected"
            return self._credit(line, Fallback("CFG008", groups, basis))
        if known_package(name.split(".")[0]) is not None:
            return False
        if not named:
            # verl importing a module by the name a setting gave (`load_class_from_fqn` for an
            # AgentLoopManager class, `import_external_libs` for model.external_lib): a module
            # no known package provides is that name's, not a dependency to install.
            frames = self._frames.get(line.worker.key(), ())
            loader = next(
                (
                    fr.func
                    for number, fr in reversed(frames)
                    if 0 <= line.number - number <= FRAME_LOOKBACK and fr.func in _LOADS_BY_NAME
                ),
                None,
            )
            if loader is None:
                return False
            basis = f"{an(exc.type)} for {name}, which verl's {loader} imports by the name it was given"
            return self._credit(line, Fallback("CFG008", {"named_module": name}, basis))
        key = named[0][0]
        basis = f"{an(exc.type)} for {name}, the module of {key}={named[0][1]}; no known package provides it"
        return self._credit(line, Fallback("CFG008", {"named_module": name, "path_key": key}, basis))

    def _path_the_run_names(self, line: Line, exc: ExceptionLine) -> bool:
        """A file or folder not found (or refused) whose name is a value this run set: the key it
        was set for says what it is (data files, a model, the user's module, a checkpoint), whoever
        raised it (`FileNotFoundError: HuggingFaceH4/ultrachat_200k` from pyarrow for a hub name
        given as data.train_files)."""
        if exc.type not in _NOT_FOUND_TYPES:
            return False
        # Data files are named in many messages about their rows; only their absence is theirs.
        # A model, a module or a checkpoint is also what an assertion naming its path checks
        # (`Make sure the last char in src is not /. Got /models/qwen/`).
        not_found = exc.type == "FileNotFoundError" or bool(_NOT_FOUND.search(exc.message))
        from verl_doctor.catalog.verl_keys import path_kind
        from verl_doctor.engine.fallbacks import Fallback, an

        for key, value in self.context.overrides.items():
            kind = path_kind(key)
            if kind is None or (not not_found and (kind == "data" or exc.type != "AssertionError")):
                continue
            for given in value.strip("[]").split(","):
                given = given.strip().strip("'\"")
                if len(given) >= 3 and given in exc.message:
                    groups = {"path": given}
                    if kind == "data" and _HUB_NAME.fullmatch(given):
                        groups["hub_name"] = given
                    basis = f"{an(exc.type)} on {given}, which this run set as {key}"
                    return self._credit(line, Fallback(_RULE_FOR_PATH[kind], groups, basis))
        raised = self._raising_frame(line)
        if exc.type == "FileNotFoundError" and raised is not None and raised.package in _DATA_LIBRARIES:
            # the data library looking for what it was asked to load (`load_from_disk`, a parquet file)
            basis = f"a FileNotFoundError raised by {raised.package} in {raised.func}"
            return self._credit(line, Fallback("CFG013", {}, basis))
        return False

    def _override_value_refused(self, line: Line, exc: ExceptionLine) -> bool:
        """A check that shows the value it refused (`but got batch_size=-1`, torch's DataLoader;
        `expected ... a single integer, got '0.5'`, numpy) where this run set a key of that name
        (or ending in it) to that value, or, the value alone, one or two keys: the setting's value
        is refused, whoever checked it."""
        if exc.type not in ("ValueError", "AssertionError", "TypeError"):
            return False
        named = _NAMED_VALUE.findall(exc.message)
        alone = [] if named else _GOT_VALUE.findall(exc.message)
        if not named and not alone:
            return False
        from verl_doctor.engine.fallbacks import Fallback, an

        keys: list[str] = []
        for key, value in self.context.overrides.items():
            leaf = key.rsplit(".", 1)[-1]
            given = value.strip("'\"")
            if any(got == given and (leaf == name or leaf.endswith("_" + name)) for name, got in named):
                keys = [key]
                break
            if given in alone:
                keys.append(key)
        if not keys or len(keys) > 2:
            return False  # a value many settings share says nothing of which one
        value = self.context.overrides[keys[0]]
        basis = f"{an(exc.type)} refusing the value {value}, which this run set as {' and '.join(keys)}"
        return self._credit(line, Fallback("CFG014", {"options": ", ".join(keys)}, basis))

    def _divided_by_a_zero_set(self, line: Line, exc: ExceptionLine) -> bool:
        """verl dividing by a count this run set to 0 (`trainer.n_gpus_per_node=0`, then
        `integer modulo by zero` in _validate_config): that setting, whatever the arithmetic."""
        if exc.type != "ZeroDivisionError":
            return False
        raised = self._raising_frame(line)
        if raised is None or not raised.is_verl:
            return False
        zeros = [k for k, v in self.context.overrides.items() if v.strip("'\" ") in ("0", "0.0")]
        if not zeros or len(zeros) > 2:
            return False
        from verl_doctor.engine.fallbacks import Fallback

        leaf = zeros[0].rsplit(".", 1)[-1]
        basis = f"a ZeroDivisionError in verl's code, and this run set {' and '.join(zeros)} to 0"
        if leaf in _GPU_COUNT_KEYS:
            return self._credit(line, Fallback("CFG003", {"zero_count": zeros[0]}, basis))
        code = "CFG004" if "batch" in leaf else "CFG014"
        return self._credit(line, Fallback(code, {"options": ", ".join(zeros)}, basis))

    def _removed_option_set(self, line: Line, exc: ExceptionLine) -> bool:
        """A library saying an argument it no longer has (`Cluster-wide storage configuration has
        been removed. The last Ray version supporting the `storage` argument is ray==2.47`) that
        this run set itself (`+ray_kwargs.ray_init.storage=...`): the setting is to drop, not the
        library to change."""
        if not _REMOVED.search(exc.message):
            return False
        quoted = {m.group(1) for m in _QUOTED_NAME.finditer(line.raw)}  # (its own line only)
        keys = [k for k in self.context.overrides if k.rsplit(".", 1)[-1] in quoted]
        if not keys:
            return False
        from verl_doctor.engine.fallbacks import Fallback, an

        basis = f"{an(exc.type)}: an argument the library no longer has, which this run set as {keys[0]}"
        return self._credit(line, Fallback("CFG014", {"options": ", ".join(keys[:2])}, basis))

    def _override_named_in_refusal(self, line: Line, exc: ExceptionLine) -> bool:
        """A refusal nothing else placed that names, in code's spelling, an option this run set
        (`continue_final_message and add_generation_prompt are not compatible`, transformers, for
        `+data.apply_chat_template_kwargs.continue_final_message=True`): that setting's value. Only
        the exception's own line counts: the line after a wrapped one may be another run's."""
        if exc.type not in _REFUSAL_TYPES:
            return False
        from verl_doctor.catalog.verl_keys import is_option_name
        from verl_doctor.engine.fallbacks import Fallback, an

        keys = [
            k
            for k in self.context.overrides
            if is_option_name(leaf := k.rsplit(".", 1)[-1]) and re.search(rf"\b{re.escape(leaf)}\b", line.raw)
        ]
        named = "naming"
        if not keys and _NOT_BUILT.search(exc.message) and self._raised_by_verl(line):
            keys = self._overrides_switching(exc.message)
            named = "refusing what"
        if not keys or len(keys) > 2:
            return False
        basis = f"{an(exc.type)} {named} {' and '.join(keys)}, which this run set"
        return self._credit(line, Fallback("CFG014", {"options": ", ".join(keys)}, basis))

    def _raised_by_verl(self, line: Line) -> bool:
        last = self._last_frame(line)
        return last is not None and 0 <= line.number - last[0] <= _RAISED_WITHIN and last[1].package == "verl"

    def _overrides_switching(self, message: str) -> list[str]:
        """The overrides a refusal of a feature speaks of by a word of their own: a part of the
        key's last name (`load from hdfs is not implemented yet` for trainer.default_hdfs_dir) or
        the scheme of its value (`hdfs://...`)."""
        words = {w for w in _WORD.findall(message.lower()) if w not in _COMMON_PARTS}
        found = []
        for key, value in self.context.overrides.items():
            parts = set(key.rsplit(".", 1)[-1].lower().split("_")) - _COMMON_PARTS
            scheme = value.split("://", 1)[0].lower() if "://" in value else ""
            if parts & words or (scheme and scheme in words):
                found.append(key)
        return found

    def _user_code_raised(self, line: Line, exc: ExceptionLine) -> bool:
        """An exception raised in the user's own file that the run named (the reward function's
        path, a custom dataset's): verl called it and it raised (`int(None)` on a response with no
        final answer). A failed import is the environment's; a module that fails as it loads
        is read by _user_module_failed."""
        if exc.type in ("ModuleNotFoundError", "ImportError"):
            return False
        raised = self._raising_frame(line)
        if raised is None or raised.package is not None or raised.func == "<module>":
            return False
        from verl_doctor.catalog.verl_keys import path_kind
        from verl_doctor.engine.fallbacks import Fallback, an

        for key, value in self.context.overrides.items():
            given = value.strip("'\"").lstrip("./")
            if path_kind(key) == "module" and given.endswith(".py") and raised.path.endswith(given):
                groups = {
                    "raised_in": f"{raised.path}:{raised.line} in {raised.func}",
                    "raised_file": raised.path,
                    "raised_func": raised.func,
                }
                basis = f"{an(exc.type)} raised in {raised.func} of {given}, the file this run set as {key}"
                if exc.type == "KeyError":
                    # the user's code looking up a field the rows do not have: the data lacks it
                    return self._credit(line, Fallback("CFG012", {}, basis))
                return self._credit(line, Fallback("CFG008", groups, basis))
        return False

    def _optional_import_missing(self, line: Line, exc: ExceptionLine) -> bool:
        """A NameError raised in an installed package's own code (`name 'math_metric' is not
        defined` in verl's math_verify wrapper): a name its optional import defines, after that
        import failed quietly (`try: from math_verify import ... except ImportError: print(...)`)."""
        if exc.type != "NameError":
            return False
        raised = self._raising_frame(line)
        if raised is None or raised.package is None:
            return False  # the user's own code: a typo or a missing import of theirs
        from verl_doctor.engine.fallbacks import Fallback

        package = raised.package
        where = raised.path[raised.path.rfind(f"/{package}/") + 1 :]
        basis = f"a NameError in {where}: a name an optional import of {package} defines, not installed"
        return self._credit(line, Fallback("ENV009", {}, basis))

    def _python_internals_changed(self, line: Line, exc: ExceptionLine) -> bool:
        """An AttributeError on one of the interpreter's own objects (a code object's `co_*`,
        a frame's `f_*`), raised in an installed package's code (`'code' object has no attribute
        'co_endlinetable'` in dill): that package's release was written for another Python."""
        if exc.type != "AttributeError" or not _INTERPRETER_ATTRIBUTE.search(exc.message):
            return False
        raised = self._raising_frame(line)
        if raised is None or raised.package in (None, "verl"):
            return False
        from verl_doctor.engine.fallbacks import version_mismatch

        package = raised.package
        basis = (
            f"an AttributeError on the interpreter's own objects in {package}'s code: "
            f"a {package} release for another Python"
        )
        return self._credit(line, version_mismatch(package, None, basis))

    def _own_module_missing(self, line: Line, exc: ExceptionLine) -> bool:
        """A module no package of the stack is called that a user's file verl loads by path
        imports (`from reward_utils import ...` in the reward file): most likely a module of the
        user's own beside that file, which the path verl loads it by does not put on sys.path."""
        if exc.type not in ("ModuleNotFoundError", "ImportError"):
            return False
        module = self._user_module.get(line.worker.key())
        if module is None or not 0 <= line.number - module[0] <= _RAISED_WITHIN + 1:
            return False
        from verl_doctor.engine.fallbacks import Fallback, known_package, missing_module_name

        name = missing_module_name(exc.message)
        if name is None or known_package(name.split(".")[0]) is not None:
            return False
        if not self._loaded_by_path(line, module[1]):
            return False  # a module imported by name: its missing import may be any package
        basis = f"a {exc.type} for {name}, which {module[1]} imports and no known package provides"
        return self._credit(line, Fallback("CFG008", {"sibling": name, "module_path": module[1]}, basis))

    def _loaded_by_path(self, line: Line, path: str) -> bool:
        """Whether verl was told to load the user's file `path` by its path: the run's overrides
        name it, or a verl frame that loads files by path (get_custom_reward_fn, load_extern_type)
        runs just above it."""
        for value in self.context.overrides.values():
            given = value.strip("'\"")
            if given.endswith(".py") and (path == given or path.endswith("/" + given.lstrip("./"))):
                return True
        frames = self._frames.get(line.worker.key(), ())
        return any(
            0 <= line.number - number <= FRAME_LOOKBACK and fr.func in _LOADS_BY_PATH for number, fr in frames
        )

    def _user_module_failed(self, line: Line, exc: ExceptionLine) -> bool:
        """An exception raised while Python imported a user's own file (the frames show the
        import machinery running that file's module code): the custom file verl was told to load
        (a reward function, a tool, a dataset class) fails on import, whatever it raised."""
        module = self._user_module.get(line.worker.key())
        if module is None or not 0 <= line.number - module[0] <= FRAME_LOOKBACK:
            return False
        from verl_doctor.engine.fallbacks import Fallback

        basis = f"{exc.type} raised while Python imported {module[1]}"
        return self._credit(line, Fallback("CFG008", {"module_path": module[1]}, basis))

    def _remember_unknown(self, line: Line, exc: ExceptionLine) -> None:
        """Keep an exception no rule knows (counted once per message), unless what was running
        when it was raised places it."""
        fp = fingerprint(exc.type, exc.message)
        if fp in self._answered_fps:
            return  # the same exception again, in a wrapper (Hydra's `Error in call to target`)
        known = self._unknown.get(fp)
        if known is not None:
            known.count += 1 + line.repeats
            return
        if len(self._unknown) >= MAX_UNRECOGNIZED:
            return
        phase, detail = self._phase_for(line)
        if self._file_error_while_saving(line, exc, phase):
            return
        frames = self._frames.get(line.worker.key())
        deepest = None
        if frames:
            number, fr = frames[-1]
            if 0 <= line.number - number <= FRAME_LOOKBACK:
                deepest = f"{_short_path(fr.path)}:{fr.line} in {fr.func}"
        self._unknown[fp] = _Unknown(
            line, exc, 1 + line.repeats, phase, deepest or detail, self._peer_lost(line, exc)
        )

    def _peer_lost(self, line: Line, exc: ExceptionLine) -> bool:
        """Whether an exception only says the process at the other end went away: a client's lost
        connection, or a message cut short while it was received (`pickle data was truncated` in
        a socket's recv: the sender died mid-send)."""
        if exc.type in _PEER_LOST:
            return True
        if not (exc.type.endswith("UnpicklingError") and "truncated" in exc.message):
            return False
        last = self._last_frame(line)
        return last is not None and 0 <= line.number - last[0] <= _RAISED_WITHIN and "recv" in last[1].func

    def _config_class_refused(self, line: Line) -> None:
        """Hydra building one of verl's config classes (verl >= 0.8 checks settings in the
        dataclasses' __post_init__) prints the refusal on the line after its wrapper, as
        `ValueError('...')`: that refusal, in that config module, is verl's config check speaking;
        an error it cannot place is kept as an unknown exception, not dropped with the wrapper."""
        target = _HYDRA_TARGET.search(line.text)
        inner = _INNER_CALL.match(_PREFIX.sub("", line.follow.lstrip("\n").split("\n", 1)[0]))
        if target is None or inner is None:
            return
        exc_type = inner.group("type")
        message = (inner.group("msg") or "").replace("\\'", "'").replace('\\"', '"')
        module, _, cls = target.group("target").rpartition(".")
        checked = exc_type in _REFUSAL_TYPES and cls.endswith("Config")
        path = "/" + module.replace(".", "/") + ".py"
        if checked and not message.strip() and self._bare_refusal_of_set_values(line, cls):
            return
        if exc_type == "AttributeError" and self._attribute_the_run_set(line, message):
            return
        self._class_refused(
            line, exc_type, message, message, path, "__post_init__", "verl" if checked else None
        )

    def _bare_refusal_of_set_values(self, line: Line, cls: str) -> bool:
        """verl's config class refusing with a bare `assert` (`AssertionError()`, no words) under
        the part of the config Hydra names (`full_key: optim`): the values this run set there are
        what it refused."""
        full = _FULL_KEY.search(line.follow)
        if full is None:
            return False
        options = self._overrides_under(full.group("key"))
        if not options:
            return False
        from verl_doctor.engine.fallbacks import Fallback

        basis = f"verl's {cls} refused its values with a bare assert; this run set {', '.join(options[:4])}"
        return self._credit(line, Fallback("CFG014", {"options": ", ".join(options[:4])}, basis))

    def _overrides_under(self, section: str) -> list[str]:
        """The keys this run set in a part of the config (`optim` -> `optim.lr`, ...), or the part."""
        return [k for k in self.context.overrides if k == section or k.startswith(section + ".")]

    def _attribute_the_run_set(self, line: Line, message: str) -> bool:
        """Building the part of the config Hydra names (`full_key: actor_rollout_ref.model`) failed
        on an attribute that one of this run's overrides under that part sets
        (`+...override_config.rope_scaling.type=yarn`, then `'dict' object has no attribute
        'type'`): that override does not fit what it sets."""
        m = _OBJECT_HAS_NO.search(message)
        full = _FULL_KEY.search(line.follow)
        if m is None or full is None:
            return False
        section, attr = full.group("key"), m.group("attr")
        options = [k for k in self._overrides_under(section) if k.endswith("." + attr)]
        if not options:
            return False
        from verl_doctor.engine.fallbacks import Fallback

        basis = (
            f"Hydra building {section}, which failed on {attr!r}, an attribute this run set with {options[0]}"
        )
        return self._credit(line, Fallback("CFG014", {"options": ", ".join(options[:4])}, basis))

    def _class_refused(
        self, line: Line, exc_type: str, message: str, shown: str, path: str, func: str, package: str | None
    ) -> None:
        """A config class of `package` refused to be built with `message`: that library's config
        check speaking when its words say so; else an unknown exception (shown as `shown`)."""
        from verl_doctor.engine.fallbacks import STACK_PACKAGES, config_check

        if package in STACK_PACKAGES:
            options = self._options_named(message) if package == "verl" else []
            if self._credit(line, config_check(exc_type, message, path, func, options, package)):
                return
        self._remember_unknown(line, ExceptionLine(exc_type, exc_type, shown))

    def _validation_refused(self, line: Line) -> bool:
        """pydantic refusing to build a config class (vLLM >= 0.10's configs are pydantic
        dataclasses) prints `ValidationError: 1 validation error for SpeculativeConfig` and the
        refusal on the lines after it: `  Value error, <message> [type=value_error, ...]`, or a
        field's name and `  Input should be ...`. That refusal is the library's config check
        speaking; False when the lines after it are not one."""
        cls = _VALIDATION_FOR.search(line.text)
        if cls is None:
            return False
        after = [_PREFIX.sub("", ln).strip() for ln in line.follow.lstrip("\n").split("\n")[:3]]
        refusal = _VALIDATOR_SAID.match(after[0])
        if refusal is not None:
            exc_type = "AssertionError" if refusal["kind"] == "Assertion failed" else "ValueError"
            message = refusal["msg"]
        elif len(after) > 1 and _FIELD_NAME.match(after[0]) and (said := _FIELD_SAID.match(after[1])):
            exc_type, message = "ValueError", f"{after[0]}: {said['msg']}"
        else:
            return False
        last = self._last_frame(line)
        package = last[1].package if last is not None and 0 <= line.number - last[0] <= 8 else None
        path = last[1].path if last is not None else ""
        where = f"{cls['cls']}.__post_init__"  # pydantic runs the validators as the class is built
        self._class_refused(line, exc_type, message, f"{cls['cls']}: {message}", path, where, package)
        return True

    def _raising_source(self, line: Line) -> str:
        """The source line Python printed under the innermost frame of `line`'s worker: the
        statement that raised (any statement: a lookup or a call as well as a raise)."""
        return _code_line(self._frame_follow.get(line.worker.key(), ""), any_statement=True)

    def _raising_frame(self, line: Line) -> Frame | None:
        """The frame that raised the exception on `line`: the innermost one, just above it."""
        last = self._last_frame(line)
        return last[1] if last is not None and 0 <= line.number - last[0] <= _RAISED_WITHIN else None

    def _last_frame(self, line: Line) -> tuple[int, Frame] | None:
        """The innermost frame the worker of `line` printed; else, just above it, a frame on a line
        without the worker's prefix (a wrap at a space moved the frame's path to a line of its own)."""
        last = self._innermost.get(line.worker.key())
        if last is None and line.worker.is_known():
            bare = self._innermost.get(NO_WORKER.key())
            if bare is not None and 0 <= line.number - bare[0] <= _RAISED_WITHIN:
                return bare
        return last

    def _file_error_while_saving(self, line: Line, exc: ExceptionLine, phase: str | None) -> bool:
        """A file-system error (or a distributed-checkpoint error) raised under a save_checkpoint
        frame is a checkpoint that could not be written, whatever the file."""
        if phase != SAVING_CHECKPOINT or exc.type not in _SAVE_ERROR_TYPES:
            return False
        from verl_doctor.engine.fallbacks import Fallback

        return self._credit(line, Fallback("FLOW012", {}, f"{exc.type} raised while {phase}"))

    def _config_check(self, line: Line, exc: ExceptionLine, own: str | None = None) -> bool:
        """An error raised while a library of the stack checked its settings (the innermost frame
        is verl's, vLLM's, SGLang's, transformers' or Megatron's): a config error, its kind told
        by the message's words. One raised by Hydra composing the config is told by where."""
        last = self._last_frame(line)
        if last is None or not 0 <= line.number - last[0] <= _RAISED_WITHIN:
            return False
        if last[1].package == "hydra":
            from verl_doctor.engine.fallbacks import hydra_composition

            return self._credit(line, hydra_composition(exc.type, exc.message, last[1].path, last[1].func))
        if (
            exc.type not in _CONFIG_CHECK_TYPES
            and exc.type != "ZeroDivisionError"
            and not _REFUSAL_CLASS.search(exc.type)
        ):
            return False
        if exc.type == "ZeroDivisionError":
            return self._divided_by_setting(line, last[1])
        message = exc.message
        # The `raise`/`assert` statement the traceback printed, when it did: the library refused
        # on purpose, and the names it reads (`self.config.rollout.skip_tokenizer_init`) are the
        # settings it refused.
        statement = _code_line(self._frame_follow.get(line.worker.key(), ""))
        if not message and exc.type == "AssertionError":
            message = statement  # a bare `assert`: its condition says what failed
        if not message and exc.type == "NotImplementedError" and last[1].package == "verl":
            return self._value_dispatch_refused(line, last[1], statement)
        if not message:
            return False
        package = last[1].package
        from verl_doctor.engine.fallbacks import (
            COLUMN_LOOKUP,
            MODEL_CONFIG_PACKAGES,
            STACK_PACKAGES,
            config_check,
            data_field,
            npu_code,
        )

        if exc.type == "KeyError" and COLUMN_LOOKUP.search(last[1].path.replace("\\", "/")):
            caller = self._frames.get(line.worker.key())  # verl's frames: verl asked for the column
            if caller and 0 <= line.number - caller[-1][0] <= FRAME_LOOKBACK:
                return self._credit(
                    line, data_field(exc.type, message, caller[-1][1].path, column_lookup=True)
                )
        if self._credit(line, npu_code(exc.type, last[1].path)):
            return True
        if package not in STACK_PACKAGES:
            return False
        raised_at = self._raising_source(line)
        if package == "verl" and self._credit(
            line, data_field(exc.type, message, last[1].path, code=raised_at)
        ):
            return True
        if package == "verl":
            from verl_doctor.engine.fallbacks import patched_library_changed

            if self._credit(line, patched_library_changed(message, last[1].path, last[1].func)):
                return True
        if exc.type in ("RuntimeError", "NotImplementedError", "AttributeError") and not self._options_named(
            message
        ):
            from verl_doctor.engine.fallbacks import api_gone

            if self._credit(line, api_gone(exc.type, message, package)):
                return True
        if package == "verl" and exc.type == "ValueError":
            from verl_doctor.engine.fallbacks import engine_result_changed

            if self._credit(line, engine_result_changed(message, last[1].path, raised_at)):
                return True
        # (what the user's own code passed a library while running it, `config.get_text_config()`,
        # is that code's doing, whichever library refuses it)
        # (unless the refusal names a setting of the run that decides it, whoever made the call:
        # `Please increase your `--max-loras-per-batch``, a flag verl passes the engine)
        directed = self._setting_directed(message)
        if self._called_by_user_code(line, package) and not directed:
            return False
        if (
            package in MODEL_CONFIG_PACKAGES
            and not self.context.set_keys_named_in(message)
            and not self._verl_applies_overrides(line)
        ):
            from verl_doctor.engine.fallbacks import model_config_refused

            callers = self._caller.get(line.worker.key(), ())
            found = model_config_refused(exc.type, message, last[1].path, last[1].func, package, callers)
            if self._credit(line, found):
                return True
        # The options are those the exception's own line names: the lines read as its wrapped
        # rest may be another record's (a paste's last line, then the next run's command).
        if package == "verl":
            options = self._options_named(message if own is None else own, statement)
        else:
            options = _feature_options(message)
        called_by = "\n".join(self._caller.get(line.worker.key(), ()))
        found = config_check(exc.type, message, last[1].path, last[1].func, options, package, called_by)
        if (
            found is not None
            and found.code in _VERL_VALUE_CODES
            and not directed
            and self._outside_verl(line, package)
        ):
            return False
        return self._credit(line, found)

    @staticmethod
    def _setting_directed(message: str) -> bool:
        """Whether a refusal tells the user to change a setting of the run (a rollout engine's
        flag, an environment variable or one of verl's options, not an argument of the code that
        called: `set use_dora to False`), or names a command-line flag it refuses."""
        from verl_doctor.catalog.verl_keys import keys_named_in
        from verl_doctor.engine.fallbacks import directed_option, named_flag

        option = directed_option(message)
        if option is None:
            # a command-line flag the refusal names is a setting, whoever passed it
            return named_flag(message)
        return option.startswith("--") or option.isupper() or bool(keys_named_in(option))

    def _section_set_to_a_value(self, line: Line, exc: ExceptionLine) -> bool:
        """A part of verl's config the run set to one value (`algorithm.kl_ctrl=adaptive`), read
        as the section it was (`'str' object has no attribute 'type'`): Hydra replaced the
        whole section by that value; the key meant is one of its options (algorithm.kl_ctrl.type)."""
        if exc.type != "AttributeError":
            return False
        m = _SCALAR_HAS_NO.search(exc.message)
        if m is None:
            return False
        from verl_doctor.catalog.verl_keys import known
        from verl_doctor.engine.fallbacks import Fallback

        for key, value in self.context.overrides.items():
            meant = f"{key.lstrip('+')}.{m.group('attr')}"
            if known(meant):
                attr = m.group("attr")
                basis = f"an AttributeError reading {attr} of {key}={value}, a section set to one value"
                return self._credit(line, Fallback("CFG014", {"options": f"{key} (meant: {meant})"}, basis))
        return False

    def _mapping_given_as_text(self, line: Line, exc: ExceptionLine) -> bool:
        """A part of the config the run gave as a quoted mapping (`override_config="{a: b}"`: the
        quotes make Hydra keep the text), read as the mapping it was meant to be (`'str' object
        has no attribute 'get'`): that setting's value is text, not a mapping."""
        if exc.type != "AttributeError":
            return False
        m = _SCALAR_HAS_NO.search(exc.message)
        if m is None or m.group("attr") not in _MAPPING_METHODS:
            return False
        quoted = [
            k
            for k, v in self.context.overrides.items()
            if v[:1] in "'\"" and v[1:2] in "{[" and v[-1:] == v[:1]
        ]
        if len(quoted) != 1:
            return False
        from verl_doctor.engine.fallbacks import Fallback

        basis = f"an AttributeError reading {quoted[0]} as a mapping, which the run gave as quoted text"
        return self._credit(line, Fallback("CFG014", {"options": quoted[0]}, basis))

    def _reward_function_not_given(self, line: Line, exc: ExceptionLine) -> bool:
        """verl calling a reward function that is None (`reward_fn(data_source, r, ground_truth)`:
        `'NoneType' object is not callable`): the config names no custom reward function where
        the entry point needs one (main_eval scores only with custom_reward_function)."""
        if exc.type != "TypeError" or "'NoneType' object is not callable" not in exc.message:
            return False
        raised = self._raising_frame(line)
        if raised is None or raised.package != "verl":
            return False
        code_line = self._raising_source(line)
        called = _CALLED_NAME.search(code_line)
        if called is None or not _REWARD_CALLABLE.search(called.group("name")):
            return False
        from verl_doctor.engine.fallbacks import Fallback

        basis = f"a TypeError calling {called.group('name')}, which is None: no reward function was given"
        groups = {"key": "custom_reward_function.path", "reward_fn": called.group("name")}
        return self._credit(line, Fallback("CFG011", groups, basis))

    def _verl_applies_overrides(self, line: Line) -> bool:
        """Whether verl was writing the run's model overrides (model.override_config) into the
        model's config when the library refused: the value is the run's, not the model folder's."""
        frames = self._frames.get(line.worker.key(), ())
        return any(
            0 <= line.number - number <= FRAME_LOOKBACK and fr.func in _APPLIES_MODEL_OVERRIDES
            for number, fr in frames
        )

    def _name_held_in_a_variable(self, line: Line, code: str) -> bool:
        """Whether rule `code` reads the attribute a module lacks as another release of it, but
        the code looked it up by a name held in a variable (`getattr(torch.optim,
        config.optimizer)`): that name came from a setting or the data, so no release of the
        module is to blame. A name read from the config is that setting's value, refused."""
        from verl_doctor.engine.fallbacks import VERSION_MISMATCH_CODES, Fallback

        if code not in VERSION_MISMATCH_CODES:
            return False
        if self._raising_frame(line) is None:
            return False
        code_line = self._raising_source(line)
        m = _LOOKED_UP_BY_VALUE.search(code_line)
        if m is None:
            return False
        read = _CONFIG_READ.search(m.group("name"))
        if read is not None:
            basis = f"an AttributeError looking up the name {m.group('name')} holds, a setting's value"
            self._credit(line, Fallback("CFG014", {"options": read.group("path")}, basis))
            return True
        self._user_module_lacks_name(line, line.text, looked_up=True)
        return True

    def _user_module_lacks_name(self, line: Line, message: str, looked_up: bool = False) -> bool:
        """verl looking up, by a name a config file gives (a tool's `class_name`, a custom class's
        path), an attribute that a module of the user's own lacks: that name is not in the user's
        module (CFG008). `looked_up`: the raising line is already known to be such a lookup."""
        from verl_doctor.engine.fallbacks import NO_ATTRIBUTE, Fallback, known_package

        lacking = NO_ATTRIBUTE.search(message)
        if lacking is None:
            return False
        module = lacking["module"] or lacking["module2"]
        if not module or known_package(module.split(".")[0]):
            return False
        if not looked_up:
            raised = self._raising_frame(line)
            if raised is None or raised.package != "verl":
                return False
            code_line = self._raising_source(line)
            m = _LOOKED_UP_BY_VALUE.search(code_line)
            if m is None or _CONFIG_READ.search(m.group("name")):
                return False
        name = lacking["name"] or lacking["name2"]
        basis = f"an AttributeError looking up a name a config gives in the user's module {module}"
        return self._credit(line, Fallback("CFG008", {"looked_up": module, "object_name": name}, basis))

    def _missing_by_its_own_words(self, line: Line, text: str, spans: dict[str, Any]) -> bool:
        """A package saying it is not installed from inside its own code (`FlashAttention is not
        installed`, asserted in flash_attn/modules/mha.py): the package imported, its compiled
        extension did not load; a build for another torch (ENV006), not a package to install."""
        named = groups_at(text, spans).get("module")
        raised = self._raising_frame(line)
        if not named or raised is None:
            return False
        from verl_doctor.engine.fallbacks import Fallback, known_package

        package = raised.package
        if package is None or package == "verl" or known_package(named) != package:
            return False
        basis = (
            f"{package} saying from its own code that it is not installed (its compiled part did not load)"
        )
        return self._credit(line, Fallback("ENV006", {"ext": package}, basis))

    def _outside_verl(self, line: Line, package: str) -> bool:
        """Whether a script of the user's called another library with no verl code anywhere in
        the traceback (a script building a PEFT model itself): the values it refused are the
        script's, not a setting of verl's config."""
        if package == "verl" or line.worker.key() not in self._entered:
            return False
        frames = self._frames.get(line.worker.key(), ())
        return not any(0 <= line.number - number <= FRAME_LOOKBACK for number, _ in frames)

    def _called_by_user_code(self, line: Line, package: str) -> bool:
        """Whether the library that raised was called by the user's own code with values of its
        own: code plugged into a library (a custom loss building verl's Metric), or a script
        calling a library while it runs (`engine.async_generate(...)`, `model.merge_and_unload()`)
        rather than building it from settings. What such a check refuses is that code's doing."""
        entered = self._entered.get(line.worker.key())
        if entered is None:
            return False
        func, plugged = entered
        from verl_doctor.engine.fallbacks import starts_up

        # (a script calling verl's own functions hands them values of the run's config, `rollout.n`
        # samples to group; what it passes that is no setting, an object of the wrong class, is
        # read by the words)
        return plugged or (package != "verl" and not starts_up(func))

    def _note_config_read(self, line: Line, follow: str) -> None:
        code = _code_line(follow, any_statement=True)
        if _CONFIG_READ.search(code):
            self._config_read[line.worker.key()] = (line.number, code)

    def _value_dispatch_refused(self, line: Line, frame: Frame, statement: str) -> bool:
        """A bare `raise NotImplementedError` in verl, called by verl code that passed it a part of
        the config (`get_kl_controller(self.config.algorithm.kl_ctrl)`): the end of a dispatch on
        a config value (older verl's KL controllers, advantage estimators, losses) that met a
        value it does not know."""
        if statement.replace("()", "") != "raise NotImplementedError":
            return False
        from verl_doctor.engine.fallbacks import Fallback

        read = self._config_read.get(line.worker.key())
        if read is None or not 0 <= line.number - read[0] <= FRAME_LOOKBACK:
            # A training strategy this run set that no verl release has (`strategy=fsdp_v2`):
            # older verl's entry point ends its dispatch on it in a bare NotImplementedError.
            unknown = [
                k
                for k, v in self.context.overrides.items()
                if k.endswith(".strategy") and v.strip("'\" ") not in _VERL_STRATEGIES
            ]
            if len(unknown) == 1:
                basis = f"a bare NotImplementedError raised by verl in {frame.func}; {unknown[0]} is unknown"
                return self._credit(line, Fallback("CFG014", {"options": unknown[0]}, basis))
            if frame.func != "__init__":
                return False
            # Raised by a constructor itself (older verl's RayPPOTrainer choosing by
            # algorithm.adv_estimator): the end of a dispatch on a value it is built with.
            where = frame.path[frame.path.rfind("/verl/") + 1 :]
            basis = (
                f"a bare NotImplementedError raised by verl's constructor in {where}: a value it "
                "dispatches on that this verl release does not implement"
            )
            return self._credit(line, Fallback("CFG014", {}, basis))
        paths = [m.group("path") for m in _CONFIG_READ.finditer(read[1])]
        path = paths[-1]
        # The run's own overrides under that part of the config are the values it refused.
        options = [k for k in self.context.overrides if k == path or k.startswith(path + ".")] or [path]
        basis = (
            f"a bare NotImplementedError raised by verl in {frame.func}, called with {path} of the "
            f"config; it names {', '.join(options[:4])}"
        )
        return self._credit(line, Fallback("CFG014", {"options": ", ".join(options[:4])}, basis))

    def _options_named(self, message: str, statement: str = "") -> list[str]:
        """verl's config options that an error of verl names: keys of the shipped lists in its
        message or read in its raising statement, and keys this run set that it names."""
        from verl_doctor.catalog.verl_keys import keys_named_in

        options = keys_named_in(message)
        for key in keys_named_in(statement, code=True) + self.context.set_keys_named_in(
            f"{message} {statement}"
        ):
            if key not in options:
                options.append(key)
        return options

    def settle(self) -> None:
        """Answers only the whole log can give, made when the report is asked for (once per
        line): with no error known or unknown, a Ray envelope whose class says what happened
        (a worker's death) is the answer, though the death's own message was cut off."""
        self._checkpoint_given_as_model()
        self._override_left_empty()
        self._deleted_section_read()
        self._section_a_choice_reads()
        self._key_verl_reads_is_missing()
        self._interpolation_to_no_key()
        self._none_given()
        self._misspelt_target()
        self._unknown_the_overrides_place()
        self._instantiate_key_set()
        if self.states or self._unknown or not self._echoes:
            return
        from verl_doctor.engine.fallbacks import envelope_class

        for line, inner in self._echoes:
            if inner and (line.source, line.number) not in self._settled:
                self._settled.add((line.source, line.number))
                self._credit(line, envelope_class(inner))

    def _unknown_the_overrides_place(self) -> None:
        """Exceptions kept as unknown before the run's overrides were read (Hydra prints them
        after a failure; a per-row error logged during the run comes long before): the checks
        that read only the message and the overrides are made again with all of them."""
        if not self.context.overrides:
            return
        for fp, u in list(self._unknown.items()):
            if (u.line.source, u.line.number) in self._settled:
                continue
            self._settled.add((u.line.source, u.line.number))
            if (
                self._module_the_run_names(u.line, u.exc)
                or self._path_the_run_names(u.line, u.exc)
                or self._override_value_refused(u.line, u.exc)
                or self._mapping_given_as_text(u.line, u.exc)
                or self._removed_option_set(u.line, u.exc)
                or self._override_named_in_refusal(u.line, u.exc)
            ):
                del self._unknown[fp]
                self._answered_fps.add(fp)

    def _instantiate_key_set(self) -> None:
        """A run that failed with an error no rule knows after it set one of the keys Hydra reads
        to build a part of the config into verl's class (`actor.optim._target_=torch.optim.AdamW`,
        `+actor_rollout_ref.actor._recursive_=false`): that part is then built by another class,
        or from unbuilt parts, and fails in whatever reads it."""
        line = self.context.override_line
        if self.states or not self._unknown or line is None:
            return
        keys = [
            k.lstrip("+~")
            for k in self.context.overrides
            if k.rpartition(".")[2] in _INSTANTIATE_KEYS and k not in self.context.deleted
        ]
        rule = self._rule_by_id("CFG014")
        if keys and rule is not None:
            first = min(self._unknown.values(), key=lambda u: u.line.number).line
            basis = f"an error no rule knows after the run set {keys[0]}, a key Hydra builds the config by"
            self._record(rule, first, "medium", {"instantiate_key": keys[0]}, basis=basis)

    def _checkpoint_given_as_model(self) -> None:
        """A run that failed with its model path set to a verl training checkpoint's actor or
        critic folder (FSDP shards, not a Hugging Face folder): whatever loading it said
        (a tokenizer it could not build, a config.json it did not find), the path is the error."""
        if "CFG017" in self.states or not (self._unknown or self.states):
            return
        line = self.context.override_line
        if line is None:
            return
        for key, value in self.context.overrides.items():
            path = value.strip("'\"")
            if key.endswith(_MODEL_PATH_KEYS) and _CHECKPOINT_FOLDER.search(path):
                rule = self._rule_by_id("CFG017")
                if rule is not None:
                    self._record(rule, line, "high", {"path": path})
                # A tokenizer the checkpoint's files could not build (`Couldn't instantiate the
                # backend tokenizer`) is that folder read as a model, not a package missing;
                # a package the log names stays its own finding.
                missing = self.states.get("ENV009")
                if missing is not None and "module" not in self.groups_of(missing):
                    del self.states["ENV009"]
                return

    def groups_of(self, state: _RuleState) -> dict[str, str]:
        """A rule's captured groups, with what its facts read in the log filling the rest."""
        groups = dict(state.groups)
        for _number, found in self._facts.get(state.rule.position, []):
            for k, v in found.items():
                groups.setdefault(k, v)
        return groups

    def _deleted_section_read(self) -> None:
        """A key missing under a part of the config the run deleted (`~critic` for GRPO, then
        `Key 'enable' is not in struct`, full_key critic.enable): verl reads that part whether the
        run uses it or not, so the deletion is the error, not the key's spelling."""
        state = self.states.get("CFG005")
        if state is None or state.first is None or not self.context.deleted:
            return
        key = self.groups_of(state).get("key", "")
        section = next((d for d in self.context.deleted if key == d or key.startswith(d + ".")), None)
        rule = self._rule_by_id("CFG011")
        if section is None or rule is None:
            return
        del self.states["CFG005"]
        self._record(rule, state.first, "high", {"full_key": key, "deleted": section})

    def _section_a_choice_reads(self) -> None:
        """A key missing that is named after a value the run chose beside it
        (`actor_rollout_ref.actor.strategy=megatron`, then `Key 'megatron' is not in struct`,
        full_key actor_rollout_ref.actor.megatron): the choice reads a part of the config that
        this config file does not have, so the section is missing (CFG011), not misspelt."""
        state = self.states.get("CFG005")
        if state is None or state.first is None or not self.context.overrides:
            return
        section, _, leaf = self.groups_of(state).get("key", "").rpartition(".")
        chosen = next(
            (
                f"{k}={v}"
                for k, v in self.context.overrides.items()
                if section and k.rpartition(".")[0] == section and v.strip("'\"") == leaf
            ),
            None,
        )
        if chosen is not None:
            self._answer_instead("CFG005", "CFG011", {"full_key": f"{section}.{leaf}", "chosen": chosen})

    def _key_verl_reads_is_missing(self) -> None:
        """`Key 'ray_init' is not in struct` for one of verl's own keys that the run did not set:
        verl's code read it from a composed config that lacks it (another entry point's config
        file, a config of another release, a custom yaml not built on verl's), so a section is
        missing (CFG011). A key the run set itself stays an unknown key (CFG005)."""
        state = self.states.get("CFG005")
        if state is None or state.first is None or "is not in struct" not in state.first.text:
            return
        if self.context.override_line is None:
            return  # without the run's overrides, whether it set the key itself is not known
        key = self.groups_of(state).get("key", "")
        # (a group chosen by name, `data=gsm8k_local`, sets no key below it)
        if not key or any(
            k == key or k.startswith(key + ".") or ("." in k and key.startswith(k + "."))
            for k in self.context.overrides
        ):
            return
        from verl_doctor.catalog.verl_keys import known

        if known(key):
            self._answer_instead("CFG005", "CFG011", {"full_key": key})

    def _interpolation_to_no_key(self) -> None:
        """An interpolation to a key that no verl config has (`${data_dir}` written in a group
        file, a shell variable that reached Hydra as `${MODEL_NAME}`, a typo): the ${...} written
        is wrong (CFG016), not a section missing from the config (CFG011, kept for verl's own keys)."""
        state = self.states.get("CFG011")
        if state is None or state.first is None or "Interpolation key '" not in state.first.text:
            return
        from verl_doctor.catalog.verl_keys import known

        key = self.groups_of(state).get("key", "")
        if key and not known(key):
            self._answer_instead("CFG011", "CFG016", {"interpolation": key, "key": key})

    def _none_given(self) -> None:
        """A config check that failed on a setting the run gave as `None`: Hydra's null is
        written `null`, and `None` is the text 'None', so verl sees a value where none was meant
        (`You have set both ... micro_batch_size AND ..._per_gpu` for `ppo_micro_batch_size=None`)."""
        nones = [k for k, v in self.context.overrides.items() if v.strip("'\"") in ("None", "none")]
        if not nones:
            return
        for code, state in list(self.states.items()):
            if state.first is None or state.rule.category != "config" or code == "CFG016":
                continue
            text = state.first.raw
            named = self.context.set_keys_named_in(text)
            for key in nones:
                section, _, leaf = key.rpartition(".")
                # verl's own messages drop a setting's prefix (`ppo_micro_batch_size` is named
                # `actor_rollout_ref.actor.micro_batch_size`)
                shortened = leaf.partition("_")[2]
                if key in named or (section and shortened and f"{section}.{shortened}" in text):
                    self._answer_instead(code, "CFG016", {"none_value": key})
                    return

    def _misspelt_target(self) -> None:
        """A `_target_` the run set to a verl class that no release of verl has, one letter or two
        from one that does (`verl.workers.config.FSDPActorConfg`): a typo, not another release."""
        state = self.states.get("ENV005")
        if state is None or state.first is None:
            return
        target = self.groups_of(state).get("module", "")
        keys = [
            k
            for k, v in self.context.overrides.items()
            if k.endswith("_target_") and v.strip("'\"") == target
        ]
        if not keys or "." not in target:
            return
        from difflib import get_close_matches

        from verl_doctor.engine.fallbacks import verl_names

        module, _, name = target.rpartition(".")
        names = verl_names()
        meant = get_close_matches(name, names, n=1, cutoff=0.85) if name not in names else []
        # (a name with a part added, `FSDPEngineConfigV2`, is a class of another release)
        if meant and not (name.startswith(meant[0]) or meant[0].startswith(name)):
            groups = {
                "misspelt_target": target,
                "meant": meant[0],
                "target_key": keys[0].lstrip("+"),
                "meant_path": f"{module}.{meant[0]}",
            }
            self._answer_instead("ENV005", "CFG014", groups)

    def _override_left_empty(self) -> None:
        """A run that failed with an error no rule knows, one of its overrides given no value
        (`actor_rollout_ref.model.path=`, a shell variable that was never set): verl then reads
        an empty string where a value must be, and fails in whatever reads it first."""
        line = self.context.override_line
        if self.states or not self._unknown or line is None:
            return
        empty = [
            key
            for key, value in self.context.overrides.items()
            if value.strip("'\"") == "" and key not in self.context.deleted
        ]
        rule = self._rule_by_id("CFG011")
        if empty and rule is not None:
            self._record(
                rule, line, "medium", {"full_key": empty[0]}, basis=f"override {empty[0]}= left empty"
            )

    def _divided_by_setting(self, line: Line, frame: Frame) -> bool:
        """A division by zero in verl's code, on a source line that reads config values: one of
        those settings is 0 (or was derived as 0, such as a per-GPU share of a batch)."""
        if frame.package != "verl":
            return False
        code = self._raising_source(line)
        if not code:
            return False
        from verl_doctor.catalog.verl_keys import keys_named_in
        from verl_doctor.engine.fallbacks import divided_by_setting

        options = keys_named_in(code, code=True)
        return self._credit(line, divided_by_setting(code, frame.path, frame.func, options))

    def _fallback(self, line: Line, exc: ExceptionLine | None) -> bool:
        """Credit an exception no signature knows to the rule its class and names point at."""
        from verl_doctor.engine.fallbacks import classify as classify_exception

        found = classify_exception(exc.message if exc else line.text, exc.type if exc else None)
        return self._credit(line, found)

    def _credit(self, line: Line, found: Fallback | None) -> bool:
        """Record an answer from the exception's class and names; False when there is none."""
        if found is None:
            return False
        rule = self._rule_by_id(found.code)
        if rule is None:
            return False
        self._record(rule, line, "medium", dict(found.groups), basis=f"exception: {found.basis}")
        return True

    def _answer_instead(self, found: str, code: str, groups: dict[str, str]) -> None:
        """What the whole log shows replaces the answer of rule `found` with rule `code`'s, on
        the same line and as sure (the run's overrides say what the message meant)."""
        state, rule = self.states.get(found), self._rule_by_id(code)
        if state is None or state.first is None or rule is None:
            return
        del self.states[found]
        self._record(rule, state.first, state.first_conf, groups)

    def _rule_by_id(self, code: str) -> Rule | None:
        if self._rule_index is None:  # built when first asked: rules load lazily
            self._rule_index = {r.id: r for r in self.catalog.rules}
        return self._rule_index.get(code)

    # ------------------------------------------------------------------ report


# The keys Hydra's instantiate reads in a config node (hydra/_internal/instantiate/_instantiate2.py).
_INSTANTIATE_KEYS = frozenset(("_target_", "_recursive_", "_partial_", "_convert_", "_args_"))
# How many of a library's own callers of a raising function are kept (its set-up code may be a
# few calls up: _check_and_adjust_attn_implementation > get_correct_attn_implementation > ...).
_CALLERS_KEPT = 4


def _user_frame(fr: Frame) -> bool:
    """A frame of the user's own code: in no package, and neither Python's (`<frozen ...>`, a
    dataclass's `<string>`) nor a package's console script (`/usr/local/bin/torchrun`)."""
    return fr.package is None and not fr.path.startswith("<") and "/bin/" not in fr.path.replace("\\", "/")


# A library refusing a feature by name: `OrionForCausalLM does not support gradient checkpointing`.
_FEATURE_REFUSED = lazy_compile(
    r"\b(?:(?:does(?: not|n't)|do(?: not|n't)|cannot) support|(?:is|are) not compatible with) "
    r"(?P<feature>[a-z]+(?: [a-z]+){0,2})"
)


def _feature_options(message: str) -> list[str]:
    """verl's options that switch on the feature a library says it does not support, when the
    words name one (the longest reading first)."""
    m = _FEATURE_REFUSED.search(message)
    if m is None:
        return []
    from verl_doctor.catalog.verl_keys import feature_keys

    words = m["feature"].split()
    for n in range(len(words), 0, -1):
        found = feature_keys(" ".join(words[:n]))
        if found:
            return found
    return []


def _readings(line: Line, pieces: list[str]) -> list[str]:
    """The message of `line` with the lines that continue it (`pieces`, spaces kept), the likely
    reading first. Lines cut to one width by a terminal lose no character, so they join as
    printed, mid-word cuts too; a web page's wrap dropped the space it cut at, so its lines join
    with spaces. A single cut line shows no width to tell them apart: both readings."""
    width = len(strip_ansi(line.raw).rstrip("\r"))
    tail = " " if line.raw.rstrip("\r").endswith(" ") else ""
    exact = (line.text + tail + "".join(pieces)).strip()
    if len(pieces) > 1 and all(len(p) == width for p in pieces[:-1]):
        return [exact]
    spaced = f"{line.text} {' '.join(p.strip() for p in pieces)}"
    return [spaced, exact] if len(pieces) == 1 and exact != spaced else [spaced]


# The settings that count the GPUs a run asks for.
_GPU_COUNT_KEYS = frozenset(("n_gpus_per_node", "nnodes"))
# The codes that say a value of verl's config was refused or left out.
_VERL_VALUE_CODES = frozenset(("CFG011", "CFG014"))
# `getattr(torch.optim, config.optimizer)`: an attribute looked up by a name the code holds in a
# variable (a setting, a sample's field), not one written against a release of that module.
_LOOKED_UP_BY_VALUE = lazy_compile(r"\bgetattr\(\s*[^,()]+,\s*(?P<name>[A-Za-z_][\w.\[\]'\"]*)\s*[,)]")
# A call in a source line (`score_lst = [reward_fn(data_source, r, gt) ...]`): the name called.
_CALLED_NAME = lazy_compile(r"(?P<name>[A-Za-z_][\w.]*)\(")
# A callable verl takes from the config to score responses.
_REWARD_CALLABLE = lazy_compile(r"(?:^|[._])(?:reward|score|compute_score)\w*$|reward_fn")
# The training strategies verl's workers are built for (`*.strategy`), in any release.
_VERL_STRATEGIES = frozenset(
    ("fsdp", "fsdp2", "megatron", "veomni", "torchtitan", "automodel", "megatron_fsdp", "ddp", "dp")
)
# A part of the run's config read in verl's code: `self.config.algorithm.kl_ctrl`.
_CONFIG_READ = lazy_compile(r"\b(?:config|cfg)\.(?P<path>[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)*)")


def _code_line(follow: str, any_statement: bool = False) -> str:
    """The first line after a traceback frame: the source line Python printed for it (only an
    `assert` or `raise` unless `any_statement`)."""
    first = _PREFIX.sub("", follow.lstrip("\n").split("\n", 1)[0]).strip()
    if first.startswith(('File "', "Traceback ")):
        return ""  # no source line was printed
    return first if any_statement or first.startswith(("assert ", "raise ")) else ""


def _short_path(path: str) -> str:
    p = path.replace("\\", "/")
    i = p.rfind("/verl/")
    return p[i + 1 :] if i >= 0 else p.rsplit("/", 1)[-1]
