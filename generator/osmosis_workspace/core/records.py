"""`dataclass`, as the standard library's makes a class, at a fraction of its start-up cost.

On Python 3.11 ``@dataclass(frozen=True)`` compiles generated source for each method of each class
(``__init__``, ``__repr__``, ``__eq__``, ``__hash__``, ``__setattr__``, ``__delattr__``) and asks
``inspect.signature`` for a docstring: about 0.9 ms a class, and a cold ``doctor`` defines some fifty
of them, a fifth of its run. Here no method is compiled and the standard library is not
even imported (``dataclasses`` imports ``inspect``, 10 ms of a cold ``doctor``): ``__match_args__`` and
the class-level defaults are set as it sets them, and ``__dataclass_fields__``/``__dataclass_params__``
are lazy, read by the standard library from the same class body the first time anything asks for them
(so ``dataclasses.fields``, ``replace``, ``asdict`` and ``is_dataclass`` work as before). ``replace``
here is ``dataclasses.replace`` for these records without that import. The methods: ``__repr__``, ``__eq__``, ``__hash__`` and
the frozen ``__setattr__``/``__delattr__`` are closures over the field names (no compile), and
``__init__`` is generated, as the standard library's is, the first time an instance is made.

Same behaviour as the standard library's ``@dataclass`` with the options we use (``frozen``, ``eq``):
equality compares as the running Python's does (tuples up to 3.12, field by field from 3.13), ``hash``
hashes the same tuple (so the same values), ``repr`` prints the same text, assigning to a frozen
instance raises ``FrozenInstanceError``, a method the class defines itself is kept. Anything else (other options, ``init=False`` or keyword-only fields,
``InitVar``, a dataclass base) is handed to the standard library whole.
"""

from __future__ import annotations

import reprlib
import sys
from operator import attrgetter

__all__ = ["dataclass", "field", "replace"]

_object_setattr = object.__setattr__


class _Missing:
    """No default (the standard library's MISSING, without importing it)."""

    def __repr__(self) -> str:
        return "<missing>"


MISSING = _Missing()


class _Field:
    """What ``field(...)`` was given; the standard library's Field is made from it when one is asked for."""

    __slots__ = ("options",)

    def __init__(self, options: dict) -> None:
        self.options = options

    def get(self, name: str, default=MISSING):
        return self.options.get(name, default)

    def real(self):
        """The standard library's ``dataclasses.field(...)`` of the same options."""
        import dataclasses

        return dataclasses.field(**self.options)


_OPTIONS = frozenset({"default", "default_factory", "init", "repr", "hash", "compare", "metadata", "kw_only"})


def field(**options):
    """``dataclasses.field``: the same options; the standard library's Field is made when it is needed."""
    if ("default" in options and "default_factory" in options) or not options.keys() <= _OPTIONS:
        return _Field(options).real()  # the standard library's refusal, when the class is written
    return _Field(options)


def dataclass(cls: type | None = None, /, *, frozen: bool = False, eq: bool = True, **options):
    """``@dataclass``, ``@dataclass(frozen=True)`` or ``@dataclass(frozen=True, eq=False)``; any other
    option (``order``, ``slots``, ``kw_only``...) makes the class through the standard library."""

    def wrap(cls: type) -> type:
        if options:
            return _standard(cls, frozen=frozen, eq=eq, **options)
        return _make(cls, frozen, eq)

    return wrap if cls is None else wrap(cls)


def _standard(cls: type, **options) -> type:
    """The standard library's ``@dataclass``, our ``field(...)`` values made its Fields first."""
    import dataclasses

    for name, value in list(vars(cls).items()):
        if isinstance(value, _Field):
            setattr(cls, name, value.real())
    return dataclasses.dataclass(cls, **options)


def _plain(cls: type) -> bool:
    """Whether the cheap path makes this class exactly as the standard library would."""
    if any("__dataclass_fields__" in vars(base) for base in cls.__mro__[1:]):
        return False
    notes = vars(cls).get("__annotations__")
    if notes is None:  # 3.14 without `from __future__ import annotations`: annotations not read here
        return sys.version_info < (3, 14) and not any(isinstance(v, _Field) for v in vars(cls).values())
    std = sys.modules.get("dataclasses")
    for name, value in vars(cls).items():
        if isinstance(value, _Field):
            if name not in notes or value.get("init", True) is False or value.get("kw_only") is True:
                return False
        elif std is not None and isinstance(value, std.Field):  # the standard library's own field()
            return False
    if "self" in notes:  # the standard library renames the init's own parameter
        return False
    module = getattr(sys.modules.get(cls.__module__), "__dict__", {})
    return all(isinstance(note, str) and not _special(note, module) for note in notes.values())


_SPECIAL_WORDS = ("InitVar", "ClassVar", "KW_ONLY")


def _special(note: str, module: dict) -> bool:
    """Whether an annotation names InitVar, ClassVar or KW_ONLY, under any name the module binds them to
    (``IV[int]`` after ``from dataclasses import InitVar as IV``, ``dataclasses.KW_ONLY``)."""
    if any(word in note for word in _SPECIAL_WORDS):
        return True
    head = note.split("[", 1)[0].strip()
    first, _, rest = head.partition(".")
    value = module.get(first)
    for part in rest.split(".") if rest else ():
        value = getattr(value, part, None)
    # none of them can be bound unless its module was imported
    specials = [getattr(sys.modules.get("dataclasses"), word, None) for word in ("InitVar", "KW_ONLY")]
    specials.append(getattr(sys.modules.get("typing"), "ClassVar", None))
    return value is not None and any(value is special for special in specials if special is not None)


class _Spec:
    """One field as the cheap path reads it: name, default, default factory, repr, compare, hash."""

    __slots__ = ("compare", "default", "factory", "hash", "name", "repr")

    def __init__(self, name: str, value: object) -> None:
        self.name = name
        if isinstance(value, _Field):
            self.default, self.factory = value.get("default"), value.get("default_factory")
            self.repr, self.compare, self.hash = value.get("repr", True), value.get("compare", True), value.get("hash", None)
        else:
            self.default, self.factory, self.repr, self.compare, self.hash = value, MISSING, True, True, None


def _mutable(value: object) -> bool:
    """A default the standard library refuses (it asks for a default_factory)."""
    if sys.version_info >= (3, 11):
        return value is not MISSING and value.__class__.__hash__ is None
    return isinstance(value, (list, dict, set))


class _Lazy:
    """``__dataclass_fields__`` (``which`` 0) or ``__dataclass_params__`` (1) of a cheap-path class: on
    first access the standard library reads a copy of the class body (same module, annotations and
    field options) and both attributes become its answers, as they would have been from the start."""

    def __init__(self, cls: type, body: dict, frozen: bool, eq: bool, which: int) -> None:
        self.cls, self.body, self.frozen, self.eq, self.which = cls, body, frozen, eq, which

    def __get__(self, instance, owner=None):
        import copy
        import dataclasses

        cls = self.cls
        body = {k: v.real() if isinstance(v, _Field) else v for k, v in self.body.items()}
        scratch = type(cls.__name__, (), body)
        dataclasses.dataclass(scratch, init=False, repr=False, eq=False)
        params = copy.copy(scratch.__dataclass_params__)
        params.init, params.repr, params.eq, params.frozen = True, True, self.eq, self.frozen
        fields = scratch.__dataclass_fields__
        type.__setattr__(cls, "__dataclass_fields__", fields)
        type.__setattr__(cls, "__dataclass_params__", params)
        return (fields, params)[self.which]


def _make(cls: type, frozen: bool, eq: bool) -> type:
    if not _plain(cls):
        return _standard(cls, frozen=frozen, eq=eq)
    if frozen and ("__setattr__" in vars(cls) or "__delattr__" in vars(cls)):
        raise TypeError(f"Cannot overwrite attribute __setattr__ or __delattr__ in class {cls.__name__}")
    if cls.__doc__ is None:  # the standard library would ask inspect.signature for one
        cls.__doc__ = f"{cls.__name__}(...)"
    # decided before __eq__ is added, as the standard library decides it
    own_hash = vars(cls).get("__hash__", MISSING)
    explicit_hash = not (own_hash is MISSING or (own_hash is None and "__eq__" in vars(cls)))
    own = vars(cls)
    notes = own.get("__annotations__", {})
    fields = tuple(_Spec(name, own.get(name, MISSING)) for name in notes)
    seen_default = False
    for f in fields:
        if _mutable(f.default):
            return _standard(cls, frozen=frozen, eq=eq)  # its refusal, word for word
        has_default = f.default is not MISSING or f.factory is not MISSING
        if seen_default and not has_default:
            raise TypeError(f"non-default argument {f.name!r} follows default argument")
        seen_default = seen_default or has_default
    # the class body as the standard library will read it (field() options kept), then the class as it leaves it
    body = {"__module__": cls.__module__, "__qualname__": cls.__qualname__, "__doc__": cls.__doc__,
            "__annotations__": dict(notes)}
    for f in fields:
        value = own.get(f.name, MISSING)
        if value is not MISSING:
            body[f.name] = value
        if isinstance(value, _Field):
            if f.default is MISSING:
                delattr(cls, f.name)
            else:
                setattr(cls, f.name, f.default)
    type.__setattr__(cls, "__dataclass_fields__", _Lazy(cls, body, frozen, eq, 0))
    type.__setattr__(cls, "__dataclass_params__", _Lazy(cls, body, frozen, eq, 1))
    type.__setattr__(cls, "__records_fields__", tuple(f.name for f in fields))
    if "__match_args__" not in own:
        cls.__match_args__ = tuple(f.name for f in fields)

    def put(name: str, value: object) -> None:
        if name not in own:
            value.__qualname__ = f"{cls.__qualname__}.{name}"
            setattr(cls, name, value)

    put("__init__", _lazy_init(cls, fields, frozen))
    put("__repr__", _repr_of(tuple(f.name for f in fields if f.repr)))
    if eq:
        compared = tuple(f.name for f in fields if f.compare)
        put("__eq__", _eq_by_field(compared) if sys.version_info >= (3, 13) else _eq_of(_getter(compared)))
        if not explicit_hash:
            if frozen:
                hashed = _getter(tuple(f.name for f in fields if (f.compare if f.hash is None else f.hash)))
                cls.__hash__ = _hash_of(hashed)
                cls.__hash__.__qualname__ = f"{cls.__qualname__}.__hash__"
            else:
                cls.__hash__ = None
    if frozen:
        names = frozenset(f.name for f in fields)
        put("__setattr__", _setattr_of(cls, names))
        put("__delattr__", _delattr_of(cls, names))
    return cls


def replace(obj, /, **changes):
    """``dataclasses.replace``: a new instance, ``changes`` over ``obj``'s fields. A record made by the
    cheap path is rebuilt from its field names without importing the standard library; anything else
    is the standard library's."""
    cls = obj.__class__
    made = next((c for c in cls.__mro__ if "__dataclass_fields__" in vars(c)), None)
    names = vars(made).get("__records_fields__") if made is not None else None
    if names is None:
        import dataclasses

        return dataclasses.replace(obj, **changes)
    for name in names:
        if name not in changes:
            changes[name] = getattr(obj, name)
    return cls(**changes)


def _getter(names: tuple[str, ...]):
    """A function of an instance to the tuple of these fields' values (a tuple even for one name)."""
    if len(names) == 0:
        return lambda self: ()
    if len(names) == 1:
        one = attrgetter(names[0])
        return lambda self: (one(self),)
    return attrgetter(*names)


def _eq_of(key):
    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return key(self) == key(other)
        return NotImplemented
    return __eq__


def _eq_by_field(names: tuple[str, ...]):
    """3.13's: the same object is equal, else field by field, as ``a == b and c == d`` (its value, not a bool)."""
    def __eq__(self, other):
        if self is other:
            return True
        if other.__class__ is self.__class__:
            result = True
            for name in names:
                result = getattr(self, name) == getattr(other, name)
                if not result:
                    return result
            return result
        return NotImplemented
    return __eq__


def _hash_of(key):
    def __hash__(self):
        return hash(key(self))
    return __hash__


def _repr_of(names: tuple[str, ...]):
    @reprlib.recursive_repr()
    def __repr__(self):
        inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        return f"{self.__class__.__qualname__}({inner})"
    return __repr__


def _setattr_of(cls: type, names: frozenset[str]):
    def __setattr__(self, name, value):
        if type(self) is cls or name in names:
            from dataclasses import FrozenInstanceError

            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)
    return __setattr__


def _delattr_of(cls: type, names: frozenset[str]):
    def __delattr__(self, name):
        if type(self) is cls or name in names:
            from dataclasses import FrozenInstanceError

            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)
    return __delattr__


def _lazy_init(cls: type, fields: tuple, frozen: bool):
    """An ``__init__`` that compiles the real one, as the standard library writes it, on its first call."""

    def __init__(self, *args, **kwargs):
        real = _compile_init(cls, fields, frozen)
        if cls.__dict__.get("__init__") is __init__:
            real.__qualname__ = f"{cls.__qualname__}.__init__"
            type.__setattr__(cls, "__init__", real)
        real(self, *args, **kwargs)
    return __init__


def _compile_init(cls: type, fields: tuple, frozen: bool):
    scope: dict[str, object] = {"__object_setattr": _object_setattr, "__MISSING": MISSING}
    params, body = ["self"], []
    for f in fields:
        name = f.name
        if f.factory is not MISSING:
            scope[f"__factory_{name}"] = f.factory
            params.append(f"{name}=__MISSING")
            value = f"__factory_{name}() if {name} is __MISSING else {name}"
        else:
            if f.default is not MISSING:
                scope[f"__default_{name}"] = f.default
                params.append(f"{name}=__default_{name}")
            else:
                params.append(name)
            value = name
        body.append(f"__object_setattr(self, {name!r}, {value})" if frozen else f"self.{name} = {value}")
    if hasattr(cls, "__post_init__"):
        body.append("self.__post_init__()")
    source = f"def __init__({', '.join(params)}):\n" + "".join(f"    {line}\n" for line in body or ["pass"])
    namespace: dict[str, object] = {}
    exec(source, scope, namespace)  # noqa: S102 - our own field names, as dataclasses does
    return namespace["__init__"]
