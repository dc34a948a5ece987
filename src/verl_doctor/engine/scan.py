"""Streaming scan: bytes in, candidate lines out.

A block is searched once for the anchors (prefilter.BlockSearcher); only the lines around a hit
are cut out, decoded and normalized. Nothing is decoded or stripped for the rest of the block,
which keeps a gigabyte of healthy log close to the speed of reading it.

Line numbers count `\\n` (as editors and `grep -n` do); tqdm's `\\r` redraws split a line into
segments, each matched on its own. An input with `\\r` but no `\\n` in its first DECIDE_BYTES
uses `\\r` as its line end; until a `\\n` arrives or that much is read, the input is held back,
so the choice never depends on how the stream happens to be cut into blocks. A line longer
than MAX_CARRY is scanned in windows, so memory stays flat.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from verl_doctor.common.records import replace
from verl_doctor.engine.flattened import FLAT_SHORTEST, flattened_pieces
from verl_doctor.engine.normalize import (
    BARE_EXCEPTION_ENDS,
    NEW_RECORD,
    RECIPE_ENTRIES,
    RECIPE_MAX_TEXT,
    REWRITE_MARKERS,
    WRAPPED_WIDTH,
    Line,
    Recipe,
    mask_digits,
    normalize,
    strip_ansi,
)
from verl_doctor.engine.prefilter import BlockSearcher, LineSearcher
from verl_doctor.engine.spread_lines import spread_line, starts_spread_line

TYPE_CHECKING = False  # typing is only needed by type checkers; importing it costs start-up time
if TYPE_CHECKING:
    from typing import Any

MAX_CARRY = 1024 * 1024  # longest partial line kept between blocks
OVERLAP = 4096  # bytes of an over-long line kept so a literal across a window edge is found
MAX_SEGMENT = 16 * 1024  # text around a hit handed to the regexes (bounded confirm stage)
PREFIX_BYTES = 512  # start of an over-long line kept for its worker prefix
PARALLEL_BYTES = 256 * 1024  # blocks this large search anchor groups on threads
WRAP_MIN = 40  # a line this long may have been hard-wrapped: the lines after it come along
FOLLOW_BYTES = 1024  # how much of the lines after it
FOLLOW_LINES = 3
# A line that held no literal of its own, WRAPPED_WIDTH long or longer, may have been hard-wrapped
# into the candidate after it (the words a rule keys on fell past the cut): that candidate keeps
# its last BEFORE_BYTES.
BEFORE_BYTES = 1024
DECIDE_BYTES = 64 * 1024  # input read before choosing `\r` as the line end
_BARE_EXCEPTION = tuple(end.encode() for end in BARE_EXCEPTION_ENDS)
# Lines that show training going on: the trainer's progress bar (`tqdm(..., desc="Training
# Progress")`, verl/trainer/ppo/ray_trainer.py) and its console metrics (`step:12 - actor/...`,
# concat_dict_to_str in verl/utils/logger/aggregate_logger.py). Only where the last one stands is
# kept (`last_progress`): a warning that precedes a hang is no failure when training went on after
# it. Found with a search from each block's end, not by the prefilter, so they cost no analysis.
_PROGRESS_MARKS = (b"Training Progress", b"step:")
_PROGRESS_LINE = re.compile(rb"Training Progress:|(?:^|[\s)])step:\d+ - \S", re.MULTILINE)
_PROGRESS_TRIES = 8  # lines holding a mark but not a progress line looked at, per mark and block
# The mean score the trainer logs with its metrics (`critic/score/mean:0.0`, and validation's
# `val-core/openai/gsm8k/reward/mean@1:0.0`; numpy may print `np.float64(0.0)`): only the last one
# is kept (`last_score`), found with a search from each block's end as the progress lines are.
_SCORE_MARKS = (b"critic/score/mean:", b"/reward/mean@")
_SCORE_VALUE = re.compile(
    rb"(?:critic/score/mean|/reward/mean@\d+):\s*(?:np\.float\d+\()?(-?\d+(?:\.\d+)?(?:e-?\d+)?)"
)


class LineScanner:
    """Cuts candidate lines out of one source's byte stream."""

    def __init__(
        self,
        searcher: BlockSearcher,
        source: str,
        literals: LineSearcher | None = None,
        recipes: dict[bytes, Recipe] | None = None,
        wait_for_follow: bool = True,
        copies: tuple[dict[bytes, Any], Callable[[Any, str, int, str, str], None]] | None = None,
    ) -> None:
        self.searcher = searcher
        self.recipes = recipes  # when given, lines alike but for digits are normalized once
        self.literals = literals  # when given, segments holding none of them are dropped early
        self.source = source
        self.line_no = 1  # number of the first line in the carry
        self._carry = b""
        self._long_prefix: bytes | None = None  # start of the current over-long line
        self._cr_mode: bool | None = None
        self.bytes_seen = 0
        self.last_progress = 0  # number of the last line showing training going on (0: none yet)
        self.last_score: float | None = None  # the last mean score the metrics logged
        # Candidate lines waiting for the lines after them, which a block end cut off; lines
        # leave in order, so the answer never depends on where the input was cut into blocks.
        # [line_no, raw, prefix, follow bytes, complete, stripped, masked]
        self._waiting: list[list[Any]] = []
        self.wait_for_follow = wait_for_follow
        # Digit-masked segment -> whether it may match: copies of a line that differ in pids,
        # ranks, steps and timestamps are decided once (when the literals allow it). Remembered
        # only where the recipes are: both are the memo, which tests switch off to compare.
        self._decided: dict[bytes, bool] | None = {} if recipes is not None else None
        # (plans, take): digit-masked shapes of lines whose analysis reads nothing around them,
        # each with the analyzer's plan; a copy of one goes to `take(plan, source, line number,
        # raw, raw without colour codes)` at once, with no Line made and no line gathered.
        self._plans: dict[bytes, Any] | None = None
        if copies is not None:
            self._plans, self._take_copy = copies

    def feed(self, data: bytes | bytearray, size: int | None = None) -> Iterator[Line]:
        """Scan `data[:size]`. `data` may be a buffer the caller reuses once this is consumed:
        nothing but the short unfinished last line is copied out of it."""
        n = len(data) if size is None else size
        self.bytes_seen += n
        if self._cr_mode is None:
            if data.find(b"\n", 0, n) >= 0:
                self._cr_mode = False
            elif len(self._carry) + n < DECIDE_BYTES:
                self._carry += bytes(data[:n])  # undecided: wait for a newline or more input
                return
            else:
                self._decide_cr(b"\r" in data[:n])
        if self._cr_mode:
            data, n = bytes(data[:n]).replace(b"\r", b"\n"), n
        pos = 0
        if self._carry:
            first_nl = data.find(b"\n", 0, n)
            if first_nl < 0:
                yield from self._overlong(self._carry + bytes(data[:n]))
                return
            head = self._carry + bytes(data[: first_nl + 1])
            self._carry = b""
            yield from self._scan(head, 0, len(head))
            self._long_prefix = None
            pos = first_nl + 1
        last = data.rfind(b"\n", pos, n)
        if last < 0:
            yield from self._overlong(bytes(data[pos:n]))
            return
        yield from self._scan(data, pos, last + 1)
        self._carry = bytes(data[last + 1 : n])
        if len(self._carry) > MAX_CARRY:
            yield from self._overlong(self._carry)

    def _decide_cr(self, cr_in_block: bool = False) -> None:
        self._cr_mode = cr_in_block or b"\r" in self._carry
        if self._cr_mode:
            self._carry = self._carry.replace(b"\r", b"\n")

    def finish(self) -> Iterator[Line]:
        if self._cr_mode is None:
            self._decide_cr()
            if self._carry:
                # A `\r`-only input: its complete lines go through the normal scan.
                buf, self._carry = self._carry, b""
                yield from self.feed(buf)
                self.bytes_seen -= len(buf)
        if self._carry:
            buf, self._carry = self._carry + b"\n", b""
            yield from self._scan(buf, 0, len(buf))
        yield from self._release(final=True)
        self._long_prefix = None

    def _release(self, more: bytes = b"", final: bool = False) -> Iterator[Line]:
        """Give the waiting lines the bytes that follow them; emit those that are complete."""
        for item in self._waiting:
            if not item[4] and more:
                item[3] += more[: FOLLOW_BYTES - len(item[3])]
                item[4] = len(item[3]) >= FOLLOW_BYTES or item[3].count(b"\n") >= FOLLOW_LINES
        while self._waiting and (self._waiting[0][4] or final):
            line_no, raw, prefix, follow, _, stripped, masked, before, cut, piece = self._waiting.pop(0)
            yield self._line(line_no, raw, prefix, follow, stripped, masked, before, cut, piece)

    def _line(
        self,
        line_no: int,
        raw: str,
        prefix: str | None,
        follow: bytes,
        stripped: str | None,
        masked: bytes | None,
        before: bytes = b"",
        cut: bool = False,
        piece: int = 0,
    ) -> Line:
        """The normalized candidate line, with the raw bytes that follow it (and those of the
        line before it, when that one may have been wrapped into it)."""
        text = follow.decode("utf-8", "replace")
        line = normalize(self.source, line_no, raw, prefix, self.recipes, stripped, text, masked, before)
        return replace(line, cut=cut, piece=piece) if cut or piece else line

    def _pieces(self, line_no: int, pieces: list[str]) -> Iterator[Line]:
        """The lines a flattened traceback was cut back into, each followed by the ones after it."""
        for i, piece in enumerate(pieces):
            follow = "\n".join(pieces[i + 1 :]).encode()[:FOLLOW_BYTES]
            if self._waiting:
                self._waiting.append([line_no, piece, None, follow, True, None, None, b"", False, i])
            else:
                yield self._line(line_no, piece, None, follow, None, None, piece=i)

    def _may_match(self, raw: str) -> tuple[str, bytes | None] | None:
        """`raw` without colour codes (and its digit-masked form, when short enough to be
        remembered), or None when no literal can occur in the normalized segment: most anchor
        hits in healthy text are not a literal (an anchor is a short piece of one), and deciding
        that here takes a few microseconds, a fraction of normalizing and analyzing the line.
        Colour codes may split a literal, so they are stripped first; a segment that normalizing
        rewrites otherwise is always kept."""
        text = strip_ansi(raw)
        literals = self.literals
        assert literals is not None
        decided = self._decided
        if decided is None or len(text) > RECIPE_MAX_TEXT:
            return (text, None) if _kept(text, literals) else None
        masked = mask_digits(text)
        keep = decided.get(masked)
        if keep is None:
            keep = _kept(text, literals)
            if literals.masks_safely(text):
                if len(decided) >= RECIPE_ENTRIES:
                    decided.clear()
                decided[masked] = keep
        return (text, masked) if keep else None

    def _kept_across(
        self, buf: bytes | bytearray, before: bytes, raw: str, to_end: bool, le: int, end: int
    ) -> bool:
        """Whether a literal runs across this line's edge: into it from the line before (when
        that one, holding none, may have been wrapped into it) or on into the line after it
        (when this one may have been wrapped, and the line after goes on with it)."""
        literals = self.literals
        assert literals is not None
        text = strip_ansi(raw)
        if (
            before
            and not NEW_RECORD.match(text)
            and _kept_wrapped(literals, strip_ansi(before.decode("utf-8", "replace")).rstrip("\r"), text)
        ):
            return True
        if not to_end or len(raw) < WRAPPED_WIDTH or le >= end:
            return False
        stop = min(end, le + 1 + FOLLOW_BYTES)
        nxt = buf.find(b"\n", le + 1, stop)
        after = strip_ansi(bytes(buf[le + 1 : nxt if nxt >= 0 else stop]).decode("utf-8", "replace")).rstrip(
            "\r"
        )
        if NEW_RECORD.match(after) or _kept(after, literals):
            return False
        if _kept_wrapped(literals, text, after):
            return True
        # A message wrapped over three lines: the literal may start on the line after that one.
        if nxt < 0 or len(after) < WRAPPED_WIDTH:
            return False
        nxt2 = buf.find(b"\n", nxt + 1, stop)
        third = strip_ansi(bytes(buf[nxt + 1 : nxt2 if nxt2 >= 0 else stop]).decode("utf-8", "replace"))
        third = third.rstrip("\r")
        return not NEW_RECORD.match(third) and _kept_wrapped(literals, text, after, third)

    def _overlong(self, buf: bytes) -> Iterator[Line]:
        """Scan all but the tail of a line with no end in sight; keep its start for the prefix."""
        if len(buf) <= MAX_CARRY:
            self._carry = buf
            return
        if self._long_prefix is None:
            self._long_prefix = buf[:PREFIX_BYTES]
        cut = len(buf) - OVERLAP
        window = buf[:cut] + b"\n"
        line_no = self.line_no
        yield from self._scan(window, 0, len(window), count_lines=False)
        self.line_no = line_no
        self._carry = buf[cut:]

    def _progress_in(self, buf: bytes | bytearray, begin: int, end: int) -> int:
        """Where the last progress line (`_PROGRESS_LINE`) of `buf[begin:end]` stands, or -1."""
        best = -1
        for mark in _PROGRESS_MARKS:
            hi = end
            for _ in range(_PROGRESS_TRIES):
                at = buf.rfind(mark, max(begin, best + 1), hi)
                if at < 0:
                    break
                ls = buf.rfind(b"\n", begin, at) + 1 or begin
                le = buf.find(b"\n", at, end)
                if _PROGRESS_LINE.search(buf, ls, end if le < 0 else le) is not None:
                    best = at
                    break
                hi = ls
        return best

    def _scan(self, buf: bytes | bytearray, begin: int, end: int, count_lines: bool = True) -> Iterator[Line]:
        at = self._progress_in(buf, begin, end) if count_lines else -1
        yield from self._scan_lines(buf, begin, end, count_lines)
        if at >= 0:  # (numbered from the block's end: the progress bar is mostly near it)
            self.last_progress = self.line_no - buf.count(b"\n", at, end)
        if count_lines:
            self._note_score(buf, begin, end)

    def _note_score(self, buf: bytes | bytearray, begin: int, end: int) -> None:
        """Keep the last mean score the metrics of `buf[begin:end]` logged, if any."""
        at = max(buf.rfind(mark, begin, end) for mark in _SCORE_MARKS)
        if at >= 0:
            m = _SCORE_VALUE.match(buf, at, min(end, at + 120))
            if m is not None:
                self.last_score = float(m.group(1))

    def _scan_lines(self, buf: bytes | bytearray, begin: int, end: int, count_lines: bool) -> Iterator[Line]:
        if self._waiting and count_lines:
            yield from self._release(bytes(buf[begin : min(end, begin + FOLLOW_BYTES)]))
        view = memoryview(buf)[begin:end]
        if end - begin >= PARALLEL_BYTES:
            starts = self.searcher.collect(self.searcher.submit(view))
            if not starts:
                if count_lines:
                    self.line_no += buf.count(b"\n", begin, end)
                return
        else:
            starts = self.searcher.starts(view)
        counted, line_no = begin, self.line_no
        seg_end = -1
        taken_end = -1  # where the last line kept for its own literals ended
        prefix_src = self._long_prefix
        for s in starts:
            s += begin
            if s < seg_end:
                continue  # another anchor in a segment already taken
            ls = max(buf.rfind(b"\n", 0, s) + 1, begin)
            le = buf.find(b"\n", s, end)
            if le < 0:
                le = end
            if count_lines:
                line_no += buf.count(b"\n", counted, ls)
                counted = ls
            seg_start = buf.rfind(b"\r", ls, s) + 1 or ls
            seg_start = max(seg_start, ls)
            cr = buf.find(b"\r", s, le)
            seg_end = le if cr < 0 else cr
            lo, hi = seg_start, seg_end
            if hi - lo > MAX_SEGMENT:
                lo, hi = max(lo, s - MAX_SEGMENT // 4), min(hi, s + 3 * MAX_SEGMENT // 4)
                seg_end = hi
            prefix = None
            if lo > ls or prefix_src is not None:
                head = (
                    prefix_src
                    if prefix_src is not None and ls == 0
                    else bytes(buf[ls : min(le, ls + PREFIX_BYTES)])
                )
                prefix = head.decode("utf-8", "replace")
            raw = bytes(buf[lo:hi]).decode("utf-8", "replace")
            # The segment runs to the line's end (but for the `\r` a CRLF file ends it with).
            to_end = hi == le or hi == le - 1 == cr
            # (a line's start, or where a carriage return left the text the terminal shows)
            if count_lines and lo == seg_start and hi - lo >= FLAT_SHORTEST and to_end:
                pieces = flattened_pieces(strip_ansi(raw))
                if pieces is not None:
                    # A traceback whose line ends a paste lost: each piece is read as the line it
                    # was, numbered by the line that holds them all.
                    taken_end = le
                    yield from self._pieces(line_no, pieces)
                    continue
            if count_lines and lo == ls and to_end and starts_spread_line(raw):
                # A launch command or Hydra's override list spread over lines (continued with `\`,
                # or cut by a wrap): its settings are read from the one line it was (the lines
                # themselves are still scanned after it).
                whole = spread_line(buf, raw, le, end)
                if whole is not None:
                    yield self._line(line_no, whole, None, b"", None, None)
                    seg_end = le
                    continue
            plans = self._plans
            if plans and prefix is None and not self._waiting:
                plain = strip_ansi(raw)
                plan = plans.get(mask_digits(plain)) if len(plain) <= RECIPE_MAX_TEXT else None
                if plan is not None:
                    taken_end = le
                    self._take_copy(plan, self.source, line_no, raw, plain)
                    continue
            before = b""
            if count_lines and ls > begin and ls - 1 != taken_end and lo == ls:
                # The line before, if it held no literal of its own and is long enough to have
                # been hard-wrapped into this one.
                window = max(begin, ls - 1 - BEFORE_BYTES)
                prev_start = buf.rfind(b"\n", window, ls - 1) + 1 or window  # (its tail, if longer)
                if ls - 1 - prev_start >= WRAPPED_WIDTH:
                    before = bytes(buf[prev_start : ls - 1])
            stripped = masked = None
            cut = False
            if self.literals is not None:
                kept = self._may_match(raw)
                if kept is None:
                    # A literal a hard wrap cut in two is whole across the lines; the line after
                    # this one keeps it as the line before.
                    if not self._kept_across(buf, before, raw, to_end, le, end):
                        continue
                    kept, cut = (strip_ansi(raw), None), True
                stripped, masked = kept
            if not cut:
                taken_end = le
            follow = b""
            # A line that may have been hard-wrapped, or a bare `ImportError:` whose message a
            # paste put on the lines after it, brings those lines along.
            if (
                to_end
                and count_lines
                and (
                    hi - lo >= WRAP_MIN
                    or bytes(buf[max(lo, hi - 12) : hi]).rstrip().endswith(_BARE_EXCEPTION)
                )
            ):
                follow_end = min(end, le + 1 + FOLLOW_BYTES)
                follow = bytes(buf[le + 1 : follow_end])
                if hi != le:
                    follow = follow.replace(b"\r\n", b"\n")
                if self.wait_for_follow and follow_end == end and follow.count(b"\n") < FOLLOW_LINES:
                    self._waiting.append(
                        [line_no, raw, prefix, follow, False, stripped, masked, before, cut, 0]
                    )
                    continue
            if self._waiting:
                self._waiting.append([line_no, raw, prefix, follow, True, stripped, masked, before, cut, 0])
                continue
            yield self._line(line_no, raw, prefix, follow, stripped, masked, before, cut)
        if count_lines:
            self.line_no = line_no + buf.count(b"\n", counted, end)


def _kept_wrapped(literals: LineSearcher, *parts: str) -> bool:
    """Whether a literal occurs in `parts` joined as a terminal's wrap cut them (every character
    kept) or as a page's word wrap did (the space it cut at dropped)."""
    return _kept("".join(parts), literals) or _kept(" ".join(parts), literals)


def _kept(text: str, literals: LineSearcher) -> bool:
    """Whether a literal, or something normalizing rewrites, occurs in `text`."""
    return literals.any(text) or any(m in text for m in REWRITE_MARKERS)
