"""Random TOML, JSON lines, CSV, SKILL.md front matter and Python through the file-level checks that
`osmosis validate` uses: whatever the input, the result is a clean list of diagnostics, never an
exception."""

from __future__ import annotations

import json
import math
import tempfile
from pathlib import Path

import tomlkit
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from osmosis_workspace.core.diagnostics import Diagnostic, Severity
from osmosis_workspace.check.doctor import load_rules
from osmosis_workspace.check.registry import RULES
from osmosis_workspace.check.validate import file_function

load_rules()
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

TOML_TOKENS = [
    "[experiment]", "[evaluation]", "[training]", "[sampling]", "[checkpoints]", "[env]", "[secrets]", "[advanced]",
    "[[experiment]]", "rollout", "entrypoint", "model_path", "dataset", "commit_sha", "branch", "required", "limit",
    "n", "lr", "pass_threshold", "rollout_temperature", "=", " = ", "\n", '"x"', "'y'", '"""', "1", "-1", "0.5", "nan",
    "inf", "true", "[", "]", "{", "}", ",", "#", "#:schema ../../.osmosis/schemas/eval.schema.json", "\u00e9", "\x00", ".",
    "OPENAI_API_KEY", '"main.py"', '"../../etc/passwd"', '"multiply"',
]
SECTIONS = {
    "experiment": ["rollout", "entrypoint", "model_path", "dataset", "branch", "commit_sha", "extra"],
    "evaluation": ["limit", "n", "batch_size", "pass_threshold", "agent_workflow_timeout_s", "grader_timeout_s"],
    "training": ["lr", "total_epochs", "n_samples_per_prompt", "max_prompt_length"],
    "sampling": ["rollout_temperature", "rollout_top_p"],
    "checkpoints": ["eval_interval", "checkpoint_save_freq"],
    "env": ["FOO", "_OSMOSIS_X", "bad-key", "ROLLOUT_PORT"],
    "secrets": ["required", "other"],
    "advanced": ["anything"],
    "bogus": ["x"],
}
scalars = st.one_of(
    st.integers(-(2**63), 2**63 - 1), st.floats(allow_nan=True, allow_infinity=True), st.booleans(),
    st.text(max_size=30), st.sampled_from(["multiply", "main.py", "../x", "0123abc", "a" * 41, "OPENAI_API_KEY"]),
)
values = st.one_of(scalars, st.lists(scalars, max_size=4), st.dictionaries(st.text(max_size=8), scalars, max_size=3))
configs = st.dictionaries(
    st.sampled_from(sorted(SECTIONS)),
    st.sampled_from(sorted(SECTIONS)).flatmap(lambda s: st.dictionaries(st.sampled_from(SECTIONS[s]), values, max_size=5)),
    max_size=6,
)
json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=20)),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(["user_prompt", "ground_truth", "system_prompt", "label", "metadata", "x"]), inner, max_size=4)),
    max_leaves=10,
)
rows = st.dictionaries(st.sampled_from(["user_prompt", "ground_truth", "system_prompt", "label", "metadata", "User_Prompt"]), json_values, max_size=5)
front_keys = ["name", "description", "license", "compatibility", "metadata", "allowed-tools", "extra", "Name"]


def check_clean(found: object, display: str) -> None:
    assert isinstance(found, list)
    for d in found:
        assert isinstance(d, Diagnostic)
        assert d.code in RULES, d.code
        assert isinstance(d.severity, Severity)
        assert d.message and "\n" not in d.message, d.message
        assert d.hint
        assert d.path is None or d.path == display or d.path.startswith(display + "/"), (d.path, display)
        assert d.line is None or d.line >= 1
        assert d.column is None or d.column >= 1


def run_file(kind: str, name: str, content: bytes | str, *, config_kind: str = "eval") -> None:
    fn = file_function(kind)
    assert fn is not None, f"the {kind} file function is missing"
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            path.write_text(content, encoding="utf-8", errors="surrogatepass")
        else:
            path.write_bytes(content)
        target = path.parent if kind == "skill" else path
        display = target.name
        found = fn(target, config_kind, None, display) if kind == "config" else fn(target, display)
        check_clean(found, display)


@SETTINGS
@given(st.lists(st.sampled_from(TOML_TOKENS), max_size=40).map("".join), st.sampled_from(["eval", "training"]))
def test_toml_token_soup(text, kind):
    run_file("config", "c.toml", text.encode("utf-8", "surrogatepass"), config_kind=kind)


@SETTINGS
@given(st.binary(max_size=200))
def test_toml_random_bytes(data):
    run_file("config", "c.toml", data)


@SETTINGS
@given(configs, st.sampled_from(["eval", "training"]))
def test_structured_configs(config, kind):
    def clean(v):
        # tomlkit cannot write None or non-string keys; everything else (nan, inf, huge ints) it can.
        if isinstance(v, dict):
            return {str(k): clean(x) for k, x in v.items()}
        if isinstance(v, list):
            return [clean(x) for x in v if not isinstance(x, (list, dict))]
        return v

    try:
        text = tomlkit.dumps(clean(config))
    except Exception:  # noqa: BLE001  an unwritable combination: nothing to check
        text = ""
    run_file("config", "c.toml", text, config_kind=kind)


@SETTINGS
@given(st.lists(st.one_of(rows.map(json.dumps), json_values.map(json.dumps), st.text(max_size=30)), max_size=8))
def test_json_lines(lines):
    run_file("dataset", "d.jsonl", "\n".join(lines))


@SETTINGS
@given(st.lists(rows, max_size=6))
def test_json_arrays(items):
    run_file("dataset", "d.json", json.dumps(items))


@SETTINGS
@given(st.lists(st.lists(st.text(alphabet='ab,"\n\r x', max_size=8), min_size=1, max_size=4), max_size=6))
def test_csv(table):
    run_file("dataset", "d.csv", "\n".join(",".join(r) for r in table))


@SETTINGS
@given(
    st.dictionaries(st.sampled_from(front_keys), st.one_of(st.text(max_size=80), st.integers(), st.none(), st.lists(st.text(max_size=5), max_size=2), st.dictionaries(st.text(max_size=5), st.text(max_size=5), max_size=2)), max_size=6),
    st.sampled_from(["my-skill", "My_Skill", "a" * 70, "x--y"]),
    st.text(max_size=100),
)
def test_skill_front_matter(front, folder, body):
    text = "---\n" + yaml.safe_dump(front, allow_unicode=True) + "---\n" + body
    run_file("skill", f"{folder}/SKILL.md", text)


@SETTINGS
@given(st.text(max_size=300), st.sampled_from(["my-skill", "x"]))
def test_skill_random_text(text, folder):
    run_file("skill", f"{folder}/SKILL.md", text.encode("utf-8", "surrogatepass"))


@SETTINGS
@given(st.lists(st.sampled_from([
    "import osmosis_ai\n", "from osmosis_ai.rollout import AgentWorkflow, Grader\n", "class A(AgentWorkflow):\n",
    "    async def run(self, ctx):\n", "        pass\n", "class G(Grader):\n", "    def grade(self, ctx):\n", "B = A\n",
    "def (:\n", "    ", "\t", "x = 1\n", "class C(A): pass\n", "@deco\n", "async def f(): await g()\n",
]), max_size=15).map("".join))
def test_entrypoint_python(source):
    run_file("entrypoint", "main.py", source)


def test_nan_is_not_a_number_we_choke_on():
    assert math.isnan(float("nan"))  # hypothesis' floats include it; the config strategy relies on it
