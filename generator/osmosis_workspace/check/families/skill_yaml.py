"""SKILL.md front matter read the way strictyaml reads it (every scalar a string; no flow style,
anchors, tags or duplicate keys): a small exact reader for plain `key: value`, else pyyaml's
BaseLoader events.
"""

from __future__ import annotations

import re
from typing import Any

from osmosis_workspace.check.families.skill_rules import (
    FRONT_MATTER_INVALID_YAML, FRONT_MATTER_NOT_MAPPING, FRONT_MATTER_STRICT_YAML,
)
from osmosis_workspace.core.diagnostics import Diagnostic
from osmosis_workspace.core.records import dataclass


# --- YAML, read the way strictyaml reads it ----------------------------------------------------------
@dataclass
class _Field:
    value: Any  # str, list or dict (of the same), as strictyaml would give
    line: int
    column: int


def _position(mark: Any) -> tuple[int, int]:
    """File line/column of a pyyaml mark inside the front matter (which starts after the first `---`)."""
    if mark is None:
        return 1, 1
    return mark.line + 1, mark.column + 1 + (3 if mark.line == 0 else 0)


# YAML 1.1 (pyyaml) breaks lines at NEL, LS and PS; YAML 1.2 (strictyaml) reads them as ordinary
# characters. Swap them for private-use stand-ins while parsing and back in the values.
_YAML11_BREAKS = str.maketrans({"\x85": "\ue085", "\u2028": "\ue028", "\u2029": "\ue029"})


_YAML11_RESTORE = str.maketrans({"\ue085": "\x85", "\ue028": "\u2028", "\ue029": "\u2029"})


class _StrictYamlError(Exception):
    """A YAML feature strictyaml refuses (flow style, anchors, aliases, tags, duplicate keys)."""

    def __init__(self, what: str, mark: Any):
        super().__init__(what)
        self.what, self.mark = what, mark


def _load_front_matter(front: str, display: str) -> tuple[dict[str, _Field], Diagnostic | None]:
    """The front matter's top-level fields (with the key's position), or the one problem that stops reading it."""
    simple = _read_simple(front)
    return (simple, None) if simple is not None else _read_yaml(front, display)


def _read_yaml(front: str, display: str) -> tuple[dict[str, _Field], Diagnostic | None]:
    import yaml  # lazily: only for front matter the fast path leaves alone

    try:
        events = yaml.parse(front.translate(_YAML11_BREAKS), Loader=yaml.BaseLoader)
        top = _single_document(events)
        if not isinstance(top, _Mapping):
            kind = "empty" if top is None else ("a list" if isinstance(top, list) else "a bare value")
            line, column = _position(getattr(top, "mark", None))
            return {}, FRONT_MATTER_NOT_MAPPING.at(
                display, f"the front matter is {kind}, not `key: value` lines", line=line, column=column)
        return {key: _Field(value, *_position(mark)) for key, (value, mark) in top.items()}, None
    except _StrictYamlError as err:
        line, column = _position(err.mark)
        return {}, FRONT_MATTER_STRICT_YAML.at(
            display, f"the front matter uses a {err.what}, which the Agent Skills reference parser rejects",
            line=line, column=column)
    except (yaml.YAMLError, RecursionError) as err:
        mark = getattr(err, "problem_mark", None) or getattr(err, "context_mark", None)
        line, column = _position(mark)
        problem = getattr(err, "problem", None) or str(err).splitlines()[0]
        return {}, FRONT_MATTER_INVALID_YAML.at(
            display, f"the front matter is not valid YAML: {problem}", line=line, column=column)


# The fast path: front matter made only of `key: value` lines (and one level of `metadata:`
# entries) whose values are unquoted text with no YAML syntax in it, or quoted text with no escapes.
# That is what nearly every SKILL.md looks like, and reading it needs no YAML parser. Anything else
# goes to pyyaml; a property test checks that both readings agree wherever the fast path answers.
_SIMPLE_VALUE = r"""(?:[A-Za-z0-9(][^#:'"\t\r]*?|"[^"\\\r\t]*"|'[^'\r\t]*')"""


_SIMPLE_LINE = re.compile(rf"^(?P<indent> *)(?P<key>[A-Za-z][A-Za-z0-9_-]*):(?: (?P<value>{_SIMPLE_VALUE}))? *$")


_IGNORABLE_LINE = re.compile(r"^ *(?:#[ -~]*)?$")


_NOT_SIMPLE_TEXT = re.compile(r"[^\n -~]")  # tabs, CR, control and non-ASCII characters: pyyaml's call


def _read_simple(front: str) -> dict[str, _Field] | None:
    """Fields of plain-text front matter, or None when it holds anything else (pyyaml then decides)."""
    if _NOT_SIMPLE_TEXT.search(front):
        return None
    lines = front.split("\n")
    if lines[0].strip():  # text on the opening `---` line
        return None
    fields: dict[str, _Field] = {}
    parent: str | None = None  # the top-level key whose indented entries follow
    child_indent = 0
    for number, line in enumerate(lines[1:], start=2):
        if _IGNORABLE_LINE.match(line):
            continue
        match = _SIMPLE_LINE.match(line)
        if match is None:
            return None
        key, raw, indent = match["key"], match["value"], len(match["indent"])
        if indent:
            if parent is None or (child_indent and indent != child_indent):
                return None
            child_indent = indent
            entries = fields[parent].value
            if raw is None or key in entries:
                return None
            entries[key] = _unquote(raw)
            continue
        if key in fields:
            return None
        if raw is None:  # only `metadata:` may open a block here; empty values go to pyyaml
            if key != "metadata":
                return None
            parent, child_indent = key, 0
            fields[key] = _Field({}, number, 1)
            continue
        parent = None
        fields[key] = _Field(_unquote(raw), number, 1)
    if any(isinstance(f.value, dict) and not f.value for f in fields.values()):
        return None  # `metadata:` with nothing under it is an empty string to YAML
    return fields or None


def _unquote(raw: str) -> str:
    return raw[1:-1] if raw[:1] in ("'", '"') else raw.rstrip()


class _Mapping(dict):
    """The top-level mapping: key -> (value, key mark)."""


class _Scalar(str):
    mark: Any = None


def _single_document(events: Any) -> Any:
    """The one document's data from a pyyaml event stream (None when there is none).

    Built from parser events rather than composed nodes: one pass, and the events still show the
    anchors, tags and flow style that strictyaml refuses.
    """
    import yaml

    top = None
    for event in events:
        if isinstance(event, yaml.DocumentStartEvent):
            if top is not None:
                raise yaml.composer.ComposerError(
                    "expected a single document in the stream", None, "but found another document", event.start_mark)
            top = _node(events, next(events), top_level=True)
    return top


def _node(events: Any, event: Any, top_level: bool = False) -> Any:
    import yaml

    if isinstance(event, yaml.AliasEvent):
        raise _StrictYamlError("alias `*...`", event.start_mark)
    if getattr(event, "anchor", None) is not None:
        raise _StrictYamlError("anchor `&...`", event.start_mark)
    if getattr(event, "tag", None) is not None:
        raise _StrictYamlError("tag `!...`", event.start_mark)
    if isinstance(event, yaml.ScalarEvent):
        value = _Scalar(event.value.translate(_YAML11_RESTORE))
        value.mark = event.start_mark
        return value
    if event.flow_style:
        kind = "mapping `{...}`" if isinstance(event, yaml.MappingStartEvent) else "list `[...]`"
        raise _StrictYamlError(f"flow-style {kind}", event.start_mark)
    if isinstance(event, yaml.SequenceStartEvent):
        items = []
        for item in iter(lambda: next(events), None):
            if isinstance(item, yaml.SequenceEndEvent):
                return items
            items.append(_node(events, item))
    mapping: dict[str, Any] = _Mapping() if top_level else {}
    mapping_mark = event.start_mark
    merged: dict[str, Any] = {}
    for key_event in iter(lambda: next(events), None):
        if isinstance(key_event, yaml.MappingEndEvent):
            break
        key = _node(events, key_event)
        if not isinstance(key, str):
            raise _StrictYamlError("non-string key", key_event.start_mark)
        if key == "<<" and key_event.style is None:  # a plain `<<` is YAML's merge key, as for strictyaml
            value_event = next(events)
            for source in _merge_sources(_node(events, value_event), mapping_mark, value_event.start_mark):
                for name, item in source.items():
                    merged.setdefault(name, item)
            continue
        if key in mapping:
            raise _StrictYamlError(f"duplicate key {str(key)!r}", key_event.start_mark)
        value = _node(events, next(events))
        mapping[str(key)] = (_plain(value), key.mark) if top_level else _plain(value)
    # Keys written out in the mapping win over merged ones. At the top level strictyaml's data
    # leaves merged keys out altogether (checked against skills-ref), so the verdicts agree.
    for name, item in merged.items() if not top_level else ():
        mapping.setdefault(name, item)
    if top_level:
        mapping.mark = mapping_mark  # type: ignore[attr-defined]
    return mapping


def _merge_sources(value: Any, mapping_mark: Any, value_mark: Any) -> list[dict]:
    """What a merge key's value merges in: a mapping, or a list of them; anything else is the
    error YAML (and so the reference parser) raises."""
    import yaml

    sources = value if isinstance(value, list) else [value]
    if not all(isinstance(s, dict) for s in sources):
        found = "scalar" if isinstance(value, str) else "list of other values"
        raise yaml.constructor.ConstructorError(
            "while constructing a mapping", mapping_mark,
            f"expected a mapping or list of mappings for merging, but found {found}", value_mark)
    return sources


def _plain(value: Any) -> Any:
    """Drop the position bookkeeping: plain str, list and dict, as strictyaml's data."""
    if isinstance(value, _Scalar):
        return str(value)
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value
