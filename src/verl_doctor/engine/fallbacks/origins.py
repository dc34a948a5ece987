"""Answers told by the code that raised: a Ray envelope, the Ascend NPU stack, Hydra composing the
config, a library building the model's config from its config.json."""

from __future__ import annotations

import re

from verl_doctor.common.lazy_re import lazy_compile
from verl_doctor.engine.fallbacks.answer import Fallback, an
from verl_doctor.engine.fallbacks.packages import ROLLOUT_ENGINES, version_mismatch
from verl_doctor.engine.fallbacks.wording import ENV_VARIABLE

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


# The Ascend NPU stack named in an error: its toolkit, the torch plugin, its collective library.
ASCEND_STACK = lazy_compile(
    r"\bCANN\b|\btorch_npu\b|\bHCCL\b|\bAscend\b|\bnpu-smi\b|\bascend-toolkit\b|\bACL\b"
)


# Code that only runs on Ascend NPUs: the torch and vLLM plugins, verl's NPU platform and patches.
_NPU_CODE = lazy_compile(r"/(?:torch_npu|vllm_ascend|mindspeed)/|/\w*npu\w*\.py$|/npu/", re.I)
# A variable of the Ascend stack's own environment (NPU_*, ASCEND_*, HCCL_*).
_NPU_VARIABLE = lazy_compile(r"\b(?:NPU|ASCEND|HCCL|ACL)_[A-Z0-9_]+\b")


# Where the Ascend plugins check the settings they are given (vllm-ascend's ascend_config.py, its
# platform's check_and_update_config): a refusal there is a setting's, not the NPU stack failing.
_NPU_SETTINGS_CODE = lazy_compile(r"/\w*config\w*\.py$")
_NPU_SETTINGS_FUNC = lazy_compile(r"^(?:check_\w+|_?validate\w*|__post_init__|\w*_config)$")


def npu_code(exc_type: str, path: str, func: str = "", message: str = "") -> Fallback | None:
    """A runtime error raised in code that only runs on Ascend NPUs (`Error checking IPC support`
    in verl's NPU platform), or any error there that speaks of the Ascend stack (`HCCL only
    supports Ascend NPU backends.`): the NPU stack failed; not where the NPU plugins check their
    settings."""
    p = path.replace("\\", "/")
    if not _NPU_CODE.search(p):
        return None
    # (a variable of the environment that only the NPU code reads, `NPU_FA2_SPARSE_MODE` in
    # transformers' NPU flash-attention, refused: the NPU runtime's environment)
    npu_environment = bool(ENV_VARIABLE.search(message) and _NPU_VARIABLE.search(message))
    if not npu_environment and exc_type not in RUNTIME_TYPES and not ASCEND_STACK.search(message):
        return None
    if not npu_environment and (_NPU_SETTINGS_CODE.search(p) or _NPU_SETTINGS_FUNC.match(func)):
        return None
    return Fallback(
        "ENV012", {}, f"{an(exc_type)} raised by code for Ascend NPUs ({path.rsplit('/', 1)[-1]})"
    )


# Code that runs only when a verl setting switches it on, by where it lives: its refusal is that
# setting not fitting the model or the rest of the run (Liger's patches of a model's classes, run
# when model.use_liger is on: verl/workers/fsdp_workers.py, verl/workers/engine/fsdp/).
_SWITCHED_ON = ((lazy_compile(r"/liger_kernel/"), "use_liger"),)
# Where that setting sits in verl's config, for a log that does not show it set.
_SETTING_PLACES = {"use_liger": ("actor_rollout_ref.model.use_liger", "critic.model.use_liger")}


def switched_on_refused(exc_type: str, path: str, func: str, overrides: dict[str, str]) -> Fallback | None:
    """A refusal raised in code a verl setting switched on (`overrides`: the run's settings): the
    setting, as this run gave it, does not fit the model (CFG014)."""
    p = path.replace("\\", "/")
    option = next((name for where, name in _SWITCHED_ON if where.search(p)), None)
    if option is None:
        return None
    given = [
        k
        for k, v in overrides.items()
        if k.rpartition(".")[2] == option and v.strip("'\" ").lower() == "true"
    ]
    basis = (
        f"{an(exc_type)} raised in {p.rsplit('/', 1)[-1]} ({func}), code verl runs only when {option} is on"
    )
    return Fallback("CFG014", {"options": ", ".join(given or _SETTING_PLACES[option])}, basis)


# OmegaConf refusing what code put into a config, not a value a setting gave: an object of a class
# it cannot hold, or a type annotation it cannot read (code of verl's or the user's).
_OBJECT_NOT_A_VALUE = lazy_compile(
    r"^(?:Unexpected type annotation|Object of unsupported type|Unsupported value type|"
    r"Unexpected object type)\b"
)


def typed_value_refused(
    exc_type: str, message: str, path: str, key: str | None, set_keys: list[str]
) -> Fallback | None:
    """OmegaConf refusing a value for a typed field while verl turned its config into one of its
    classes (`Value 'auto' of type 'str' is incompatible with type hint 'Union[int, float]'`,
    `Non optional field cannot be assigned None`): the value a setting gave that field (`key`, the
    field Hydra's full_key names; `set_keys`, the run's settings that name it) (CFG014)."""
    if "/omegaconf/" not in path.replace("\\", "/") or not exc_type.endswith("ValidationError"):
        return None
    if _OBJECT_NOT_A_VALUE.search(message):
        return None
    named = set_keys or ([key] if key else [])
    groups = {"options": ", ".join(named)} if named else {}
    field = f" for {key}" if key else ""
    return Fallback(
        "CFG014", groups, f"OmegaConf refusing a value{field} of the wrong type for verl's typed config"
    )


RUNTIME_TYPES = frozenset(("RuntimeError", "OSError", "FileNotFoundError", "EnvironmentError", "SystemError"))


# Hydra composing the config: its code that parses and applies the command line's overrides
# (a sweep's range, `critic=null` for a config group), and its code that reads the config files
# and their defaults lists (a primary config of the user's own).
_HYDRA_OVERRIDES = lazy_compile(
    r"/hydra/(?:core/override_parser/|_internal/grammar/|_internal/core_plugins/basic_sweeper\.py:|"
    r"_internal/config_loader_impl\.py:(?:validate_sweep_overrides_legal|_apply_overrides_to_config)$|"
    r"_internal/defaults_list\.py:(?:__init__|ensure_overrides_used|ensure_deletions_used|"
    r"set_known_choice|_update_overrides)$)"
)


# Hydra's instantiate refusing the node it was handed (its `_target_`, `_args_`, `_partial_`,
# `_recursive_`, the node's type): the entry of the run's config (or a config file it names, an
# agent loop's) that verl builds an object from. (Its wrappers of the target's own error, `Error
# in call to target`, never get here: engine/line_kinds.py reads them as wrappers.)
_HYDRA_INSTANTIATE = lazy_compile(r"/hydra/_internal/instantiate/_instantiate2\.py:")
_NODE_REFUSED = lazy_compile(
    r"\b_(?:target|args|partial|recursive|convert)_\b|\b(?:Unsupported|Expected a callable) target\b|"
    r"\bCannot instantiate config of type\b"
)


_HYDRA_CONFIG_FILES = lazy_compile(
    r"/hydra/_internal/(?:config_repository\.py|config_loader_impl\.py|defaults_list\.py|"
    r"config_search_path_impl\.py|sources_registry\.py|core_plugins/\w+_config_source\.py):"
)


def hydra_composition(exc_type: str, message: str, path: str, func: str) -> Fallback | None:
    """An error no signature knows, raised by Hydra while it composed the run's config: the
    overrides (CFG016) or the config files it reads (CFG020), told by where it was raised; or
    while it instantiated an entry of the config, refusing the entry itself (CFG014)."""
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
    if _HYDRA_INSTANTIATE.search(where) and (entry := _NODE_REFUSED.search(message)):
        return Fallback(
            "CFG014",
            {"instantiate_entry": entry.group(0)},
            f"{an(exc_type)} raised by Hydra instantiating an entry of the config ({func})",
        )
    return None


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


# The config code that writes a config out: what it refuses is what the run put in the config
# (an override), not what the model folder holds.
_WRITES_CONFIG = lazy_compile(r"^(?:save_pretrained|push_to_hub|to_json_\w+|to_dict|to_diff_dict)$")


_ARCHITECTURE_REFUSED = lazy_compile(
    r"\b(?:unsupported|unknown|not supported) (?:model )?architecture\b", re.I
)


def builds_the_model_config(path: str, func: str, callers: tuple[str, ...] = ()) -> bool:
    """Whether transformers (or a rollout engine's config class for one model family) raised
    while building the model's config from its config.json (`Missing required keys in
    `rope_scaling``), not while writing one out. `callers`: the functions of the same package
    that called the raising one (a config validated as it is saved)."""
    return bool(_MODEL_CONFIG_CODE.search(path.replace("\\", "/"))) and not any(
        _WRITES_CONFIG.match(f) for f in (func, *callers)
    )


def model_config_refused(exc_type: str, message: str, package: str = "transformers") -> Fallback | None:
    """What a refusal of the model's config says (see `builds_the_model_config`): a rollout
    engine's config class for a model family that does not know the model inside (`Unsupported
    architecture: Qwen3ForCausalLM` in SGLang's InternVL config) wants a later release of the
    engine. Anything else it refuses is what the model folder's config.json holds (a RoPE
    section, a field's value): no setting of the run and no code's fault, so no code's answer."""
    if package in ROLLOUT_ENGINES and _ARCHITECTURE_REFUSED.search(message):
        basis = f"{an(exc_type)} raised by {package}'s config for the model, refusing its architecture"
        return version_mismatch(package, None, basis)
    return None
