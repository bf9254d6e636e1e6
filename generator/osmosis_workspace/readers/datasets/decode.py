"""``orjson.loads``'s answer for one JSON text without importing orjson while a run can do without it.

Importing orjson costs a cold ``doctor`` about 15 ms (it imports dataclasses, inspect, uuid and
platform for what it can serialise): more than the standard library takes to decode a template's
dataset of a few KB. :func:`loads` gives what orjson would, value or error: the standard library
decodes a text only where the two cannot differ, and orjson (imported then) decodes everything else.
Once orjson is loaded (a large file's scan imports it for its speed) every text goes to it directly.

Where the standard library accepts what orjson refuses, or reads it otherwise, the text goes to orjson:
  - ``NaN``, ``Infinity``, ``-Infinity`` (json reads them; orjson refuses): refused here, so orjson's error;
  - integers of 19 or more digits (orjson reads those beyond 64 bits as floats) and numbers with a
    three-digit exponent (json overflows them to infinity, orjson refuses): ``_UNSURE``;
  - ``\\uD800``-``\\uDFFF`` escapes (json keeps a lone surrogate, orjson refuses it): ``_UNSURE``;
  - bytes that are not UTF-8 (json would guess UTF-16 or 32) and strings that cannot be encoded:
    orjson reads only UTF-8;
  - nesting deep enough to stop json (a RecursionError) or anything json refuses: orjson's own answer.
"""

from __future__ import annotations

import json
import re
import sys

_UNSURE = re.compile(rb"\d{19}|[eE][-+]?\d{3}|\\u[dD][89a-fA-F]")


class _Constant(ValueError):
    pass


def _refuse(name: str) -> object:
    raise _Constant(name)


UNSURE = object()  # what :func:`standard` returns for a text it leaves to orjson


def standard(data: bytes | str) -> object:
    """The standard library's reading of ``data`` where it is orjson's, else UNSURE."""
    try:
        raw = data.encode() if isinstance(data, str) else data
        if not _UNSURE.search(raw):
            return json.loads(raw.decode("utf-8"), parse_constant=_refuse)
    except (ValueError, RecursionError, TypeError, AttributeError):  # orjson answers: its value or its error
        pass
    return UNSURE


def loads(data: bytes | str) -> object:
    """``orjson.loads(data)``: the same value, or orjson's JSONDecodeError."""
    fast = sys.modules.get("orjson")
    if fast is None:
        value = standard(data)
        if value is not UNSURE:
            return value
        import orjson as fast
    return fast.loads(data)
