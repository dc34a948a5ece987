"""Versions and version bounds, with PEP 440 semantics: the one comparer every command uses
(fix steps' `verl: "<0.8"`, `env`'s pins, `check`'s per-version rules).

`0.10.0.dev0 < 0.10.0rc1 < 0.10 == 0.10.0 < 0.10.0.post1`; local labels (`+cu128`) are kept
for display and ignored in comparisons, as pip does for `==X`. Without `dataclasses` or
`packaging`: `explain` reaches this module on its start-up path.
"""

from __future__ import annotations

import re

from verl_doctor.common.lazy_re import lazy_compile

_VERSION = lazy_compile(
    r"""
    v?(?P<release>\d+(?:\.\d+)*)
    (?:[-_.]?(?P<pre>a|b|c|rc|alpha|beta)[-_.]?(?P<pre_n>\d*))?
    (?:[-_.]?(?:post|rev|r)[-_.]?(?P<post>\d*))?
    (?:[-_.]?dev[-_.]?(?P<dev>\d*))?
    (?:\+(?P<local>[A-Za-z0-9.]+))?
""",
    re.VERBOSE | re.IGNORECASE,
)
_CLAUSE = lazy_compile(r"\s*(===|==|!=|<=|>=|~=|<|>)\s*([^\s,;]+)\s*")
_PRE_ORDER = {"a": 0, "alpha": 0, "b": 1, "beta": 1, "c": 2, "rc": 2}


class Version:
    """A parsed version; instances compare by PEP 440 order."""

    __slots__ = ("release", "text", "_key")

    def __init__(self, release: tuple[int, ...], key: tuple[object, ...], text: str) -> None:
        self.release, self._key, self.text = release, key, text

    @classmethod
    def parse(cls, text: str) -> Version | None:
        m = _VERSION.match(text.strip())
        if not m:
            return None
        release = tuple(int(x) for x in m["release"].split("."))
        trimmed = release
        while len(trimmed) > 1 and trimmed[-1] == 0:
            trimmed = trimmed[:-1]  # 2.9 == 2.9.0
        pre = (_PRE_ORDER[m["pre"].lower()], int(m["pre_n"] or 0)) if m["pre"] else None
        post = int(m["post"] or 0) if m["post"] is not None else None
        dev = int(m["dev"] or 0) if m["dev"] is not None else None
        # PEP 440 order: X.devN < X.aN < X.bN < X.rcN < X < X.postN; X.rcN.devM < X.rcN
        if pre is None and post is None and dev is not None:
            pre_key: tuple[int, ...] = (-1, 0)  # a bare dev release sorts before X's pre-releases
        elif pre is None:
            pre_key = (3, 0)  # a final release sorts after its pre-releases
        else:
            pre_key = pre
        key = (trimmed, pre_key, -1 if post is None else post, 1 << 62 if dev is None else dev)
        return cls(release, key, text.strip())

    @property
    def is_prerelease(self) -> bool:
        return self._key[1] != (3, 0) or self._key[3] != 1 << 62

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Version) and self._key == other._key

    def __lt__(self, other: Version) -> bool:
        return self._key < other._key

    def __le__(self, other: Version) -> bool:
        return self._key <= other._key

    def __gt__(self, other: Version) -> bool:
        return self._key > other._key

    def __ge__(self, other: Version) -> bool:
        return self._key >= other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Version({self.text!r})"


def parse(version: str) -> tuple[int, ...] | None:
    """The release numbers: `0.8.0.dev` -> (0, 8, 0); None when the text holds no version."""
    v = Version.parse(version)
    return v.release if v else None


def satisfies(version: str, spec: str) -> bool | None:
    """Whether `version` meets every clause of `spec` (">=0.8.5,<0.12", "==2.6.*", "~=4.51");
    None when either is unreadable."""
    have = Version.parse(version)
    if have is None:
        return None
    for clause in filter(None, (c.strip() for c in spec.split(","))):
        m = _CLAUSE.fullmatch(clause)
        want = Version.parse(m[2].rstrip(".*")) if m else None
        if m is None or want is None:
            return None
        op = m[1]
        if op in ("==", "===", "!=") and m[2].endswith(".*"):
            padded = have.release + (0,) * max(len(want.release) - len(have.release), 0)
            ok = (padded[: len(want.release)] == want.release) != (op == "!=")
        elif op in ("==", "==="):
            ok = have == want
        elif op == "!=":
            ok = have != want
        elif op == "<=":
            ok = have <= want
        elif op == ">=":
            ok = have >= want
        elif op == "<":
            ok = have < want
        elif op == ">":
            ok = have > want
        else:  # ~=X.Y.Z: >=X.Y.Z and X.Y.*
            prefix = max(len(want.release) - 1, 1)
            ok = have >= want and have.release[:prefix] == want.release[:prefix]
        if not ok:
            return False
    return True
