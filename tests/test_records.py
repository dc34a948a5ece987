"""`verl_doctor.common.records`: the dataclass subset the engine relies on behaves like dataclasses."""

from __future__ import annotations

import pytest

from verl_doctor.common.records import FrozenInstanceError, asdict, field, fields, is_record, record, replace


@record(frozen=True)
class Point:
    x: int
    y: int = 0
    tags: list[str] = field(default_factory=list)


@record
class Box:
    name: str
    items: list[Point] = field(default_factory=list)


def test_init_defaults_and_fresh_factories() -> None:
    a, b = Point(1), Point(2, 3)
    assert (a.x, a.y, b.y) == (1, 0, 3)
    assert a.tags == [] and a.tags is not Point(1).tags
    with pytest.raises(TypeError):
        Point()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Point(1, z=2)  # type: ignore[call-arg]


def test_frozen_eq_hash_repr() -> None:
    p = Point(1, 2)
    with pytest.raises(FrozenInstanceError):
        p.x = 5  # type: ignore[misc]
    assert p == Point(1, 2) and p != Point(2, 1) and p != (1, 2)
    assert hash(Point(1, 2, ("a",))) == hash(Point(1, 2, ("a",)))  # type: ignore[arg-type]
    assert repr(p) == "Point(x=1, y=2, tags=[])"
    box = Box("b")
    box.name = "c"  # not frozen: assignable, and unhashable like a dataclass
    with pytest.raises(TypeError):
        hash(box)


def test_replace_fields_asdict() -> None:
    p = Point(1, 2, ["t"])
    q = replace(p, y=9)
    assert (q.x, q.y, q.tags) == (1, 9, ["t"]) and p.y == 2
    assert fields(p) == ("x", "y", "tags")
    assert is_record(p) and not is_record(Point) and not is_record({"x": 1})
    box = Box("b", [p, q])
    assert asdict(box) == {
        "name": "b",
        "items": [{"x": 1, "y": 2, "tags": ["t"]}, {"x": 1, "y": 9, "tags": ["t"]}],
    }


def test_a_field_can_stay_out_of_the_repr() -> None:
    @record
    class Cached:
        name: str
        cache: dict[str, int] = field(default_factory=dict, repr=False)

    c = Cached("x")
    c.cache["k"] = 1
    assert repr(c) == "Cached(name='x')"
