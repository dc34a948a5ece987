"""Value checks: the choices verl accepts, `???`, and types as verl's config declares them.

Types come from the defaults of the version's generated trainer config: a key whose default is
an int, a float or a bool should get one. verl does not convert them (Hydra composes plain
YAML, and verl/utils/config.py omega_conf_to_dataclass builds dataclasses with
hydra.utils.instantiate(_convert_="partial"), 0.6-0.9), so a wrong type fails only where the
value is used, or never (a bool given "maybe" is simply true): a warning. Text in the keys
verl's own start-up arithmetic uses is reported by the arithmetic check, where verl fails.
"""

from __future__ import annotations

from verl_doctor.check.arithmetic import ARITHMETIC_KEYS
from verl_doctor.check.model import Issue, Override
from verl_doctor.common import versions as vv

TYPE_CHECKING = False
if TYPE_CHECKING:
    from verl_doctor.check.config import Config

_BOOL_TEXT = {"true", "false", "yes", "no", "on", "off", "1", "0"}
CITE_TYPES = (
    "omegaconf/nodes.py IntegerNode/FloatNode/BooleanNode via verl/utils/config.py omega_conf_to_dataclass"
)


class Choice:
    """A key that takes one of a fixed set of values, per verl version range, and where verl
    checks it."""

    def __init__(self, key: str, by_version: tuple[tuple[str, tuple[str, ...]], ...], cite: str) -> None:
        self.key, self.by_version, self.cite = key, by_version, cite

    def allowed(self, version: str) -> tuple[str, ...] | None:
        for bound, values in self.by_version:
            if version == "head" or vv.satisfies(version, bound):
                return values
        return None


_LOSS_AGG_06 = ("token-mean", "seq-mean-token-sum", "seq-mean-token-mean", "seq-mean-token-sum-norm")
_ADV_05 = (
    "gae",
    "grpo",
    "reinforce_plus_plus",
    "reinforce_plus_plus_baseline",
    "remax",
    "rloo",
    "opo",
    "grpo_passk",
    "gpg",
)
_ADV_06 = _ADV_05 + ("rloo_vectorized", "grpo_vectorized")
_ADV_08 = _ADV_06 + ("optimal_token_baseline", "tir_optimal_token_baseline", "gdpo")
_LOGGERS_05 = ("wandb", "mlflow", "swanlab", "vemlp_wandb", "tensorboard", "console", "clearml")
_LOGGERS_06 = _LOGGERS_05 + ("trackio", "file")
_LOSS_MODES_06 = ("vanilla", "gspo", "gpg", "clip_cov", "kl_cov", "geo_mean")
_LOSS_MODES_07 = _LOSS_MODES_06 + ("sapo", "cispo", "bypass_mode")
_LOSS_MODES_08 = _LOSS_MODES_07 + ("dppo_tv", "dppo_kl")
_REWARD_06 = ("batch", "dapo", "naive", "prime")

CHOICES = (
    Choice(
        "actor_rollout_ref.actor.loss_agg_mode",
        ((">=0.9", _LOSS_AGG_06 + ("token-sum",)), (">=0.6,<0.9", _LOSS_AGG_06)),
        "verl/workers/config/actor.py ActorConfig.__post_init__ valid_loss_agg_modes (0.6-0.9)",
    ),
    Choice(
        "algorithm.adv_estimator",
        ((">=0.8", _ADV_08), (">=0.6,<0.8", _ADV_06), (">=0.5,<0.6", _ADV_05)),
        "verl/trainer/ppo/core_algos.py class AdvantageEstimator (0.5-0.9)",
    ),
    Choice(
        "trainer.logger",
        ((">=0.9", _LOGGERS_06 + ("rl_insight",)), (">=0.6,<0.9", _LOGGERS_06), (">=0.5,<0.6", _LOGGERS_05)),
        "verl/utils/tracking.py Tracking.supported_backend (0.5-0.9)",
    ),
    Choice(
        "actor_rollout_ref.actor.policy_loss.loss_mode",
        (
            (">=0.9", _LOSS_MODES_08 + ("dro",)),
            (">=0.8,<0.9", _LOSS_MODES_08),
            (">=0.7,<0.8", _LOSS_MODES_07),
            (">=0.6,<0.7", _LOSS_MODES_06),
        ),
        "verl/trainer/ppo/core_algos.py @register_policy_loss (0.6-0.9)",
    ),
    Choice(
        "reward.reward_manager.name",
        ((">=0.8", _REWARD_06 + ("gdpo", "remote")),),
        "verl/experimental/reward_loop/reward_manager/*.py @register (0.8-0.9)",
    ),
    Choice(
        "actor_rollout_ref.rollout.name",
        ((">=0.9", ("vllm", "sglang", "trtllm")),),
        "verl/workers/rollout/base.py _ROLLOUT_REGISTRY (0.9)",
    ),
    Choice(
        "actor_rollout_ref.rollout.mode",
        ((">=0.7", ("async",)),),
        "verl/workers/config/rollout.py RolloutConfig.__post_init__: mode 'sync' removed (0.7-0.9)",
    ),
)
_BY_KEY = {c.key: c for c in CHOICES}


def check_values(config: Config, version: str, overrides: tuple[Override, ...]) -> list[Issue]:
    from verl_doctor.check.config import UNKNOWN, defaults

    base = defaults(config.version, config.megatron)
    issues: list[Issue] = []
    for o in overrides:
        if not o.has_value or o.op == "~" or config.set_by.get(o.key) is not o:
            continue  # deleted, or set again later: only the value verl ends up with counts
        if o.value == "???":
            continue  # check_missing
        value = config.get(o.key)
        if value is UNKNOWN or (isinstance(value, str) and "$" in value):
            continue
        problem = _type_problem(base.get(o.key), value)
        if problem and o.key not in ARITHMETIC_KEYS:
            issues.append(
                Issue(
                    code="CFG014",
                    override=o.text,
                    why=f"`{o.key}` takes {problem[0]}, and `{value}` is not one ({problem[1]})",
                    fix=(f"{o.key}={problem[2]}",) if problem[2] else (),
                    cites=(CITE_TYPES,),
                    source=o.source,
                    line=o.line,
                    certain=False,
                )
            )
            continue
        choice = _BY_KEY.get(o.key)
        allowed = choice.allowed(version) if choice else None
        if choice is None or allowed is None:
            continue
        given = value if isinstance(value, list) else [value]
        bad = [str(v) for v in given if v is not None and str(v) not in allowed]
        if bad:
            issues.append(_bad_choice(o, bad[0], allowed, choice.cite))
    return issues


def check_missing(config: Config) -> list[Issue]:
    """`???` left in the values verl ends up with: OmegaConf raises MissingMandatoryValue on
    the first read, before any arithmetic."""
    return [
        _missing(o)
        for key, o in config.set_by.items()
        if o.value == "???" and config.values.get(key) == "???"
    ]


def _type_problem(default: object, value: object) -> tuple[str, str, str] | None:
    """(what the key takes, why the value is not it, a corrected value or "")."""
    if value is None or isinstance(default, str) or default is None:
        return None
    if isinstance(default, bool):
        if isinstance(value, bool) or (isinstance(value, int) and value in (0, 1)):
            return None
        if isinstance(value, str) and value.lower() in _BOOL_TEXT:
            return None
        return "True or False", "verl reads any non-empty text as true", ""
    if isinstance(default, int):
        if isinstance(value, bool):
            return None
        if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
            return None
        if isinstance(value, str) and value.strip().lstrip("+-").isdigit():
            return None
        fix = str(round(value)) if isinstance(value, float) else _number_word(value)
        return "a whole number", "verl passes it on unconverted, to fail where it is used", fix
    if isinstance(default, float):
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return None
        if isinstance(value, str):
            try:
                float(value)
                return None
            except ValueError:
                pass
        return "a number", "verl passes it on unconverted, to fail where it is used", _number_word(value)
    return None


_WORDS = {
    w: str(i) for i, w in enumerate(("zero", "one", "two", "three", "four", "five", "six", "seven", "eight"))
}


def _number_word(value: object) -> str:
    return _WORDS.get(str(value).lower(), "")


def _bad_choice(o: Override, bad: str, allowed: tuple[str, ...], cite: str) -> Issue:
    import difflib

    near = difflib.get_close_matches(bad, allowed, n=1, cutoff=0.6)
    fix_value = near[0] if near else allowed[0]
    shown = o.value_text.replace(bad, fix_value) if bad in o.value_text else fix_value
    if o.key == "actor_rollout_ref.rollout.mode" and bad == "sync":
        why = "rollout mode 'sync' has been removed; only async remains"
    else:
        why = f"`{o.key}` takes one of {', '.join(allowed)}; `{bad}` is not one of them"
    return Issue(
        code="CFG014",
        override=o.text,
        why=why,
        fix=(f"{o.key}={shown}",),
        cites=(cite,),
        source=o.source,
        line=o.line,
    )


def _missing(o: Override) -> Issue:
    return Issue(
        code="CFG011",
        override=o.text,
        why=f"`???` marks a mandatory value that is not set; verl stops when it reads `{o.key}` "
        "(omegaconf MissingMandatoryValue)",
        fix=(f"{o.key}=<value>",),
        cites=("omegaconf MissingMandatoryValue, read in verl/utils/config.py validate_config (0.5-0.9)",),
        source=o.source,
        line=o.line,
    )
