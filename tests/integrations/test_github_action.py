"""The composite action (action.yml): its shell steps run for real, with bash, in a workspace.

GitHub is not here, so the test plays the runner's part: it substitutes the `${{ ... }}`
expressions the way GitHub would, evaluates the steps' `if:` conditions, and runs each `run:`
script with the runner's bash flags. The pip-install step runs against a `python` that records its
arguments instead of installing, so its command line is checked without the network.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement

from integration_helpers import REPO, break_eval_config, checkout_env

ACTION = yaml.safe_load((REPO / "action.yml").read_text(encoding="utf-8"))
STEPS = ACTION["runs"]["steps"]
_EXPR = re.compile(r"\$\{\{\s*([^}]+?)\s*\}\}")


def inputs_with(**given: str) -> dict[str, str]:
    """Every declared input at its default, overridden by ``given`` (``sarif_file`` -> ``sarif-file``)."""
    values = {name: str(spec.get("default", "")) for name, spec in ACTION["inputs"].items()}
    for key, value in given.items():
        name = key.replace("_", "-")
        assert name in values, f"action.yml declares no input {name!r}"
        values[name] = value
    return values


def expression(expr: str, inputs: dict[str, str], action_path: Path) -> str:
    if expr == "github.action_path":
        return str(action_path)
    m = re.fullmatch(r"inputs\.([\w-]+)", expr)
    assert m, f"the test does not know how GitHub evaluates ${{{{ {expr} }}}}"
    return inputs[m.group(1)]


def substitute(text: str, inputs: dict[str, str], action_path: Path = REPO) -> str:
    return _EXPR.sub(lambda m: expression(m.group(1), inputs, action_path), text)


def condition(step: dict, inputs: dict[str, str]) -> bool:
    """A step's `if:`, for the forms this action uses (`inputs.X != ''`, `inputs.X == ''`)."""
    cond = step.get("if")
    if cond is None:
        return True
    m = re.fullmatch(r"inputs\.([\w-]+)\s*(==|!=)\s*''", cond.strip())
    assert m, f"the test does not know how to evaluate if: {cond}"
    empty = inputs[m.group(1)] == ""
    return empty if m.group(2) == "==" else not empty


def run_step(step: dict, inputs: dict[str, str], cwd: Path, path_dir: Path, tmp: Path) -> subprocess.CompletedProcess:
    """Run one `run:` step as the runner does: `bash --noprofile --norc -eo pipefail {0}`."""
    assert step.get("shell") == "bash", f"step {step.get('name')} must say shell: bash (composite actions require a shell)"
    script = tmp / "step.sh"
    script.write_text(substitute(step["run"], inputs), encoding="utf-8")
    env = checkout_env(path_dir)
    env.update({k: substitute(str(v), inputs) for k, v in (step.get("env") or {}).items()})
    return subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)], cwd=cwd, env=env,
                          capture_output=True, text=True)


def step_named(name: str) -> dict:
    (step,) = [s for s in STEPS if s.get("name") == name]
    return step


def doctor_steps(inputs: dict[str, str]) -> list[dict]:
    """The run: steps that call osmosis and would run with these inputs, in order."""
    return [s for s in STEPS if "run" in s and "osmosis " in s["run"] and condition(s, inputs)]


def run_doctor_steps(inputs, ws, osmosis_bin, tmp) -> list[subprocess.CompletedProcess]:
    """Run the action's osmosis steps in order, stopping at the first failure (as the runner does)."""
    results = []
    for step in doctor_steps(inputs):
        proc = run_step(step, inputs, ws, osmosis_bin, tmp)
        results.append(proc)
        if proc.returncode != 0:
            break
    return results


# ------------------------------------------------------------------------------------- structure


def test_action_is_composite_with_declared_inputs():
    assert ACTION["runs"]["using"] == "composite"
    assert {"python-version", "version", "path", "format", "sarif-file"} <= set(ACTION["inputs"])
    assert ACTION["inputs"]["format"]["default"] == "github"
    uses = [s["uses"] for s in STEPS if "uses" in s]
    assert any(u.startswith("actions/setup-python@") for u in uses)
    assert any(u.startswith("github/codeql-action/upload-sarif@") for u in uses)
    # every expression in the action is one the test (and GitHub) can resolve
    for step in STEPS:
        for text in [step.get("run", ""), *map(str, (step.get("env") or {}).values()), *map(str, (step.get("with") or {}).values())]:
            substitute(text, inputs_with())


def test_sarif_upload_runs_only_with_sarif_file_and_before_the_failing_step():
    upload = next(s for s in STEPS if s.get("uses", "").startswith("github/codeql-action/upload-sarif@"))
    assert not condition(upload, inputs_with())
    assert condition(upload, inputs_with(sarif_file="out.sarif"))
    assert substitute(upload["with"]["sarif_file"], inputs_with(sarif_file="out.sarif")) == "out.sarif"
    order = [s.get("name") or s.get("uses") for s in STEPS]
    assert order.index(upload.get("name") or upload["uses"]) < order.index("osmosis doctor")


def test_inputs_are_passed_through_env_not_pasted_into_scripts():
    # `${{ inputs.x }}` inside a script is a shell-injection hole (a path like `$(rm -rf ~)`)
    for step in STEPS:
        assert "${{" not in step.get("run", ""), step.get("name")


# ----------------------------------------------------------------------------------- install step


@pytest.fixture
def recording_python(tmp_path) -> Path:
    """A bin folder whose `python` writes its arguments, one a line, to ``argv.txt`` beside it."""
    bindir = tmp_path / "fakebin"
    bindir.mkdir()
    fake = bindir / "python"
    fake.write_text(f'#!/bin/sh\nprintf "%s\\n" "$@" > "{bindir}/argv.txt"\n', encoding="utf-8")
    fake.chmod(0o755)
    return bindir


@pytest.mark.parametrize(
    ("version", "spec"),
    [
        ("", str(REPO)),  # the tool at the action's own ref
        ("0.1.0", "osmosis-workspace==0.1.0"),
        ("osmosis-workspace>=0.1,<0.2", "osmosis-workspace>=0.1,<0.2"),
    ],
)
def test_install_step_command_line(version, spec, recording_python, tmp_path):
    proc = run_step(step_named("Install osmosis-workspace"), inputs_with(version=version), tmp_path, recording_python, tmp_path)
    assert proc.returncode == 0, proc.stderr
    argv = (recording_python / "argv.txt").read_text(encoding="utf-8").splitlines()
    assert argv[:3] == ["-m", "pip", "install"]
    assert argv[-1] == spec
    if not Path(spec).is_dir():
        Requirement(spec)  # a well-formed requirement: pip would accept it
    else:
        assert (Path(spec) / "pyproject.toml").is_file()


def test_install_step_failure_is_one_error_line_naming_the_source(tmp_path):
    bindir = tmp_path / "failbin"  # a `python` whose pip cannot reach anything
    bindir.mkdir()
    (bindir / "python").write_text("#!/bin/sh\necho 'ERROR: No matching distribution found' >&2\nexit 1\n", encoding="utf-8")
    (bindir / "python").chmod(0o755)
    proc = run_step(step_named("Install osmosis-workspace"), inputs_with(version="9.9.9"), tmp_path, bindir, tmp_path)
    assert proc.returncode == 1
    expected = ("::error::could not install osmosis-workspace from 'osmosis-workspace==9.9.9' "
                "(the action's version input; pip's reason is above)")
    assert [line for line in proc.stdout.splitlines() if line.startswith("::error")] == [expected]


# ------------------------------------------------------------------------------------ doctor steps


def test_doctor_step_passes_on_a_clean_workspace(make_workspace, osmosis_bin, tmp_path):
    ws = make_workspace()
    results = run_doctor_steps(inputs_with(), ws, osmosis_bin, tmp_path)
    assert len(results) == 1  # no sarif-file: only the annotated run
    assert results[0].returncode == 0, results[0].stdout + results[0].stderr
    assert "::error" not in results[0].stdout


def test_doctor_step_annotates_a_broken_config_and_fails(make_workspace, osmosis_bin, tmp_path):
    ws = make_workspace()
    config = break_eval_config(ws)
    results = run_doctor_steps(inputs_with(), ws, osmosis_bin, tmp_path)
    assert results[-1].returncode == 1, results[-1].stderr
    rel = config.relative_to(ws).as_posix()
    errors = [line for line in results[-1].stdout.splitlines() if line.startswith("::error ")]
    ours = [line for line in errors if f"file={rel}," in line]
    assert ours, results[-1].stdout
    assert re.search(r"line=\d+", ours[0]) and re.search(r"title=CFG\d{3}", ours[0]), ours[0]
    assert "limitt" in ours[0]


def test_sarif_file_is_written_then_the_annotated_step_fails(make_workspace, osmosis_bin, tmp_path):
    ws = make_workspace()
    config = break_eval_config(ws)
    inputs = inputs_with(sarif_file="reports/osmosis.sarif")
    (ws / "reports").mkdir()
    results = run_doctor_steps(inputs, ws, osmosis_bin, tmp_path)
    assert [r.returncode for r in results] == [0, 1], [r.stderr for r in results]  # SARIF step tolerates findings
    sarif = json.loads((ws / "reports" / "osmosis.sarif").read_text(encoding="utf-8"))
    assert sarif["version"] == "2.1.0"
    (run,) = sarif["runs"]
    assert run["tool"]["driver"]["name"] == "osmosis"
    rel = config.relative_to(ws).as_posix()
    hits = [r for r in run["results"]
            if r.get("locations") and r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == rel]
    # the break itself (CFG, at its line) and, since the edit is not committed, GIT001 located at its first file
    config_hits = [r for r in hits if r["ruleId"] != "GIT001"]
    assert config_hits and all(re.fullmatch(r"CFG\d{3}", r["ruleId"]) for r in config_hits)
    assert [r["ruleId"] for r in hits if r["ruleId"] == "GIT001"] == ["GIT001"]
    assert config_hits[0]["locations"][0]["physicalLocation"]["region"]["startLine"] >= 1
    rule_ids = {r["id"] for r in run["tool"]["driver"]["rules"]}
    assert {r["ruleId"] for r in run["results"]} <= rule_ids


def test_sarif_step_fails_the_job_on_a_usage_error(tmp_path, osmosis_bin):
    # not a workspace: exit 2 must not be swallowed like findings (exit 1) are
    inputs = inputs_with(sarif_file="out.sarif")
    (sarif_step,) = [s for s in doctor_steps(inputs) if "--format sarif" in s["run"]]
    proc = run_step(sarif_step, inputs, tmp_path, osmosis_bin, tmp_path)
    assert proc.returncode == 2, proc.stdout + proc.stderr


def test_strict_and_extra_args_reach_osmosis(make_workspace, osmosis_bin, tmp_path):
    ws = make_workspace()
    break_eval_config(ws)
    # --select keeps only a family the broken key is not in: the run passes again
    results = run_doctor_steps(inputs_with(args="--select SKL", strict="true"), ws, osmosis_bin, tmp_path)
    assert results[-1].returncode == 0, results[-1].stdout + results[-1].stderr
    assert "CFG" not in results[-1].stdout


def test_workspace_below_the_repository_root_annotates_repo_paths(tmp_path, osmosis_bin, make_workspace):
    ws = make_workspace(git=False)
    repo = tmp_path / "repo"
    repo.mkdir()
    nested = repo / "agents"
    os.rename(ws, nested)
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
    subprocess.run(["git", "commit", "-qm", "init"], cwd=repo, check=True, env=checkout_env())
    config = break_eval_config(nested)
    results = run_doctor_steps(inputs_with(path="agents"), repo, osmosis_bin, tmp_path)
    assert results[-1].returncode == 1
    assert f"file=agents/{config.relative_to(nested).as_posix()}," in results[-1].stdout


def test_an_input_cannot_inject_shell_commands(tmp_path, osmosis_bin, make_workspace):
    ws = make_workspace()
    evil_path = "$(touch pwned)`touch pwned2`; touch pwned3"
    results = run_doctor_steps(inputs_with(path=evil_path), ws, osmosis_bin, tmp_path)
    assert results[-1].returncode == 2
    assert f"{evil_path} does not exist" in results[-1].stderr  # the path reached osmosis literally
    results = run_doctor_steps(inputs_with(args="--ignore $(touch${IFS}pwned4)"), ws, osmosis_bin, tmp_path)
    assert results[-1].returncode == 2
    assert "$(touch${ifs}pwned4)" in results[-1].stderr.lower()  # an unknown code, not a command
    for folder in (ws, tmp_path):
        assert not [p.name for p in folder.iterdir() if p.name.startswith("pwned")]
