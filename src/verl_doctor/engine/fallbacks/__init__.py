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

The modules: `classify` (the entry for an exception line), `installs` (missing packages, other
releases), `paths` (paths that are not there, data fields), `origins` (answers told by the code
that raised), `settings` (a library's checks of the run's settings) with `wording` (the words
those checks are read by), `packages` (names of the stack's packages) and `answer` (the record).
"""

from __future__ import annotations

from verl_doctor.engine.fallbacks.answer import Fallback, an, where_in
from verl_doctor.engine.fallbacks.classify import classify
from verl_doctor.engine.fallbacks.installs import (
    DATASET_ARGS_SINCE,
    NO_ATTRIBUTE,
    USER_CONTRACT,
    api_gone,
    called_function,
    engine_result_changed,
    missing_module_name,
    patch_lacks_a_name,
    patched_library_changed,
    unexpected_keyword,
)
from verl_doctor.engine.fallbacks.origins import (
    builds_the_model_config,
    envelope_class,
    hydra_composition,
    model_config_refused,
    npu_code,
    switched_on_refused,
    typed_value_refused,
)
from verl_doctor.engine.fallbacks.packages import (
    MODEL_CONFIG_PACKAGES,
    STACK_PACKAGES,
    VERSION_MISMATCH_CODES,
    known_package,
    pip_distribution,
    verl_names,
    version_mismatch,
)
from verl_doctor.engine.fallbacks.paths import COLUMN_LOOKUP, data_field
from verl_doctor.engine.fallbacks.settings import (
    batch_check_operand,
    compares_a_model_split,
    config_check,
    divided_by_setting,
    starts_up,
)
from verl_doctor.engine.fallbacks.wording import directed_option, forgive_doubled_letters, named_flag

__all__ = [
    "COLUMN_LOOKUP",
    "DATASET_ARGS_SINCE",
    "Fallback",
    "MODEL_CONFIG_PACKAGES",
    "NO_ATTRIBUTE",
    "STACK_PACKAGES",
    "USER_CONTRACT",
    "VERSION_MISMATCH_CODES",
    "an",
    "api_gone",
    "batch_check_operand",
    "compares_a_model_split",
    "called_function",
    "classify",
    "config_check",
    "data_field",
    "directed_option",
    "divided_by_setting",
    "engine_result_changed",
    "envelope_class",
    "forgive_doubled_letters",
    "hydra_composition",
    "known_package",
    "missing_module_name",
    "builds_the_model_config",
    "model_config_refused",
    "named_flag",
    "npu_code",
    "switched_on_refused",
    "typed_value_refused",
    "patch_lacks_a_name",
    "patched_library_changed",
    "pip_distribution",
    "starts_up",
    "unexpected_keyword",
    "verl_names",
    "version_mismatch",
    "where_in",
]
