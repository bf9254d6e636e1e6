"""The commented reference configs a workspace carries (configs/<kind>/default.toml): every key of the
contract (section 3) is there, the file parses, and a copy filled in with real values is a config our
checks accept. `rollout new` points at them."""

from __future__ import annotations

import re
import sys

import pytest
from typer.testing import CliRunner

from osmosis_workspace.cli import app
from osmosis_workspace.core.schemas import load_schema

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

RUNNER = CliRunner()

# Benchmark configs have no schema of ours to read the keys from; these are the contract's (section 3,
# from osmosis-ai's benchmark_config.py).
BENCHMARK_KEYS = {
    "experiment": {"benchmark"},
    "tasks": {"task_set", "task_names", "categories"},
    "agents": {"harness", "harness_api_key_secret", "env"},
    "agents.model": {"type", "model", "api_key_secret", "base_url", "extra_headers", "base_model", "lora_model_name"},
    "execution": {"attempts_per_task", "max_concurrent_attempts", "timeout_multiplier", "max_retries",
                  "pass_threshold", "judge_model", "judge_api_key_secret"},
    "verifier": {"required"},
    "secrets": {"required"},
    "env": set(),
}


def _schema_keys(kind: str) -> dict[str, set[str]]:
    schema = load_schema(kind)
    return {table: set((spec.get("properties") or {})) for table, spec in schema["properties"].items()}


EXPECTED = {"eval": _schema_keys("eval"), "training": _schema_keys("training"), "benchmark": BENCHMARK_KEYS}

_TABLE = re.compile(r"^#?\s*\[\[?([a-z.]+)\]\]?\s*$")
_KEY = re.compile(r"^#?\s*([a-z_]+)\s*=")


def documented(text: str) -> dict[str, set[str]]:
    """(table -> keys) written in the file, set or commented out."""
    found: dict[str, set[str]] = {}
    table = ""
    for line in text.splitlines():
        if m := _TABLE.match(line):
            table = m.group(1)
            found.setdefault(table, set())
        elif (m := _KEY.match(line)) and table:
            found[table].add(m.group(1))
    return found


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    ws = tmp_path_factory.mktemp("refs") / "ws"
    result = RUNNER.invoke(app, ["init", str(ws), "--defaults", "--no-git"])
    assert result.exit_code == 0, result.output
    return ws


@pytest.mark.parametrize("kind", sorted(EXPECTED))
def test_every_contract_key_is_documented(workspace, kind):
    text = (workspace / "configs" / kind / "default.toml").read_text(encoding="utf-8")
    tomllib.loads(text)
    assert text.startswith(f"#:schema ../../.osmosis/schemas/{kind}.schema.json\n")
    if kind == "benchmark":  # a working example as it stands (issue 29: as the platform's is), copied before a submit
        assert "a working example" in text and "submit the copy" in text
    else:
        assert "<" in text and "never submit this file" in text  # a reference with placeholders, and says so
    found = documented(text)
    for table, keys in EXPECTED[kind].items():
        assert table in found, f"[{table}] missing from configs/{kind}/default.toml"
        assert keys <= found[table], f"[{table}] lacks {sorted(keys - found[table])}"
    extra = {t: ks - EXPECTED[kind].get(t, set()) for t, ks in found.items()}
    # [env] examples are free names; anything else must be a key the format has
    assert not {t: ks for t, ks in extra.items() if ks and t not in ("env", "agents.env")}, extra


@pytest.mark.parametrize("kind", ["eval", "training"])
def test_a_filled_in_copy_passes_our_config_check(workspace, kind):
    from osmosis_workspace.check.families.configs import check_config_file

    text = (workspace / "configs" / kind / "default.toml").read_text(encoding="utf-8")
    filled = re.sub(r"^# (?=[a-z_]+ = |\[[a-z.]+\]$)", "", text, flags=re.M)  # uncomment every key and table
    filled = re.sub(r'^commit_sha = .*\n', "", filled, flags=re.M)  # not together with branch
    filled = (filled.replace("<your-rollout>", "multiply").replace("<your-dataset>", "multiply")
              .replace("<base-model>", "Qwen/Qwen3.6-35B-A3B").replace("<branch>", "main")
              .replace('"<SECRET_NAME>"', '"MY_API_KEY"'))
    assert "<" not in re.sub(r"#.*", "", filled)
    path = workspace / "configs" / kind / "multiply-full.toml"
    path.write_text(filled, encoding="utf-8")
    try:
        data = tomllib.loads(filled)
        for table, keys in EXPECTED[kind].items():
            if keys and table != "secrets":
                assert keys - {"commit_sha"} <= set(data[table]), table  # every key really set in the copy
        findings = [d for d in check_config_file(path, kind, None, path.name) if d.severity.value == "error"]
        assert findings == [], [f"{d.code} {d.message}" for d in findings]
    finally:
        path.unlink()


def test_rollout_new_points_at_the_references(workspace, monkeypatch):
    from tests.cli.test_bundled_commands import command_lines, verdict

    monkeypatch.chdir(workspace)
    result = RUNNER.invoke(app, ["rollout", "new", "adder", "--defaults"])
    assert result.exit_code == 0, result.output
    steps = result.output.split("Next steps:", 1)[1]
    assert "configs/eval/default.toml" in steps and "configs/training/default.toml" in steps
    assert "--dataset-file data/adder.jsonl" in steps
    lines = command_lines(steps)
    assert lines
    assert [verdict(program, tokens) for _, program, tokens in lines] == [None] * len(lines)
