"""Live analysis: `verl-doctor run -- CMD` (wrap a training command) and `explain --follow FILE`.

Both feed bytes to an engine Session as they arrive and announce each newly found root-cause
error on stderr at once, then print the full diagnosis at the end. Neither ever runs a fix.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence

from verl_doctor.catalog.load import Catalog
from verl_doctor.cli.stderr import error_line
from verl_doctor.common.exit_codes import ExitCode
from verl_doctor.engine.normalize import Line
from verl_doctor.engine.session import Session
from verl_doctor.render.sanitize import visible

TYPE_CHECKING = False  # typing is only needed by type checkers; importing it costs start-up time
if TYPE_CHECKING:
    from typing import Any, BinaryIO

    from verl_doctor.cli.options import Values

POLL_SECONDS = 0.2
_TAIL_BYTES = 8192
_TRAINING_MARKS = (b"Training Progress", b"step:", b"Training from scratch")


def _announce(session: Session, found: list[tuple[str, Line]], redact: bool, stream: Any = None) -> None:
    """One stderr line per newly found root cause, each with the line that showed it."""
    out = stream or sys.stderr
    for code, line in found:
        rule = session.catalog.by_id(code)
        if rule is None or rule.symptom:
            continue  # echoes are reported in the summary, not announced
        raw = line.raw
        if redact:
            from verl_doctor.engine.redact import redact as mask

            raw = mask(raw)
        try:
            where = f"{line.source}:{line.number}"
            out.write(f"verl-doctor: detected {rule.id} {rule.name} at {where}: {visible(raw, 200)}\n")
            out.flush()
        except (OSError, ValueError):
            pass


class _Tail:
    """The last few kilobytes seen, for the possible-hang report."""

    def __init__(self) -> None:
        self.data = b""
        self.training_started = False

    def add(self, data: bytes) -> None:
        if not self.training_started and any(m in data for m in _TRAINING_MARKS):
            self.training_started = True
        self.data = (self.data + data)[-_TAIL_BYTES:]

    def last_lines(self, n: int = 3) -> list[str]:
        text = self.data.replace(b"\r", b"\n").decode("utf-8", "replace")
        return [ln for ln in text.splitlines() if ln.strip()][-n:]


# ---------------------------------------------------------------------------- explain --follow


def follow(args: Values, catalog: Catalog, lang: str) -> int:
    from verl_doctor.cli.emit import emit, explain_exit_code

    if len(args.files) != 1 or args.files[0] == "-":
        error_line("--follow needs exactly one FILE (not stdin)")
        return ExitCode.USAGE
    path = args.files[0]
    session = Session(catalog, lang, read_binary=args.binary, live=True)
    tail = _Tail()
    try:
        f = open(path, "rb")  # noqa: SIM115 - reopened on rotation
    except OSError as exc:
        error_line(f"{path}: {_reason(exc)}")
        return ExitCode.USAGE
    scanner = session.scanner(path)
    inode = os.fstat(f.fileno()).st_ino
    last_data = time.monotonic()
    idle_stop = False
    try:
        while True:
            data = f.read(4 * 1024 * 1024)
            if data:
                last_data = time.monotonic()
                tail.add(data)
                found = session.feed(scanner, data)
                if found:
                    _announce(session, found, not args.no_redact)
                continue
            rotated, truncated = _rotation(path, f, inode)
            if rotated or truncated:
                session.finish(scanner)
                if rotated:
                    f.close()
                    f = open(path, "rb")  # noqa: SIM115
                    inode = os.fstat(f.fileno()).st_ino
                else:
                    f.seek(0)
                scanner = session.scanner(path)
                continue
            if args.until_idle is not None and time.monotonic() - last_data >= args.until_idle:
                idle_stop = True
                break
            time.sleep(POLL_SECONDS)
    except KeyboardInterrupt:
        pass
    finally:
        f.close()
    session.finish(scanner)
    report = session.report()
    if idle_stop and tail.training_started and not report.findings:
        report = _with_hang(report, path, args.until_idle, tail)
    emit(report, args)
    return explain_exit_code(report, args)


def _rotation(path: str, f: BinaryIO, inode: int) -> tuple[bool, bool]:
    try:
        st = os.stat(path)
    except OSError:
        return False, False  # moved away and not yet recreated: keep reading the old one
    if st.st_ino != inode:
        return True, False
    return False, st.st_size < f.tell()


def _with_hang(report: Any, path: str, idle: float, tail: _Tail) -> Any:
    from verl_doctor.common.records import replace
    from verl_doctor.engine.report import Unrecognized

    last = tail.last_lines()
    hint = (
        f"no new output for {idle:g} s after training had started: the run may be hung. "
        "Check GPU activity (nvidia-smi) and each rank's last line; a rank stuck in a collective "
        "ends in an NCCL timeout later"
    )
    entry = Unrecognized(
        source=path, line=report.lines, text=last[-1] if last else "", kind="hang", hint=hint
    )
    return replace(report, unrecognized=(*report.unrecognized, entry))


# ---------------------------------------------------------------------------- run -- CMD


def run_command(command: Sequence[str], catalog: Catalog, lang: str, values: Values) -> int:
    """Run `command` unchanged, pass its output through (and append it to `values.log`),
    diagnose it, print the diagnosis as `values` asks; returns the command's exit code."""
    log_path, redact = values.log, not values.no_redact
    session = Session(catalog, lang, live=True)
    name = os.path.basename(command[0]) if command else "command"
    source = f"<{name}>"
    scanner = session.scanner(source)
    lock = threading.Lock()
    log = open(log_path, "ab") if log_path else None  # noqa: SIM115 - append: never clobber a file
    try:
        proc = subprocess.Popen(
            list(command), stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
        )
    except OSError as exc:
        error_line(f"cannot run {command[0]}: {_reason(exc)}")
        if log:
            log.close()
        return 127 if isinstance(exc, FileNotFoundError) else 126
    previous = _forward_signals(proc)

    def pump(src: BinaryIO, dst_fd: int) -> None:
        fd = src.fileno()
        while True:
            try:
                data = os.read(fd, 65536)
            except OSError:
                break
            if not data:
                break
            _write_all(dst_fd, data)
            with lock:
                if log:
                    log.write(data)
                    log.flush()
                found = session.feed(scanner, data)
            if found:
                _announce(session, found, redact)

    assert proc.stdout is not None and proc.stderr is not None
    threads = [
        threading.Thread(target=pump, args=(proc.stdout, 1), daemon=True),
        threading.Thread(target=pump, args=(proc.stderr, 2), daemon=True),
    ]
    for t in threads:
        t.start()
    try:
        while True:
            try:
                returncode = proc.wait()
                break
            except KeyboardInterrupt:
                continue  # SIGINT was forwarded to the command; wait for it to end
        for t in threads:
            t.join()
    finally:
        _restore_signals(previous)
        if log:
            log.close()
    session.finish(scanner)
    report = session.report()
    _final_report(report, values)
    return returncode if returncode >= 0 else 128 - returncode


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        try:
            n = os.write(fd, view)
        except BlockingIOError:
            time.sleep(0.01)
            continue
        except OSError:
            return  # our own stdout closed: keep draining so the command does not block
        view = view[n:]


def _reason(exc: OSError) -> str:
    return (exc.strerror or str(exc)).lower()


def _forward_signals(proc: subprocess.Popen[bytes]) -> dict[int, Any]:
    def forward(signum: int, _frame: Any) -> None:
        try:
            os.killpg(proc.pid, signum)
        except OSError:
            pass

    previous: dict[int, Any] = {}
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        try:
            if signal.getsignal(sig) is signal.SIG_IGN:
                continue  # ignored where we were started (nohup, a background job): stay so
            previous[sig] = signal.signal(sig, forward)
        except (ValueError, OSError):
            pass
    return previous


def _restore_signals(previous: dict[int, Any]) -> None:
    for sig, handler in previous.items():
        try:
            signal.signal(sig, handler)
        except (ValueError, OSError):
            pass


def _final_report(report: Any, values: Values) -> None:
    """The diagnosis: to --report FILE, else on stderr after a blank line (stdout is the
    command's own output)."""
    from verl_doctor.cli.emit import emit

    if values.report:
        emit(report, values, path=values.report)
        return
    try:
        sys.stderr.write("\n")
    except (OSError, ValueError):
        pass
    emit(report, values, sys.stderr)
