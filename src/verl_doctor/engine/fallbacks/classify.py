"""The fallback answer for an exception line, from its class and the names in its message."""

from __future__ import annotations

from functools import lru_cache

from verl_doctor.common.lazy_re import lazy_compile
from verl_doctor.engine.fallbacks.answer import Fallback, an
from verl_doctor.engine.fallbacks.installs import (
    CANNOT_IMPORT,
    CASE_ONLY,
    EVERYDAY_PACKAGES,
    MUTABLE_DEFAULT,
    NO_ATTRIBUTE,
    NO_MODULE,
    OBJECT_NO_ATTRIBUTE,
    RAISING,
    UPGRADE,
    VERSION_FOUND,
    called_for_another_verl,
    install_required,
    missing_module,
    version_required,
)
from verl_doctor.engine.fallbacks.origins import ASCEND_STACK, RUNTIME_TYPES
from verl_doctor.engine.fallbacks.packages import VERSION_RULES, known_package, pip_names, version_mismatch
from verl_doctor.engine.fallbacks.paths import (
    DATA_SUFFIXES,
    MODEL_FILES,
    NO_SUCH_FILE,
    PATH_ERRORS,
    path_missing,
)

_ARGPARSE_REFUSALS = frozenset(("ArgumentTypeError", "ArgumentError"))


@lru_cache(maxsize=4096)  # a log repeats its exceptions on every rank and retry
def classify(message: str, exc_type: str | None) -> Fallback | None:
    """The fallback answer for an exception line's text (type and message), or None."""
    m = NO_MODULE.search(message)
    if m and (exc_type in (None, "ModuleNotFoundError", "ImportError") or "No module named" in message):
        return missing_module(m["module"].rstrip("."))
    m = CANNOT_IMPORT.search(message)
    if m and "partially initialized" not in message:
        return version_mismatch(m["module"], m["name"], f"{an(exc_type or 'ImportError')} from {m['module']}")
    m = CASE_ONLY.search(message)
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
        if top in VERSION_RULES or top in pip_names():
            return version_mismatch(module, name, f"an AttributeError on module {module}")
        return None
    m = OBJECT_NO_ATTRIBUTE.search(message.strip())
    if m and exc_type == "AttributeError":
        top = m["module"].split(".")[0]
        if top not in EVERYDAY_PACKAGES and (top in VERSION_RULES or top in pip_names()):
            return version_mismatch(
                m["module"], m["name"], f"an AttributeError on a {m['module']}.{m['cls']} object"
            )
    m = MUTABLE_DEFAULT.search(message)
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
    if exc_type in PATH_ERRORS:
        code, what = PATH_ERRORS[exc_type]
        return Fallback(code, {}, f"{an(exc_type)} ({what})")
    m = NO_SUCH_FILE.search(message)
    if m and exc_type in ("FileNotFoundError", "OSError", "IOError"):
        path = m["path"]
        if MODEL_FILES.search(path):
            return Fallback("CFG017", {"path": path}, "a FileNotFoundError on a model file")
        if path.lower().endswith(DATA_SUFFIXES):
            return Fallback("CFG013", {"path": path}, "a FileNotFoundError on a data file")
    if exc_type is None:
        return None
    if exc_type in _ARGPARSE_REFUSALS:
        # verl hands the rollout engine its settings as command-line arguments (engine_kwargs become
        # `--flag value` for vLLM's and SGLang's parsers): a value the parser's type refuses.
        return Fallback("CFG014", {}, f"{an(exc_type)}: an argument parser refused a value it was given")
    if exc_type == "TypeError":
        found = called_for_another_verl(message)
        if found:
            return found
    first, second = version_required, install_required
    if (
        exc_type in ("ImportError", "ModuleNotFoundError")
        and not VERSION_FOUND.search(message)
        and not UPGRADE.search(message)
    ):
        # An import that failed, asking for an install: the package is not there at all, even
        # when the message names the version it would need (`needs modelscope>=1.18.1, please install`).
        first, second = second, first
    found = first(message, exc_type) or second(message, exc_type)
    if found is None and exc_type in RUNTIME_TYPES and ASCEND_STACK.search(message):
        # (a release of the stack it needs is the version answer above, not a device error; a
        # file of the stack not found, `CANN toolkit info file does not exist: ...`, is this one)
        return Fallback("ENV012", {}, f"{an(exc_type)} about the Ascend NPU stack (CANN, torch_npu, HCCL)")
    found = found or path_missing(message, exc_type)
    if found is None and exc_type in RAISING and _NEEDS_NEWER_GPU.search(message):
        return Fallback("ENV007", {}, f"{an(exc_type)} asking for a newer GPU architecture")
    return found


# A kernel or feature that needs a newer GPU than this one, by its architecture number:
# `fused all-reduce cluster kernels require CUDA SM90 or newer`, `needs sm_100a`, or by the
# lowest compute capability it runs on (`('Flash attention currently only supported', 'for
# compute capability >= 80')`, vLLM's lightning attention).
_SM = r"(?:SM ?|sm_?)(?:[7-9]\d|1[0-2]\d)a?\b"


_NEEDS_NEWER_GPU = lazy_compile(
    r"\b(?:requires?|required|needs?|only (?:supported|works|runs|available)(?: on)?|supported only on)\b"
    rf"[^.\n]{{0,60}}?\b{_SM}|\b{_SM}\+? (?:or|and) (?:newer|later|above|higher)\b|"
    r"\bcompute capability (?:>=|>|≥|of at least|at least) ?"
    r"(?:[5-9](?:\.\d)?|[5-9]\d|1[0-2](?:\.\d)?|1[0-2]\d)\b"
)
