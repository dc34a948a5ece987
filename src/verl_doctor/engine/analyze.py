"""From normalized lines to a report: rule hits, grouping across workers, ranking, unknowns.

`Analyzer.add(line)` takes candidate lines in order (one or several sources) and returns the
rules that produced their first hit on that line, so `run` and `--follow` can announce errors as
they appear. engine/assemble.py builds the report from what it gathered:

- hits of one rule are one finding; hits of one worker within a few lines are one occurrence;
  `count` adds occurrences over workers plus Ray's `[repeated Nx across cluster]`;
- a hit on a Ray envelope line (`RayTaskError(OutOfMemoryError): ray::...`) knows only the
  exception type: medium confidence, and it does not count when the inner error is also seen;
- ranking: root causes before symptoms, then confidence, then the earliest line;
- exceptions no rule knows are first read by mechanism (engine/readings.py, mixed in: their
  class, the frames that raised them, the run's overrides); those still unexplained are listed
  as unrecognized, with a fingerprint, the deepest verl frame and the phase (from the Ray
  envelope or the frames).
"""

from __future__ import annotations

from collections import deque
from time import perf_counter

from verl_doctor.catalog.load import Catalog, Target
from verl_doctor.catalog.rule import Rule
from verl_doctor.common.lazy_re import lazy_compile
from verl_doctor.common.records import replace
from verl_doctor.engine.context import ContextCollector
from verl_doctor.engine.line_kinds import ExceptionLine, Frame, describe_phase, frame_match, is_verl_actor
from verl_doctor.engine.normalize import (
    FRAME_REST,
    NEW_RECORD,
    NO_WORKER,
    WRAPPED_WIDTH,
    Line,
    Span,
    Worker,
    copy_recipe,
    mask_digits,
    message_of,
    paste_margin,
    plain_prefix_end,
    strip_ansi,
    without_repeat_marks,
    worker_at,
)
from verl_doctor.engine.prefilter import LineSearcher
from verl_doctor.engine.readings import (
    FRAME_LOOKBACK,
    MAX_WORKERS,
    PREFIX,
    RAISED_WITHIN,
    ExceptionReadings,
    Unknown,
    is_zero,
    short_path,
)
from verl_doctor.engine.rule_state import RuleState
from verl_doctor.engine.verdict import (
    F_STRING_FIELD,
    Classifier,
    Verdict,
    VerdictMemo,
    groups_at,
    search,
    template_in_source,
)

TYPE_CHECKING = False  # typing is only needed by type checkers; importing it costs start-up time
if TYPE_CHECKING:
    from typing import Any

    # (where the message starts and ends, the spans of who printed it, its verdict)
    CopyPlan = tuple[int, int, tuple[Span, Span, Span, Span, Span] | None, Verdict]

# A rule whose regexes time out this often, or spend this long at more than SLOW_SEARCH a
# search on average, is switched off for the rest of the run: no rule can stall a run.
RULE_MAX_TIMEOUTS = 3
RULE_TIME_BUDGET = 1.0  # seconds
SLOW_SEARCH = 0.001  # seconds: healthy rules take microseconds
OCCURRENCE_GAP = 30  # hits of one worker closer than this are one occurrence
MAX_EVIDENCE = 3
MAX_ENVELOPES = 64
MAX_ECHOES = 64  # distinct echoes kept (the report shows five)
MAX_COPY_PLANS = 4096
_CONF_RANK = {"high": 0, "medium": 1, "low": 2}
_GENERIC_METHODS = {"run", "main_task", "__init__", "main"}
# (an SFT trainer's checkpoint is the step folder itself)
_CHECKPOINT_FOLDER = lazy_compile(r"(?:^|/)global_step_\d+(?:/(?:actor|critic))?/?$")
_MODEL_PATH_KEYS = ("model.path", "tokenizer_path", "model_path")
_ELISION = lazy_compile(r"^\s*\.\.\.\s*<\d+ lines?>\s*\.\.\.\s*$")
# A progress bar (tqdm's `  14%|█▍   | 7923/56112 [00:02<00:12, ...]`) is a record of its own.
_PROGRESS_BAR = lazy_compile(r"\b\d{1,3}%\|")

# A warning that carries a caught error whole, its traceback on the lines after it and its own
# words after that (SGLang's parallel_state.py: `Setup Custom allreduce failed with {e}. To silence
# this warning, specify --disable-custom-all-reduce explicitly.`): the run goes on without it.
_WARNING_CARRIES_AN_ERROR = lazy_compile(r"\bSetup Custom allreduce failed with\b")
CARRIED_SPAN = 80  # lines of one process a carried traceback may take
# A log record opening with its date and time (`[2025-10-30 10:22:32 TP0]`): the warning has ended.
_TIMED_RECORD = lazy_compile(r"\[\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d")

# A command line as a shell printed it (`$ python3 -m verl.trainer.main_ppo ...`).
_SHELL_PROMPT = lazy_compile(r"^\s*\$ ")
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


def _process_of(line: Line) -> tuple[str, str | None, int | None]:
    """The process that printed `line` (its rank aside: SGLang names it on its records only)."""
    return (line.source, line.worker.actor, line.worker.pid)


def _line_before(line: Line) -> str:
    """The line before `line` that a hard wrap may have cut into it, as text."""
    return strip_ansi(line.before.decode("utf-8", "replace")).rstrip("\r")


class Analyzer(ExceptionReadings):
    """Feeds normalized lines through the catalog; see the module docstring."""

    def __init__(self, catalog: Catalog, lang: str = "en") -> None:
        self.catalog = catalog
        self.lang = lang
        self.searcher = LineSearcher(catalog.literals)
        self.classifier = Classifier(catalog, self.searcher, self._timed_out_on)
        self.memo = VerdictMemo(self.classifier)
        self.states: dict[str, RuleState] = {}
        self.warning_states: dict[str, RuleState] = {}  # hits of warning-level messages
        self.context = ContextCollector()
        self.lines_seen = 0
        self.timeouts: list[str] = []  # one note per rule that timed out
        self._timed_out: dict[str, tuple[int, int]] = {}  # rule id: (timeouts, index of its note)
        self._spent: dict[str, list[float]] = {}  # rule id: [seconds, searches]
        self.switched_off = self.classifier.switched_off
        self.classifier.on_spent = self._spend
        self._unknown: dict[str, Unknown] = {}
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
        # worker -> (the library function the user's code called, whether that code was plugged
        # into a library, the source line of the user's call)
        self._entered: dict[tuple[object, ...], tuple[str, bool, str]] = {}
        self._plugged: dict[tuple[object, ...], bool] = {}
        self._answered_fps: set[str] = set()  # exceptions an analysis answered, by fingerprint
        self._frame_follow: dict[tuple[object, ...], str] = {}  # what came after that frame
        self._caller_follow: dict[tuple[object, ...], str] = {}  # ... and after the frame above it
        self._looked_up_by_value: set[str] = set()  # what lookups by a name held in a variable lacked
        # Per (source, worker): a file of the user's that a library's import ran in place of a package.
        self._shadows: dict[tuple[str, tuple[object, ...]], tuple[int, str, str]] = {}
        # Per worker: the last verl frame whose source line reads the run's config, and that line.
        self._config_read: dict[tuple[object, ...], tuple[int, str]] = {}
        # Per worker: the last frame of Python's import machinery, and the last user file whose
        # module code ran right under it (a custom file verl was told to load).
        self._importing: dict[tuple[object, ...], int] = {}
        self._user_module: dict[tuple[object, ...], tuple[int, str]] = {}
        # Per worker: the last frame outside Python's own library, and the statement under it.
        self._outside_std: dict[tuple[object, ...], tuple[int, Frame, str]] = {}
        # Per worker: the last frame of torch putting a loaded state into a module or optimizer.
        self._restoring_state: dict[tuple[object, ...], int] = {}
        # Per source: the last line of a frame read whole from a wrap (its tail, on lines of no
        # worker's prefix, is no frame).
        self._frame_tail_until: dict[str, int] = {}
        # Digit-masked shapes of lines that only record signature hits (`_is_pure`) -> where their
        # message and worker sit, and their verdict: the scanner hands copies to `add_copy`.
        self.copy_plans: dict[bytes, CopyPlan] = {}
        self.copies_taken = 0
        self._verl_seen = False  # a frame of verl's code, or a line of one of its Ray actors
        # the process that printed a warning carrying a caught error -> its line (`_carried`)
        self._carrying: dict[tuple[str, str | None, int | None], int] = {}
        # Refusals of a library's settings credited as values of the run (code, line, exception):
        # kept only when the log shows verl ran (see `_library_settings_without_verl`).
        self._library_settings_read: list[tuple[str, Line, ExceptionLine]] = []

    # ------------------------------------------------------------------ per line

    def add(self, line: Line) -> list[str]:
        """Analyze one candidate line; returns codes of rules first hit on this line."""
        self.lines_seen += 1
        if line.source not in self.sources_order:
            self.sources_order.append(line.source)
        if not self._verl_seen and is_verl_actor(line.worker.actor):
            self._verl_seen = True
        text = line.text
        verdict = self.memo.verdict(text, line.is_config, line)
        if verdict is None:
            # A line kept for a literal that a hard wrap cut across its edge: only a joined
            # reading can match.
            return (self._wrapped_hits(line, None) or []) if line.cut else []
        if "failed with" in text and _WARNING_CARRIES_AN_ERROR.search(text) is not None:
            self._carrying[_process_of(line)] = line.number
        elif self._carrying and self._carried(line, verdict):
            self._record_hits(line, verdict, as_warnings=True)
            return []
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
        whole: Frame | None = None  # a frame a hard wrap cut, read whole across the lines
        if line.before and 'File "' not in text:
            # (the rest of a frame whose start, `File "/.../ray/_private`, a wrap left on the line
            # before: `/runtime_env/validation.py", line 447, in ...` alone names another path)
            whole = self._frame_begun_before(line)
            fr = whole or fr
        follow = line.follow
        tail_until = self._frame_tail_until.get(line.source, -1)
        if (
            fr is not None
            and tail_until >= line.number
            and ('File "' not in text or _RELATIVE.match(fr.path))
        ):
            fr = None  # the rest of a frame a wrap cut inside its path, read whole on the line before
        elif follow and (
            _CUT_FRAME.search(text)
            if fr is None
            else len(line.raw) >= WRAPPED_WIDTH and _NAME_GOES_ON.match(follow) is not None
        ):
            fr, follow, used = self._wrapped_frame(line, fr)
            if used:
                tail_until = self._frame_tail_until[line.source] = line.number + used
                whole = fr
        ends = max(line.number, tail_until)
        if fr is not None:
            if fr.is_verl:
                self._verl_seen = self._verl_seen or fr.runs_verl
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
                self._caller_follow.clear()
                self._config_read.clear()
            # pydantic's validation plumbing (and huggingface_hub's, which transformers' config
            # classes validate with) is never where a setting is checked: the frame that built
            # the config class (vLLM's arg_utils) stays the innermost one. Nor is the `__init__`
            # a dataclass generates (`File "<string>"`) between its caller and `__post_init__`.
            if _PLUMBING.search(fr.path) is None:
                # (numbered by its last line: a frame a wrap spread over lines ends there)
                key = line.worker.key()
                before = self._innermost.get(key)
                near = before is not None and 0 <= line.number - before[0] <= RAISED_WITHIN
                # Python's own library between two frames (asyncio running a coroutine,
                # concurrent.futures handing back a result), or torch's grad-mode decorator,
                # passes the call on: the code that called through it is the frame before it.
                std = fr.passes_call_on
                if near and before is not None and before[1].passes_call_on and not std:
                    outer = self._outside_std.get(key)
                    if outer is not None and 0 <= line.number - outer[0] <= _THROUGH_STD_WITHIN:
                        before = outer[:2]
                # (the library's own callers, nearest last: a user's `main` calling it is not the
                # library starting)
                if std and near:
                    pass  # (what was entered from the user's code stays entered through it)
                elif near and before is not None and before[1].package == fr.package:
                    callers = self._caller.get(key, ())
                    self._caller[key] = (*callers[-(_CALLERS_KEPT - 1) :], before[1].func)
                else:
                    self._caller.pop(key, None)
                    if fr.package is not None and near and before is not None and _user_frame(before[1]):
                        # (the statement of that frame: the one before Python's library, if any)
                        outer = self._outside_std.get(key)
                        call = outer[2] if outer is not None and outer[1] is before[1] else ""
                        call = call or self._frame_follow.get(key, "")
                        self._entered[key] = (fr.func, self._plugged.get(key, False), call)
                    else:
                        self._entered.pop(key, None)
                if _user_frame(fr):
                    self._plugged[key] = near and before is not None and before[1].package is not None
                self._innermost[key] = (ends, fr)
                if not std:
                    if len(self._outside_std) > MAX_WORKERS:
                        self._outside_std.clear()
                    self._outside_std[key] = (ends, fr, follow)
                # (the statement of the frame that called this one, in the same traceback)
                self._caller_follow[key] = self._frame_follow.get(key, "") if near else ""
                self._frame_follow[key] = follow
                if near and fr.func == "<module>" and _user_frame(fr):
                    self._note_shadow(line, fr, self._caller_follow[key])
            if fr.package is None and not fr.path.startswith("<"):
                self._own_frame[line.worker.key()] = (ends, fr)
            elif fr.func in _RESTORES_STATE and fr.package == "torch":
                if len(self._restoring_state) > MAX_WORKERS:
                    self._restoring_state.clear()
                self._restoring_state[line.worker.key()] = ends
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
                if rule.exclude_res and line.before and self._excluded_after_wrap(rule, line):
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
        if whole is not None:
            new += self._clues_of_whole_frame(line, whole)
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

    def _carried(self, line: Line, verdict: Verdict) -> bool:
        """Whether `line` is part of an error a warning carries (`_WARNING_CARRIES_AN_ERROR`):
        printed by the same process, within CARRIED_SPAN lines, up to the warning's own closing
        words and before the process's next timed record."""
        key = _process_of(line)
        start = self._carrying.get(key)
        if start is None:
            return False
        if "warning_end" in verdict.kinds:
            del self._carrying[key]
            return True
        if line.number - start > CARRIED_SPAN or _TIMED_RECORD.search(strip_ansi(line.raw)[:120]):
            del self._carrying[key]
            return False
        return True

    def _record_hits(self, line: Line, verdict: Verdict, as_warnings: bool = False) -> list[str]:
        """Record a line's signature hits (and facts); `as_warnings`: all of them as warnings."""
        new: list[str] = []
        text = line.text
        for rule, spans, warning in verdict.sigs:
            if spans is not None:
                warning = warning or as_warnings
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
        if not self._verl_seen and is_verl_actor(worker.actor):
            self._verl_seen = True
        line = Line(source, number, text[start:end], raw, worker, 0, False)
        self._record_hits(line, verdict, as_warnings=bool(self._carrying) and self._carried(line, verdict))

    def _wrapped_hits(self, line: Line, env: Any) -> list[str] | None:
        """Signatures tried on the line joined with the lines that continue it and, when it goes
        on a message a hard wrap began on the line before, with that line too; None when no
        joined reading hits."""
        if line.follow:
            joined = self._rejoined(line, env, self._joined(line))
            # (and the parts of clues: a clue's window counts from where the message ends)
            clued = self._clues_of_joined(line) if len(line.raw) >= WRAPPED_WIDTH else []
            if joined is not None or clued:
                return (joined or []) + clued
        if not line.before or NEW_RECORD.match(strip_ansi(line.raw)):
            return None
        start = _line_before(line)
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
        pieces = self._continuation(line, frame=True)
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

    def _clues_of_joined(self, line: Line) -> list[str]:
        """The clue parts a line a hard wrap cut matches joined with its rest (`Using address
        ... set` / `in the environment variable RAY_ADDRESS`), read as ending on its last line;
        the codes of clues it completes."""
        exact = self._continuation(line, exact=True)
        if not exact:
            return []
        pieces = [p.strip() for p in exact]
        for variant in (line.text + "".join(pieces), line.text + " " + " ".join(pieces)):
            verdict = self.memo.verdict(variant, False, line)
            if verdict is None or not any(verdict.clue_hits):
                continue
            read = replace(line, text=variant, number=line.number + len(exact), follow="")
            return self._clues_read(read, verdict)
        return []

    def _clues_of_whole_frame(self, line: Line, fr: Frame) -> list[str]:
        """The clue parts a frame matches as printed (`File "...", line 334, in update_params`),
        when a hard wrap cut it (`... in upda` / `te_params`) and no piece of it matched them."""
        whole = f'File "{fr.path}", line {fr.line}, in {fr.func}'
        verdict = self.memo.verdict(whole, False, line)
        if verdict is None:
            return []
        return self._clues_read(replace(line, text=whole), verdict)

    def _clues_read(self, read: Line, verdict: Verdict) -> list[str]:
        """The clue parts a line read another way (joined, whole) matches, counted as seen on
        `read`; the codes of the clues they complete."""
        codes = []
        for (rule, t), hit in zip(verdict.clues, verdict.clue_hits, strict=True):
            if hit:
                code = self._clue(rule, t, read, verdict)
                if code:
                    codes.append(code)
        return codes

    def _frame_begun_before(self, line: Line) -> Frame | None:
        """The frame a hard wrap began on the line before this one (which held no literal, so
        it reached the analysis only as this line's `before`), read whole; None when that line
        is no frame cut short."""
        start = _line_before(line)
        if not _CUT_FRAME.search(start):
            return None
        for sep in ("", " "):
            joined = start + sep + line.text.rstrip()
            m = frame_match(joined)
            if m is not None and m.end() == len(joined):
                return Frame(m.group("path"), int(m.group("line")), m.group("func"))
        return None

    def _excluded_after_wrap(self, rule: Rule, line: Line) -> bool:
        """Whether what the rule excludes began on the line before, which a hard wrap cut into
        this one (`... UserWarning: torchtitan eng` / `ine is not available: ModuleNotFoundError
        (...)`): the message this line goes on is the excluded one."""
        raw = strip_ansi(line.raw)
        if NEW_RECORD.match(raw):
            return False
        start = _line_before(line)
        return self._excluded_in(rule, line, [start + raw, start + " " + line.text])

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

    def _continuation(self, line: Line, exact: bool = False, frame: bool = False) -> list[str]:
        """The lines after `line` that continue its message: a terminal's or web page's hard wrap
        (mid-word or at a space), lines past a `...<N lines>...` elision, or lines under the same
        worker prefix (Ray prefixes every line of a message with a newline in it). `exact` keeps
        their spaces at both ends; with `frame`, the line after may be the rest of a frame that a
        wrap cut after its path (`line 233, in validate`), which elsewhere starts a record."""
        raw = strip_ansi(line.raw)
        if "$ " in raw and _SHELL_PROMPT.match(message_of(raw)):
            return []  # a command the user typed: what follows is its output
        # (a quoted paste whose lines name a worker: read as the lines were before the quote)
        quote = paste_margin(raw)
        quote = quote if ">" in quote and PREFIX.match(raw[len(quote) :]) else ""
        raw = raw[len(quote) :]
        own = PREFIX.match(raw)
        # (a log whose every line has a prefix naming no worker, a timestamp or a quote: the
        # lines after go on behind theirs; a line that starts with its message has none)
        bare = own is not None or raw.lstrip().startswith(line.text[:40])
        plain = 0 if bare else plain_prefix_end(raw)
        # (a code block's indentation before every line of a paste: the lines after lose theirs)
        margin = paste_margin(raw) if own is None and bare else ""
        pieces: list[str] = []
        own_prefix = own.group(0).strip() if own else None
        for nxt in line.follow.split("\n")[:3]:
            piece = without_repeat_marks(strip_ansi(nxt).rstrip("\r"))
            if quote and piece.startswith(quote):
                piece = piece[len(quote) :]
            if own_prefix is not None:
                theirs = PREFIX.match(piece)
                if theirs is not None and theirs.group(0).strip() == own_prefix:
                    piece = piece[theirs.end() :]
            elif plain:
                # (behind the same quote, a line whose prefix names a worker is another record)
                cut = plain_prefix_end(piece) or (plain if piece.startswith(raw[:plain]) else 0)
                piece = piece[cut:]
            elif margin and piece.startswith(margin):
                piece = piece[len(margin) :]
            if _ELISION.match(piece):
                continue
            if frame and not pieces and FRAME_REST.match(piece):
                pass
            elif not piece.strip() or NEW_RECORD.match(piece) or _PROGRESS_BAR.search(piece):
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
                if "has no attribute" in variant and self._name_held_in_a_variable(joined, rule.id):
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
        # (a raising statement's source line joined with the line after it is still no message)
        if not match or self._excluded(rule, line) or template_in_source(line.text, match):
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
        states: dict[str, RuleState] | None = None,
    ) -> bool:
        """Add a hit; True when it is the rule's first. `basis` says what the hit rests on when it
        is not the rule's own message (medium confidence otherwise means a Ray envelope)."""
        states = self.states if states is None else states
        state = states.get(rule.id)
        is_new = state is None
        if state is None:
            state = states[rule.id] = RuleState(rule)
        for k, v in (groups or {}).items():
            # (a traceback's source line shows the f-string, `'{inter_key}'`: not a value)
            if not (v[:1] == "{" and F_STRING_FIELD.fullmatch(v)):
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

    def _count(self, state: RuleState, line: Line, conf: str) -> None:
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
                    return describe_phase(fr.func), f"{short_path(fr.path)}:{fr.line} in {fr.func}"
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

    def settle(self) -> None:
        """Answers only the whole log can give, made when the report is asked for (once per
        line): with no error known or unknown, a Ray envelope whose class says what happened
        (a worker's death) is the answer, though the death's own message was cut off."""
        self._shadow_ran()
        self._checkpoint_given_as_model()
        self._override_left_empty()
        self._deleted_section_read()
        self._section_a_choice_reads()
        self._key_verl_reads_is_missing()
        self._pool_emptied_by_gpu_count()
        self._interpolation_to_no_key()
        self._none_given()
        self._resume_path_not_text()
        self._misspelt_target()
        self._unknown_the_overrides_place()
        self._instantiate_key_set()
        self._library_settings_without_verl()
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
        (a tokenizer it could not build, a config.json it did not find), the path is the error.
        Read from the path's name alone, it explains only a failure nothing else explains: a
        root cause found in the log's words stays the answer (a package that could not build
        that tokenizer aside)."""
        if "CFG017" in self.states or not (self._unknown or self.states):
            return
        if any(not s.rule.symptom and code != "ENV009" for code, s in self.states.items()):
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

    def groups_of(self, state: RuleState) -> dict[str, str]:
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

    def _pool_emptied_by_gpu_count(self) -> None:
        """Ray refusing a placement group of no bundles while the run set the trainer's GPU or
        node count to 0 (`trainer.n_gpus_per_node=0`, often a script's count of the GPUs it
        saw): that count (CFG003), as when verl divides by it. A pool of its own the run left at
        0 stays a pool's size (CFG014)."""
        state = self.states.get("CFG014")
        if state is None or "empty_bundles" not in state.groups:
            return
        zeros = [
            key
            for key in ("trainer.n_gpus_per_node", "trainer.nnodes")
            if is_zero(self.context.overrides.get(key, ""))
        ]
        if zeros:
            self._answer_instead("CFG014", "CFG003", {"zero_count": zeros[0]})

    def _interpolation_to_no_key(self) -> None:
        """An interpolation to a key that no verl config has (`${data_dir}` written in a group
        file, a shell variable that reached Hydra as `${MODEL_NAME}`): the ${...} written is wrong
        (CFG016), not a section missing from the config (CFG011, kept for verl's own keys); a key
        of verl's section misspelt (`${trainer.project}`) names a key that does not exist (CFG005)."""
        state = self.states.get("CFG011")
        if state is None or state.first is None or "Interpolation key '" not in state.first.text:
            return
        from verl_doctor.catalog.verl_keys import known, nearest_in_section

        key = self.groups_of(state).get("key", "")
        if key and not known(key):
            code = "CFG005" if nearest_in_section(key) else "CFG016"
            self._answer_instead("CFG011", code, {"interpolation": key, "key": key})

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

    def _resume_path_not_text(self) -> None:
        """verl's `resume ckpt must be str type` (resume_mode=resume_path) is a path left null,
        unless the run gave trainer.resume_from_path a value: then the value is no path (a bare
        step number, `resume_from_path=400`, reaches verl as an int)."""
        state = self.states.get("CFG011")
        if state is None or state.first is None or "resume_path" not in self.groups_of(state):
            return
        key = next(
            (k for k in self.context.overrides if k.lstrip("+").endswith("trainer.resume_from_path")), None
        )
        if key is None or self.context.overrides[key].strip("'\" ").lower() in ("", "null", "none", "~"):
            return
        self._answer_instead("CFG011", "CFG014", {"options": key.lstrip("+")})

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

    # ------------------------------------------------------------------ report


# The keys Hydra's instantiate reads in a config node (hydra/_internal/instantiate/_instantiate2.py).
_INSTANTIATE_KEYS = frozenset(("_target_", "_recursive_", "_partial_", "_convert_", "_args_"))
# How many of a library's own callers of a raising function are kept (its set-up code may be a
# few calls up: _check_and_adjust_attn_implementation > get_correct_attn_implementation > ...).
_CALLERS_KEPT = 4
# How far (in lines) frames of Python's own library may run between a caller and the library it
# called through them (asyncio's run_until_complete, concurrent.futures' result: a few frames).
_THROUGH_STD_WITHIN = 16
# torch's modules and optimizers putting a state dict into themselves.
_RESTORES_STATE = frozenset(("load_state_dict", "_load_from_state_dict"))


def _user_frame(fr: Frame) -> bool:
    """A frame of the user's own code: in no package, and neither Python's (`<frozen ...>`, a
    dataclass's `<string>`, runpy starting a module, its standard library: asyncio running a
    coroutine), a package's console script (`/usr/local/bin/torchrun`) nor a compiled
    extension's (`uvloop/loop.pyx`: Cython names its source file relative to its package)."""
    return (
        fr.package is None
        and not fr.path.startswith("<")
        and not fr.starts_a_module
        and "/bin/" not in fr.path.replace("\\", "/")
        and not fr.path.endswith((".pyx", ".pxd", ".pxi"))
        and not fr.in_standard_library
    )
