"""What an exception no rule knows still says, from its class and the names in its message.

A rule's signature recognises a failure by its wording; this module recognises a class of
failure by mechanism, for the wordings no rule has seen:

- `No module named 'X'` for a package that is not part of the code running it: a missing
  dependency (ENV009), naming the pip distribution to install;
- `No module named 'P.sub'`, `cannot import name 'N' from 'P'`, `module 'P' has no attribute 'N'`:
  the installed P is another version than the code needs (verl ENV005, vLLM/SGLang ENV004,
  transformers ENV010, the Megatron stack ENV008, any other package ENV013);
- `FileNotFoundError` on a data file or on a model's files: CFG013 / CFG017;
- `HFValidationError` (a path passed where a hub id is expected): CFG017.

- an `AssertionError`/`ValueError`/... raised by verl's own config validation: a config error,
  CFG011 (a value that must be set), CFG004 (batch sizes that must divide), CFG010 (parallel
  sizes), else CFG014 (a value verl does not accept).

These answers are weaker than a signature's (the mechanism, not the message, is known): the
analyzer reports them with medium confidence and says what they rest on.
"""

from __future__ import annotations

import re

from verl_doctor.common.records import record
from verl_doctor.common.resources import data_path

_NO_MODULE = re.compile(r"No module named '?(?P<module>[A-Za-z_][\w.]*)'?")
_CANNOT_IMPORT = re.compile(r"cannot import name '?(?P<name>[\w.]+)'? from '?(?P<module>[A-Za-z_][\w.]*)'?")
_NO_ATTRIBUTE = re.compile(r"module '(?P<module>[A-Za-z_][\w.]*)' has no attribute '(?P<name>\w+)'")
_NO_SUCH_FILE = re.compile(r"No such file or directory: '(?P<path>[^']{1,1000})'")

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
_DATA_SUFFIXES = (".parquet", ".jsonl", ".json", ".csv", ".arrow", ".tsv")
_MODEL_FILES = re.compile(
    r"(?:^|/)(?:config\.json|generation_config\.json|tokenizer(?:_config)?\.json|tokenizer\.model|"
    r"preprocessor_config\.json|[\w.-]*\.safetensors(?:\.index\.json)?|pytorch_model[\w.-]*\.bin)$"
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


def classify(message: str, exc_type: str | None) -> Fallback | None:
    """The fallback answer for an exception line's text (type and message), or None."""
    m = _NO_MODULE.search(message)
    if m and (exc_type in (None, "ModuleNotFoundError", "ImportError") or "No module named" in message):
        return _missing_module(m["module"].rstrip("."))
    m = _CANNOT_IMPORT.search(message)
    if m and "partially initialized" not in message:
        return _version_mismatch(m["module"], m["name"], f"an {exc_type or 'ImportError'} from {m['module']}")
    m = _NO_ATTRIBUTE.search(message)
    if m and exc_type == "AttributeError" and "partially initialized" not in message:
        top = m["module"].split(".")[0]
        if top in _VERSION_RULES or top in pip_names():
            return _version_mismatch(m["module"], m["name"], f"an AttributeError on module {m['module']}")
        return None
    if exc_type == "HFValidationError":
        return Fallback("CFG017", {}, "an HFValidationError (a path or name that is not a hub id)")
    m = _NO_SUCH_FILE.search(message)
    if m and exc_type in ("FileNotFoundError", "OSError", "IOError"):
        path = m["path"]
        if _MODEL_FILES.search(path):
            return Fallback("CFG017", {"path": path}, "a FileNotFoundError on a model file")
        if path.lower().endswith(_DATA_SUFFIXES):
            return Fallback("CFG013", {"path": path}, "a FileNotFoundError on a data file")
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
            return _version_mismatch(top, module, f"a ModuleNotFoundError for {module}")
        return None  # most likely the user's own package; nothing general to say
    return Fallback(
        "ENV009", {"module": module, "pkg": pip_distribution(module)}, f"a ModuleNotFoundError for {module}"
    )


def _version_mismatch(module: str, name: str, basis: str) -> Fallback:
    top = module.split(".")[0]
    code = _VERSION_RULES.get(top, "ENV013")
    return Fallback(
        code, {"package": top, "pkg": pip_distribution(top), "name": name, "module": module}, basis
    )


_CONFIG_FUNC = re.compile(r"validat|check|__post_init__|post_init|_verify|sanity", re.I)
_CONFIG_PATH = re.compile(r"/config/|/configs?\.py$|_config\.py$")
_CONFIG_KEY = re.compile(
    r"\b(?:config\.|cfg\.)?(?:actor_rollout_ref|data|trainer|algorithm|critic|reward_model|reward|"
    r"rollout|actor|ref|model|optim)\.[a-z_][\w.]*[a-z_]"
)
_MISSING = re.compile(
    r"must be (?:explicitly )?(?:set|provided|specified|given)|should be (?:set|provided|specified)|"
    r"is required|are required|must (?:set|specify|provide)|is not set|(?<!\w)missing\b|cannot be None|"
    r"must not be None|is None",
    re.I,
)
_DIVIDE = re.compile(r"divisible|multiple of|% ?\w* ?== ?0|evenly", re.I)
_PARALLEL = re.compile(
    r"tensor_model_parallel|tensor[ _]parallel|pipeline[ _]parallel|context[ _]parallel|ulysses|"
    r"sequence[ _]parallel|expert[ _]parallel|world[ _]size|\b(?:tp|pp|cp|ep|sp)(?:_size)?\b",
    re.I,
)


def config_check(
    exc_type: str, message: str, path: str, func: str, options: list[str] | None = None
) -> Fallback | None:
    """The config code for an error verl raised while checking its config, or None when the
    frame and message do not show a config check (`options`: verl's config options the message
    names)."""
    p = path.replace("\\", "/")
    if not (options or _CONFIG_FUNC.search(func) or _CONFIG_PATH.search(p) or _CONFIG_KEY.search(message)):
        return None
    if _MISSING.search(message):
        code = "CFG011"
    elif _DIVIDE.search(message):
        code = "CFG010" if _PARALLEL.search(message) else "CFG004"
    elif _PARALLEL.search(message):
        code = "CFG010"
    else:
        code = "CFG014"
    where = p[p.rfind("/verl/") + 1 :] if "/verl/" in p else p.rsplit("/", 1)[-1]
    named = f"; it names {', '.join(options)}" if options else ""
    return Fallback(code, {}, f"an {exc_type} raised by verl's config check in {where} ({func}){named}")
