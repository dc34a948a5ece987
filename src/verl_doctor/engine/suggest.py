"""Computed fix steps that a rule asks for by name (`suggest:` in the rule file).

`config-key`: for an override Hydra rejected, the nearest real verl key, spelled as an override
the user can paste (or, for an interpolation to a misspelt key, as the interpolation to write).
Never the `+key=` append form: Hydra would accept a misspelt key silently and nothing would read it.
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
        "interpolate": "`{key}` is not a verl config key. Interpolate the nearest real key{s} instead{which}",
    },
    "zh": {
        "did_you_mean": "`{key}` 不是 verl 的配置键。最接近的真实配置键如下，请用它替换拼错的键",
        "none": "`{key}` 不是 verl 的配置键，也没有相近的键；请对照配置参考检查拼写",
        "interpolate": "`{key}` 不是 verl 的配置键。请改为插值引用最接近的真实配置键",
    },
}


def config_key_steps(
    key: str,
    value: str | None,
    verl_version: str | None,
    overrides: dict[str, str],
    lang: str,
    interpolated: bool = False,
) -> list[tuple[str, tuple[str, ...]]]:
    key = key.strip().lstrip("+~")
    if value is None:
        value = overrides.get(key) or overrides.get("+" + key)
    version = hydra_keys.version_for(verl_version)
    if hydra_keys.exists(key, version):
        return []
    # (only a key of the same section is the one an interpolation misspells: `${data_dir}` written
    # in a group file is a path from the wrong root, whatever real key looks like it)
    near = hydra_keys.nearest_in_section(key, version) if interpolated else hydra_keys.nearest(key, version)
    if interpolated and not near:
        return []
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
    if interpolated:
        which = " (the one you meant)" if len(best) > 1 else ""
        step = text["interpolate"].format(key=key, s="s" if len(best) > 1 else "", which=which)
        return [(step, tuple("${" + k + "}" for k in best))]
    shown = value if value not in (None, "") else "<value>"
    return [
        (
            text["did_you_mean"].format(
                key=key, s="s" if len(best) > 1 else "", which=" (the one you meant)" if len(best) > 1 else ""
            ),
            tuple(f"{k}={shown}" for k in best),
        )
    ]
