"""Assembling the report from what the analyzer gathered: one finding per rule (evidence,
workers, phase, cause and fix steps with placeholders filled), ranked; warnings, promoted
where they stand for the failure; unrecognized exceptions and echoes."""

from __future__ import annotations

import re
from collections.abc import Iterable

from verl_doctor.catalog.rule import Rule, pick
from verl_doctor.common.placeholders import fill_placeholders
from verl_doctor.common.records import replace
from verl_doctor.common.versions import satisfies
from verl_doctor.engine.analyze import _CONF_RANK, Analyzer
from verl_doctor.engine.fallbacks.packages import ROLLOUT_ENGINES
from verl_doctor.engine.fingerprint import fingerprint
from verl_doctor.engine.line_kinds import describe_phase, envelope
from verl_doctor.engine.normalize import Worker
from verl_doctor.engine.readings import CONFIG_CHECK_TYPES, FRAME_LOOKBACK, SERVER_FAILED, Unknown

# What a finding rests on when a rule knows the message's words (alone, or inside a Ray envelope).
_WORDS = ("message", "envelope")
# The type of the exception a Ray wrapper carries: `RayTaskError(RuntimeError): ray::...`.
_WRAPPED_TYPE = re.compile(r"RayTaskError\((?P<type>\w+)\)")
_ENGINE_DIED = "FLOW013"  # the rollout engine died after it had started
_ENGINE_NOT_STARTED = "FLOW010"  # ... or failed to start
# How far above an exception line the raising statement Python printed (and the marks under
# it) stands.
_RAISED_ABOVE = 4
_ENDS_THE_TRACEBACK = 12  # lines from a traceback's last frame a clue read to the exception
_CLUE_TO_ITS_END = 60  # lines from a clue's frame to the exception its traceback ends in
# The kinds of error that explain the phase they end (the environment, a setting of the run):
# where it failed is then only where.
_ENDS_A_PHASE = frozenset(("env", "config"))

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def report_parts(
    a: Analyzer,
    line_totals: dict[str, int] | None = None,
    progress_at: dict[str, int] | None = None,
    last_scores: dict[str, float] | None = None,
) -> tuple[list[Any], list[Any], list[Any], dict[str, Any]]:
    """(findings, warnings, unrecognized, context); `line_totals` (lines per source) lets a
    warning that ends its log stand for the hang that followed it, unless `progress_at` (each
    source's last line showing training going on) says training went on after it; `last_scores`
    (each source's last mean score logged) lets a warning that costs a sample its score stand for
    a run in which no sample scored."""
    from verl_doctor.engine.report import Evidence, Finding, FixOut, Unrecognized, WorkerRef

    a.settle()
    context = a.context.to_dict()
    findings: list[Finding] = []
    states = [(s, "error") for s in a.states.values()]
    states += [(s, "warning") for s in a.warning_states.values() if s.rule.id not in a.states]
    for state, severity in states:
        rule, first = state.rule, state.first
        assert first is not None
        groups = a.groups_of(state)
        env_phase = a._envelope_phase(first)
        if env_phase[0]:
            state.phase, state.phase_detail = env_phase
        workers = state.workers or state.envelope_workers
        count = state.count or state.envelope_count
        placed = _one_per_process(workers.values())
        findings.append(
            Finding(
                rule=rule.id,
                name=rule.name,
                title=pick(rule.title, a.lang),
                category=rule.category,
                symptom=rule.symptom,
                confidence=state.best_conf,
                first_line=first.number,
                source=first.source,
                count=max(count, 1),
                evidence=tuple(Evidence(e.source, e.number, e.raw.rstrip("\r\n")) for e in state.evidence),
                cause=fill_placeholders(pick(rule.cause, a.lang), groups),
                fixes=tuple(_fixes(a, rule, context, groups, FixOut, state)),
                pitfalls=tuple(pick(p, a.lang) for p in rule.pitfalls),
                references=rule.references,
                workers=tuple(WorkerRef(w.actor, w.pid, w.ip, w.rank) for w in placed),
                hosts=tuple(sorted(state.hosts)),
                workers_total=max(state.workers_total - (len(workers) - len(placed)), len(placed)),
                phase=state.phase,
                phase_detail=state.phase_detail,
                facts=tuple(sorted(groups.items())),
                origin=rule.origin,
                replaces=rule.replaces,
                basis=state.basis,
                severity=severity,
                rule_file=None if rule.origin == "built-in" else rule.path,
            )
        )
    order = {s: i for i, s in enumerate(a.sources_order)}
    # Two rules sure of the same line: the catalog's order decides (folders env, config, ...
    # are read in a fixed order), never the order the prefilter happened to find them in.
    position = {state.rule.id: state.rule.position for state, _ in states}
    # (pieces of one flattened line share its number: the earlier piece first)
    piece = {state.rule.id: state.first.piece if state.first else 0 for state, _ in states}

    def rank(f: Finding) -> tuple[object, ...]:
        return (
            f.symptom,
            _CONF_RANK[f.confidence],
            order.get(f.source, 0),
            f.first_line,
            piece[f.rule],
            position[f.rule],
        )

    findings.sort(key=rank)
    warnings = [f for f in findings if f.severity == "warning"]
    findings = [f for f in findings if f.severity != "warning"]
    # An answer from the exception's class alone yields to a rule that explains the same line
    # (by its words or by the traceback's shape), or that is sure of its message in the same
    # traceback (the exception a chained one wraps); a guess from the shape yields to words.
    findings = sorted(_without_absorbed(a, findings), key=rank)  # (an absorbing finding may be surer now)

    # Where a finding's evidence stands: its line, and the piece of a flattened line (pieces of
    # one pasted line are lines of their own).
    def spots(f: Finding) -> set[tuple[str, int, int]]:
        state = a.states.get(f.rule)
        if state is None:
            return {(e.source, e.line, 0) for e in f.evidence}
        return {(e.source, e.number, e.piece) for e in state.evidence}

    def first_spot(f: Finding) -> tuple[str, int, int]:
        state = a.states.get(f.rule)
        first = state.first if state is not None else None
        return (first.source, first.number, first.piece) if first else (f.source, f.first_line, 0)

    by_words = {spot for f in findings if f.basis in _WORDS for spot in spots(f)}
    by_shape = {spot for f in findings if f.basis == "clue" for spot in spots(f)}
    # (a surer reading of a traceback's shape than a low one of the same lines: `IndexError` in
    # copy_to_local called on the model's path, not only somewhere in copy_to_local)
    by_surer_shape = {
        spot for f in findings if f.basis == "clue" and f.confidence != "low" for spot in spots(f)
    }
    sure = [f for f in findings if f.confidence == "high" and not f.symptom and f.basis == "message"]

    # An exception that says the environment is wrong (a package missing or of another release)
    # is the answer wherever it was raised: the traceback's shape then only says where.
    by_env_class = {
        spot for f in findings if f.basis.startswith("exception") and f.category == "env" for spot in spots(f)
    }

    decisive = by_words | by_env_class
    # (what a rule knows by its words, the symptoms' too: a collective that timed out)
    known_words = [f for f in findings if f.basis == "message" and f.confidence == "high"]

    def superseded(f: Finding) -> bool:
        if f.basis == "envelope":
            # A Ray wrapper naming only the type of what a method raised (`RayTaskError(RuntimeError):
            # ray::WorkerDict.actor_rollout_save_checkpoint()`) yields to the exception it wraps,
            # printed below it, when a rule knows that one by its words: what failed inside is the
            # answer (a collective that timed out, memory that ran out while saving).
            wrapped = {m["type"] for e in f.evidence if (m := _WRAPPED_TYPE.search(e.text))}
            return any(
                g.rule != f.rule
                and e.source == f.source
                and 0 < e.line - f.first_line <= FRAME_LOOKBACK
                and any(re.search(rf"(?:^|[\s.]){t}: ", e.text) for t in wrapped)
                for g in known_words
                for e in g.evidence
            )
        if f.basis == "clue":
            # (nor does the shape of a traceback whose last lines a rule is sure of: the raising
            # statement it knows right above the exception the clue read)
            # (nor the frames of a traceback that ends in a message a rule is sure of: where it
            # failed, the weight sync, is what the message's own rule explains)
            last = max((spot[1] for spot in spots(f) if spot[0] == f.source), default=f.first_line)
            return (
                bool(spots(f) & decisive)
                or (f.confidence == "low" and bool(spots(f) & by_surer_shape))
                or any(
                    e.source == f.source
                    and (
                        0 < f.first_line - e.line <= _RAISED_ABOVE
                        or (g.category in _ENDS_A_PHASE and 0 < e.line - last <= _ENDS_THE_TRACEBACK)
                    )
                    for g in sure
                    for e in g.evidence
                )
            )
        return f.basis.startswith("exception") and (
            first_spot(f) in by_words
            or (first_spot(f) in by_shape and f.category != "env")
            or any(g.source == f.source and abs(g.first_line - f.first_line) <= FRAME_LOOKBACK for g in sure)
        )

    findings = _one_answer_per_chain(f for f in findings if not superseded(f))
    promoted = _promoted_warnings(
        a, warnings, findings, line_totals or {}, progress_at or {}, last_scores or {}
    )
    warnings = [f for f in warnings if f.rule not in {p.rule for p in promoted}]
    errors = findings
    weak = [f for f in errors if f.confidence == "low"]
    if weak and (
        any((f.confidence == "high" or f.basis.startswith("exception")) and not f.symptom for f in errors)
        or (a._unknown and not any(f.confidence == "medium" and not f.symptom for f in errors))
    ):
        # Low-confidence findings are guesses from traceback shape for when the decisive
        # message was cut off. Once a decisive message is in the log, known or not, a guess
        # must not stand above it: a known one (by its words or its exception's class) makes
        # them noise, an unknown one keeps them only as a hint on it.
        findings = [f for f in findings if f.confidence != "low"]
    else:
        weak = []
    hint = None
    if weak and a._unknown:
        hint = "possibly related: " + "; ".join(f"{f.rule} {f.title}" for f in weak)
    findings, echoes = _without_echoes(a, findings)
    if a._unknown and not findings and not promoted:
        # (a warning the failure followed, `not enough KV cache space`, may be what led to it)
        # (only one printed before an error no rule knows: Ray's complaints after a crash are not)
        raised = [(u.line.source, u.line.number) for u in a._unknown.values()]
        related = [
            f
            for f in warnings
            if a.warning_states[f.rule].rule.fatal_at_end is None
            and any(f.source == src and f.first_line < number for src, number in raised)
        ]
        if related:
            hint = _join_hints(
                hint,
                "possibly related: "
                + "; ".join(f"{f.rule} {f.title} (a warning before it)" for f in related),
            )
    if echoes:
        hint = _join_hints(hint, "followed by: " + "; ".join(f"{f.rule} {f.title}" for f in echoes))
    unrecognized = [
        Unrecognized(
            source=u.line.source,
            line=u.line.number,
            text=u.line.raw.rstrip("\r\n"),
            exception=u.exc.qualified,
            count=u.count,
            phase=u.phase,
            verl_frame=u.verl_frame,
            fingerprint=fingerprint(u.exc.type, u.exc.message),
            hint=_join_hints(_config_hint(a, u), _server_hint(u), hint if i == 0 else None),
        )
        for i, u in enumerate(a._unknown.values())
    ]
    if not findings and not unrecognized:
        unrecognized = _echo_entries(a, Unrecognized)
    ranked = sorted(findings + promoted, key=rank)
    _message_before_guess(ranked)
    _wrapped_reading_before_wrapper(ranked)
    return ranked, warnings, unrecognized, context


def _without_absorbed(a: Analyzer, findings: list[Any]) -> list[Any]:
    """Findings a rule that `absorbs` their code replaces: both from one stretch of log (within
    FRAME_LOOKBACK lines of one source). The absorbing rule says what failed around the absorbed
    message (the merger, a connect that never reached its cluster), however sure that message is."""
    rules = {s.rule.id: s.rule for s in a.states.values()}
    absorbing = [f for f in findings if rules[f.rule].absorbs]
    if not absorbing:
        return findings

    def takes_place_of(f: Any, g: Any) -> bool:
        return (
            g.rule in rules[f.rule].absorbs
            and not _names_the_missing_module(g, f)
            and g.source == f.source
            and abs(g.first_line - f.first_line) <= FRAME_LOOKBACK
            # (a hint, low, never hides what is surer than it: a wrapper's "consider setting ...")
            and (f.confidence != "low" or g.confidence == "low")
        )

    kept = []
    for g in findings:
        if any(takes_place_of(f, g) for f in absorbing):
            continue
        if any(
            _names_the_missing_module(f, g)
            and f.source == g.source
            and 0 < f.first_line - g.first_line <= FRAME_LOOKBACK
            for f in findings
        ):
            continue  # (the class path that named it says more: the user's module, not a package)
        # The absorbing finding rests on what it absorbed too: a merger's traceback (a clue) that
        # ends in a decisive `No space left on device` is as sure as that message.
        sure = [
            h
            for h in findings
            if takes_place_of(g, h) and _CONF_RANK[h.confidence] < _CONF_RANK[g.confidence]
        ]
        if sure:
            best = min(sure, key=lambda h: _CONF_RANK[h.confidence])
            g = replace(g, confidence=best.confidence, basis=best.basis)
        kept.append(g)
    return kept


def _names_the_missing_module(named: Any, missing: Any) -> bool:
    """Whether `named` (a class path the run gave, `Error loading 'agents.loop.SQLAgentLoop'`)
    starts with the module `missing` (`No module named 'agents'`) says is not importable, and no
    known package goes by that name: the user's own module, not a dependency to install."""
    from verl_doctor.engine.fallbacks import known_package

    module = dict(missing.facts).get("module")
    path = dict(named.facts).get("object_name")
    if missing.rule != "ENV009" or not module or not path or "." not in path:
        return False
    return path.split(".")[0] == module.split(".")[0] and known_package(module.split(".")[0]) is None


def _one_answer_per_chain(findings: Iterable[Any]) -> list[Any]:
    """Answers from exceptions' classes about one package in one stretch of log: a chained
    traceback raising again about what its cause said (`bitsandbytes version is wrong`, then
    `Please install bitsandbytes>=0.46.1`). The first printed, the cause, is the answer."""
    kept: list[Any] = []
    first_about: dict[tuple[str, str], int] = {}
    for f in sorted(findings, key=lambda f: (f.source, f.first_line)):
        facts = dict(f.facts)
        about = facts.get("package") or facts.get("pkg") or facts.get("module")
        if f.basis.startswith("exception") and about:
            seen = first_about.get((f.source, about))
            if seen is not None and f.first_line - seen <= FRAME_LOOKBACK:
                continue
            first_about[(f.source, about)] = f.first_line
        kept.append(f)
    return kept


def _promoted_warnings(
    a: Analyzer,
    warnings: list[Any],
    errors: list[Any],
    totals: dict[str, int],
    progress_at: dict[str, int],
    last_scores: dict[str, float],
) -> list[Any]:
    """Warnings that stand for the failure: with no known error, a warning is the best
    answer when the log only shows that something died (low confidence), or when it is
    the last thing a log printed and its rule says such a warning precedes a hang, and
    training did not go on after it, or when it was met as often as its rule says makes it
    the failure (each one a sample scored 0 or a weight skipped), or its rule says it costs a
    sample its score and the last mean score the run logged is 0, and no exception ended the
    run. (An exception no rule knows that ends the log is the decisive line: a warning is
    then only a hint on it.)"""
    if not warnings or any(not f.symptom for f in errors):
        return []
    failed = bool(a._echoes) and not a._unknown
    out = []
    for f in warnings:
        state = a.warning_states[f.rule]
        last = state.evidence[-1].number if state.evidence else f.first_line
        seen_last = max(last, state.last_line)
        at_end = (
            state.rule.fatal_at_end is not None
            and totals.get(f.source, last) - seen_last <= state.rule.fatal_at_end
            and progress_at.get(f.source, 0) <= seen_last
            # (an exception raised after it ended the log, not a hang)
            and not any(u.line.source == f.source and u.line.number > last for u in a._unknown.values())
        )
        if at_end:  # the rule holds such a warning to precede a hang: as sure as its hit
            out.append(replace(f, basis=f"warning: {f.basis}"))
        elif (
            state.rule.fatal_when_repeated is not None
            and f.count >= state.rule.fatal_when_repeated
            and not _ended_by_an_exception(a, progress_at)
        ):
            out.append(replace(f, confidence="medium", basis=f"repeated: {f.count}"))
        elif (
            state.rule.fatal_when_scored_zero
            and last_scores.get(f.source) == 0.0
            and not _ended_by_an_exception(a, progress_at)
        ):
            out.append(replace(f, confidence="medium", basis="unscored: 0"))
        elif failed and state.rule.fatal_at_end is None:
            out.append(replace(f, confidence="low", basis=f"warning: {f.basis}"))
    return out


def _ended_by_an_exception(a: Analyzer, progress_at: dict[str, int]) -> bool:
    """Whether an exception no rule knows was raised after the last line of its log that shows
    training going on (one the run caught and logged, then trained on, ended nothing)."""
    return any(u.line.number > progress_at.get(u.line.source, 0) for u in a._unknown.values())


def _server_hint(u: Unknown) -> str | None:
    """A server's own failure its client saw (an HTTP 5xx): say where its error is."""
    if not (u.peer_lost and SERVER_FAILED.search(f"{u.exc.type}: {u.exc.message}")):
        return None
    return (
        "the server this request went to failed on its side (an HTTP 5xx): its own error is in that "
        "server's log"
    )


def _config_hint(a: Analyzer, u: Unknown) -> str | None:
    """An error verl raised that names config options: say which, so the user knows where to look."""
    if u.verl_frame is None or u.exc.type not in CONFIG_CHECK_TYPES:
        return None
    from verl_doctor.catalog.verl_keys import keys_named_in

    named = keys_named_in(u.exc.message, a.context.to_dict().get("versions", {}).get("verl"))
    if not named:
        return None
    return (
        f"raised by verl's own check ({u.verl_frame}); it names the config option"
        + ("s " if len(named) > 1 else " ")
        + ", ".join(named)
        + ": check the value you set"
    )


def _echo_entries(a: Analyzer, cls: Any) -> list[Any]:
    """Only envelopes and echoes survived: say what is known and where to look."""
    out: list[Any] = []
    for line, inner in a._echoes[:5]:  # the analyzer keeps one line per distinct echo
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
                source=line.source,
                line=line.number,
                text=line.raw.rstrip("\r\n"),
                exception=inner,
                kind="echo",
                phase=phase,
                hint=hint,
            )
        )
    return out


def _fixes(
    a: Analyzer, rule: Rule, context: dict[str, Any], groups: dict[str, str], cls: Any, state: Any
) -> list[Any]:
    from verl_doctor.catalog.verl_keys import overrides_in

    verl_version = context.get("versions", {}).get("verl")
    overrides: dict[str, str] = context.get("overrides", {})
    out = []
    if rule.suggest == "config-key" and groups.get("key"):
        from verl_doctor.engine.suggest import config_key_steps

        for step, commands in config_key_steps(
            groups["key"],
            groups.get("value"),
            verl_version,
            overrides,
            a.lang,
            interpolated=bool(groups.get("interpolation")),
        ):
            out.append(cls(step, commands, None, ()))
    applicable = [
        fix
        for fix in rule.fixes
        if not (fix.verl and verl_version and satisfies(verl_version, fix.verl) is False)
        and not (fix.when and not groups.get(fix.when))
        and not (fix.unless and groups.get(fix.unless))
    ]
    if any(fix.exclusive for fix in applicable):
        # A step for what this log shows: the steps written for the rule's other messages go.
        applicable = [fix for fix in applicable if fix.when]
    said = ""
    if state.basis.startswith("exception"):
        # Read from the exception's class, not from a message the rule's steps were written for:
        # a step that sets options stays only when the message (or what was read from it) names one.
        said = " ".join([e.raw for e in state.evidence] + list(groups.values()))
        applicable = [
            fix
            for fix in applicable
            if fix.when or not (keys := overrides_in(fix.commands)) or any(_named(k, said) for k, _ in keys)
        ]
    for fix in applicable:
        notes: tuple[str, ...] = ()
        if overrides:
            keys = overrides_in(fix.commands)
            set_here = [k for k, _ in keys if k in overrides]
            if said and not keys:
                set_here = [k for k in overrides if _named(k, said)]  # the settings the message names
            notes = tuple(f"you set {k}={overrides[k]}" for k in set_here)
        commands = tuple(fill_placeholders(c, groups, keep_unknown=True) for c in fix.commands)
        out.append(cls(fill_placeholders(pick(fix.step, a.lang), groups), commands, fix.verl, notes))
    return out


def _named(key: str, text: str) -> bool:
    """Whether `text` names the setting `key`: the whole key, or a part of it specific enough to
    be an option's name (`env_vars` in `runtime_env['env_vars'] must be ...`)."""
    from verl_doctor.catalog.verl_keys import is_option_name

    key = key.lstrip("+~")
    parts = key.split(".")
    # (a top-level section, `actor_rollout_ref`, is named by every key under it: no option's name)
    return key in text or any(
        is_option_name(part) and re.search(rf"\b{re.escape(part)}\b", text)
        for part in parts[len(parts) > 1 :]
    )


def _without_echoes(a: Analyzer, errors: list[Any]) -> tuple[list[Any], list[Any]]:
    """(errors kept, echoes to name on the first unrecognized exception). A finding whose rule is
    an `echo` only says a process died, did not start or timed out: after a failure a rule
    explains it adds nothing and goes; when every error is such an echo and an exception no rule
    knows is in the same source (before it, or after it: a Ray envelope and vLLM's "EngineCore
    failed to start" are printed above the traceback), that exception leads and the echoes are
    named on it. A bare exception (`EOFError`) is itself an echo and leads nothing, and so is a
    client that lost its server (`ServerDisconnectedError: Server disconnected`)."""
    # (an echo rule credited with an exception the log prints, read from its words and its
    # traceback, says why: the engine could not build the model, so it never started)
    echoes = [f for f in errors if a.states[f.rule].rule.echo and not f.basis.startswith("exception")]
    # Echoes are symptoms: a root cause the log says in words makes them go; one read from the
    # traceback's shape alone (a clue) does not hide a message the log does print.
    if any(not f.symptom and f.confidence != "low" and f.basis != "clue" for f in errors):
        return [f for f in errors if f not in echoes], []
    if not errors or len(echoes) < len(errors):
        return errors, []
    unknowns = [u for u in a._unknown.values() if u.exc.message.strip() and not u.peer_lost]
    sources = {u.line.source for u in unknowns}
    if all(f.source in sources for f in errors):
        # An exception the rollout engine's own code raised, no rule knowing it, that the engine
        # then died of: that the engine died is what the log says of it (its message is shown).
        # Raised while the engine was being built (its model loading, its constructors), the
        # engine never started: its death says nothing the exception does not, but that it
        # failed to start, said in the log, is what the exception did (its message is shown).
        engine = {u.line.source for u in unknowns if u.raised_in in ROLLOUT_ENGINES and not u.starting}
        building = {u.line.source for u in unknowns if u.raised_in in ROLLOUT_ENGINES and u.starting}
        died = [
            f
            for f in echoes
            if (f.rule == _ENGINE_DIED and f.source in engine)
            or (f.rule == _ENGINE_NOT_STARTED and f.source in building)
        ]
        return died, [f for f in errors if f not in died]
    return errors, []


def _message_before_guess(findings: list[Any]) -> None:
    """A guess from a traceback's shape (a clue) that leads is put after a message the log
    states in words before it, in the same source: what was printed first is the nearer cause
    (the rollout engine died, then the weight sync that needed it failed). Else it is put after
    a reading, as sure as it, of the exception that ends its traceback (within _CLUE_TO_ITS_END
    lines after it): the exception's own words say what the traceback's shape only hints at."""
    if not findings or findings[0].basis != "clue":
        return
    guess = findings[0]
    earlier = [
        f
        for f in findings
        if f.basis == "message"
        and f.confidence == "high"
        and f.severity != "warning"
        and f.source == guess.source
        and f.first_line < guess.first_line
    ]
    if earlier:
        findings.remove(earlier[0])
        findings.insert(0, earlier[0])
    else:
        _reading_of_its_exception_first(findings, "clue", _CLUE_TO_ITS_END)


def _wrapped_reading_before_wrapper(findings: list[Any]) -> None:
    """A Ray wrapper that leads with only the type of what a method raised (and the phase it
    failed in) is put after a reading of an exception printed inside the traceback it wraps,
    as sure as it: the exception's own words (a config class refusing a value, chained under
    the type the wrapper names) say more than its type and where it happened."""
    _reading_of_its_exception_first(findings, "envelope", FRAME_LOOKBACK)


def _reading_of_its_exception_first(findings: list[Any], lead_basis: str, within: int) -> None:
    """Put first, when the leading finding has `lead_basis`, the first reading of an exception
    (not a symptom, as sure as the lead, in its source) printed up to `within` lines after it."""
    if not findings or findings[0].basis != lead_basis:
        return
    lead = findings[0]
    inside = [
        f
        for f in findings
        if f.basis.startswith("exception")
        and f.confidence == lead.confidence
        and not f.symptom
        and f.severity != "warning"
        and f.source == lead.source
        and 0 < f.first_line - lead.first_line <= within
    ]
    if inside:
        findings.remove(inside[0])
        findings.insert(0, inside[0])


def _join_hints(*hints: str | None) -> str | None:
    return "; ".join(h for h in hints if h) or None


def _one_per_process(workers: Iterable[Worker]) -> list[Worker]:
    """The workers, without a prefix that lacks the host (`(TaskRunner pid=77123)`) when the
    same process also printed with it (`(TaskRunner pid=77123, ip=10.0.0.1)`)."""
    workers = list(workers)
    placed = {(w.actor, w.pid, w.rank) for w in workers if w.ip is not None}
    return [w for w in workers if w.ip is not None or (w.actor, w.pid, w.rank) not in placed]
