"""What each verl release declares about its environment, and a small version comparer.

Only bounds read in verl's own packaging are listed; each entry names the file it came from
(github.com/verl-project/verl at the tag, or the published wheel's METADATA). `base` pins are
install_requires, so pip enforces them and a violation means a forced or broken install
(fail); `extras` pins are the combinations verl declares for its optional backends, which
users often install by hand, so drifting from them is a warning. `vllm_gate` is the lowest
vLLM that verl's own import-time check (`verl/third_party/vllm/__init__.py`) accepts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import total_ordering

_VERSION = re.compile(
    r"""
    v?(?P<release>\d+(?:\.\d+)*)
    (?:[-_.]?(?P<pre>a|b|c|rc|alpha|beta)[-_.]?(?P<pre_n>\d*))?
    (?:[-_.]?(?:post|rev|r)[-_.]?(?P<post>\d*))?
    (?:[-_.]?dev[-_.]?(?P<dev>\d*))?
    (?:\+(?P<local>[A-Za-z0-9.]+))?
""",
    re.VERBOSE | re.IGNORECASE,
)


@total_ordering
@dataclass(frozen=True, eq=False)
class Version:
    """A PEP 440-ish version, enough to compare the versions packages publish. Local labels
    (`+cu128`) are kept for display and ignored in comparisons, as pip does for `==X`."""

    release: tuple[int, ...]
    stage: tuple[int, int]  # (0 dev | 1 pre | 2 final | 3 post, number)
    text: str = ""

    @classmethod
    def parse(cls, text: str) -> Version | None:
        m = _VERSION.match(text.strip())
        if not m:
            return None
        release = tuple(int(x) for x in m["release"].split("."))
        if m["dev"] is not None and m["pre"] is None and m["post"] is None:
            stage = (0, int(m["dev"] or 0))
        elif m["pre"] is not None:
            stage = (1, int(m["pre_n"] or 0))
        elif m["post"] is not None:
            stage = (3, int(m["post"] or 0))
        else:
            stage = (2, 0)
        return cls(release, stage, text.strip())

    def _key(self) -> tuple[tuple[int, ...], tuple[int, int]]:
        release = self.release
        while len(release) > 1 and release[-1] == 0:
            release = release[:-1]  # 2.9 == 2.9.0
        return release, self.stage

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Version) and self._key() == other._key()

    def __lt__(self, other: Version) -> bool:
        return self._key() < other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __str__(self) -> str:
        return self.text


_CLAUSE = re.compile(r"\s*(===|==|!=|<=|>=|~=|<|>)\s*([^\s,;]+)\s*")


def satisfies(version: str, spec: str) -> bool | None:
    """Whether `version` meets every clause of `spec` (">=0.8.5,<=0.12.0"); None if unparseable."""
    have = Version.parse(version)
    if have is None:
        return None
    for clause in filter(None, (c.strip() for c in spec.split(","))):
        m = _CLAUSE.fullmatch(clause)
        want = Version.parse(m[2].rstrip(".*")) if m else None
        if m is None or want is None:
            return None
        op = m[1]
        if op in ("==", "===") and m[2].endswith(".*"):
            ok = have.release[: len(want.release)] == want.release
        elif op in ("==", "==="):
            ok = have == want
        elif op == "!=":
            ok = have != want
        elif op == "<=":
            ok = have <= want
        elif op == ">=":
            ok = have >= want
        elif op == "<":
            ok = have < want
        elif op == ">":
            ok = have > want
        else:  # ~=X.Y.Z: >=X.Y.Z and X.Y.*
            prefix = max(len(want.release) - 1, 1)
            ok = have >= want and have.release[:prefix] == want.release[:prefix]
        if not ok:
            return False
    return True


@dataclass(frozen=True)
class Pin:
    """`package` must satisfy `spec`; with `when`, only if that package is installed too."""

    package: str
    spec: str
    extra: str | None = None  # None: install_requires
    when: str | None = None


@dataclass(frozen=True)
class Release:
    version: str  # what this entry covers: "0.9.1" exactly, or a "0.8" line
    source: str
    requires_python: str
    cuda_min: str | None  # docs/start/install.rst "CUDA: Version >= X"
    vllm_gate: str | None
    pins: tuple[Pin, ...]


def _engine(
    extra: str, package: str, spec: str, torch: str | None = None, transformers: str | None = None
) -> tuple[Pin, ...]:
    pins = [Pin(package, spec, extra)]
    if torch:
        pins.append(Pin("torch", torch, extra, when=package))
    if transformers:
        pins.append(Pin("transformers", transformers, extra, when=package))
    return tuple(pins)


_TENSORDICT = Pin("tensordict", ">=0.8.0,<=0.10.0,!=0.9.0")
_RAY = Pin("ray", ">=2.41.0")

RELEASES: tuple[Release, ...] = (
    # v0.6.0: setup.py (install_requires, extras vllm/sglang), pyproject.toml (requires-python),
    # docs/start/install.rst (CUDA >= 12.1), verl/third_party/vllm/__init__.py (vLLM >= 0.7.0).
    Release(
        "0.6",
        "verl v0.6.0 setup.py / pyproject.toml",
        ">=3.10",
        "12.1",
        "0.7.0",
        (
            _RAY,
            _TENSORDICT,
            Pin("numpy", "<2.0.0"),
            *_engine("vllm", "vllm", ">=0.7.3,<=0.9.1"),
            *_engine("sglang", "sglang", "==0.5.2", torch="==2.8.0"),
        ),
    ),
    # v0.7.0: same files; install.rst now says CUDA >= 12.8.
    Release(
        "0.7",
        "verl v0.7.0 setup.py / pyproject.toml",
        ">=3.10",
        "12.8",
        "0.7.0",
        (
            _RAY,
            _TENSORDICT,
            Pin("numpy", "<2.0.0"),
            *_engine("vllm", "vllm", ">=0.8.5,<=0.12.0"),
            *_engine("sglang", "sglang", "==0.5.6", torch="==2.9.1"),
        ),
    ),
    # v0.8.0: same files.
    Release(
        "0.8",
        "verl v0.8.0 setup.py / pyproject.toml",
        ">=3.10",
        "12.8",
        "0.7.0",
        (
            _RAY,
            _TENSORDICT,
            Pin("numpy", "<2.0.0"),
            *_engine("vllm", "vllm", ">=0.8.5,<=0.12.0"),
            *_engine("sglang", "sglang", "==0.5.8", torch="==2.9.1"),
        ),
    ),
    # v0.9.0: setup.py pins transformers for the first time; the vLLM gate moves to 0.18.0.
    Release(
        "0.9.0",
        "verl v0.9.0 setup.py / pyproject.toml",
        ">=3.10",
        "12.8",
        "0.18.0",
        (
            _RAY,
            _TENSORDICT,
            Pin("numpy", ">=2.0.0"),
            Pin("transformers", ">=5.5.3,!=5.6.0,<5.11"),
            *_engine("vllm", "vllm", ">=0.18.0"),
            *_engine("sglang", "sglang", "==0.5.8", torch="==2.9.1"),
        ),
    ),
    # 0.9.1 (PyPI): no tag in the repository; pins from the wheel's verl-0.9.1.dist-info/METADATA
    # (Requires-Python, Requires-Dist) and its verl/third_party/vllm/__init__.py.
    Release(
        "0.9.1",
        "verl 0.9.1 wheel METADATA (PyPI)",
        ">=3.10,<3.13",
        "12.8",
        "0.18.0",
        (
            _RAY,
            _TENSORDICT,
            Pin("numpy", ">=2.0.0"),
            Pin("transformers", ">=5.5.3,!=5.6.0,<5.11"),
            *_engine("vllm", "vllm", "==0.24.0", torch="==2.11.0", transformers="==5.9.0"),
            *_engine("sglang", "sglang", "==0.5.12", torch="==2.11.0", transformers="==5.9.0"),
            Pin("flash-attn", "==2.8.3", "fsdp"),
        ),
    ),
    # main (0.10.0.dev, commit 1dda039): pyproject.toml, where transformers is pinned per backend.
    Release(
        "0.10",
        "verl main pyproject.toml (0.10.0.dev, 1dda039)",
        ">=3.10,<3.13",
        "12.8",
        "0.18.0",
        (
            _RAY,
            _TENSORDICT,
            Pin("numpy", ">=2.0.0"),
            *_engine("vllm", "vllm", "==0.24.0", torch="==2.11.0", transformers="==5.5.3"),
            *_engine("sglang", "sglang", "==0.5.12", torch="==2.11.0", transformers="==5.3.0"),
            Pin("flash-attn", "==2.8.3", "fsdp"),
        ),
    ),
)

# What "current verl" means when verl itself is not installed (docs/start/install.rst, main pyproject).
CURRENT_PYTHON = ">=3.10,<3.13"


def release_for(verl_version: str) -> Release | None:
    """The table entry for an installed verl: an exact entry first, else its major.minor line."""
    v = Version.parse(verl_version)
    if v is None:
        return None
    for rel in RELEASES:
        if Version.parse(rel.version) == v and rel.version.count(".") == 2:
            return rel
    line = v.release[:2] + (0,) * (2 - len(v.release[:2]))
    candidates = [r for r in RELEASES if tuple(int(x) for x in r.version.split(".")[:2]) == line]
    if not candidates:
        return None

    # Several entries on one line (0.9.0, 0.9.1): take the newest not above the installed one.
    def key(r: Release) -> Version:
        return Version.parse(r.version) or v

    fitting = [r for r in candidates if key(r) <= v]
    return max(fitting, key=key) if fitting else min(candidates, key=key)


@dataclass(frozen=True)
class Check:
    """One comparison of an installed version with a declared bound."""

    package: str
    installed: str | None
    spec: str
    extra: str | None
    ok: bool | None  # None: not installed or unparseable

    def describe(self, release: Release) -> str:
        where = f"its '{self.extra}' extra" if self.extra else "install_requires"
        have = f"{self.package} {self.installed}" if self.installed else f"{self.package} (not installed)"
        return f"{have} not in {self.spec} (verl {release.version} {where})"


def check_pins(release: Release, installed: dict[str, str]) -> list[Check]:
    """Every pin of `release` that applies to what is installed (name -> version)."""
    out = []
    for pin in release.pins:
        if pin.when and pin.when not in installed:
            continue
        have = installed.get(pin.package)
        if have is None:
            if pin.extra is None:
                out.append(Check(pin.package, None, pin.spec, None, None))
            continue
        out.append(Check(pin.package, have, pin.spec, pin.extra, satisfies(have, pin.spec)))
    return out


def version_tuple(text: str | None) -> tuple[int, ...] | None:
    """(12, 8) from "12.8"; None when absent or unparseable."""
    v = Version.parse(text) if text else None
    return v.release if v else None
