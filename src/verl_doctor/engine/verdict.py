"""What a line's text alone says to the catalog, worked out once per distinct text.

`Verdict` holds everything `Analyzer.add` learns from a normalized line's text: which literals
occur, which rules' signatures match (with their groups), which clue patterns match, the
traceback frame, the Ray envelope and the exception shape. What depends on the line's place in
the log (worker, number, the lines before) stays in the analyzer, which replays a verdict.

`VerdictMemo` keeps the verdicts of recent texts, so the thousandth copy of a warning costs a
dictionary lookup instead of regex runs. Texts that differ only in their ASCII digits (pids,
ranks, steps, timings, ports) share one verdict when that is provably safe: every pattern that
decided it treats all digits alike (checked on the parsed pattern), and no literal holding a
digit could tell the texts apart. Captured groups are kept as spans and read from each line's
own text, so a copy with other numbers reports its own numbers.
"""

from __future__ import annotations

import re
from time import perf_counter

from verl_doctor.catalog.load import Catalog, Target
from verl_doctor.catalog.rule import Rule
from verl_doctor.common.lazy_re import lazy_compile
from verl_doctor.engine.line_kinds import (
    PATTERNS,
    WRAPPER_TYPES,
    Envelope,
    ExceptionLine,
    Frame,
    exception_line,
    frame_match,
    is_echo,
)
from verl_doctor.engine.line_kinds import envelope as parse_envelope
from verl_doctor.engine.normalize import ASCII_DIGIT, mask_digits
from verl_doctor.engine.prefilter import LineSearcher

TYPE_CHECKING = False  # typing is only needed by type checkers; importing it costs start-up time
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    Spans = dict[str, tuple[int, int]]
    Plan = tuple[frozenset[str], list[tuple[Rule, list[int]]], list[tuple[Rule, Target]], frozenset[int]]
    OnTimeout = Callable[[Rule, Any], None]

REGEX_TIMEOUT = 0.05  # seconds per search of a user rule's regex on one line
MEMO_ENTRIES = 4096  # verdicts kept (first in, first out)
MEMO_CHARS = 4 * 1024 * 1024  # and at most this many characters of keys
MEMO_MAX_TEXT = 2048  # longer texts are classified afresh each time
PLAN_ENTRIES = 1024  # sets of literals remembered with what they ask for


def search(rule: Rule, pattern: Any, text: str, line: Any, on_timeout: OnTimeout) -> Any:
    """`pattern.search(text)`; a user rule's regex (the `regex` module) under a timeout."""
    if isinstance(pattern, re.Pattern):
        return pattern.search(text)
    try:
        return pattern.search(text, timeout=REGEX_TIMEOUT)
    except TimeoutError:
        on_timeout(rule, line)
        return None


def _spans(match: Any) -> Spans:
    return {k: match.span(k) for k, v in match.groupdict().items() if v}


# A traceback's source line printing the statement that raises, `raise ValueError(f"Unsupported
# file format: {parquet_file}")`, reads like the message with an f-string's field for its value:
# it is the template, and the message itself follows on the exception's line.
_STATEMENT = lazy_compile(r"\b(?:raise|assert)\b|\bf[\"']")
F_STRING_FIELD = lazy_compile(r"\{[\w.\[\]'\"!:]*\}")  # an f-string's field, as source code prints it


def template_in_source(text: str, match: Any) -> bool:
    fields = [v for v in match.groupdict().values() if v and F_STRING_FIELD.match(v)]
    return bool(fields) and _STATEMENT.search(text, 0, match.start()) is not None


def groups_at(text: str, spans: Spans) -> dict[str, str]:
    return {k: text[s:e] for k, (s, e) in spans.items()}


class Verdict:
    """One text's classification; see the module docstring. Lazily computed parts (facts,
    a clue's exclusions) are cached here too, unless they could differ for a text that
    shares this verdict."""

    __slots__ = (
        "kinds",
        "sigs",
        "clues",
        "clue_hits",
        "facts",
        "frame",
        "envelope",
        "exception",
        "echo",
        "envelope_echo",
        "shared",
        "digit_safe",
        "pure",
        "_lazy",
    )

    def __init__(self) -> None:
        self.kinds: frozenset[str] = frozenset()
        # (rule, groups of its match or None, whether the signature that matched is a warning)
        self.sigs: list[tuple[Rule, Spans | None, bool]] = []
        self.clues: list[tuple[Rule, Target]] = []
        self.clue_hits: list[bool] = []
        self.facts: frozenset[int] = frozenset()
        self.frame: Spans | None = None
        self.envelope = False  # a Ray/Hydra envelope line
        self.exception = False  # an exception line no rule matched
        self.echo = False  # an echo that only points elsewhere (no envelope)
        self.envelope_echo = False  # an envelope around an error no rule matched
        self.shared = False  # stored under the digit-masked key
        self.digit_safe = True  # every pattern run so far treats all digits alike
        self.pure: bool | None = None  # the analyzer's answer, once asked (Analyzer._is_pure)
        self._lazy: dict[tuple[str, int], Any] = {}

    def frame_of(self, text: str) -> Frame | None:
        s = self.frame
        if s is None:
            return None
        return Frame(text[slice(*s["path"])], int(text[slice(*s["line"])]), text[slice(*s["func"])])

    def envelope_of(self, text: str) -> Envelope | None:
        return parse_envelope(text) if self.envelope else None

    def exception_of(self, text: str) -> ExceptionLine | None:
        return exception_line(text) if self.exception else None


class Classifier:
    """Builds verdicts for one catalog; `VerdictMemo` in front of it reuses them."""

    def __init__(self, catalog: Catalog, searcher: LineSearcher, on_timeout: OnTimeout) -> None:
        self.catalog = catalog
        self.searcher = searcher
        self.on_timeout = on_timeout
        self._blind: dict[int, bool] = {}
        self._needs: dict[int, str | None] = {}  # pattern -> digit-free text every match holds
        self.timeouts = 0  # regex searches that gave up
        # Rules switched off for the rest of the run, and where a user rule's search time goes
        # (the analyzer owns both: no rule can stall a run).
        self.switched_off: set[str] = set()
        self.on_spent: Callable[[Rule, float], None] | None = None
        self._plans: dict[tuple[int, ...], Plan] = {}

    def _run(self, rule: Rule, pattern: Any, text: str, line: Any, verdict: Verdict) -> Any:
        if rule.id in self.switched_off:
            return None
        if isinstance(pattern, re.Pattern) or self.on_spent is None:
            found = search(rule, pattern, text, line, self._gave_up)
        else:
            start = perf_counter()
            try:
                found = search(rule, pattern, text, line, self._gave_up)
            finally:
                self.on_spent(rule, perf_counter() - start)
        if (
            verdict.digit_safe
            and not self.blind(pattern)
            and (found or not self._absent_for_all(pattern, text))
        ):
            verdict.digit_safe = False
        return found

    def _absent_for_all(self, pattern: Any, text: str) -> bool:
        """Whether a pattern that tells digits apart fails on every text alike but for digits:
        true when a piece of text it always needs (digit-free) is not in `text` at all."""
        need = self._needs.get(id(pattern), _MISSING_TEXT)
        if need is _MISSING_TEXT:
            need = self._needs[id(pattern)] = required_text(pattern.pattern, pattern.flags)
        return need is not None and need not in text

    def _gave_up(self, rule: Rule, line: Any) -> None:
        self.timeouts += 1
        self.on_timeout(rule, line)

    def blind(self, pattern: Any) -> bool:
        known = self._blind.get(id(pattern))
        if known is None:
            known = self._blind[id(pattern)] = digit_blind(pattern.pattern, pattern.flags)
        return known

    def _plan(self, present: set[int]) -> Plan:
        """What the literals in `present` ask for: kinds, each rule's signatures (in the order
        they are tried), clue patterns, rules with facts."""
        kinds: set[str] = set()
        sigs: dict[int, set[int]] = {}
        clues: list[tuple[Rule, Target]] = []
        facts: set[int] = set()
        rules, targets = self.catalog.rules, self.catalog.targets
        for li in present:
            for t in targets[li]:
                if t.rule < 0:
                    kinds.add(t.kind)
                elif t.kind == "sig":
                    sigs.setdefault(t.rule, set()).add(t.index)
                elif t.kind == "clue":
                    clues.append((rules[t.rule], t))
                else:
                    facts.add(t.rule)
        ordered = [(rules[ri], sorted(idx)) for ri, idx in sigs.items()]
        return frozenset(kinds), ordered, clues, frozenset(facts)

    def classify(self, text: str, is_config: bool, line: Any) -> Verdict | None:
        """The verdict for `text`, or None when no literal occurs in it."""
        present = self.searcher.present(text)
        if not present:
            return None
        v = Verdict()
        key = tuple(present)  # in the set's order, which decides the order rules are tried in
        plan = self._plans.get(key)
        if plan is None:
            if len(self._plans) >= PLAN_ENTRIES:
                self._plans.clear()
            plan = self._plans[key] = self._plan(present)
        v.kinds, sigs, v.clues, v.facts = plan
        v.digit_safe = self.searcher.masks_safely(text)
        if is_config:
            return v  # a config dump is context only: nothing else is asked of it
        kinds = v.kinds
        if "frame" in kinds:
            m = frame_match(text)
            v.frame = {k: m.span(k) for k in ("path", "line", "func")} if m else None
        if "envelope" in kinds:
            v.envelope = parse_envelope(text) is not None
        hit_any = False
        for rule, sig_idx in sigs:
            match = None
            for i in sig_idx:
                match = self._run(rule, rule.signature_re(i), text, line, v)
                if match:
                    break
            if match and not self.excluded(rule, text, line, v) and not template_in_source(text, match):
                v.sigs.append((rule, _spans(match), rule.is_warning(i)))
                hit_any = True
            else:
                v.sigs.append((rule, None, False))
        for rule, t in v.clues:
            v.clue_hits.append(bool(self._run(rule, rule.clue_res(t.index)[t.part], text, line, v)))
        # As Analyzer.add decides: an unknown exception, or an echo pointing elsewhere.
        if not hit_any and v.frame is None and "exception" in kinds:
            if v.envelope:
                v.envelope_echo = True
            else:
                # Ray's RaySystemError wrapper carries a missing module in its own message.
                v.exception = exception_line(text) is not None or "System error: " in text
                v.echo = not v.exception and is_echo(text)
        elif not hit_any and not v.envelope:
            v.echo = is_echo(text)
        if kinds & {"frame", "envelope", "exception"} and not _classify_patterns_blind():
            v.digit_safe = False
        return v

    def excluded(self, rule: Rule, text: str, line: Any, v: Verdict) -> bool:
        return any(self._run(rule, ex, text, line, v) for ex in rule.exclude_res)

    def lazy_excluded(self, v: Verdict, rule: Rule, text: str, line: Any) -> bool:
        """Whether `rule`'s exclusions match, cached in the verdict when that is safe."""
        key = ("exclude", rule.position)
        if key in v._lazy:
            return bool(v._lazy[key])
        probe, timeouts = Verdict(), self.timeouts
        found = self.excluded(rule, text, line, probe)
        if (not v.shared or probe.digit_safe) and timeouts == self.timeouts:
            v._lazy[key] = found
        return found

    def lazy_facts(self, v: Verdict, rule: Rule, text: str, line: Any) -> list[dict[str, str]]:
        """Groups of each of `rule`'s fact patterns that match `text`."""
        key = ("facts", rule.position)
        spans = v._lazy.get(key)
        if spans is None:
            probe, timeouts = Verdict(), self.timeouts
            spans = []
            for pattern in rule.fact_res:
                m = self._run(rule, pattern, text, line, probe)
                if m:
                    spans.append(_spans(m))
            if (not v.shared or probe.digit_safe) and timeouts == self.timeouts:
                v._lazy[key] = spans
        return [groups_at(text, s) for s in spans]


class VerdictMemo:
    """Recent verdicts by exact text, and by digit-masked text where sharing is safe.
    Bounded in entries and characters; the oldest go first."""

    def __init__(self, classifier: Classifier, enabled: bool = True) -> None:
        self.classifier = classifier
        self.enabled = enabled
        self._exact: dict[str, Verdict | None] = {}
        self._masked: dict[bytes, Verdict | None] = {}
        self._chars = 0
        self.hits = 0

    def verdict(self, text: str, is_config: bool, line: Any) -> Verdict | None:
        if not self.enabled or len(text) > MEMO_MAX_TEXT:
            return self.classifier.classify(text, is_config, line)
        exact = self._exact.get(text, _MISSING)
        if exact is not _MISSING:
            self.hits += 1
            return exact
        masked = mask_digits(text)
        shared = self._masked.get(masked, _MISSING)
        if shared is not _MISSING:
            self.hits += 1
            return shared
        timeouts = self.classifier.timeouts
        v = self.classifier.classify(text, is_config, line)
        if self.classifier.timeouts != timeouts:
            return v  # a regex gave up on this text: do not remember a verdict it may not have reached
        self._make_room(len(text))
        if v is None and self.classifier.searcher.masks_safely(text):
            self._masked[masked] = v
        elif v is not None and v.digit_safe:
            v.shared = True
            self._masked[masked] = v
        else:
            self._exact[text] = v
        return v

    def _make_room(self, size: int) -> None:
        self._chars += size
        while len(self._exact) + len(self._masked) >= MEMO_ENTRIES or self._chars > MEMO_CHARS:
            table: dict[Any, Any] = self._masked if len(self._masked) >= len(self._exact) else self._exact
            if not table:
                break
            oldest = next(iter(table))
            del table[oldest]
            self._chars -= len(oldest)


_MISSING = Verdict()  # what a memo lookup returns for a text it does not hold


def digit_blind(source: str, flags: int = 0) -> bool:
    """True when the pattern cannot tell one ASCII digit from another: every literal, class
    and category it tests either takes all ten digits or none, and it has no back-references.
    Such a pattern matches texts alike but for their digits at the same spans, with the same
    groups. Patterns the standard parser does not read count as not blind."""
    try:
        from re import _parser as sre_parse  # type: ignore[attr-defined]
    except ImportError:  # pragma: no cover - Python < 3.11
        import sre_parse
    if flags & ~_KNOWN_FLAGS:
        return False  # e.g. the `regex` module's VERSION1 or FULLCASE: not what re parses
    try:
        parsed = sre_parse.parse(source, flags & _RE_FLAGS)
    except Exception:  # noqa: BLE001 - any pattern the parser rejects is simply not proven blind
        return False
    return _items_blind(parsed)


_MISSING_TEXT = "\0missing"  # a `_needs` lookup of a pattern not seen yet


def required_text(source: str, flags: int = 0) -> str | None:
    """The longest run of plain characters, none a digit, at the top level of the pattern: every
    match contains it (`ERR` of `ERR(?!99999)\\d{5} ...`). None when there is none, or when case or
    the syntax could make it otherwise."""
    try:
        from re import _constants as c
        from re import _parser as sre_parse  # type: ignore[attr-defined]
    except ImportError:  # pragma: no cover - Python < 3.11
        return None
    if flags & ~_KNOWN_FLAGS or flags & (re.I | re.X):
        return None
    try:
        parsed = sre_parse.parse(source, flags & _RE_FLAGS)
    except Exception:  # noqa: BLE001 - a pattern the parser rejects has no known piece
        return None
    if parsed.state.flags & (re.I | re.X):  # set inline: `(?i)...`
        return None
    best = run = ""
    for op, av in parsed:
        if op is c.LITERAL and not 48 <= av <= 57:
            run += chr(av)
            best = max(best, run, key=len)
        else:
            run = ""
    return best or None


_RE_FLAGS = re.I | re.M | re.S | re.X | re.A
_KNOWN_FLAGS = _RE_FLAGS | re.U | 0x2000  # 0x2000: regex.VERSION0, the re-compatible syntax


def _items_blind(items: Any) -> bool:
    from re import _constants as c

    for op, av in items:
        if op in (c.LITERAL, c.NOT_LITERAL):
            if 48 <= av <= 57:
                return False
        elif op is c.IN:
            if not _class_blind(av, c):
                return False
        elif op is c.BRANCH:
            if not all(_items_blind(sub) for sub in av[1]):
                return False
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT):
            if not _items_blind(av[2]):
                return False
        elif op is c.SUBPATTERN:
            if not _items_blind(av[3]):
                return False
        elif op is c.ATOMIC_GROUP:
            if not _items_blind(av):
                return False
        elif op in (c.ASSERT, c.ASSERT_NOT):
            if not _items_blind(av[1]):
                return False
        elif op not in (c.ANY, c.AT, c.CATEGORY):
            return False  # back-references, conditionals: not proven
    return True


def _class_blind(items: Any, c: Any) -> bool:
    taken = set()
    negate = False
    for op, av in items:
        if op is c.NEGATE:
            negate = True
        elif op is c.LITERAL:
            if 48 <= av <= 57:
                taken.add(av)
        elif op is c.RANGE:
            lo, hi = av
            taken.update(d for d in range(48, 58) if lo <= d <= hi)
        elif op is c.CATEGORY:
            pass  # digit, word, space categories and their negations take all digits or none
        else:
            return False
    if negate:
        taken = set(range(48, 58)) - taken
    return len(taken) in (0, 10)


_classify_blind: list[bool] = []


def _classify_patterns_blind() -> bool:
    if not _classify_blind:
        _classify_blind.append(
            all(digit_blind(p.pattern, p.flags) for p in PATTERNS)
            and not any(ASCII_DIGIT.search(t) for t in WRAPPER_TYPES)
        )
    return _classify_blind[0]
