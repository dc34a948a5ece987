"""Shared test helpers: run the CLI as a user does, in an isolated home, and the catalog."""

from __future__ import annotations

import atexit
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

import pytest

from verl_doctor.catalog.load import Catalog, load_catalog

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).with_name("fixtures")

# Terminal control a log may carry: titles, clipboard, hyperlinks, DCS, screen switches,
# device queries, 8-bit CSI, NUL, bidi overrides, cursor moves.
TERMINAL_ATTACKS = [
    "\x1b]0;pwned title\x07",
    "\x1b]52;c;Y3VybCBldmlsLnNo\x07",
    "\x1b]8;;http://evil.example/\x1b\\click\x1b]8;;\x1b\\",
    "\x1bP+q544e\x1b\\",
    "\x1b[?1049h",
    "\x1b[2J\x1b[H",
    "\x1b[6n",
    "\x9b31m",
    "\x00",
    "\u202eevil\u202c",
    "\x1b[5A",
]
# Text that rich would read as markup or emoji if it were not printed literally.
MARKUP = [
    "[bold red]boom[/bold red]",
    "[/]",
    "[link=http://evil.example]x[/link]",
    ":thumbs_up:",
    "list[str]",
]


def interruptible() -> None:
    """preexec_fn for a child that is sent Ctrl-C: a shell starting the test run in the
    background sets SIGINT to ignored, and children inherit that; a user's terminal does not."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


# One catalog cache for the whole test run: each CLI test would otherwise validate the rules
# again (yaml + pydantic, about a second). Tests about the cache itself pass their own
# XDG_CACHE_HOME; a cache keyed by a rule set's digest never serves another rule set.
SHARED_CACHE = Path(tempfile.mkdtemp(prefix="verl-doctor-tests-cache-"))
atexit.register(shutil.rmtree, SHARED_CACHE, True)


def isolated_env(tmp: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VERL_DOCTOR_", "GITHUB_"))}
    env.update(
        HOME=str(tmp),
        XDG_CACHE_HOME=str(SHARED_CACHE),
        XDG_CONFIG_HOME=str(tmp / "config"),
        NO_COLOR="1",
        PYTHONIOENCODING="utf-8",
    )
    env.pop("LANG", None)
    env.pop("LC_ALL", None)
    env.pop("LANGUAGE", None)
    env.update(extra)
    return env


@pytest.fixture
def run_cli(tmp_path: Path):  # type: ignore[no-untyped-def]
    """Run `python -m verl_doctor ARGS` with stdin bytes; returns the CompletedProcess."""

    def run(
        args: Sequence[str],
        stdin: bytes | None = b"",
        env: dict[str, str] | None = None,
        cwd: Path | None = None,
        timeout: float = 60,
    ) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(
            [sys.executable, "-m", "verl_doctor", *args],
            input=stdin,
            capture_output=True,
            timeout=timeout,
            cwd=cwd or tmp_path,
            env=isolated_env(tmp_path, **(env or {})),
        )

    return run


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return load_catalog(include_user=False, use_cache=False)
