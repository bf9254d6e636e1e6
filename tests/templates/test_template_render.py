"""Every owned template: `osmosis init --template T --defaults` renders a workspace that doctor
accepts, whose generated tests pass, and whose files follow the workspace conventions."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

from template_helpers import ROLLOUT, TEMPLATES, cli, doctor

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    """One workspace per template, made once through the CLI (init with git)."""
    import os

    env = {f"GIT_{r}_{p}": v for r in ("AUTHOR", "COMMITTER") for p, v in (("NAME", "T"), ("EMAIL", "t@example.invalid"))}
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        out = {}
        for template in TEMPLATES:
            target = tmp_path_factory.mktemp("ws") / "demo"
            result = cli("init", target, "--template", template, "--defaults")
            assert result.exit_code == 0, result.output
            out[template] = target
        return out
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


@pytest.mark.parametrize("template", TEMPLATES)
def test_renders_the_rollout_its_configs_and_data(rendered, template):
    ws = rendered[template]
    name = ROLLOUT[template]
    rollout = ws / "rollouts" / name
    entry = "main.py"
    for rel in (entry, "pyproject.toml", "README.md", ".copier-answers.yml"):
        assert (rollout / rel).is_file(), rel
    # tests/ beside the package, or inside the rollout's package (`<rollout>_rollout/tests/`)
    assert list((rollout / "tests").glob("test_*.py")) + list(rollout.glob("*_rollout/tests/test_*.py"))
    for kind in ("eval", "training"):
        config = ws / "configs" / kind / f"{name}.toml"
        assert config.read_text(encoding="utf-8").splitlines()[0] == f"#:schema ../../.osmosis/schemas/{kind}.schema.json"
        data = tomllib.loads(config.read_text(encoding="utf-8"))
        assert data["experiment"]["rollout"] == name
        assert data["experiment"]["entrypoint"] == entry
        # a platform dataset name (what `osmosis dataset upload data/<name>.jsonl` creates), never a path
        assert data["experiment"]["dataset"] == name
    rows = [json.loads(line) for line in (ws / "data" / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(rows) >= 4 and all(r["user_prompt"] and r["ground_truth"] for r in rows)


@pytest.mark.parametrize("template", TEMPLATES)
def test_doctor_reports_no_errors_and_only_blank_placeholders(rendered, template):
    report = doctor(rendered[template])
    errors = [d for d in report["diagnostics"] if d["severity"] == "error"]
    warnings = [d for d in report["diagnostics"] if d["severity"] == "warning"]
    assert errors == []
    if template == "blank":
        assert warnings and {d["code"] for d in warnings} == {"LAY100"}
        assert all(d["path"] and d["line"] and d["column"] for d in warnings)
    else:
        assert warnings == []


def test_blank_placeholders_go_away_once_replaced(tmp_path, monkeypatch):
    for role in ("AUTHOR", "COMMITTER"):
        monkeypatch.setenv(f"GIT_{role}_NAME", "T")
        monkeypatch.setenv(f"GIT_{role}_EMAIL", "t@example.invalid")
    ws = tmp_path / "ws"
    assert cli("init", ws, "--template", "blank", "--defaults", "--data", "rollout_name=echo").exit_code == 0
    before = [d for d in doctor(ws)["diagnostics"] if d["code"] == "LAY100"]
    files = sorted({d["path"] for d in before})
    assert files == ["configs/eval/echo.toml", "configs/training/echo.toml", "data/echo.jsonl",
                     "rollouts/echo/echo_rollout/grading.py", "rollouts/echo/echo_rollout/workflow.py",
                     "rollouts/echo/main.py"]
    for rel in files:
        path = ws / rel
        path.write_text(path.read_text(encoding="utf-8").replace("TODO(osmosis): ", "").replace("TODO(osmosis)", ""), encoding="utf-8")
    after = doctor(ws)
    assert [d for d in after["diagnostics"] if d["code"] == "LAY100"] == []


@pytest.mark.parametrize("template", TEMPLATES)
def test_generated_tests_pass_inside_the_rendered_rollout(rendered, template):
    rollout = rendered[template] / "rollouts" / ROLLOUT[template]
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=rollout,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert " passed" in done.stdout and "failed" not in done.stdout


@pytest.mark.parametrize("template", TEMPLATES)
def test_answers_record_template_and_version(rendered, template):
    answers = yaml.safe_load((rendered[template] / "rollouts" / ROLLOUT[template] / ".copier-answers.yml").read_text())
    assert answers["_osmosis_template"] == template
    assert answers["_src_path"] == f"bundled:{template}"
    assert answers["rollout_name"] == ROLLOUT[template]
    assert answers["_osmosis_version"].startswith("0.") and "+" in answers["_osmosis_version"]


def test_secrets_required_by_configs_reach_env_example(rendered):
    for template, needed in {"llm-judge": "OPENAI_API_KEY"}.items():
        ws = rendered[template]
        for kind in ("eval", "training"):
            data = tomllib.loads((ws / "configs" / kind / f"{template}.toml").read_text())
            assert needed in data["secrets"]["required"]
        names = [line.split("=")[0] for line in (ws / ".env.example").read_text().splitlines() if "=" in line and not line.startswith("#")]
        assert needed in names and len(names) == len(set(names))


@pytest.mark.parametrize("template, deps", [
    # fastapi, uvicorn, httpx: the SDK's [server] extra and base dependencies
    ("calculator-remote", {"osmosis-ai"}),
    ("llm-judge", {"osmosis-ai", "openai"}),
    ("blank", {"osmosis-ai"}),
    ("code", {"osmosis-ai"}),
])
def test_rollout_pyproject_lists_real_dependencies(rendered, template, deps):
    import re

    project = tomllib.loads((rendered[template] / "rollouts" / ROLLOUT[template] / "pyproject.toml").read_text())["project"]
    names = {re.match(r"[A-Za-z0-9._-]+", d).group(0).lower() for d in project["dependencies"]}
    assert deps <= names
    sdk = next(d for d in project["dependencies"] if d.startswith("osmosis-ai["))
    assert "server" in sdk[sdk.index("[") + 1 : sdk.index("]")].split(","), sdk
    assert re.search(r">=0\.3\.\d+,<0\.4$", sdk), sdk  # the SDK generation the templates target
    assert project["requires-python"] == ">=3.12"  # osmosis-ai 0.3 needs 3.12
