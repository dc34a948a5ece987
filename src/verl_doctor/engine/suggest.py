"""Computed fix steps that a rule asks for by name (`suggest:` in the rule file).

`config-key`: for an override Hydra rejected, the nearest real verl key, spelled as an override
the user can paste. Never the `+key=` append form: Hydra would accept a misspelt key silently
and nothing would read it.
"""

from __future__ import annotations

from verl_doctor.catalog import verl_keys as hydra_keys

_TEXT = {
    "en": {
        # (no "key: ..." in the text: the secret filter would take what follows for a credential)
        "did_you_mean": (
            "`{key}` is not a verl config key. Use the nearest real key{s} below instead of the "
            "misspelt one{which}"
        ),
        "none": (
            "`{key}` is not a verl config key and no real key is close; "
            "check the spelling against the config reference"
        ),
    },
    "zh": {
        "did_you_mean": "`{key}` 不是 verl 的配置键。最接近的真实配置键如下，请用它替换拼错的键",
        "none": "`{key}` 不是 verl 的配置键，也没有相近的键；请对照配置参考检查拼写",
    },
}


def config_key_steps(
    key: str, value: str | None, verl_version: str | None, overrides: dict[str, str], lang: str
) -> list[tuple[str, tuple[str, ...]]]:
    key = key.strip().lstrip("+~")
    if value is None:
        value = overrides.get(key) or overrides.get("+" + key)
    version = hydra_keys.version_for(verl_version)
    if hydra_keys.exists(key, version):
        return []
    near = hydra_keys.nearest(key, version)
    text = _TEXT.get(lang, _TEXT["en"])
    if not near:
        return [
            (
                text["none"].format(key=key),
                (
                    'cat $(python3 -c "import verl, os; print(os.path.dirname(verl.__file__))")'
                    "/trainer/config/_generated_ppo_trainer.yaml",
                ),
            )
        ]
    best = near[:1] if len(near) == 1 else near[:2]
    shown = value if value not in (None, "") else "<value>"
    return [
        (
            text["did_you_mean"].format(
                key=key, s="s" if len(best) > 1 else "", which=" (the one you meant)" if len(best) > 1 else ""
            ),
            tuple(f"{k}={shown}" for k in best),
        )
    ]
