"""What each verl release declares about its environment.

Only bounds read in verl's own packaging are listed; each entry names the file it came from
(github.com/verl-project/verl at the tag, or the published wheel's METADATA). `base` pins are
install_requires, so pip enforces them and a violation means a forced or broken install
(fail); `extras` pins are the combinations verl declares for its optional backends, which
users often install by hand, so drifting from them is a warning. `vllm_gate` is the lowest
vLLM that verl's own import-time check (`verl/third_party/vllm/__init__.py`) accepts.
"""

from __future__ import annotations

from dataclasses import dataclass

from verl_doctor.common.versions import Version, satisfies


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
