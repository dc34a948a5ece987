"""What the stack's packages are called: import names, pip distributions, release names, and
which rule answers for a package installed at another version."""

from __future__ import annotations

from verl_doctor.common.resources import data_path
from verl_doctor.engine.fallbacks.answer import Fallback

# Import names whose version mismatches have their own rule.
VERSION_RULES = {
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
VERSION_MISMATCH_CODES = frozenset((*VERSION_RULES.values(), "ENV013"))


# Modules that are never a pip package of their own: a user's file, verl's generated code,
# remote-code models (CFG007), vLLM's optional version stamp.
NOT_PACKAGES = {"__main__", "transformers_modules", "custom_module", "vllm._version"}


# Roots shared by unrelated distributions: `google.protobuf` missing means protobuf is missing.
NAMESPACES = {"google", "nvidia", "azure", "jaxlib"}


_pip_names: dict[str, str] | None = None


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


_PACKAGE_ALIASES = {
    "pytorch": "torch",
    "megatron-lm": "megatron",
    "megatron-core": "megatron",
    "mcore": "megatron",
    "te": "transformer_engine",  # Megatron's words for Transformer Engine (`please update TE version`)
    "transformerengine": "transformer_engine",  # TE's own words (`TransformerEngine package ...`)
    "flashattention": "flash_attn",  # transformers' `the package for FlashAttention2`
    "flashattention2": "flash_attn",
    "flashattention3": "flash_attn_3",
    "antlr": "antlr4",  # latex2sympy's `Unsupported ANTLR version 4.9.2` (the runtime it parses with)
}


def known_package(name: str) -> str | None:
    """The import name of a package verl's stack uses, from a name as a message prints it."""
    low = name.lower().strip("`'\".,").replace(" ", "_")  # `flash attn` as some messages write it
    low = _PACKAGE_ALIASES.get(low, low)
    if low in VERSION_RULES:
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


def version_mismatch(module: str, name: str | None, basis: str) -> Fallback:
    """`name`: the name the module lacks; None when the message names the version it needs."""
    top = module.split(".")[0]
    code = VERSION_RULES.get(top, "ENV013")
    groups = {"package": top, "pkg": pip_distribution(top), "module": module}
    if name:
        groups["name"] = name
    return Fallback(code, groups, basis)


# Libraries whose own checks of their settings speak to the user: verl (and its recipes), the
# rollout engines (TensorRT-LLM too, verl's third since 0.8), transformers, the Megatron stack,
# Ray (ray.init and runtime_env arguments), torch's launcher (torchrun's arguments,
# MASTER_ADDR/MASTER_PORT) and DataLoader.
STACK_PACKAGES = frozenset(
    (
        "verl",
        "vllm",
        "vllm_ascend",
        "sglang",
        "tensorrt_llm",
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


# The rollout engines whose Python code raises in a verl run's traceback.
ROLLOUT_ENGINES = frozenset(("vllm", "sglang"))


# Packages whose own code builds a model's config class from its config.json.
MODEL_CONFIG_PACKAGES = ROLLOUT_ENGINES | {"transformers"}
