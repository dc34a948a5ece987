"""The release: its version, defined here once (pyproject.toml reads it from this file)."""

__version__ = "0.1.0"
