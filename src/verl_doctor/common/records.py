"""Small record classes: the part of `dataclasses` the engine uses, without its import cost.

`dataclasses` pulls in `inspect` and builds each class slowly; together that was a fifth of the
time verl-doctor needs to answer a short paste. `@record` generates `__init__`, `__repr__` and
`__eq__` (plus `__hash__` and immutability when frozen) from the class annotations, and
`replace`, `asdict` and `fields` work as their dataclasses namesakes do.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypeVar, dataclass_transform

    T = TypeVar("T")
else:

    def dataclass_transform(**_kwargs: object) -> object:
        """Static checkers read `@record` classes as dataclasses; at run time this is a no-op."""
        return lambda func: func


_MISSING = object()


class FrozenInstanceError(AttributeError):
    """Assignment to a field of a frozen record."""


class _Field:
    __slots__ = ("default_factory", "repr")

    def __init__(self, default_factory: Callable[[], Any], repr: bool) -> None:  # noqa: A002
        self.default_factory, self.repr = default_factory, repr


def field(*, default_factory: Callable[[], Any], repr: bool = True) -> Any:  # noqa: A002 - mirrors dataclasses
    """A field whose default is made fresh for every instance; `repr=False` leaves it out of
    the record's repr (a cache, say)."""
    return _Field(default_factory, repr)


def _frozen_setattr(self: Any, name: str, value: Any) -> None:
    raise FrozenInstanceError(f"cannot assign to field {name!r} of a frozen record")


@dataclass_transform(field_specifiers=(field,))
def record(cls: type[T] | None = None, *, frozen: bool = False) -> Any:
    """Class decorator: `@record` or `@record(frozen=True)`."""

    def wrap(klass: type[T]) -> type[T]:
        names = [n for n in klass.__dict__.get("__annotations__", {}) if not n.startswith("__")]
        namespace: dict[str, Any] = {"_MISSING": _MISSING, "_set": object.__setattr__}
        params, body = [], []
        shown = list(names)
        for name in names:
            default = klass.__dict__.get(name, _MISSING)
            if isinstance(default, _Field):
                namespace[f"_f_{name}"] = default.default_factory
                if not default.repr:
                    shown.remove(name)
                params.append(f"{name}=_MISSING")
                body.append(f"  if {name} is _MISSING: {name} = _f_{name}()")
                delattr(klass, name)
            elif default is not _MISSING:
                namespace[f"_d_{name}"] = default
                params.append(f"{name}=_d_{name}")
            else:
                params.append(name)
            body.append(f"  _set(self, {name!r}, {name})")
        source = f"def __init__(self, {', '.join(params)}):\n" + ("\n".join(body) or "  pass") + "\n"
        exec(source, namespace)  # noqa: S102 - generated from the class's own field names
        init = namespace["__init__"]
        init.__qualname__ = f"{klass.__qualname__}.__init__"
        # setattr, not assignment: type checkers forbid replacing methods on a class object
        setattr(klass, "__init__", init)  # noqa: B010
        setattr(klass, "__record_fields__", tuple(names))  # noqa: B010

        def __repr__(self: Any) -> str:
            inner = ", ".join(f"{n}={getattr(self, n)!r}" for n in shown)
            return f"{type(self).__name__}({inner})"

        # Generated like __init__: one tuple comparison, several times faster than a loop over
        # getattr (workers and lines are compared once per analyzed line).
        own = "".join(f"self.{n}, " for n in names)
        theirs = "".join(f"other.{n}, " for n in names)
        eq_source = (
            "def __eq__(self, other):\n"
            "  if other is self: return True\n"
            "  if other.__class__ is not self.__class__: return NotImplemented\n"
            f"  return ({own}) == ({theirs})\n"
        )
        hash_source = f"def __hash__(self):\n  return hash(({own}))\n"
        exec(eq_source, namespace)  # noqa: S102 - generated from the class's own field names
        exec(hash_source, namespace)  # noqa: S102 - likewise
        __eq__ = namespace["__eq__"]
        __eq__.__qualname__ = f"{klass.__qualname__}.__eq__"
        __hash__ = namespace["__hash__"]
        __hash__.__qualname__ = f"{klass.__qualname__}.__hash__"

        setattr(klass, "__repr__", __repr__)  # noqa: B010
        setattr(klass, "__eq__", __eq__)  # noqa: B010
        if frozen:
            setattr(klass, "__setattr__", _frozen_setattr)  # noqa: B010
            setattr(klass, "__hash__", __hash__)  # noqa: B010
        else:
            setattr(klass, "__hash__", None)  # noqa: B010
        return klass

    return wrap(cls) if cls is not None else wrap


def is_record(value: object) -> bool:
    return hasattr(type(value), "__record_fields__") and not isinstance(value, type)


def fields(value: object) -> tuple[str, ...]:
    return type(value).__record_fields__  # type: ignore[attr-defined, no-any-return]


def replace(value: T, **changes: Any) -> T:
    """A copy of a record with some fields changed."""
    current = {n: getattr(value, n) for n in fields(value)}
    current.update(changes)
    return type(value)(**current)


def asdict(value: Any) -> Any:
    """Records to dicts, recursively through tuples, lists and dicts (tuples become lists)."""
    if is_record(value):
        return {n: asdict(getattr(value, n)) for n in fields(value)}
    if isinstance(value, (list, tuple)):
        return [asdict(v) for v in value]
    if isinstance(value, dict):
        return {k: asdict(v) for k, v in value.items()}
    return value
