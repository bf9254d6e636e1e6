"""Issue 10, point 2: configs/benchmark/*.toml is a known config kind (contract section 3,
osmosis-ai benchmark_config.py): parsed, held to schemas/benchmark.schema.json and to the checks
`osmosis benchmark submit` makes beyond it, scanned for credentials, and accepted by `validate`.

Each case's verdict was compared with osmosis-ai 0.3.7's own `load_benchmark_submit_config`:
every "errors" case is one it rejects, every case with no errors one it accepts.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from osmosis_workspace.check.families.configs import check_config_file, guess_config_kind
from osmosis_workspace.check.families.secrets import check_config_secrets
from osmosis_workspace.core.schemas import load_schema
from osmosis_workspace.readers.toml_locate import TomlDoc

from .conftest import codes, commit_all, run_json

AGENT = '''
[[agents]]
harness = "codex"

[agents.model]
type = "provider"
model = "openai/gpt-5.2"
api_key_secret = "OPENAI_API_KEY"
'''
BASE = '[experiment]\nbenchmark = "terminal-bench-2-1"\n'

# (id, text, the error codes we report; [] = the SDK accepts it and so do we)
CASES = [
    ("minimal", BASE + AGENT, []),
    ("every-table", BASE + '[tasks]\ntask_set = "parity"\ntask_names = ["a/b"]\ncategories = ["x"]\n'
     '[execution]\nattempts_per_task = 2\nmax_concurrent_attempts = 4\ntimeout_multiplier = 1.5\nmax_retries = 0\n'
     'pass_threshold = 0.5\njudge_model = "openai/gpt-5.2"\njudge_api_key_secret = "JUDGE_KEY"\n'
     '[verifier]\nrequired = ["VLM_KEY"]\n[secrets]\nrequired = ["WEATHER_API_KEY"]\n[env]\nLOG_LEVEL = "info"\n'
     + AGENT + '[agents.env]\nAGENT_MODE = "strict"\n', []),
    ("endpoint", BASE + '[[agents]]\n[agents.model]\ntype = "endpoint"\nbase_url = "https://x.example/v1"\nmodel = "m"\n'
     'api_key_secret = "EP_KEY"\nextra_headers = {X-Team = "ml"}\n', []),
    ("hosted", BASE + '[[agents]]\nharness = "mini-swe-agent"\n[agents.model]\ntype = "hosted"\nbase_model = "Qwen/Qwen3.6-35B-A3B"\n'
     'lora_model_name = "my-lora"\n[agents.env]\nMSWEA_API_KEY = "not-a-secret-here"\n', []),
    ("cursor-ok", BASE + '[[agents]]\nharness = "cursor-cli"\nharness_api_key_secret = "CURSOR_API_KEY"\n'
     '[agents.model]\ntype = "provider"\nmodel = "m"\napi_key_secret = "OPENAI_API_KEY"\n', []),
    ("github-token-env", BASE + '[env]\nGITHUB_TOKEN = "public-read"\n' + AGENT, []),
    ("no-agents", BASE, ["CFG002"]),
    ("no-experiment", AGENT, ["CFG002"]),
    ("unknown-table", BASE + "[runner]\nx = 1\n" + AGENT, ["CFG003"]),
    ("unknown-key", BASE + "[execution]\nretries = 1\n" + AGENT, ["CFG003"]),
    ("bad-task-set", BASE + '[tasks]\ntask_set = "all"\n' + AGENT, ["CFG006"]),
    ("blank-task-name", BASE + '[tasks]\ntask_names = ["  "]\n' + AGENT, ["CFG006"]),
    ("nine-agents", BASE + AGENT * 9, ["CFG006"]),
    ("model-type", BASE + '[[agents]]\n[agents.model]\ntype = "local"\nmodel = "m"\n', ["CFG006"]),
    ("provider-without-key", BASE + '[[agents]]\n[agents.model]\ntype = "provider"\nmodel = "m"\n', ["CFG002"]),
    ("provider-with-base-url", BASE + AGENT + 'base_url = "https://x"\n', ["CFG003"]),
    ("authorization-header", BASE + '[[agents]]\n[agents.model]\ntype = "endpoint"\nbase_url = "https://x"\nmodel = "m"\n'
     'api_key_secret = "K"\nextra_headers = {authorization = "Bearer x"}\n', ["CFG006"]),
    ("secret-name", BASE + AGENT.replace('"OPENAI_API_KEY"', '"openai-key"'), ["CFG011"]),
    ("reserved-model-secret", BASE + AGENT.replace('"OPENAI_API_KEY"', '"DAYTONA_API_KEY"'), ["CFG010"]),
    ("too-many-secrets", BASE + "[secrets]\nrequired = [" + ", ".join(f'"S{i}"' for i in range(17)) + "]\n" + AGENT, ["CFG006"]),
    ("osmosis-env", BASE + '[env]\n_OSMOSIS_X = "1"\n' + AGENT, ["CFG010"]),
    ("agent-env-name", BASE + AGENT + '[agents.env]\nlog_level = "x"\n', ["CFG009"]),
    ("env-value-type", BASE + "[env]\nN = 1\n" + AGENT, ["CFG004"]),
    ("model-key-in-env", BASE + '[env]\nOPENAI_API_KEY = "x"\n' + AGENT, ["CFG013"]),
    ("judge-key-in-agent-env", BASE + '[execution]\njudge_api_key_secret = "J"\n' + AGENT + '[agents.env]\nJ = "x"\n', ["CFG013"]),
    ("verifier-key-in-env", BASE + '[verifier]\nrequired = ["V"]\n[env]\nV = "x"\n' + AGENT, ["CFG013"]),
    ("cursor-without-secret", BASE + AGENT.replace('"codex"', '"cursor-cli"'), ["CFG025"]),
    ("cursor-wrong-secret", BASE + AGENT.replace('"codex"', '"cursor-cli"\nharness_api_key_secret = "CURSOR_KEY"'), ["CFG025"]),
    ("codex-with-secret", BASE + AGENT.replace('"codex"', '"codex"\nharness_api_key_secret = "CODEX_KEY"'), ["CFG025"]),
    ("cursor-key-in-env", BASE + '[env]\nCURSOR_API_KEY = "x"\n'
     + AGENT.replace('"codex"', '"cursor-cli"\nharness_api_key_secret = "CURSOR_API_KEY"'), ["CFG010"]),
    ("mini-swe-key-in-env", BASE + '[env]\nMSWEA_API_KEY = "x"\n' + AGENT.replace('"codex"', '"mini-swe-agent"'), ["CFG010"]),
]


def _errors(path: Path) -> list[str]:
    found = check_config_file(path, "benchmark", None, path.name)
    return sorted({d.code for d in found if d.severity.value == "error"})


@pytest.mark.parametrize("name, text, expected", CASES, ids=[c[0] for c in CASES])
def test_benchmark_verdicts_match_the_sdk(tmp_path: Path, name: str, text: str, expected: list[str]):
    path = tmp_path / "configs" / "benchmark" / f"{name}.toml"
    path.parent.mkdir(parents=True)
    path.write_text(text, encoding="utf-8")
    assert _errors(path) == expected


def test_secret_in_both_secrets_and_env_is_only_a_warning(tmp_path: Path):
    """benchmark submit does not reject it (unlike eval/training submit); the two values would collide."""
    path = tmp_path / "b.toml"
    path.write_text(BASE + '[secrets]\nrequired = ["W"]\n[env]\nW = "x"\n' + AGENT, encoding="utf-8")
    [finding] = check_config_file(path, "benchmark", None, "b.toml")
    assert (finding.code, finding.severity.value) == ("CFG030", "warning")  # the advice-only variant of CFG013


def test_kind_is_found_from_the_folder_or_the_tables(tmp_path: Path):
    assert guess_config_kind(Path("configs/benchmark/x.toml")) == "benchmark"
    assert guess_config_kind(Path("x.toml"), BASE + AGENT) == "benchmark"


def test_findings_are_located_in_arrays_of_tables(tmp_path: Path):
    path = tmp_path / "b.toml"
    path.write_text(BASE + AGENT + AGENT.replace('"codex"', '"cursor-cli"'), encoding="utf-8")
    [finding] = check_config_file(path, "benchmark", None, "b.toml")
    assert (finding.code, finding.line) == ("CFG025", 4 + AGENT.count("\n") + 1)  # the second agent's harness line
    assert "agent 2" in finding.message


def test_the_schema_says_what_the_sdk_requires():
    schema = load_schema("benchmark")
    assert schema["required"] == ["experiment", "agents"]
    agents = schema["properties"]["agents"]
    assert (agents["minItems"], agents["maxItems"]) == (1, 8)
    assert set(schema["properties"]) == {"experiment", "tasks", "agents", "execution", "verifier", "secrets", "env"}


def test_credentials_in_a_benchmark_config_are_found():
    text = BASE + '[env]\nHF_TOKEN = "hf_' + "a" * 34 + '"\n' + AGENT
    assert {d.code for d in check_config_secrets(TomlDoc.parse(text), "b.toml")} & {"SEC001", "SEC002"}


def test_doctor_and_validate_check_benchmark_configs(platform_template: Path):
    config = platform_template / "configs/benchmark/codex.toml"
    config.write_text(BASE + '[env]\nOPENAI_API_KEY = "sk-proj-' + "x" * 30 + '"\n' + AGENT, encoding="utf-8")
    commit_all(platform_template)
    code, found = run_json("doctor", str(platform_template))
    assert code == 1
    assert {"CFG013", "SEC001"} <= set(codes(found))
    assert all(d["path"] == "configs/benchmark/codex.toml" for d in found if d["code"] in ("CFG013", "SEC001"))
    code, found = run_json("validate", str(config))
    assert code == 1 and {"CFG013", "SEC001"} <= set(codes(found))
    code, found = run_json("validate", str(platform_template / "configs/benchmark/default.toml"))
    assert (code, found) == (0, [])


def test_sub_tables_of_an_array_of_tables_are_located_per_element():
    doc = TomlDoc.parse(BASE + AGENT + AGENT)
    second = 4 + AGENT.count("\n")  # the second [[agents]] header
    assert doc.locator.value(("agents", 1, "model", "api_key_secret")) == (second + 6, 18)
    assert doc.locator.value(("agents", 0, "model", "type")) == (8, 8)


SCHEMA_CODES = {"CFG002", "CFG003", "CFG004", "CFG006", "CFG009", "CFG010", "CFG011"}


@pytest.mark.parametrize("name, text, expected", CASES, ids=[c[0] for c in CASES])
def test_schema_verdict_agrees_with_jsonschema(name: str, text: str, expected: list[str]):
    """Our evaluator (if/then, minItems/maxItems included) says what jsonschema says of the schema."""
    import sys

    import jsonschema

    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    theirs = list(jsonschema.Draft7Validator(load_schema("benchmark")).iter_errors(tomllib.loads(text)))
    from_schema = {"cursor-key-in-env", "mini-swe-key-in-env"}  # CFG010 from the submit checks, not the schema
    ours = bool(set(expected) & SCHEMA_CODES) and name not in from_schema
    assert ours == bool(theirs), [e.message for e in theirs]
