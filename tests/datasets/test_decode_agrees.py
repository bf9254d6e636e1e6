"""readers/datasets/decode.py gives orjson's answer: where the standard library decodes a text
itself (``standard`` is not UNSURE) the value is orjson's, type for type; every other text, and
every text once orjson is loaded, goes to orjson. Curated edges first, then generated JSON texts
mixing the numbers, escapes and constants where the two readers part."""

from __future__ import annotations

import math
import random

import orjson
import pytest

from osmosis_workspace.readers.datasets import decode
from osmosis_workspace.readers.datasets.decode import UNSURE, standard


def _same(a: object, b: object) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(map(_same, a, b))
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return a == b


def _agrees(data: bytes | str) -> bool | None:
    """None when ``standard`` leaves it to orjson, else whether its value is orjson's."""
    got = standard(data)
    if got is UNSURE:
        return None
    try:
        return _same(got, orjson.loads(data))
    except orjson.JSONDecodeError:
        return False  # the standard library accepted what orjson refuses


PARTED = [  # texts the standard library reads, where orjson refuses them or reads them otherwise
    b"NaN", b"[1, Infinity]", b'{"a": -Infinity}',  # constants: orjson refuses
    b"1e400", b"-2E+309",  # json overflows to infinity; orjson refuses
    b"18446744073709551616", b"-9223372036854775809", b"12345678901234567890123",  # beyond 64 bits: orjson floats
    b'"\\ud800"', b'["x\\uDC00"]',  # lone surrogates: json keeps them, orjson refuses
    b"\xff\xfe[\x001\x00]\x00", b'"\xe9"',  # not UTF-8 (json would guess UTF-16)
    "\ud800".join('""'),  # a str orjson cannot encode
    b"[" * 995 + b"]" * 995,  # deep: json's RecursionError
]
SAME = [b'{"a": 1, "a": 2}', b" [1, 2.5, -0, -0.0, 1E5, 1e-40] \r\n", b'"\\u00e9 \\u0000 \\/"',
        b"922337203685477580", b'{"user_prompt": "x", "ground_truth": "4"}', '{"k": "\u00e9"}', b"true", b"null"]


@pytest.mark.parametrize("text", PARTED)
def test_texts_where_the_readers_part_go_to_orjson(text):
    assert _agrees(text) is None


@pytest.mark.parametrize("text", SAME)
def test_plain_texts_are_read_as_orjson_reads_them(text):
    assert _agrees(text) is True


def test_loads_raises_orjsons_error_for_what_orjson_refuses():
    for text in (b"NaN", b"1e400", b'"\\ud800"', b"", b"[1,]"):
        with pytest.raises(orjson.JSONDecodeError):
            decode.loads(text)


def _number(r: random.Random) -> str:
    return r.choice([
        lambda: str(r.randrange(-10 ** r.randrange(1, 25), 10 ** r.randrange(1, 25))),
        lambda: repr(r.uniform(-1e6, 1e6)),
        lambda: f"{r.randrange(1, 10 ** r.randrange(1, 20))}e{r.choice(['', '-', '+'])}{r.randrange(0, 400)}",
        lambda: f"{r.randrange(10 ** r.randrange(1, 18))}.{r.randrange(10 ** r.randrange(1, 18))}E{r.randrange(-350, 350)}",
        lambda: r.choice(["NaN", "Infinity", "-Infinity", "-0", "0", "-0.0", "1.", "01", ".5", "1e", "-"]),
        lambda: repr(r.random() * 10 ** r.randrange(-320, 309)),
    ])()


def _string(r: random.Random) -> str:
    parts = ["a", "\\n", "\\u00e9", "\\ud83d\\ude00", "\\ud800", "\\udc00", '\\"', "é", "\x01", "\\u0000", "😀", "\\/"]
    return '"' + "".join(r.choice(parts) for _ in range(r.randrange(4))) + '"'


def _value(r: random.Random, depth: int = 0) -> str:
    kind = r.randrange(6 if depth < 4 else 3)
    if kind == 0:
        return _number(r)
    if kind == 1:
        return _string(r)
    if kind == 2:
        return r.choice(["true", "false", "null", "tru", "nul"])
    if kind == 3:
        return "[" + ",".join(_value(r, depth + 1) for _ in range(r.randrange(4))) + "]"
    return "{" + ",".join(f"{_string(r)}:{_value(r, depth + 1)}" for _ in range(r.randrange(4))) + "}"


def test_generated_texts_the_standard_library_reads_are_read_as_orjson_reads_them():
    r = random.Random(40)
    read = 0
    for _ in range(30_000):
        text = _value(r)
        if r.random() < 0.05:
            text = " " + text + r.choice([" ", "\r", "\n", "\t", "x", ",", ""])
        data = text.encode("utf-8", "surrogatepass") if r.random() < 0.9 else text
        verdict = _agrees(data)
        assert verdict is not False, data
        read += verdict is True
    assert read > 10_000  # the standard library did read most of them
