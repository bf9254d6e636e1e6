"""Generated configs: checks never raise, every finding is located, and on what a schema can say
our verdict is jsonschema's (Draft 7) verdict."""

from __future__ import annotations

import functools
import math
import sys
import tempfile
from pathlib import Path

import pytest
import tomlkit
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from osmosis_workspace.check.families.configs import check_config_doc, check_config_file, walk
from osmosis_workspace.check.families.secrets import check_config_secrets
from osmosis_workspace.core.schemas import load_schema
from osmosis_workspace.core.schemas.evaluate import is_valid, violations
from osmosis_workspace.readers.toml_locate import TomlDoc
from osmosis_workspace.core.workspace import Workspace

from config_workspace import build_workspace

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

# Python's `$` also matches before a final newline, ECMA's (and ours) does not: keep "\n" out of
# generated strings so both validators judge the same thing (the difference has its own test).
_TEXT = st.text(alphabet=st.characters(blacklist_characters="\n", blacklist_categories=("Cs",)), max_size=12)
NAMES = st.one_of(
    st.sampled_from(["OPENAI_API_KEY", "HF_TOKEN", "A", "_X", "_OSMOSIS_Y", "ROLLOUT_PORT", "GITHUB_TOKEN", "lower", "1BAD"]),
    st.from_regex(r"[A-Za-z_][A-Za-z0-9_-]{0,10}", fullmatch=True),
)
SCALARS = st.one_of(
    st.integers(-3, 100),
    st.floats(min_value=-3, max_value=3),
    st.just(math.inf),
    st.booleans(),
    _TEXT,
    st.sampled_from(["multiply", "main.py", "0123abc", "deadbeefdeadbeef", "", "rollouts/x", "default", "Multi",
                     "data/multiply.jsonl", "../x.py", "openai/gpt-5-mini"]),
)
VALUES = st.one_of(SCALARS, st.lists(SCALARS, max_size=3), st.dictionaries(NAMES, SCALARS, max_size=2))


def table(keys: list[str], values=SCALARS, extra: bool = True):
    known = st.fixed_dictionaries({}, optional={k: values for k in keys})
    if not extra:
        return known
    return st.tuples(known, st.dictionaries(NAMES, SCALARS, max_size=1)).map(lambda kv: {**kv[1], **kv[0]})


def schema_keys(kind: str, name: str) -> list[str]:
    return list(load_schema(kind)["properties"][name].get("properties", {}))


def configs(kind: str):
    tables = {
        "experiment": st.one_of(table(schema_keys(kind, "experiment")), SCALARS),
        "env": st.dictionaries(NAMES, st.one_of(_TEXT, st.integers()), max_size=3),
        "secrets": st.one_of(
            st.fixed_dictionaries({}, optional={"required": st.lists(st.one_of(NAMES, st.integers()), max_size=3)}),
            table(["required"], st.lists(NAMES, max_size=3)),
        ),
        "advanced": st.dictionaries(NAMES, VALUES, max_size=2),
        "evaluation": table(schema_keys("eval", "evaluation")),
        "training": table(schema_keys("training", "training")),
        "sampling": table(schema_keys("training", "sampling")),
        "checkpoints": table(schema_keys("training", "checkpoints")),
        "evalution": st.dictionaries(NAMES, SCALARS, max_size=1),
    }
    return st.fixed_dictionaries({}, optional=tables)


def roundtrip(data: dict) -> str:
    return tomlkit.dumps(data)


@functools.lru_cache(maxsize=None)
def _validator(kind: str):
    import jsonschema

    return jsonschema.Draft7Validator(load_schema(kind))


SCHEMA_CODES = {"CFG002", "CFG003", "CFG004", "CFG005", "CFG028", "CFG006", "CFG007", "CFG008", "CFG009", "CFG010",
                "CFG011", "CFG012", "CFG014", "CFG015"}


def _non_finite_range(error) -> bool:
    import math

    return error.validator in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum") \
        and isinstance(error.instance, float) and not math.isfinite(error.instance)


@pytest.mark.parametrize("kind", ["eval", "training"])
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_verdict_agrees_with_jsonschema(kind, data):
    config = data.draw(configs(kind))
    text = roundtrip(config)
    parsed = tomllib.loads(text)
    assert is_valid(load_schema(kind), parsed) == _validator(kind).is_valid(parsed)
    # `inf` past a bound is CFG023 (not finite), our one finding for it, rather than a schema code
    theirs = not any(not _non_finite_range(e) for e in _validator(kind).iter_errors(parsed))
    doc = TomlDoc.parse(text)
    found = list(check_config_doc(doc, kind, None, Path("x.toml"), "x.toml"))
    assert bool({d.code for d in found} & SCHEMA_CODES) == (not theirs), [d.message for d in found]
    for d in found:
        assert d.line is not None and d.column is not None, d
        assert d.message and "\n" not in d.message


@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_every_value_is_located(data):
    config = data.draw(configs("training"))
    text = roundtrip(config)
    doc = TomlDoc.parse(text)
    lines = text.split("\n")
    for path, value in walk(doc.data):
        if not path or isinstance(value, (dict, list)):
            continue
        pos = doc.locator.value(path)
        assert pos is not None, path
        first = lines[pos[0] - 1][pos[1] - 1]
        if isinstance(value, str):
            assert first in "\"'", (path, lines[pos[0] - 1])
        elif isinstance(value, bool):
            assert first in "tf"
        else:
            assert first in "+-0123456789in", (path, lines[pos[0] - 1])


_WS = None


def _workspace() -> Path:
    global _WS
    if _WS is None:
        _WS = build_workspace(Path(tempfile.mkdtemp()) / "ws")
    return _WS


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.text(max_size=200))
def test_random_text_never_raises(text):
    root = _workspace()
    path = root / "configs" / "eval" / "multiply.toml"
    path.write_text(text, encoding="utf-8")
    found = check_config_file(path, "eval", Workspace(root), "configs/eval/multiply.toml")
    found += check_config_secrets(TomlDoc.parse(text), "configs/eval/multiply.toml")
    try:
        # as the checks read it: universal newlines turn a lone "\r" into "\n"
        tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError:
        assert [d.code for d in found] == ["CFG001"]
    for d in found:
        assert d.message and "\n" not in d.message


@settings(max_examples=200, deadline=None)
@given(text=st.from_regex(r"\A(\[[a-z]{1,5}\]\n)?([a-z_]{1,6} = (\"[^\"\\\n]{0,6}\"|[0-9]{1,3}|true|\[\]|\{\})\n){0,6}\Z"))
def test_toml_shaped_text_never_raises(text):
    doc = TomlDoc.parse(text)
    list(check_config_doc(doc, "training", None, Path("x.toml"), "x.toml"))
    check_config_secrets(doc, "x.toml")


def valid_configs():
    experiment = st.fixed_dictionaries(
        {"rollout": st.from_regex(r"[a-z][a-z0-9]{0,8}(-[a-z0-9]{1,4}){0,2}", fullmatch=True).filter(lambda s: s != "default"),
         "entrypoint": st.sampled_from(["main.py", "src/agent.py"]),
         "model_path": st.sampled_from(["openai/gpt-5-mini", "Qwen/Qwen3.5-122B-A10B"]),
         "dataset": st.sampled_from(["data/multiply.jsonl", "multiply-v2"])},
        optional={"branch": st.sampled_from(["main", "dev"])},
    )
    evaluation = st.fixed_dictionaries({}, optional={
        "limit": st.integers(1, 10**6), "n": st.integers(1, 64), "batch_size": st.integers(1, 512),
        "pass_threshold": st.floats(0, 1), "agent_workflow_timeout_s": st.floats(0.001, 1e5),
        "grader_timeout_s": st.integers(1, 10**4)})
    env = st.dictionaries(st.from_regex(r"[A-Z][A-Z0-9_]{0,8}", fullmatch=True)
                          .filter(lambda n: n not in {"GITHUB_TOKEN", "ROLLOUT_PORT", "ROLLOUT_NAME"})
                          .filter(lambda n: not n.endswith(("_KEY", "_TOKEN", "_SECRET", "_PASSWORD", "_PASSWD", "_CREDENTIALS", "_CREDENTIAL"))),
                          st.sampled_from(["1", "info", "debug", "true"]), max_size=3)
    secrets = st.lists(st.from_regex(r"[A-Z][A-Z0-9_]{0,10}", fullmatch=True), unique=True, max_size=3)
    return st.tuples(experiment, evaluation, env, secrets).map(
        lambda t: {"experiment": t[0], "evaluation": t[1], "env": {k: v for k, v in t[2].items() if k not in t[3]},
                   "secrets": {"required": t[3]}})


@settings(max_examples=200, deadline=None)
@given(config=valid_configs())
def test_valid_configs_produce_nothing(config):
    text = roundtrip(config)
    doc = TomlDoc.parse(text)
    found = list(check_config_doc(doc, "eval", None, Path("x.toml"), "x.toml")) + check_config_secrets(doc, "x.toml")
    assert found == [], [d.message for d in found]


def test_dollar_means_end_of_string_like_ecma():
    schema = load_schema("eval")["properties"]["secrets"]
    assert is_valid(schema, {"required": ["OPENAI_API_KEY"]})
    assert [v.keyword for v in violations(schema, {"required": ["OPENAI_API_KEY\n"]})] == ["pattern"]
