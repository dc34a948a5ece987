"""What is installed: a package missing, or at a release other than the code that calls it was
written for (an import, a call, an attribute, a version the message asks for)."""

from __future__ import annotations

import re

from verl_doctor.common.lazy_re import lazy_compile
from verl_doctor.engine.fallbacks.answer import Fallback, an
from verl_doctor.engine.fallbacks.packages import (
    NAMESPACES,
    NOT_PACKAGES,
    VERSION_RULES,
    known_package,
    pip_distribution,
    pip_names,
    release_names,
    verl_names,
    version_mismatch,
)

NO_MODULE = lazy_compile(r"No module named '?(?P<module>[A-Za-z_][\w.]*)'?")


# A file path given where a module name is expected (importlib.import_module('/abs/dir/patch')).
_NO_MODULE_PATH = lazy_compile(r"No module named '(?P<module>[^'\s]*/[^'\s]*)'")


CANNOT_IMPORT = lazy_compile(r"cannot import name '?(?P<name>[\w.]+)'? from '?(?P<module>[A-Za-z_][\w.]*)'?")


# Quoted by Python itself; unquoted by transformers' lazy module (`module transformers has no
# attribute Qwen3NextForCausalLM`, utils/import_utils.py _LazyModule.__getattr__).
NO_ATTRIBUTE = lazy_compile(
    r"module '(?P<module>[A-Za-z_][\w.]*)' has no attribute '(?P<name>\w+)'|"
    r"^module (?P<module2>[A-Za-z_][\w.]*) has no attribute (?P<name2>\w+)$"
)


# An object of a package's own class lacking what the caller uses (`'tokenizers.Encoding' object
# has no attribute 'tolist'`): code written against another release of that package. (numpy's and
# torch's objects are the everyday values of user code, where such a slip is the code's own; a
# Ray actor handle's attributes are the methods of the actor's class, not of Ray.)
OBJECT_NO_ATTRIBUTE = lazy_compile(
    r"^'(?P<module>[A-Za-z_]\w*(?:\.\w+)*)\.(?P<cls>[A-Z]\w*)' object has no attribute '(?P<name>\w+)'"
)


EVERYDAY_PACKAGES = frozenset(("numpy", "torch", "builtins", "verl", "collections", "pathlib", "ray"))


CASE_ONLY = lazy_compile(r"has no attribute '(?P<asked>\w+)'\. Did you mean: '(?P<meant>(?i:(?P=asked)))'\?")


MUTABLE_DEFAULT = lazy_compile(
    r"mutable default <class '(?P<module>[A-Za-z_]\w*)(?:\.\w+)+'> for field \w+ is not allowed"
)


# A message that says which version is installed: a version mismatch, whatever else it asks.
VERSION_FOUND = lazy_compile(
    r"\bbut (?:found|got|you have)\b|, found v?\d+(?:\.\d+)+\b|"
    r"\binstalled (?:with )?version\b|\bfound version\b|"
    r"\bcurrent(?:ly)? (?:installed )?version\b|"
    r"\bversion (?:of \S+ )?(?:is|installed is) \d",
    re.I,
)


# A package named next to a version it needs: `vllm>=0.7`, `transformers version >= 4.52.4`,
# `Ray version 2.43 is required`, `only available in Pytorch >=2.5`, `the installed version of
# bitsandbytes`.
_VERSION_NEEDED = lazy_compile(
    r"(?<![\w.-])(?P<a>[A-Za-z][\w.-]*?)[`'\"]?(?:\s+version)?\s*(?:>=|==|<=|~=|>|<)\s*v?\d+(?:\.\d+)+"
    r"|(?<![\w.-])(?P<b>[A-Za-z][\w-]*) (?:version |verion )?v?\d+(?:\.\d+)+\+? "
    r"(?:(?:or|and) (?:higher|later|newer|above) )?"
    r"(?:is|are) (?:required|needed)"
    # `requires optimum version `1.24.0` or higher`
    r"|(?<![\w.-])(?P<i>[A-Za-z][\w-]*) version [`'\"]v?\d+(?:\.\d+)*[`'\"] "
    r"(?:or|and) (?:higher|later|newer|above)"
    r"|(?<![\w.-])(?P<f>[A-Za-z][\w-]* [A-Za-z][\w-]*) (?:version|verion|ver\.?) v?\d+(?:\.\d+)+\+? "
    r"(?:(?:or|and) (?:higher|later|newer|above) )?(?:is|are) (?:required|needed)"
    r"|installed version of [`'\"]?(?P<c>[A-Za-z][\w-]*)"
    # `Unsupported ANTLR version 4.9.2, only 4.9.3, 4.11.0, and 4.13.2 runtime versions are supported`
    r"|\bunsupported (?P<z>[A-Za-z][\w-]*) version v?\d+(?:\.\d+)+"
    # `Found an incompatible version of torchao. Found version 0.3.1, but ...`
    r"|\b(?:incompatible|unsupported|outdated|too old an?) version of [`'\"]?(?P<x>[A-Za-z][\w-]*[A-Za-z0-9])"
    # `The PyTorch version isn't compatible with memmap nested tensors. Please upgrade ...`
    r"|\b(?P<k>[A-Za-z][\w-]*) version (?:is not|isn't|is in|not) compatible with\b"
    # `The installed VeOmni's OpsImplementationConfig has no [...]`: the installed release lacks it
    r"|\b(?:[Tt]he )?[Ii]nstalled [`'\"]?(?P<h>[A-Za-z][\w-]*)[`'\"]?(?:'s)? (?:[\w.]+ ){0,3}"
    r"(?:has no|does not (?:have|support|accept|provide|expose|export|define|include)|lacks|is too old)\b"
    # `gguf package does not provide the DeepSeek name map`
    r"|(?<![\w.-])(?P<t>[A-Za-z][\w-]*) (?:package|library) (?:does not|doesn't) "
    r"(?:provide|expose|export|define|include|have)\b"
    # `FlashInfer ReplaySSM requires a compatible flashinfer-python package`
    r"|\b(?:requires?|needs?) an? compatible [`'\"]?(?P<u>[A-Za-z][\w-]*)[`'\"]? "
    r"(?:package|library|version|release)"
    # `TransformerEngine package version mismatch. Found transformer_engine_torch v2.5.0, ...`
    r"|\b(?P<n2>[A-Za-z][\w-]*) (?:package )?versions? mismatch\b"
    # `Must have at least torch version 2.7 or higher` (Megatron's asserts on torch and TE)
    r"|\bat least (?P<m>[A-Za-z][\w-]*)(?: version)? v?\d+(?:\.\d+)+"
    # `pyarrow requires NumPy 2.0 or newer, found 1.26.4`
    r"|\b(?:requires?|needs?) (?P<r>[A-Za-z][\w-]*) v?\d+(?:\.\d+)+\+? "
    r"(?:or|and) (?:higher|later|newer|above)\b"
    r"|(?:use|install|needs?|requires?) an? (?:newer|more recent|later|older) version of "
    r"[`'\"]?(?P<g>[A-Za-z][\w-]*(?: [A-Za-z][\w-]*)?)"
    r"|(?:before|prior to|below|after|since|above|from) (?P<e>[A-Za-z][\w-]*) v?\d+(?:\.\d+)+"
    # `The experimental `_owner` argument to `ray.put` has been removed in Ray 2.56.`
    r"|\b(?:removed|deprecated|dropped|renamed|changed) (?:in|as of) (?P<y>[A-Za-z][\w-]*) v?\d+(?:\.\d+)+"
    # `requires `accelerate` v0.29.0. Please upgrade your version of accelerate`, `requires
    # `huggingface_hub` version 0.31.4 or higher`
    r"|\brequires? [`'\"](?P<w>[A-Za-z][\w-]*)[`'\"] (?:version )?v?\d+(?:\.\d+)+"
    # `You need optimum-quanto package version to be greater or equal than 0.2.5`, `The gptqmodel
    # version should be >= 1.4.3`
    r"|(?<![\w.-])(?P<o>[A-Za-z][\w-]*) (?:package )?version (?:to be|should be|must be) "
    r"(?:greater|higher|newer|at least|>=)"
    # `Only TE with version >=2.3.0 supports delay_wgrad_compute now.` (megatron-core; a known
    # package only)
    r"|(?<![\w.-])(?P<l>[A-Za-z][\w-]*) with version\s*(?:>=|==|~=|>)\s*v?\d+(?:\.\d+)+"
    # `Please install the latest version of Quark (>=0.12).` (with a pin: without one, the words
    # only say how to install a package that is missing)
    r"|\binstall the (?:latest|newest|most recent) version of [`'\"]?(?P<j>[A-Za-z][\w-]*[A-Za-z0-9])"
    r"[`'\"]? \((?:>=|>) ?v?\d"
    r"|(?:upgrade|update|downgrade) (?:your )?(?:version|installation|install) of "
    r"[`'\"]?(?P<v>[A-Za-z][\w-]*)"
    r"|(?:upgrade|update|downgrade) (?:your )?[`'\"]?(?P<d>[A-Za-z][\w-]*)[`'\"]?(?: to| version|\b)",
    re.I,
)


# Words around a pin that ask for it: `requires vllm>=0.7`, `vllm>=0.7 is required`, `install ...`.
_ASKS_FOR_PIN = lazy_compile(
    r"requir|\bneeds?\b|install|upgrad|downgrad|\bsupport|compatib|\bworks? (?:with|on)\b|\bexpect|"
    r"\bmust\b|\bonly\b|\bplease\b|\buse\b|\bavailable\b|\bversion\b",
    re.I,
)


_INSTALL_NEEDED = lazy_compile(
    r"pip3? install (?:-U |--upgrade |-q )*[`'\"]?(?P<a>[A-Za-z][\w.-]*[A-Za-z0-9])"
    r"|(?:package|library|module) [`'\"](?P<b>[A-Za-z][\w.-]*)[`'\"] "
    r"(?:is|are) (?:required|not installed|needed|missing)"
    r"|(?:package|library|module) [`'\"]?(?P<h>[A-Za-z][\w.-]*[_\d][\w.-]*)[`'\"]? "
    r"(?:is not|seems? (?:to be )?not(?: to be)?) installed"
    r"|the package for (?P<i>[A-Za-z][\w.-]*) (?:doesn't|does not) seem to be installed"
    # (`Make sure you have the `kernels` package and `nvidia-cutlass-dsl` installed.`: the first)
    r"|make sure (?:that )?you have (?:the )?[`'\"]?(?P<j>[A-Za-z][\w.-]*)[`'\"]?"
    r"(?: (?:package|library))?(?: and [^.]{1,80})? installed"
    r"|ensure (?:that )?(?:the )?[`'\"]?(?P<c>[A-Za-z][\w.-]*)[`'\"]? (?:package )?"
    r"is (?:properly |correctly )?installed"
    r"|requires? (?:the )?[`'\"](?P<d>[A-Za-z][\w.-]*)[`'\"](?: package| library)?"
    r"(?: to be installed)?(?:[.,;:]|$)"
    r"|[`'\"]?(?P<e>[A-Za-z][\w.-]*)[`'\"]? (?:is|are) not installed"
    r"|[`'\"]?(?P<k>[A-Za-z][\w.-]*)[`'\"]? (?:module|package|library) (?:was|is) not (?:found|available)"
    r"|requires? (?P<l>[A-Za-z][\w.-]*) to be installed"
    r"|requires? (?P<r>[A-Za-z][\w.-]*) (?:being|to be) available"
    # `TRTLLM FP4 GEMM requires FlashInfer` (asserted where the code needs it): a known package
    # named last, no release asked for
    r"|requires? [`'\"]?(?P<last>[A-Za-z][\w.-]*[A-Za-z0-9])[`'\"]?\s*[.!]?$"
    # `... requires some operators from vllm. Please install vllm.` (a known package, or any name
    # an ImportError asks for; never `Please install it`, `Please install the ...`)
    r"|please install (?!(?:it|them|this|these|that|those|the|a|an|one|all|any)\b)[`'\"]?"
    r"(?P<s>[A-Za-z][\w.-]*[A-Za-z0-9])[`'\"]?"
    r"(?:[.,;:!)]|$| (?:package|library|first|to|for|with|and|or|via|using|by)\b)"
    r"|install (?:the )?[`'\"](?P<m>[A-Za-z][\w.-]*)[`'\"] (?:package|library|module)"
    r"|need to have (?P<n>[A-Za-z][\w.-]*)(?: or [A-Za-z][\w.-]*)* installed"
    # `Cannot find a working triton installation. Either the package is not installed or it is
    # too old.` (torch's inductor)
    r"|cannot find a working (?P<z>[A-Za-z][\w.-]*) installation"
    # `Need to install fused_dense` (flash-attn's optional CUDA extensions), `you have to install
    # `yt_dlp` first` (transformers' load_video), `you must install APEX with --cpp_ext and
    # --cuda_ext` (megatron-core's fused weight-gradient kernel)
    r"|\b(?:(?:needs?|ha(?:ve|s)) +to|must) install (?:the )?(?!(?:latest|newest|it|them)\b)"
    r"[`'\"]?(?P<o>[A-Za-z][\w.-]*[A-Za-z0-9])[`'\"]?"
    r"(?:[.,;:!)]|$| (?:package|library|extension|first|to|with)\b)"
    # `Failed to import module 'bitsandbytes.optim'. Make sure the package is installed.`
    r"|failed to import (?:module |package )?['\"`](?P<v>[A-Za-z][\w]*)(?:\.[\w.]+)?['\"`]\. "
    r"(?:make sure|ensure|please install|is it installed)"
    # `requires fbgemm-gpu library` (transformers runs it into the next sentence: `libraryPlease`):
    # a name spelt like a distribution (a hyphen, underscore or digit)
    r"|requires? (?:the )?(?P<q>[A-Za-z][\w.]*[-_\d][\w.-]*) (?:library|package)"
    r"|^[`'\"]?(?P<p>[A-Za-z][\w.-]*)[`'\"]? is not available\b"
    # `A valid HQQ version (>=0.2.1) is not available. Please follow the instructions to install
    # it` (transformers' quantizers: missing, or older than the pin)
    r"|\bvalid [`'\"]?(?P<f>[A-Za-z][\w.-]*)[`'\"]? version \([<>=~!]{1,2} ?v?\d+(?:\.\d+)*\) "
    r"is not (?:available|installed|found)"
    # `Loading a Quark quantized model requires the `quark` library but it was not found in the
    # environment` (transformers' requires_backends words)
    r"|\brequires? (?:the )?[`'\"]?(?P<g>[A-Za-z][\w.-]*)[`'\"]? (?:library|package) but it was not found\b"
    # `no FP8-compatible backend was installed. Valid backends are: `torchao`, ...` (accelerate)
    r"|\bno [\w -]{1,40} (?:was|is|were|are) installed\. (?:Valid|Supported|Available) \w+ are:? "
    r"[`'\"]?(?P<u>[A-Za-z][\w.-]*[A-Za-z0-9])"
    # `nvidia-ml-py does not seem to be installed or it can't be imported.` (torch.cuda's pynvml)
    r"|^[`'\"]?(?P<t>[A-Za-z][\w.-]*[A-Za-z0-9])[`'\"]? (?:does not|doesn't) seem to be installed\b"
    # `Polars needs to be installed to be able to return Polars dataframes.` (datasets), `PyTorch
    # should be installed. Please follow the instructions at ...` (transformers' pipelines)
    r"|^[`'\"]?(?P<y>[A-Za-z][\w.-]*[A-Za-z0-9])[`'\"]? (?:needs|has|must|should) (?:to )?be installed\b"
    # `tabulate package is required to visualize sharding` (an import's own words)
    r"|^(?:the )?[`'\"]?(?P<w>[A-Za-z][\w.-]*)[`'\"]? (?:package|library|module) "
    r"(?:is|are) (?:required|needed)\b"
    # `Pandas is required for the TAPAS tokenizer.`, `Torch xla must be installed to use ...`: an
    # import that opens with a package's name (a known package only)
    r"|^[`'\"]?(?P<x>[A-Za-z][\w-]*(?: [A-Za-z][\w-]*)?)[`'\"]? "
    r"(?:is required|must be installed) (?:for|to|by)\b",
    re.I,
)


RAISING = {
    "PackageNotFoundError",
    "ImportError",
    "ModuleNotFoundError",
    "RuntimeError",
    "ValueError",
    "NotImplementedError",
    "AssertionError",
    "TypeError",
    "EnvironmentError",
    "OSError",
    "Exception",
}


# A call that does not fit the callee's signature (Python's own wording).
_CALL_MISMATCH = lazy_compile(
    r"(?<![\w.])(?P<callee>[A-Za-z_][\w.]*)\(\) (?:got an unexpected keyword argument|"
    r"missing \d+ required (?:positional|keyword-only) arguments?|"
    r"takes (?:from )?\d+ (?:to \d+ )?positional arguments? but \d+ (?:were|was) given|"
    r"got multiple values for argument)"
)


# verl calls these user functions by its own contract: a mismatch is the user's signature.
USER_CONTRACT = frozenset(("compute_score",))


# Arguments verl builds a custom dataset class with that its own RLHFDataset gained in a release
# (verl/utils/dataset/rl_dataset.py; passed by create_rl_dataset with data.train_max_samples).
DATASET_ARGS_SINCE = {"max_samples": "0.7"}


def missing_module_name(message: str) -> str | None:
    """The module a `No module named 'x'` message names."""
    m = NO_MODULE.search(message) or _NO_MODULE_PATH.search(message)
    return m["module"] if m else None


# The keyword a call was given that its callee does not take.
_UNEXPECTED_KEYWORD = lazy_compile(
    r"(?<![\w.])(?P<callee>[A-Za-z_][\w.]*)\(\) got an unexpected keyword argument '(?P<kwarg>\w+)'"
)


def unexpected_keyword(message: str) -> tuple[str, str] | None:
    """(callee, keyword) of `X() got an unexpected keyword argument 'k'`."""
    m = _UNEXPECTED_KEYWORD.search(message)
    return (m["callee"], m["kwarg"]) if m else None


def called_function(message: str) -> str | None:
    """The function a call that fits no signature of it was made to (`compute_score`)."""
    m = _CALL_MISMATCH.search(message)
    return m["callee"] if m else None


def called_for_another_verl(message: str) -> Fallback | None:
    """A call to one of verl's functions or classes with arguments it does not take: the caller
    was written for another verl release. The same call into mbridge (verl's Megatron bridge) is
    verl and mbridge releases that do not fit each other."""
    m = _CALL_MISMATCH.search(message)
    if not m:
        return None
    callee = m["callee"]
    parts = callee.split(".")
    owner = next((p for p in parts if p in verl_names() and p not in USER_CONTRACT), None)
    if owner is not None:
        return Fallback(
            "ENV005",
            {"name": f"{callee}()"},
            f"a TypeError calling verl's {owner} with arguments this release does not take",
        )
    # A public method (`Bridge.save_weights`) or a bridge's constructor: mbridge's module-level
    # names alone (`ModuleDict`, `DropPath`) are shared with torch and others.
    method = ".".join(parts[-2:])
    if (len(parts) >= 2 and method in release_names("mbridge")) or (
        method.endswith(".__init__") and "Bridge" in parts[-2] and parts[-2] in release_names("mbridge")
    ):
        return Fallback(
            "ENV008",
            {"name": f"{callee}()"},
            f"a TypeError calling mbridge's {callee} with arguments the installed mbridge does not take",
        )
    return None


# An install that asks for a newer release (`Please install the latest version of torch`,
# `pip install --upgrade torch`): the package is there, at another version.
UPGRADE = lazy_compile(r"\blatest version of\b|\b(?:pip3? install )?(?:--upgrade|-U)\b|\bupgrade\b", re.I)


# A pinned package said to be missing, after the pin.
_PIN_NOT_INSTALLED = lazy_compile(r"\b(?:which|that|it) (?:is|was) not installed\b", re.I)


# Words a pin may follow that name no package.
_NOT_A_PACKAGE_NAME = frozenset(("version", "versions", "release", "v"))


_TO_INSTALL = lazy_compile(r"\binstall|your version is|installed version", re.I)


def version_required(message: str, exc_type: str) -> Fallback | None:
    if exc_type not in RAISING:
        return None
    for m in _VERSION_NEEDED.finditer(message):
        if m.group("a") and not _ASKS_FOR_PIN.search(message, max(0, m.start() - 80), m.end() + 40):
            continue  # a pin listed (`specified pip field: ['math-verify==0.7.0']`), not one asked for
        name = next(g for g in m.groups() if g)
        if name.lower() in _NOT_A_PACKAGE_NAME:
            continue  # a range written around the word itself (`0.19.1 <= version < 0.20.0`)
        if m.group("t") and name.lower() == "distributed":
            continue  # torch's words for torch.distributed (`Distributed package doesn't have MPI built in`)
        package = known_package(name)
        if package is None and (
            (m.group("a") and _TO_INSTALL.search(message))
            or m.group("i")
            or m.group("h")
            or m.group("t")
            or m.group("u")
            or m.group("x")
            or m.group("w")
            or m.group("v")
            or m.group("z")
            or m.group("o")
            or m.group("j")
            # `Your currently installed version of Keras is Keras 3, but this is not yet supported`
            or m.group("c")
        ):
            # `requires jinja2>=3.1.0 to be installed`, `requires optimum version `1.24.0` or
            # higher`: a package by its pin
            package = name.lower()
        # (the package asked for without a pin of its own: `Please install vllm by ...`, not
        # `Please install torch>=2.5.0`)
        asked_to_install = re.search(
            rf"\bplease install {re.escape(name)}\b(?!\s*(?:[<>=~!]|version))", message, re.I
        )
        if (
            package
            and (
                _PIN_NOT_INSTALLED.search(message, m.end())
                or (asked_to_install and not UPGRADE.search(message))
            )
            and not VERSION_FOUND.search(message)
        ):
            # (`needs torchcodec>=0.3.0 with FFmpeg, which is not installed`: the pin it would
            # need, of a package that is not there at all; `requires some operators from vllm.
            # Please install vllm by `pip install vllm==0.8.4``: the package asked for, the pin
            # only the release to install)
            return Fallback(
                "ENV009",
                {"module": package, "pkg": pip_distribution(package)},
                f"{an(exc_type)} naming {package}, which is not installed",
            )
        if package:
            said = (
                f"saying the installed {package} lacks what it needs"
                if m.group("h") or m.group("t") or m.group("u")
                else f"naming the {package} release that changed what it calls"
                if m.group("y")
                else f"naming the {package} version it needs"
            )
            return version_mismatch(package, None, f"{an(exc_type)} {said}")
    return None


_NEEDS_IT_TYPES = frozenset(("ImportError", "ModuleNotFoundError", "RuntimeError"))


# What a message may say must be installed that is no Python package (a platform, or `it`).
_NOT_A_PACKAGE = frozenset(
    ("cuda", "rocm", "hip", "nvcc", "gpu", "npu", "xpu", "tpu", "mps", "cann", "driver", "it")
)


_ALTERNATIVELY = lazy_compile(r"\b(?:alternatively|or else|otherwise)\b", re.I)


def install_required(message: str, exc_type: str) -> Fallback | None:
    # (and a library's own class for a missing piece: torch's `TritonMissing`)
    if exc_type not in RAISING and not exc_type.endswith("Missing"):
        return None
    for m in _INSTALL_NEEDED.finditer(message):
        if _ALTERNATIVELY.search(message, 0, m.start()):
            break  # an install offered as another way out (`Alternatively, make sure you have X`)
        name = m[m.lastgroup or 0]
        # `requires 'X'`, `requires X to be installed` (or `being available`), `X is not installed`
        # and `X module was not found` may name something else than a package: there X must be a
        # known package, or (`X is not installed`) a module's name such as `rotary_emb`.
        # An ImportError that opens with `X is not available` or `X is not installed` names the
        # module it could not import.
        imported = exc_type == "ImportError" and m.start() == 0
        if (
            m.lastgroup == "p"
            and not imported
            and not (
                # (`NIXL is not available` raised where the code needs it: a package it knows)
                exc_type in _NEEDS_IT_TYPES and known_package(name) and name.lower() not in _NOT_A_PACKAGE
            )
        ):
            continue  # `Cuda is not available.` raised as a ValueError: not an import
        if m.lastgroup == "last" and name.lower() in _NOT_A_PACKAGE:
            continue  # (`... requires CUDA`: a platform)
        named = (
            m.lastgroup not in ("d", "e", "k", "l", "p", "r", "s", "w", "x", "last")
            # `... CUDA op requires DeepGEMM to be installed`, raised where the code needs it: a
            # package by any name, but a platform (`requires CUDA to be installed`)
            or (m.lastgroup == "l" and exc_type in _NEEDS_IT_TYPES and name.lower() not in _NOT_A_PACKAGE)
            # an import that failed, asking for a package by name: `Please install simm by ...`
            or (m.lastgroup in ("s", "w") and exc_type in ("ImportError", "ModuleNotFoundError"))
            or (m.lastgroup == "e" and bool(re.search(r"[_\d]", name)))
            # (`Please install causal-conv1d.`: a name spelt like a distribution, whatever raised it)
            or (m.lastgroup == "s" and bool(re.search(r"[-_\d]", name)))
            # (an import that failed says what is not installed: `..., MLX is not installed.`)
            or (
                m.lastgroup == "e"
                and exc_type in ("ImportError", "ModuleNotFoundError")
                and name.lower() not in _NOT_A_PACKAGE
            )
            or (imported and m.lastgroup in ("e", "p"))
        )
        # (a module of a package, `the pyarrow.dataset module is not available`: that package)
        package = known_package(name) or (known_package(name.split(".")[0]) if "." in name else None)
        if package is None and named:
            # (a name that opens the sentence is capitalised by the sentence: `Polars needs to be ...`)
            package = name.lower() if m.lastgroup == "y" else name
        if package == "verl":
            return Fallback("ENV001", {"module": "verl"}, f"{an(exc_type)} asking to install verl")
        if package:
            return Fallback(
                "ENV009",
                {"module": package, "pkg": pip_distribution(package)},
                f"{an(exc_type)} asking to install {package}",
            )
    return None


def missing_module(module: str) -> Fallback | None:
    top = module.split(".")[0]
    if module in NOT_PACKAGES or top in NOT_PACKAGES:
        return None
    if module == "verl":
        return Fallback("ENV001", {"module": module}, "a ModuleNotFoundError for verl itself")
    if "." in module and module not in pip_names() and top not in NAMESPACES:
        # The package is there but lacks a submodule: another version than the code expects.
        if top in VERSION_RULES or top in pip_names():
            return version_mismatch(top, module, f"a ModuleNotFoundError for {module}")
        return None  # most likely the user's own package; nothing general to say
    return Fallback(
        "ENV009", {"module": module, "pkg": pip_distribution(module)}, f"a ModuleNotFoundError for {module}"
    )


# Unpacking what a call returned, with the wrong count (`too many values to unpack (expected 3)`).
_UNPACK = lazy_compile(r"\b(?:too many|not enough) values to unpack\b")


# verl's code that drives one engine, and the assignment from a call on a traceback's source line.
_ENGINE_GLUE = lazy_compile(
    r"/verl/(?:workers/rollout/(?P<engine>vllm|sglang)_rollout|third_party/(?P<vendored>vllm|sglang))/"
)


_ASSIGNED_FROM_CALL = lazy_compile(
    r"^[\w.\[\]]+(?:\s*,\s*[\w.\[\]]+)+\s*=\s*(?:await\s+)?(?P<callee>[\w.]+)\("
)


def engine_result_changed(message: str, path: str, statement: str) -> Fallback | None:
    """A ValueError from unpacking what a call returned, raised in verl's code for one rollout
    engine (`a, b, c = _launch_subprocesses(...)` in sglang_rollout): that engine function returns
    another number of values in the installed release than this verl was written for."""
    m = _ENGINE_GLUE.search(path.replace("\\", "/"))
    call = _ASSIGNED_FROM_CALL.match(statement.strip())
    if not (_UNPACK.search(message) and m and call):
        return None
    engine = m["engine"] or m["vendored"]
    return version_mismatch(
        engine,
        call["callee"],
        f"a ValueError unpacking what {call['callee']}() returned, in verl's {engine} rollout code",
    )


# verl's code that patches another library's classes in place (`patch_vllm_moe_model_weight_loader`,
# verl/models/transformers/monkey_patch.py): the library each part of verl patches.
_PATCHING = lazy_compile(r"(?:^|_)patch(?:ed|es|ing)?(?:_|$)")


_PATCHED_LIBRARY = (
    (lazy_compile(r"vllm"), "vllm"),
    (lazy_compile(r"sglang"), "sglang"),
    (lazy_compile(r"/verl/models/transformers/"), "transformers"),
    (lazy_compile(r"/verl/models/mcore/|megatron"), "megatron"),
)


# A class without the attribute the patch reaches for.
_LACKS_ATTRIBUTE = lazy_compile(
    r"\b(?:does not|doesn't) have (?:an? |the )?(?:valid )?"
    r"(?:['\"`]?\w+['\"`]? (?:or ['\"`]?\w+['\"`]? )?)?attribute|"
    r"\bhas no attribute\b|\bno (?:valid )?attribute\b|"
    # (a field of the model's config class the patch reads: `Either rope_scaling or rope_parameter
    # should be defined in the config for GLM4V`)
    r"\b(?:should|must) be defined in the (?:model(?:'s)? )?config\b"
)


# Inputs of another shape than the code expects (`should be 3D, ..., got 2D`, `expected ndim 3`).
_ANOTHER_SHAPE = lazy_compile(r"\b(?:ndim|n_?dims?|shape)\b|\b\d+-?D\b.*\bgot \d+-?D\b", re.I)


# ... but not values of as many dimensions whose lengths differ (`value tensor of shape [3, 19963]
# cannot be broadcast to indexing result of shape [3, 16467]`): what the data holds, not a layout.
_LENGTHS_DIFFER = lazy_compile(r"\bcannot be broadcast to indexing result of shape\b")


def patched_library_changed(message: str, path: str, func: str) -> Fallback | None:
    """verl patching another library's class that lacks what the patch reaches for (`The provided
    model does not have a valid 'model' or 'language_model' attribute`), or that hands the patched
    function inputs of another shape (`hidden_states should be 3D, [s, b, n*h], got 2D`): that
    library's release lays its classes out, or calls them, otherwise than the one verl's patch
    was written for."""
    p = path.replace("\\", "/")
    # (verl's replacements of transformers' model code, a patched attention forward, are patches
    # whatever their function's name)
    patching = _PATCHING.search(func) or "/verl/models/transformers/" in p
    if not (patching and (_LACKS_ATTRIBUTE.search(message) or _ANOTHER_SHAPE.search(message))):
        return None
    if _LENGTHS_DIFFER.search(message):
        return None
    where = p[p.rfind("/verl/") + 1 :]
    for pattern, library in _PATCHED_LIBRARY:
        if pattern.search(p + ":" + func):
            basis = f"verl's patch of {library} in {where} ({func}) did not find what it patches"
            return version_mismatch(library, None, basis)
    return None


def patch_lacks_a_name(path: str, func: str) -> Fallback | None:
    """A NameError in verl's patch of another library (`name 'compute_routing_scores_for_aux_loss'
    is not defined` in verl/utils/megatron/router_replay_patch.py's patched_routing): the patch
    imports that library's helpers in a `try`, and this release of the library has none of that
    name, so the import failed quietly (verl warns `NPU not support router replay` then)."""
    p = path.replace("\\", "/")
    if not (_PATCHING.search(func) or _PATCHING.search(p.rsplit("/", 1)[-1].removesuffix(".py"))):
        return None
    where = p[p.rfind("/verl/") + 1 :]
    for pattern, library in _PATCHED_LIBRARY:
        if pattern.search(p + ":" + func):
            basis = (
                f"a NameError in verl's patch of {library} ({where}, {func}): a name this release of "
                f"{library} lacks"
            )
            return version_mismatch(library, None, basis)
    return None


# A function or class of the package's own API that its release no longer provides: the caller
# (a user's script, another package) was written for another release.
_API_GONE = lazy_compile(
    r"^(?P<name>[A-Za-z_][\w.]*)(?:\(\))? (?:is deprecated|has been removed|was removed|is no longer "
    r"(?:supported|available))\b"
)

# ... or that the way of working a call needs was retired (`ServerAdapter does not support
# synchronous generate_sequences(). The vLLM SPMD mode was retired in PR #4411.`).
_CALL_RETIRED = lazy_compile(
    r"\b(?P<name>[A-Za-z_][\w.]*)\(\)[^\n]{0,200}?\b(?:was|were|has been|have been) (?:retired|removed)\b"
)


def api_gone(exc_type: str, message: str, package: str) -> Fallback | None:
    """An exception of a package saying a function of its API is gone (`get_dist_checkpoint_path
    is deprecated. ... Use the explicit helpers: ...`): code written for another release of it."""
    m = _API_GONE.match(message.strip()) or _CALL_RETIRED.search(message)
    if m is None or package not in VERSION_RULES:
        return None
    return version_mismatch(
        package, m["name"], f"{an(exc_type)} in which {package} says {m['name']} is no longer part of its API"
    )
