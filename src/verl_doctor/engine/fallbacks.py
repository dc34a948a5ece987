"""What an exception no rule knows still says, from its class and the names in its message.

A rule's signature recognises a failure by its wording; this module recognises a class of
failure by mechanism, for the wordings no rule has seen:

- `No module named 'X'` for a package that is not part of the code running it: a missing
  dependency (ENV009), naming the pip distribution to install;
- `No module named 'P.sub'`, `cannot import name 'N' from 'P'`, `module 'P' has no attribute 'N'`:
  the installed P is another version than the code needs (verl ENV005, vLLM/SGLang ENV004,
  transformers ENV010, the Megatron stack ENV008, any other package ENV013);
- `FileNotFoundError` on a data file or on a model's files: CFG013 / CFG017;
- exception classes that name the path at fault by themselves: `HFValidationError` (a path passed
  where a hub id is expected) and `NotASafetensorsRepoError`, CFG017; `DatasetNotFoundError`, CFG013.

- an `AssertionError`/`ValueError`/... raised by verl's own config validation: a config error,
  CFG011 (a value that must be set), CFG004 (batch sizes that must divide), CFG010 (parallel
  sizes), else CFG014 (a value verl does not accept).

These answers are weaker than a signature's (the mechanism, not the message, is known): the
analyzer reports them with medium confidence and says what they rest on.
"""

from __future__ import annotations

import re
from functools import lru_cache

from verl_doctor.common.lazy_re import lazy_compile
from verl_doctor.common.records import record
from verl_doctor.common.resources import data_path

_NO_MODULE = lazy_compile(r"No module named '?(?P<module>[A-Za-z_][\w.]*)'?")
# A file path given where a module name is expected (importlib.import_module('/abs/dir/patch')).
_NO_MODULE_PATH = lazy_compile(r"No module named '(?P<module>[^'\s]*/[^'\s]*)'")
_CANNOT_IMPORT = lazy_compile(r"cannot import name '?(?P<name>[\w.]+)'? from '?(?P<module>[A-Za-z_][\w.]*)'?")
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
_OBJECT_NO_ATTRIBUTE = lazy_compile(
    r"^'(?P<module>[A-Za-z_]\w*(?:\.\w+)*)\.(?P<cls>[A-Z]\w*)' object has no attribute '(?P<name>\w+)'"
)
_EVERYDAY_PACKAGES = frozenset(("numpy", "torch", "builtins", "verl", "collections", "pathlib", "ray"))
_CASE_ONLY = lazy_compile(r"has no attribute '(?P<asked>\w+)'\. Did you mean: '(?P<meant>(?i:(?P=asked)))'\?")
_MUTABLE_DEFAULT = lazy_compile(
    r"mutable default <class '(?P<module>[A-Za-z_]\w*)(?:\.\w+)+'> for field \w+ is not allowed"
)
_NO_SUCH_FILE = lazy_compile(r"No such file or directory: '(?P<path>[^']{1,1000})'")

# Import names whose version mismatches have their own rule.
_VERSION_RULES = {
    "verl": "ENV005",
    "vllm": "ENV004",
    "sglang": "ENV004",
    "transformers": "ENV010",
    "megatron": "ENV008",
    "mbridge": "ENV008",
    "transformer_engine": "ENV008",
    "apex": "ENV008",
}
# The codes that read an error as code written against another release of a package.
VERSION_MISMATCH_CODES = frozenset((*_VERSION_RULES.values(), "ENV013"))
_DATA_SUFFIXES = (".parquet", ".jsonl", ".json", ".csv", ".arrow", ".tsv")
_MODEL_FILES = lazy_compile(
    r"(?:^|/)(?:(?:adapter_)?config\.json|generation_config\.json|tokenizer(?:_config)?\.json|tokenizer\.model|"
    r"preprocessor_config\.json|[\w.-]*\.safetensors(?:\.index\.json)?|(?:pytorch|adapter)_model[\w.-]*\.bin)$"
)
# Modules that are never a pip package of their own: a user's file, verl's generated code,
# remote-code models (CFG007), vLLM's optional version stamp.
_NOT_PACKAGES = {"__main__", "transformers_modules", "custom_module", "vllm._version"}
# Roots shared by unrelated distributions: `google.protobuf` missing means protobuf is missing.
_NAMESPACES = {"google", "nvidia", "azure", "jaxlib"}
_pip_names: dict[str, str] | None = None


@record(frozen=True)
class Fallback:
    code: str
    groups: dict[str, str]
    basis: str  # what the answer rests on, said to the user


def an(exc_type: str) -> str:
    """`an AssertionError`, `a ValueError`."""
    return ("an " if exc_type[:1] in "AEIOU" else "a ") + exc_type


def pip_names() -> dict[str, str]:
    """Import name -> pip distribution, for the packages verl users install."""
    global _pip_names
    if _pip_names is None:
        table: dict[str, str] = {}
        with open(data_path("pip_names.tsv"), encoding="utf-8") as fh:
            for row in fh:
                if row.strip() and not row.startswith("#"):
                    name, _, dist = row.rstrip("\n").partition("\t")
                    if dist:
                        table[name.strip()] = dist.strip()
        _pip_names = table
    return _pip_names


def pip_distribution(module: str) -> str:
    """The pip name for an import name: a known pair, else the top-level name with `-`."""
    names = pip_names()
    parts = module.split(".")
    for i in range(len(parts), 0, -1):
        dist = names.get(".".join(parts[:i]))
        if dist:
            return dist
    return parts[0].replace("_", "-")


# Ray's classes for a worker that died, as a driver's `RayTaskError(...)` envelope names them
# (RayTaskError.as_instanceof_cause, ray/exceptions.py): the class alone says what happened.
ACTOR_DEATHS = frozenset(("ActorDiedError", "RayActorError", "WorkerCrashedError", "ActorUnavailableError"))


def envelope_class(inner: str) -> Fallback | None:
    """The answer for a Ray envelope whose inner exception's own lines are not in the log."""
    if inner in ACTOR_DEATHS:
        return Fallback(
            "DIST003", {}, f"a Ray envelope naming {inner}; the death's own message is not in the log"
        )
    if inner == "DistBackendError":  # torch's error for a failed NCCL call; its words say which
        return Fallback(
            "DIST007",
            {},
            "a Ray envelope naming DistBackendError (an NCCL call failed); its own message is not in the log",
        )
    return None


_ARGPARSE_REFUSALS = frozenset(("ArgumentTypeError", "ArgumentError"))
# Exception classes that say by themselves which path was wrong, whatever their words.
_PATH_ERRORS = {
    # huggingface_hub: a path or name given where a hub id is expected (utils/_validators.py)
    "HFValidationError": ("CFG017", "a path or name that is not a hub id"),
    # huggingface_hub: a model repo (or folder) without safetensors weights (hf_api.py)
    "NotASafetensorsRepoError": ("CFG017", "a model repository without safetensors weights"),
    # datasets: a dataset repo, revision or config on the Hub that is not there (load.py)
    "DatasetNotFoundError": ("CFG013", "a dataset that is not there"),
}


@lru_cache(maxsize=4096)  # a log repeats its exceptions on every rank and retry
def classify(message: str, exc_type: str | None) -> Fallback | None:
    """The fallback answer for an exception line's text (type and message), or None."""
    m = _NO_MODULE.search(message)
    if m and (exc_type in (None, "ModuleNotFoundError", "ImportError") or "No module named" in message):
        return _missing_module(m["module"].rstrip("."))
    m = _CANNOT_IMPORT.search(message)
    if m and "partially initialized" not in message:
        return version_mismatch(m["module"], m["name"], f"{an(exc_type or 'ImportError')} from {m['module']}")
    m = _CASE_ONLY.search(message)
    if m and exc_type == "AttributeError":
        # Python suggests the same name in another case: a name (a class a config names) written
        # with the wrong case, not a release that lacks it
        return Fallback(
            "CFG008",
            {},
            f"an AttributeError on {m['asked']} where Python suggests {m['meant']}: a name's case",
        )
    m = NO_ATTRIBUTE.search(message.strip())
    if m and exc_type == "AttributeError" and "partially initialized" not in message:
        module, name = m["module"] or m["module2"], m["name"] or m["name2"]
        top = module.split(".")[0]
        if top in _VERSION_RULES or top in pip_names():
            return version_mismatch(module, name, f"an AttributeError on module {module}")
        return None
    m = _OBJECT_NO_ATTRIBUTE.search(message.strip())
    if m and exc_type == "AttributeError":
        top = m["module"].split(".")[0]
        if top not in _EVERYDAY_PACKAGES and (top in _VERSION_RULES or top in pip_names()):
            return version_mismatch(
                m["module"], m["name"], f"an AttributeError on a {m['module']}.{m['cls']} object"
            )
    m = _MUTABLE_DEFAULT.search(message)
    if m and known_package(m["module"]):
        # Python 3.11's dataclasses refuse any unhashable default: a known package's release
        # written for an older Python (hydra-core 1.1 on 3.11) fails as it is imported. (A
        # `list` default, or a class of the user's own script, is their code.)
        return version_mismatch(
            m["module"],
            None,
            f"{an(exc_type or 'ValueError')} from Python's dataclasses on a class of {m['module']}: "
            "a release older than this Python",
        )
    if exc_type in _PATH_ERRORS:
        code, what = _PATH_ERRORS[exc_type]
        return Fallback(code, {}, f"{an(exc_type)} ({what})")
    m = _NO_SUCH_FILE.search(message)
    if m and exc_type in ("FileNotFoundError", "OSError", "IOError"):
        path = m["path"]
        if _MODEL_FILES.search(path):
            return Fallback("CFG017", {"path": path}, "a FileNotFoundError on a model file")
        if path.lower().endswith(_DATA_SUFFIXES):
            return Fallback("CFG013", {"path": path}, "a FileNotFoundError on a data file")
    if exc_type is None:
        return None
    if exc_type in _ARGPARSE_REFUSALS:
        # verl hands the rollout engine its settings as command-line arguments (engine_kwargs become
        # `--flag value` for vLLM's and SGLang's parsers): a value the parser's type refuses.
        return Fallback("CFG014", {}, f"{an(exc_type)}: an argument parser refused a value it was given")
    if exc_type == "TypeError":
        found = _called_for_another_verl(message)
        if found:
            return found
    first, second = _version_required, _install_required
    if (
        exc_type in ("ImportError", "ModuleNotFoundError")
        and not _VERSION_FOUND.search(message)
        and not _UPGRADE.search(message)
    ):
        # An import that failed, asking for an install: the package is not there at all, even
        # when the message names the version it would need (`needs modelscope>=1.18.1, please install`).
        first, second = second, first
    found = first(message, exc_type) or second(message, exc_type)
    if found is None and exc_type in _RUNTIME_TYPES and _ASCEND_STACK.search(message):
        # (a release of the stack it needs is the version answer above, not a device error; a
        # file of the stack not found, `CANN toolkit info file does not exist: ...`, is this one)
        return Fallback("ENV012", {}, f"{an(exc_type)} about the Ascend NPU stack (CANN, torch_npu, HCCL)")
    found = found or _path_missing(message, exc_type)
    if found is None and exc_type in _RAISING and _NEEDS_NEWER_GPU.search(message):
        return Fallback("ENV007", {}, f"{an(exc_type)} asking for a newer GPU architecture")
    return found


# The Ascend NPU stack named in an error: its toolkit, the torch plugin, its collective library.
_ASCEND_STACK = lazy_compile(
    r"\bCANN\b|\btorch_npu\b|\bHCCL\b|\bAscend\b|\bnpu-smi\b|\bascend-toolkit\b|\bACL\b"
)
# Code that only runs on Ascend NPUs: the torch and vLLM plugins, verl's NPU platform and patches.
_NPU_CODE = lazy_compile(r"/(?:torch_npu|vllm_ascend|mindspeed)/|/\w*npu\w*\.py$|/npu/", re.I)


def npu_code(exc_type: str, path: str) -> Fallback | None:
    """A runtime error raised in code that only runs on Ascend NPUs (`Error checking IPC support`
    in verl's NPU platform): the NPU stack failed, whatever its words."""
    if exc_type not in _RUNTIME_TYPES or not _NPU_CODE.search(path.replace("\\", "/")):
        return None
    return Fallback(
        "ENV012", {}, f"{an(exc_type)} raised by code for Ascend NPUs ({path.rsplit('/', 1)[-1]})"
    )


# A kernel or feature that needs a newer GPU than this one, by its architecture number:
# `fused all-reduce cluster kernels require CUDA SM90 or newer`, `needs sm_100a`.
_SM = r"(?:SM ?|sm_?)(?:[7-9]\d|1[0-2]\d)a?\b"
_NEEDS_NEWER_GPU = lazy_compile(
    r"\b(?:requires?|required|needs?|only (?:supported|works|runs|available)(?: on)?|supported only on)\b"
    rf"[^.\n]{{0,60}}?\b{_SM}|\b{_SM}\+? (?:or|and) (?:newer|later|above|higher)\b"
)
_RUNTIME_TYPES = frozenset(
    ("RuntimeError", "OSError", "FileNotFoundError", "EnvironmentError", "SystemError")
)


# A message that says which version is installed: a version mismatch, whatever else it asks.
_VERSION_FOUND = lazy_compile(
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
    r"(?<![\w.-])(?P<a>[A-Za-z][\w.-]*?)(?:\s+version)?\s*(?:>=|==|<=|~=|>|<)\s*v?\d+(?:\.\d+)+"
    r"|(?<![\w.-])(?P<b>[A-Za-z][\w-]*) (?:version |verion )?v?\d+(?:\.\d+)+\+? "
    r"(?:(?:or|and) (?:higher|later|newer|above) )?"
    r"(?:is|are) (?:required|needed)"
    # `requires optimum version `1.24.0` or higher`
    r"|(?<![\w.-])(?P<i>[A-Za-z][\w-]*) version [`'\"]v?\d+(?:\.\d+)*[`'\"] "
    r"(?:or|and) (?:higher|later|newer|above)"
    r"|(?<![\w.-])(?P<f>[A-Za-z][\w-]* [A-Za-z][\w-]*) (?:version|verion|ver\.?) v?\d+(?:\.\d+)+\+? "
    r"(?:(?:or|and) (?:higher|later|newer|above) )?(?:is|are) (?:required|needed)"
    r"|installed version of [`'\"]?(?P<c>[A-Za-z][\w-]*)"
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
    # `pyarrow requires NumPy 2.0 or newer, found 1.26.4`
    r"|\b(?:requires?|needs?) (?P<r>[A-Za-z][\w-]*) v?\d+(?:\.\d+)+\+? "
    r"(?:or|and) (?:higher|later|newer|above)\b"
    r"|(?:use|install|needs?|requires?) an? (?:newer|more recent|later|older) version of "
    r"[`'\"]?(?P<g>[A-Za-z][\w-]*(?: [A-Za-z][\w-]*)?)"
    r"|(?:before|prior to|below|after|since|above|from) (?P<e>[A-Za-z][\w-]*) v?\d+(?:\.\d+)+"
    # `The experimental `_owner` argument to `ray.put` has been removed in Ray 2.56.`
    r"|\b(?:removed|deprecated|dropped|renamed|changed) in (?P<y>[A-Za-z][\w-]*) v?\d+(?:\.\d+)+"
    # `requires `accelerate` v0.29.0. Please upgrade your version of accelerate`
    r"|\brequires? [`'\"](?P<w>[A-Za-z][\w-]*)[`'\"] v?\d+(?:\.\d+)+"
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
_PACKAGE_ALIASES = {
    "pytorch": "torch",
    "megatron-lm": "megatron",
    "megatron-core": "megatron",
    "mcore": "megatron",
    "te": "transformer_engine",  # Megatron's words for Transformer Engine (`please update TE version`)
    "flashattention": "flash_attn",  # transformers' `the package for FlashAttention2`
    "flashattention2": "flash_attn",
    "flashattention3": "flash_attn_3",
}
_INSTALL_NEEDED = lazy_compile(
    r"pip3? install (?:-U |--upgrade |-q )*[`'\"]?(?P<a>[A-Za-z][\w.-]*[A-Za-z0-9])"
    r"|(?:package|library|module) [`'\"](?P<b>[A-Za-z][\w.-]*)[`'\"] "
    r"(?:is|are) (?:required|not installed|needed|missing)"
    r"|(?:package|library|module) [`'\"]?(?P<h>[A-Za-z][\w.-]*[_\d][\w.-]*)[`'\"]? "
    r"(?:is not|seems? (?:to be )?not(?: to be)?) installed"
    r"|the package for (?P<i>[A-Za-z][\w.-]*) (?:doesn't|does not) seem to be installed"
    r"|make sure (?:that )?you have [`'\"]?(?P<j>[A-Za-z][\w.-]*)[`'\"]? installed"
    r"|ensure (?:that )?(?:the )?[`'\"]?(?P<c>[A-Za-z][\w.-]*)[`'\"]? (?:package )?"
    r"is (?:properly |correctly )?installed"
    r"|requires? (?:the )?[`'\"](?P<d>[A-Za-z][\w.-]*)[`'\"](?: package| library)?"
    r"(?: to be installed)?(?:[.,;:]|$)"
    r"|[`'\"]?(?P<e>[A-Za-z][\w.-]*)[`'\"]? (?:is|are) not installed"
    r"|[`'\"]?(?P<k>[A-Za-z][\w.-]*)[`'\"]? (?:module|package|library) (?:was|is) not (?:found|available)"
    r"|requires? (?P<l>[A-Za-z][\w.-]*) to be installed"
    r"|requires? (?P<r>[A-Za-z][\w.-]*) (?:being|to be) available"
    # `... requires some operators from vllm. Please install vllm.` (a known package, or any name
    # an ImportError asks for; never `Please install it`, `Please install the ...`)
    r"|please install (?!(?:it|them|this|these|that|those|the|a|an|one|all|any)\b)[`'\"]?"
    r"(?P<s>[A-Za-z][\w.-]*[A-Za-z0-9])[`'\"]?"
    r"(?:[.,;:!)]|$| (?:package|library|first|to|for|with|and|or|via|using|by)\b)"
    r"|install (?:the )?[`'\"](?P<m>[A-Za-z][\w.-]*)[`'\"] (?:package|library|module)"
    r"|need to have (?P<n>[A-Za-z][\w.-]*)(?: or [A-Za-z][\w.-]*)* installed"
    # `Need to install fused_dense` (flash-attn's optional CUDA extensions)
    r"|\bneeds? to install (?:the )?[`'\"]?(?P<o>[A-Za-z][\w.-]*[A-Za-z0-9])[`'\"]?"
    r"(?:[.,;:!)]|$| (?:package|library|extension|first)\b)"
    # `Failed to import module 'bitsandbytes.optim'. Make sure the package is installed.`
    r"|failed to import (?:module |package )?['\"`](?P<v>[A-Za-z][\w]*)(?:\.[\w.]+)?['\"`]\. "
    r"(?:make sure|ensure|please install|is it installed)"
    # `requires fbgemm-gpu library` (transformers runs it into the next sentence: `libraryPlease`):
    # a name spelt like a distribution (a hyphen, underscore or digit)
    r"|requires? (?:the )?(?P<q>[A-Za-z][\w.]*[-_\d][\w.-]*) (?:library|package)"
    r"|^[`'\"]?(?P<p>[A-Za-z][\w.-]*)[`'\"]? is not available\b"
    # `no FP8-compatible backend was installed. Valid backends are: `torchao`, ...` (accelerate)
    r"|\bno [\w -]{1,40} (?:was|is|were|are) installed\. (?:Valid|Supported|Available) \w+ are:? "
    r"[`'\"]?(?P<u>[A-Za-z][\w.-]*[A-Za-z0-9])"
    # `nvidia-ml-py does not seem to be installed or it can't be imported.` (torch.cuda's pynvml)
    r"|^[`'\"]?(?P<t>[A-Za-z][\w.-]*[A-Za-z0-9])[`'\"]? (?:does not|doesn't) seem to be installed\b"
    # `tabulate package is required to visualize sharding` (an import's own words)
    r"|^(?:the )?[`'\"]?(?P<w>[A-Za-z][\w.-]*)[`'\"]? (?:package|library|module) "
    r"(?:is|are) (?:required|needed)\b",
    re.I,
)
_RAISING = {
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


def known_package(name: str) -> str | None:
    """The import name of a package verl's stack uses, from a name as a message prints it."""
    low = name.lower().strip("`'\".,").replace(" ", "_")  # `flash attn` as some messages write it
    low = _PACKAGE_ALIASES.get(low, low)
    if low in _VERSION_RULES:
        return low
    names = pip_names()
    if low in names or low.replace("-", "_") in names:
        return low.replace("-", "_")
    return _by_distribution().get(low)


_dist_names: dict[str, str] | None = None


def _by_distribution() -> dict[str, str]:
    """pip distribution (lower case) -> import name: the table read the other way."""
    global _dist_names
    if _dist_names is None:
        _dist_names = {dist.lower(): imp for imp, dist in pip_names().items()}
    return _dist_names


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
_names: dict[str, frozenset[str]] = {}


def release_names(package: str) -> frozenset[str]:
    """The functions and classes a package defines at module level in its releases (and, for
    mbridge, its classes' public methods as `Class.method`), harvested from its sources by
    benchmarks/harvest_verl_names.py."""
    names = _names.get(package)
    if names is None:
        with open(data_path(f"{package}_names.txt"), encoding="utf-8") as fh:
            names = _names[package] = frozenset(n.strip() for n in fh if n.strip() and not n.startswith("#"))
    return names


def verl_names() -> frozenset[str]:
    return release_names("verl")


def missing_module_name(message: str) -> str | None:
    """The module a `No module named 'x'` message names."""
    m = _NO_MODULE.search(message) or _NO_MODULE_PATH.search(message)
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


def _called_for_another_verl(message: str) -> Fallback | None:
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
_UPGRADE = lazy_compile(r"\blatest version of\b|\b(?:pip3? install )?(?:--upgrade|-U)\b|\bupgrade\b", re.I)
_TO_INSTALL = lazy_compile(r"\binstall|your version is|installed version", re.I)


def _version_required(message: str, exc_type: str) -> Fallback | None:
    if exc_type not in _RAISING:
        return None
    for m in _VERSION_NEEDED.finditer(message):
        if m.group("a") and not _ASKS_FOR_PIN.search(message, max(0, m.start() - 80), m.end() + 40):
            continue  # a pin listed (`specified pip field: ['math-verify==0.7.0']`), not one asked for
        name = next(g for g in m.groups() if g)
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
        ):
            # `requires jinja2>=3.1.0 to be installed`, `requires optimum version `1.24.0` or
            # higher`: a package by its pin
            package = name.lower()
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


def _install_required(message: str, exc_type: str) -> Fallback | None:
    if exc_type not in _RAISING:
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
        if m.lastgroup == "p" and not imported:
            continue  # `Cuda is not available.` raised as a ValueError: not an import
        named = (
            m.lastgroup not in ("d", "e", "k", "l", "p", "r", "s", "w")
            # `... CUDA op requires DeepGEMM to be installed`, raised where the code needs it: a
            # package by any name, but a platform (`requires CUDA to be installed`)
            or (m.lastgroup == "l" and exc_type in _NEEDS_IT_TYPES and name.lower() not in _NOT_A_PACKAGE)
            # an import that failed, asking for a package by name: `Please install simm by ...`
            or (m.lastgroup in ("s", "w") and exc_type in ("ImportError", "ModuleNotFoundError"))
            or (m.lastgroup == "e" and bool(re.search(r"[_\d]", name)))
            or (imported and m.lastgroup in ("e", "p"))
        )
        package = known_package(name) or (name if named else None)
        if package == "verl":
            return Fallback("ENV001", {"module": "verl"}, f"{an(exc_type)} asking to install verl")
        if package:
            return Fallback(
                "ENV009",
                {"module": package, "pkg": pip_distribution(package)},
                f"{an(exc_type)} asking to install {package}",
            )
    return None


_NOT_THERE = lazy_compile(
    r"does not exist|doesn't exist|not found|cannot find|can't find|could not find|could not locate|"
    r"no such file|does not appear to have a file named|is not a (?:directory|file)\b|no config file|"
    # a file that is not what its name or the loader says (`..., so it is not a GGUF file`)
    r"\bis not an? (?:valid )?(?:GGUF|safetensors|torch|PyTorch) (?:file|checkpoint)\b|"
    # datasets' load_from_disk: `Directory /data/gsm8k is neither a `Dataset` directory nor ...`
    r"\bis neither an? \S+ (?:directory|file|folder)\b|"
    r"\bno [\w ]{1,40} found (?:in|at|under)\b",
    re.I,
)
_PATH_IN_MESSAGE = lazy_compile(
    r"(?<![\w.:/-])(?:/|\./|~/)[\w.@+~-]+(?:/[\w.@+~-]+)*/?|[\w.-]+\.(?:py|json|safetensors|bin|model)\b"
)
_MODEL_WORDS = lazy_compile(
    r"\b(?:model|tokenizer|config\.json|safetensors|pytorch_model|weights|hf_hub|repo id|gguf)", re.I
)

# A LoRA adapter named: its folder is a model path the run gives, even when called a checkpoint.
_ADAPTER = lazy_compile(r"\b(?:adapter|LoRA|lora_adapter)\b", re.I)
# A dataset named as such (datasets' own words), not a model.
_DATA_WORDS = lazy_compile(r"\b(?:Dataset(?:Dict)?|dataset|parquet|jsonl|data files?)\b")

# What a checkpoint holds, as opposed to the options that choose what to save.
_CHECKPOINT_CONTENT = lazy_compile(
    r"state[ _]dict|global_step_\d|loaded state|checkpoint file|\bckpt/|_ckpt\b|\bckpt_|"
    r"\blayers\.\d+\.|parameter name",
    re.I,
)
# The model's own shape (config.json fields): a fact about the model unless a parallel size is
# what it is compared with.
_MODEL_SHAPE = lazy_compile(
    r"\b(?:hidden_size|num_heads|num_attention_heads|num_key_value_heads|head_dim|intermediate_size|"
    r"vocab_size|num_hidden_layers)\b"
)
# Any mention of a checkpoint: a path near it is not the model's or the data's.
_CHECKPOINT = lazy_compile(r"checkpoint|state[ _]dict|global_step_\d|loaded state|\bckpt\b", re.I)

# The files that describe a model or adapter folder (not its weights).
_MODEL_DESCRIPTOR = lazy_compile(
    r"(?:^|/)(?:(?:adapter_|generation_|preprocessor_|tokenizer_)?config\.json|tokenizer\.json)$"
)


def _path_missing(message: str, exc_type: str) -> Fallback | None:
    """A path (or a model file's name) the message says is not there: by what it is."""
    if exc_type not in _RAISING | {
        "FileNotFoundError",
        "IOError",
        "HFValidationError",
        "AttributeError",
    } or not _NOT_THERE.search(message):
        return None
    paths = [m.group(0).rstrip(".,") for m in _PATH_IN_MESSAGE.finditer(message)]
    named = next((p for p in paths if _MODEL_DESCRIPTOR.search(p)), None)
    in_checkpoint = _CHECKPOINT.search(message)
    if named is not None and in_checkpoint:
        # A model folder's description (config.json, adapter_config.json) missing from a training
        # checkpoint's folder: the step folder was given where a model or adapter folder belongs.
        # (Weight shards missing there are a save or merge that failed.)
        return Fallback("CFG017", {"path": named}, f"{an(exc_type)}: a model file that is not there")
    if in_checkpoint and _ADAPTER.search(message) and paths:
        # a LoRA adapter's folder (`Adapter checkpoint not found: ...`) is a model path the run names
        return Fallback(
            "CFG017", {"path": paths[0]}, f"{an(exc_type)}: a LoRA adapter path that is not there"
        )
    if in_checkpoint:
        return None  # what a checkpoint holds (state dicts, global_step folders): not a setting
    for path in paths:
        low = path.lower()
        if low.endswith(_DATA_SUFFIXES) and not _MODEL_FILES.search(path):
            return Fallback("CFG013", {"path": path}, f"{an(exc_type)}: a data file that is not there")
        if low.endswith(".py"):
            return Fallback(
                "CFG008", {"path": path}, f"{an(exc_type)}: a custom module file that is not there"
            )
        if _DATA_WORDS.search(message) and not _MODEL_WORDS.search(message):
            return Fallback("CFG013", {"path": path}, f"{an(exc_type)}: a dataset path that is not one")
        if _MODEL_FILES.search(path) or _MODEL_WORDS.search(message):
            return Fallback(
                "CFG017", {"path": path}, f"{an(exc_type)}: a model path or file that is not there"
            )
    if _MODEL_FILES.search(message.replace(" ", "/")) and _MODEL_WORDS.search(message):
        return Fallback("CFG017", {}, f"{an(exc_type)}: a model file that is not there")
    return None


def _missing_module(module: str) -> Fallback | None:
    top = module.split(".")[0]
    if module in _NOT_PACKAGES or top in _NOT_PACKAGES:
        return None
    if module == "verl":
        return Fallback("ENV001", {"module": module}, "a ModuleNotFoundError for verl itself")
    if "." in module and module not in pip_names() and top not in _NAMESPACES:
        # The package is there but lacks a submodule: another version than the code expects.
        if top in _VERSION_RULES or top in pip_names():
            return version_mismatch(top, module, f"a ModuleNotFoundError for {module}")
        return None  # most likely the user's own package; nothing general to say
    return Fallback(
        "ENV009", {"module": module, "pkg": pip_distribution(module)}, f"a ModuleNotFoundError for {module}"
    )


def version_mismatch(module: str, name: str | None, basis: str) -> Fallback:
    """`name`: the name the module lacks; None when the message names the version it needs."""
    top = module.split(".")[0]
    code = _VERSION_RULES.get(top, "ENV013")
    groups = {"package": top, "pkg": pip_distribution(top), "module": module}
    if name:
        groups["name"] = name
    return Fallback(code, groups, basis)


_CONFIG_FUNC = lazy_compile(r"validat|check(?!point)|__post_init__|post_init|_verify|sanity", re.I)
# verl's functions that check its settings: a config class's __post_init__, validate_config,
# _check_mutually_exclusive, check_mtp_config. Its other check/validate functions test data and
# state (check_consistency, _validate_state_dict, _check_and_sort_partitions, the _validate loop).
_VERL_CONFIG_FUNC = lazy_compile(
    r"__post_init__|post_init|(?:validat|check|verify)\w*(?:config|option|arg|mutually_exclusive|"
    r"unsupported|resource|feature|world_size|alignment)|config\w*(?:check|validat)|sanity",
    re.I,
)
_CONFIG_PATH = lazy_compile(
    r"/config/|/configs?\.py$|_config\.py$|/arg_utils\.py$|/server_args\.py$|/engine_args\.py$"
)
_CONFIG_KEY = lazy_compile(
    r"\b(?:config\.|cfg\.)?(?:actor_rollout_ref|data|trainer|algorithm|critic|reward_model|reward|"
    r"rollout|actor|ref|model|optim)\.(?!(?:batch|non_tensor_batch|meta_info)\b)[a-z_][\w.]*[a-z_]"
    # (a DataProto's parts, `data.batch.keys()`, are a batch's contents, not config keys)
)
# Libraries whose own checks of their settings speak to the user: verl (and its recipes), the
# rollout engines, transformers, the Megatron stack, Ray (ray.init and runtime_env arguments),
# torch's launcher (torchrun's arguments, MASTER_ADDR/MASTER_PORT) and DataLoader.
STACK_PACKAGES = frozenset(
    (
        "verl",
        "vllm",
        "sglang",
        "transformers",
        "megatron",
        "mbridge",
        "torchtitan",
        "ray",
        "torch",
        "peft",
        "datasets",
    )
)
# Of torch's code, only the launcher and rendezvous (torchrun's arguments, MASTER_ADDR/PORT) and
# the DataLoader's constructor (verl's data loader settings) and FSDP2's fully_shard() read a run's settings.
_TORCH_SETTINGS = lazy_compile(
    r"/torch/distributed/(?:elastic/|run\.py:|launcher/|rendezvous\.py:)|/torch/utils/data/dataloader\.py:__init__$|"
    # init_process_group() checking the world size, rank and backend a launcher passed
    r"/torch/distributed/distributed_c10d\.py:init_process_group$|"
    # FSDP2's fully_shard() checking the arguments verl passes from its fsdp_config
    r"/torch/distributed/fsdp/_fully_shard/(?:_fsdp_init|_fully_shard)\.py:"
)
# Packages whose settings-checking code is all of the code a check is accepted from.
_SETTINGS_CODE_ONLY = frozenset(("ray", "torch"))
# Of Ray's code, only what checks the arguments verl passes from its config (ray_kwargs.ray_init:
# ray.init, its runtime_env and RuntimeEnvConfig) speaks of settings; the rest checks calls made by code.
_RAY_CHECKS_SETTINGS = lazy_compile(
    r"/ray/_private/runtime_env/\w+\.py:|/ray/runtime_env/runtime_env\.py:|/ray/_private/worker\.py:init$|"
    r"/ray/_private/(?:node|services|parameter|resource_spec)\.py:|"
    # (an actor's options, `num_gpus`, `resources`, that verl builds from the config)
    r"/ray/_private/utils\.py:(?:validate_\w+|resources_from_ray_options)$"
)


def _checks_settings(package: str, path: str, func: str) -> bool:
    """Whether this part of a library checks settings a run is given, rather than how code calls
    it: transformers' generate() is called by user code (reward judges), verl rolls out with vLLM
    or SGLang; datasets' loading arguments (a split, a config name) are settings of the data."""
    if package == "ray":
        return bool(_RAY_CHECKS_SETTINGS.search(path + ":" + func))
    if package == "transformers":
        # (a GenerationConfig checking its own values checks settings, whoever generates)
        return "/transformers/generation/" not in path or path.endswith("/generation/configuration_utils.py")
    if package == "torch":
        return bool(_TORCH_SETTINGS.search(path + ":" + func))
    if package == "datasets":
        # its feature (schema) checks judge what the data files hold, not a setting
        return "/datasets/features/" not in path
    if package == "verl":
        # DataProto's own checks judge the data code hands it (its shapes, keys, batch dims); the
        # batch arithmetic behind its chunks is CFG004's signatures
        return not path.endswith("/verl/protocol.py")
    if package in ROLLOUT_ENGINES and "/device_communicators/" in path:
        # the engines' collective back-ends probe the machine (its CUDA libraries, NVLink, P2P)
        return False
    if package in ROLLOUT_ENGINES and path.endswith("/distributed/parallel_state.py") and not starts_up(func):
        # (a collective run on a process group that is gone or never made: the engine's state)
        return False
    if package == "megatron":
        # its distributed checkpointing judges what a checkpoint holds against the model
        return "/dist_checkpointing/" not in path
    return True


# Hydra composing the config: its code that parses and applies the command line's overrides
# (a sweep's range, `critic=null` for a config group), and its code that reads the config files
# and their defaults lists (a primary config of the user's own).
_HYDRA_OVERRIDES = lazy_compile(
    r"/hydra/(?:core/override_parser/|_internal/grammar/|_internal/core_plugins/basic_sweeper\.py:|"
    r"_internal/config_loader_impl\.py:(?:validate_sweep_overrides_legal|_apply_overrides_to_config)$|"
    r"_internal/defaults_list\.py:(?:__init__|ensure_overrides_used|ensure_deletions_used|"
    r"set_known_choice|_update_overrides)$)"
)
_HYDRA_CONFIG_FILES = lazy_compile(
    r"/hydra/_internal/(?:config_repository\.py|config_loader_impl\.py|defaults_list\.py|"
    r"config_search_path_impl\.py|sources_registry\.py|core_plugins/\w+_config_source\.py):"
)


def hydra_composition(exc_type: str, message: str, path: str, func: str) -> Fallback | None:
    """An error no signature knows, raised by Hydra while it composed the run's config: the
    overrides (CFG016) or the config files it reads (CFG020), told by where it was raised."""
    where = path.replace("\\", "/") + ":" + func
    if _HYDRA_OVERRIDES.search(where):
        return Fallback("CFG016", {}, f"{an(exc_type)} raised by Hydra applying the overrides ({func})")
    if _HYDRA_CONFIG_FILES.search(where):
        if "???" in message:
            # a defaults list holding the `???` placeholder: a choice the config leaves to the run
            return Fallback(
                "CFG011", {}, f"{an(exc_type)} raised by Hydra on a `???` in a defaults list ({func})"
            )
        return Fallback("CFG020", {}, f"{an(exc_type)} raised by Hydra reading the config files ({func})")
    return None


# The rollout engines whose Python code raises in a verl run's traceback.
ROLLOUT_ENGINES = frozenset(("vllm", "sglang"))
# Packages whose own code builds a model's config class from its config.json.
MODEL_CONFIG_PACKAGES = ROLLOUT_ENGINES | {"transformers"}
# transformers building a model's config class from its config.json: the config classes and the
# RoPE parameter checks they run.
_MODEL_CONFIG_CODE = lazy_compile(
    r"/transformers/(?:configuration_utils\.py|modeling_rope_utils\.py|models/\w+/configuration_\w+\.py)$|"
    # the rollout engines' own config classes for one model family (what its config.json holds),
    # not their settings, loading or registry code
    r"/vllm/transformers_utils/configs/(?!__init__)\w+\.py$|"
    # the engines' RoPE layers, built from the config.json's rope_scaling (its sections, factors)
    r"/vllm/model_executor/layers/rotary_embedding(?:/(?!__init__|common)\w+)?\.py$|"
    r"/sglang/srt/layers/rotary_embedding\.py$|"
    r"/sglang/srt/configs/(?!__init__|model_config|load_config|device_config|update_config|utils\b|"
    r"mamba_utils|draft_parallel|\w+_registry)\w+\.py$"
)
_FIELD_QUOTED = lazy_compile(r"`(?P<field>[a-z][a-z0-9_]*)`")
# The config code that writes a config out: what it refuses is what the run put in the config
# (an override), not what the model folder holds.
_WRITES_CONFIG = lazy_compile(r"^(?:save_pretrained|push_to_hub|to_json_\w+|to_dict|to_diff_dict)$")


_ARCHITECTURE_REFUSED = lazy_compile(
    r"\b(?:unsupported|unknown|not supported) (?:model )?architecture\b", re.I
)


def model_config_refused(
    exc_type: str,
    message: str,
    path: str,
    func: str,
    package: str = "transformers",
    callers: tuple[str, ...] = (),
) -> Fallback | None:
    """A value transformers (or a rollout engine's config class for one model family) refuses
    while building the model's config (`Missing required keys in `rope_scaling``): the model
    folder's config.json describes the model in a way this library does not accept. `callers`:
    the functions of the same package that called the raising one (a config validated as it is
    saved)."""
    if not _MODEL_CONFIG_CODE.search(path.replace("\\", "/")) or any(
        _WRITES_CONFIG.match(f) for f in (func, *callers)
    ):
        return None
    if package in ROLLOUT_ENGINES and _ARCHITECTURE_REFUSED.search(message):
        # a rollout engine's config class for a model family that does not know the model inside
        # (`Unsupported architecture: Qwen3ForCausalLM` in SGLang's InternVL config): a later
        # release of the engine supports it
        basis = f"{an(exc_type)} raised by {package}'s config for the model, refusing its architecture"
        return version_mismatch(package, None, basis)
    field = _FIELD_QUOTED.search(message)
    groups = {"field": field.group("field")} if field else {}
    return Fallback("CFG017", groups, f"{an(exc_type)} raised by {package} building the model's config")


# What names an option: `--dist-init-addr`, `max_model_len`, `VLLM_USE_V1`, `key=value`.
_OPTION_TOKEN = lazy_compile(
    r"(?<![\w/.-])--[a-z][a-z0-9]*(?:-[a-z0-9]+)*\b|\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\b|"
    r"\b[a-z]\w*=\S|\b[a-z]+(?:-[a-z]+){2,}\b"
)
# A value the message shows it refuses: `Unsupported context parallel layout: zigzag`.
_VALUE_SHOWN = lazy_compile(
    r"(?:unsupported|unknown|invalid|unrecogni[sz]ed|not supported)\b[^:\n]{0,60}: ?['\"`]?\w|"
    r"[;,.]\s*(?:but )?(?:got|gets|received):? [\[<'\"`]*[\w./~-]+|\bbut (?:was|is) [\[<'\"`]*-?\w|"
    r"\b(?:invalid|unknown|unsupported|unrecogni[sz]ed) (?:[a-z]+ ){0,4}(?:backend|mode|method|format|"
    r"strategy|policy|option|choice|dtype|precision|algorithm|estimator|scheduler|optimizer|implementation)\b|"
    r"\b(?:unknown|unsupported|invalid) [a-z]+(?: [a-z]+)? ['\"`]?[\w.-]*[_\d][\w.-]*|"
    # a quoted value that opens the message: `` `foo` is not a valid attention implementation ``
    r"^['\"]?['\"`][^'\"`\n]{1,60}['\"`] (?:is|are) not (?:an? )?"
    r"(?:valid|supported|known|recogni[sz]ed|registered)\b|"
    # a backend (a setting's choice) refusing a feature: `TensorRT-LLM backend does not support ...`
    r"\bbackend (?:does not|doesn't|do not|cannot) support\b|"
    # a name given twice where each must be unique: `Duplicate interaction name 'gsm8k' found`
    r"\bduplicate (?:[a-z]+ ){0,3}['\"`][\w./-]+['\"`]|"
    # a registry refusing a name and listing the ones it has: `Unknown platform 'npu'. Registered: (...)`
    r"\b(?:unknown|unsupported|invalid|unrecogni[sz]ed) [a-z]+(?: [a-z]+)? ['\"`][\w.-]+['\"`][.,;:]? "
    r"(?:registered|available|supported|valid|allowed|known)(?: [a-z]+){0,2}:? ?[\[{(]|"
    # `Interaction 'gsm8k' not found in interaction_map. Available interactions: [...]`
    r"['\"`][\w./-]+['\"`] (?:is |was )?not (?:found|registered) in \w+[.,;:]? "
    r"(?:registered|available|supported|valid|allowed|known)(?: [a-z]+){0,2}:? ?[\[{(]|"
    # `Reasoning parser 'x' not found. Available parsers: deepseek_r1, qwen3`
    r"['\"`][\w./-]+['\"`] (?:is |was )?not (?:found|registered)\. "
    r"(?:registered|available|supported|valid|allowed|known) [a-z]+(?: [a-z]+)?: ?\S|"
    # a registry with nothing for what was chosen: `No engine registered for device='npu', ...`
    r"\bno (?:[a-z]+ ){1,2}(?:is )?registered (?:for|with|under)\b|"
    # a registry refusing a name it was given: `Checkpoint engine kimi not registered`
    r"\b(?:engine|backend|manager|loop|parser|estimator|scheduler|optimizer|strategy|mode|format|type|"
    r"tool|agent|reward|loss|policy|sampler|dataset|model)s? ['\"`]?[\w./-]+['\"`]? (?:is |was )?not "
    r"(?:registered|in (?:the )?registry)\b|"
    # a quoted value, then the ones that exist: `... routing key 'gsm8k'. Configured teachers: [...]`
    r"['\"`][\w./-]+['\"`][.,;:]? (?:configured|available|registered|supported|valid|allowed|known) "
    r"[a-z_]+(?: [a-z_]+)?(?: are| is)?: ?[\[{(]|"
    # `Invalid numeric threshold '0.5x' for option 'rollout_rs'`: the option named as such
    r"\bfor (?:the )?(?:option|argument|parameter|setting|key|field) ['\"`][\w.-]+['\"`]|"
    # a setting the code keeps for itself: `Cannot override protected system env: NCCL_DEBUG`
    r"\b(?:cannot|can't|must not|may not) (?:override|overwrite|change|modify) (?:an? |the )?"
    r"(?:protected |reserved |read-only |internal )?(?:system )?(?:env(?:ironment)?(?: var(?:iable)?)?|"
    r"option|setting|key|variable|field)s?\b|"
    # an option held to a number: `n_samples should always >= 1`
    r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+`? (?:should|must|has to|needs? to)(?: always)?(?: be)? ?"
    r"(?:>=|<=|>|<|==|!=) ?-?\d|"
    # the value a check shows it holds: `..., current value: middle`
    r"\bcurrent(?:ly)? (?:value|setting)(?: is)?:? ['\"`]?\w|"
    # a limit shown with the request that passed it: `Cannot request more than 20 logprobs`
    r"\b(?:cannot|can't|must not|may not) (?:request|use|set|specify|have|allocate|exceed) more than \d|"
    # an amount asked for beside the one there is: `Requesting 220.00 GB but only have 22.69 GB free`
    r"\brequest(?:s|ed|ing)? [\d.]+ ?(?:[kmgt]i?b|bytes?|gpus?|cpus?|blocks?)?\b[^.\n]{0,30}\bbut (?:there )?"
    r"(?:only )?(?:ha(?:ve|s)\b|[\d.]+ ?(?:[kmgt]i?b)? (?:is |are )?(?:free|available|left))",
    re.I,
)
# A refusal that says which option to set (`set drop_thinking=False in chat_template_kwargs`,
# `Enable dynamic_context_parallel consistently`): the option, in code's spelling, is the fix.
_DIRECTS_AN_OPTION = lazy_compile(
    r"\b(?:set|enable|disable|turn (?:on|off)|reduce|increase|lower|raise|decrease)\s+(?:the\s+)?[`'\"]?"
    r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b|"
    # `overlap_moe_expert_parallel_comm must be enabled to ...`
    r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+[`'\"]? (?:must|should|needs? to|has to) be (?:enabled|disabled|"
    r"turned (?:on|off)|set to)\b|"
    # an environment variable to set: `Set VLLM_USE_V1=0 to use another attention backend`
    r"\b(?:set|export)\s+[`'\"]?[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+=\S",
    re.I,
)
# A rollout engine's command-line flag, as its messages spell it: `--max-running-requests`.
_ENGINE_FLAG = lazy_compile(r"(?<![\w-])--[a-z][a-z0-9]*(?:-[a-z0-9]+)+\b")
# A feature or combination the library does not support, said in so many words.
_UNSUPPORTED = lazy_compile(
    r"\b(?:is|are) not (?:yet |currently )?supported|\bnot supported (?:yet|for|with|in|when)\b|"
    r"\bdo(?:es)?(?: not|n't) (?:yet |currently )?support\b|\bnot (?:yet )?implemented\b|"
    r"\bdo(?:es)?(?: not|n't) work (?:with|when|for|in|on)\b|"
    r"\bonly (?:works?|compatible) (?:with|for|when|if|on)\b|"
    r"\bcan(?:not|'t) be used (?:with|together|when)\b|"
    # the same refusal as non-native messages write it: `Llama Model not supports sharing ...`,
    # `not support vpp now`
    r"\bnot supports\b|\b(?:is|are) not support\b|^not (?:yet )?support\b|"
    r"\bnot compatible(?: with| when| in| for)?\b|\bonly supports?\b|\bsupports? only\b|"
    r"\bno (?:[\w-]+ ){0,4}supported (?:for|by)\b|"
    r"\bonly (?:[\w.-]+ ){1,4}(?:is |are )?supported\b|\b(?:is|are) only supported (?:for|with|on|in|when)\b|"
    # a feature the code does not trust yet: `qwen2_5_vl's context parallel is not accurate yet`
    r"\b(?:is|are) not (?:accurate|correct|ready|stable|verified|tested) yet\b",
    re.I,
)
# What the model is (architecture, head size, norm or MLP type): the answer is another model or
# a newer library, not a setting.
_ABOUT_THE_MODEL = lazy_compile(
    r"\barchitectures?\b|model_type|\w+For(?:CausalLM|ConditionalGeneration|SequenceClassification)\b|"
    r"head (?:size|dim)|\b\w*Norm\b|\bMLP\b|\b(?:this|the) model\b|"
    r"\b(?:this|the|that) models? (?:is|are) not|"
    r"\bpooling models?\b|\bMLA models?\b|\bMTP models?\b|\bRoPE\b|\brope_\w+|\bconfig\.json\b|"
    # a field of the model's config as a library names it (`sliding_window` argument in the config)
    r"`\w+` (?:argument|attribute|field|key) in the (?:model(?:'s)? )?config\b",
    re.I,
)
# A dtype named outright: a refusal that speaks of the model is still answered by choosing
# another precision (`The model type gemma2 does not support float16`).
_A_SETTING_NAMED = lazy_compile(
    r"\b(?:b?float16|float32|bf16|fp16|dtype)\b|"
    # an argument or flag named as such: the `quantization` argument, option `--tp`, --max-num-seqs
    # (not a model config's field, as transformers calls them: `sliding_window` argument in the config)
    r"`[\w.-]+`(?: \w+)? (?:argument|option|parameter|flag|setting)\b(?! in the (?:model(?:'s)? )?config\b)|"
    r"\b(?:argument|option|parameter|flag|setting) `[\w.-]+`|(?<![\w-])--[a-z][a-z0-9]*-[\w-]+|"
    # a command-line flag quoted with its value: `--runner generate`
    r"`--[a-z][\w-]*(?: [\w.-]+)?`",
    re.I,
)
# A sample's content (chat roles, token ids, what a reward function or tool returned), or how
# code uses a library's API (registries, subclasses, dispatch modes): not a setting of the run.
# What a sample holds (an image's aspect ratio, its processed pixels), not a setting, unless the
# refusal directs an option (`For multimodal input processing do not set
# `enable_tokenizer_batch_encode``).
_ABOUT_A_SAMPLE = lazy_compile(r"\baspect ratio\b|\bpixel_values\b|\bmulti[-_ ]?modal[_ ]inputs?\b", re.I)
_ABOUT_DATA_OR_CODE = lazy_compile(
    r"\binput_ids\b|non_tensor_batch|\bbatch\.keys\(\)|tool\.execute|\btoken id \d+ is out of vocab|"
    r"\bprompt\b[^.]{0,20}\b(?:cannot|must not|should not) be empty\b|"
    r"already (?:been )?registered|(?:should|must) be a subclass|is not a subclass|\bdispatch_mode\b|"
    # an object of a class passed by the calling code (`model must be a PeftModel`, `passing
    # AlgoConfig not supported yet`)
    r"\b(?:must|should) be an? (?:instance of )?[`'\"]?(?-i:(?:[A-Z][a-z0-9]+){2,})\b|"
    # ... or of a one-word class, with what it got (`execute_mode must be a Execute. Got all`)
    r"\b(?:must|should) be an? (?-i:[A-Z][a-z0-9]+)\. Got\b|"
    r"\bpassing (?:an? )?[`'\"]?(?-i:(?:[A-Z][a-z0-9]+){2,})\b|"
    # the shapes of what a forward pass was given (`Tensor query has shape  with a zero dimension`,
    # `received torch.Size([1, 1, 8192, 3584])`)
    r"\binput shapes?\b|\bwith a zero dimension\b|\binputs with dim=0\b|\btorch\.Size\(\[|"
    # code calling a library the wrong way (`AutoBridge should not be instantiated directly`,
    # `reduce_scatter_gradients() should not be called when ...`)
    r"\b(?:should|must|can) ?not be (?:instantiated|constructed|called|used) directly\b|"
    r"\(\) (?:should|must) (?:not|only) be called\b|"
    # parts of the library's code needing one another (`SWARadixCache or SWAChunkCache is required
    # for SWATokenToKVPoolAllocator`): classes in code's spelling, no setting
    r"(?-i:^[A-Z]+[a-z0-9]+[A-Z]\w*(?: or [A-Z]+[a-z0-9]+[A-Z]\w*)* (?:is|are) required for "
    r"[A-Z]+[a-z0-9]+[A-Z]\w*)|"
    # Python refusing a call's arguments: one library calling another's function as another
    # release spelt it, not a setting the run was given.
    r"\bgot an unexpected keyword argument\b|\bmissing \d+ required (?:positional|keyword-only) argument|"
    r"\btakes (?:from )?\d+ (?:to \d+ )?positional arguments? but\b|"
    r"\bgot multiple values for (?:keyword )?argument\b",
    re.I,
)
# An object of a class of some module where the code wanted another (`must be a dict, got
# <class 'omegaconf.dictconfig.DictConfig'>`), or a function or method passed as a value (`<bound
# method PurePath.as_uri ...>`): what the calling code passed, not a setting's value.
# A config part of another shape (a ListConfig where one value goes) may be a setting.
_CODE_OBJECT_REFUSED = lazy_compile(
    r"\b(?:[Gg]ot|[Rr]eceived|[Gg]ets):? (?:an? )?(?:type )?<class '(?!omegaconf\.)[A-Za-z_]\w*(?:\.\w+)+'>|"
    r"<bound method |<function [\w.<>]+ at 0x|"
    r"<class '(?:method|function|builtin_function_or_method|module|generator|coroutine)'>|"
    # Python objects no config gives (Hydra's sequences are lists), and verl's data containers,
    # which only code hands over (`expecting {...} to be DataProto, but got <class 'dict'>`)
    r"\b(?:[Gg]ot|[Rr]eceived):? (?:an? )?(?:type )?<class '(?:tuple|set|frozenset|bytes)'>|"
    r"\b(?:to|must) be (?:an? )?(?:instance of )?`?(?:DataProto|TensorDict)\b|"
    r"\bmust be an? (?:dict|list)\b.{0,80}"
    r"<class 'omegaconf\.(?:dictconfig\.DictConfig|listconfig\.ListConfig)'>"
)
# A method a class must implement (`Inherit this class and implement your custom tensor_push`):
# the user's code is unfinished, whatever setting chose that class.
_IMPLEMENT_IT = lazy_compile(
    r"\b(?:inherit|subclass) (?:from )?(?:this|the) class\b|\bimplement (?:your|the|a) (?:own |custom )?\w+|"
    # the library blaming how a model's code was written (`most likely due to incorrect
    # implementation of the model's get_multimodal_embeddings method`)
    r"\b(?:incorrect|wrong|faulty) implementation of\b",
    re.I,
)
# A check that says it found the library's own bug (`Something went wrong, please open an issue`):
# no setting of the run is what it refuses.
_INTERNAL_BUG = lazy_compile(
    r"\b(?:open|file|report|raise) an? (?:new )?(?:github )?issue\b|\bplease report (?:this|it)\b|"
    r"\bthis (?:should never|should not|shouldn't) happen|\bthis is a bug\b",
    re.I,
)
# A file that does not parse (JSON, YAML, TOML): its content is broken, not a setting of the run.
_FILE_DOES_NOT_PARSE = lazy_compile(
    r"\bInvalid (?:JSON|YAML|TOML)\b|\bExpecting (?:'.' delimiter|value|property name)|"
    r"\bUnterminated string\b|\bJSONDecodeError\b|\bwhile (?:scanning|parsing) a\b",
    re.I,
)
# Chat roles of a sample (`Unknown role: human`), unless an option about roles is named (kv_role).
# A check that tells the user to install or rebuild something is about the installed software,
# not a setting, even when no package is named (`Install it with tools/install_deepgemm.sh`).
_INSTALL_ADVICE = lazy_compile(
    r"\b(?:re)?install (?:it|them|one|this)\b|\bpip3? install\b|\bplease (?:re)?install\b", re.I
)
_CHAT_ROLE = lazy_compile(r"\broles?\b", re.I)
# The roles of a sample's chat messages, refused (`the first role must be user`, `Unknown role:
# human`), as against the roles of verl's workers (actor, rollout, ref, critic).
_SAMPLE_ROLES = lazy_compile(
    r"\b(?:first|last|next|unsupported|unknown|invalid|unexpected|append(?:ing)?) (?:\w+ )?roles?\b|"
    r"\broles? must be (?:user|assistant|system|tool)\b",
    re.I,
)
_WORKER_ROLES = lazy_compile(r"\b(?:actor|rollout|critic|ref|actor_rollout)\b")
# What comes before an enum's member or a module's value: `RequestStatus.`, `torch.`.
_MEMBER_OF = lazy_compile(r"(?:\b[A-Z][A-Za-z0-9]*|\btorch|\bnumpy|\bnp)\.$")
# A variable printed with its value's repr (an f-string's `{req=}`): `recv_req=ExpertDistributionReq(...)`
# (one level of nested parentheses).
_REPR_SHOWN = lazy_compile(r"\b[a-z]\w*=[A-Z]\w*\((?:[^()]|\([^()]*\))*\)")
# Functions that build a library from its settings: constructors, loaders, set-up and launch code.
_STARTUP_FUNC = lazy_compile(
    r"^_*(?:init|post_init|setup|set_up|load|from_|create|build|launch|start|configure|initiali[sz]e|"
    # (not a getter of a part of one, `get_text_config`)
    r"register|get_(?!(?:hf_)?text_)\w*(?:config|model)|main$)",
    re.I | re.M,
)


# A count the code found against the one it expected (`need 64, got 48`), or flags of its own
# state (`only supported for Actor or standalone Rollout Workers, but got False and False`).
_COUNT_GOT = lazy_compile(r"\b(?:got|gets|received):? (?:-?\d+(?:\.\d+)?|True|False)\b(?![.\w])")


def _setting_value_shown(message: str) -> bool:
    """Whether verl's message shows a value it refused that a setting may have given: a count
    against the count it expected (`produced fewer route tensors than scheduled samples: need 64,
    got 48`) or a flag, with no option named, is the code's own bookkeeping."""
    shown = [m.group(0) for m in _VALUE_SHOWN.finditer(message)]
    if not shown:
        return False
    counts_only = all(_COUNT_GOT.search(m) for m in shown)
    return not counts_only or any("_" in t.group(0) for t in _OPTION_TOKEN.finditer(message))


def starts_up(func: str) -> bool:
    """Whether a function of a library builds it from what it is given (a constructor, a
    loader, set-up or launch code), rather than running it."""
    return bool(_STARTUP_FUNC.search(func))


# A library's entry points take the caller's arguments (vllm/entrypoints/llm.py, sglang's Engine).
_ENTRY_POINT = lazy_compile(r"/entrypoints/")
_NOT_AN_OPTION = frozenset(
    ("dict_keys", "dict_values", "__init__", "__call__", "state_dict", "from_pretrained")
)
_MISSING = lazy_compile(
    r"must (?:both )?be (?:explicitly |both )?(?:set|provided|specified|given)(?! as an? )|"
    r"must have a value(?: (?:specified|set|given|provided))?\b|"
    r"should be (?:set|provided|specified)|to be (?:set|provided|specified)\b|"
    r"is required|are required|(?:is|are) needed|must contain(?! \w+ only\b)|"
    # pydantic's own words for a field a model class needs: `Field required [type=missing, ...]`
    r"\bfield required\b|"
    r"\b(?:config(?:uration)?|key|value|section|field|option|parameter|argument)s? (?:is |was )?not found\b|"
    r"please (?:set|specify|provide) at least one of|must (?:set|specify|provide)|is not set|"
    r"\b(?:was|were) not (?:provided|given|specified|set)\b|"
    r"(?:is|are) (?:missing|absent)\b|"
    r"missing (?:required |mandatory )?(?:\S+ )?"
    r"(?:key|value|field|argument|option|parameter|config(?:uration)?|section)s?\b|"
    r"cannot (?:both )?be (?:both )?None|"
    r"\bmust (?:include|define|have) (?:an? |the )?['\"`]?[a-z]+_[a-z_]+\b|"
    # (`please provide --dist-init-addr as host:port`: a value given in the wrong form)
    r"must not be None|is None|not be None|please provide(?! \S+ as )|need(?:s)? to (?:set|specify|provide)|"
    # `GDPO requires 'algorithm.gdpo_reward_keys' listing ...`: a dotted option it needs
    r"\brequires? ['\"`]?[a-z_]+(?:\.[a-z_]+)+['\"`]?(?! to be| =)|"
    # `No teacher configured for routing key 'math'`
    r"\bno \w+ (?:is )?configured for\b",
    re.I,
)
# A refusal that blames the GPU (`only supports sm75 and above`, `not support fp8 kv-cache on this
# device`, `compute capability`): what the card can do, not how the option was written.
_ON_THIS_GPU = lazy_compile(
    r"\bsm_?[5-9]\d\b|\bsm_?1[0-2]\d\b|compute capability|on this (?:device|gpu|hardware)\b|"
    r"\byour (?:gpu|device|hardware)\b|\bgpu architecture\b",
    re.I,
)
# A value the check received (`Received '0.5_2.0'`, `got 3`): it refused what was given, even in
# words that ask for something (`must provide a single upper bound`); `got None` is still missing.
_RECEIVED = lazy_compile(
    r"\b(?:received|got|gets):? (?:[\[<'\"`]+(?!None\b)[\w.-]|-?\d)|"
    # `load_contents` contains 'hf_model' but ...: the value it holds is what the check refuses
    r"\bcontains ['\"`][^'\"`]{1,80}['\"`],? but\b|"
    # `resume_from_path must specify the global_steps`: what an option's value must hold
    # (`rollout_rs_threshold for option 'seq' must specify both lower and upper bounds`)
    r"\b[a-z]+_[a-z_]+`?(?: for (?:option )?'[^'\n]{1,60}')? must (?:specify|include|contain)\b|"
    # a value of the wrong kind: `must be specified as a float or a string ..., not a boolean`
    r"\bmust be (?:specified|given|provided|set|passed) as an? \w|"
    r",? not an? (?:bool(?:ean)?|str(?:ing)?|int(?:eger)?|float|list|dict(?:ionary)?|tuple|number)\b|"
    # `Invalid endpoint: must contain 'inproc' or 'tcp'`: the value given is refused, not missing
    r"^(?:\[[\w.-]+\] )?invalid [a-z][\w -]{0,40}: ",
    re.I,
)
_INCOMPATIBLE = lazy_compile(
    r"\b(?:incompatible|not compatible|cannot be (?:used|combined|enabled) together) with\b", re.I
)
_DIVIDE = lazy_compile(r"divisible|multiple of|% ?\w* ?== ?0|evenly|\bdivide\b|\bdivisor\b", re.I)
# How a model is split over GPUs; with data parallelism and the world size, any parallel layout.
_MODEL_SPLIT = (
    r"tensor_model_parallel|tensor[ _-]parallel|pipeline[ _-]parallel|pipelin(?:ing|eing)\b|pipeline stages?|"
    r"context[ _-]parallel|ulysses|"
    r"sequence[ _-]parallel|expert[ _-]parallel|"
    # `tp`, `--ep-size`, `pp_size`, but not a word inside another option's name (`--elastic-ep-scale-timeout`)
    r"(?<![a-z0-9][-_])\b(?:tp|pp|cp|ep|sp)(?:[_-]size)?\b(?![-_][a-z])|"
    r"\b(?:infer|train|rollout)_tp\b|num_layers_per|virtual_pp|\bvpp\b|"
    # a linear layer's share on one tensor-parallel rank (vLLM's and SGLang's sharded layers)
    r"\b(?:input|output)_partition_sizes?\b"
)
_PARALLEL = lazy_compile(_MODEL_SPLIT + r"|data[ _-]parallel|world[ _]size|\bdp(?:_size)?\b", re.I)
_MODEL_PARALLEL = lazy_compile(_MODEL_SPLIT + r"|attention heads|num_heads", re.I)
_PARALLEL_SIZE = lazy_compile(r"parallel[ _-]size|\b(?:tp|pp|cp|ep|dp|sp)_size\b", re.I)
# (Samples per group or prompt are the rollout's n, not a batch size.)
_BATCH_SIZES = lazy_compile(
    r"batch(?!ing)|num_uid_groups|\bprompts\b|\bsamples\b(?! per (?:group|prompt))", re.I
)
_BATCH_WORD = lazy_compile(r"batch(?!ing)", re.I)
# A batch size (times a split of each sample, `* sp_size`) compared with the GPU count: every GPU
# needs a share of the batch, whatever splits it further.
_BATCH_FOR_EACH_GPU = lazy_compile(
    r"batch\w*(?:\s*\*\s*\w+)?\s*(?:>=|>|<=|<)\s*(?:\w+\.)*(?:n_gpus|num_gpus|world_size)\b"
)
_ORDERED = lazy_compile(
    r">=|<=|(?<![-=])>(?!=)|<(?!=)|\bexceed|\blarger than|\bgreater than|\bsmaller than|"
    r"\bless than|\bat least|\bat most",
    re.I,
)
# A parallel size compared with something: `tp > train_tp`, `9 * pp_size: 3 != 28`, `exceeds`.
_COMPARED = lazy_compile(
    r"[<>]=?|!=|==|\bexceed|\blarger|\bbigger|\bgreater|\bless than|\bsmaller|\bequal|\bmatch|\b\d+\b|"
    r"\bnot enough\b|\btoo (?:few|many)\b",
    re.I,
)
_REFUSED = lazy_compile(
    r"\bis not (?:an? )?(?:built-?in|known|registered|predefined)\b|\b(?:is|are) (?:zero|negative)$|"
    # a feature refused without another setting: `Unable to use nsight profiling unless workers run with Ray`
    r"\b(?:unable to|cannot|can't) use\b[^.]{0,80}\bunless\b|"
    r"not supported|does not support|doesn't support|not yet supported|unsupported|\bunknown\b|"
    r"unrecogni[sz]ed|\binvalid\b|not (?:a )?valid|must be|should be|has to be|have to be|"
    r"(?:must|should) (?:not|larger|include|match|inherit|be|subclass|implement|have (?:a )?value)|"
    r"can only (?:be|have|contain|take)\b|could only be\b|only supports?\b|only support(?:ed)?\b|"
    r"\b(?:unable|failed|could not|cannot) (?:to )?parse (?:the )?"
    r"(?:port|address|value|number|int|float|bool)\b|"
    r"\bdoes not exist or is not a\b|must have a unique\b|\bduplicate\b|"
    # a list holding more entries than another allows: `... contains more devices than ...`
    r"\bcontains? (?:more|fewer) \w+ than\b|"
    # a value larger than what it must fit in: `object store size (186 GB) exceeds /dev/shm size`
    r"\bexceeds?\b[^.\n]{0,40}\b(?:size|limit|maximum|capacity|available)\b|"
    r"cannot be (?:used|set|combined|paired|mixed|enabled|empty|specified)|can ?not set|cannot set|"
    r"not allowed|"
    r"\bcannot exceed\b|\b(?:minimum|maximum) allowed\b|\bdoes(?: not|n't) match\b|"
    r"greater than|less than|larger than|smaller than|at most|"
    # (`at least one worker failed to return its results` tells what failed, not a bound)
    r"at least(?! one \w+ (?:failed|died|crashed|exited|did not|could not)\b)|"
    r"expected one of|one of\b|choose from|"
    r"not registered|requires? [\w.-]+=|requires? --|only available|incompatible|mutually exclusive|"
    r"not implemented|do not enable|don't enable|cannot be both|requires \w|unexpected|"
    r"just supports?\b|cannot be an? (?:empty|\w+)|\bavailable(?: \w+){0,2}(?: are| is)?:?\s*[\[{(]|"
    r"\bonly \S+ (?:is|are) supported\b|\b(?:is|are) not enabled\b|\bcan(?:'t|not) be used with\b|"
    r"\bcannot override\b|\bout[- ]of[- ](?:vocab(?:ulary)?|range|bounds)\b|\bmust (?:equal|match)\b|"
    # (a value given without the one it goes with: what was given is refused)
    r"\bcannot contain\b|\bprovided (?:but )?without\b|"
    # two settings given one thing: `... trying to use a port number 10001 that is used by other components`
    r"\b(?:is|are) (?:already )?(?:used|taken) by (?:other|another)\b|\bexpect(?:ed|s)? `?\w+`? to be\b|"
    r"\bmake sure (?:that )?(?:[\w.`'-]+ ){1,6}(?:is|are|has|have|does|do)\b|"
    r"\bplease (?:use|set|enable|disable|specify|pass|provide|add|remove|change|increase|decrease|"
    r"reduce|lower)\b",
    re.I,
)


# A source line that reads settings: `self.config.ppo_micro_batch_size`, `config.data.x`, `cfg.y`.
_READS_CONFIG = lazy_compile(r"\b(?:self\.)?(?:config|cfg|args)\.\w")


def divided_by_setting(code: str, path: str, func: str, options: list[str]) -> Fallback | None:
    """A ZeroDivisionError on verl's source line `code`: when the line reads settings, one of
    them is 0; batch sizes are batch arithmetic (CFG004), other values a value verl cannot use."""
    if not (options or _READS_CONFIG.search(code)):
        return None
    code_ = "CFG004" if _BATCH_SIZES.search(code) else "CFG014"
    where = path[path.rfind("/verl/") + 1 :] if "/verl/" in path else path.rsplit("/", 1)[-1]
    named = f"; it reads {', '.join(options)}" if options else ""
    groups = {"options": ", ".join(options)} if options else {}
    basis = f"a ZeroDivisionError in verl's {where} ({func}) on a line that divides by settings{named}"
    return Fallback(code_, groups, basis)


# A refusal that says it read a config (`Missing required field 'x' in backend config for ...`): a
# library checking settings, wherever its code is (a config.json is the model folder's).
_IN_A_CONFIG = lazy_compile(
    r"\b(?:in|from) (?:the |your |this )?(?!(?:model|hf|generation|tokenizer|processor|preprocessor)\b)"
    r"(?:[\w-]+ )?config(?:uration)?\b(?!\.json)",
    re.I,
)
# A check that says its subject comes from the config (`Apply Chat template from config is not supported`).
_FROM_CONFIG = lazy_compile(r"\b(?:from|in|by) (?:the |your )?config(?:uration)?\b", re.I)
# A loader refusing the format of a model folder's weights.
_WEIGHTS_FORMAT_REFUSED = lazy_compile(
    r"(?:not (?:implemented|supported)|unsupported|deprecated)\b.{0,80}\b(?:pytorch_model[-\w*]*\.bin|\.bin) "
    r"(?:format|files?|weights)|\bplease use (?:the )?safetensors\b|\bonly safetensors\b",
    re.I,
)
# verl checking that a class it loaded by name subclasses its plug-in base (verl 0.5's
# create_rl_sampler: `assert isinstance(sampler, AbstractSampler)`).
_NOT_OF_PLUGIN_BASE = lazy_compile(r"^(?:assert )?isinstance\(\s*[\w.]+\s*,\s*(?P<base>Abstract\w+)\s*\)\s*$")
_WRONG_BASE = lazy_compile(r"\bmust (?:inherit|subclass|be a subclass)\b|\bis not a subclass\b", re.I)
# The option whose value a check refuses, shown first (`loss_agg_mode='seq-mean-token-mean' is
# incompatible with ... under CP>1`): a parallel size it names is the circumstance, not the value.
_OTHER_OPTION_VALUE = lazy_compile(
    r"^(?:\w+: )?`?(?!\w*(?:parallel|_size|tp|pp|cp|ep|dp|sp)\b)[a-z]+_[a-z_]+`?\s?=\s?['\"`]?[\w.-]+['\"`]? "
    r"(?:is|are) (?:incompatible|not supported|not compatible)"
)
# An option (in code's or a command line's spelling, not a parallel size) that opens the message
# and is refused under a condition: `data_parallel_external_lb can only be set when
# data_parallel_size > 1`, `--enable-cp-decode-attn-tp is only supported for models whose ...`. The
# option is the setting refused; the sizes or the model it names are the circumstance.
_CONDITIONED_OPTION = lazy_compile(
    r"^(?:\w+: )?[`'\"]?(?!(?:--)?\w*(?:parallel|_size|tp|pp|cp|ep|dp|sp)\b)"
    r"(?:--[a-z][a-z0-9]*(?:-[a-z0-9]+)+|[a-z][a-z0-9]*(?:_[a-z0-9]+)+)[`'\"]? "
    r"(?:can only be (?:set|used|enabled|specified|combined)|(?:is|are) only (?:supported|available|valid|"
    r"allowed|applicable)|only (?:works|applies)|(?:is|are) not (?:supported|compatible|allowed) "
    r"(?:with|when|for|on|in))\b"
)
# verl refusing what a user's own module hands it: a name its registries already hold (a reward
# manager, a function tool, a loss, a module name in sys.modules), or what a decorated function
# returned (`@function_tool return tuple must have length 1, 2, or 3`). A custom class with the
# wrong base (`The custom datagen class ... must inherit from`) is the value of the setting that
# names it, not the module (see _WRONG_BASE).
_CUSTOM_CODE_REFUSED = lazy_compile(
    r"\balready (?:been )?registered\b|\brefusing to overwrite\b|\balready in `?sys\.modules\b|"
    r"(?<![\w.])@\w+(?:\(\))? \w+(?: \w+)? must\b",
    re.I,
)
# A part of the config said to be missing (`Missing async_training configuration`).
_SECTION_MISSING = lazy_compile(
    r"\bmissing (?:required )?(?:[\w.]+ )?config(?:uration)?\b|"
    r"\bconfig(?:uration)? (?:section )?(?:is |was )?(?:missing|not (?:found|provided|given))\b",
    re.I,
)
_CUSTOM_FILE = lazy_compile(r"\bcustom\b.*?['\"`]?(?P<path>(?:/|\./)?[\w./-]+\.py)\b", re.I)


# The words this module's checks key on, which messages also print with a letter typed twice
# (SGLang's `EAGLE is not supportted in attention backend ...`).
_KEYWORDS = (
    "supported",
    "support",
    "specified",
    "received",
    "available",
    "compatible",
    "registered",
    "required",
    "allowed",
    "expected",
    "invalid",
    "missing",
)
_DOUBLED = lazy_compile(
    r"\b(?:" + "|".join("".join(re.escape(c) + "+" for c in w) for w in _KEYWORDS) + r")\b", re.I
)


_REPEATED_LETTER = lazy_compile(r"(.)\1+")
# A keyword with each run of one letter squeezed to one (`supported` -> `suported`) -> itself.
_BY_SQUEEZED = {_REPEATED_LETTER.sub(r"\1", k): k for k in _KEYWORDS}


def forgive_doubled_letters(message: str) -> str:
    """`message` with each of the checks' keywords written as spelt (`supportted` -> `supported`)."""

    def canonical(m: re.Match[str]) -> str:
        word = m.group(0)
        k = _BY_SQUEEZED.get(_REPEATED_LETTER.sub(r"\1", word.lower()))
        if k is None:
            return word
        return k if word[0].islower() else k.capitalize()

    return _DOUBLED.sub(canonical, message)


def _names_an_option(message: str) -> bool:
    """Whether the message names an option the way code spells one (`kv_cache_dtype`,
    `--max-model-len`, `VLLM_USE_V1`); a class name (`Qwen2_5_VLForCausalLM`), an enum's member
    (`RequestStatus.FINISHED_ABORTED`) and a module's value (`torch.float8_e4m3fn`) are none."""
    message = _REPR_SHOWN.sub(" ", message)
    return any(
        t.group(0) not in _NOT_AN_OPTION
        and (t.group(0).islower() or t.group(0).isupper())
        and not _MEMBER_OF.search(message, 0, t.start())
        for t in _OPTION_TOKEN.finditer(message)
    )


def config_check(
    exc_type: str,
    message: str,
    path: str,
    func: str,
    options: list[str] | None = None,
    package: str | None = None,
    caller: str = "",
) -> Fallback | None:
    """See `_config_check`; answered once for each exception a log repeats."""
    return _config_check(exc_type, message, path, func, tuple(options or ()), package, caller)


@lru_cache(maxsize=4096)
def _config_check(
    exc_type: str,
    message: str,
    path: str,
    func: str,
    options: tuple[str, ...] = (),
    package: str | None = None,
    caller: str = "",
) -> Fallback | None:
    """The config code for an error a library of the stack raised while checking its settings,
    or None when the frame and message do not show such a check (`options`: verl's config
    options the message or the raising statement names; `package`: the package of the raising
    frame; `caller`: the functions of the same package that called the raising one, one a line,
    when the traceback shows them)."""
    p = path.replace("\\", "/")
    package = package or "verl"
    message = forgive_doubled_letters(message)
    if (
        _FILE_DOES_NOT_PARSE.search(message)
        or _CODE_OBJECT_REFUSED.search(message)
        or _IMPLEMENT_IT.search(message)
        or _INSTALL_ADVICE.search(message)
        # (`X is not supported ... Please raise an issue so we can investigate` refuses a feature)
        or (_INTERNAL_BUG.search(message) and not _UNSUPPORTED.search(message))
    ):
        return None
    if _WEIGHTS_FORMAT_REFUSED.search(message):
        # the model folder's weights are in a format the loader does not read (mbridge and
        # safetensors-only loaders refusing `pytorch_model-*.bin`)
        return Fallback(
            "CFG017",
            {},
            f"{an(exc_type)} raised by {package} in {where_in(p, package)} ({func}): the model "
            "folder's weights are in a format it does not load",
        )
    base = _NOT_OF_PLUGIN_BASE.search(message) if package == "verl" else None
    if base:
        # a bare `assert isinstance(sampler, AbstractSampler)`: the class a setting named (a
        # custom sampler, a data generator) does not subclass the base verl plugs it in by
        return Fallback(
            "CFG014",
            {},
            f"{an(exc_type)} raised by verl in {where_in(p, package)} ({func}): an object of a class "
            f"a setting named is not {an(base.group('base'))}",
        )
    if package == "verl" and _CUSTOM_CODE_REFUSED.search(message):
        return Fallback(
            "CFG008",
            {},
            f"{an(exc_type)} raised by verl in {where_in(p, package)} ({func}), refusing a name or an "
            "object a custom module gives it",
        )
    if package == "verl" and _SAMPLE_ROLES.search(message) and not _WORKER_ROLES.search(message):
        return Fallback(
            "CFG012",
            {},
            f"{an(exc_type)} raised by verl in {where_in(p, package)} ({func}) about the roles of a "
            "sample's chat messages",
        )
    # verl's own validating code speaks of its config whatever its words; elsewhere in the
    # stack's code, the words must refuse a value, and name the option (or show the value).
    by_frame = package == "verl" and bool(
        options or _VERL_CONFIG_FUNC.search(func) or _CONFIG_PATH.search(p) or _CONFIG_KEY.search(message)
    )
    if (
        by_frame
        and not options
        and not _CONFIG_KEY.search(message)
        and not _A_SETTING_NAMED.search(message)
        and _ABOUT_THE_MODEL.search(message)
    ):
        # What the model is (its config.json's architectures, its type) is not a setting; a model
        # folder whose config.json lacks it (`Expect only one architecture, got None`) is no
        # model folder verl can load.
        if _NOTHING_THERE.search(message):
            return Fallback(
                "CFG017",
                {},
                f"{an(exc_type)} raised by verl in {p[p.rfind('/verl/') + 1 :]} ({func}): "
                "the model's config.json lacks what verl reads",
            )
        return None
    # A parallel size compared with something, or refused outright (`Context parallel size ...`),
    # or a feature refused together with a model split (`... with TP is not supported`).
    # `TP rank 3 could finish ...` numbers one rank: a parallel size is not what it speaks of.
    sizes = _ONE_RANK.sub(" ", message)
    sizes_compared = bool(
        _PARALLEL.search(sizes)
        and (_COMPARED.search(message) or _PARALLEL_SIZE.search(message) or _DIVIDE.search(message))
    )
    # A feature refused beside a model split (`... is not supported with elastic EP yet`): the
    # feature's setting is the value refused; the sizes themselves are fine.
    parallel_sizes = sizes_compared or bool(
        _MODEL_PARALLEL.search(message) and (_UNSUPPORTED.search(message) or _USE_ANOTHER.search(message))
    )
    # A field each sample of verl's dataset must carry (`'name' key is required in interaction_kwargs`).
    # A verl tool's create() reads its arguments from the sample (extra_info.tools_kwargs).
    sample_field_missing = (
        package == "verl"
        and _MISSING.search(message)
        # (its own words: a config it prints after them, `{'reward_model': ...}`, names fields too)
        and (_SAMPLE_FIELD.search(message.split("{", 1)[0]) or (_TOOL_CODE.search(p) and func == "create"))
    )
    if not by_frame:
        if package not in STACK_PACKAGES:
            return None
        # (or a feature refused that one of verl's options switches on: `... is not compatible
        # with gradient checkpointing`, wherever the library checks it)
        if not (_checks_settings(package, p, func) or _ENV_VARIABLE.search(message) or options):
            return None
        worded = (
            _REFUSED.search(message)
            # a rollout engine naming one of its own command-line flags (`--enable-unified-memory
            # ... needs`): the engine arguments verl passes (engine_kwargs) are settings of the run
            or (package in ROLLOUT_ENGINES and _ENGINE_FLAG.search(message))
            or _MISSING.search(message)
            or _DIVIDE.search(message)
            or _UNSUPPORTED.search(message)
            or _VALUE_SHOWN.search(message)
            or _DIRECTS_AN_OPTION.search(message)
        )
        if not (worded or parallel_sizes):
            return None
        # `Number of experts in the model must be > 0 when expert parallelism is enabled`: a
        # model split named is the setting the check is about.
        if (
            not (
                _A_SETTING_NAMED.search(message)
                or _MODEL_PARALLEL.search(message)
                or _DIRECTS_AN_OPTION.search(message)
                # a choice refused with the value shown (`No engine registered for ..., backend='automodel'`)
                or (_A_CHOICE.search(message) and _VALUE_SHOWN.search(message))
                # an option in code's spelling with the value refused (`requires kv_cache_dtype 'auto'
                # or 'fp8', got 'fp8_e5m2'`), whatever model words come with it
                or (_VALUE_SHOWN.search(message) and _names_an_option(message))
                # a feature refused that one of verl's options switches on (`gradient checkpointing`)
                or options
                # an option refused for this kind of model (`x_token_id is only supported for ...`)
                or _CONDITIONED_OPTION.search(message)
                # a feature the run switched, in words (`Disabling sliding window is not supported for
                # models with rope_scaling`)
                or _FEATURE_SWITCHED.search(message)
                # verl saying what it does not support (a model's layout, a feature with another)
                or (package == "verl" and _verl_does_not_support(message))
            )
            and (
                _ABOUT_THE_MODEL.search(message)
                or _CHECKPOINT_CONTENT.search(message)
                or (_MODEL_SHAPE.search(message) and not _PARALLEL.search(message))
            )
            and not _MODEL_IMPLEMENTATION.search(p)
        ):
            # What the model or a checkpoint is, not how the run was configured (the engine's
            # code for one architecture refusing it is the config.json, below).
            return None
        if (
            _ABOUT_DATA_OR_CODE.search(message)
            or (_ABOUT_A_SAMPLE.search(message) and not _DIRECTS_AN_OPTION.search(message))
            or (
                _CHAT_ROLE.search(message)
                and not any("role" in t.group(0) for t in _OPTION_TOKEN.finditer(message))
            )
        ):
            return None  # a sample's content, or how code calls the library
        if package == "verl":
            # verl's config keys are known: a refusal elsewhere in verl that names none of them,
            # shows no refused value, splits no batch and asks for no options checks its own
            # state (`execute_fn must be callable`, `15 != 16`), not a setting of the run.
            batch_split = _DIVIDE.search(message) and _BATCH_SIZES.search(message)
            # `Configuration must include 'retrieval_service_url'`: one option named in quotes.
            option_missing = _MISSING.search(message) and _QUOTED_OPTION.search(message)
            # `max_resp_len must be larger than overlong_buffer.len`: two options held to an order.
            options_ordered = _ORDERED.search(message) and (
                sum(1 for t in _OPTION_TOKEN.finditer(message) if t.group(0).islower() and "_" in t.group(0))
                >= 2
            )
            # `a_b and c_d must be both provided`: options (in code's spelling) that were not given.
            options_missing = (
                _MISSING.search(message)
                and sum(1 for o in _OPTION_TOKEN.finditer(message) if "_" in o.group(0)) >= 2
            )
            # `[FullyAsyncRollouter] Missing async_training configuration`: a section not given.
            section_missing = _SECTION_MISSING.search(message)
            if not (
                parallel_sizes
                or batch_split
                or options_missing
                or section_missing
                or _setting_value_shown(message)
                or _DIRECTS_AN_OPTION.search(message)
                or _CUSTOM_FILE.search(message)
                or _FROM_CONFIG.search(message)
                or sample_field_missing
                or option_missing
                or options_ordered
                or _verl_does_not_support(message)
            ):
                return None
        else:
            names_one = _names_an_option(message) or bool(_A_SETTING_NAMED.search(message)) or bool(options)
            # In a library's own settings code (server_args.py, a config's __post_init__, a
            # check_* function, the part of Ray that checks what ray_init passes, torchrun's
            # launcher) a refusal is about a setting even when it names none the way code would.
            # (a function named in capitals, `CUDART_CHECK`, checks a native call's return code)
            checks = _CONFIG_FUNC.search(func) and not func.isupper()
            in_settings_code = (
                bool(_CONFIG_PATH.search(p) or checks or _CONFIG_FUNC.search(caller))
                or package in _SETTINGS_CODE_ONLY
            )
            # A value refused with no setting named speaks of a setting only where the library is
            # being built from its settings (a constructor, a loader, an entry point); raised while
            # it runs (a scheduler's step, a batch being prepared) it is the library's own state.
            if not (
                names_one
                or parallel_sizes
                or in_settings_code
                or _IN_A_CONFIG.search(message)
                # (`worded` above: the message refuses something)
                or _STARTUP_FUNC.search(func)
                or _STARTUP_FUNC.search(caller)
                or _ENTRY_POINT.search(p)
            ):
                return None
    custom_file = _CUSTOM_FILE.search(message)
    # A custom class that loaded but has the wrong base is a value refused, not a file not found.
    if custom_file and not _WRONG_BASE.search(message):
        path_named = custom_file.group("path")
        return Fallback(
            "CFG008",
            {"path": path_named},
            f"{an(exc_type)} raised by {package}'s config check, about the custom module {path_named}",
        )
    if (
        _MODEL_IMPLEMENTATION.search(p)
        and not parallel_sizes
        and not _A_SETTING_NAMED.search(message)
        and not _A_CHOICE.search(message)  # `does not support FLASHINFER backend`: a setting's choice
        and not _ON_THIS_GPU.search(message)
        and not _OPTION_GIVEN.search(message)  # `dp_shared_memory requires cpu_offload=True`
    ):
        # The engine's code for this architecture refusing what the model's config.json holds
        # (`Unsupported activation: gelu_pytorch_tanh. Only silu is supported`).
        subject = _REFUSED_SUBJECT.search(message)
        field = subject.group("subject") if subject else "what the error names"
        return Fallback(
            "CFG017",
            {"field": field},
            f"{an(exc_type)} raised by {package}'s implementation of this model architecture "
            f"({where_in(p, package)})",
        )
    # verl's prompts and samples are its batches; another library's samples are a dataset's rows
    # (`test_size=500 should be ... smaller than the number of samples 312`), not a batch size.
    batches = _BATCH_SIZES if package == "verl" else _BATCH_WORD
    if _ON_THIS_GPU.search(message):
        code = "ENV007"  # the setting asks for what this GPU cannot do: the hardware decides
    elif sample_field_missing:
        code = "CFG012"
    elif (
        (_MISSING.search(message) and not _RECEIVED.search(message))
        or _EMPTY_VALUE.search(message)
        or _COUNT_LEFT_AT_ZERO.search(message)
    ):
        code = "CFG011"
    elif (
        batches.search(message)
        and _ORDERED.search(message)
        and (not _MODEL_PARALLEL.search(message) or _BATCH_FOR_EACH_GPU.search(message))
        # (another library's own batches, vLLM's micro-batches of dual-batch overlap, are its
        # settings; verl's batch sizes are verl's arithmetic)
        and (package == "verl" or any("batch" in o for o in options))
    ):
        code = "CFG004"  # batch sizes that must not exceed (or fall short of) one another
    elif _DIVIDE.search(message):
        # Batches split over ranks are batch arithmetic; ranks split over nodes or a model split
        # is parallelism; other sizes (a KV-cache block) are a value the library refuses.
        if batches.search(message) and not _MODEL_PARALLEL.search(message):
            code = "CFG004"
        else:
            code = "CFG010" if _PARALLEL.search(message) else "CFG014"
    elif (
        not _CONDITIONED_OPTION.search(message)
        and (
            (
                sizes_compared
                and not _OTHER_OPTION_VALUE.search(message)
                # `--prefill-only-disable-kv-cache is incompatible with --attn-cp-size > 1`: the other
                # setting is what is refused beside the split
                and not (_INCOMPATIBLE.search(message) and _another_setting_named(message))
            )
            or (
                parallel_sizes
                and not _another_setting_named(message)
                and not _feature_a_split_refuses(message)
            )
        )
        and not _ONLY_FOR_A_BACKEND.search(message)
    ):
        code = "CFG010"
    else:
        # (a parallel size that only one backend takes, `moe_tensor_parallel_size is only supported
        # for trtllm`, refuses the backend chosen: the sizes themselves are fine)
        code = "CFG014"
    where = where_in(p, package)
    named = f"; it names {', '.join(options)}" if options else ""
    whose = "verl's" if package == "verl" else f"{package}'s"
    groups = {"options": ", ".join(options)} if options else {}
    return Fallback(code, groups, f"{an(exc_type)} raised by {whose} config check in {where} ({func}){named}")


# A setting that only one training or rollout backend takes.
_ONLY_FOR_A_BACKEND = lazy_compile(
    r"\bonly (?:supported|available|valid|allowed|implemented) (?:for|with|by|in|on|when using) (?:the )?"
    r"(?:trtllm|tensorrt[-_ ]llm|vllm|sglang|megatron|fsdp2?|hf)\b",
    re.I,
)
# A model family as messages spell it (`qwen2_5_vl`): a name in code's spelling that is no setting.
_MODEL_FAMILY = lazy_compile(
    r"^(?:qwen|llama|gemma|mistral|mixtral|deepseek|glm|phi|internvl|minicpm|kimi)", re.I
)


_FEATURE_SWITCHED = lazy_compile(r"^(?:\[[\w.-]+\] )?(?:Disabling|Enabling|Turning (?:on|off)) [a-z]")
# What a thing does not support (`Dynamic CP does not support distillation`): its object.
_NOT_SUPPORTING = lazy_compile(
    r"\b(?:does not|doesn't|do not|don't|cannot|can't) (?:yet |currently )?support (?:for |with )?"
    r"(?P<object>[^.;:,]{1,80})",
    re.I,
)


def _feature_a_split_refuses(message: str) -> bool:
    """Whether a model split refuses a feature (`Dynamic CP does not support distillation`): the
    feature's setting is the value refused, not the split (`... does not support vpp` refuses
    the split)."""
    m = _NOT_SUPPORTING.search(message)
    return bool(m and _PARALLEL.search(message[: m.start()]) and not _PARALLEL.search(m.group("object")))


def _another_setting_named(message: str) -> bool:
    """Whether a refusal that speaks of a model split also names another setting, in code's
    spelling (`embedding_across_dp`, `remove_padding`, `--enable-watermark`): that setting is
    the value refused beside the split (`... is not supported with elastic EP`)."""
    for t in _OPTION_TOKEN.finditer(message):
        word = t.group(0)
        if word in _NOT_AN_OPTION or _MODEL_FAMILY.match(word.lstrip("-")) or _PARALLEL.search(word):
            continue
        if word.islower() or word.startswith("--"):
            return True
    return False


def where_in(path: str, package: str) -> str:
    """`path` from its package's folder on (`sglang/srt/models/qwen2.py`)."""
    return (
        path[path.rfind("/" + package + "/") + 1 :]
        if "/" + package + "/" in path
        else path.rsplit("/", 1)[-1]
    )


# An engine's (or transformers') code for one model architecture.
_MODEL_IMPLEMENTATION = lazy_compile(
    r"/(?:sglang/srt/models|vllm/model_executor/models|vllm/models)/(?:(?!ops/|kernels/)\w+/){0,2}\w+\.py$|"
    r"/transformers/models/\w+/modeling_\w+\.py$"
)
_SUPPORT = lazy_compile(r"\bsupport", re.I)


def _verl_does_not_support(message: str) -> bool:
    """verl saying in so many words what it does not support (a feature, a model's layout, the
    two together); not its code that is missing (`not implemented yet`), nor a model whose
    config.json it sends the user to, nor a Python type its code was handed (`Indexing with
    <class 'str'> is not supported`)."""
    return bool(_SUPPORT.search(message)) and "config.json" not in message and "<class '" not in message


# An environment variable is a setting wherever the code that reads it sits.
_ENV_VARIABLE = lazy_compile(
    r"\benv(?:ironment)?[ _-]?var(?:iable)?s?\b|"
    # the variables that choose the devices a process sees (`HIP_VISIBLE_DEVICES contains more
    # devices than ROCR_VISIBLE_DEVICES`)
    r"\b[A-Z]+_VISIBLE_(?:DEVICES|CORES)\b",
    re.I,
)
# An option in code's spelling with the value it needs or was given (`cpu_offload=True`).
_OPTION_GIVEN = lazy_compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+=\S")
# What a refusal is about: `Unsupported activation: gelu` -> activation.
_REFUSED_SUBJECT = lazy_compile(r"\b(?:unsupported|unknown|invalid) (?P<subject>[a-z][\w ]{1,40}?):", re.I)
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
    r"\bhas no attribute\b|\bno (?:valid )?attribute\b"
)


def patched_library_changed(message: str, path: str, func: str) -> Fallback | None:
    """verl patching another library's class that lacks what the patch reaches for (`The provided
    model does not have a valid 'model' or 'language_model' attribute`): that library's release
    lays its classes out otherwise than the one verl's patch was written for."""
    if not (_PATCHING.search(func) and _LACKS_ATTRIBUTE.search(message)):
        return None
    p = path.replace("\\", "/")
    where = p[p.rfind("/verl/") + 1 :]
    for pattern, library in _PATCHED_LIBRARY:
        if pattern.search(p + ":" + func):
            basis = f"verl's patch of {library} in {where} ({func}) did not find what it patches"
            return version_mismatch(library, None, basis)
    return None


# A function or class of the package's own API that its release no longer provides: the caller
# (a user's script, another package) was written for another release.
_API_GONE = lazy_compile(
    r"^(?P<name>[A-Za-z_][\w.]*)(?:\(\))? (?:is deprecated|has been removed|was removed|is no longer "
    r"(?:supported|available))\b"
)


def api_gone(exc_type: str, message: str, package: str) -> Fallback | None:
    """An exception of a package saying a function of its API is gone (`get_dist_checkpoint_path
    is deprecated. ... Use the explicit helpers: ...`): code written for another release of it."""
    m = _API_GONE.match(message.strip())
    if m is None or package not in _VERSION_RULES:
        return None
    return version_mismatch(
        package, m["name"], f"{an(exc_type)} in which {package} says {m['name']} is no longer part of its API"
    )


# The value refused is empty (`invalid literal for int() with base 10: ''`, `nproc_per_node value: `):
# a setting left unset (a shell variable that expanded to nothing), not a wrong value.
_EMPTY_VALUE = lazy_compile(r"""(?::\s*(?:''|"")|\bvalue:)\s*$""")
# A count of nodes, GPUs or processes that must be above zero: left at its default 0 (a separate
# pool's size) or taken from a variable that was not set (`NNODES=${SLURM_NNODES:-0}`), as the
# rules for verl's pool sizes read it.
_COUNT_LEFT_AT_ZERO = lazy_compile(
    r"\b(?:n_?nodes|nodes|n_gpus\w*|gpus|nproc\w*|processes|replicas|world_?size)\b[^.]{0,80}?"
    r"must be (?:greater than (?:zero|0)|> ?0|positive|at least 1)\b",
    re.I,
)
# What a run chooses by a setting: a refusal that names one (`not supported in remote reward
# manager`) refuses that choice, not how code calls verl (`Indexing with <class 'str'>`).
_A_CHOICE = lazy_compile(
    r"\b(?:manager|mode|backend|strategy|engine|estimator|loss|optimizer|scheduler|format|dtype|"
    r"precision|quantization|algorithm|parser|reward)s?\b",
    re.I,
)
_ONE_RANK = lazy_compile(r"\b(?:(?:tp|pp|dp|ep|cp|sp|global|local) )?rank \d+\b", re.I)
# A check that says what to use instead: `please use mbridge for qwen2_5_vl with context parallelism`.
_USE_ANOTHER = lazy_compile(r"\bplease use\b|\b(?:must|should) use\b|\buse \w+ instead\b", re.I)
# What the model's config holds is absent: `got None`, `is missing`, `has no architectures`.
_NOTHING_THERE = lazy_compile(
    r"\bgot None\b|\bis None\b|\b(?:is|are) missing\b|\bhas no\b|\bnot found\b|"
    # or more than the one verl reads (`Expect only one architecture, got ['A', 'B']`)
    r"\bexpect(?:s|ed)? (?:only |exactly )?one\b",
    re.I,
)
_QUOTED_OPTION = lazy_compile(r"['\"`][a-z]+(?:_[a-z0-9]+)+['\"`]")
# The fields of a dataset row that verl reads (`extra_info.interaction_kwargs.name`): a check that
# finds one missing is about the data, not the run's settings.
_SAMPLE_FIELD = lazy_compile(
    r"\b(?:extra_info|interaction_kwargs|tools_kwargs|reward_model|ground_truth|data_source|agent_name|"
    r"raw_prompt|multi_modal_data)\b"
)
# verl's code that reads a dataset row's fields: the dataset classes, the reward managers and
# reward functions (`data_item.non_tensor_batch["reward_model"]["ground_truth"]`).
_DATA_READERS = lazy_compile(
    r"/verl/(?:utils/dataset|workers/reward_manager|utils/reward_score|experimental/reward_loop)(?:/|\.py)"
)
# What a source line subscripts (`data_item.non_tensor_batch["reward_model"]` -> its names), and
# the names a row of the data goes by in verl's code.
_SUBSCRIPTED = lazy_compile(r"([A-Za-z_][\w.]*)\s*\[")
_A_ROW = lazy_compile(
    r"data|row|example|item|sample|batch|extra_info|reward_model|ground_truth|kwargs|record|df\b|frame", re.I
)
_TOOL_CODE = lazy_compile(r"/verl/tools/\w+\.py$")
_KEY = lazy_compile(r"^['\"](?P<key>[\w./-]{1,100})(?:['\"]|$)")  # a paste may cut the closing quote


# pandas looking up a DataFrame column (`df[config.data.response_key]`): the KeyError is a column
# the data file lacks, whichever verl code asked for it.
COLUMN_LOOKUP = lazy_compile(r"/pandas/core/(?:frame|indexes/base)\.py$")


def data_field(
    exc_type: str, message: str, path: str, column_lookup: bool = False, code: str = ""
) -> Fallback | None:
    """A KeyError raised where verl reads a row of the dataset (or, with `column_lookup`, a column
    of a DataFrame verl loaded): the data lacks that field. `code`, the raising source line when
    the traceback shows it, must read it from a row (`row_dict[...]`), not from what a function
    returned (`result["score"]`: a custom reward function's return value)."""
    if exc_type != "KeyError":
        return None
    m = _KEY.match(message.strip())
    if m is None or not (column_lookup or _DATA_READERS.search(path.replace("\\", "/"))):
        return None
    subscripted = _SUBSCRIPTED.findall(code)
    if subscripted and not any(_A_ROW.search(name) for name in subscripted):
        return None
    where = path[path.rfind("/verl/") + 1 :]
    return Fallback(
        "CFG012",
        {"key_missing": m["key"]},
        f"a KeyError on field {m['key']!r} where verl reads the data ({where})",
    )
