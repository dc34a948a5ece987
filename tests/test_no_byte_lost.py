"""Input that users really feed in: gzip cut off by a killed job or damaged, UTF-16 and
UTF-8-BOM logs, and pasted lines longer than a terminal's canonical-mode limit."""

from __future__ import annotations

import gzip
import json
import os
import pty
import select
import sys
import time
from pathlib import Path

from conftest import ROOT, isolated_env

OOM_LINE = (
    "(WorkerDict pid=1201, ip=10.1.0.11) torch.OutOfMemoryError: CUDA out of memory. Tried to allocate "
    "3.91 GiB. GPU 0 has a total capacity of 79.25 GiB of which 2.02 GiB is free."
)
HEALTHY = "(TaskRunner pid=90211) step:{} - actor/grad_norm:0.21 - critic/score/mean:0.41 - {:08x}\n"


def _log_with_oom_at_the_end(lines: int = 50_000) -> bytes:
    body = "".join(HEALTHY.format(i, i * 2654435761 % 2**32) for i in range(lines))
    return (body + OOM_LINE + "\n" + HEALTHY.format(lines, 0)).encode()


def test_truncated_gzip_is_read_to_its_last_byte_and_said_so(run_cli, tmp_path: Path) -> None:
    """The OOM sits in the last 4 MB block: GzipFile lost that block and reported "no error"."""
    data = _log_with_oom_at_the_end()
    assert len(data) > 4 * 1024 * 1024 // 2
    packed = gzip.compress(data)
    cut = tmp_path / "killed.log.gz"
    cut.write_bytes(packed[:-20])  # the job died before gzip wrote its last bytes
    r = run_cli(["explain", "--format", "json", str(cut)])
    report = json.loads(r.stdout)
    assert [f["rule"] for f in report["findings"]] == ["FLOW004"]
    err = r.stderr.decode()
    assert err.count("\n") == 1 and "killed.log.gz: gzip data ends early" in err and "Traceback" not in err
    assert r.returncode == 2  # documented: an input could not be read to its end
    assert report["input_errors"][0]["source"] == str(cut)
    assert run_cli(["explain", "--exit-zero", str(cut)]).returncode == 0


def test_corrupt_gzip_is_not_a_silent_success(run_cli, tmp_path: Path) -> None:
    packed = bytearray(gzip.compress(_log_with_oom_at_the_end(20_000)))
    packed[len(packed) // 2 : len(packed) // 2 + 8] = b"\xff" * 8
    bad = tmp_path / "bad.log.gz"
    bad.write_bytes(bytes(packed))
    r = run_cli(["explain", str(bad)])
    err = r.stderr.decode()
    assert r.returncode == 2 and err.count("\n") == 1 and "bad.log.gz: corrupt gzip data" in err, err
    assert "analysed the" in err and "Traceback" not in err


def test_several_gzip_members_and_padding_read_whole(run_cli, tmp_path: Path) -> None:
    data = (ROOT / "examples" / "oom-8-workers.log").read_bytes()
    joined = tmp_path / "joined.log.gz"
    joined.write_bytes(gzip.compress(data[:1000]) + gzip.compress(data[1000:]) + b"\0" * 512)
    r = run_cli(["explain", "--format", "json", str(joined)])
    assert r.returncode == 1 and not r.stderr
    assert json.loads(r.stdout)["findings"][0]["count"] == 8


def test_utf16_and_bom_logs_are_decoded(run_cli, tmp_path: Path) -> None:
    text = (ROOT / "examples" / "oom-8-workers.log").read_text()
    variants = {
        "powershell.log": b"\xff\xfe" + text.encode("utf-16-le"),
        "big-endian.log": b"\xfe\xff" + text.encode("utf-16-be"),
        "notepad.log": b"\xef\xbb\xbf" + text.encode(),
        "packed-utf16.log.gz": gzip.compress(b"\xff\xfe" + text.encode("utf-16-le")),
    }
    for name, content in variants.items():
        path = tmp_path / name
        path.write_bytes(content)
        r = run_cli(["explain", "--format", "json", str(path)])
        assert r.returncode == 1 and not r.stderr, (name, r.stderr)
        report = json.loads(r.stdout)
        finding = report["findings"][0]
        assert (finding["rule"], finding["count"], finding["first_line"]) == ("FLOW004", 8, 12), name
        assert report["lines"] == text.count("\n"), name


def _paste(data: bytes, tmp_path: Path) -> bytes:
    """Run `explain` on a pseudo-terminal, paste `data` in pieces, press Ctrl-D, return what
    the terminal showed."""
    pid, fd = pty.fork()
    if pid == 0:  # child: stdin/stdout/stderr are the pty
        os.chdir(tmp_path)
        os.execve(sys.executable, [sys.executable, "-m", "verl_doctor", "explain"], isolated_env(tmp_path))
    out = b""
    deadline = time.time() + 60

    def drain(wait: float) -> bool:
        nonlocal out
        if select.select([fd], [], [], wait)[0]:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                return False
            out += chunk
            return bool(chunk)
        return True

    while b"Ctrl-D" not in out and time.time() < deadline:
        drain(0.5)
    time.sleep(0.2)
    for i in range(0, len(data), 512):
        os.write(fd, data[i : i + 512])
        drain(0.01)
    time.sleep(0.3)
    os.write(fd, b"\x04")
    while time.time() < deadline and drain(0.5):
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            while drain(0.2):
                pass
            break
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass
    return out


def test_a_pasted_line_longer_than_4095_bytes_is_read_whole(tmp_path: Path) -> None:
    """A terminal in canonical mode keeps 4,095 bytes of a line and drops the rest: here the
    OOM message at the end of a 6 KB line."""
    long_line = "(WorkerDict pid=1201, ip=10.1.0.11) " + "x" * 6000 + " " + OOM_LINE.split(") ", 1)[1]
    out = _paste((HEALTHY.format(1, 1) + long_line + "\n").encode().replace(b"\n", b"\r"), tmp_path)
    assert b"FLOW004" in out, out[-800:]


def test_ctrl_c_during_a_paste_gives_the_terminal_back(tmp_path: Path) -> None:
    import signal
    import termios

    pid, fd = pty.fork()
    if pid == 0:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.chdir(tmp_path)
        os.execve(sys.executable, [sys.executable, "-m", "verl_doctor", "explain"], isolated_env(tmp_path))
    out, deadline = b"", time.time() + 60
    while b"Ctrl-D" not in out and time.time() < deadline:
        if select.select([fd], [], [], 0.5)[0]:
            out += os.read(fd, 4096)
    while termios.tcgetattr(fd)[3] & termios.ICANON and time.time() < deadline:
        time.sleep(0.05)
    assert termios.tcgetattr(fd)[3] & termios.ICANON == 0  # reading the paste unbuffered
    os.write(fd, b"half a line")
    time.sleep(0.2)
    os.write(fd, b"\x03")  # Ctrl-C
    _, status = os.waitpid(pid, 0)
    assert os.WEXITSTATUS(status) == 130
    assert termios.tcgetattr(fd)[3] & termios.ICANON  # canonical mode is back
    os.close(fd)
