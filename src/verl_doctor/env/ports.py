"""Are Ray's default ports free, and if not, who holds them.

Binding is the only reliable test (a listener may be on 127.0.0.1 or on all addresses), so the
probe binds each address and closes at once. The owner comes from /proc (socket inode ->
process) where this user may read it, else from `ss -ltnp`.
"""

from __future__ import annotations

import errno
import os
import re
import socket
import time
from dataclasses import dataclass, field

from verl_doctor.env.runner import run_probe_command

RAY_PORTS = {6379: "Ray GCS", 8265: "Ray dashboard"}
_HOSTS = ("127.0.0.1", "0.0.0.0")
_LISTEN = "0A"
_PROC_SCAN_SECONDS = 2.0


@dataclass(frozen=True)
class Owner:
    pid: int | None
    name: str
    cmdline: str = ""


@dataclass(frozen=True)
class PortState:
    port: int
    in_use: bool | None  # None: could not be tested
    reason: str = ""
    owners: tuple[Owner, ...] = field(default_factory=tuple)
    owner_source: str = ""  # proc | ss | ""


def bind_free(port: int) -> tuple[bool | None, str]:
    """(in use?, why) by binding each address; SO_REUSEADDR so TIME_WAIT leftovers do not count."""
    for host in _HOSTS:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((host, port))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return True, f"{host}:{port} is in use"
            if exc.errno == errno.EADDRNOTAVAIL:
                continue
            return None, f"cannot test {host}:{port}: {exc.strerror or exc}"
        finally:
            sock.close()
    return False, ""


def _listen_inodes(port: int, proc: str) -> set[str]:
    inodes: set[str] = set()
    for table in ("net/tcp", "net/tcp6"):
        try:
            with open(os.path.join(proc, table), encoding="ascii", errors="replace") as f:
                next(f, None)
                for line in f:
                    cols = line.split()
                    if len(cols) > 9 and cols[3] == _LISTEN and cols[1].rsplit(":", 1)[-1] == f"{port:04X}":
                        inodes.add(cols[9])
        except OSError:
            continue
    inodes.discard("0")
    return inodes


def _read(path: str) -> str:
    try:
        with open(path, "rb") as f:
            return f.read(4096).replace(b"\0", b" ").decode("utf-8", "replace").strip()
    except OSError:
        return ""


def owners_from_proc(port: int, proc: str = "/proc") -> tuple[Owner, ...]:
    """Processes with a listening socket on `port`, as far as /proc lets this user see."""
    wanted = {f"socket:[{i}]" for i in _listen_inodes(port, proc)}
    if not wanted:
        return ()
    found: list[Owner] = []
    deadline = time.monotonic() + _PROC_SCAN_SECONDS
    try:
        pids = [p for p in os.listdir(proc) if p.isdigit()]
    except OSError:
        return ()
    for pid in pids:
        if time.monotonic() > deadline:
            break
        fd_dir = os.path.join(proc, pid, "fd")
        try:
            fds = os.listdir(fd_dir)
        except OSError:
            continue  # another user's process, or gone
        for fd in fds:
            try:
                target = os.readlink(os.path.join(fd_dir, fd))
            except OSError:
                continue
            if target in wanted:
                found.append(
                    Owner(
                        int(pid),
                        _read(os.path.join(proc, pid, "comm")),
                        _read(os.path.join(proc, pid, "cmdline")),
                    )
                )
                break
    return tuple(found)


_SS_USER = re.compile(r'\("(?P<name>[^"]*)",pid=(?P<pid>\d+)')


def owners_from_ss(port: int, timeout: float) -> tuple[Owner, ...]:
    """Owners as `ss -ltnp` reports them (it shows pids only for processes we may inspect)."""
    res = run_probe_command(["ss", "-ltnp", f"sport = :{port}"], timeout)
    if res.state != "ok" or res.returncode != 0:
        return ()
    seen: dict[int, Owner] = {}
    for m in _SS_USER.finditer(res.stdout):
        seen.setdefault(int(m["pid"]), Owner(int(m["pid"]), m["name"]))
    return tuple(seen.values())


def check_port(port: int, timeout: float = 5.0, proc: str = "/proc") -> PortState:
    """Whether `port` is free and, when it is not, who holds it."""
    in_use, reason = bind_free(port)
    if not in_use:
        return PortState(port, in_use, reason)
    owners = owners_from_proc(port, proc)
    if owners:
        return PortState(port, True, reason, owners, "proc")
    owners = owners_from_ss(port, min(timeout, 5.0))
    return PortState(port, True, reason, owners, "ss" if owners else "")


def is_ray(owner: Owner) -> bool:
    """Ray's own daemons: gcs_server, raylet, the dashboard (a python running ray/dashboard)."""
    text = f"{owner.name} {owner.cmdline}".lower()
    return owner.name in ("gcs_server", "raylet") or "/ray/" in text or "ray::" in text
