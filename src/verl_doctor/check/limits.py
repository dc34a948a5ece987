"""Limits verl meets only once its workers run, so a command can pass verl's start-up checks and
still fail here: these are warnings (`certain=False`).

  dynamic batch size  verl/utils/seqlen_balancing.py get_seqlen_balanced_partitions callers:
                      "max_token_len must be greater than the sequence length" (0.6-0.9)
  context length      vLLM/SGLang refuse max_model_len above the model's max_position_embeddings;
                      verl sets it from prompt + response length (verl/workers/rollout/*_server.py):
                      "max_model_len (N) should be less than or equal to max_position_embeddings"
  tensor parallel     vLLM: "Total number of attention heads must be divisible by tensor parallel size"
  sequence parallel   verl/utils/ulysses.py / verl/models/transformers/monkey_patch.py (0.6-0.9):
                      "num_attention_heads ... must be divisible by ulysses_sp_size"
"""

from __future__ import annotations

from verl_doctor.check.model import COMMAND, Issue

TYPE_CHECKING = False
if TYPE_CHECKING:
    from verl_doctor.check.config import Config

A = "actor_rollout_ref.actor"
R = "actor_rollout_ref.rollout"


def _int(config: Config, key: str) -> int | None:
    value = config.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _issue(config: Config, code: str, key: str, why: str, fix: tuple[str, ...], cite: str) -> Issue:
    o = config.set_by.get(key)
    return Issue(
        code=code,
        override=o.text if o else f"{key}={config.raw(key)} (default)",
        why=why,
        fix=fix,
        cites=(cite,),
        source=o.source if o else COMMAND,
        line=o.line if o else 0,
        certain=False,
    )


def check_limits(config: Config, model: dict[str, object] | None) -> list[Issue]:
    issues: list[Issue] = []
    prompt, response = _int(config, "data.max_prompt_length"), _int(config, "data.max_response_length")
    longest = prompt + response if prompt is not None and response is not None else None
    if longest is not None and config.get(f"{A}.use_dynamic_bsz") is True:
        budget = _int(config, f"{A}.ppo_max_token_len_per_gpu")
        sp = _int(config, f"{A}.ulysses_sequence_parallel_size") or 1
        if budget is not None and budget * sp < longest:
            issues.append(
                _issue(
                    config,
                    "CFG009",
                    f"{A}.ppo_max_token_len_per_gpu",
                    f"with use_dynamic_bsz, ppo_max_token_len_per_gpu ({budget}) is below the longest "
                    "sequence "
                    f"(max_prompt_length {prompt} + max_response_length {response} = {longest}); a batch "
                    "with one full-length sample fails",
                    (f"{A}.ppo_max_token_len_per_gpu={longest}",),
                    "verl/utils/seqlen_balancing.py: max_token_len must be greater than the sequence "
                    "length (0.6-0.9)",
                )
            )
    if not model:
        return issues
    limit = model.get("max_position_embeddings")
    if isinstance(limit, int) and longest is not None and longest > limit:
        issues.append(
            _issue(
                config,
                "FLOW003",
                "data.max_response_length",
                f"max_prompt_length + max_response_length ({longest}) is above the model's "
                f"max_position_embeddings ({limit}); the rollout engine refuses a longer max_model_len",
                (f"data.max_response_length={max(1, limit - (prompt or 0))}",),
                "verl/workers/rollout/vllm_rollout/vllm_async_server.py max_model_len (0.7-0.9)",
            )
        )
    heads = model.get("num_attention_heads")
    tp = _int(config, f"{R}.tensor_model_parallel_size")
    if isinstance(heads, int) and tp and heads % tp:
        good = max(d for d in range(1, tp + 1) if heads % d == 0)
        issues.append(
            _issue(
                config,
                "CFG010",
                f"{R}.tensor_model_parallel_size",
                f"the model has {heads} attention heads, which do not split over tensor parallel size {tp}",
                (f"{R}.tensor_model_parallel_size={good}",),
                "vLLM ModelConfig.verify_with_parallel_config, reached from verl's rollout server (0.7-0.9)",
            )
        )
    sp = _int(config, f"{A}.ulysses_sequence_parallel_size") or 1
    if isinstance(heads, int) and sp > 1 and heads % sp:
        good = max(d for d in range(1, sp + 1) if heads % d == 0)
        issues.append(
            _issue(
                config,
                "CFG010",
                f"{A}.ulysses_sequence_parallel_size",
                f"the model has {heads} attention heads, which do not split over Ulysses sequence "
                f"parallel size {sp}",
                (f"{A}.ulysses_sequence_parallel_size={good}",),
                "verl/models/transformers/monkey_patch.py (num_attention_heads must be divisible by "
                "ulysses_sp_size, 0.6-0.9)",
            )
        )
    return issues
