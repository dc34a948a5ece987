"""A path that is not there, told by what it is: a data file, a model or its files, a custom
module; and a field a row of the data lacks."""

from __future__ import annotations

import re

from verl_doctor.common.lazy_re import lazy_compile
from verl_doctor.engine.fallbacks.answer import Fallback, an
from verl_doctor.engine.fallbacks.installs import RAISING

NO_SUCH_FILE = lazy_compile(r"No such file or directory: '(?P<path>[^']{1,1000})'")


DATA_SUFFIXES = (".parquet", ".jsonl", ".json", ".csv", ".arrow", ".tsv")


MODEL_FILES = lazy_compile(
    r"(?:^|/)(?:(?:adapter_)?config\.json|generation_config\.json|tokenizer(?:_config)?\.json|tokenizer\.model|"
    r"preprocessor_config\.json|[\w.-]*\.safetensors(?:\.index\.json)?|(?:pytorch|adapter)_model[\w.-]*\.bin)$"
)


# Exception classes that say by themselves which path was wrong, whatever their words.
PATH_ERRORS = {
    # huggingface_hub: a path or name given where a hub id is expected (utils/_validators.py)
    "HFValidationError": ("CFG017", "a path or name that is not a hub id"),
    # huggingface_hub: a model repo (or folder) without safetensors weights (hf_api.py)
    "NotASafetensorsRepoError": ("CFG017", "a model repository without safetensors weights"),
    # datasets: a dataset repo, revision or config on the Hub that is not there (load.py)
    "DatasetNotFoundError": ("CFG013", "a dataset that is not there"),
}


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
CHECKPOINT_CONTENT = lazy_compile(
    r"state[ _]dict|global_step_\d|loaded state|checkpoint file|\bckpt/|_ckpt\b|\bckpt_|"
    r"\blayers\.\d+\.|parameter name",
    re.I,
)


# The model's own shape (config.json fields): a fact about the model unless a parallel size is
# what it is compared with.
MODEL_SHAPE = lazy_compile(
    r"\b(?:hidden_size|num_heads|num_attention_heads|num_key_value_heads|head_dim|intermediate_size|"
    r"vocab_size|num_hidden_layers)\b"
)


# Any mention of a checkpoint: a path near it is not the model's or the data's.
_CHECKPOINT = lazy_compile(r"checkpoint|state[ _]dict|global_step_\d|loaded state|\bckpt\b", re.I)


# The files that describe a model or adapter folder (not its weights).
_MODEL_DESCRIPTOR = lazy_compile(
    r"(?:^|/)(?:(?:adapter_|generation_|preprocessor_|tokenizer_)?config\.json|tokenizer\.json)$"
)


# Hugging Face weights looked for right in a training step's actor or critic folder, where verl
# writes its own shards (model_world_size_*_rank_*.pt) and never such files: a step folder given
# where a model folder belongs. (Its huggingface/ subfolder is another matter: what a save wrote.)
_WEIGHTS_IN_A_STEP_FOLDER = lazy_compile(
    r"global_step_\d+/(?:actor|critic)/(?:[\w.-]*\.safetensors(?:\.index\.json)?|pytorch_model[\w.-]*\.bin)$"
)


# A quoted key the file does not hold (`LoRA rank 'r' not found in .../adapter_config.json`): the
# file is there, what it holds is not.
_KEY_NOT_IN_FILE = lazy_compile(r"['\"`][\w.-]{1,60}['\"`] (?:key |field )?(?:was )?not found in\b")


# transformers looking a file up in a model folder or Hub repo (utils/hub.py cached_file).
_FILE_OF_A_REPO = lazy_compile(
    r"\.py inside (?P<repo>[\w./~-]*[\w/~-])|does not appear to have a file named [\w./-]+\.py"
)


def path_missing(message: str, exc_type: str) -> Fallback | None:
    """A path (or a model file's name) the message says is not there: by what it is."""
    if (
        exc_type not in RAISING | {"FileNotFoundError", "IOError", "HFValidationError", "AttributeError"}
        or not _NOT_THERE.search(message)
        or _KEY_NOT_IN_FILE.search(message)
    ):
        return None
    paths = [m.group(0).rstrip(".,") for m in _PATH_IN_MESSAGE.finditer(message)]
    named = next(
        (p for p in paths if _MODEL_DESCRIPTOR.search(p) or _WEIGHTS_IN_A_STEP_FOLDER.search(p)), None
    )
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
        if "-packages/" in path:
            # an installed package's own files (`No image processing module found in
            # .../site-packages/transformers/models/qwen2_5_vl`): no path the run gave
            continue
        low = path.lower()
        if low.endswith(DATA_SUFFIXES) and not MODEL_FILES.search(path):
            return Fallback("CFG013", {"path": path}, f"{an(exc_type)}: a data file that is not there")
        repo = _FILE_OF_A_REPO.search(message) if low.endswith(".py") else None
        if repo is not None:
            # the code file a model's config.json names (trust_remote_code), not in its folder or
            # Hub repo: transformers' `Could not locate X.py inside org/model` (utils/hub.py)
            file = path.rpartition("/")[2]
            groups = {"field": f"the code its auto_map names ({file} is not among the model's files)"}
            if repo.group("repo"):
                groups["path"] = repo.group("repo")
            return Fallback("CFG017", groups, f"{an(exc_type)}: a model's code file that is not there")
        if low.endswith(".py"):
            return Fallback(
                "CFG008", {"path": path}, f"{an(exc_type)}: a custom module file that is not there"
            )
        if _DATA_WORDS.search(message) and not _MODEL_WORDS.search(message):
            return Fallback("CFG013", {"path": path}, f"{an(exc_type)}: a dataset path that is not one")
        if _ADAPTER.search(message) and not MODEL_FILES.search(path):
            # (`LoRA adapter path not found: ...`, verl's get_lora_rank_from_adapter: the folder
            # model.lora_adapter_path names)
            return Fallback(
                "CFG017",
                {"path": path, "adapter": path},
                f"{an(exc_type)}: a LoRA adapter path that is not there",
            )
        if MODEL_FILES.search(path) or _MODEL_WORDS.search(message):
            return Fallback(
                "CFG017", {"path": path}, f"{an(exc_type)}: a model path or file that is not there"
            )
    if MODEL_FILES.search(message.replace(" ", "/")) and _MODEL_WORDS.search(message):
        return Fallback("CFG017", {}, f"{an(exc_type)}: a model file that is not there")
    return None


# The fields of a dataset row that verl reads (`extra_info.interaction_kwargs.name`): a check that
# finds one missing is about the data, not the run's settings.
SAMPLE_FIELD = lazy_compile(
    r"\b(?:extra_info|interaction_kwargs|tools_kwargs|reward_model|ground_truth|data_source|agent_name|"
    r"raw_prompt|multi_modal_data|messages)\b"
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


_KEY = lazy_compile(r"^['\"](?P<key>[\w./-]{1,100})(?:['\"]|$)")  # a paste may cut the closing quote


# Python subscripting a value of another type than the code expects: a text where a mapping was
# read (`string indices must be integers`), nothing where a field was.
_NOT_SUBSCRIPTABLE = lazy_compile(
    r"^(?:(?:string|str|list|tuple) indices must be integers|'(?:NoneType|str|float|int|bool)' object is not "
    r"subscriptable)"
)


def _field_of_another_type(message: str, path: str, code: str) -> Fallback | None:
    """A TypeError subscripting a field where verl reads a row of the data
    (`data_item.non_tensor_batch["reward_model"]["ground_truth"]`: `string indices must be
    integers`): that column of the rows holds another type than verl reads (a dict written as
    text). The raising line must show the row being read."""
    m = _NOT_SUBSCRIPTABLE.search(message.strip())
    if m is None or not _DATA_READERS.search(path.replace("\\", "/")):
        return None
    subscripted = _SUBSCRIPTED.findall(code)
    if not subscripted or not any(_A_ROW.search(name) for name in subscripted):
        return None
    where = path[path.rfind("/verl/") + 1 :]
    return Fallback(
        "CFG012",
        {"row_field": message.strip()},
        f"a TypeError subscripting a field where verl reads the data ({where}): the field holds another type",
    )


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
    if exc_type == "TypeError":
        return _field_of_another_type(message, path, code)
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
