"""core/records.py's `dataclass` makes the class the standard library's `@dataclass` makes.

Each case defines one class body twice, once under each decorator, and compares what code can see:
construction (positional, keyword, defaults, factories, the errors of a wrong call), repr, equality,
hash values, frozen assignment, `dataclasses.fields`/`replace`/`asdict`, `__match_args__`, copy and
pickle. And every record class of the package is asked the same of its fields as the standard
library reads them.
"""

from __future__ import annotations

import copy
import dataclasses
import importlib
import pickle
import pkgutil
from functools import total_ordering

import pytest

import osmosis_workspace
from osmosis_workspace.core import records


def _pair(make):
    """The class ``make(decorator, field)`` defines, under the standard library's decorator and ours."""
    return make(dataclasses.dataclass, dataclasses.field), make(records.dataclass, records.field)


def _frozen_point(dataclass, field):
    @dataclass(frozen=True)
    class Point:
        x: int
        y: str = "y"
        tags: tuple = ()
        seen: list = field(default_factory=list, compare=False)
        note: str = field(default="n", repr=False, compare=False)
    return Point


def _mutable_box(dataclass, field):
    @dataclass
    class Box:
        items: list = field(default_factory=list)
        size: int = 0
    return Box


def _identity(dataclass, field):
    @dataclass(frozen=True, eq=False)
    class Handle:
        name: str
    return Handle


def _post_init(dataclass, field):
    @dataclass
    class Counted:
        a: int
        b: int = 2

        def __post_init__(self) -> None:
            self.total = self.a + self.b
    return Counted


def _own_eq(dataclass, field):
    @total_ordering
    @dataclass(frozen=True)
    class Loose:
        value: int
        text: str

        def __eq__(self, other: object) -> bool:
            return isinstance(other, Loose) and self.value == other.value

        def __lt__(self, other: Loose) -> bool:
            return self.value < other.value
    return Loose


def _one_field(dataclass, field):
    @dataclass(frozen=True)
    class One:
        value: float
    return One


def _seen(obj) -> dict:
    return {"repr": repr(obj), "dict": dict(vars(obj)), "fields": [(f.name, f.default, f.repr, f.compare) for f in dataclasses.fields(obj)]}


def _call(cls, *args, **kwargs):
    try:
        return "ok", _seen(cls(*args, **kwargs))
    except TypeError as error:
        return "TypeError", str(error)


@pytest.mark.parametrize("make", [_frozen_point, _mutable_box, _identity, _post_init, _own_eq, _one_field])
def test_construction_and_errors_match(make):
    std, ours = _pair(make)
    field_names = [f.name for f in dataclasses.fields(std)]
    assert field_names == [f.name for f in dataclasses.fields(ours)]
    assert std.__match_args__ == ours.__match_args__
    calls = [((1,), {}), ((), {}), ((1, "a", (2,), [3], "m"), {}), ((1, 2, 3, 4, 5, 6), {}),
             ((), {field_names[0]: 7}), ((1,), {field_names[0]: 7}), ((1,), {"nope": 1})]
    for args, kwargs in calls:
        a, b = _call(std, *args, **kwargs), _call(ours, *args, **kwargs)
        assert a[0] == b[0], (args, kwargs, a, b)
        if a[0] == "ok":
            assert a == b
        else:  # the same complaint; ours names the class's __init__ the way the standard library's does
            assert a[1].split("__init__()")[-1] == b[1].split("__init__()")[-1]


def test_equality_and_hash_match():
    std, ours = _pair(_frozen_point)
    for cls in (std, ours):
        a, b, c = cls(1, "a", (2,), note="p"), cls(1, "a", (2,), note="q"), cls(2)
        assert a == b and a != c and hash(a) == hash(b)  # note: compare=False
        assert (a == (1, "a")) is False and a.__eq__(object()) is NotImplemented
        assert len({a, b, c}) == 2
    s, o = std(1, "a", (2,)), ours(1, "a", (2,))
    assert hash(s) == hash(o)  # the same tuple hashed: set order the same for the same values
    nan = float("nan")
    one_std, one_ours = _pair(_one_field)
    assert (one_std(nan) == one_std(nan)) == (one_ours(nan) == one_ours(nan))
    same_std, same_ours = one_std(nan), one_ours(nan)
    assert (same_std == same_std) == (same_ours == same_ours) is True  # identity first, as in a tuple


def test_hash_rules_match():
    for make in (_frozen_point, _mutable_box, _identity, _own_eq, _post_init):
        std, ours = _pair(make)
        assert (std.__hash__ is None) == (ours.__hash__ is None), make.__name__
        if std.__hash__ is not None and make is not _identity:
            args = [1] if make is not _mutable_box else []
            if make is _own_eq:
                args = [1, "x"]
            assert hash(std(*args)) == hash(ours(*args)), make.__name__
    std, ours = _pair(_own_eq)
    assert std(1, "a") == std(1, "b") and ours(1, "a") == ours(1, "b") and ours(1, "a") < ours(2, "a")


def test_frozen_refuses_assignment_and_deletion():
    _, ours = _pair(_frozen_point)
    point = ours(1)
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'x'"):
        point.x = 2
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot delete field 'y'"):
        del point.y
    with pytest.raises(dataclasses.FrozenInstanceError):
        point.other = 1
    box = _mutable_box(records.dataclass, records.field)()
    box.size = 3
    assert box.size == 3 and box != _mutable_box(records.dataclass, records.field)()


def test_identity_class_keeps_identity():
    std, ours = _pair(_identity)
    assert std("a") != std("a") and ours("a") != ours("a")
    handle = ours("a")
    assert handle == handle and hash(handle) == object.__hash__(handle)


def test_replace_asdict_copy_pickle():
    _, ours = _pair(_frozen_point)
    point = ours(1, "a", (2,), [3])
    assert dataclasses.replace(point, x=5) == ours(5, "a", (2,), [3])
    assert dataclasses.asdict(point) == {"x": 1, "y": "a", "tags": (2,), "seen": [3], "note": "n"}
    assert dataclasses.is_dataclass(point)
    assert copy.copy(point) == point and copy.deepcopy(point) == point
    assert pickle.loads(pickle.dumps(Pickled(1, (2,)))) == Pickled(1, (2,))
    assert _post_init(records.dataclass, records.field)(1).total == 3


@records.dataclass(frozen=True)
class Pickled:
    a: int
    b: tuple = ()


def test_refuses_what_the_standard_library_refuses():
    with pytest.raises(TypeError, match="non-default argument 'b' follows default argument"):
        @records.dataclass
        class Bad:
            a: int = 1
            b: int
    with pytest.raises(TypeError, match="Cannot overwrite attribute __setattr__"):
        @records.dataclass(frozen=True)
        class Own:
            a: int

            def __setattr__(self, name, value):
                pass


def test_other_features_go_to_the_standard_library():
    @records.dataclass
    class Base:
        a: int

    @records.dataclass
    class Child(Base):
        b: int = 0

    @records.dataclass
    class KwOnly:
        a: int = records.field(default=0, kw_only=True)

    assert Child(1, 2) == Child(1, 2) and repr(Child(1)) == "test_other_features_go_to_the_standard_library.<locals>.Child(a=1, b=0)"
    with pytest.raises(TypeError):
        KwOnly(1)
    assert KwOnly(a=2).a == 2


def _package_records():
    for info in pkgutil.walk_packages(osmosis_workspace.__path__, "osmosis_workspace."):
        if info.name.startswith(("osmosis_workspace.lsp", "osmosis_workspace.cli.lsp")):
            continue  # the optional [lsp] extra
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if isinstance(value, type) and value.__module__ == info.name and dataclasses.is_dataclass(value):
                yield value


def test_every_record_of_the_package_reads_its_fields_as_the_standard_library():
    found = list(_package_records())
    assert len(found) > 40
    for cls in found:
        fields = dataclasses.fields(cls)
        assert cls.__match_args__ == tuple(f.name for f in fields if f.init and not f.kw_only), cls
        required = [f for f in fields if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING]
        assert fields[:len(required)] == tuple(required), cls  # the defaults last, as __init__ needs


def test_no_module_decorates_with_the_standard_library_directly():
    """A new `from dataclasses import dataclass` would bring back its cost at import, unnoticed."""
    import re
    from pathlib import Path

    package = Path(osmosis_workspace.__file__).parent
    direct = re.compile(r"^\s*from dataclasses import [^\n]*\b(dataclass|field)\b|@dataclasses\.dataclass\b", re.MULTILINE)
    offenders = [str(p.relative_to(package)) for p in sorted(package.rglob("*.py"))
                 if p.name != "records.py" and direct.search(p.read_text(encoding="utf-8"))]
    assert offenders == []


def test_replace_matches_the_standard_librarys():
    point_std, point = _pair(_frozen_point)
    for cls in (point_std, point):
        made = cls(1, "a", (2,), [3])
        assert records.replace(made, y="b", note="m") == dataclasses.replace(made, y="b", note="m")
        assert records.replace(made, y="b").y == "b" and records.replace(made).seen is made.seen
        with pytest.raises(TypeError):
            records.replace(made, nope=1)

    @records.dataclass(frozen=True)
    class Base:
        a: int

    @records.dataclass(frozen=True)  # a record base: the standard library makes this one
    class Child(Base):
        b: int = 0

    assert records.replace(Child(1, 2), a=5) == dataclasses.replace(Child(1, 2), a=5) == Child(5, 2)


def test_a_record_is_made_and_used_without_importing_dataclasses():
    """Its Fields are built when first asked for (dataclasses imports inspect: 10 ms of a cold run)."""
    import subprocess
    import sys

    probe = """
from __future__ import annotations  # as every module of the package: the cheap path reads annotations as text
import sys
from osmosis_workspace.core.records import dataclass, field, replace

@dataclass(frozen=True)
class Point:
    x: int
    tags: tuple = field(default_factory=tuple)

p = replace(Point(1), x=2)
assert (p, repr(p), hash(p) == hash(Point(2)), Point.__match_args__) == (Point(2), "Point(x=2, tags=())", True, ("x", "tags"))
assert "dataclasses" not in sys.modules and "inspect" not in sys.modules, "imported"
import dataclasses
assert [f.name for f in dataclasses.fields(p)] == ["x", "tags"] and Point.__dataclass_params__.frozen
"""
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
