"""What the rendered workspace files say: CI workflow, git ignores, secrets example, root pyproject."""

from __future__ import annotations

import subprocess
import sys

import yaml

from osmosis_workspace import __version__

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib


def test_ci_workflow_is_a_valid_github_workflow_running_doctor(make_workspace):
    ws = make_workspace(git=False)
    workflow = ws / ".github/workflows/osmosis.yml"
    proc = subprocess.run([sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows",
                           str(workflow)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    data = yaml.safe_load(workflow.read_text())
    assert set(data[True]) == {"push", "pull_request"}  # YAML 1.1 reads the key `on` as True
    runs = [s.get("run", "") for job in data["jobs"].values() for s in job["steps"]]
    uses = [s.get("uses", "") for job in data["jobs"].values() for s in job["steps"]]
    # CI installs the version that generated the workspace, not whatever is newest, from the one place
    # both jobs read (checker_source, recorded at init: tests/init/test_generated_ci.py runs these steps)
    assert data["env"]["OSMOSIS_CHECKER"] == f"osmosis-workspace=={__version__}"
    # every job that runs the checker (doctor; rehearse's affected, per-rollout and summary jobs) installs it the same way
    assert sum("pip install --disable-pip-version-check --quiet $OSMOSIS_CHECKER" in r for r in runs) == 4
    assert "osmosis doctor --format github" in runs
    assert any(u.startswith("actions/setup-python@") for u in uses)


def test_ci_workflow_rehearses_pull_requests_on_python_312_with_uv(make_workspace):
    ws = make_workspace(git=False)
    jobs = yaml.safe_load((ws / ".github/workflows/osmosis.yml").read_text())["jobs"]
    # pull requests only: the affected job gates the matrix, the summary job follows both whatever they did
    assert jobs["affected"]["if"] == "github.event_name == 'pull_request'"
    assert jobs["rehearse"]["needs"] == "affected" and jobs["rehearse"]["if"] == "needs.affected.outputs.count != '0'"
    assert jobs["rehearse-summary"]["if"] == "always() && github.event_name == 'pull_request'"
    job = jobs["rehearse"]
    versions = [s["with"]["python-version"] for s in job["steps"] if s.get("uses", "").startswith("actions/setup-python@")]
    runs = [s.get("run", "") for s in job["steps"]]
    assert versions == ["3.12"]
    assert "$OSMOSIS_CHECKER" in runs[-4] and " uv\n" in runs[-4]
    assert runs[-3] == "uv sync"
    # the job's group of names reaches the command line after `--` (a name is never an option)
    assert '["osmosis-workspace", "rehearse", "--format", "json", "--", *names]' in runs[-2]


def test_git_ignores_secrets_and_caches_but_not_the_example(make_workspace):
    ws = make_workspace()
    (ws / ".env").write_text("OPENAI_API_KEY=sk-not-real\n")
    (ws / ".venv").mkdir()
    (ws / "rollouts/multiply/__pycache__").mkdir()
    (ws / "rollouts/multiply/__pycache__/grading.cpython-311.pyc").write_bytes(b"\0")
    (ws / ".pytest_cache").mkdir()
    status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=ws,
                            capture_output=True, text=True, check=True).stdout
    assert status == ""
    tracked = subprocess.run(["git", "ls-files"], cwd=ws, capture_output=True, text=True, check=True).stdout.split()
    assert ".env.example" in tracked and ".osmosis/schemas/eval.schema.json" in tracked
    assert "rollouts/multiply/.copier-answers.yml" in tracked and ".copier-answers.yml" in tracked


def test_env_example_names_every_secret_the_configs_require(make_workspace):
    ws = make_workspace(git=False)
    example = {line.split("=", 1)[0] for line in (ws / ".env.example").read_text().splitlines()
               if line and not line.startswith("#")}
    for kind in ("eval", "training"):
        config = tomllib.loads((ws / f"configs/{kind}/multiply.toml").read_text())
        assert set(config.get("secrets", {}).get("required", [])) <= example
    assert "sk-" not in (ws / ".env.example").read_text()


def test_eval_secrets_follow_the_model_provider(make_workspace):
    ws = make_workspace(name="hf", git=False, data=("model_path=Qwen/Qwen3-8B",))
    assert tomllib.loads((ws / "configs/eval/multiply.toml").read_text())["secrets"] == {"required": []}


def test_configs_start_with_their_schema_directive(make_workspace):
    ws = make_workspace(git=False)
    for kind in ("eval", "training"):
        first = (ws / f"configs/{kind}/multiply.toml").read_text().splitlines()[0]
        assert first == f"#:schema ../../.osmosis/schemas/{kind}.schema.json"
        assert (ws / "configs" / kind / first.split(" ", 1)[1]).resolve().is_file()
