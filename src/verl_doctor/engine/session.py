"""The engine's front door: sources in, `Report` out. Never prints, never exits.

    from verl_doctor import diagnose
    report = diagnose("train.log")          # a path, or log text, or several of either

`Session` is the streaming form used by the CLI, `run` and `--follow`: feed bytes as they
arrive, get newly found rule codes back, ask for the report at any time.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from verl_doctor.catalog.load import Catalog, load_catalog
from verl_doctor.engine.analyze import Analyzer
from verl_doctor.engine.inputs import CutInput, InputError, Source, looks_binary, open_path
from verl_doctor.engine.normalize import Line, Recipe
from verl_doctor.engine.prefilter import BlockSearcher
from verl_doctor.engine.report import InputNote, Report
from verl_doctor.engine.scan import LineScanner

NewFindings = Callable[[list[str], Line | None], None]
Progress = Callable[[str, int], None]  # (source name, bytes read so far), after each block


class Session:
    """One analysis over one or more sources, fed incrementally."""

    def __init__(
        self, catalog: Catalog | None = None, lang: str = "en", read_binary: bool = False, live: bool = False
    ) -> None:
        self.catalog = catalog if catalog is not None else load_catalog()
        self.analyzer = Analyzer(self.catalog, lang)
        self.searcher = BlockSearcher(self.catalog.anchors)
        self.lang = lang
        self.read_binary = read_binary
        # Live sessions announce a line as soon as its block is read; the lines that may continue
        # a wrapped message are then taken from that block only.
        self.live = live
        self.sources: list[str] = []
        self.input_errors: list[InputNote] = []
        self.cut_inputs: list[str] = []  # read only up to a point (truncated or corrupt gzip)
        self.lines = 0
        self.line_totals: dict[str, int] = {}
        self.progress_at: dict[str, int] = {}  # source -> its last line showing training going on
        self.last_scores: dict[str, float] = {}  # source -> the last mean score its metrics logged

    def scanner(self, name: str) -> LineScanner:
        if name not in self.sources:
            self.sources.append(name)
        memo = self.analyzer.memo.enabled
        recipes: dict[bytes, Recipe] | None = {} if memo else None
        return LineScanner(
            self.searcher,
            name,
            self.analyzer.searcher,
            recipes,
            wait_for_follow=not self.live,
            copies=(self.analyzer.copy_plans, self.analyzer.add_copy) if memo else None,
        )

    def feed(
        self, scanner: LineScanner, data: bytes | bytearray, size: int | None = None
    ) -> list[tuple[str, Line]]:
        """Scan bytes; returns (rule code, line) for each rule found for the first time."""
        found = self._lines(scanner.feed(data, size))
        self._note_progress(scanner)
        return found

    def finish(self, scanner: LineScanner) -> list[tuple[str, Line]]:
        found = self._lines(scanner.finish())
        self._note_progress(scanner)
        self.lines += max(scanner.line_no - 1, 0)
        self.line_totals[scanner.source] = self.line_totals.get(scanner.source, 0) + max(
            scanner.line_no - 1, 0
        )
        return found

    def _note_progress(self, scanner: LineScanner) -> None:
        if scanner.last_progress:
            self.progress_at[scanner.source] = scanner.last_progress
        if scanner.last_score is not None:
            self.last_scores[scanner.source] = scanner.last_score

    def _lines(self, lines: Iterator[Line]) -> list[tuple[str, Line]]:
        found = []
        add = self.analyzer.add
        for line in lines:
            for code in add(line):
                found.append((code, line))
        return found

    def read(
        self, source: Source, on_new: NewFindings | None = None, progress: Progress | None = None
    ) -> bool:
        """Read a whole source; False (with an input note) when it was skipped or broken."""
        scanner = self.scanner(source.name)
        first = True
        try:
            for block, size in source.filled():
                if first:
                    first = False
                    if not self.read_binary and looks_binary(bytes(block[: min(size, 8192)])):
                        self.input_errors.append(
                            InputNote(
                                source.name,
                                f"{source.name}: binary file, skipped (use --binary to read it)",
                                "warning",
                            )
                        )
                        self.sources.remove(source.name)
                        return False
                found = self.feed(scanner, block, size)
                if found and on_new:
                    on_new([c for c, _ in found], found[0][1])
                if progress is not None:
                    progress(source.name, scanner.bytes_seen)
        except InputError as exc:
            self.input_errors.append(InputNote(source.name, str(exc)))
            if isinstance(exc, CutInput):  # what came before the damage was read: analyse it
                self.cut_inputs.append(source.name)
            self.finish(scanner)
            return False
        found = self.finish(scanner)
        if found and on_new:
            on_new([c for c, _ in found], found[0][1])
        return True

    def note_error(self, message: str, source: str = "") -> None:
        self.input_errors.append(InputNote(source, message))

    def report(self) -> Report:
        from verl_doctor.engine.assemble import report_parts

        findings, warnings, unrecognized, context = report_parts(
            self.analyzer, self.line_totals, self.progress_at, self.last_scores
        )
        notes = tuple(self.catalog.notes) + tuple(self.analyzer.timeouts)
        return Report(
            findings=tuple(findings),
            warnings=tuple(warnings),
            unrecognized=tuple(unrecognized),
            context=context,
            sources=tuple(self.sources),
            lines=self.lines,
            notes=notes,
            input_errors=tuple(self.input_errors),
            lang=self.lang,
            secret_values=tuple(sorted(self.analyzer.context.secret_values)),
        )


def diagnose_text(
    text: str, catalog: Catalog | None = None, lang: str = "en", name: str = "<text>"
) -> Report:
    """Diagnose log text held in memory."""
    session = Session(catalog, lang)
    scanner = session.scanner(name)
    data = text.encode("utf-8", "surrogateescape")
    for i in range(0, len(data), 4 * 1024 * 1024):
        session.feed(scanner, data[i : i + 4 * 1024 * 1024])
    session.finish(scanner)
    return session.report()


def diagnose(inputs: str | Iterable[str], catalog: Catalog | None = None, lang: str = "en") -> Report:
    """Diagnose paths (or `-` for stdin); a string that is not an existing path is log text."""
    import os

    if isinstance(inputs, str):
        if "\n" in inputs or not os.path.exists(inputs):
            return diagnose_text(inputs, catalog, lang)
        inputs = [inputs]
    session = Session(catalog, lang)
    for path in inputs:
        try:
            source = open_path(path)
        except InputError as exc:
            session.note_error(str(exc), path)
            continue
        try:
            session.read(source)
        finally:
            source.close()
    return session.report()
