"""What an exception no rule knows says, read against the run: its class, the frames that
raised it, the statement that raised, the overrides and files the run names. Each reading answers
with a fallback (a code, its groups, what it rests on) at a lower confidence than a signature's.

The analyzer mixes these in; they read the state it keeps per worker (frames, callers, the
functions a user's code entered) and record answers through it.
"""

from __future__ import annotations

import re
import sys
from collections import deque

from verl_doctor.catalog.load import Catalog
from verl_doctor.catalog.rule import Rule
from verl_doctor.common.lazy_re import lazy_compile
from verl_doctor.common.records import record, replace
from verl_doctor.engine.context import ContextCollector
from verl_doctor.engine.fingerprint import fingerprint
from verl_doctor.engine.line_kinds import (
    LOADING_CHECKPOINT,
    SAVING_CHECKPOINT,
    ExceptionLine,
    Frame,
    is_verl_actor,
)
from verl_doctor.engine.normalize import (
    BARE_EXCEPTION_ENDS,
    HOST_LABEL,
    NO_WORKER,
    NODE_LABEL,
    SRUN_LABEL,
    WRAPPED_WIDTH,
    Line,
    message_of,
    paste_margin,
    plain_prefix_end,
    strip_ansi,
)
from verl_doctor.engine.verdict import Verdict, VerdictMemo, groups_at

TYPE_CHECKING = False  # typing is only needed by type checkers; importing it costs start-up time
if TYPE_CHECKING:
    from typing import Any

    from verl_doctor.engine.fallbacks import Fallback
    from verl_doctor.engine.rule_state import RuleState


# What is kept per run: the workers whose frames are followed, the exceptions no rule knows, and
# how many lines after a verl frame its exception may come.
MAX_WORKERS = 256
MAX_UNRECOGNIZED = 20
FRAME_LOOKBACK = 80
# Lines from an import machinery frame to the imported file's `<module>` frame (the frozen
# frames print no source line; a file's own frame may follow one or two of them).
_IMPORT_TO_MODULE = 4
# Lines from the innermost frame (numbered by its last line) to the exception raised in it: its
# source line, which a wrap may have cut in two.
RAISED_WITHIN = 4


# Errors that say a file or folder is not there, and the rule for what the key that named it holds.
_NOT_FOUND_TYPES = frozenset(
    ("FileNotFoundError", "OSError", "IOError", "ValueError", "RuntimeError", "AssertionError")
)
_NOT_FOUND = lazy_compile(
    r"not found|does not exist|doesn't exist|No such file|[Uu]nable to find|[Cc]ouldn't find|[Cc]annot find|"
    r"[Cc]an't find"
)
# A value a check says it got, with its name (`but got batch_size=-1`).
_NAMED_VALUE = lazy_compile(r"\b(?:got|Got|received|given):? ([a-z][a-z0-9_]{2,60})=['\"]?(-?[\w.+-]{1,60})")
# A library echoing an argument it was handed as one of Python's constants (`batch_size=None option
# disables auto-batching`, torch's DataLoader): what a setting's Hydra null, true or false became.
_ECHOED_CONSTANT = lazy_compile(r"(?<![\w.])([a-z][a-z0-9_]{2,60})=(None|True|False)\b")
# Hydra's spellings of Python's constants.
_AS_PYTHON = {"null": "None", "~": "None", "true": "True", "false": "False"}
# Python's words for a module used while it is still being imported, with the file when it says so.
_PARTIAL_MODULE = lazy_compile(
    r"partially initialized module '(?P<module>[\w.]+)'(?:[^(]*\(most likely due to a circular import\))?"
    r"(?: \((?P<path>[^()]+)\))?"
)
# The name a lookup did not find (`KeyError: 'gelu_tanh'`, `function gelu_tanh not found in
# ACT2FN mapping`): spelt like a name, never a number, a path or a sentence.
_NOT_FOUND_NAME = lazy_compile(
    r"^['\"](?P<quoted>[A-Za-z][\w.-]{2,60})['\"]$|\b(?P<named>[A-Za-z][\w.-]{2,60}) (?:is )?not found in\b"
)
# A value a check says it got, alone and quoted (`got '0.5'`).
# A value that names one thing (`hnd`, `10.10.1.21`, `FLASHINFER`): no path, no bare number.
_DISTINCT_VALUE = lazy_compile(r"(?=.*[A-Za-z.])[\w.:,-]{2,60}")
_GOT_VALUE = lazy_compile(r"\b(?:got|Got|received|given):? '(-?[\w.+/-]{1,60})'")
# A library saying something is gone, and a name it quotes (`storage`, 'storage', "storage").
_REMOVED = lazy_compile(
    r"\b(?:has been|was|were|been) removed\b|\bno longer (?:supported|exists?|available)\b"
)
_QUOTED_NAME = lazy_compile(r"[`'\"]([A-Za-z_]\w{2,60})[`'\"]")
# The interpreter's own objects and the attributes that change with Python's version.
# `raise NotImplemented("...")`: the message of the NotImplementedError meant.
_NOT_IMPLEMENTED_CALLED = lazy_compile(
    r"""^raise NotImplemented\((?P<q>["'])(?P<message>.{1,300})(?P=q)\)$"""
)
# A refusal of how code called a function (`requires 3 arguments ... Got 2 arguments instead`).
_ABOUT_ARGUMENTS = lazy_compile(r"\barguments?\b|\bkeyword\b|\bpositional\b")
_INTERPRETER_ATTRIBUTE = lazy_compile(
    r"^'(?:code|frame|function|generator|coroutine|traceback|cell)' object "
    r"has no attribute '(?:co|f|gi|cr|tb|func)_\w+'"
)
_RULE_FOR_PATH = {"data": "CFG013", "model": "CFG017", "module": "CFG008", "checkpoint": "FLOW014"}
# A Hub dataset's name (`namespace/name`), not a file: verl reads files, it does not download these.
_HUB_NAME = lazy_compile(
    r"[A-Za-z0-9][\w.-]{0,95}/[A-Za-z0-9][\w-]{0,95}(?:\.[\w-]+)?(?<!\.parquet)(?<!\.jsonl)(?<!\.json)"
)
# verl's functions that load a user's file by its path (custom reward functions, dataset classes,
# reward managers, tools).
_LOADS_BY_PATH = frozenset(
    ("get_custom_reward_fn", "load_extern_type", "load_extern_object", "load_module", "load_custom_module")
)
# An object of some type lacking an attribute the code read (`'dict' object has no attribute 'type'`).
_OBJECT_HAS_NO = lazy_compile(r"^'\w+' object has no attribute '(?P<attr>\w+)'")
# A plain value read as if it were a config section.
_SCALAR_HAS_NO = lazy_compile(r"^'(?:str|int|float|bool)' object has no attribute '(?P<attr>\w+)'")
# What code calls on a mapping (or a sequence) it was given.
_MAPPING_METHODS = frozenset(("get", "items", "keys", "values", "update", "pop", "copy", "append", "extend"))
# The libraries that read a run's data files.
_DATA_LIBRARIES = frozenset(("datasets", "pyarrow", "pandas"))
# verl's functions that write model.override_config into the model's config (verl/utils/model.py).
_APPLIES_MODEL_OVERRIDES = frozenset(("update_model_config",))
# verl's functions that import a module by a name a setting gives (or a path or a name); verl 0.4
# and 0.5 build the chat scheduler of multi_turn.completion_callback (async_server.py).
# transformers' attention implementations, one file each (integrations/sdpa_attention.py).
_ATTENTION_CODE = lazy_compile(
    r"/transformers/integrations/(?P<impl>[a-z0-9]+)(?:_[a-z0-9]+)*_attention\.py$"
)
_LOADS_BY_NAME = frozenset(
    (
        "load_class_from_fqn",
        "import_external_libs",
        "load_extern_type",
        "load_extern_object",
        "_init_chat_scheduler",
    )
)
# A Ray worker's `(TaskRunner pid=1, ip=...)`, torch elastic's `[rank0]:`, an SGLang scheduler's
# `[2025-08-15 09:02:11 TP0] `, srun's `0: `, a node's `[node-0] `.
PREFIX = lazy_compile(
    r"^\s*(?:\((?:\w+ )?pid=[^)]*\)\s?|\[rank\d+\]:\s?|"
    r"\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?: [A-Z]{2,4}\d+)+\]\s?|"
    rf"{SRUN_LABEL}|{NODE_LABEL}|{HOST_LABEL})+"
)
# Hydra naming the part of the config a failed build was for (`full_key: optim`).
_FULL_KEY = lazy_compile(r"full_key: (?P<key>[\w.]+)")


# Hydra's wrapper around an error raised while building a verl config class, and the error itself
# on the line after it: `ValueError('...')`.
_HYDRA_TARGET = lazy_compile(r"Error in call to target '(?P<target>verl\.[\w.]+)'")
_INNER_CALL = lazy_compile(
    r"^\s*(?P<type>[A-Z]\w*(?:Error|Exception))\((?:(?P<q>['\"])(?P<msg>.+)(?P=q),?)?\)\s*$"
)
# pydantic's report of a config class it refused to build, and the refusal on the lines after it.
_VALIDATION_FOR = lazy_compile(r"\bValidationError: \d+ validation errors? for (?P<cls>[A-Za-z_]\w*)")
_VALIDATOR_SAID = lazy_compile(
    r"^(?P<kind>Value error|Assertion failed), (?P<msg>.+?)(?: \[type=[a-z_]+[,\]].*)?$"
)
_FIELD_NAME = lazy_compile(r"^[A-Za-z_][\w.]*$")
_NAME_PIECE = lazy_compile(r"^(\w+)\s*$")  # the rest of a name a wrap cut, alone on its line
_FIELD_SAID = lazy_compile(r"^(?P<msg>.+?) \[type=[a-z_]+[,\]]")
# The key a KeyError (or OmegaConf's ConfigKeyError) did not find: `'vllm_x'`, `Missing key vllm_x`.
_LOOKED_UP = lazy_compile(r"^(?:Missing key |['\"])(?P<key>[\w.-]{2,100})['\"]?$")
# A name given a value inside a mapping written on the command line (`{fused:True,foreach:True}`).
_MAPPING_NAME = lazy_compile(r"[{,]\s*['\"]?([A-Za-z_]\w*)['\"]?\s*:")
# A config class refusing a value (a TypeError there is a field it does not have: CFG005's).
_REFUSAL_TYPES = frozenset(
    ("AssertionError", "ValueError", "NotImplementedError", "RuntimeError", "KeyError")
)
_GENERATION_CONFIG = "generation_config.json"
# transformers' GenerationConfig.save_pretrained validating strictly (4.39 on; worded anew in 4.5x).
_GENERATION_CONFIG_REFUSED = lazy_compile(
    r"^GenerationConfig is invalid:|^The generation config instance is invalid -- `\.validate\(\)` throws"
)
# Exceptions that say a file could not be written or found, and distributed checkpointing's own.
_SAVE_ERROR_TYPES = frozenset(
    (
        "OSError",
        "IOError",
        "FileNotFoundError",
        "PermissionError",
        "IsADirectoryError",
        "NotADirectoryError",
        "FileExistsError",
        "CheckpointException",
        "CheckpointingException",
    )
)
CONFIG_CHECK_TYPES = {
    "AssertionError",
    "ValueError",
    "TypeError",
    "KeyError",
    "NotImplementedError",
    "RuntimeError",
    "Exception",  # `raise Exception(...)`: research code and engines refuse settings with it too
}
# A library's own refusal classes, by the name's end: argparse's `ArgumentTypeError`, vLLM's
# `VLLMValidationError`, a `...ConfigError`, a `...ValueError` subclass.
# (OmegaConf relays what a config dataclass's __post_init__ raised as ConfigTypeError or
# ConfigValueError: `Could not create instance of `HFModelConfig`: <the refusal>`)
_REFUSAL_CLASS = lazy_compile(
    r"(?:Validation|Argument(?:Type)?|Config(?:uration)?(?:Type|Value)?|Value|Assertion)Error$"
)


# What the user's code met outside itself (a server that refused, dropped or kept it waiting):
# not that code's doing, even when it raises it again.
_OUTSIDE_WORLD = lazy_compile(r"Connection\w*Error$|Timeout\w*$|HTTPError$|ServerDisconnected")
# A client whose server went away: what follows an engine's death, never its cause.
_PEER_LOST = frozenset(
    (
        "ServerDisconnectedError",
        "ClientConnectionError",
        "ClientOSError",
        "ClientPayloadError",
        "RemoteDisconnected",
        "ConnectionResetError",
        "BrokenPipeError",
        "IncompleteRead",
    )
)


# An HTTP client's error (requests, aiohttp, httpx, openai) for a status that is the server's own
# failure (5xx): `HTTPError: 500 Server Error: ...`, `ClientResponseError: 500, message=...`.
SERVER_FAILED = lazy_compile(
    r"\b(?:HTTPError|ClientResponseError|HTTPStatusError|InternalServerError): "
    r"(?:Error code: |Server error ')?5\d\d\b"
)
# A mapping a message prints (a config: `{'tokenizer': None, 'train_files': ...}`).
_PRINTED_MAPPING = lazy_compile(r"\{['\"]\w+['\"]: ")
# A message opening with who speaks and in which mode (`router_replay REPLAY: layer pos=47 has no
# target`, `router_replay R3: micro_batch missing 'response_mask'`, verl's VeOmni router replay):
# the feature's name there says who checks, not which setting is refused.
_SPEAKER_TAG = lazy_compile(
    r"^(?:[\w.]*(?:Error|Exception): )?[a-z][a-z0-9]*(?:_[a-z0-9]+)* [A-Z][A-Z0-9_]*: "
)
# gloo's TCP transport finding the rank at the other end gone (torch.distributed's CPU groups:
# a barrier or a broadcast while that rank's process died).
_GLOO_PEER_GONE = lazy_compile(r"gloo/transport/tcp/\w+\.cc:\d+\] Connection closed by peer\b")


# A module lacking a name, to be told apart as one of Python's own (`module 'pkgutil' has no
# attribute 'ImpImporter'`).
_STDLIB_NAME_GONE = lazy_compile(r"^module '(?P<module>[a-z_]\w*)' has no attribute '\w+'")


# An HTTP answer from a router or proxy whose server behind it is gone (`502, message='Bad
# Gateway'`): what a client of a dead engine reads, like a lost connection.
_GATEWAY_LOST = lazy_compile(r"^\s*50[234]\b|\b(?:Bad Gateway|Service Unavailable|Gateway Time-?out)\b")


def _names_in_code_or_words(name: str, text: str, in_words: bool = True) -> bool:
    """Whether `text` names the option `name` as code spells it (`tokenizer_worker_num`) or, when
    `in_words`, in words (`Tokenizer worker num must >= 1`, `LoRA paths`): libraries write both."""
    if re.search(rf"\b{re.escape(name)}\b", text):
        return True
    if not in_words:
        return False
    words = r"[ _-]".join(re.escape(part) for part in name.split("_") if part)
    return re.search(rf"\b{words}\b", text, re.I) is not None


@record
class Unknown:
    line: Line
    exc: ExceptionLine
    count: int
    phase: str | None
    verl_frame: str | None
    peer_lost: bool = False  # it only says the process at the other end went away
    raised_in: str | None = None  # the package of the frame that raised it, when shown
    # raised while its library was being built (a constructor, a model loader among its callers)
    starting: bool = False


# A library refusing a feature by name: `OrionForCausalLM does not support gradient checkpointing`.
_FEATURE_REFUSED = lazy_compile(
    r"\b(?:(?:does(?: not|n't)|do(?: not|n't)|cannot) support|(?:is|are) not compatible with) "
    r"(?P<feature>[a-z]+(?: [a-z]+){0,2})"
)


def _feature_options(message: str) -> list[str]:
    """verl's options that switch on the feature a library says it does not support, when the
    words name one (the longest reading first)."""
    m = _FEATURE_REFUSED.search(message)
    if m is None:
        return []
    from verl_doctor.catalog.verl_keys import feature_keys

    words = m["feature"].split()
    for n in range(len(words), 0, -1):
        found = feature_keys(" ".join(words[:n]))
        if found:
            return found
    return []


_WORD_GOES_ON = lazy_compile(r"[\w.]+")


def _with_cut_word(own: str, reading: str) -> str:
    """The exception's own line with the rest of the word a terminal's wrap cut at its end, when
    `reading` joins them as one word (`Set use_megatr` / `on_fsdp=False`): a name the message
    gives is read whole, and nothing else of the lines after it is taken as its own."""
    if not own or not (own[-1].isalnum() or own[-1] == "_") or not reading.startswith(own):
        return own
    rest = _WORD_GOES_ON.match(reading, len(own))
    return own + rest.group(0) if rest else own


def _validator_said(follow: str) -> tuple[str, str] | None:
    """(exception type, message) of the refusal pydantic prints on the lines after its
    `N validation error for X` (`  Value error, <message> [type=...]`, or a field's name and
    `  Input should be ...`), or None when those lines are not one."""
    after = [message_of(ln) for ln in follow.split("\n")[:3]]
    refusal = _VALIDATOR_SAID.match(after[0])
    if refusal is not None:
        return ("AssertionError" if refusal["kind"] == "Assertion failed" else "ValueError"), refusal["msg"]
    if len(after) > 1 and _FIELD_NAME.match(after[0]) and (said := _FIELD_SAID.match(after[1])):
        return "ValueError", f"{after[0]}: {said['msg']}"
    return None


def _readings(line: Line, pieces: list[str]) -> list[str]:
    """The message of `line` with the lines that continue it (`pieces`, spaces kept), the likely
    reading first. Lines cut to one width by a terminal lose no character, so they join as
    printed, mid-word cuts too; a web page's wrap dropped the space it cut at, so its lines join
    with spaces. A single cut line shows no width to tell them apart: both readings."""
    raw = strip_ansi(line.raw).rstrip("\r")
    # (in a paste indented as a block, quoted or labelled line by line, the lines after were read
    # without that margin)
    widths = {len(raw), len(raw) - len(paste_margin(raw)), len(raw) - plain_prefix_end(raw)}
    tail = " " if line.raw.rstrip("\r").endswith(" ") else ""
    exact = (line.text + tail + "".join(pieces)).strip()
    if len(pieces) > 1 and all(len(p) in widths for p in pieces[:-1]):
        return [exact]
    spaced = f"{line.text} {' '.join(p.strip() for p in pieces)}"
    return [spaced, exact] if len(pieces) == 1 and exact != spaced else [spaced]


# The settings that count the GPUs a run asks for.
_GPU_COUNT_KEYS = frozenset(("n_gpus_per_node", "nnodes"))
# verl's resource pool read by node (`resource_pool.store[0]`, single_controller/ray/base.py).
_ONE_NODES_POOL = lazy_compile(r"\b(?:resource_pool|process_on_nodes|pool)\.store\[|\bstore\[0\]")
# A value no size or count can have (0, or below it).
_NO_SIZE = lazy_compile(r"^(?:-\d+(?:\.\d+)?|0+(?:\.0+)?)$")
# The codes that say a value of verl's config was refused or left out.
_VERL_VALUE_CODES = frozenset(("CFG011", "CFG014"))
# What a module or object lacks, in the words every wrapper repeats.
_LACKING = lazy_compile(r"(?:module |object )?'?[\w.]+'? (?:object )?has no attribute '?\w+'?")
MAX_LOOKUPS = 64  # lookups by a value remembered, to tell their echoes
# `getattr(torch.optim, config.optimizer)`: an attribute looked up by a name the code holds in a
# variable (a setting, a sample's field), not one written against a release of that module.
_LOOKED_UP_BY_VALUE = lazy_compile(r"\bgetattr\(\s*[^,()]+,\s*(?P<name>[A-Za-z_][\w.\[\]'\"]*)\s*[,)]")
# A call in a source line (`score_lst = [reward_fn(data_source, r, gt) ...]`): the name called.
_CALLED_NAME = lazy_compile(r"(?P<name>[A-Za-z_][\w.]*)\(")
# A callable verl takes from the config to score responses.
_REWARD_CALLABLE = lazy_compile(r"(?:^|[._])(?:reward|score|compute_score)\w*$|reward_fn")
# The training strategies verl's workers are built for (`*.strategy`), in any release.
_VERL_STRATEGIES = frozenset(
    ("fsdp", "fsdp2", "megatron", "veomni", "torchtitan", "automodel", "megatron_fsdp", "ddp", "dp")
)
# A part of the run's config read in verl's code: `self.config.algorithm.kl_ctrl`.
_CONFIG_READ = lazy_compile(r"\b(?:config|cfg)\.(?P<path>[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)*)")


# An argument a call's source line writes as a literal: `'meta'`, `do_sample=True`, `tp_size=8`.
_LITERAL_ARGUMENT = lazy_compile(
    r"""(?:(?<![\w.])(?P<kw>[A-Za-z_]\w*)\s*=(?!=)\s*)?"""
    r"""(?P<lit>'[^'\n]{1,80}'|"[^"\n]{1,80}"|(?<![\w.])(?:True|False|None|-?\d[\d.e+-]*)(?![\w.]))"""
)


# The code that reads a saved checkpoint back: torch.load's unpickler, safetensors, torch's
# distributed checkpoint reader.
_CHECKPOINT_READER = lazy_compile(
    r"/torch/serialization\.py$|/torch/distributed/checkpoint/|/safetensors/|/pickle\.py$|/_weights_only_unpickler\.py$|"
    r"/megatron/core/dist_checkpointing/"
)


_RESTORING_STATE = lazy_compile(
    r"^_?(?:load_state_dict|set_extra_state|_load_from_state_dict|load_checkpoint)$"
)
_ABOUT_SAVED_STATE = lazy_compile(r"\bcheckpoint|\bstate[ _]dict|\bextra[ _]state", re.I)
# (the machine failing under it is the machine: a GPU, its driver, its memory)
_THE_MACHINE = lazy_compile(r"CUDA|cuda|NCCL|nccl|[Dd]river|[Oo]ut of memory|device-side|ECC")


def _word_in(word: str, text: str) -> bool:
    return re.search(rf"(?<![\w.]){re.escape(word)}(?![\w])", text) is not None


# Python refusing an operator for its operands' types.
_OPERAND_TYPES = lazy_compile(
    r"not supported between instances of '\w+' and '\w+'|unsupported operand type\(s\) for "
)


# A `raise` of an error held in a variable (`raise output`, `raise exc from None`,
# `raise value.as_instanceof_cause()`): not a check of the frame's own.
_RELAYED = lazy_compile(r"raise\s+(?![A-Z])[a-z_][\w.]*(?:\(\))?(?:\s+from\s+\w+)?\s*$")
# ... or whose words hand on the error it caught (transformers' lazy import: `Failed to import
# transformers.models.bloom.modeling_bloom because of the following error (look up to see its
# traceback):` and that error's message).
_RELAYS_ITS_CAUSE = lazy_compile(r"Failed to import [\w.]+ because of the following error\b")


def _code_line(follow: str, any_statement: bool = False) -> str:
    """The first line after a traceback frame: the source line Python printed for it (only an
    `assert` or `raise` unless `any_statement`)."""
    first = message_of(follow.lstrip("\n").split("\n", 1)[0])
    if first.startswith(('File "', "Traceback ")):
        return ""  # no source line was printed
    return first if any_statement or first.startswith(("assert ", "raise ")) else ""


# A piece of an expression: the names it reads, their attributes and subscripts, operators.
_EXPRESSION_PIECE = lazy_compile(r"^[\w.\[\]'\"()%<>=!+*/ -]{1,300}$")


def _condition_part(follow: str) -> str:
    """The line Python printed for an `assert` spread over lines: a piece of its condition that
    reads the run's config (`config.actor_rollout_ref.actor.ppo_mini_batch_size`), else ""."""
    first = _code_line(follow, any_statement=True)
    if "config." not in first or first.startswith(("assert ", "raise ")):
        return ""
    return first if _EXPRESSION_PIECE.match(first) else ""


def short_path(path: str) -> str:
    p = path.replace("\\", "/")
    i = p.rfind("/verl/")
    return p[i + 1 :] if i >= 0 else p.rsplit("/", 1)[-1]


class ExceptionReadings:
    """The analyzer's readings of an exception line no signature matched."""

    if TYPE_CHECKING:  # kept by the analyzer these readings are mixed into
        _answered_fps: set[str]
        _caller: dict[tuple[object, ...], tuple[str, ...]]
        _config_read: dict[tuple[object, ...], tuple[int, str]]
        _entered: dict[tuple[object, ...], tuple[str, bool, str]]
        _frame_follow: dict[tuple[object, ...], str]
        _caller_follow: dict[tuple[object, ...], str]
        _looked_up_by_value: set[str]
        _shadows: dict[tuple[str, tuple[object, ...]], tuple[int, str, str]]
        _frames: dict[tuple[object, ...], deque[tuple[int, Frame]]]
        _importing: dict[tuple[object, ...], int]
        _innermost: dict[tuple[object, ...], tuple[int, Frame]]
        _own_frame: dict[tuple[object, ...], tuple[int, Frame]]
        _rule_index: dict[str, Rule] | None
        _unknown: dict[str, Unknown]
        memo: VerdictMemo
        _user_module: dict[tuple[object, ...], tuple[int, str]]
        _restoring_state: dict[tuple[object, ...], int]
        _verl_seen: bool
        _envelopes: deque[tuple[Line, Any]]
        _library_settings_read: list[tuple[str, Line, ExceptionLine]]
        catalog: Catalog
        context: ContextCollector
        states: dict[str, RuleState]

        def _continuation(self, line: Line, exact: bool = False) -> list[str]: ...

        def _phase_for(self, line: Line) -> tuple[str | None, str | None]: ...

        def _record(
            self,
            rule: Rule,
            line: Line,
            conf: str,
            groups: dict[str, str] | None = None,
            basis: str | None = None,
            states: dict[str, RuleState] | None = None,
        ) -> bool: ...

    def _maybe_unknown(self, line: Line, verdict: Verdict) -> None:
        own = line.text
        if line.follow and (
            len(line.raw) >= WRAPPED_WIDTH or line.text.rstrip().endswith(BARE_EXCEPTION_ENDS)
        ):
            # A message a terminal wrapped, or one a paste put on the lines after its bare
            # `ImportError:`: its class and its words are read whole.
            pieces = self._continuation(line, exact=True)
            if pieces:
                readings = _readings(line, pieces)
                line = replace(line, text=readings[0])
                # One line cut at the terminal's width cannot tell a word cut in two (`larg` /
                # `er`) from a space a page dropped: the other reading is tried too.
                for other in readings[1:]:
                    exc = verdict.exception_of(other)
                    if exc is not None and self._answered(
                        replace(line, text=other), exc, _with_cut_word(own, other)
                    ):
                        # (the same exception again, cut the same way where nothing shows who
                        # raised it, is answered too: under either reading)
                        first = verdict.exception_of(line.text)
                        self._note_answered(exc, *((first,) if first is not None else ()))
                        return
        exc = verdict.exception_of(line.text)
        if exc is not None and self._answered(line, exc, _with_cut_word(own, line.text)):
            self._note_answered(exc)
            return
        if exc is None:
            if "System error: " in line.text:
                self._fallback(line, None)
            return
        self._remember_unknown(line, exc)

    def _note_answered(self, *excs: ExceptionLine) -> None:
        if len(self._answered_fps) >= MAX_UNRECOGNIZED * 64:
            self._answered_fps.clear()
        self._answered_fps.update(fingerprint(exc.type, exc.message) for exc in excs)

    def _answered(self, line: Line, exc: ExceptionLine, own: str) -> bool:
        """Whether the exception's class and names, the import of a user's file, or a settings
        check answer it."""
        return (
            # (an argument the run set itself, `reward_kwargs.format_weight`, before the contract)
            self._override_passed_as_argument(line, exc)
            or self._generation_config_while_saving(line, exc)
            or self._user_function_called_wrongly(line, exc)
            or self._remote_code_meets_another_transformers(line, exc)
            or self._own_module_missing(line, exc)
            or self._package_shadowed(line, exc)
            or self._module_the_run_names(line, exc)
            or self._path_the_run_names(line, exc)
            or self._override_value_refused(line, exc)
            or self._override_name_not_found(line, exc)
            or self._count_set_to_zero(line, exc)
            or self._removed_option_set(line, exc)
            or self._section_set_to_a_value(line, exc)
            or self._mapping_given_as_text(line, exc)
            or self._reward_function_not_given(line, exc)
            or self._user_code_raised(line, exc)
            or (exc.type == "AttributeError" and self._user_module_lacks_name(line, exc.message))
            or self._optional_import_missing(line, exc)
            or self._python_internals_changed(line, exc)
            or self._fallback(line, exc)
            or self._user_module_failed(line, exc)
            or self._config_check(line, exc, own)
            or self._not_implemented_called(line, exc)
            or self._override_named_in_refusal(line, exc)
            or self._chosen_value_looked_up(line, exc)
            or self._exported_value_refused(line, exc)
        )

    def _note_shadow(self, line: Line, fr: Frame, caller_statement: str) -> None:
        """A single file of the user's that ran as a module right under a library's `import X`
        (or `from X import ...`) and is named X, where X is an installed package or a module of
        Python's own (`import copy` in verl/protocol.py running ~/rl/copy.py): that file shadows
        X, whatever it then does. (A package's folder is a copy installed elsewhere, not this.)"""
        stem = _module_name_of(fr.path)
        if stem is None or stem not in _imported_names(caller_statement):
            return
        from verl_doctor.engine.fallbacks import known_package

        if known_package(stem) is None and stem not in sys.stdlib_module_names:
            return  # a module of the user's own that a file of theirs imports
        if len(self._shadows) > MAX_WORKERS:
            self._shadows.clear()
        self._shadows[(line.source, line.worker.key())] = (line.number, fr.path, stem)

    def _shadow_ran(self) -> None:
        """Answers made on a traceback that ran through a file shadowing a package (see
        `_note_shadow`) are the shadow's doing: what the file then raised (a missing data file
        for `shutil.copytree` run with verl's arguments) is replaced by the shadow itself."""
        from verl_doctor.engine.fallbacks import Fallback

        for (source, key), (number, path, name) in self._shadows.items():
            after = (source, key, number)
            codes = [
                c for c, st in self.states.items() if st.first is not None and _raised_after(st.first, *after)
            ]
            unknown = [fp for fp, u in self._unknown.items() if _raised_after(u.line, *after)]
            if not codes and not unknown:
                continue
            lines = [self.states[c].first for c in codes] + [self._unknown[fp].line for fp in unknown]
            first = min((ln for ln in lines if ln is not None), key=lambda ln: ln.number)
            for c in codes:
                del self.states[c]
            for fp in unknown:
                del self._unknown[fp]
                self._answered_fps.add(fp)
            basis = f"Python ran {path}, a file of yours, for `import {name}`: it shadows that package"
            self._credit(first, Fallback("ENV003", _shadow_groups(path, name), basis))

    def _note_import(self, line: Line, fr: Frame) -> None:
        """Follow Python importing a file: its `exec_module` frame, then the file's `<module>`."""
        if fr.func == "exec_module" or fr.path.startswith("<frozen importlib"):
            self._importing[line.worker.key()] = line.number
        elif fr.func == "<module>" and not fr.path.startswith("<") and fr.package is None:
            key = line.worker.key()
            started = self._importing.get(key)
            if started is not None and 0 <= line.number - started <= _IMPORT_TO_MODULE:
                if len(self._user_module) > MAX_WORKERS:
                    self._user_module.clear()
                self._user_module[key] = (line.number, fr.path)

    def _user_function_called_wrongly(self, line: Line, exc: ExceptionLine) -> bool:
        """A call that does not fit the signature of the user's own code that verl was told to
        load: the reward function (custom_reward_function.name, or the contract's `compute_score`
        called from verl's code) or a custom class (data.custom_cls.name): it does not take the
        arguments verl's contract passes it."""
        if exc.type != "TypeError":
            return False
        from verl_doctor.engine.fallbacks import (
            DATASET_ARGS_SINCE,
            USER_CONTRACT,
            Fallback,
            called_function,
            unexpected_keyword,
        )

        callee = called_function(exc.message)
        if callee is None:
            return False
        parts = callee.split(".")
        named: dict[str, str] = {}  # the user's names the run set -> the key that set them
        for option, value in self.context.overrides.items():
            if option.endswith(".name") and "custom_" in option:
                named[value.strip("'\"")] = option
        key = next((named[p] for p in parts if p in named), None)
        if key is not None and "custom_cls" in key:
            cls = next(p for p in parts if p in named)
            call = unexpected_keyword(exc.message)
            since = DATASET_ARGS_SINCE.get(call[1]) if call else None
            if call and since:
                # an argument verl's own dataset class gained in a later release: the class was
                # written against an older verl's RLHFDataset
                basis = (
                    f"a TypeError building the custom class {cls} ({key}) with {call[1]}, an argument "
                    f"verl's dataset classes take since {since}"
                )
                groups = {"older_class": cls, "kwarg": call[1], "since": since}
                return self._credit(line, Fallback("ENV005", groups, basis))
            basis = f"a TypeError building the custom class {cls} ({key}) with the arguments verl passes it"
            return self._credit(line, Fallback("CFG008", {"constructed": cls}, basis))
        name = parts[-1]
        if key is None:
            last = self._last_frame(line)
            by_verl = last is not None and 0 <= line.number - last[0] <= RAISED_WITHIN and last[1].is_verl
            if name not in USER_CONTRACT or not by_verl:
                return False
        basis = f"a TypeError calling the custom function {name}() with the arguments verl passes it"
        return self._credit(line, Fallback("CFG008", {"called": name}, basis))

    def _override_passed_as_argument(self, line: Line, exc: ExceptionLine) -> bool:
        """A keyword argument a call does not take that is a key (or a section) this run set
        (`+reward_model.reward_kwargs.max_resp_len=64` handed to a reward manager whose __init__
        has no max_resp_len): verl passes that part of the config on as arguments, and the
        setting is one the chosen class does not have."""
        if exc.type != "TypeError":
            return False
        from verl_doctor.engine.fallbacks import Fallback, unexpected_keyword

        call = unexpected_keyword(exc.message)
        if call is None:
            return False
        callee, kwarg = call
        # (or a section of it set key by key: `+reward_model.reward_kwargs.overlong_buffer_cfg.len=32`
        # is handed on as overlong_buffer_cfg)
        keys = [k for k in self.context.overrides if kwarg in k.lstrip("+~").split(".")[1:]]
        if not keys:
            return False
        basis = f"a TypeError: {callee}() takes no argument {kwarg}, which this run set as {keys[0]}"
        return self._credit(line, Fallback("CFG014", {"options": ", ".join(keys[:4])}, basis))

    def _package_shadowed(self, line: Line, exc: ExceptionLine) -> bool:
        """An installed package half imported because a file of the user's carries its name
        (`partially initialized module 'ray' has no attribute 'init'`, raised in ~/rl/ray.py,
        which Python found first on sys.path): the real package never loads."""
        m = _PARTIAL_MODULE.search(exc.message)
        if m is None:
            return False
        from verl_doctor.engine.fallbacks import Fallback, an, known_package

        top = m["module"].split(".")[0]
        if known_package(top) is None:
            return False  # a user's own module importing itself in a circle
        own = (f"/{top}.py", f"/{top}/__init__.py")
        shadow = m["path"] if m["path"] and m["path"].endswith(own) else None
        # (the shadow may import another package that trips over it: a frame of it in this traceback)
        mine = self._own_frame.get(line.worker.key())
        if (
            shadow is None
            and mine is not None
            and 0 <= line.number - mine[0] <= FRAME_LOOKBACK
            and mine[1].path.endswith(own)
        ):
            shadow = mine[1].path
        if shadow is None:
            return False
        basis = f"{an(exc.type)} from {shadow}, a file of yours named like the installed package {top}"
        return self._credit(line, Fallback("ENV003", _shadow_groups(shadow, top), basis))

    def _module_the_run_names(self, line: Line, exc: ExceptionLine) -> bool:
        """A module Python cannot import that the run named itself: a file path given where a
        setting takes a module name (`No module named '/home/me/lib/patch'`, which no module name
        can be), or the module of a dotted name a key was set to
        (`trainer.checkpoint_callback_class=my_callbacks.Copy`) that no known package provides."""
        if exc.type not in ("ModuleNotFoundError", "ImportError"):
            return False
        from verl_doctor.engine.fallbacks import Fallback, an, known_package, missing_module_name

        name = missing_module_name(exc.message)
        if name is None:
            return False
        given = {k: v.strip("'\"") for k, v in self.context.overrides.items()}
        # keys set to the module itself or to a name inside it (`my_callbacks.Copy`)
        named = [(k, v) for k, v in given.items() if v == name or v.startswith(name + ".")]
        if "/" in name:
            folder, _, module = name.rpartition("/")
            groups = {"path_module": name, "module_dir": folder or "/", "module_name": module}
            if named:
                groups["path_key"] = named[0][0]
            basis = f"{an(exc.type)} for {name}: a file path where a module name is expected"
            return self._credit(line, Fallback("CFG008", groups, basis))
        if known_package(name.split(".")[0]) is not None:
            return False
        if not named:
            # verl importing a module by the name a setting gave (`load_class_from_fqn` for an
            # AgentLoopManager class, `import_external_libs` for model.external_lib): a module
            # no known package provides is that name's, not a dependency to install.
            frames = self._frames.get(line.worker.key(), ())
            loader = next(
                (
                    fr.func
                    for number, fr in reversed(frames)
                    if 0 <= line.number - number <= FRAME_LOOKBACK and fr.func in _LOADS_BY_NAME
                ),
                None,
            )
            if loader is None:
                return False
            basis = f"{an(exc.type)} for {name}, which verl's {loader} imports by the name it was given"
            return self._credit(line, Fallback("CFG008", {"named_module": name}, basis))
        key = named[0][0]
        basis = f"{an(exc.type)} for {name}, the module of {key}={named[0][1]}; no known package provides it"
        return self._credit(line, Fallback("CFG008", {"named_module": name, "path_key": key}, basis))

    def _path_the_run_names(self, line: Line, exc: ExceptionLine) -> bool:
        """A file or folder not found (or refused) whose name is a value this run set: the key it
        was set for says what it is (data files, a model, the user's module, a checkpoint), whoever
        raised it (`FileNotFoundError: HuggingFaceH4/ultrachat_200k` from pyarrow for a hub name
        given as data.train_files)."""
        if exc.type not in _NOT_FOUND_TYPES:
            return False
        # Data files are named in many messages about their rows; only their absence is theirs.
        # A model, a module or a checkpoint is also what an assertion naming its path checks
        # (`Make sure the last char in src is not /. Got /models/qwen/`).
        not_found = exc.type == "FileNotFoundError" or bool(_NOT_FOUND.search(exc.message))
        from verl_doctor.catalog.verl_keys import path_kind
        from verl_doctor.engine.fallbacks import Fallback, an

        # (a config the message prints after its words, `... not set in config: {'train_files': ...}`,
        # holds every path the run set: only the words name what was refused)
        words = _PRINTED_MAPPING.split(exc.message, 1)[0]
        for key, value in self.context.overrides.items():
            kind = path_kind(key)
            if kind is None or (not not_found and (kind == "data" or exc.type != "AssertionError")):
                continue
            for given in value.strip("[]").split(","):
                given = given.strip().strip("'\"")
                if len(given) >= 3 and given in words:
                    groups = {"path": given}
                    if kind == "data" and _HUB_NAME.fullmatch(given):
                        groups["hub_name"] = given
                    basis = f"{an(exc.type)} on {given}, which this run set as {key}"
                    return self._credit(line, Fallback(_RULE_FOR_PATH[kind], groups, basis))
        from verl_doctor.engine.fallbacks.paths import path_missing

        if not_found and path_missing(exc.message, exc.type) is None:
            # A path given to any other setting, not there (`Can't find conda env directory
            # /mnt/nas/conda/envs/verl` for +ray_kwargs.ray_init.runtime_env.conda): that value.
            # (What the path is, a module file, data or a model, has its own reading.)
            for key, value in self.context.overrides.items():
                given = value.strip().strip("'\"")
                if path_kind(key) is None and "/" in given and len(given) >= 3 and given in words:
                    basis = f"{an(exc.type)} on {given}, which this run set as {key}"
                    groups = {"options": key.lstrip("+~"), "missing_path": given}
                    return self._credit(line, Fallback("CFG014", groups, basis))
        raised = self._raising_frame(line)
        if exc.type == "FileNotFoundError" and raised is not None and raised.package in _DATA_LIBRARIES:
            # the data library looking for what it was asked to load (`load_from_disk`, a parquet file)
            basis = f"a FileNotFoundError raised by {raised.package} in {raised.func}"
            return self._credit(line, Fallback("CFG013", {}, basis))
        return False

    def _override_value_refused(self, line: Line, exc: ExceptionLine) -> bool:
        """A check that shows the value it refused (`but got batch_size=-1`, torch's DataLoader;
        `expected ... a single integer, got '0.5'`, numpy) where this run set a key of that name
        (or ending in it) to that value, or, the value alone, one or two keys: the setting's value
        is refused, whoever checked it."""
        if exc.type not in ("ValueError", "AssertionError", "TypeError"):
            return False
        named = _NAMED_VALUE.findall(exc.message) + _ECHOED_CONSTANT.findall(exc.message)
        alone = [] if named else _GOT_VALUE.findall(exc.message)
        if not named and not alone:
            return False
        from verl_doctor.engine.fallbacks import Fallback, an

        keys: list[str] = []
        for key, value in self.context.overrides.items():
            leaf = key.rsplit(".", 1)[-1]
            given = value.strip("'\"")
            given = _AS_PYTHON.get(given.lower(), given)
            if any(got == given and (leaf == name or leaf.endswith("_" + name)) for name, got in named):
                keys = [key]
                break
            if given in alone:
                keys.append(key)
        if not keys or len(keys) > 2:
            return False  # a value many settings share says nothing of which one
        value = self.context.overrides[keys[0]]
        basis = f"{an(exc.type)} refusing the value {value}, which this run set as {' and '.join(keys)}"
        if _AS_PYTHON.get(value.strip("'\"").lower()) == "None":
            # (a setting given Hydra's null is one left without a value where one is needed)
            return self._credit(line, Fallback("CFG011", {"full_key": keys[0]}, basis))
        return self._credit(line, Fallback("CFG014", {"options": ", ".join(keys)}, basis))

    def _override_name_not_found(self, line: Line, exc: ExceptionLine) -> bool:
        """A lookup by a name this run set, and only this run, that found nothing (`KeyError:
        "function gelu_tanh not found in ACT2FN mapping [...]"` after
        `+...override_config.activation=gelu_tanh`): the setting names what no table holds. A
        `*_key` option names a field of the data, which the data readings tell."""
        if exc.type != "KeyError":
            return False
        m = _NOT_FOUND_NAME.search(exc.message)
        if m is None:
            return False
        name = m.group("quoted") or m.group("named")
        keys = [
            key
            for key, value in self.context.overrides.items()
            if value.strip("'\"") == name and not key.endswith("_key")
        ]
        if len(keys) != 1:
            return False  # (a name many settings share, or none, says nothing of which one)
        from verl_doctor.engine.fallbacks import Fallback

        basis = f"a KeyError: nothing named {name!r}, which this run set as {keys[0]}"
        return self._credit(line, Fallback("CFG014", {"options": keys[0]}, basis))

    def _count_set_to_zero(self, line: Line, exc: ExceptionLine) -> bool:
        """verl failing on a count this run set to 0 or below: dividing by it (`trainer.n_gpus_per_node=0`,
        then `integer modulo by zero` in _validate_config), or a check whose statement or message
        names a batch size the run set so (`data.train_batch_size=0`, then a bare AssertionError
        on `assert config.data.train_batch_size >= ...`). A batch of no samples is a value no run
        can use, whatever the arithmetic it then fails."""
        raised = self._raising_frame(line)
        if raised is None or not raised.is_verl:
            return False
        overrides = self.context.overrides
        if exc.type == "ZeroDivisionError":
            zeros = [k for k, v in overrides.items() if is_zero(v)]
        elif exc.type == "IndexError" and _ONE_NODES_POOL.search(self._raising_source(line)):
            # (a resource pool made of no nodes, `trainer.nnodes=-1`, then indexed for its first)
            zeros = [
                k
                for k, v in overrides.items()
                if k.rsplit(".", 1)[-1] in _GPU_COUNT_KEYS and _NO_SIZE.match(v.strip("'\" "))
            ]
        else:
            said = f"{self._raising_source(line)} {exc.message}"
            zeros = [
                k
                for k, v in overrides.items()
                if _NO_SIZE.match(v.strip("'\" "))
                and "batch_size" in (leaf := k.rsplit(".", 1)[-1])
                and re.search(rf"\b{re.escape(leaf)}\b", said)
            ]
        if not zeros or len(zeros) > 2:
            return False
        from verl_doctor.engine.fallbacks import Fallback, an

        leaf = zeros[0].rsplit(".", 1)[-1]
        value = overrides[zeros[0]].strip("'\" ")
        basis = f"{an(exc.type)} in verl's code, and this run set {' and '.join(zeros)} to {value}"
        if leaf in _GPU_COUNT_KEYS and is_zero(value):
            return self._credit(line, Fallback("CFG003", {"zero_count": zeros[0]}, basis))
        return self._credit(line, Fallback("CFG014", {"options": ", ".join(zeros), "value": value}, basis))

    def _removed_option_set(self, line: Line, exc: ExceptionLine) -> bool:
        """A library saying an argument it no longer has (`Cluster-wide storage configuration has
        been removed. The last Ray version supporting the `storage` argument is ray==2.47`) that
        this run set itself (`+ray_kwargs.ray_init.storage=...`): the setting is to drop, not the
        library to change."""
        if not _REMOVED.search(exc.message):
            return False
        quoted = {m.group(1) for m in _QUOTED_NAME.finditer(line.raw)}  # (its own line only)
        keys = [k for k in self.context.overrides if k.rsplit(".", 1)[-1] in quoted]
        if not keys:
            return False
        from verl_doctor.engine.fallbacks import Fallback, an

        basis = f"{an(exc.type)}: an argument the library no longer has, which this run set as {keys[0]}"
        return self._credit(line, Fallback("CFG014", {"options": ", ".join(keys[:2])}, basis))

    def _override_named_in_refusal(self, line: Line, exc: ExceptionLine) -> bool:
        """A refusal nothing else placed that names, in code's spelling, an option this run set
        (`continue_final_message and add_generation_prompt are not compatible`, transformers, for
        `+data.apply_chat_template_kwargs.continue_final_message=True`): that setting's value. Only
        the exception's own line counts: the line after a wrapped one may be another run's."""
        from verl_doctor.engine.fallbacks.settings import blames_something_else

        if exc.type not in _REFUSAL_TYPES or blames_something_else(exc.message):
            return False
        from verl_doctor.catalog.verl_keys import is_option_name
        from verl_doctor.engine.fallbacks import Fallback, an

        # (in words only where the raising code checks settings: `selective activation checkpoint`
        # in torch's checkpointing code is a mechanism, not the option activation_checkpoint)
        from verl_doctor.engine.fallbacks.settings import checks_its_settings

        raising = self._raising_frame(line)
        in_words = raising is not None and checks_its_settings(raising.path, raising.func)
        keys = [
            k
            for k in self.context.overrides
            if is_option_name(leaf := k.rsplit(".", 1)[-1])
            and _names_in_code_or_words(leaf, line.raw, in_words)
        ]
        # (or a name inside a mapping the run set whole, `override_optimizer_config={fused:True,
        # foreach:True}`, that the refusal quotes: `fused` and `foreach` cannot be `True` together)
        for key, value in self.context.overrides.items():
            if value.strip("'\" ").startswith("{"):
                keys += [
                    f"{key}.{name}"
                    for name in dict.fromkeys(_MAPPING_NAME.findall(value))
                    if re.search(rf"[`'\"]{re.escape(name)}[`'\"]", line.raw)
                    or (is_option_name(name) and re.search(rf"\b{re.escape(name)}\b", line.raw))
                ]
        if not keys or len(keys) > 2:
            return False
        basis = f"{an(exc.type)} naming {' and '.join(keys)}, which this run set"
        return self._credit(line, Fallback("CFG014", {"options": ", ".join(keys)}, basis))

    def _exported_value_refused(self, line: Line, exc: ExceptionLine) -> bool:
        """A refusal nothing else placed that shows the value of one environment variable the
        launch shell exported (`Port is not specified for address 10.10.1.21` after `export
        RAY_ADDRESS=10.10.1.21`, `Unknown cache layout format hnd` after `export
        VLLM_KV_CACHE_LAYOUT=hnd`): that variable's value, which the library read. A path is the
        path readings'; a number or a word any value could be says nothing of which variable."""
        if exc.type not in _REFUSAL_TYPES or not self.context.exported:
            return False
        from verl_doctor.engine.redact import is_secret_name

        names = [
            name
            for name, value in self.context.exported.items()
            # (a credential's value is never named: the report shows no more of it than the log line)
            if not is_secret_name(name)
            and _DISTINCT_VALUE.fullmatch(value)
            and value.lower() not in _AS_PYTHON
            and re.search(rf"(?<![\w./:-]){re.escape(value)}(?![\w/:-]|\.\w)", exc.message)
        ]
        if len(names) != 1:
            return False
        from verl_doctor.engine.fallbacks import Fallback, an

        value = self.context.exported[names[0]]
        basis = f"{an(exc.type)} refusing {value}, the value this run exported as {names[0]}"
        return self._credit(line, Fallback("CFG014", {"exported": names[0], "value": value}, basis))

    def _chosen_value_looked_up(self, line: Line, exc: ExceptionLine) -> bool:
        """A key missing that is the value this run chose by name, and of one setting only
        (`transfer_queue.backend.storage_backend=Mooncake`, then `Missing key Mooncake`): the code
        looks the choice up among those it has, and there is none of that name. A setting that
        names a field of the data (`data.prompt_key=question`) is the data's, read elsewhere."""
        if not exc.type.endswith("KeyError"):
            return False
        m = _LOOKED_UP.match(exc.message.strip())
        if m is None or m["key"].lower() in _AS_PYTHON or m["key"].replace(".", "").isdigit():
            return False
        keys = [k for k, v in self.context.overrides.items() if v.strip("'\" ") == m["key"]]
        if len(keys) != 1 or keys[0].lower().endswith("key"):
            return False
        from verl_doctor.engine.fallbacks import Fallback, an

        basis = f"{an(exc.type)} on {m['key']}, the value this run chose for {keys[0]}"
        return self._credit(line, Fallback("CFG014", {"options": keys[0], "value": m["key"]}, basis))

    def _user_code_raised(self, line: Line, exc: ExceptionLine) -> bool:
        """An exception raised in the user's own file that the run named (the reward function's
        path, a custom dataset's): verl called it and it raised (`int(None)` on a response with no
        final answer). A failed import is the environment's; a module that fails as it loads
        is read by _user_module_failed."""
        if exc.type in ("ModuleNotFoundError", "ImportError") or _OUTSIDE_WORLD.search(exc.type):
            return False
        raised = self._raising_frame(line)
        if raised is None or raised.package is not None or raised.func == "<module>":
            return False
        from verl_doctor.catalog.verl_keys import path_kind
        from verl_doctor.engine.fallbacks import Fallback, an

        for key, value in self.context.overrides.items():
            given = value.strip("'\"").lstrip("./")
            if path_kind(key) == "module" and given.endswith(".py") and raised.path.endswith(given):
                groups = {
                    "raised_in": f"{raised.path}:{raised.line} in {raised.func}",
                    "raised_file": raised.path,
                    "raised_func": raised.func,
                }
                basis = f"{an(exc.type)} raised in {raised.func} of {given}, the file this run set as {key}"
                if exc.type == "KeyError":
                    # the user's code looking up a field the rows do not have: the data lacks it
                    return self._credit(line, Fallback("CFG012", {}, basis))
                return self._credit(line, Fallback("CFG008", groups, basis))
        return False

    def _optional_import_missing(self, line: Line, exc: ExceptionLine) -> bool:
        """A NameError raised in an installed package's own code (`name 'math_metric' is not
        defined` in verl's math_verify wrapper): a name its optional import defines, after that
        import failed quietly (`try: from math_verify import ... except ImportError: print(...)`)."""
        if exc.type != "NameError":
            return False
        raised = self._raising_frame(line)
        if raised is None or raised.package is None:
            return False  # the user's own code: a typo or a missing import of theirs
        from verl_doctor.engine.fallbacks import Fallback

        if raised.package == "verl":
            from verl_doctor.engine.fallbacks import patch_lacks_a_name

            if self._credit(line, patch_lacks_a_name(raised.path, raised.func)):
                return True
        package = raised.package
        where = raised.path[raised.path.rfind(f"/{package}/") + 1 :]
        basis = f"a NameError in {where}: a name an optional import of {package} defines, not installed"
        return self._credit(line, Fallback("ENV009", {}, basis))

    def _not_implemented_called(self, line: Line, exc: ExceptionLine) -> bool:
        """`raise NotImplemented("only support bfloat16 for now")`, a slip for NotImplementedError,
        fails as `TypeError: 'NotImplementedType' object is not callable`: the statement Python
        printed holds the refusal meant, read as the NotImplementedError it was to be."""
        if exc.type != "TypeError" or "'NotImplementedType' object is not callable" not in exc.message:
            return False
        meant = _NOT_IMPLEMENTED_CALLED.match(self._raising_source(line))
        if meant is None:
            return False
        message = meant.group("message")
        return self._config_check(line, ExceptionLine("NotImplementedError", "NotImplementedError", message))

    def _remote_code_meets_another_transformers(self, line: Line, exc: ExceptionLine) -> bool:
        """transformers refusing how the model's own code (remote code run with trust_remote_code,
        from transformers_modules) called it: arguments it does not take, or an attribute it no
        longer has. That code was written for another transformers release."""
        if exc.type not in ("TypeError", "AttributeError", "ValueError"):
            return False
        if exc.type == "ValueError" and not _ABOUT_ARGUMENTS.search(exc.message):
            return False
        raised = self._raising_frame(line)
        if raised is None or raised.package != "transformers":
            return False
        key = line.worker.key()
        own = self._own_frame.get(key)
        if key not in self._entered or own is None:
            return False
        path = own[1].path.replace("\\", "/")
        if "/transformers_modules/" not in path:
            return False
        from verl_doctor.engine.fallbacks import Fallback, an

        name = path.rsplit("/", 1)[-1]
        basis = f"{an(exc.type)} raised by transformers when the model's own code ({name}) called it"
        return self._credit(line, Fallback("ENV010", {"remote_code": name}, basis))

    def _python_internals_changed(self, line: Line, exc: ExceptionLine) -> bool:
        """An AttributeError on one of the interpreter's own objects (a code object's `co_*`,
        a frame's `f_*`), or on a module of Python's own library that no longer has the name
        (`module 'pkgutil' has no attribute 'ImpImporter'`, removed in Python 3.12), raised in an
        installed package's code (dill, an old setuptools' pkg_resources): that package's release
        was written for another Python."""
        if exc.type != "AttributeError":
            return False
        gone = _STDLIB_NAME_GONE.search(exc.message)
        if not (
            _INTERPRETER_ATTRIBUTE.search(exc.message) or (gone and gone["module"] in sys.stdlib_module_names)
        ):
            return False
        raised = self._raising_frame(line)
        if raised is None or raised.package in (None, "verl"):
            return False
        from verl_doctor.engine.fallbacks import version_mismatch

        package = raised.package
        what = f"Python's own module {gone['module']}" if gone else "the interpreter's own objects"
        basis = f"an AttributeError on {what} in {package}'s code: a {package} release for another Python"
        return self._credit(line, version_mismatch(package, None, basis))

    def _own_module_missing(self, line: Line, exc: ExceptionLine) -> bool:
        """A module no package of the stack is called that a user's file verl loads by path
        imports (`from reward_utils import ...` in the reward file): most likely a module of the
        user's own beside that file, which the path verl loads it by does not put on sys.path."""
        if exc.type not in ("ModuleNotFoundError", "ImportError"):
            return False
        module = self._user_module.get(line.worker.key())
        if module is None or not 0 <= line.number - module[0] <= RAISED_WITHIN + 1:
            return False
        from verl_doctor.engine.fallbacks import Fallback, known_package, missing_module_name

        name = missing_module_name(exc.message)
        if name is None or known_package(name.split(".")[0]) is not None:
            return False
        if not self._loaded_by_path(line, module[1]):
            return False  # a module imported by name: its missing import may be any package
        basis = f"a {exc.type} for {name}, which {module[1]} imports and no known package provides"
        return self._credit(line, Fallback("CFG008", {"sibling": name, "module_path": module[1]}, basis))

    def _loaded_by_path(self, line: Line, path: str) -> bool:
        """Whether verl was told to load the user's file `path` by its path: the run's overrides
        name it, or a verl frame that loads files by path (get_custom_reward_fn, load_extern_type)
        runs just above it."""
        for value in self.context.overrides.values():
            given = value.strip("'\"")
            if given.endswith(".py") and (path == given or path.endswith("/" + given.lstrip("./"))):
                return True
        frames = self._frames.get(line.worker.key(), ())
        return any(
            0 <= line.number - number <= FRAME_LOOKBACK and fr.func in _LOADS_BY_PATH for number, fr in frames
        )

    def _user_module_failed(self, line: Line, exc: ExceptionLine) -> bool:
        """An exception raised while Python imported a user's own file (the frames show the
        import machinery running that file's module code): the custom file verl was told to load
        (a reward function, a tool, a dataset class) fails on import, whatever it raised."""
        module = self._user_module.get(line.worker.key())
        if module is None or not 0 <= line.number - module[0] <= FRAME_LOOKBACK:
            return False
        # (verl's code above the import: a file the user's own code imports is the user's code)
        frames = self._frames.get(line.worker.key(), ())
        if not any(0 < module[0] - number <= FRAME_LOOKBACK for number, _ in frames):
            return False
        from verl_doctor.engine.fallbacks import Fallback

        basis = f"{exc.type} raised while Python imported {module[1]}"
        return self._credit(line, Fallback("CFG008", {"module_path": module[1]}, basis))

    def _remember_unknown(self, line: Line, exc: ExceptionLine) -> None:
        """Keep an exception no rule knows (counted once per message), unless what was running
        when it was raised places it."""
        fp = fingerprint(exc.type, exc.message)
        if fp in self._answered_fps:
            return  # the same exception again, in a wrapper (Hydra's `Error in call to target`)
        known = self._unknown.get(fp)
        if known is not None:
            known.count += 1 + line.repeats
            return
        if len(self._unknown) >= MAX_UNRECOGNIZED:
            return
        phase, detail = self._phase_for(line)
        if self._file_error_while_saving(line, exc, phase) or self._unreadable_while_resuming(
            line, exc, phase
        ):
            return
        frames = self._frames.get(line.worker.key())
        deepest = None
        if frames:
            number, fr = frames[-1]
            if 0 <= line.number - number <= FRAME_LOOKBACK:
                deepest = f"{short_path(fr.path)}:{fr.line} in {fr.func}"
        last = self._last_frame(line)
        raised = last is not None and 0 <= line.number - last[0] <= RAISED_WITHIN
        raised_in = last[1].package if last is not None and raised else None
        starting = False
        if last is not None and raised:
            from verl_doctor.engine.fallbacks import starts_up

            callers = self._caller.get(line.worker.key(), ())
            starting = any(starts_up(func) for func in (*callers, last[1].func))
        self._unknown[fp] = Unknown(
            line,
            exc,
            1 + line.repeats,
            phase,
            deepest or detail,
            self._peer_lost(line, exc),
            raised_in,
            starting,
        )

    def _peer_lost(self, line: Line, exc: ExceptionLine) -> bool:
        """Whether an exception only says the process at the other end went away or failed: a
        client's lost connection, a server's own failure its client saw (an HTTP 5xx: the cause is
        in the server's log), or a message cut short while it was received (`pickle data was
        truncated` in a socket's recv: the sender died mid-send)."""
        if (
            exc.type in _PEER_LOST
            or (exc.type.endswith(("ClientResponseError", "HTTPError")) and _GATEWAY_LOST.search(exc.message))
            or SERVER_FAILED.search(f"{exc.type}: {exc.message}")
            or _GLOO_PEER_GONE.search(exc.message)
        ):
            return True
        if not (exc.type.endswith("UnpicklingError") and "truncated" in exc.message):
            return False
        last = self._last_frame(line)
        return last is not None and 0 <= line.number - last[0] <= RAISED_WITHIN and "recv" in last[1].func

    def _config_class_refused(self, line: Line) -> None:
        """Hydra building one of verl's config classes (verl >= 0.8 checks settings in the
        dataclasses' __post_init__) prints the refusal on the line after its wrapper, as
        `ValueError('...')`: that refusal, in that config module, is verl's config check speaking;
        an error it cannot place is kept as an unknown exception, not dropped with the wrapper."""
        target = _HYDRA_TARGET.search(line.text)
        inner_text = message_of(line.follow.lstrip("\n").split("\n", 1)[0])
        inner = _INNER_CALL.match(inner_text)
        if target is None or inner is None:
            return
        # (a message a rule knows, signature or clue, is that rule's to answer on its own line)
        known = self.memo.verdict(inner_text, False, line)
        if known is not None and (
            any(spans is not None and not warning for _, spans, warning in known.sigs)
            or any(
                hit and len(rule.clues[t.index].patterns) == 1
                for (rule, t), hit in zip(known.clues, known.clue_hits, strict=True)
            )
        ):
            return
        exc_type = inner.group("type")
        message = (inner.group("msg") or "").replace("\\'", "'").replace('\\"', '"')
        fp = fingerprint(exc_type, message)
        if fp in self._unknown or fp in self._answered_fps:
            # (the error's own traceback, printed above the wrapper, said who raised it: a
            # tokenizer's check inside the config class's __post_init__ is the tokenizer's)
            return
        module, _, cls = target.group("target").rpartition(".")
        checked = exc_type in _REFUSAL_TYPES and cls.endswith("Config")
        path = "/" + module.replace(".", "/") + ".py"
        if checked and not message.strip() and self._bare_refusal_of_set_values(line, cls):
            return
        if exc_type == "AttributeError" and self._attribute_the_run_set(line, message):
            return
        self._class_refused(
            line, exc_type, message, message, path, "__post_init__", "verl" if checked else None
        )

    def _bare_refusal_of_set_values(self, line: Line, cls: str) -> bool:
        """verl's config class refusing with a bare `assert` (`AssertionError()`, no words) under
        the part of the config Hydra names (`full_key: optim`): the values this run set there are
        what it refused."""
        full = _full_key(line.follow)
        if full is None:
            return False
        options = self._overrides_under(full)
        if not options:
            return False
        from verl_doctor.engine.fallbacks import Fallback

        basis = f"verl's {cls} refused its values with a bare assert; this run set {', '.join(options[:4])}"
        return self._credit(line, Fallback("CFG014", {"options": ", ".join(options[:4])}, basis))

    def _overrides_under(self, section: str) -> list[str]:
        """The keys this run set in a part of the config (`optim` -> `optim.lr`, ...), or the part."""
        return [k for k in self.context.overrides if k == section or k.startswith(section + ".")]

    def _attribute_the_run_set(self, line: Line, message: str) -> bool:
        """Building the part of the config Hydra names (`full_key: actor_rollout_ref.model`) failed
        on an attribute that one of this run's overrides under that part sets
        (`+...override_config.rope_scaling.type=yarn`, then `'dict' object has no attribute
        'type'`): that override does not fit what it sets."""
        m = _OBJECT_HAS_NO.search(message)
        full = _full_key(line.follow)
        if m is None or full is None:
            return False
        section, attr = full, m.group("attr")
        options = [k for k in self._overrides_under(section) if k.endswith("." + attr)]
        if not options:
            return False
        from verl_doctor.engine.fallbacks import Fallback

        basis = (
            f"Hydra building {section}, which failed on {attr!r}, an attribute this run set with {options[0]}"
        )
        return self._credit(line, Fallback("CFG014", {"options": ", ".join(options[:4])}, basis))

    def _class_refused(
        self, line: Line, exc_type: str, message: str, shown: str, path: str, func: str, package: str | None
    ) -> None:
        """A config class of `package` refused to be built with `message`: that library's config
        check speaking when its words say so; else an unknown exception (shown as `shown`)."""
        from verl_doctor.engine.fallbacks import STACK_PACKAGES, config_check

        exc = ExceptionLine(exc_type, exc_type, shown)
        if package in STACK_PACKAGES:
            options = self._options_named(message) if package == "verl" else []
            found = config_check(exc_type, message, path, func, options, package)
            directed = self._setting_directed(message)
            if self._credit_settings_check(line, exc, found, package, directed, message):
                return
        self._remember_unknown(line, exc)

    def _validation_refused(self, line: Line) -> bool:
        """pydantic refusing to build a config class (vLLM >= 0.10's configs are pydantic
        dataclasses) prints `ValidationError: 1 validation error for SpeculativeConfig` and the
        refusal on the lines after it: `  Value error, <message> [type=value_error, ...]`, or a
        field's name and `  Input should be ...`. That refusal is the library's config check
        speaking; False when the lines after it are not one."""
        from verl_doctor.engine.fallbacks.wording import EXCHANGE_REFUSED

        text, follow = line.text, line.follow.lstrip("\n")
        said = _validator_said(follow)
        if said is None and len(line.raw) >= WRAPPED_WIDTH:
            # (a terminal's wrap cut the class's name: `... for SchedulerCo` / `nfig`, the
            # refusal on the lines after that piece)
            first, _, rest = follow.partition("\n")
            piece = _NAME_PIECE.match(message_of(first))
            if piece is not None and (said := _validator_said(rest)) is not None:
                text += piece[1]
        cls = _VALIDATION_FOR.search(text)
        if cls is None or said is None or EXCHANGE_REFUSED.search(text):
            return False
        exc_type, message = said
        last = self._last_frame(line)
        package = last[1].package if last is not None and 0 <= line.number - last[0] <= 8 else None
        path = last[1].path if last is not None else ""
        where = f"{cls['cls']}.__post_init__"  # pydantic runs the validators as the class is built
        self._class_refused(line, exc_type, message, f"{cls['cls']}: {message}", path, where, package)
        return True

    def _raising_source(self, line: Line) -> str:
        """The source line Python printed under the innermost frame of `line`'s worker: the
        statement that raised (any statement: a lookup or a call as well as a raise)."""
        return _code_line(self._frame_follow.get(line.worker.key(), ""), any_statement=True)

    def _raising_frame(self, line: Line) -> Frame | None:
        """The frame that raised the exception on `line`: the innermost one, just above it."""
        last = self._last_frame(line)
        return last[1] if last is not None and 0 <= line.number - last[0] <= RAISED_WITHIN else None

    def _last_frame(self, line: Line) -> tuple[int, Frame] | None:
        """The innermost frame the worker of `line` printed; else, just above it, a frame on a line
        without the worker's prefix (a wrap at a space moved the frame's path to a line of its own)."""
        last = self._innermost.get(line.worker.key())
        if last is None and line.worker.is_known():
            bare = self._innermost.get(NO_WORKER.key())
            if bare is not None and 0 <= line.number - bare[0] <= RAISED_WITHIN:
                return bare
        return last

    def _file_error_while_saving(self, line: Line, exc: ExceptionLine, phase: str | None) -> bool:
        """A file-system error (or a distributed-checkpoint error) raised under a save_checkpoint
        frame is a checkpoint that could not be written, whatever the file."""
        if phase != SAVING_CHECKPOINT or exc.type not in _SAVE_ERROR_TYPES:
            return False
        from verl_doctor.engine.fallbacks import Fallback

        # (verl before 0.5 copies the model folder's generation_config.json into each checkpoint)
        groups = {"genconfig": _GENERATION_CONFIG} if _GENERATION_CONFIG in exc.message else {}
        return self._credit(line, Fallback("FLOW012", groups, f"{exc.type} raised while {phase}"))

    def _generation_config_while_saving(self, line: Line, exc: ExceptionLine) -> bool:
        """transformers finding no generation_config.json in the model folder is the save itself
        failing when a save_checkpoint frame runs (before the path the run set is blamed); loaded
        anywhere else (an eval script, a Hub repo) it is that folder's or repo's content. So is
        GenerationConfig refusing to save the model's generation config (`GenerationConfig is
        invalid`: a value the model folder's generation_config.json holds)."""
        refused = _GENERATION_CONFIG_REFUSED.search(exc.message) is not None
        if _GENERATION_CONFIG not in exc.message and not refused:
            return False
        phase = self._phase_for(line)[0]
        if refused and phase == SAVING_CHECKPOINT:
            from verl_doctor.engine.fallbacks import Fallback

            basis = f"{exc.type}: transformers refusing to save the model's generation config while {phase}"
            return self._credit(line, Fallback("FLOW012", {"genconfig_invalid": _GENERATION_CONFIG}, basis))
        last = self._last_frame(line)
        if (
            not refused
            and phase is None
            and exc.type == "OSError"
            and (last is None or not 0 <= line.number - last[0] <= FRAME_LOOKBACK)
        ):
            # The message pasted alone, with no frame to say where: verl reads the file without a
            # fallback only when it saves a checkpoint (before 0.5); loading the model it goes on
            # without one.
            from verl_doctor.engine.fallbacks import Fallback

            basis = f"the words of an {exc.type} alone: verl before 0.5 reads that file saving a checkpoint"
            return self._credit(line, Fallback("FLOW012", {"genconfig": _GENERATION_CONFIG}, basis))
        return self._file_error_while_saving(line, exc, phase)

    def _unreadable_while_resuming(self, line: Line, exc: ExceptionLine, phase: str | None) -> bool:
        """An error of the reader itself (torch.load's unpickling, safetensors, torch's distributed
        checkpoint) raised under a load_checkpoint frame: a saved file of the checkpoint the run
        resumes from cannot be read back (cut short by a crashed save, written by another release)."""
        if phase != LOADING_CHECKPOINT:
            return False
        last = self._last_frame(line)
        if last is None or not 0 <= line.number - last[0] <= RAISED_WITHIN:
            return False
        if (
            _CHECKPOINT_READER.search(last[1].path.replace("\\", "/")) is None
            # (or a module restoring what the checkpoint saved of it, TransformerEngine's extra
            # state, refusing it: `Unsupported checkpoint format.`)
            and not (_RESTORING_STATE.search(last[1].func) and _ABOUT_SAVED_STATE.search(exc.message))
            and not self._putting_saved_state_back(line, exc)
        ):
            return False
        from verl_doctor.engine.fallbacks import Fallback, an, where_in

        where = where_in(last[1].path.replace("\\", "/"), last[1].package or "")
        return self._credit(line, Fallback("FLOW014", {}, f"{an(exc.type)} raised by {where} while {phase}"))

    def _putting_saved_state_back(self, line: Line, exc: ExceptionLine) -> bool:
        """torch putting the state a checkpoint holds into the model or optimizer this run built
        (its load_state_dict, with whatever code under it raising: a DTensor on another device
        mesh, a shape, a dtype): what was saved does not fit what the run is now."""
        if _THE_MACHINE.search(exc.message):
            return False
        restoring = self._restoring_state.get(line.worker.key())
        return restoring is not None and 0 <= line.number - restoring <= FRAME_LOOKBACK

    def _attribute_refusal(self, line: Line, exc: ExceptionLine) -> bool:
        """An AttributeError a library raises on purpose, in words of its own (`enable_rollout_routing_replay
        is set, but hf_config is missing ...`): a check like any other, not an attribute looked up
        in vain (`'X' object has no attribute 'y'`, which a `__getattr__` raises too)."""
        if exc.type != "AttributeError":
            return False
        if "has no attribute" in exc.message:
            # (unless the attribute is a name inside a dict the run set whole, `override_config.
            # rope_scaling={rope_type: yarn, ...}`, that verl's code set attribute by attribute)
            return any(
                self.context.overrides[key].startswith("{")
                for key in self.context.chosen_values_named_in(exc.message)
            )
        return _code_line(self._frame_follow.get(line.worker.key(), "")).startswith("raise AttributeError(")

    def _config_check(self, line: Line, exc: ExceptionLine, own: str | None = None) -> bool:
        """An error raised while a library of the stack checked its settings (the innermost frame
        is verl's, vLLM's, SGLang's, transformers' or Megatron's): a config error, its kind told
        by the message's words. One raised by Hydra composing the config is told by where."""
        last = self._last_frame(line)
        if last is None or not 0 <= line.number - last[0] <= RAISED_WITHIN:
            return False
        if last[1].package == "hydra":
            from verl_doctor.engine.fallbacks import hydra_composition

            return self._credit(line, hydra_composition(exc.type, exc.message, last[1].path, last[1].func))
        if (
            exc.type not in CONFIG_CHECK_TYPES
            and exc.type != "ZeroDivisionError"
            and not _REFUSAL_CLASS.search(exc.type)
            and not self._attribute_refusal(line, exc)
        ):
            return False
        if exc.type == "ZeroDivisionError":
            return self._divided_by_setting(line, last[1])
        if _GENERATION_CONFIG_REFUSED.search(exc.message):
            # (a save refused: what was being saved says what failed, and a traceback chained
            # under it shows that; the values it lists are the model folder's, not the run's)
            return False
        message = exc.message
        # The `raise`/`assert` statement the traceback printed, when it did: the library refused
        # on purpose, and the names it reads (`self.config.rollout.skip_tokenizer_init`) are the
        # settings it refused.
        # (an operator refusing its operands' types, `'<=' not supported between instances of 'int'
        # and 'str'`, was applied by the line Python printed, whatever it is: the names it reads,
        # `self.max_prompt_length`, are the operands)
        statement = _code_line(
            self._frame_follow.get(line.worker.key(), ""),
            any_statement=exc.type == "TypeError" and _OPERAND_TYPES.search(exc.message) is not None,
        )
        if _RELAYED.match(statement) or _RELAYS_ITS_CAUSE.match(exc.message):
            from verl_doctor.engine.fallbacks import compares_a_model_split

            # (`raise output`, `raise e`: the frame hands on an error it received, from a worker
            # or an engine it called; that error's own traceback, where the log has it, says who
            # refused, not this frame's code; only words that send the user to a setting, or hold
            # the model's split against a size, say it wherever they are relayed)
            if not (self._setting_directed(exc.message) or compares_a_model_split(exc.message)):
                return False
        if not message and exc.type == "AssertionError":
            # a bare `assert`: its condition says what failed (of one spread over lines, Python
            # prints the line that holds the part that failed: `config.actor.ppo_mini_batch_size`)
            message = statement or _condition_part(self._frame_follow.get(line.worker.key(), ""))
            if message and not statement and last[1].package == "verl":
                from verl_doctor.engine.fallbacks import batch_check_operand

                if self._credit(line, batch_check_operand(exc.type, last[1].path, last[1].func, message)):
                    return True
        if not message and exc.type == "NotImplementedError" and last[1].package == "verl":
            return self._value_dispatch_refused(line, last[1], statement)
        if not message:
            return False
        package = last[1].package
        from verl_doctor.engine.fallbacks import (
            COLUMN_LOOKUP,
            MODEL_CONFIG_PACKAGES,
            STACK_PACKAGES,
            config_check,
            data_field,
            npu_code,
            switched_on_refused,
            typed_value_refused,
        )

        if exc.type == "KeyError" and COLUMN_LOOKUP.search(last[1].path.replace("\\", "/")):
            caller = self._frames.get(line.worker.key())  # verl's frames: verl asked for the column
            if caller and 0 <= line.number - caller[-1][0] <= FRAME_LOOKBACK:
                return self._credit(
                    line, data_field(exc.type, message, caller[-1][1].path, column_lookup=True)
                )
        if self._credit(line, npu_code(exc.type, last[1].path, last[1].func, message)):
            return True
        if package is not None and self._verl_called(line) and not self._called_by_user_code(line, package):
            # (code verl runs for a setting, and OmegaConf checking a value against verl's typed
            # config, refuse what the run set; what a script of the user's calls them with is its own)
            if self._credit(
                line, switched_on_refused(exc.type, last[1].path, last[1].func, self.context.overrides)
            ):
                return True
            field = _full_key(line.follow)
            set_keys = self.context.set_keys_named_in(field) if field else []
            if self._credit(line, typed_value_refused(exc.type, message, last[1].path, field, set_keys)):
                return True
        if package not in STACK_PACKAGES:
            return False
        raised_at = self._raising_source(line)
        if package == "verl" and self._credit(
            line, data_field(exc.type, message, last[1].path, code=raised_at)
        ):
            return True
        if package == "verl":
            from verl_doctor.engine.fallbacks import patched_library_changed

            if self._credit(line, patched_library_changed(message, last[1].path, last[1].func)):
                return True
        if exc.type in ("RuntimeError", "NotImplementedError", "AttributeError") and not self._options_named(
            message
        ):
            from verl_doctor.engine.fallbacks import api_gone

            if self._credit(line, api_gone(exc.type, message, package)):
                return True
        if package == "verl" and exc.type == "ValueError":
            from verl_doctor.engine.fallbacks import engine_result_changed

            if self._credit(line, engine_result_changed(message, last[1].path, raised_at)):
                return True
        # (what the user's own code passed a library while running it, `config.get_text_config()`,
        # is that code's doing, whichever library refuses it)
        # (unless the refusal names a setting of the run that decides it, whoever made the call:
        # `Please increase your `--max-loras-per-batch``, a flag verl passes the engine)
        directed = self._setting_directed(message)
        if self._called_by_user_code(line, package) and not directed:
            return False
        if self._caller_passed_it(line, message):
            return False
        if (
            package in MODEL_CONFIG_PACKAGES
            and not self.context.set_keys_named_in(message)
            and not self._verl_applies_overrides(line)
        ):
            from verl_doctor.engine.fallbacks import builds_the_model_config, model_config_refused

            callers = self._caller.get(line.worker.key(), ())
            if builds_the_model_config(last[1].path, last[1].func, callers):
                return self._credit(line, model_config_refused(exc.type, message, package))
        # The options are those the exception's own line names: the lines read as its wrapped
        # rest may be another record's (a paste's last line, then the next run's command).
        if package == "verl":
            options = self._options_named(message if own is None else own, statement)
        else:
            # (and the keys this run set that the refusal names: `betas must be ...` for
            # actor.optim.betas, a value verl passed on to the library)
            options = _feature_options(message)
            options += [k for k in self.context.set_keys_named_in(message) if k not in options]
            options += [k for k in self._attention_chosen(last[1].path) if k not in options]
        called_by = "\n".join(self._caller.get(line.worker.key(), ()))
        found = config_check(exc.type, message, last[1].path, last[1].func, options, package, called_by)
        return self._credit_settings_check(line, exc, found, package, directed, message)

    def _credit_settings_check(
        self,
        line: Line,
        exc: ExceptionLine,
        found: Fallback | None,
        package: str,
        directed: bool,
        message: str,
    ) -> bool:
        """Credit a library's check of its settings as a value of the run, unless a script of the
        user's called that library with no verl code in the traceback; a rollout engine's is
        remembered for the verl-ran check at the end (`_library_settings_without_verl`)."""
        if (
            found is not None
            and found.code in _VERL_VALUE_CODES
            and not (directed and self._directed_at_the_run(message))
            and self._outside_verl(line, package)
        ):
            return False
        credited = self._credit(line, found)
        from verl_doctor.engine.fallbacks.packages import ROLLOUT_ENGINES

        if credited and found is not None and found.code in _VERL_VALUE_CODES and package in ROLLOUT_ENGINES:
            # (the engines are also served and scripted on their own, outside any verl run; only
            # the credit that leads its finding is kept, not every rank's copy of it)
            state = self.states.get(found.code)
            if state is not None and state.first is line:
                self._library_settings_read.append((found.code, line, exc))
        return credited

    def _verl_ran(self) -> bool:
        """Whether the log shows verl running: its code in a traceback, its command line or
        overrides, or one of its Ray actors printing a line or wrapping an error."""
        return (
            self._verl_seen
            or self.context.entry_point is not None
            or bool(self.context.overrides)
            or any(is_verl_actor(env.actor) for _, env in self._envelopes)
        )

    def _library_settings_without_verl(self) -> None:
        """A rollout engine's refusal of its settings credited as a value of the run, in a log
        where nothing shows verl running (`vllm serve`, `python -m sglang.launch_server`, a user's
        script building an engine): the values are that command's or script's, not verl's
        config; the exception stays unrecognized."""
        reads, self._library_settings_read = self._library_settings_read, []
        for code, line, exc in reads:
            state = self.states.get(code)
            if state is None or state.first is not line or not state.basis.startswith("exception"):
                continue  # (a rule's own message, or another reading, leads the finding)
            if self._verl_ran():
                continue
            del self.states[code]
            fp = fingerprint(exc.type, exc.message)
            self._answered_fps.discard(fp)
            self._remember_unknown(line, exc)
            unknown = self._unknown.get(fp)
            if unknown is not None:
                unknown.count = max(unknown.count, state.count)

    def _directed_at_the_run(self, message: str) -> bool:
        """Whether the setting a refusal directs is one of the run's: an engine's flag or a
        variable of the environment, or an option the run set. A user's code building a
        library's object itself (`GenerationConfig(...)` told "`do_sample` must be set to
        `False`") is directed at that code, whatever verl option shares the name."""
        from verl_doctor.engine.fallbacks import directed_option

        option = directed_option(message)
        if option is None or option.startswith("--") or option.isupper():
            return True
        return bool(self.context.set_keys_named_in(option))

    @staticmethod
    def _setting_directed(message: str) -> bool:
        """Whether a refusal tells the user to change a setting of the run (a rollout engine's
        flag, an environment variable or one of verl's options, not an argument of the code that
        called: `set use_dora to False`), or names a command-line flag it refuses."""
        from verl_doctor.catalog.verl_keys import keys_named_in
        from verl_doctor.engine.fallbacks import directed_option, named_flag

        option = directed_option(message)
        if option is None:
            # a command-line flag the refusal names is a setting, whoever passed it
            return named_flag(message)
        return option.startswith("--") or option.isupper() or bool(keys_named_in(option))

    def _section_set_to_a_value(self, line: Line, exc: ExceptionLine) -> bool:
        """A part of verl's config the run set to one value (`algorithm.kl_ctrl=adaptive`), read
        as the section it was (`'str' object has no attribute 'type'`): Hydra replaced the
        whole section by that value; the key meant is one of its options (algorithm.kl_ctrl.type)."""
        if exc.type != "AttributeError":
            return False
        m = _SCALAR_HAS_NO.search(exc.message)
        if m is None:
            return False
        from verl_doctor.catalog.verl_keys import known
        from verl_doctor.engine.fallbacks import Fallback

        for key, value in self.context.overrides.items():
            meant = f"{key.lstrip('+')}.{m.group('attr')}"
            if known(meant):
                attr = m.group("attr")
                basis = f"an AttributeError reading {attr} of {key}={value}, a section set to one value"
                return self._credit(line, Fallback("CFG014", {"options": f"{key} (meant: {meant})"}, basis))
        return False

    def _mapping_given_as_text(self, line: Line, exc: ExceptionLine) -> bool:
        """A part of the config the run gave as a quoted mapping (`override_config="{a: b}"`: the
        quotes make Hydra keep the text), read as the mapping it was meant to be (`'str' object
        has no attribute 'get'`): that setting's value is text, not a mapping."""
        if exc.type != "AttributeError":
            return False
        m = _SCALAR_HAS_NO.search(exc.message)
        if m is None or m.group("attr") not in _MAPPING_METHODS:
            return False
        quoted = [
            k
            for k, v in self.context.overrides.items()
            if v[:1] in "'\"" and v[1:2] in "{[" and v[-1:] == v[:1]
        ]
        if len(quoted) != 1:
            return False
        from verl_doctor.engine.fallbacks import Fallback

        basis = f"an AttributeError reading {quoted[0]} as a mapping, which the run gave as quoted text"
        return self._credit(line, Fallback("CFG014", {"options": quoted[0]}, basis))

    def _reward_function_not_given(self, line: Line, exc: ExceptionLine) -> bool:
        """verl calling a reward function that is None (`reward_fn(data_source, r, ground_truth)`:
        `'NoneType' object is not callable`): the config names no custom reward function where
        the entry point needs one (main_eval scores only with custom_reward_function)."""
        if exc.type != "TypeError" or "'NoneType' object is not callable" not in exc.message:
            return False
        raised = self._raising_frame(line)
        if raised is None or raised.package != "verl":
            return False
        code_line = self._raising_source(line)
        called = _CALLED_NAME.search(code_line)
        if called is None or not _REWARD_CALLABLE.search(called.group("name")):
            return False
        from verl_doctor.engine.fallbacks import Fallback

        basis = f"a TypeError calling {called.group('name')}, which is None: no reward function was given"
        groups = {"key": "custom_reward_function.path", "reward_fn": called.group("name")}
        return self._credit(line, Fallback("CFG011", groups, basis))

    def _verl_applies_overrides(self, line: Line) -> bool:
        """Whether verl was writing the run's model overrides (model.override_config) into the
        model's config when the library refused: the value is the run's, not the model folder's."""
        frames = self._frames.get(line.worker.key(), ())
        return any(
            0 <= line.number - number <= FRAME_LOOKBACK and fr.func in _APPLIES_MODEL_OVERRIDES
            for number, fr in frames
        )

    def _name_held_in_a_variable(self, line: Line, code: str) -> bool:
        """Whether rule `code` reads the attribute a module lacks as another release of it, but
        the code looked it up by a name held in a variable (`getattr(torch.optim,
        config.optimizer)`): that name came from a setting or the data, so no release of the
        module is to blame. A name read from the config is that setting's value, refused."""
        from verl_doctor.engine.fallbacks import VERSION_MISMATCH_CODES, Fallback

        if code not in VERSION_MISMATCH_CODES:
            return False
        lacking = _LACKING.search(line.text)
        if lacking is not None and lacking.group(0) in self._looked_up_by_value:
            return True  # the same lookup again, in a wrapper's words (Hydra's, a Ray envelope)
        raised = self._raising_frame(line)
        if raised is None:
            return False
        code_line = self._raising_source(line)
        if raised.func == "__getattr__":
            # (a module's own attribute hook, torch's `__getattr__`, raised for the lookup its
            # caller made: `getattr(torch, self.dtype)`)
            code_line = _code_line(self._caller_follow.get(line.worker.key(), ""), any_statement=True)
        m = _LOOKED_UP_BY_VALUE.search(code_line)
        if m is None:
            return False
        if lacking is not None and len(self._looked_up_by_value) < MAX_LOOKUPS:
            self._looked_up_by_value.add(lacking.group(0))
        read = _CONFIG_READ.search(m.group("name"))
        if read is not None:
            basis = f"an AttributeError looking up the name {m.group('name')} holds, a setting's value"
            self._credit(line, Fallback("CFG014", {"options": read.group("path")}, basis))
            return True
        self._user_module_lacks_name(line, line.text, looked_up=True)
        return True

    def _user_module_lacks_name(self, line: Line, message: str, looked_up: bool = False) -> bool:
        """verl looking up, by a name a config file gives (a tool's `class_name`, a custom class's
        path), an attribute that a module of the user's own lacks: that name is not in the user's
        module (CFG008). `looked_up`: the raising line is already known to be such a lookup."""
        from verl_doctor.engine.fallbacks import NO_ATTRIBUTE, Fallback, known_package

        lacking = NO_ATTRIBUTE.search(message)
        if lacking is None:
            return False
        module = lacking["module"] or lacking["module2"]
        if not module or known_package(module.split(".")[0]):
            return False
        if not looked_up:
            raised = self._raising_frame(line)
            if raised is None or raised.package != "verl":
                return False
            code_line = self._raising_source(line)
            m = _LOOKED_UP_BY_VALUE.search(code_line)
            if m is None or _CONFIG_READ.search(m.group("name")):
                return False
        name = lacking["name"] or lacking["name2"]
        basis = f"an AttributeError looking up a name a config gives in the user's module {module}"
        return self._credit(line, Fallback("CFG008", {"looked_up": module, "object_name": name}, basis))

    def _missing_by_its_own_words(self, line: Line, text: str, spans: dict[str, Any]) -> bool:
        """A package saying it is not installed from inside its own code (`FlashAttention is not
        installed`, asserted in flash_attn/modules/mha.py): the package imported, its compiled
        extension did not load; a build for another torch (ENV006), not a package to install."""
        named = groups_at(text, spans).get("module")
        raised = self._raising_frame(line)
        if not named or raised is None:
            return False
        from verl_doctor.engine.fallbacks import Fallback, known_package

        package = raised.package
        if package is None or package == "verl" or known_package(named) != package:
            return False
        basis = (
            f"{package} saying from its own code that it is not installed (its compiled part did not load)"
        )
        return self._credit(line, Fallback("ENV006", {"ext": package}, basis))

    def _verl_called(self, line: Line) -> bool:
        """Whether verl's code is in the traceback of the exception on `line`, just above it."""
        frames = self._frames.get(line.worker.key(), ())
        return any(0 <= line.number - number <= FRAME_LOOKBACK for number, _ in frames)

    def _outside_verl(self, line: Line, package: str) -> bool:
        """Whether a script of the user's called another library with no verl code anywhere in
        the traceback (a script building a PEFT model itself): the values it refused are the
        script's, not a setting of verl's config."""
        if package == "verl" or line.worker.key() not in self._entered:
            return False
        return not self._verl_called(line)

    def _called_by_user_code(self, line: Line, package: str) -> bool:
        """Whether the library that raised was called by the user's own code with values of its
        own: code plugged into a library (a custom loss building verl's Metric), or a script
        calling a library while it runs (`engine.async_generate(...)`, `model.merge_and_unload()`)
        rather than building it from settings. What such a check refuses is that code's doing."""
        entered = self._entered.get(line.worker.key())
        if entered is None:
            return False
        func, plugged, _ = entered
        from verl_doctor.engine.fallbacks import starts_up

        # (a script calling verl's own functions hands them values of the run's config, `rollout.n`
        # samples to group; what it passes that is no setting, an object of the wrong class, is
        # read by the words)
        return plugged or (package != "verl" and not starts_up(func))

    def _caller_passed_it(self, line: Line, message: str) -> bool:
        """Whether the user's code that called the library wrote the refused value into its call:
        a keyword the message names given a literal (`GenerationConfig(..., do_sample=True)`
        refused with "`do_sample` must be set to `False`"), or a quoted literal the message
        repeats (`engine.to('meta')`, "Invalid device type: meta"). That value is the script's,
        not a setting of the run, even when its name is also one of verl's options."""
        entered = self._entered.get(line.worker.key())
        if entered is None:
            return False
        call = _code_line(entered[2], any_statement=True)
        if not call:
            return False
        for m in _LITERAL_ARGUMENT.finditer(call):
            keyword, literal = m.group("kw"), m.group("lit").strip("'\"")
            if keyword and len(keyword) > 2 and _word_in(keyword, message):
                return True
            if m.group("lit")[0] in "'\"" and len(literal) > 1 and _word_in(literal, message):
                return True
        return False

    def _note_config_read(self, line: Line, follow: str) -> None:
        code = _code_line(follow, any_statement=True)
        if _CONFIG_READ.search(code):
            self._config_read[line.worker.key()] = (line.number, code)

    def _value_dispatch_refused(self, line: Line, frame: Frame, statement: str) -> bool:
        """A bare `raise NotImplementedError` in verl, called by verl code that passed it a part of
        the config (`get_kl_controller(self.config.algorithm.kl_ctrl)`): the end of a dispatch on
        a config value (older verl's KL controllers, advantage estimators, losses) that met a
        value it does not know."""
        if statement.replace("()", "") != "raise NotImplementedError":
            return False
        from verl_doctor.engine.fallbacks import Fallback

        read = self._config_read.get(line.worker.key())
        if read is None or not 0 <= line.number - read[0] <= FRAME_LOOKBACK:
            # A training strategy this run set that no verl release has (`strategy=fsdp_v2`):
            # older verl's entry point ends its dispatch on it in a bare NotImplementedError.
            unknown = [
                k
                for k, v in self.context.overrides.items()
                if k.endswith(".strategy") and v.strip("'\" ") not in _VERL_STRATEGIES
            ]
            if len(unknown) == 1:
                basis = f"a bare NotImplementedError raised by verl in {frame.func}; {unknown[0]} is unknown"
                return self._credit(line, Fallback("CFG014", {"options": unknown[0]}, basis))
            if frame.func != "__init__":
                return False
            # Raised by a constructor itself (older verl's RayPPOTrainer choosing by
            # algorithm.adv_estimator): the end of a dispatch on a value it is built with.
            where = frame.path[frame.path.rfind("/verl/") + 1 :]
            basis = (
                f"a bare NotImplementedError raised by verl's constructor in {where}: a value it "
                "dispatches on that this verl release does not implement"
            )
            return self._credit(line, Fallback("CFG014", {}, basis))
        paths = [m.group("path") for m in _CONFIG_READ.finditer(read[1])]
        path = paths[-1]
        # The run's own overrides under that part of the config are the values it refused.
        options = [k for k in self.context.overrides if k == path or k.startswith(path + ".")] or [path]
        basis = (
            f"a bare NotImplementedError raised by verl in {frame.func}, called with {path} of the "
            f"config; it names {', '.join(options[:4])}"
        )
        return self._credit(line, Fallback("CFG014", {"options": ", ".join(options[:4])}, basis))

    def _attention_chosen(self, path: str) -> list[str]:
        """The run's attn_implementation when the refusal comes from the attention code that
        choice runs: transformers dispatches attn_implementation=<impl> to its
        integrations/<impl>_attention.py (flash, sdpa, flex, a hub kernel's name)."""
        m = _ATTENTION_CODE.search(path.replace("\\", "/"))
        if m is None:
            return []
        return [
            key
            for key, value in self.context.overrides.items()
            if key.endswith("attn_implementation")
            and m["impl"] in value.strip("'\" ").lower().rsplit("/", 1)[-1]
        ]

    def _options_named(self, message: str, statement: str = "") -> list[str]:
        """verl's config options that an error of verl names: keys of the shipped lists in its
        message or read in its raising statement, and keys this run set that it names."""
        from verl_doctor.catalog.verl_keys import keys_named_in

        # (a config printed after the words names every key it holds, not the one refused)
        message = _PRINTED_MAPPING.split(message, 1)[0]
        options = keys_named_in(message)
        said = _SPEAKER_TAG.sub("", message, count=1)
        for key in keys_named_in(statement, code=True) + self.context.set_keys_named_in(
            f"{said} {statement}"
        ):
            if key not in options:
                options.append(key)
        return options

    def _credit(self, line: Line, found: Fallback | None) -> bool:
        """Record an answer from the exception's class and names; False when there is none."""
        if found is None:
            return False
        rule = self._rule_by_id(found.code)
        if rule is None:
            return False
        self._record(rule, line, "medium", dict(found.groups), basis=f"exception: {found.basis}")
        return True

    def _fallback(self, line: Line, exc: ExceptionLine | None) -> bool:
        """Credit an exception no signature knows to the rule its class and names point at."""
        from verl_doctor.engine.fallbacks import classify as classify_exception

        found = classify_exception(exc.message if exc else line.text, exc.type if exc else None)
        if found is not None and found.code == "ENV007" and exc is not None:
            # A GPU-gated feature this run chose by name (`attention_backend=trtllm_mha` refused
            # on Hopper): the choice is what to change; a default the GPU cannot run stays ENV007.
            chosen = self.context.chosen_values_named_in(exc.message)
            if chosen:
                from verl_doctor.engine.fallbacks import Fallback, an

                key = chosen[0]
                value = self.context.overrides[key]
                basis = f"{an(exc.type)} refusing on this GPU what this run chose, {key}={value}"
                found = Fallback("CFG014", {"options": ", ".join(chosen)}, basis)
        return self._credit(line, found)

    def _answer_instead(self, found: str, code: str, groups: dict[str, str]) -> None:
        """What the whole log shows replaces the answer of rule `found` with rule `code`'s, on
        the same line and as sure (the run's overrides say what the message meant)."""
        state, rule = self.states.get(found), self._rule_by_id(code)
        if state is None or state.first is None or rule is None:
            return
        del self.states[found]
        self._record(rule, state.first, state.first_conf, groups)

    def _rule_by_id(self, code: str) -> Rule | None:
        if self._rule_index is None:  # built when first asked: rules load lazily
            self._rule_index = {r.id: r for r in self.catalog.rules}
        return self._rule_index.get(code)

    def _divided_by_setting(self, line: Line, frame: Frame) -> bool:
        """A division by zero in verl's code, on a source line that reads config values: one of
        those settings is 0 (or was derived as 0, such as a per-GPU share of a batch)."""
        if frame.package != "verl":
            return False
        code = self._raising_source(line)
        if not code:
            return False
        from verl_doctor.catalog.verl_keys import keys_named_in
        from verl_doctor.engine.fallbacks import divided_by_setting

        options = keys_named_in(code, code=True)
        return self._credit(line, divided_by_setting(code, frame.path, frame.func, options))


def _full_key(follow: str) -> str | None:
    """The part of the config Hydra's wrapper names on a line of its own (`full_key: optim`),
    behind whatever prefix the log gives its lines (a worker's, a timestamp, a quote)."""
    for text in follow.split("\n"):
        m = _FULL_KEY.fullmatch(message_of(text))
        if m is not None:
            return m.group("key")
    return None


# `import a.b, c as d` / `from a.b import c`: the modules a statement imports.
_IMPORT_STATEMENT = lazy_compile(r"^\s*(?:from\s+(?P<from>[\w.]+)\s+import\b|import\s+(?P<names>[\w., ]+))")


def _imported_names(statement: str) -> set[str]:
    """The top-level modules an `import` statement (a frame's source line) imports."""
    m = _IMPORT_STATEMENT.match(_code_line(statement, any_statement=True))
    if m is None:
        return set()
    if m["from"]:
        return {m["from"].split(".")[0]}
    return {part.split()[0].split(".")[0] for part in m["names"].split(",") if part.strip()}


def _module_name_of(path: str) -> str | None:
    """The module a single file is imported as (`~/rl/copy.py`: copy); None for a package's
    `__init__.py`, which is a whole package (a copy of one installed elsewhere, with --target)."""
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    if not name.endswith(".py") or name == "__init__.py":
        return None
    return name[:-3]


def is_zero(value: str) -> bool:
    """Whether a setting's value, as the command line gave it, is 0."""
    return value.strip("'\" ") in ("0", "0.0")


def _shadow_groups(path: str, name: str) -> dict[str, str]:
    """A rule's groups for `path`, a file of the user's shadowing the package `name`, with the
    name to rename it to."""
    folder = path[: path.rfind("/")] or "."
    return {"shadow": path, "shadowed": name, "shadow_renamed": f"{folder}/my_{name}.py"}


def _raised_after(line: Line, source: str, key: object, number: int) -> bool:
    """Whether `line` is in the same worker's traceback as line `number` of `source`, after it."""
    return line.source == source and line.worker.key() == key and 0 <= line.number - number <= FRAME_LOOKBACK
