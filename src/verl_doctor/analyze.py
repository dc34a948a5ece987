"""From normalized lines to a report: rule hits, grouping across workers, ranking, unknowns.

`Analyzer.add(line)` takes candidate lines in order (one or several sources) and returns the
rules that produced their first hit on that line, so `run` and `--follow` can announce errors as
they appear. `Analyzer.report()` builds the report:

- hits of one rule are one finding; hits of one worker within a few lines are one occurrence;
  `count` adds occurrences over workers plus Ray's `[repeated Nx across cluster]`;
- a hit on a Ray envelope line (`RayTaskError(OutOfMemoryError): ray::...`) knows only the
  exception type: medium confidence, and it does not count when the inner error is also seen;
- ranking: root causes before symptoms, then confidence, then the earliest line;
- exceptions no rule knows are listed as unrecognized, with a fingerprint, the deepest verl
  frame and the phase (from the Ray envelope or the frames).
"""

from __future__ import annotations

from collections import deque

from .catalog import Catalog, Target
from .classify import ExceptionLine, Frame, describe_phase, envelope
from .context import ContextCollector
from .fingerprint import fingerprint
from .normalize import Line, Worker
from .prefilter import LineSearcher
from .records import field, record
from .rules import Rule, pick
from .templates import fill_placeholders
from .verdict import Classifier, Verdict, VerdictMemo, groups_at
from .versions import satisfies

TYPE_CHECKING = False  # typing is only needed by type checkers; importing it costs start-up time
if TYPE_CHECKING:
    from typing import Any

OCCURRENCE_GAP = 30  # hits of one worker closer than this are one occurrence
MAX_EVIDENCE = 3
MAX_WORKERS = 256
MAX_UNRECOGNIZED = 20
MAX_ENVELOPES = 64
FRAME_LOOKBACK = 80
_CONF_RANK = {"high": 0, "medium": 1, "low": 2}
_GENERIC_METHODS = {"run", "main_task", "__init__", "main"}


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


@record
class _Unknown:
    line: Line
    exc: ExceptionLine
    count: int
    phase: str | None
    verl_frame: str | None


class Analyzer:
    """Feeds normalized lines through the catalog; see the module docstring."""

    def __init__(self, catalog: Catalog, lang: str = "en") -> None:
        self.catalog = catalog
        self.lang = lang
        self.searcher = LineSearcher(catalog.literals)
        self.classifier = Classifier(catalog, self.searcher, self._timed_out_on)
        self.memo = VerdictMemo(self.classifier)
        self.states: dict[str, _RuleState] = {}
        self.context = ContextCollector()
        self.lines_seen = 0
        self.timeouts: list[str] = []
        self._timed_out: set[str] = set()
        self._unknown: dict[str, _Unknown] = {}
        self._echoes: list[tuple[Line, str | None]] = []
        self._envelopes: deque[tuple[Line, Any]] = deque(maxlen=MAX_ENVELOPES)
        self._frames: dict[tuple[object, ...], deque[tuple[int, Frame]]] = {}
        self._clue_hits: dict[tuple[int, int], dict[int, list[int]]] = {}
        self._facts: dict[int, list[tuple[int, dict[str, str]]]] = {}
        self.sources_order: list[str] = []

    # ------------------------------------------------------------------ per line

    def add(self, line: Line) -> list[str]:
        """Analyze one candidate line; returns codes of rules first hit on this line."""
        self.lines_seen += 1
        if line.source not in self.sources_order:
            self.sources_order.append(line.source)
        text = line.text
        verdict = self.memo.verdict(text, line.is_config, line)
        if verdict is None:
            return []
        kinds = verdict.kinds
        if "context" in kinds or line.is_config or "frame" in kinds:
            self.context.add(line)
        if line.is_config:
            return []
        fr = verdict.frame_of(text)
        if fr is not None and fr.is_verl:
            self._frames_of(line.worker).append((line.number, fr))
        env = verdict.envelope_of(text)
        if env is not None:
            self._envelopes.append((line, env))
        new: list[str] = []
        for rule, spans in verdict.sigs:
            if spans is not None:
                groups = groups_at(text, spans)
                if self._record(rule, line, "medium" if env is not None else "high", groups):
                    new.append(rule.id)
        for (rule, t), hit in zip(verdict.clues, verdict.clue_hits, strict=True):
            if hit:
                code = self._clue(rule, t, line, verdict)
                if code:
                    new.append(code)
        for ri in verdict.facts:
            self._fact(ri, line, verdict)
        if verdict.envelope_echo and env is not None:
            self._echoes.append((line, env.inner or None))
        elif verdict.exception:
            self._maybe_unknown(line, verdict)
        elif verdict.echo:
            self._echoes.append((line, None))
        return new

    def _frames_of(self, worker: Worker) -> deque[tuple[int, Frame]]:
        key = worker.key()
        frames = self._frames.get(key)
        if frames is None:
            if len(self._frames) > MAX_WORKERS:
                self._frames.clear()
            frames = self._frames[key] = deque(maxlen=16)
        return frames

    def _timed_out_on(self, rule: Rule, line: Line) -> None:
        if rule.id not in self._timed_out:
            self._timed_out.add(rule.id)
            self.timeouts.append(f"rule {rule.id} timed out on line {line.number} of {line.source}")

    def _record(self, rule: Rule, line: Line, conf: str, groups: dict[str, str] | None = None) -> bool:
        """Add a hit; True when it is the rule's first."""
        state = self.states.get(rule.id)
        is_new = state is None
        if state is None:
            state = self.states[rule.id] = _RuleState(rule)
        for k, v in (groups or {}).items():
            state.groups.setdefault(k, v)
        if state.first is None or _CONF_RANK[conf] < _CONF_RANK[state.first_conf]:
            # First hit, or a stronger kind of evidence than before: it leads the finding.
            state.first, state.first_conf = line, conf
            state.evidence, state.evidence_worker = [line], line.worker
            state.phase = None
        elif (
            conf == state.first_conf
            and line.worker == state.evidence_worker
            and len(state.evidence) < MAX_EVIDENCE
            and line.source == state.evidence[-1].source
            and line.number - state.evidence[-1].number <= OCCURRENCE_GAP
        ):
            state.evidence.append(line)
        state.best_conf = state.first_conf
        self._count(state, line, conf)
        if state.phase is None and conf == state.first_conf:
            state.phase, state.phase_detail = self._frame_phase(line)
        return is_new

    def _count(self, state: _RuleState, line: Line, conf: str) -> None:
        """Occurrences per worker; envelope hits are counted apart (they echo the inner error)."""
        envelope_hit = conf == "medium"
        key = (line.source, *line.worker.key(), envelope_hit)
        last = state.occurrences.get(key)
        added = line.repeats + (1 if last is None or line.number - last > OCCURRENCE_GAP else 0)
        state.occurrences[key] = line.number
        if envelope_hit:
            state.envelope_count += added
        else:
            state.count += added
        if not line.worker.is_known():
            return
        target = state.envelope_workers if envelope_hit else state.workers
        if line.worker.key() not in target:
            if not envelope_hit:
                state.workers_total += 1
            if len(target) < MAX_WORKERS:
                target[line.worker.key()] = line.worker
        if line.worker.ip and len(state.hosts) < MAX_WORKERS:
            state.hosts.add(line.worker.ip)

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
            return describe_phase(best.method), f"{best.actor}.{best.method}"
        return None, None

    def _phase_for(self, line: Line) -> tuple[str | None, str | None]:
        phase = self._envelope_phase(line)
        return phase if phase[0] else self._frame_phase(line)

    def _clue(self, rule: Rule, target: Target, line: Line, verdict: Verdict) -> str | None:
        """A clue pattern matched `line`: a hit when all its clue's patterns matched lately."""
        ci, pi = divmod(target.index, 100)
        clue = rule.clues[ci]
        hits = self._clue_hits.setdefault((id(rule), ci), {})
        recent = hits.setdefault(pi, [])
        recent.append(line.number)
        del recent[:-8]
        lo = line.number - clue.within
        if len(hits) < len(clue.patterns):
            return None
        if not all(any(n >= lo for n in hits.get(p, ())) for p in range(len(clue.patterns))):
            return None
        if self.classifier.lazy_excluded(verdict, rule, line.text, line):
            return None
        return rule.id if self._record(rule, line, clue.confidence) else None

    def _fact(self, ri: int, line: Line, verdict: Verdict) -> None:
        rule = self.catalog.rules[ri]
        found = self._facts.setdefault(ri, [])
        if len(found) >= 8:
            return
        for groups in self.classifier.lazy_facts(verdict, rule, line.text, line):
            found.append((line.number, groups))

    def _maybe_unknown(self, line: Line, verdict: Verdict) -> None:
        exc = verdict.exception_of(line.text)
        if exc is None:
            return
        fp = fingerprint(exc.type, exc.message)
        known = self._unknown.get(fp)
        if known is not None:
            known.count += 1 + line.repeats
            return
        if len(self._unknown) >= MAX_UNRECOGNIZED:
            return
        phase, detail = self._phase_for(line)
        frames = self._frames.get(line.worker.key())
        deepest = None
        if frames:
            number, fr = frames[-1]
            if 0 <= line.number - number <= FRAME_LOOKBACK:
                deepest = f"{_short_path(fr.path)}:{fr.line} in {fr.func}"
        self._unknown[fp] = _Unknown(line, exc, 1 + line.repeats, phase, deepest or detail)

    # ------------------------------------------------------------------ report

    def report_parts(self) -> tuple[list[Any], list[Any], dict[str, Any]]:
        from .report import Evidence, Finding, FixOut, Unrecognized, WorkerRef

        context = self.context.to_dict()
        findings: list[Finding] = []
        for state in self.states.values():
            rule, first = state.rule, state.first
            assert first is not None
            groups = dict(state.groups)
            for _number, found in self._facts.get(rule.position, []):
                for k, v in found.items():
                    groups.setdefault(k, v)
            env_phase = self._envelope_phase(first)
            if env_phase[0]:
                state.phase, state.phase_detail = env_phase
            workers = state.workers or state.envelope_workers
            count = state.count or state.envelope_count
            findings.append(
                Finding(
                    rule=rule.id,
                    name=rule.name,
                    title=pick(rule.title, self.lang),
                    category=rule.category,
                    symptom=rule.symptom,
                    confidence=state.best_conf,
                    first_line=first.number,
                    source=first.source,
                    count=max(count, 1),
                    evidence=tuple(
                        Evidence(e.source, e.number, e.raw.rstrip("\r\n")) for e in state.evidence
                    ),
                    cause=fill_placeholders(pick(rule.cause, self.lang), groups),
                    fixes=tuple(self._fixes(rule, context, groups, FixOut)),
                    pitfalls=tuple(pick(p, self.lang) for p in rule.pitfalls),
                    references=rule.references,
                    workers=tuple(WorkerRef(w.actor, w.pid, w.ip, w.rank) for w in workers.values()),
                    hosts=tuple(sorted(state.hosts)),
                    workers_total=max(state.workers_total, len(workers)),
                    phase=state.phase,
                    phase_detail=state.phase_detail,
                    facts=tuple(sorted(groups.items())),
                    origin=rule.origin,
                    replaces=rule.replaces,
                )
            )
        order = {s: i for i, s in enumerate(self.sources_order)}
        findings.sort(
            key=lambda f: (f.symptom, _CONF_RANK[f.confidence], order.get(f.source, 0), f.first_line)
        )
        if any(f.confidence == "high" and not f.symptom for f in findings):
            # Low-confidence findings are guesses from traceback shape for when the decisive
            # message was cut off; once a decisive message is in the log they only add noise.
            findings = [f for f in findings if f.confidence != "low"]
        unrecognized = [
            Unrecognized(
                u.line.source,
                u.line.number,
                u.line.raw.rstrip("\r\n"),
                u.exc.qualified,
                "exception",
                u.count,
                u.phase,
                u.verl_frame,
                fingerprint(u.exc.type, u.exc.message),
            )
            for u in self._unknown.values()
        ]
        if not findings and not unrecognized:
            unrecognized = self._echo_entries(Unrecognized)
        return findings, unrecognized, context

    def _echo_entries(self, cls: Any) -> list[Any]:
        """Only envelopes and echoes survived: say what is known and where to look."""
        out: list[Any] = []
        seen: set[str] = set()
        for line, inner in self._echoes:
            key = f"{inner}:{line.text[:60]}"
            if key in seen or len(out) >= 5:
                continue
            seen.add(key)
            env = envelope(line.text)
            phase = describe_phase(env.method) if env and env.method not in ("run",) else None
            hint = (
                "the exception that caused this was cut off: look above it in the full log for the "
                "first line of the form 'SomeError: message'"
            )
            if inner:
                hint = f"a {inner} was raised" + (f" while {phase}" if phase else "") + "; " + hint
            out.append(
                cls(
                    line.source,
                    line.number,
                    line.raw.rstrip("\r\n"),
                    inner,
                    "echo",
                    1,
                    phase,
                    None,
                    None,
                    hint,
                )
            )
        return out

    def _fixes(self, rule: Rule, context: dict[str, Any], groups: dict[str, str], cls: Any) -> list[Any]:
        verl_version = context.get("versions", {}).get("verl")
        overrides: dict[str, str] = context.get("overrides", {})
        out = []
        if rule.suggest == "config-key" and groups.get("key"):
            from .suggest import config_key_steps

            for step, commands in config_key_steps(
                groups["key"], groups.get("value"), verl_version, overrides, self.lang
            ):
                out.append(cls(step, commands, None, ()))
        for fix in rule.fixes:
            if fix.verl and verl_version and satisfies(verl_version, fix.verl) is False:
                continue
            notes: tuple[str, ...] = ()
            if overrides:
                from .hydra_keys import overrides_in

                notes = tuple(
                    f"you set {k}={overrides[k]}" for k, _ in overrides_in(fix.commands) if k in overrides
                )
            commands = tuple(fill_placeholders(c, groups, keep_unknown=True) for c in fix.commands)
            out.append(cls(fill_placeholders(pick(fix.step, self.lang), groups), commands, fix.verl, notes))
        return out


def _short_path(path: str) -> str:
    p = path.replace("\\", "/")
    i = p.rfind("/verl/")
    return p[i + 1 :] if i >= 0 else p.rsplit("/", 1)[-1]
