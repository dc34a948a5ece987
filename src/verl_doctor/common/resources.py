"""Where the package's own files are: its folder, its data, and the built-in rules."""

from __future__ import annotations

import os

PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA_DIR = os.path.join(PACKAGE_DIR, "data")


def data_path(*parts: str) -> str:
    """A file shipped in `verl_doctor/data`."""
    return os.path.join(DATA_DIR, *parts)


def builtin_rules_path() -> str:
    """`verl_doctor/rules` in an installed wheel, else the repository's `rules/` folder."""
    packaged = os.path.join(PACKAGE_DIR, "rules")
    if os.path.isdir(packaged):
        return packaged
    return os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(PACKAGE_DIR))), "rules")
