"""Arithmetic verl does on the config before it starts workers, mirrored step by step.

Sources (the check follows verl 0.9; the same checks exist with the same arithmetic in the
versions named on each):
  verl/utils/config.py validate_config                      0.6-0.9 (0.5: RayPPOTrainer._validate_config)
  verl/workers/config/actor.py ActorConfig.__post_init__ / validate, FSDPActorConfig.validate   0.6-0.9
  verl/workers/config/critic.py CriticConfig.__post_init__ / validate, FSDPCriticConfig.validate 0.6-0.9
  verl/trainer/ppo/utils.py need_critic / need_reference_policy                                 0.6-0.9
"""

from __future__ import annotations

from verl_doctor.check.model import COMMAND, Issue, Override

TYPE_CHECKING = False
if TYPE_CHECKING:
    from verl_doctor.check.config import Config

A = "actor_rollout_ref.actor"
R = "actor_rollout_ref.rollout"
REF = "actor_rollout_ref.ref"
CITE_VALIDATE = (
    "verl/utils/config.py validate_config (0.6-0.9; 0.5: verl/trainer/ppo/ray_trainer.py _validate_config)"
)
CITE_EXPERT = (
    "megatron/core/parallel_state.py initialize_model_parallel (Megatron-core 0.12-0.14), called by "
    "verl's Megatron workers at init_model"
)
CITE_ACTOR = "verl/workers/config/actor.py ActorConfig.__post_init__/validate (0.6-0.9)"
CITE_FSDP_ACTOR = "verl/workers/config/actor.py FSDPActorConfig.validate (0.6-0.9)"
CITE_CRITIC = "verl/workers/config/critic.py CriticConfig.__post_init__/validate (0.6-0.9)"


class _Numbers:
    """Resolved values as ints; a value that is not a known int stops the check that needs it
    (the value checks report it)."""

    def __init__(self, config: Config) -> None:
        self.config = config

    def number(self, key: str) -> int | None:
        value = self.config.get(key)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return None
        return int(value)

    def flag(self, key: str) -> bool:
        value = self.config.get(key)
        if isinstance(value, str):
            return value.lower() in ("true", "yes", "on", "1")
        return bool(value)

    def is_set(self, key: str) -> bool:
        return self.config.get(key) is not None


def _where(config: Config, *keys: str) -> Override | None:
    """The override that set one of these keys, the one written last (most likely the change
    that broke a working command); on a tie, the first key's."""
    found = [o for o in (config.set_by.get(k) for k in keys) if o is not None]
    if not found:
        return None
    return max(found, key=lambda o: o.line)


def _issue(
    config: Config, code: str, keys: tuple[str, ...], why: str, fix: tuple[str, ...], cite: str
) -> Issue:
    o = _where(config, *keys)
    shown = o.text if o else " ".join(f"{k}={config.raw(k)}" for k in keys[:2]) + " (defaults)"
    return Issue(
        code=code,
        override=shown,
        why=why,
        fix=fix,
        cites=(cite,),
        source=o.source if o else COMMAND,
        line=o.line if o else 0,
    )


def need_critic(config: Config) -> bool:
    enable = config.get("critic.enable")
    if enable is not None and "critic.enable" in config.values:
        return bool(enable)
    return config.get("algorithm.adv_estimator") == "gae"


def need_reference(n: _Numbers) -> bool:
    return n.flag("algorithm.use_kl_in_reward") or n.flag(f"{A}.use_kl_loss")


def check_arithmetic(config: Config) -> list[Issue]:
    n = _Numbers(config)
    issues: list[Issue] = []
    gpus_per_node, nodes = n.number("trainer.n_gpus_per_node"), n.number("trainer.nnodes")
    train = n.number("data.train_batch_size")
    rollout_n = n.number(f"{R}.n") or 1
    dynamic = n.flag(f"{A}.use_dynamic_bsz")
    strategy = config.get(f"{A}.strategy")
    text = _text_in_arithmetic(config)
    if text:
        return [text]  # verl's arithmetic stops on it with a TypeError
    if gpus_per_node is None or nodes is None:
        return issues
    fractional = _fractional_gpus(config)
    if fractional:
        return [fractional]
    n_gpus = gpus_per_node * nodes
    # validate_config: the whole batch must split evenly over the minimal batch.
    if not dynamic and train is not None:
        minimal = n_gpus
        if strategy == "megatron":
            tp = n.number(f"{A}.megatron.tensor_model_parallel_size") or 1
            pp = n.number(f"{A}.megatron.pipeline_model_parallel_size") or 1
            cp = n.number(f"{A}.megatron.context_parallel_size") or 1
            if n_gpus % (tp * pp * cp):
                issues.append(
                    _issue(
                        config,
                        "CFG010",
                        (
                            f"{A}.megatron.tensor_model_parallel_size",
                            f"{A}.megatron.pipeline_model_parallel_size",
                            f"{A}.megatron.context_parallel_size",
                            "trainer.n_gpus_per_node",
                        ),
                        f"n_gpus ({n_gpus}) must be divisible by tensor x pipeline parallel size ({tp * pp}) "
                        f"times context parallel size ({cp})",
                        _parallel_fix(n_gpus, tp, pp, cp),
                        CITE_VALIDATE,
                    )
                )
                return issues
            expert = _expert_parallel(config, n, n_gpus, tp, pp)
            if expert:
                issues.append(expert)
                return issues
            micro = n.number(f"{A}.ppo_micro_batch_size_per_gpu") or 1
            minimal = n_gpus // (tp * pp * cp) * micro
        real = train * rollout_n
        if minimal and real % minimal:
            issues.append(
                _issue(
                    config,
                    "CFG004",
                    ("data.train_batch_size", f"{R}.n", "trainer.n_gpus_per_node", "trainer.nnodes"),
                    f"real_train_batch_size (data.train_batch_size {train} x rollout.n {rollout_n} = {real}) "
                    f"must be divisible by the minimal batch size ({minimal}, the data-parallel GPUs)",
                    (f"data.train_batch_size={_round_up(train, minimal // _gcd(minimal, rollout_n))}",),
                    CITE_VALIDATE,
                )
            )
    issues += _actor(config, n, n_gpus, train, dynamic)
    if not dynamic:
        if need_reference(n):
            issues += _exclusive(config, n, REF, "log_prob_micro_batch_size", CITE_VALIDATE)
        issues += _exclusive(config, n, R, "log_prob_micro_batch_size", CITE_VALIDATE)
    if need_critic(config):
        issues += _critic(config, n, n_gpus, train)
    if n.flag(f"{R}.val_kwargs.do_sample"):
        temperature = config.get(f"{R}.temperature")
        if isinstance(temperature, (int, float)) and temperature <= 0:
            issues.append(
                _issue(
                    config,
                    "CFG014",
                    (f"{R}.temperature", f"{R}.val_kwargs.do_sample"),
                    "validation gen temperature should be greater than 0 when enabling do_sample",
                    (f"{R}.temperature=1.0", f"{R}.val_kwargs.do_sample=False"),
                    CITE_VALIDATE,
                )
            )
    return issues


# Keys validate_config computes with (0.6-0.9): text there is a TypeError in verl's own arithmetic.
ARITHMETIC_KEYS = (
    "trainer.n_gpus_per_node",
    "trainer.nnodes",
    "data.train_batch_size",
    f"{R}.n",
    f"{A}.ppo_mini_batch_size",
    f"{A}.ppo_micro_batch_size",
    f"{A}.ppo_micro_batch_size_per_gpu",
    "critic.ppo_mini_batch_size",
)


def _text_in_arithmetic(config: Config) -> Issue | None:
    from verl_doctor.check.config import UNKNOWN

    for key in ARITHMETIC_KEYS:
        value = config.get(key)
        if value in (None, "???") or value is UNKNOWN or isinstance(value, (int, float)) or "$" in str(value):
            continue
        word = {"one": 1, "two": 2, "four": 4, "eight": 8}.get(str(value).lower())
        return _issue(
            config,
            "CFG014",
            (key,),
            f"`{key}` is `{value}`, text where verl computes with a number (its batch-size checks stop "
            "with a TypeError)",
            (f"{key}={word}",) if word else (),
            CITE_VALIDATE,
        )
    return None


def _fractional_gpus(config: Config) -> Issue | None:
    """verl multiplies n_gpus_per_node by nnodes as given: 1.5 nodes makes 1.5 GPUs, and its
    divisibility assertion fails on the fraction."""
    per_node, nodes = config.get("trainer.n_gpus_per_node"), config.get("trainer.nnodes")
    train, n = config.get("data.train_batch_size"), config.get(f"{R}.n")
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (per_node, nodes, train, n)):
        return None
    n_gpus = per_node * nodes  # type: ignore[operator]
    if float(n_gpus).is_integer():
        return None
    real = train * n  # type: ignore[operator]
    return _issue(
        config,
        "CFG004",
        ("trainer.nnodes", "trainer.n_gpus_per_node"),
        f"real_train_batch_size ({real}) must be divisible by minimal possible batch size ({n_gpus}): "
        "n_gpus_per_node x nnodes is not a whole number of GPUs",
        ("trainer.nnodes=1",),
        CITE_VALIDATE,
    )


def _actor(config: Config, n: _Numbers, n_gpus: int, train: int | None, dynamic: bool) -> list[Issue]:
    out: list[Issue] = []
    if dynamic:
        return out
    micro, per_gpu = f"{A}.ppo_micro_batch_size", f"{A}.ppo_micro_batch_size_per_gpu"
    if n.is_set(micro) and n.is_set(per_gpu):
        return [_both(config, micro, per_gpu, CITE_ACTOR)]
    if not n.is_set(micro) and not n.is_set(per_gpu):
        return [_neither(config, micro, per_gpu, CITE_ACTOR)]
    mini = n.number(f"{A}.ppo_mini_batch_size")
    if train is not None and mini is not None and train < mini:
        out.append(
            _issue(
                config,
                "CFG004",
                (f"{A}.ppo_mini_batch_size", "data.train_batch_size"),
                f"train_batch_size ({train}) must be >= actor.ppo_mini_batch_size ({mini})",
                (f"{A}.ppo_mini_batch_size={train}", f"data.train_batch_size={mini}"),
                CITE_ACTOR,
            )
        )
        return out
    micro_value = n.number(micro)
    if micro_value and mini is not None:
        sp = n.number(f"{A}.ulysses_sequence_parallel_size") or 1
        if mini % micro_value:
            out.append(
                _issue(
                    config,
                    "CFG004",
                    (micro, f"{A}.ppo_mini_batch_size"),
                    f"ppo_mini_batch_size ({mini}) must be divisible by ppo_micro_batch_size ({micro_value})",
                    (f"{per_gpu}={_divisor(mini, micro_value)}", f"{micro}=null"),
                    CITE_ACTOR,
                )
            )
        elif micro_value * sp < n_gpus:
            out.append(
                _issue(
                    config,
                    "CFG004",
                    (micro, "trainer.n_gpus_per_node"),
                    f"ppo_micro_batch_size ({micro_value}) * ulysses_sequence_parallel_size ({sp}) "
                    f"must be >= n_gpus ({n_gpus})",
                    (f"{micro}={n_gpus}",),
                    CITE_ACTOR,
                )
            )
    sp = n.number(f"{A}.ulysses_sequence_parallel_size") or 1
    if (
        sp > 1
        and config.get(f"{A}.strategy") in ("fsdp", "fsdp2")
        and not n.flag("actor_rollout_ref.model.use_remove_padding")
    ):
        out.append(
            _issue(
                config,
                "CFG014",
                (f"{A}.ulysses_sequence_parallel_size", "actor_rollout_ref.model.use_remove_padding"),
                "sequence parallelism for the actor/ref policy (ulysses_sequence_parallel_size > 1) "
                "needs actor_rollout_ref.model.use_remove_padding=True",
                ("actor_rollout_ref.model.use_remove_padding=True",),
                CITE_FSDP_ACTOR,
            )
        )
    return out


def _critic(config: Config, n: _Numbers, n_gpus: int, train: int | None) -> list[Issue]:
    if n.flag("critic.use_dynamic_bsz"):
        return []
    micro, per_gpu = "critic.ppo_micro_batch_size", "critic.ppo_micro_batch_size_per_gpu"
    if n.is_set(micro) and n.is_set(per_gpu):
        return [_both(config, micro, per_gpu, CITE_CRITIC)]
    if not n.is_set(micro) and not n.is_set(per_gpu):
        return [_neither(config, micro, per_gpu, CITE_CRITIC)]
    mini = n.number("critic.ppo_mini_batch_size")
    micro_value = n.number(micro)
    if micro_value and mini is not None and mini % micro_value:
        return [
            _issue(
                config,
                "CFG004",
                (micro, "critic.ppo_mini_batch_size"),
                f"[critic] ppo_mini_batch_size ({mini}) must be divisible by "
                f"ppo_micro_batch_size ({micro_value})",
                (f"{per_gpu}={_divisor(mini, micro_value)}", f"{micro}=null"),
                CITE_CRITIC,
            )
        ]
    if train is not None and mini is not None and train < mini:
        return [
            _issue(
                config,
                "CFG004",
                ("critic.ppo_mini_batch_size", f"{A}.ppo_mini_batch_size", "data.train_batch_size"),
                f"train_batch_size ({train}) must be >= critic.ppo_mini_batch_size ({mini})",
                (f"critic.ppo_mini_batch_size={train}",),
                CITE_CRITIC,
            )
        ]
    return []


def _exclusive(config: Config, n: _Numbers, section: str, param: str, cite: str) -> list[Issue]:
    mbs, per_gpu = f"{section}.{param}", f"{section}.{param}_per_gpu"
    if n.is_set(mbs) and n.is_set(per_gpu):
        return [_both(config, mbs, per_gpu, cite)]
    if not n.is_set(mbs) and not n.is_set(per_gpu):
        return [_neither(config, mbs, per_gpu, cite)]
    return []


def _both(config: Config, old: str, new: str, cite: str) -> Issue:
    # (a value verl refuses, as `explain` reads verl's "You have set both ...": not batch arithmetic)
    return _issue(
        config,
        "CFG014",
        (old, new),
        f"both `{old}` and `{new}` are set; verl accepts only the per-GPU one (the other is deprecated)",
        (f"{old}=null",),
        cite,
    )


def _neither(config: Config, old: str, new: str, cite: str) -> Issue:
    return _issue(
        config,
        "CFG011",
        (new, old),
        f"neither `{old}` nor `{new}` is set; verl needs one of them unless use_dynamic_bsz is on",
        (f"{new}=1",),
        cite,
    )


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a or 1


def _round_up(value: int, step: int) -> int:
    step = max(step, 1)
    return max(step, -(-value // step) * step)


def _divisor(mini: int, micro: int) -> int:
    """The largest divisor of `mini` not above `micro`."""
    for d in range(min(mini, micro), 0, -1):
        if mini % d == 0:
            return d
    return 1


def _parallel_fix(n_gpus: int, tp: int, pp: int, cp: int) -> tuple[str, ...]:
    fixes = []
    for size in range(tp, 0, -1):
        if n_gpus % (size * pp * cp) == 0:
            fixes.append(f"{A}.megatron.tensor_model_parallel_size={size}")
            break
    fixes.append(f"trainer.n_gpus_per_node={_round_up(n_gpus, tp * pp * cp)}")
    return tuple(fixes)


def _expert_parallel(config: Config, n: _Numbers, n_gpus: int, tp: int, pp: int) -> Issue | None:
    """Megatron splits the GPUs again for the experts of a MoE model: expert-tensor x expert-model
    x pipeline parallel sizes must divide the world size (expert_tensor_parallel_size defaults to
    the tensor parallel size). verl's config checks pass it; the workers stop on it at start."""
    ep = n.number(f"{A}.megatron.expert_model_parallel_size") or 1
    etp = n.number(f"{A}.megatron.expert_tensor_parallel_size") or tp
    if ep == 1 and etp == tp or not n_gpus % (etp * ep * pp):
        return None
    fits = [e for e in range(ep, 0, -1) if not n_gpus % (etp * e * pp)]
    return _issue(
        config,
        "CFG010",
        (
            f"{A}.megatron.expert_model_parallel_size",
            f"{A}.megatron.expert_tensor_parallel_size",
            "trainer.n_gpus_per_node",
        ),
        f"world_size ({n_gpus}) is not divisible by expert-tensor x expert-model x pipeline parallel size "
        f"({etp} x {ep} x {pp} = {etp * ep * pp}); Megatron stops on it when the workers initialise",
        tuple(f"{A}.megatron.expert_model_parallel_size={e}" for e in fits[:1]),
        CITE_EXPERT,
    )
