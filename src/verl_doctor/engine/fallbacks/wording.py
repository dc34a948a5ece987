"""The words in which a library's check refuses a setting: what it names (an option, a parallel
size, a batch), what it says of it (missing, unsupported, out of range), and what it speaks of
instead (the model, a sample, the calling code)."""

from __future__ import annotations

import re

from verl_doctor.common.lazy_re import lazy_compile

# What names an option: `--dist-init-addr`, `max_model_len`, `VLLM_USE_V1`, `key=value`.
OPTION_TOKEN = lazy_compile(
    r"(?<![\w/.-])--[a-z][a-z0-9]*(?:-[a-z0-9]+)*\b|\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\b|"
    r"\b[a-z]\w*=\S|\b[a-z]+(?:-[a-z]+){2,}\b"
)


# A value the message shows it refuses: `Unsupported context parallel layout: zigzag`.
VALUE_SHOWN = lazy_compile(
    r"(?:unsupported|unknown|invalid|unrecogni[sz]ed|not supported)\b[^:\n]{0,60}: ?['\"`]?\w|"
    r"[;,.]\s*(?:but )?(?:got|gets|received):? [\[<'\"`]*[\w./~-]+|\bbut (?:was|is) [\[<'\"`]*-?\w|"
    r"\b(?:invalid|unknown|unsupported|unrecogni[sz]ed) (?:[a-z]+ ){0,4}(?:backend|mode|method|format|"
    r"strategy|policy|option|choice|dtype|precision|algorithm|estimator|scheduler|optimizer|implementation)\b|"
    r"\b(?:unknown|unsupported|invalid) [a-z]+(?: [a-z]+)? ['\"`]?[\w.-]*[_\d][\w.-]*|"
    # a quoted value that opens the message: `` `foo` is not a valid attention implementation ``
    r"^['\"]?['\"`][^'\"`\n]{1,60}['\"`] (?:is|are) not (?:an? )?"
    r"(?:valid|supported|known|recogni[sz]ed|registered)\b|"
    # a value that opens the message before the kind of choice it is: `AdamW optimizer is not
    # supported.` (Megatron's optimizer factory)
    r"^['\"`]?(?!(?:this|that|the|such|current|given|selected|your|an?|its|same)\b)[A-Za-z][\w.-]*['\"`]? "
    r"(?:backend|mode|method|format|strategy|policy|dtype|precision|algorithm|estimator|scheduler|"
    r"optimizer|implementation) (?:is|are) not (?:supported|known|implemented|recogni[sz]ed|valid)\b|"
    # the choice named by the value given: `The selected backend, ROCM_FLASH,is not MLA type`
    r"\b(?:selected|chosen|specified|requested) (?:backend|mode|method|format|strategy|policy|"
    r"implementation)s?,? ['\"`]?[A-Z][A-Z0-9_]{2,}\b|"
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
DIRECTS_AN_OPTION = lazy_compile(
    r"\b(?:set|enable|disable|turn (?:on|off)|reduce|increase|lower|raise|decrease)\s+"
    r"(?:the\s+|your\s+)?[`'\"]?"
    # (an option in code's spelling, or an engine's flag: `Please increase your `--max-loras-per-batch``)
    r"(?P<a>[a-z][a-z0-9]*(?:_[a-z0-9]+)+|--[a-z][a-z0-9]*(?:-[a-z0-9]+)+)\b|"
    # `overlap_moe_expert_parallel_comm must be enabled to ...`
    r"\b(?P<b>[a-z][a-z0-9]*(?:_[a-z0-9]+)+)[`'\"]? (?:must|should|needs? to|has to) be (?:enabled|disabled|"
    r"turned (?:on|off)|set to)\b|"
    # an environment variable to set: `Set VLLM_USE_V1=0 to use another attention backend`
    r"\b(?:set|export)\s+[`'\"]?(?P<c>[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)=\S",
    re.I,
)


# A refusal that says to change the model's own config.json (`please modify the config.json to set
# num_nextn_predict_layers to 0`): what it directs is a field of the model's files, not a setting.
MODEL_FILE_DIRECTED = lazy_compile(
    r"\b(?:modify|edit|change|update|fix)\s+(?:the\s+|your\s+)?(?:model'?s?\s+)?config\.json\b", re.I
)


# A refusal asking for a value to be set (`requires max model len to be set to 32768`).
VALUE_TO_SET = lazy_compile(r"\b(?:to be|must be|should be|needs to be) set to\b", re.I)


def directed_option(message: str) -> str | None:
    """The option a refusal says to set or change (`Please increase your `--max-loras-per-batch``
    -> `--max-loras-per-batch`), as the message spells it, or None."""
    m = DIRECTS_AN_OPTION.search(message)
    return (m["a"] or m["b"] or m["c"]) if m else None


# A rollout engine's command-line flag, as its messages spell it: `--max-running-requests`.
ENGINE_FLAG = lazy_compile(r"(?<![\w-])--[a-z][a-z0-9]*(?:-[a-z0-9]+)+\b")


def named_flag(message: str) -> bool:
    """Whether a message names a command-line flag (`--data-parallel-external-lb`)."""
    return ENGINE_FLAG.search(message) is not None


# A feature or combination the library does not support, said in so many words.
UNSUPPORTED = lazy_compile(
    r"\b(?:is|are) not (?:yet |currently )?supported|\bnot supported (?:yet|for|with|in|when)\b|"
    # `TritonMLA V1 with FP8 KV cache not yet supported`
    r"\bnot yet supported\b|"
    # `Virtual pipeline model parallelism is temporarily unsupported in FalconH1 models`
    r"\b(?:is|are) (?:temporarily |currently )?unsupported (?:in|for|with|when|by)\b|"
    r"\bdo(?:es)?(?: not|n't) (?:yet |currently )?support\b|\bnot (?:yet )?implemented\b|"
    r"\bdo(?:es)?(?: not|n't) work (?:with|when|for|in|on)\b|"
    r"\bcan(?:not|'t| not) work (?:with|when|together)\b|"
    r"\bonly (?:works?|compatible) (?:with|for|when|if|on)\b|"
    r"\bcan(?:not|'t) be used (?:with|together|when)\b|\bcan ?not use\b[^.]{0,80}\bwithout\b|"
    # the same refusal as non-native messages write it: `Llama Model not supports sharing ...`,
    # `not support vpp now`
    r"\bnot supports\b|\b(?:is|are) not support\b|^not (?:yet )?support\b|"
    r"\bnot compatible(?: with| when| in| for)?\b|\bonly supports?\b|\bsupports? only\b|"
    r"\bno (?:[\w-]+ ){0,4}supported (?:for|by)\b|"
    # (`Only varlen and flex attn masks are supported`: the choices it takes, then their noun)
    r"\bonly (?:[\w.-]+ ){1,6}(?:is |are )?supported\b|"
    r"\b(?:is|are) only supported (?:for|with|on|in|when|by)\b|"
    # a feature the code does not trust yet: `qwen2_5_vl's context parallel is not accurate yet`
    r"\b(?:is|are) not (?:accurate|correct|ready|stable|verified|tested) yet\b",
    re.I,
)


# What the model is (architecture, head size, norm or MLP type): the answer is another model or
# a newer library, not a setting.
ABOUT_THE_MODEL = lazy_compile(
    r"\barchitectures?\b|model_type|\w+For(?:CausalLM|ConditionalGeneration|SequenceClassification)\b|"
    # (a module's class, `Qwen2RMSNorm`, `MLP`; not a setting's lower-case word, `layernorm` recompute)
    r"head (?:size|dim)|(?-i:\b\w*Norm\b|\bMLP\b)|\b(?:this|the) model\b|"
    r"\b(?:this|the|that) models? (?:is|are) not|"
    r"\bpooling models?\b|\bMLA models?\b|\bMTP models?\b|\bRoPE\b|\brope_\w+|\bconfig\.json\b|"
    # a field of the model's config as a library names it (`sliding_window` argument in the config)
    r"`\w+` (?:argument|attribute|field|key) in the (?:model(?:'s)? )?config\b",
    re.I,
)


# A precision named outright (`hidden_states must be bfloat16`, `dtype`).
_DTYPE = r"\b(?:b?float16|float32|bf16|fp16|dtype)\b"
DTYPE_NAMED = lazy_compile(_DTYPE)


# A dtype named outright: a refusal that speaks of the model is still answered by choosing
# another precision (`The model type gemma2 does not support float16`).
A_SETTING_NAMED = lazy_compile(
    _DTYPE + r"|"
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
# What a sample or a tool's response holds: an image's shape, its pixels, its kind of media
# (`Multimedia type 'video' is not currently supported`, verl's agent loop reading a tool's reply).
ABOUT_A_SAMPLE = lazy_compile(
    r"\baspect ratio\b|\bpixel_values\b|\bmulti[-_ ]?modal[_ ]inputs?\b|\bmulti[-_ ]?media type\b", re.I
)


ABOUT_DATA_OR_CODE = lazy_compile(
    r"\b(?:input|token|prompt|response|position)_ids\b|non_tensor_batch|\bbatch\.keys\(\)|tool\.execute|"
    r"\btoken id \d+ is out of vocab|"
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
    r"\bgot multiple values for (?:keyword )?argument\b|"
    # a batch handed where one item goes (`RewardLoopWorker only support single data item`)
    r"\bonly supports? (?:a )?single data item\b|"
    # the names Ray actors were given by code (`invalid actor name: ...WorkerDict_0`)
    r"\binvalid actor name\b",
    re.I,
)


# A message that blames the data itself (verl's dynamic sampling giving up: `Generated too many.
# Please check if your data are too difficult.`, in older releases `... Please check your data.`):
# what the rows hold, not a setting's value.
DATA_BLAMED = lazy_compile(
    r"\bdata (?:is|are) too (?:difficult|hard|easy)\b|\bplease check your data\b", re.I
)


# An object of a class of some module where the code wanted another (`must be a dict, got
# <class 'omegaconf.dictconfig.DictConfig'>`), or a function or method passed as a value (`<bound
# method PurePath.as_uri ...>`): what the calling code passed, not a setting's value.
# A config part of another shape (a ListConfig where one value goes) may be a setting.
CODE_OBJECT_REFUSED = lazy_compile(
    r"\b(?:[Gg]ot|[Rr]eceived|[Gg]ets|type):? (?:an? )?(?:type )?"
    r"<class '(?!omegaconf\.)[A-Za-z_]\w*(?:\.\w+)+'>|"
    r"<bound method |<function [\w.<>]+ at 0x|"
    # a class a caller handed over, as the subject (`<class 'my.JudgeConfig'> must be a dataclass`)
    r"<class '(?!omegaconf\.)[A-Za-z_]\w*(?:\.\w+)+'> (?:must|should|is not|isn't|has to)\b|"
    r"<class '(?:method|function|builtin_function_or_method|module|generator|coroutine)'>|"
    # Python objects no config gives (Hydra's sequences are lists), and verl's data containers,
    # which only code hands over (`expecting {...} to be DataProto, but got <class 'dict'>`)
    r"\b(?:[Gg]ot|[Rr]eceived):? (?:an? )?(?:type )?<class '(?:tuple|set|frozenset|bytes)'>|"
    # a tensor of a type the code was handed (`Received torch.cuda.DoubleTensor`)
    r"\b(?:[Gg]ot|[Rr]eceived):? (?:an? )?torch\.(?:cuda\.)?[A-Z]\w*Tensor\b|"
    r"\b(?:to|must) be (?:an? )?(?:instance of )?`?(?:DataProto|TensorDict)\b|"
    # the kind of object a function needs handed to it (`fsdp_merge_unmerge requires FSDP module,
    # got version 0`)
    r"\brequires (?:an? )?[\w-]{1,30} (?:module|object|instance)\b|"
    r"\bmust be an? (?:dict|list)\b.{0,80}"
    r"<class 'omegaconf\.(?:dictconfig\.DictConfig|listconfig\.ListConfig)'>"
)


# A method a class must implement (`Inherit this class and implement your custom tensor_push`):
# the user's code is unfinished, whatever setting chose that class.
IMPLEMENT_IT = lazy_compile(
    r"\b(?:inherit|subclass) (?:from )?(?:this|the) class\b|\bimplement (?:your|the|a) (?:own |custom )?\w+|"
    # the library blaming how a model's code was written (`most likely due to incorrect
    # implementation of the model's get_multimodal_embeddings method`)
    r"\b(?:incorrect|wrong|faulty) implementation of\b",
    re.I,
)


# A check that says it found the library's own bug (`Something went wrong, please open an issue`):
# no setting of the run is what it refuses.
INTERNAL_BUG = lazy_compile(
    r"\b(?:open|file|report|raise) an? (?:new )?(?:github )?issue\b|\bplease report (?:this|it)\b|"
    r"\bthis (?:should never|should not|shouldn't) happen|\bthis is a bug\b",
    re.I,
)


# A download that found the server's answer short of what it needs (huggingface_hub's `etag must
# have been retrieved from server`, behind a proxy or mirror that drops headers): the network's
# doing, whichever config class was loading the model when it happened.
SERVER_ANSWER_SHORT = lazy_compile(r"\bmust have been retrieved from (?:the )?server\b")


# pydantic refusing what a server answered (`5 validation errors for ChatCompletion`, a
# `...Response`): an error body where a reply was expected, not a setting refused; or what a
# client sent it (`1 validation error for ChatCompletionRequest`, vLLM's OpenAI protocol): the
# request the calling code built (a rollout callback, a reward function), not a setting either.
# (Only the server API's request classes: verl's AsyncRolloutRequest is a sample's own state.)
EXCHANGE_REFUSED = lazy_compile(
    r"\bvalidation errors? for \w*(?:Completion|Response|Reply|Chunk|"
    r"(?:Completion|Chat|Embedding|Tokenize|Score|Rerank|Transcription|Pooling|Classification|Responses)"
    r"Request)\b"
)


# A tool probing the machine failing (SGLang's get_nvgpu_memory_capacity: `nvidia-smi error:
# Unable to determine the device handle for GPU...: Unknown Error`): a GPU in a failed state,
# whichever setting the probe was sizing.
MACHINE_PROBE_FAILED = lazy_compile(
    r"\b(?:nvidia|rocm|amd|npu)-smi (?:error|failed)\b|\bUnable to determine the device handle\b", re.I
)


# A file that does not parse (JSON, YAML, TOML): its content is broken, not a setting of the run.
FILE_DOES_NOT_PARSE = lazy_compile(
    r"\bInvalid (?:JSON|YAML|TOML)\b|\bExpecting (?:'.' delimiter|value|property name)|"
    r"\bUnterminated string\b|\bJSONDecodeError\b|\bwhile (?:scanning|parsing) a\b",
    re.I,
)


# Chat roles of a sample (`Unknown role: human`), unless an option about roles is named (kv_role).
# A check that tells the user to install or rebuild something is about the installed software,
# not a setting, even when no package is named (`Install it with tools/install_deepgemm.sh`).
INSTALL_ADVICE = lazy_compile(
    r"\b(?:re)?install (?:it|them|one|this)\b|\bpip3? install\b|\bplease (?:re)?install\b", re.I
)


CHAT_ROLE = lazy_compile(r"\broles?\b", re.I)


# The roles of a sample's chat messages, refused (`the first role must be user`, `Unknown role:
# human`), as against the roles of verl's workers (actor, rollout, ref, critic).
SAMPLE_ROLES = lazy_compile(
    r"\b(?:first|last|next|unsupported|unknown|invalid|unexpected|append(?:ing)?) (?:\w+ )?roles?\b|"
    r"\broles? must be (?:user|assistant|system|tool)\b|"
    # (a message of a role out of its place: `System message should be the first message`)
    r"\b(?:system|user|assistant|tool) messages? (?:should|must) be "
    r"(?:the )?(?:first|last|followed|preceded)\b",
    re.I,
)


WORKER_ROLES = lazy_compile(r"\b(?:actor|rollout|critic|ref|actor_rollout)\b")


# What comes before an enum's member or a module's value: `RequestStatus.`, `torch.`.
MEMBER_OF = lazy_compile(r"(?:\b[A-Z][A-Za-z0-9]*|\btorch|\bnumpy|\bnp)\.$")


# A variable printed with its value's repr (an f-string's `{req=}`): `recv_req=ExpertDistributionReq(...)`
# (one level of nested parentheses).
REPR_SHOWN = lazy_compile(r"\b[a-z]\w*=[A-Z]\w*\((?:[^()]|\([^()]*\))*\)")


# A count the code found against the one it expected (`need 64, got 48`), or flags of its own
# state (`only supported for Actor or standalone Rollout Workers, but got False and False`).
COUNT_GOT = lazy_compile(r"\b(?:got|gets|received):? (?:-?\d+(?:\.\d+)?|True|False)\b(?![.\w])")


NOT_AN_OPTION = frozenset(
    ("dict_keys", "dict_values", "__init__", "__call__", "state_dict", "from_pretrained")
)


MISSING = lazy_compile(
    # (`x must be set to use y`: y, a feature turned on, does not go with how x is set)
    # (and `x must be set to 32768`: one value x must have, which it does not)
    r"must (?:both )?be (?:explicitly |both )?(?:set|provided|specified|given)"
    # (`x and y must be set together (both None ...)`: two values held to each other, CFG014)
    r"(?! as an? | together\b|(?: in order)? to (?:use\b|(?!the\b)[\w.-]+[.,;)]?(?:\s|$)))|"
    r"must have a value(?: (?:specified|set|given|provided))?\b|"
    r"should be (?:set|provided|specified)|"
    r"to be (?:set|provided|specified)\b(?! to (?!the\b)[\w.-]+[.,;)]?(?:\s|$))|"
    # (`must contain finite values`: what the values are, not a value left out)
    r"is required|are required|(?:is|are) needed|"
    r"must contain(?! \w+ only\b)(?! (?:finite|valid|positive|non-?negative|numeric|integer)\w* values?\b)|"
    # pydantic's own words for a field a model class needs: `Field required [type=missing, ...]`
    r"\bfield required\b|"
    r"\b(?:config(?:uration)?|key|value|section|field|option|parameter|argument)s? (?:is |was )?not found\b|"
    r"please (?:set|specify|provide) at least one of|must (?:set|specify|provide)|is not set|"
    # `Please specify `target_modules` in `peft_config``: an option, in code's spelling, not given
    r"\bplease specify (?:the |a |an )?[`'\"]?[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b[`'\"]?(?! as )|"
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


# vLLM's attention selector saying why each backend refused (`Reasons: {FLASH_ATTN_MLA:
# [kv_cache_dtype not supported, compute capability not supported], TRITON_MLA: [kv_cache_dtype
# not supported]}`, vllm/platforms/cuda.py get_attn_backend_cls).
_BACKEND_REASONS = lazy_compile(r"\b[A-Z][A-Z0-9_]+: \[(?P<reasons>[^\]\[]*)\]")


def gpu_not_what_every_backend_refuses(message: str) -> bool:
    """Whether backends listed with their reasons all refuse something other than the GPU (the
    KV-cache dtype, the head size): the card is one reason of some, the setting that of all."""
    lists = [{r.strip() for r in m["reasons"].split(",")} for m in _BACKEND_REASONS.finditer(message)]
    if len(lists) < 2:
        return False
    common = set.intersection(*lists)
    return bool(common) and not any(ON_THIS_GPU.search(r) for r in common)


# A refusal that blames the GPU (`only supports sm75 and above`, `not support fp8 kv-cache on this
# device`, `compute capability`): what the card can do, not how the option was written.
ON_THIS_GPU = lazy_compile(
    r"\bsm_?[5-9]\d\b|\bsm_?1[0-2]\d\b|compute capability|on this (?:device|gpu|hardware)\b|"
    r"\byour (?:gpu|device|hardware)\b|\bgpu architecture\b",
    re.I,
)


# A value the check received (`Received '0.5_2.0'`, `got 3`): it refused what was given, even in
# words that ask for something (`must provide a single upper bound`); `got None` is still missing.
RECEIVED = lazy_compile(
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


INCOMPATIBLE = lazy_compile(
    r"\b(?:incompatible|not compatible|cannot be (?:used|combined|enabled) together) with\b", re.I
)


DIVIDE = lazy_compile(
    r"divisible|multiple of|% ?[\w.]* ?== ?0|evenly|\beven distribution\b|\bdivide\b|\bdivisor\b", re.I
)


# How a model is split over GPUs; with data parallelism and the world size, any parallel layout.
_MODEL_SPLIT = (
    r"(?:tensor|pipeline|expert|context)[ _]model[ _]parallel|tensor[ _-]parallel|pipeline[ _-]parallel|"
    # (and Megatron's uneven layout, `num_layers_in_first_pipeline_stage`)
    r"pipelin(?:ing|eing)\b|pipeline[ _]stages?|"
    r"context[ _-]parallel|ulysses|"
    r"sequence[ _-]parallel|expert[ _-]parallel|"
    # `tp`, `--ep-size`, `pp_size`, but not a word inside another option's name (`--elastic-ep-scale-timeout`)
    r"(?<![a-z0-9][-_])\b(?:tp|pp|cp|ep|sp)(?:[_-]size)?\b(?![-_][a-z])|"
    r"\b(?:infer|train|rollout)_tp\b|num_layers_per|virtual_pp|\bvpp\b|"
    # a linear layer's share on one tensor-parallel rank (vLLM's and SGLang's sharded layers)
    r"\b(?:input|output)_partition_sizes?\b|\b(?:input|output)_size_per_partition\b|"
    # ... and an MoE layer's (`The output_size of gate's and up's weight = 192 is not divisible by
    # weight quantization block_n = 128`, vLLM's and SGLang's fp8 MoE methods)
    r"\b(?:input|output)_size of [\w' ]{1,40}weight = \d+ is not divisible by "
    r"weight quantization block_[nk]\b|"
    # experts spread over the expert-parallel ranks
    r"\bexperts (?:across|over|among) (?:the )?ranks\b"
)


PARALLEL = lazy_compile(_MODEL_SPLIT + r"|data[ _-]parallel|world[ _]size|\bdp(?:_size)?\b", re.I)


MODEL_PARALLEL = lazy_compile(_MODEL_SPLIT + r"|attention heads|num_heads", re.I)


PARALLEL_SIZE = lazy_compile(r"parallel[ _-]size|\b(?:tp|pp|cp|ep|dp|sp)_size\b", re.I)


# (Samples per group or prompt are the rollout's n, not a batch size.)
BATCH_SIZES = lazy_compile(
    r"batch(?!ing)|num_uid_groups|\bprompts\b|\bsamples\b(?! per (?:group|prompt))", re.I
)


BATCH_WORD = lazy_compile(r"batch(?!ing)", re.I)


# A batch size (times a split of each sample, `* sp_size`) compared with the GPU count: every GPU
# needs a share of the batch, whatever splits it further.
BATCH_FOR_EACH_GPU = lazy_compile(
    r"batch\w*(?:\s*\*\s*\w+)?\s*(?:>=|>|<=|<)\s*(?:\w+\.)*(?:n_gpus|num_gpus|world_size)\b"
)


ORDERED = lazy_compile(
    r">=|<=|(?<![-=])>(?!=)|<(?!=)|\bexceed|\blarger than|\bgreater than|\bsmaller than|"
    r"\bless than|\bat least|\bat most",
    re.I,
)


# A parallel size compared with something: `tp > train_tp`, `9 * pp_size: 3 != 28`, `exceeds`.
COMPARED = lazy_compile(
    r"[<>]=?|!=|==|\bexceed|\blarger|\bbigger|\bgreater|\bless than|\bsmaller|\bequal|\bmatch|\b\d+\b|"
    r"\bnot enough\b|\btoo (?:few|many)\b",
    re.I,
)


REFUSED = lazy_compile(
    r"\bis not (?:an? )?(?:built-?in|known|registered|predefined)\b|\b(?:is|are) (?:zero|negative)$|"
    # a feature refused without another setting: `Unable to use nsight profiling unless workers run with Ray`,
    # `Can not use sequence parallelism without tensor parallelism`, `Cannot defer embedding wgrad
    # compute when gradient accumulation fusion is not used`
    r"\b(?:unable to|can ?not|can't) (?:use|enable|defer|combine|apply|run)\b"
    r"[^.]{0,80}\b(?:unless|without|when)\b|"
    # two switches refused together: `Can not use both overlap_p2p_comm and batch_p2p_comm`
    r"\b(?:can ?not|can't) (?:use|enable|set|specify|combine) both\b|"
    # ... or combined: `Cannot combine manual `lr` and `relative_step=True` options` (Adafactor)
    r"\b(?:can ?not|can't) combine\b|"
    # an option a release removed, set anyway: `x is deprecated and replaced by y`
    r"\b(?:is|are|has been) deprecated\b[^.]{0,40}\b(?:replaced|in favou?r of|use|instead)\b|"
    # `X is only valid when Y is empty`, `please make sure compilation_config.level == ...`
    r"\bonly (?:valid|allowed|supported|available|possible) (?:when|if|with)\b|"
    r"\bplease make sure\b[^\n]{0,80}?(?:==|!=|\bis\b|\bare\b)|"
    r"not supported|does not support|doesn't support|not yet supported|unsupported|\bunknown\b|"
    r"unrecogni[sz]ed|\binvalid\b|not (?:a )?valid|has to be|have to be|"
    r"(?:must|should) (?:all |both |each |always )?be|"
    r"(?:must|should) (?:not|larger|include|match|inherit|be|subclass|implement|have (?:a )?value)|"
    r"can only (?:be|have|contain|take)\b|could only be\b|only supports?\b|only support(?:ed)?\b|"
    # a feature allowed under a condition: `Reuse grad buffer only when keeping params in MXFP8.`
    r"^[A-Z][\w -]{2,60}? only (?:when|if) \w|"
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


# A refusal that says it read a config (`Missing required field 'x' in backend config for ...`): a
# library checking settings, wherever its code is (a config.json is the model folder's).
IN_A_CONFIG = lazy_compile(
    r"\b(?:in|from) (?:the |your |this )?(?!(?:model|hf|generation|tokenizer|processor|preprocessor)\b)"
    r"(?:[\w-]+ )?config(?:uration)?\b(?!\.json)",
    re.I,
)


# A check that says its subject comes from the config (`Apply Chat template from config is not supported`).
FROM_CONFIG = lazy_compile(r"\b(?:from|in|by) (?:the |your )?config(?:uration)?\b", re.I)


# A loader refusing the format of a model folder's weights.
WEIGHTS_FORMAT_REFUSED = lazy_compile(
    r"(?:not (?:implemented|supported)|unsupported|deprecated)\b.{0,80}\b(?:pytorch_model[-\w*]*\.bin|\.bin) "
    r"(?:format|files?|weights)|\bplease use (?:the )?safetensors\b|\bonly safetensors\b",
    re.I,
)


# The model's config lacking a field a feature reads (`hf_config is missing 'num_experts_per_tok'`).
MODEL_CONFIG_LACKS = lazy_compile(
    r"\b(?:hf_config|hf_text_config|model config(?:uration)?|the model'?s config|config\.json)\b[^.\n]{0,20}"
    r"\b(?:is missing|lacks|has no|does not (?:have|define|contain))\b",
    re.I,
)


# A registry of model classes refusing the model itself: its architecture or model type has no
# entry (`Model Type: MistralForCausalLM not supported`, `'MistralForCausalLM' is not a valid
# SupportedModel`, a weight saver's `... saver are not supported for now`). What the model is, not
# a value a run set.
MODEL_KIND_REFUSED = lazy_compile(
    r"\b(?:un(?:registered|supported|known)|no (?:bridge|converter|loader|saver)s? (?:registered )?for)"
    r" (?:model[ _]type|model architecture|architecture)s?\b|"
    r"\b(?:model[ _]type|architectures?)\b\W{0,3}['\"]?[\w.-]+['\"]?\W{0,3}(?:loader |saver )?"
    r"(?:is |are )?(?:not supported|unsupported|not registered)|"
    r"['\"]\w+For(?:CausalLM|ConditionalGeneration)['\"] is not a valid \w+|"
    r"^\w+For(?:CausalLM|ConditionalGeneration) (?:is )?not supported\b",
    re.I,
)


# verl checking that a class it loaded by name subclasses its plug-in base (verl 0.5's
# create_rl_sampler: `assert isinstance(sampler, AbstractSampler)`).
NOT_OF_PLUGIN_BASE = lazy_compile(r"^(?:assert )?isinstance\(\s*[\w.]+\s*,\s*(?P<base>Abstract\w+)\s*\)\s*$")


WRONG_BASE = lazy_compile(r"\bmust (?:inherit|subclass|be a subclass)\b|\bis not a subclass\b", re.I)


# The option whose value a check refuses, shown first (`loss_agg_mode='seq-mean-token-mean' is
# incompatible with ... under CP>1`): a parallel size it names is the circumstance, not the value.
OTHER_OPTION_VALUE = lazy_compile(
    r"^(?:\w+: )?`?(?!\w*(?:parallel|_size|tp|pp|cp|ep|dp|sp)\b)[a-z]+_[a-z_]+`?\s?=\s?['\"`]?[\w.-]+['\"`]? "
    r"(?:is|are) (?:incompatible|not supported|not compatible)"
)


# An option (in code's or a command line's spelling, not a parallel size) that opens the message
# and is refused under a condition: `data_parallel_external_lb can only be set when
# data_parallel_size > 1`, `--enable-cp-decode-attn-tp is only supported for models whose ...`. The
# option is the setting refused; the sizes or the model it names are the circumstance.
CONDITIONED_OPTION = lazy_compile(
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
# names it, not the module (see WRONG_BASE).
CUSTOM_CODE_REFUSED = lazy_compile(
    r"\balready (?:been )?registered\b|\brefusing to overwrite\b|\balready in `?sys\.modules\b|"
    r"(?<![\w.])@\w+(?:\(\))? \w+(?: \w+)? must\b",
    re.I,
)


# A part of the config said to be missing (`Missing async_training configuration`).
SECTION_MISSING = lazy_compile(
    r"\bmissing (?:required )?(?:[\w.]+ )?config(?:uration)?\b|"
    r"\bconfig(?:uration)? (?:section )?(?:is |was )?(?:missing|not (?:found|provided|given))\b",
    re.I,
)


CUSTOM_FILE = lazy_compile(r"\bcustom\b.*?['\"`]?(?P<path>(?:/|\./)?[\w./-]+\.py)\b", re.I)


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


# A setting that only one training or rollout backend takes.
ONLY_FOR_A_BACKEND = lazy_compile(
    r"\bonly (?:supported|available|valid|allowed|implemented) (?:for|with|by|in|on|when using) (?:the )?"
    r"(?:trtllm|tensorrt[-_ ]llm|vllm|sglang|megatron|fsdp2?|hf|\w+ mode)\b",
    re.I,
)


# A model family as messages spell it (`qwen2_5_vl`): a name in code's spelling that is no setting.
MODEL_FAMILY = lazy_compile(
    r"^(?:qwen|llama|gemma|mistral|mixtral|deepseek|glm|phi|internvl|minicpm|kimi)", re.I
)


FEATURE_SWITCHED = lazy_compile(r"^(?:\[[\w.-]+\] )?(?:Disabling|Enabling|Turning (?:on|off)) [a-z]")


# A feature of a rollout engine that one of verl's rollout settings switches on, named in words
# (`Prefix caching is not supported for Mamba yet`: rollout.enable_prefix_caching).
ENGINE_FEATURE = lazy_compile(
    r"\b(?:prefix[ -]caching|chunked[ -]prefill|cuda[ -]?graphs?|sleep[ -]mode|speculative decoding|"
    r"(?:fp8|fp8_e[45]m[23]|int8) kv[ -]cache|dp[ -]attention|eplb|expert parallel load balanc\w*)\b",
    re.I,
)


# What a thing does not support (`Dynamic CP does not support distillation`): its object.
# A feature refused beside what follows it (`X is not supported with pipeline-parallel-size > 1`).
NOT_SUPPORTED_WITH = lazy_compile(
    r"\b(?:is|are) not (?:yet |currently )?supported (?:with|when|together with|in combination with) "
    r"(?P<split>[^.;:]{1,80})",
    re.I,
)
NOT_SUPPORTING = lazy_compile(
    r"\b(?:does not|doesn't|do not|don't|cannot|can't) (?:yet |currently )?support (?:for |with )?"
    r"(?P<object>[^.;:,]{1,80})",
    re.I,
)


SUPPORT = lazy_compile(r"\bsupport", re.I)
# A parameter of the model named (`decoder.layers.0.input_layernorm.weight`, `lm_head.bias`).
MODEL_PARAMETER = lazy_compile(r"\b[a-z_][\w.]*\.\d+\.[\w.]+|\b[a-z_][\w.]*\.(?:weight|bias)\b")


# An environment variable is a setting wherever the code that reads it sits.
ENV_VARIABLE = lazy_compile(
    r"\benv(?:ironment)?[ _-]?var(?:iable)?s?\b|"
    # the variables that choose the devices a process sees (`HIP_VISIBLE_DEVICES contains more
    # devices than ROCR_VISIBLE_DEVICES`)
    r"\b[A-Z]+_VISIBLE_(?:DEVICES|CORES)\b",
    re.I,
)


# An option in code's spelling with the value it needs or was given (`cpu_offload=True`).
OPTION_GIVEN = lazy_compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+=\S")


# What a refusal is about: `Unsupported activation: gelu` -> activation.
REFUSED_SUBJECT = lazy_compile(r"\b(?:unsupported|unknown|invalid) (?P<subject>[a-z][\w ]{1,40}?):", re.I)


# The value refused is empty (`invalid literal for int() with base 10: ''`, `nproc_per_node value: `):
# a setting left unset (a shell variable that expanded to nothing), not a wrong value.
EMPTY_VALUE = lazy_compile(r"""(?::\s*(?:''|"")|\bvalue:)\s*$""")


# A count of nodes, GPUs or processes that must be above zero: left at its default 0 (a separate
# pool's size) or taken from a variable that was not set (`NNODES=${SLURM_NNODES:-0}`), as the
# rules for verl's pool sizes read it.
COUNT_LEFT_AT_ZERO = lazy_compile(
    r"\b(?:n_?nodes|nodes|n_gpus\w*|gpus|nproc\w*|processes|replicas|world_?size)\b[^.]{0,80}?"
    r"must be (?:greater than (?:zero|0)|> ?0|positive|at least 1)\b",
    re.I,
)


# What a run chooses by a setting: a refusal that names one (`not supported in remote reward
# manager`) refuses that choice, not how code calls verl (`Indexing with <class 'str'>`).
A_CHOICE = lazy_compile(
    r"\b(?:manager|mode|backend|strategy|engine|estimator|loss|optimizer|scheduler|format|dtype|"
    r"precision|quantization|algorithm|parser|reward)s?\b",
    re.I,
)


ONE_RANK = lazy_compile(r"\b(?:(?:tp|pp|dp|ep|cp|sp|global|local) )?rank \d+\b", re.I)


# A check that says what to use instead: `please use mbridge for qwen2_5_vl with context parallelism`.
USE_ANOTHER = lazy_compile(r"\bplease use\b|\b(?:must|should) use\b|\buse \w+ instead\b", re.I)


QUOTED_OPTION = lazy_compile(r"['\"`][a-z]+(?:_[a-z0-9]+)+['\"`]")
