"""A library checking the settings a run gives it: which code checks settings rather than how it
is called, and which code (CFG004, CFG010, CFG011, CFG014, ...) the refusal is."""

from __future__ import annotations

import re
from functools import lru_cache

from verl_doctor.common.lazy_re import lazy_compile
from verl_doctor.engine.fallbacks.answer import Fallback, an, where_in
from verl_doctor.engine.fallbacks.packages import ROLLOUT_ENGINES, STACK_PACKAGES
from verl_doctor.engine.fallbacks.paths import CHECKPOINT_CONTENT, MODEL_SHAPE, SAMPLE_FIELD
from verl_doctor.engine.fallbacks.wording import (
    A_CHOICE,
    A_SETTING_NAMED,
    ABOUT_A_SAMPLE,
    ABOUT_DATA_OR_CODE,
    ABOUT_THE_MODEL,
    BATCH_FOR_EACH_GPU,
    BATCH_SIZES,
    BATCH_WORD,
    CHAT_ROLE,
    CODE_OBJECT_REFUSED,
    COMPARED,
    CONDITIONED_OPTION,
    COUNT_GOT,
    COUNT_LEFT_AT_ZERO,
    CUSTOM_CODE_REFUSED,
    CUSTOM_FILE,
    DATA_BLAMED,
    DIRECTS_AN_OPTION,
    DIVIDE,
    DTYPE_NAMED,
    EMPTY_VALUE,
    ENGINE_FEATURE,
    ENGINE_FLAG,
    ENV_VARIABLE,
    EXCHANGE_REFUSED,
    FEATURE_SWITCHED,
    FILE_DOES_NOT_PARSE,
    FROM_CONFIG,
    IMPLEMENT_IT,
    IN_A_CONFIG,
    INCOMPATIBLE,
    INSTALL_ADVICE,
    INTERNAL_BUG,
    MACHINE_PROBE_FAILED,
    MEMBER_OF,
    MISSING,
    MODEL_CONFIG_LACKS,
    MODEL_FAMILY,
    MODEL_FILE_DIRECTED,
    MODEL_KIND_REFUSED,
    MODEL_PARALLEL,
    MODEL_PARAMETER,
    NOT_AN_OPTION,
    NOT_OF_PLUGIN_BASE,
    NOT_SUPPORTED_WITH,
    NOT_SUPPORTING,
    ON_THIS_GPU,
    ONE_RANK,
    ONLY_FOR_A_BACKEND,
    OPTION_GIVEN,
    OPTION_TOKEN,
    ORDERED,
    OTHER_OPTION_VALUE,
    PARALLEL,
    PARALLEL_SIZE,
    QUOTED_OPTION,
    RECEIVED,
    REFUSED,
    REFUSED_SUBJECT,
    REPR_SHOWN,
    SAMPLE_ROLES,
    SECTION_MISSING,
    SERVER_ANSWER_SHORT,
    SUPPORT,
    UNSUPPORTED,
    USE_ANOTHER,
    VALUE_SHOWN,
    VALUE_TO_SET,
    WEIGHTS_FORMAT_REFUSED,
    WORKER_ROLES,
    WRONG_BASE,
    forgive_doubled_letters,
    gpu_not_what_every_backend_refuses,
)

_CONFIG_FUNC = lazy_compile(r"validat|check(?!point)|__post_init__|post_init|_verify|sanity", re.I)


# Functions that check settings: a config class's __post_init__, validate_config,
# _check_mutually_exclusive, check_mtp_config, check_server_args. Other check/validate functions
# test data and state (check_consistency, _validate_state_dict, check_prefetch_progress).
_SETTINGS_CHECK_FUNC = lazy_compile(
    r"__post_init__|post_init|(?:validat|check|verify)\w*(?:config|option|arg|mutually_exclusive|"
    r"unsupported|resource|feature|world_size|alignment|interval)|config\w*(?:check|validat)|sanity",
    re.I,
)


# A member of a library's enum (`ForwardMode.IDLE`): its own state, never a setting's spelling.
_ENUM_MEMBER = lazy_compile(r"\b[A-Z][A-Za-z0-9]+\.[A-Z][A-Z0-9_]+\b")


_URL = lazy_compile(r"\b[a-z][a-z0-9+.-]*://\S+")
# verl's Triton and fused kernels, its FSDP/Megatron helpers (offloading, loading, broadcasting
# modules), its TensorDict helpers, its padding helpers (the batch's masks and lengths) and its
# single controller (worker groups, dispatch, resource pools): code that checks what its callers
# hand it, not a place that reads the config.
_CODE_HELPERS = lazy_compile(
    r"(?:^|/)verl/(?:utils/(?:kernel/|fsdp_utils\.py$|megatron_utils\.py$|tensordict_utils\.py$)|single_controller/|"
    r"workers/(?:roles/)?utils/padding\.py$|trainer/ppo/padding_utils\.py$)"
)
# The rollout engines' quantization methods (vllm/model_executor/layers/quantization/, and SGLang's).
_QUANTIZATION_CODE = lazy_compile(r"/layers/quantization/")
# ... and their words for what a checkpoint was quantized with, when a config validator relays them.
_CHECKPOINT_QUANTIZATION = lazy_compile(
    r"\bweight quantization is supported for|\bquantization block size of weight|\bquant[ _]algo\b|"
    r"\bcompressed-tensors (?:compatible scheme|KV cache)",
    re.I,
)
_CONFIG_PATH = lazy_compile(
    r"/config/|/configs?\.py$|_config\.py$|/arg_utils\.py$|/server_args\.py$|/engine_args\.py$"
)


# A config class's own validation, read from pydantic's report (`1 validation error for
# CompilationConfig`, built wherever the caller builds it): the class checks its settings.
_CONFIG_CLASS_CHECK = lazy_compile(r"^\w*(?:Config|Args|Arguments)\.__post_init__$")


# Files that parse and check a program's arguments (Megatron's megatron/training/arguments.py).
_ARGS_PATH = lazy_compile(r"/arguments\.py$")
# Words that ask something of the settings (`you need to use a recompute method`, `expected
# iteration-based learning rate decay`), unlike a check of the code's own state (`internal state`).
_ASKS = lazy_compile(
    r"\b(?:expected|expects?|needs?|must|requires?|required|should|cannot|can ?not|can only|only|use|set)\b",
    re.I,
)


_CONFIG_KEY = lazy_compile(
    r"\b(?:config\.|cfg\.)?(?:actor_rollout_ref|data|trainer|algorithm|critic|reward_model|reward|"
    r"rollout|actor|ref|model|optim)\.(?!(?:batch|non_tensor_batch|meta_info)\b)"
    # (nor a parameter of the model, `model.layers.0.mlp.gate_up_proj.weight`)
    r"(?![\w.]*\.\d+\.)(?![\w.]*\.(?:weight|bias)\b)[a-z_][\w.]*[a-z_]"
    # (a DataProto's parts, `data.batch.keys()`, are a batch's contents, not config keys)
)


# Of torch's code, only the launcher and rendezvous (torchrun's arguments, MASTER_ADDR/PORT) and
# the DataLoader's constructor (verl's data loader settings) and FSDP2's fully_shard() read a run's settings.
_TORCH_SETTINGS = lazy_compile(
    r"/torch/distributed/(?:elastic/|run\.py:|launcher/|rendezvous\.py:)|/torch/utils/data/dataloader\.py:__init__$|"
    # init_process_group() checking the world size, rank and backend a launcher passed
    r"/torch/distributed/distributed_c10d\.py:init_process_group$|"
    # FSDP2's fully_shard() checking the arguments verl passes from its fsdp_config
    r"/torch/distributed/fsdp/_fully_shard/(?:_fsdp_init|_fully_shard)\.py:|"
    # an optimizer checking the hyperparameters verl passes from its optim config (lr, betas,
    # eps, weight_decay)
    r"/torch/optim/\w+\.py:__init__$"
)


# Ray's code that starts or joins a cluster's node.
_RAY_CLUSTER_CODE = lazy_compile(r"/ray/_private/(?:node|services)\.py$")


# Packages whose settings-checking code is all of the code a check is accepted from.
_SETTINGS_CODE_ONLY = frozenset(("ray", "torch"))


# Of Ray's code, only what checks the arguments verl passes from its config (ray_kwargs.ray_init:
# ray.init, its runtime_env and RuntimeEnvConfig) speaks of settings; the rest checks calls made by code.
_RAY_CHECKS_SETTINGS = lazy_compile(
    # (not the runtime-env agent's cache of built environments, evicting them by URI)
    r"/ray/_private/runtime_env/\w+\.py:(?!\w*(?:delete|evict)\w*$)|/ray/runtime_env/runtime_env\.py:|"
    r"/ray/_private/worker\.py:init$|"
    r"/ray/_private/(?:node|services|parameter|resource_spec|resource_and_label_spec)\.py:|"
    # (an actor's options, `num_gpus`, `resources`, that verl builds from the config)
    r"/ray/_private/utils\.py:(?:validate_\w+|resources_from_ray_options)$"
)


# Of transformers' code, only what verl hands it from the run's config is checked there: the
# model's config classes (model.override_config), rope scaling, a GenerationConfig and the
# sampling values it hands on (whoever generates), the attention implementation, the dtype and
# the split of a model over the ranks.
# Its tokenizers, processors, caches, a checkpoint's quantization config and its kernels judge
# the model folder, the data or the code calling them.
_TRANSFORMERS_SETTINGS = lazy_compile(
    r"/transformers/(?:(?:generation/|distributed/)?configuration_utils|modeling_rope_utils|"
    r"models/\w+/configuration_\w+|integrations/(?:tensor_parallel|\w*attention\w*))\.py:|"
    # (the sampling values a generation config hands its logits processors: temperature, top_p)
    r"/transformers/generation/logits_process\.py:__init__$|"
    # (its optimizers, Adafactor, built by verl's build_optimizer from the optim config, 0.7 on)
    r"/transformers/optimization\.py:__init__$|"
    r"/transformers/modeling_utils\.py:\w*(?:attn|attention|sdpa|dispatch|dtype)\w*$"
)
# ... and those settings named in a refusal, wherever transformers checks them.
_TRANSFORMERS_SETTING_WORDS = lazy_compile(
    r"\battention implementation|\battn_implementation\b|\brope_(?:scaling|type|theta)\b"
)


# The rollout engines' model layers, attention back-ends (their quantization methods are read on
# their own, below) and the code that reads a request's prompt, chat messages, images, audio and
# video.
_ENGINE_MODEL_AND_INPUTS = lazy_compile(
    r"/(?:vllm/model_executor/layers/(?!quantization/)|vllm/attention/|vllm/v1/attention/|"
    r"vllm/multimodal/|vllm/inputs/|vllm/entrypoints/chat_utils\.py|"
    r"sglang/srt/layers/(?!quantization/)|sglang/srt/multimodal/)"
)


# ... and their parsers of what the model generated (tool calls, reasoning), once built: a value
# they cannot convert is the model's output, not a setting (`int('EOF')` in a tool call's
# arguments). (Built, `__init__`, they judge the tokenizer the parser chosen by name was given.)
_ENGINE_OUTPUT_PARSERS = lazy_compile(
    r"/(?:vllm/entrypoints/openai/tool_parsers/|vllm/tool_parsers/|vllm/reasoning/|"
    r"sglang/srt/function_call/|sglang/srt/(?:parser/)?(?:reasoning|harmony)_parser\.py$)"
)


# The rollout engines' telemetry: OpenTelemetry tracing and their metrics loggers.
_ENGINE_TELEMETRY = lazy_compile(r"/(?:vllm|sglang)/(?:tracing\.py$|tracing/|v1/metrics/|srt/metrics/)")

# The rollout engines' code that probes the machine and the installed packages: choosing the
# platform and loading plugins, the bindings of their compiled kernels (which exist for some GPUs
# and dtypes only), the collective back-ends (CUDA libraries, NVLink, P2P).
_ENGINE_MACHINE_CODE = lazy_compile(
    r"/vllm/(?:platforms|plugins)/__init__\.py$|/vllm/_custom_ops\.py$|/device_communicators/"
)


# The rollout engines' code judging one request or one call made to them, not how they were set up:
# the offline LLM class's methods (`LLM.score() is only supported for pooling models`, the data a
# generate() call hands it) and any function checking a request's parameters (vLLM's Mistral
# tokenizer `validate_request_params`: `skip_special_tokens=False is not supported ...`).
_ENGINE_CALL_CODE = lazy_compile(r"/vllm/entrypoints/llm\.py$")
_REQUEST_FUNC = lazy_compile(r"request", re.I)


def _checks_settings(package: str, path: str, func: str, message: str = "") -> bool:
    """Whether this part of a library checks settings a run is given, rather than how code calls
    it (or, for transformers, whether `message` names a setting verl hands it): transformers'
    generate() is called by user code (reward judges), verl rolls out with vLLM or SGLang;
    datasets' loading arguments (a split, a config name) are settings of the data."""
    if package == "ray":
        return bool(_RAY_CHECKS_SETTINGS.search(path + ":" + func))
    if package == "transformers":
        return bool(
            _TRANSFORMERS_SETTINGS.search(path + ":" + func) or _TRANSFORMERS_SETTING_WORDS.search(message)
        )
    if package == "torch":
        return bool(_TORCH_SETTINGS.search(path + ":" + func))
    if package == "datasets":
        # its feature (schema) checks judge what the data files hold, not a setting
        return "/datasets/features/" not in path
    if package == "verl":
        # DataProto's own checks judge the data code hands it (its shapes, keys, batch dims); the
        # batch arithmetic behind its chunks is CFG004's signatures; verl's device helpers probe
        # the machine (npu-smi's software version, the CANN toolkit's files)
        return not path.endswith(("/verl/protocol.py", "/verl/utils/device.py"))
    if package in ROLLOUT_ENGINES and (
        # (`CompilationConfig.__post_init__`: a config class LLM() builds from its arguments)
        (_ENGINE_CALL_CODE.search(path) and not starts_up(func.rpartition(".")[2]))
        or _REQUEST_FUNC.search(func)
    ):
        # (a call or a request code made, refused: that code's doing)
        return False
    if package in ROLLOUT_ENGINES and _ENGINE_TELEMETRY.search(path):
        # (its tracing exporters and metrics loggers: set up by the engine's own environment, not
        # by a setting verl passes)
        return False
    if package in ROLLOUT_ENGINES and _ENGINE_MACHINE_CODE.search(path):
        # (what the machine and the packages installed give the engine, not a setting)
        return False
    if package in ROLLOUT_ENGINES and path.endswith("/distributed/parallel_state.py") and not starts_up(func):
        # (a collective run on a process group that is gone or never made: the engine's state)
        return False
    if package == "megatron":
        # its distributed checkpointing judges what a checkpoint holds against the model
        return "/dist_checkpointing/" not in path
    return True


# Functions that build a library from its settings: constructors, loaders, set-up and launch code.
_STARTUP_FUNC = lazy_compile(
    r"^_*(?:init|post_init|setup|set_up|load|from_|create|build|launch|start|configure|initiali[sz]e|"
    # (not a getter of a part of one, `get_text_config`)
    r"register|get_(?!(?:hf_)?text_)\w*(?:config|model)|main$)",
    re.I | re.M,
)


# A value shown that code computed, never one a setting gave: a tensor, an array, a shape.
_DATA_SHOWN = lazy_compile(r"\b(?:got|gets|received):? [\[<'\"`]*(?:tensor|array|torch\.Size|Size)\b", re.I)


def _setting_value_shown(message: str) -> bool:
    """Whether verl's message shows a value it refused that a setting may have given: a count
    against the count it expected (`produced fewer route tensors than scheduled samples: need 64,
    got 48`) or a flag, with no option named, is the code's own bookkeeping."""
    shown = [m.group(0) for m in VALUE_SHOWN.finditer(message)]
    if not shown:
        return False
    counts_only = all(COUNT_GOT.search(m) for m in shown)
    return not counts_only or any("_" in t.group(0) for t in OPTION_TOKEN.finditer(message))


def starts_up(func: str) -> bool:
    """Whether a function of a library builds it from what it is given (a constructor, a
    loader, set-up or launch code), rather than running it."""
    return bool(_STARTUP_FUNC.search(func))


# A library's entry points take the caller's arguments (vllm/entrypoints/llm.py, sglang's Engine).
_ENTRY_POINT = lazy_compile(r"/entrypoints/")


# A source line that reads settings: `self.config.ppo_micro_batch_size`, `config.data.x`, `cfg.y`.
_READS_CONFIG = lazy_compile(r"\b(?:self\.)?(?:config|cfg|args)\.\w")


def divided_by_setting(code: str, path: str, func: str, options: list[str]) -> Fallback | None:
    """A ZeroDivisionError on verl's source line `code`: when the line reads settings, one of
    them is 0; batch sizes are batch arithmetic (CFG004), other values a value verl cannot use."""
    if not (options or _READS_CONFIG.search(code)):
        return None
    code_ = "CFG004" if BATCH_SIZES.search(code) else "CFG014"
    where = path[path.rfind("/verl/") + 1 :] if "/verl/" in path else path.rsplit("/", 1)[-1]
    named = f"; it reads {', '.join(options)}" if options else ""
    groups = {"options": ", ".join(options)} if options else {}
    basis = f"a ZeroDivisionError in verl's {where} ({func}) on a line that divides by settings{named}"
    return Fallback(code_, groups, basis)


def batch_check_operand(exc_type: str, path: str, func: str, operand: str) -> Fallback | None:
    """A bare assert of verl's spread over lines, of which Python printed the line of one operand:
    on a batch size (`config.actor_rollout_ref.actor.ppo_mini_batch_size`), verl's asserts check
    batch arithmetic (one size divides another, or is at least another)."""
    if not BATCH_SIZES.search(operand):
        return None
    where = where_in(path.replace("\\", "/"), "verl")
    return Fallback("CFG004", {}, f"{an(exc_type)} raised by verl in {where} ({func}) on {operand}")


def _names_an_option(message: str) -> bool:
    """Whether the message names an option the way code spells one (`kv_cache_dtype`,
    `--max-model-len`, `VLLM_USE_V1`); a class name (`Qwen2_5_VLForCausalLM`), an enum's member
    (`RequestStatus.FINISHED_ABORTED`), a module's value (`torch.float8_e4m3fn`) and a parameter
    of the model (`decoder.layers.0.input_layernorm.weight`) are none."""
    message = MODEL_PARAMETER.sub(" ", REPR_SHOWN.sub(" ", message))
    return any(
        t.group(0) not in NOT_AN_OPTION
        and (t.group(0).islower() or t.group(0).isupper())
        and not MEMBER_OF.search(message, 0, t.start())
        for t in OPTION_TOKEN.finditer(message)
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


def compares_a_model_split(message: str) -> bool:
    """Whether a refusal holds a parallel size against something, or refuses one outright
    (`Context parallel size ...`, `... is not divisible by min_thread_n = 64. Consider reducing
    tensor_parallel_size`): the split is the run's setting, whichever code refused it or handed
    the refusal on. `TP rank 3 could finish ...` numbers one rank, and the numbers of a URL
    (`tcp://10.0.0.3:29500?rank=0&world_size=8`) compare no sizes."""
    sizes = ONE_RANK.sub(" ", _URL.sub(" ", message))
    return bool(
        PARALLEL.search(sizes)
        and (COMPARED.search(sizes) or PARALLEL_SIZE.search(message) or DIVIDE.search(message))
    )


def checks_its_settings(path: str, func: str) -> bool:
    """Whether code's own names say it checks the settings it is given: a validating function
    (`check_exp_name_format`, `__post_init__`) or a file of configs or arguments (server_args.py)."""
    return bool(_CONFIG_FUNC.search(func) or _CONFIG_PATH.search(path.replace("\\", "/")))


def blames_something_else(message: str) -> bool:
    """Whether a refusal's own words put the failure elsewhere than on a setting's value: a file
    that does not parse, an object code handed over, code left to write, a package to install, a
    server's short answer, a machine's probe, the data itself, or a bug in the library."""
    return bool(
        FILE_DOES_NOT_PARSE.search(message)
        or CODE_OBJECT_REFUSED.search(message)
        or IMPLEMENT_IT.search(message)
        or INSTALL_ADVICE.search(message)
        or SERVER_ANSWER_SHORT.search(message)
        or EXCHANGE_REFUSED.search(message)
        or MACHINE_PROBE_FAILED.search(message)
        or DATA_BLAMED.search(message)
        # (`X is not supported ... Please raise an issue so we can investigate` refuses a feature)
        or (INTERNAL_BUG.search(message) and not UNSUPPORTED.search(message))
    )


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
    if blames_something_else(message):
        return None
    if (
        package == "verl"
        and _CODE_HELPERS.search(p)
        and not options
        # (but for a split of the GPUs the run was given: `split_size must be a divisor of world_size`)
        and not (DIVIDE.search(message) and PARALLEL.search(message))
    ):
        return None
    if (
        MODEL_KIND_REFUSED.search(message)
        and not options
        and not (_CONFIG_KEY.search(message) or A_SETTING_NAMED.search(message))
    ):
        # A registry of model classes with no entry for this model's architecture: the model
        # chosen, not a value of an option (none is named).
        return None
    if WEIGHTS_FORMAT_REFUSED.search(message):
        # the model folder's weights are in a format the loader does not read (mbridge and
        # safetensors-only loaders refusing `pytorch_model-*.bin`)
        return Fallback(
            "CFG017",
            {},
            f"{an(exc_type)} raised by {package} in {where_in(p, package)} ({func}): the model "
            "folder's weights are in a format it does not load",
        )
    base = NOT_OF_PLUGIN_BASE.search(message) if package == "verl" else None
    if base:
        # a bare `assert isinstance(sampler, AbstractSampler)`: the class a setting named (a
        # custom sampler, a data generator) does not subclass the base verl plugs it in by
        return Fallback(
            "CFG014",
            {},
            f"{an(exc_type)} raised by verl in {where_in(p, package)} ({func}): an object of a class "
            f"a setting named is not {an(base.group('base'))}",
        )
    if package == "verl" and CUSTOM_CODE_REFUSED.search(message):
        return Fallback(
            "CFG008",
            {},
            f"{an(exc_type)} raised by verl in {where_in(p, package)} ({func}), refusing a name or an "
            "object a custom module gives it",
        )
    if package == "verl" and SAMPLE_ROLES.search(message) and not WORKER_ROLES.search(message):
        return Fallback(
            "CFG012",
            {},
            f"{an(exc_type)} raised by verl in {where_in(p, package)} ({func}) about the roles of a "
            "sample's chat messages",
        )
    # verl's own validating code speaks of its config whatever its words; elsewhere in the
    # stack's code, the words must refuse a value, and name the option (or show the value).
    by_frame = package == "verl" and bool(
        options or _SETTINGS_CHECK_FUNC.search(func) or _CONFIG_PATH.search(p) or _CONFIG_KEY.search(message)
    )
    # verl's own check naming nothing a run sets: what it judges is what decides.
    names_no_setting = (
        by_frame and not options and not _CONFIG_KEY.search(message) and not A_SETTING_NAMED.search(message)
    )
    if names_no_setting and ABOUT_THE_MODEL.search(message):
        # What the model is (its config.json's architectures, its type) is not a setting, nor is
        # a config.json that lacks it (`Expect only one architecture, got None`) a model path
        # that names no model folder.
        return None
    if names_no_setting and ABOUT_DATA_OR_CODE.search(message):
        # what a sample became (its `input_ids` tokenized turn by turn), or what code handed it
        return None
    # A parallel size compared with something or refused outright, or (below) a feature refused
    # together with a model split (`... with TP is not supported`).
    sizes_compared = compares_a_model_split(message)
    # A feature refused beside a model split (`... is not supported with elastic EP yet`): the
    # feature's setting is the value refused; the sizes themselves are fine.
    parallel_sizes = (
        sizes_compared
        or bool(
            MODEL_PARALLEL.search(message) and (UNSUPPORTED.search(message) or USE_ANOTHER.search(message))
        )
        or _splits_asked_of_each_other(message)
    )
    if (
        package in ROLLOUT_ENGINES
        and (_QUANTIZATION_CODE.search(p) or _CHECKPOINT_QUANTIZATION.search(message))
        and not (parallel_sizes or options or ON_THIS_GPU.search(message))
    ):
        # The engine's quantization methods judging the quantization_config a checkpoint was
        # exported with (`AWQ only supports 4-bit`, a 1-D weight_block_size): what the model is.
        return None
    # A field each sample of verl's dataset must carry (`'name' key is required in interaction_kwargs`).
    # A verl tool's create() reads its arguments from the sample (extra_info.tools_kwargs).
    sample_field_missing = (
        package == "verl"
        and MISSING.search(message)
        # (its own words: a config it prints after them, `{'reward_model': ...}`, names fields too)
        and (
            SAMPLE_FIELD.search(message.split("{", 1)[0])
            or (_TOOL_CODE.search(p) and func == "create")
            # verl's `*_key` options name a field of the samples (data.prompt_key,
            # distillation.teacher_key): what they name is missing from the data
            or bool(options and all(o.rpartition(".")[2].endswith("_key") for o in options))
        )
    )
    if (
        package == "verl"
        and _DATASET_CODE.search(p)
        and func != "__init__"  # (built from the data settings: `Expect pad_mode to be 'right' ...`)
        and not (
            options or sample_field_missing or _CONFIG_KEY.search(message) or A_SETTING_NAMED.search(message)
        )
    ):
        # verl's dataset code refusing what a sample holds (`loss_mask should be int`, a video in
        # a form it does not read) with no setting named: the data, not a value the run set.
        return None
    if not by_frame:
        if package not in STACK_PACKAGES:
            return None
        if package == "ray" and _RAY_CLUSTER_CODE.search(p) and not options:
            # Ray's node and services code judges the cluster it starts or joins (its address,
            # ports, session, the object store against /dev/shm), not a value of the run's, unless
            # the refusal names one of its settings.
            return None
        # (or a feature refused that one of verl's options switches on: `... is not compatible
        # with gradient checkpointing`, wherever the library checks it)
        if not (_checks_settings(package, p, func, message) or ENV_VARIABLE.search(message) or options):
            return None
        if (
            package in ROLLOUT_ENGINES
            and (
                _ENGINE_MODEL_AND_INPUTS.search(p)
                or (_ENGINE_OUTPUT_PARSERS.search(p) and func != "__init__")
            )
            and not (
                options
                or ENV_VARIABLE.search(message)
                or ENGINE_FLAG.search(message)
                or DIRECTS_AN_OPTION.search(message)
                or VALUE_TO_SET.search(message)
                # (an engine feature a rollout setting switches on, refused: `dp attention + sharded
                # lm_head doesn't support full logits`)
                or (ENGINE_FEATURE.search(message) and UNSUPPORTED.search(message))
                # (a precision, which rollout.dtype chooses: `hidden_states must be bfloat16`)
                or DTYPE_NAMED.search(message)
                # (a back-end refusing this GPU: `FlashAttnMLA is not supported on this device`)
                or ON_THIS_GPU.search(message)
                # (the model split over the rollout's GPUs, held to the model's heads: `Tensor
                # parallel world size must divide num heads`, or refused for this kind of layer:
                # `Tensor parallel currently not supported for quantized models`)
                or compares_a_model_split(message)
                or (MODEL_PARALLEL.search(message) and UNSUPPORTED.search(message))
            )
        ):
            # The engine's layers and attention back-ends judge what the model and the batch are
            # (its activation, its heads, a kv scale), its multimodal code what a request holds (an
            # image's URL): not a setting, unless the refusal names one or asks for a value.
            return None
        worded = (
            REFUSED.search(message)
            # a rollout engine naming one of its own command-line flags (`--enable-unified-memory
            # ... needs`): the engine arguments verl passes (engine_kwargs) are settings of the run
            or (package in ROLLOUT_ENGINES and ENGINE_FLAG.search(message))
            or MISSING.search(message)
            or DIVIDE.search(message)
            or UNSUPPORTED.search(message)
            or VALUE_SHOWN.search(message)
            or DIRECTS_AN_OPTION.search(message)
        )
        # (a function whose one job is to validate a config class or the parsed arguments, such as
        # Megatron's TransformerConfig.__post_init__ and validate_args: whatever it refuses is a
        # setting, in whatever words)
        validating = bool(
            _SETTINGS_CHECK_FUNC.search(func)
            and (_CONFIG_PATH.search(p) or _ARGS_PATH.search(p) or _CONFIG_CLASS_CHECK.match(func))
            and (_names_an_option(message) or _ASKS.search(message))
        )
        if not (worded or parallel_sizes or validating):
            return None
        # `Number of experts in the model must be > 0 when expert parallelism is enabled`: a
        # model split named is the setting the check is about.
        if (
            not (
                A_SETTING_NAMED.search(message)
                or MODEL_PARALLEL.search(message)
                or (DIRECTS_AN_OPTION.search(message) and not MODEL_FILE_DIRECTED.search(message))
                # a choice refused with the value shown (`No engine registered for ..., backend='automodel'`),
                # or named in code's spelling (`trtllm_mla backend can only be used with MLA models`)
                or (A_CHOICE.search(message) and (VALUE_SHOWN.search(message) or _names_an_option(message)))
                # an option in code's spelling with the value refused (`requires kv_cache_dtype 'auto'
                # or 'fp8', got 'fp8_e5m2'`), whatever model words come with it
                or (VALUE_SHOWN.search(message) and _names_an_option(message))
                # a feature refused that one of verl's options switches on (`gradient checkpointing`)
                or options
                # an option refused for this kind of model (`x_token_id is only supported for ...`)
                or CONDITIONED_OPTION.search(message)
                # a feature the run switched, in words (`Disabling sliding window is not supported for
                # models with rope_scaling`)
                or FEATURE_SWITCHED.search(message)
                # an engine feature a rollout setting switches on, refused for this model
                or (ENGINE_FEATURE.search(message) and UNSUPPORTED.search(message))
                # verl saying what it does not support (a model's layout, a feature with another)
                or (package == "verl" and _verl_does_not_support(message))
            )
            and (
                ABOUT_THE_MODEL.search(message)
                or CHECKPOINT_CONTENT.search(message)
                or (MODEL_SHAPE.search(message) and not PARALLEL.search(message))
            )
            and not _MODEL_IMPLEMENTATION.search(p)
        ):
            # What the model or a checkpoint is, not how the run was configured (the engine's
            # code for one architecture refusing it is the config.json, below).
            return None
        if (
            (ABOUT_DATA_OR_CODE.search(message) and not _split_needs_what_the_model_gives(message))
            or (ABOUT_A_SAMPLE.search(message) and not DIRECTS_AN_OPTION.search(message))
            or (
                CHAT_ROLE.search(message)
                and not any("role" in t.group(0) for t in OPTION_TOKEN.finditer(message))
            )
        ):
            return None  # a sample's content, or how code calls the library
        if package == "verl" and not options and _DATA_SHOWN.search(message):
            return None  # (a tensor or an array shown, `Got tensor([0, 0, ...])`: data, not a setting)
        if package == "verl":
            # verl's config keys are known: a refusal elsewhere in verl that names none of them,
            # shows no refused value, splits no batch and asks for no options checks its own
            # state (`execute_fn must be callable`, `15 != 16`), not a setting of the run.
            batch_split = DIVIDE.search(message) and BATCH_SIZES.search(message)
            # `Configuration must include 'retrieval_service_url'`: one option named in quotes.
            option_missing = MISSING.search(message) and QUOTED_OPTION.search(message)
            # `max_resp_len must be larger than overlong_buffer.len`: two options held to an order.
            options_ordered = ORDERED.search(message) and (
                sum(1 for t in OPTION_TOKEN.finditer(message) if t.group(0).islower() and "_" in t.group(0))
                >= 2
            )
            # `a_b and c_d must be both provided`: options (in code's spelling) that were not given.
            options_missing = (
                MISSING.search(message)
                and sum(1 for o in OPTION_TOKEN.finditer(message) if "_" in o.group(0)) >= 2
            )
            # `[FullyAsyncRollouter] Missing async_training configuration`: a section not given.
            section_missing = SECTION_MISSING.search(message)
            if not (
                parallel_sizes
                or batch_split
                or options_missing
                or section_missing
                or _setting_value_shown(message)
                or DIRECTS_AN_OPTION.search(message)
                or CUSTOM_FILE.search(message)
                or FROM_CONFIG.search(message)
                or sample_field_missing
                or option_missing
                or options_ordered
                or _verl_does_not_support(message)
                or _split_needs_what_the_model_gives(message)
            ):
                return None
        else:
            names_one = _names_an_option(message) or bool(A_SETTING_NAMED.search(message)) or bool(options)
            # In a library's own settings code (server_args.py, a config's __post_init__, a
            # check_* function, the part of Ray that checks what ray_init passes, torchrun's
            # launcher) a refusal is about a setting even when it names none the way code would.
            # (a function named in capitals, `CUDART_CHECK`, checks a native call's return code)
            checks = _CONFIG_FUNC.search(func) and not func.isupper()
            in_settings_code = (
                bool(_CONFIG_PATH.search(p) or checks or _SETTINGS_CHECK_FUNC.search(caller))
                or package in _SETTINGS_CODE_ONLY
            )
            # A value refused with no setting named speaks of a setting only where the library is
            # being built from its settings (a constructor, a loader, an entry point); raised while
            # it runs (a scheduler's step, a batch being prepared) it is the library's own state.
            if not (
                names_one
                or parallel_sizes
                or in_settings_code
                or IN_A_CONFIG.search(message)
                # a named choice refused with the value given (`Unknown distributed executor
                # backend: multiprocessing`): the value of an option, wherever it is looked up
                # (not a member of the library's own enum, `Invalid forward mode: ForwardMode.IDLE`)
                or (
                    A_CHOICE.search(message)
                    and VALUE_SHOWN.search(message)
                    and not _ENUM_MEMBER.search(message)
                )
                # (an engine feature a rollout setting switches on, refused: `Prefix caching is not
                # supported for Mamba yet`)
                or (ENGINE_FEATURE.search(message) and UNSUPPORTED.search(message))
                # (`worded` above: the message refuses something)
                or _STARTUP_FUNC.search(func)
                or _STARTUP_FUNC.search(caller)
                or _ENTRY_POINT.search(p)
            ):
                return None
    custom_file = CUSTOM_FILE.search(message)
    # A custom class that loaded but has the wrong base is a value refused, not a file not found.
    if custom_file and not WRONG_BASE.search(message):
        path_named = custom_file.group("path")
        return Fallback(
            "CFG008",
            {"path": path_named},
            f"{an(exc_type)} raised by {package}'s config check, about the custom module {path_named}",
        )
    if (
        _MODEL_IMPLEMENTATION.search(p)
        and not parallel_sizes
        and not A_SETTING_NAMED.search(message)
        and not A_CHOICE.search(message)  # `does not support FLASHINFER backend`: a setting's choice
        and not ON_THIS_GPU.search(message)
        and not OPTION_GIVEN.search(message)  # `dp_shared_memory requires cpu_offload=True`
        # (an engine feature a rollout setting switches on: `Mamba does not support prefix caching`)
        and not (ENGINE_FEATURE.search(message) and UNSUPPORTED.search(message))
    ):
        # The engine's code for this architecture refusing what the model's config.json holds
        # (`Unsupported activation: gelu_pytorch_tanh. Only silu is supported`): the rollout
        # engine cannot build this model, so it does not start; transformers' modeling code for
        # it refusing the same is the model folder verl loads.
        subject = REFUSED_SUBJECT.search(message)
        field = subject.group("subject") if subject else "what the error names"
        where = (
            f"{an(exc_type)} raised by {package}'s implementation of this model architecture "
            f"({where_in(p, package)})"
        )
        if package in ROLLOUT_ENGINES:
            return Fallback("FLOW010", {"engine_model": field}, where)
        return Fallback("CFG017", {"field": field}, where)
    # verl's prompts and samples are its batches; another library's samples are a dataset's rows
    # (`test_size=500 should be ... smaller than the number of samples 312`), not a batch size.
    batches = BATCH_SIZES if package == "verl" else BATCH_WORD
    if ON_THIS_GPU.search(message) and not gpu_not_what_every_backend_refuses(message):
        code = "ENV007"  # the setting asks for what this GPU cannot do: the hardware decides
    elif sample_field_missing:
        code = "CFG012"
    elif _split_needs_what_the_model_gives(message):
        code = "CFG010"  # the split does not fit this model's code
    elif (
        # (a field the model's config lacks for a feature the run switched on is that feature
        # refused for this model, not a value the run left out; nor are values to choose from,
        # `fa3, aiter, or triton is required for Llama4 model`, one left out)
        (
            MISSING.search(message)
            and not RECEIVED.search(message)
            and not MODEL_CONFIG_LACKS.search(message)
            and not _values_to_choose_from(message)
        )
        or EMPTY_VALUE.search(message)
        or COUNT_LEFT_AT_ZERO.search(message)
    ):
        code = "CFG011"
    elif (
        batches.search(message)
        and ORDERED.search(message)
        and (not MODEL_PARALLEL.search(message) or BATCH_FOR_EACH_GPU.search(message))
        # (another library's own batches, vLLM's micro-batches of dual-batch overlap, are its
        # settings; verl's batch sizes are verl's arithmetic)
        and (package == "verl" or any("batch" in o for o in options))
    ):
        code = "CFG004"  # batch sizes that must not exceed (or fall short of) one another
    elif DIVIDE.search(message):
        # Batches split over ranks are batch arithmetic; ranks split over nodes or a model split
        # is parallelism; other sizes (a KV-cache block) are a value the library refuses.
        if batches.search(message) and not MODEL_PARALLEL.search(message):
            code = "CFG004"
        else:
            code = "CFG010" if PARALLEL.search(message) else "CFG014"
    elif (
        not CONDITIONED_OPTION.search(message)
        and (
            (
                sizes_compared
                and not OTHER_OPTION_VALUE.search(message)
                # `--prefill-only-disable-kv-cache is incompatible with --attn-cp-size > 1`: the other
                # setting is what is refused beside the split
                and not (INCOMPATIBLE.search(message) and _another_setting_named(message, func))
                and not _feature_a_split_refuses(message)
                and not _bounds_a_set_option(message, options)
            )
            or (
                parallel_sizes
                and not _another_setting_named(message, func)
                and not _feature_a_split_refuses(message)
            )
        )
        and not ONLY_FOR_A_BACKEND.search(message)
        and not _needs_one_data_parallel_replica(message)
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


# Data parallelism asked to be off (`data_parallel_size=1 only (got 2)`, `dp_size must be 1 or dp
# attention must be enabled for ...`).
_ONE_DATA_PARALLEL_REPLICA = lazy_compile(
    r"\b(?:data[ _]parallel[ _]size|dp_size|dp)\s*(?:=\s*1 only\b|(?:must|should) be 1\b|==\s*1\b)", re.I
)


def _split_needs_what_the_model_gives(message: str) -> bool:
    """Whether a split of the model asks for what the model's forward pass hands it and did not
    (`position_ids is required for Ulysses sequence parallelism`, a vision tower calling
    attention without them): the split does not fit this model, no value was left out."""
    return bool(
        MODEL_PARALLEL.search(message) and MISSING.search(message) and ABOUT_DATA_OR_CODE.search(message)
    )


def _needs_one_data_parallel_replica(message: str) -> bool:
    """A feature that runs with one data-parallel replica only, no model split named: the
    feature's setting (or the replicas asked of it) is refused, not a layout of the GPUs."""
    return bool(_ONE_DATA_PARALLEL_REPLICA.search(message)) and not MODEL_PARALLEL.search(message)


def _splits_asked_of_each_other(message: str) -> bool:
    """Whether a refusal asks one split of the model for another (`When using expert parallelism
    and tensor parallelism, sequence parallelism must be used`): the parallel layout itself."""
    splits = {m.group(0).lower().replace("_", " ") for m in MODEL_PARALLEL.finditer(message)}
    return len(splits) >= 2 and _ASKS.search(message) is not None


def _feature_a_split_refuses(message: str) -> bool:
    """Whether a model split refuses a feature (`Dynamic CP does not support distillation`, or
    the other way round, `Async scheduling is not supported with pipeline-parallel-size > 1`):
    the feature's setting is the value refused, not the split (`... does not support vpp`
    refuses the split)."""
    m = NOT_SUPPORTING.search(message)
    if m and PARALLEL.search(message[: m.start()]) and not PARALLEL.search(m.group("object")):
        return True
    m = NOT_SUPPORTED_WITH.search(message)
    return bool(m and PARALLEL.search(m.group("split")) and not PARALLEL.search(message[: m.start()]))


def _bounds_a_set_option(message: str, options: tuple[str, ...]) -> bool:
    """Whether a comparison with a model split is about an option the run set, the message's
    subject (`num_layers_at_start_in_bf16 (8) must be between 0 and number of layers per
    pipeline stage (7)`): that value is refused, the split only bounds it."""
    first = OPTION_TOKEN.match(message.lstrip("`'\" "))
    if first is None or PARALLEL.search(first.group(0)):
        return False
    return any(o.rsplit(".", 1)[-1] == first.group(0) for o in options)


def _another_setting_named(message: str, func: str = "") -> bool:
    """Whether a refusal that speaks of a model split also names another setting, in code's
    spelling (`embedding_across_dp`, `remove_padding`, `--enable-watermark`): that setting is
    the value refused beside the split (`... is not supported with elastic EP`). The function
    that refuses, named by its own message (`... not yet supported in model_forward_step`), is
    code, not a setting."""
    for t in OPTION_TOKEN.finditer(message):
        word = t.group(0)
        if (
            word in NOT_AN_OPTION
            or MODEL_FAMILY.match(word.lstrip("-"))
            or PARALLEL.search(word)
            or word == func
        ):
            continue
        if word.islower() or word.startswith("--"):
            return True
    return False


# An engine's (or transformers') code for one model architecture.
_MODEL_IMPLEMENTATION = lazy_compile(
    r"/(?:sglang/srt/models|vllm/model_executor/models|vllm/models)/(?:(?!ops/|kernels/)\w+/){0,2}\w+\.py$|"
    r"/transformers/models/\w+/modeling_\w+\.py$"
)


# Values listed as alternatives, one of which is required (`fa3, aiter, or triton is required`).
_ALTERNATIVES_REQUIRED = lazy_compile(
    r"\b(?P<alternatives>[\w.-]+(?:, [\w.-]+)*,? or [\w.-]+) (?:is|are) (?:required|needed)\b"
)


def _values_to_choose_from(message: str) -> bool:
    """Whether a refusal asks for one of some values (a backend's names), not for options in
    code's spelling to be set (`tool_config_path or interaction_config_path ...`)."""
    m = _ALTERNATIVES_REQUIRED.search(message)
    return m is not None and "_" not in m["alternatives"]


def _verl_does_not_support(message: str) -> bool:
    """verl saying in so many words what it does not support (a feature, a model's layout, the
    two together); not its code that is missing (`not implemented yet`), nor a model whose
    config.json it sends the user to, nor a Python type its code was handed (`Indexing with
    <class 'str'> is not supported`), nor a parameter of the model (`Unsupported parameter name:
    decoder.layers.0.input_layernorm.weight`: what the model holds)."""
    return (
        bool(SUPPORT.search(message))
        and "config.json" not in message
        and "<class '" not in message
        and not MODEL_PARAMETER.search(message)
    )


_TOOL_CODE = lazy_compile(r"/verl/tools/\w+\.py$")
_DATASET_CODE = lazy_compile(r"/verl/utils/dataset/\w+\.py$")
