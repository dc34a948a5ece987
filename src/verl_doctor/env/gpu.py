"""torch, the NVIDIA driver and the GPUs: torch's build and CUDA, `nvidia-smi`, driver CUDA vs
torch CUDA, each GPU's compute capability vs torch's arch list (ENV002) and pre-Ampere GPUs
(ENV007)."""

from __future__ import annotations

import os
import re
from collections import Counter
from dataclasses import dataclass

from verl_doctor.env.collect import Raw
from verl_doctor.env.compat import release_for, version_tuple
from verl_doctor.env.facts import classify_import_error, payload_of, unavailable
from verl_doctor.env.model import FAIL, OK, SKIPPED, WARN, ProbeResult, worst
from verl_doctor.env.runner import CmdResult


@dataclass(frozen=True)
class Gpu:
    index: int
    name: str
    capability: tuple[int, int] | None

    @property
    def sm(self) -> str:
        return f"sm_{self.capability[0]}{self.capability[1]}" if self.capability else "sm_?"


def parse_smi_query(text: str) -> tuple[list[Gpu], str | None]:
    """GPUs and the driver version from `nvidia-smi --query-gpu=... --format=csv,noheader,nounits`."""
    gpus, driver = [], None
    for line in text.splitlines():
        cols = [c.strip() for c in line.split(",")]
        if len(cols) < 4 or not cols[0].isdigit():
            continue
        cap = None
        if len(cols) >= 5:
            m = re.fullmatch(r"(\d+)\.(\d+)", cols[2])
            cap = (int(m[1]), int(m[2])) if m else None
            driver = cols[3]
        else:
            driver = cols[2]
        gpus.append(Gpu(int(cols[0]), cols[1], cap))
    return gpus, driver


def parse_smi_header(text: str) -> tuple[str | None, str | None]:
    """(driver version, driver's CUDA version) from plain `nvidia-smi` output."""
    d = re.search(r"Driver Version:\s*([\d.]+)", text)
    c = re.search(r"CUDA Version:\s*([\d.]+)", text)
    return (d[1] if d else None), (c[1] if c else None)


@dataclass(frozen=True)
class Driver:
    """What nvidia-smi told us, or why it could not (`result` is the verdict row)."""

    result: ProbeResult
    gpus: tuple[Gpu, ...] = ()
    cuda: str | None = None


def _first_line(cmd: CmdResult) -> str:
    lines = [x.strip() for x in cmd.output.splitlines() if x.strip()]
    return lines[0] if lines else f"exit code {cmd.returncode}"


def driver_probe(raw: Raw) -> Driver:
    name = "nvidia-driver"
    q = raw.smi_query
    if q is None or q.state == "missing":
        return Driver(ProbeResult(name, SKIPPED, "nvidia-smi not found on PATH (no NVIDIA driver here)"))
    if q.state == "timeout":
        return Driver(
            ProbeResult(
                name,
                FAIL,
                f"nvidia-smi hung ({q.reason}): the driver or a GPU is stuck",
                None,
                {"seconds": round(q.seconds, 2)},
            )
        )
    if q.state != "ok" or q.returncode != 0:
        reason = q.reason if q.state != "ok" else _first_line(q)
        return Driver(
            ProbeResult(name, FAIL, f"nvidia-smi failed: {reason}", None, {"returncode": q.returncode})
        )
    gpus, driver = parse_smi_query(q.stdout)
    header = raw.smi_header
    h_driver, cuda = parse_smi_header(header.stdout) if header and header.state == "ok" else (None, None)
    driver = driver or h_driver
    listed_gpus = [
        {"index": g.index, "name": g.name, "capability": list(g.capability or ()) or None} for g in gpus
    ]
    data = {"driver": driver, "cuda": cuda, "gpus": listed_gpus}
    if not gpus:
        no_gpu = ProbeResult(name, WARN, f"driver {driver or '?'} but nvidia-smi lists no GPU", None, data)
        return Driver(no_gpu, (), cuda)
    groups = Counter((g.name, g.sm) for g in gpus)
    listed = ", ".join(f"{n}x {gname} ({sm})" for (gname, sm), n in groups.items())
    detail = f"driver {driver or '?'} (CUDA {cuda or '?'}); {listed}"
    return Driver(ProbeResult(name, OK, detail, None, data), tuple(gpus), cuda)


def torch_probe(raw: Raw, driver: Driver) -> ProbeResult:
    name = "torch"
    p = payload_of(raw.torch)
    if p is None:
        return unavailable(name, raw.torch, raw.python, "importing torch")
    if not p.get("installed"):
        return ProbeResult(name, SKIPPED, "torch is not installed in this Python", None, p)
    if p.get("failed_step") == "import":
        rule, why = classify_import_error(p)
        return ProbeResult(name, FAIL, f"import torch failed: {why}", rule, p)
    version = p.get("version", "?")
    if p.get("failed_step") == "cuda":
        first = str(p.get("error") or "").splitlines()[:1]
        return ProbeResult(
            name,
            FAIL,
            f"torch {version} imports, but torch.cuda raised {p.get('error_type')}: {''.join(first)}",
            None,
            p,
        )
    build = f"CUDA {p['cuda']}" if p.get("cuda") else f"ROCm {p['hip']}" if p.get("hip") else "CPU-only build"
    n_smi = len(driver.gpus)
    if p.get("available"):
        return ProbeResult(
            name, OK, f"torch {version} ({build}), {p.get('count', 0)} GPU(s) visible", None, p
        )
    why = next((w for w in p.get("warnings", []) if "CUDA" in w or "driver" in w), "")
    why = why.strip().splitlines()[0] if why else ""
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    if n_smi and not p.get("cuda") and not p.get("hip"):
        return ProbeResult(
            name, FAIL, f"torch {version} is a CPU-only build, but nvidia-smi lists {n_smi} GPU(s)", None, p
        )
    if n_smi:
        hint = why or (f"CUDA_VISIBLE_DEVICES={visible!r}" if visible is not None else "no reason given")
        return ProbeResult(
            name,
            FAIL,
            f"torch {version} ({build}): torch.cuda.is_available() is False "
            f"although nvidia-smi lists {n_smi} GPU(s): {hint}",
            None,
            p,
        )
    return ProbeResult(
        name, OK, f"torch {version} ({build}); torch.cuda.is_available() is False (no GPU here)", None, p
    )


def _gpus(raw: Raw, driver: Driver) -> list[Gpu]:
    """The GPUs torch sees (respects CUDA_VISIBLE_DEVICES), else those nvidia-smi lists."""
    p = payload_of(raw.torch) or {}
    devices = p.get("devices") or []
    if devices:
        return [
            Gpu(int(d["index"]), str(d["name"]), (int(d["capability"][0]), int(d["capability"][1])))
            for d in devices
            if d.get("capability")
        ]
    return [g for g in driver.gpus if g.capability]


_ARCH = re.compile(r"(sm|compute)_(\d+)([a-z]?)$")


def coverage(cap: tuple[int, int], arch_list: list[str]) -> str | None:
    """How torch can run kernels on a GPU of capability `cap`: "exact" (cubin for that sm),
    "compatible" (cubin for an older minor of the same major, which NVIDIA guarantees runs),
    "ptx" (only by JIT from older PTX), or None: no kernel image for this device."""
    best = None
    for arch in arch_list:
        m = _ARCH.match(arch)
        if not m:
            continue
        n = int(m[2])
        have = (n // 10, n % 10)
        if m[1] == "sm" and have == cap:
            return "exact"
        if m[3]:  # sm_90a-style targets run on exactly that arch only
            continue
        if m[1] == "sm" and have[0] == cap[0] and have[1] < cap[1]:
            best = "compatible"
        elif m[1] == "compute" and have <= cap and best is None:
            best = "ptx"
    return best


def arch_probe(raw: Raw, driver: Driver) -> ProbeResult:
    """ENV002 before it happens: is each GPU's sm_XY among the architectures torch was built for."""
    name = "gpu-arch"
    gpus = _gpus(raw, driver)
    p = payload_of(raw.torch) or {}
    if not gpus:
        return ProbeResult(name, SKIPPED, "no NVIDIA GPU visible")
    if not p.get("import_ok") or not p.get("installed"):
        return ProbeResult(name, SKIPPED, "needs an importable torch to read its arch list")
    if p.get("hip"):
        return ProbeResult(name, SKIPPED, "ROCm build of torch: this check covers CUDA only")
    arch = [str(a) for a in p.get("arch_list") or []]
    if not arch:
        return ProbeResult(
            name, SKIPPED, f"torch {p.get('version')} reports no CUDA architectures (CPU build)"
        )
    verdicts = {g.index: coverage(g.capability, arch) for g in gpus if g.capability}
    per_gpu = [
        {"index": g.index, "name": g.name, "sm": g.sm, "coverage": verdicts.get(g.index)} for g in gpus
    ]
    data = {"arch_list": arch, "gpus": per_gpu}
    missing = [g for g in gpus if verdicts.get(g.index) is None]
    listed = " ".join(arch)
    if missing:
        g = missing[0]
        more = f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""
        return ProbeResult(
            name,
            FAIL,
            f"GPU {g.index} {g.name} is {g.sm}, not in torch {p.get('version')}'s "
            f"arch list [{listed}]{more}: no kernel image for this GPU",
            "ENV002",
            data,
        )
    ptx = [g for g in gpus if verdicts.get(g.index) == "ptx"]
    if ptx:
        g = ptx[0]
        return ProbeResult(
            name,
            WARN,
            f"GPU {g.index} {g.name} ({g.sm}) runs torch only by PTX JIT from "
            f"[{listed}]; other wheels (vLLM, flash-attn) may have no kernel for it",
            "ENV002",
            data,
        )
    sms = sorted({g.sm for g in gpus})
    return ProbeResult(name, OK, f"{', '.join(sms)} covered by torch's arch list [{listed}]", None, data)


def bf16_probe(raw: Raw, driver: Driver) -> ProbeResult:
    """ENV007: GPUs older than Ampere (sm_80) have no bf16 and no FlashAttention-2."""
    name = "gpu-bf16"
    gpus = _gpus(raw, driver)
    if not gpus:
        return ProbeResult(name, SKIPPED, "no NVIDIA GPU visible")
    old = [g for g in gpus if g.capability and g.capability < (8, 0)]
    data = {"pre_ampere": [{"index": g.index, "name": g.name, "sm": g.sm} for g in old]}
    if old:
        g = old[0]
        return ProbeResult(
            name,
            WARN,
            f"GPU {g.index} {g.name} is {g.sm} (pre-Ampere): no bf16 or "
            "FlashAttention-2; run verl with float16 and sdpa/eager attention",
            "ENV007",
            data,
        )
    return ProbeResult(
        name, OK, "all GPUs are Ampere (sm_80) or newer: bf16 and FlashAttention-2 supported", None, data
    )


def cuda_probe(raw: Raw, driver: Driver, verl_version: str | None) -> ProbeResult:
    """The driver's CUDA must not be older than torch's; torch's CUDA vs what verl documents."""
    name = "cuda-versions"
    p = payload_of(raw.torch) or {}
    torch_cuda = p.get("cuda") if p.get("import_ok") else None
    items: list[tuple[str, str]] = []
    t, d = version_tuple(torch_cuda), version_tuple(driver.cuda)
    if t and d:
        if d[0] < t[0]:
            items.append(
                (
                    FAIL,
                    f"driver supports CUDA {driver.cuda}, torch is built for {torch_cuda}: "
                    "upgrade the NVIDIA driver",
                )
            )
        elif d[:2] < t[:2]:
            items.append(
                (
                    WARN,
                    f"driver CUDA {driver.cuda} < torch's {torch_cuda}: runs only through "
                    "minor-version compatibility, PTX JIT (Triton, some vLLM kernels) can fail",
                )
            )
        else:
            items.append((OK, f"driver CUDA {driver.cuda} >= torch's CUDA {torch_cuda}"))
    release = release_for(verl_version) if verl_version else None
    if t and release and release.cuda_min and t[:2] < (version_tuple(release.cuda_min) or (0,))[:2]:
        items.append(
            (
                WARN,
                f"torch is built for CUDA {torch_cuda}; verl {verl_version} documents CUDA >= "
                f"{release.cuda_min}",
            )
        )
    data = {
        "driver_cuda": driver.cuda,
        "torch_cuda": torch_cuda,
        "verl_cuda_min": release.cuda_min if release else None,
    }
    if not items:
        if not t:
            why = "torch has no CUDA build here" if p.get("import_ok") else "needs an importable CUDA torch"
        else:
            why = "needs nvidia-smi for the driver's CUDA version"
        return ProbeResult(name, SKIPPED, why, None, data)
    status = worst([s for s, _ in items])
    shown = [text for s, text in items if s == status] if status != OK else [text for _, text in items]
    return ProbeResult(name, status, "; ".join(shown), None, data)


def gpu_probes(raw: Raw, verl_version: str | None) -> list[ProbeResult]:
    driver = driver_probe(raw)
    return [
        torch_probe(raw, driver),
        driver.result,
        cuda_probe(raw, driver, verl_version),
        arch_probe(raw, driver),
        bf16_probe(raw, driver),
    ]
