"""A small evaluator for the draft-07 subset our schemas use, yielding where and why data fails.

jsonschema costs ~150 ms to import, too much for `osmosis doctor`'s start-up, and its errors carry
no TOML positions anyway. This walks a schema and the parsed data together and yields
:class:`Violation` records (keyword, instance path, the sub-schema) that the config checks turn into
located diagnostics. The tests hold it to jsonschema's verdict on generated data.

Supported: type, enum, const, required, properties, additionalProperties, propertyNames,
minProperties, items (single schema), minItems, maxItems, uniqueItems, minLength, maxLength, pattern,
minimum, maximum, exclusiveMinimum, exclusiveMaximum, not, anyOf, allOf, if/then/else. Anything
else in a schema is an error at load time (:func:`unsupported_keywords`), so a schema edit cannot be
silently ignored here.

One deliberate difference from jsonschema: ``pattern`` follows ECMA-262, where ``$`` matches only at
the very end of the string (Python's ``$`` also matches before a final newline), as the editors'
validators do.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from osmosis_workspace.core.records import dataclass

ANNOTATIONS = frozenset({"$schema", "$id", "$comment", "title", "description", "default", "examples"})
KEYWORDS = frozenset(
    {
        "type", "enum", "const", "required", "properties", "additionalProperties", "propertyNames",
        "minProperties", "items", "uniqueItems", "minLength", "maxLength", "pattern", "minimum",
        "maximum", "exclusiveMinimum", "exclusiveMaximum", "not", "anyOf", "allOf", "minItems", "maxItems",
        "if", "then", "else",
    }
)  # fmt: skip
_SUBSCHEMA_MAPS = ("properties",)
_SUBSCHEMA_ONE = ("additionalProperties", "propertyNames", "items", "not", "if", "then", "else")
_SUBSCHEMA_LISTS = ("anyOf", "allOf")


@dataclass(frozen=True)
class Violation:
    """``instance`` at ``path`` fails ``keyword`` of ``schema``.

    For ``required`` the path is the object's and ``detail`` the missing name; for
    ``additionalProperties`` and ``propertyNames`` the path ends with the offending key (and for
    ``propertyNames`` ``detail`` is the Violation of the key itself); for ``uniqueItems`` ``detail``
    is the index of the first repeated element.
    """

    keyword: str
    path: tuple
    schema: dict
    instance: Any
    detail: Any = None


def unsupported_keywords(schema: Any, where: str = "#") -> list[str]:
    """Every keyword in ``schema`` this evaluator does not implement (as JSON-pointer-ish paths)."""
    found = []
    if not isinstance(schema, dict):
        return found if isinstance(schema, bool) else [where]
    for key, value in schema.items():
        if key in ANNOTATIONS:
            continue
        if key not in KEYWORDS:
            found.append(f"{where}/{key}")
        elif key in _SUBSCHEMA_MAPS:
            for name, sub in value.items():
                found += unsupported_keywords(sub, f"{where}/{key}/{name}")
        elif key in _SUBSCHEMA_ONE:
            found += unsupported_keywords(value, f"{where}/{key}")
        elif key in _SUBSCHEMA_LISTS:
            for i, sub in enumerate(value):
                found += unsupported_keywords(sub, f"{where}/{key}/{i}")
    return found


def is_type(instance: Any, name: str) -> bool:
    """JSON Schema's type test over Python data (bool is not a number; 1.0 is an integer)."""
    if name == "object":
        return isinstance(instance, dict)
    if name == "array":
        return isinstance(instance, list)
    if name == "string":
        return isinstance(instance, str)
    if name == "boolean":
        return isinstance(instance, bool)
    if name == "null":
        return instance is None
    if isinstance(instance, bool):
        return False
    if name == "number":
        return isinstance(instance, (int, float))
    if name == "integer":
        return isinstance(instance, int) or (isinstance(instance, float) and instance.is_integer())
    return False


def equal(a: Any, b: Any) -> bool:
    """JSON equality: true/false differ from 1/0; 1 equals 1.0; containers compare deeply."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(equal(x, y) for x, y in zip(a, b))
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    return type(a) is type(b) and a == b


@lru_cache(maxsize=None)
def _regex(pattern: str) -> re.Pattern:
    # ECMA-262 `$` (no multiline flag) is end of input only.
    return re.compile(re.sub(r"(?<!\\)\$", r"\\Z", pattern))


def violations(schema: Any, instance: Any, path: tuple = ()) -> Iterator[Violation]:
    """Every way ``instance`` fails ``schema`` (none when it is valid)."""
    if schema is True or schema == {}:
        return
    if schema is False:
        yield Violation("false", path, {}, instance)
        return

    kind = schema.get("type")
    if kind is not None:
        kinds = kind if isinstance(kind, list) else [kind]
        if not any(is_type(instance, k) for k in kinds):
            # The other keywords would only restate this one.
            yield Violation("type", path, schema, instance)
            return
    if "enum" in schema and not any(equal(instance, e) for e in schema["enum"]):
        yield Violation("enum", path, schema, instance)
    if "const" in schema and not equal(instance, schema["const"]):
        yield Violation("const", path, schema, instance)

    if isinstance(instance, dict):
        yield from _object(schema, instance, path)
    elif isinstance(instance, list):
        yield from _array(schema, instance, path)
    elif isinstance(instance, str):
        if "minLength" in schema and len(instance) < schema["minLength"]:
            yield Violation("minLength", path, schema, instance)
        if "maxLength" in schema and len(instance) > schema["maxLength"]:
            yield Violation("maxLength", path, schema, instance)
        if "pattern" in schema and not _regex(schema["pattern"]).search(instance):
            yield Violation("pattern", path, schema, instance)
    elif isinstance(instance, (int, float)) and not isinstance(instance, bool):
        yield from _number(schema, instance, path)

    if "not" in schema and not any(True for _ in violations(schema["not"], instance, path)):
        yield Violation("not", path, schema, instance)
    if "anyOf" in schema and not any(is_valid(sub, instance) for sub in schema["anyOf"]):
        yield Violation("anyOf", path, schema, instance)
    for sub in schema.get("allOf", ()):
        yield from violations(sub, instance, path)
    if "if" in schema:
        branch = "then" if is_valid(schema["if"], instance) else "else"
        if branch in schema:
            yield from violations(schema[branch], instance, path)


def is_valid(schema: Any, instance: Any) -> bool:
    return not any(True for _ in violations(schema, instance))


def _object(schema: dict, instance: dict, path: tuple) -> Iterator[Violation]:
    for name in schema.get("required", ()):
        if name not in instance:
            yield Violation("required", path, schema, instance, detail=name)
    if "minProperties" in schema and len(instance) < schema["minProperties"]:
        yield Violation("minProperties", path, schema, instance)
    names = schema.get("propertyNames")
    properties = schema.get("properties", {})
    extra = schema.get("additionalProperties", True)
    for key, value in instance.items():
        if names is not None:
            for v in violations(names, key, path + (key,)):
                yield Violation("propertyNames", path + (key,), schema, key, detail=v)
                break
        if key in properties:
            yield from violations(properties[key], value, path + (key,))
        elif extra is False:
            yield Violation("additionalProperties", path + (key,), schema, key)
        elif extra is not True:
            yield from violations(extra, value, path + (key,))


def _array(schema: dict, instance: list, path: tuple) -> Iterator[Violation]:
    if "minItems" in schema and len(instance) < schema["minItems"]:
        yield Violation("minItems", path, schema, instance)
    if "maxItems" in schema and len(instance) > schema["maxItems"]:
        yield Violation("maxItems", path, schema, instance)
    if "items" in schema:
        for i, item in enumerate(instance):
            yield from violations(schema["items"], item, path + (i,))
    if schema.get("uniqueItems"):
        for j in range(1, len(instance)):
            if any(equal(instance[i], instance[j]) for i in range(j)):
                yield Violation("uniqueItems", path + (j,), schema, instance, detail=j)
                break


def _number(schema: dict, value: float, path: tuple) -> Iterator[Violation]:
    if math.isnan(value):
        return  # NaN compares false with everything; jsonschema lets it through, so do we (CFG checks it)
    if "minimum" in schema and value < schema["minimum"]:
        yield Violation("minimum", path, schema, value)
    if "maximum" in schema and value > schema["maximum"]:
        yield Violation("maximum", path, schema, value)
    if "exclusiveMinimum" in schema and value <= schema["exclusiveMinimum"]:
        yield Violation("exclusiveMinimum", path, schema, value)
    if "exclusiveMaximum" in schema and value >= schema["exclusiveMaximum"]:
        yield Violation("exclusiveMaximum", path, schema, value)
