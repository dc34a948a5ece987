"""Which verl the command is checked against: `--verl-version`, else the verl installed in this
Python (read from its package metadata, without importing verl), else the newest known."""

from __future__ import annotations

from verl_doctor.catalog import verl_keys as hydra_keys


def choose(requested: str | None) -> tuple[str, str, str]:
    """(verl version, where it came from, the key list used for it)."""
    if requested:
        return requested, "--verl-version", hydra_keys.version_for(requested)
    installed = _installed()
    if installed:
        return installed, "installed", hydra_keys.version_for(installed)
    newest = hydra_keys.VERSIONS[-2]
    return newest, "the newest known: verl is not installed here, pass --verl-version", newest


def _installed() -> str | None:
    from importlib import metadata

    try:
        return metadata.version("verl")
    except metadata.PackageNotFoundError:
        return None
    except Exception:  # noqa: BLE001 - broken metadata must not stop the check
        return None
