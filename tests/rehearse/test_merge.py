"""`osmosis rehearse --merge DIR`: a CI matrix's verdicts joined into one summary, annotations and exit code.

The verdict files are written by rehearse's own JSON writer (render.write) from judgements made by its
own judge() over synthetic SDK outcomes; the real SDK's verdicts are merged in test_broken.py (failing)
and test_templates.py (green). The generated workflow's list and merge steps run here as written.
"""

from __future__ import annotations

import html
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from osmosis_workspace.cli import app
from osmosis_workspace.rehearse.cases import build
from osmosis_workspace.rehearse.run_results import Failure, Outcome, Row
from osmosis_workspace.rehearse.plan import RolloutPlan
from osmosis_workspace.rehearse.render import Rehearsed, write
from osmosis_workspace.rehearse.runner import EvalProcess
from osmosis_workspace.rehearse.verdicts import judge
from tests.git_origin import push_to_bare_origin

SOURCE = [(i, {"user_prompt": f"q{i}", "ground_truth": str(i)}) for i in range(2)]


def verdict_file(folder: Path, rollout: str, rewards: dict[str, float], where: str | None = None) -> Path:
    """What `osmosis rehearse ROLLOUT --format json` writes in one matrix job."""
    plan = RolloutPlan(rollout, Path(f"/ws/configs/eval/{rollout}.toml"), f"configs/eval/{rollout}.toml", "main.py",
                       "openai/x", (), 10.0, 5.0, f"data/{rollout}.jsonl", SOURCE)
    rehearsal = build(SOURCE)
    # a probe earns what the row's wrong answer earns (the gold again: gold's), unless the test says otherwise
    rewards = {"determinism": rewards["gold"], **rewards}
    rows = [Row(c, "success", rewards.get(c.pass_name, rewards["wrong"]), None, 1.0) for c in rehearsal.cases]
    failure = Failure("ValueError: bad", where, []) if where else None
    outcome = Outcome(rows, EvalProcess(0, "", "", 30.0), server_start_s=4.0, failure=failure)
    out = io.StringIO()
    write([Rehearsed(judge(plan, outcome), rehearsal, outcome, {}, "", plan.config_rel, plan.dataset_rel)], "json", out)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"verdict-{rollout}.json"
    path.write_text(out.getvalue(), encoding="utf-8")
    return path


def merge(folder: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    child = {k: v for k, v in os.environ.items() if k not in ("GITHUB_ACTIONS", "GITHUB_STEP_SUMMARY")}
    return subprocess.run([sys.executable, "-m", "osmosis_workspace", "rehearse", "--merge", str(folder), *args],
                          capture_output=True, text=True, env={**child, **(env or {})}, timeout=60)


def test_a_failing_and_a_passing_rollout_merge_into_a_failing_summary_that_shows_both(tmp_path):
    verdict_file(tmp_path / "v", "adder", {"gold": 1.0, "wrong": 0.0, "empty": 0.0})
    verdict_file(tmp_path / "v", "parser", {"gold": 1.0, "wrong": 1.0, "empty": 1.0})
    summary = tmp_path / "summary.md"
    done = merge(tmp_path / "v", env={"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": str(summary)})
    assert done.returncode == 1, done.stderr
    table = summary.read_text(encoding="utf-8")
    assert "2 rollouts rehearsed: 1 ok, 1 failed" in table
    [adder] = [line for line in table.splitlines() if line.startswith("| adder |")]
    assert adder.startswith("| adder | ok | ") and "| 1.00 / 0.00 / 0.00 |" in adder
    verdicts_cell, probes_cell = adder.split(" | ")[2], adder.split(" | ")[4]
    held, total = verdicts_cell.split(" ")[0].split("/")
    assert held == total and int(total) >= 5 and "failed" not in verdicts_cell
    assert probes_cell.endswith("hold |") and "failed" not in probes_cell  # a probe not built (echo here) neither holds nor fails
    [parser] = [line for line in table.splitlines() if line.startswith("| parser |")]
    assert "**failed**: the reward is constant" in parser and "1.00 / 1.00 / 1.00" in parser
    # one annotation, at the failing rollout's config (no traceback to point at)
    errors = [line for line in done.stdout.splitlines() if line.startswith("::error")]
    assert len(errors) == 1 and errors[0].startswith("::error file=configs/eval/parser.toml,title=rehearse parser::the reward is constant")


def test_all_passing_is_exit_0_and_a_traceback_is_annotated_at_its_line(tmp_path):
    verdict_file(tmp_path / "ok", "adder", {"gold": 1.0, "wrong": 0.0, "empty": 0.0})
    done = merge(tmp_path / "ok")
    assert done.returncode == 0 and "1 rollout rehearsed: ok" in done.stdout
    verdict_file(tmp_path / "bad", "adder", {"gold": 0.0, "wrong": 0.0, "empty": 0.0}, where="rollouts/adder/pkg/grading.py:12")
    done = merge(tmp_path / "bad", env={"GITHUB_ACTIONS": "true"})
    assert done.returncode == 1
    assert "::error file=rollouts/adder/pkg/grading.py,line=12,title=rehearse adder::" in done.stdout


def test_a_failing_probe_fails_the_merge_and_is_named_in_the_probes_column(tmp_path):
    verdict_file(tmp_path / "v", "hedger", {"gold": 1.0, "wrong": 0.0, "empty": 0.0, "hedge": 1.0})
    done = merge(tmp_path / "v")
    assert done.returncode == 1
    [row] = [line for line in done.stdout.splitlines() if line.startswith("| hedger |")]
    assert "**failed**" in row and row.rstrip(" |").endswith("failed: hedge"), row


def test_json_output_carries_every_rollout(tmp_path):
    verdict_file(tmp_path / "v", "a", {"gold": 1.0, "wrong": 0.0, "empty": 0.0})
    verdict_file(tmp_path / "v", "b", {"gold": 1.0, "wrong": 0.0, "empty": 0.0})
    done = merge(tmp_path / "v", "--format", "json")
    data = json.loads(done.stdout)
    assert done.returncode == 0 and data["ok"] is True and [r["rollout"] for r in data["rollouts"]] == ["a", "b"]


def test_a_rollout_the_affected_set_expects_but_no_job_reported_fails(tmp_path):
    verdict_file(tmp_path / "v", "a", {"gold": 1.0, "wrong": 0.0, "empty": 0.0})
    (tmp_path / "v" / "affected.json").write_text(json.dumps(
        {"rollouts": [{"rollout": "a", "reasons": []}, {"rollout": "b", "reasons": []}], "matrix": ["a", "b"]}))
    done = merge(tmp_path / "v")
    assert done.returncode == 1 and "rollout b has no verdict: no job reported it" in done.stdout


def test_nothing_affected_is_a_pass_that_says_so(tmp_path):
    (tmp_path / "v").mkdir()
    (tmp_path / "v" / "affected.json").write_text(json.dumps({"rollouts": [], "matrix": []}))
    done = merge(tmp_path / "v")
    assert done.returncode == 0 and "No rollout is affected by this change: nothing to rehearse." in done.stdout


@pytest.mark.parametrize("content", [
    "[" * 100_000 + "]" * 100_000,                  # deeper than any parser should recurse
    '{"rollouts": [{"rollout": "x", "ok": true, "means": {"gold": 1e400}}], "ok": 1e400}',
    "\xff\xfe not utf-8",
    '{"rollouts": "nope"}',
    "",
    '{"rollouts": [{"rollout": "a|b\\n::error::forged", "ok": false, "headline": "x\\n::error::forged"}]}',
])
def test_a_hostile_or_broken_verdict_file_is_a_failure_never_a_traceback(tmp_path, content):
    folder = tmp_path / "v"
    folder.mkdir()
    (folder / "verdict-x.json").write_bytes(content.encode("utf-8", "surrogateescape") if "\xff" not in content
                                            else b"\xff\xfe not utf-8")
    done = merge(folder, env={"GITHUB_ACTIONS": "true"})
    assert done.returncode == 1, done
    assert "Traceback" not in done.stderr
    # nothing from the file starts a workflow command of its own: every ::error line is ours
    assert all(line.startswith("::error ") or not line.startswith("::") for line in done.stdout.splitlines())
    assert "::error::forged" not in done.stdout.replace("%0A", "\n").splitlines()


def test_merge_refuses_other_options_and_a_missing_folder(tmp_path):
    done = merge(tmp_path / "nope")
    assert done.returncode == 2 and "no such folder" in done.stderr
    done = subprocess.run([sys.executable, "-m", "osmosis_workspace", "rehearse", "--merge", str(tmp_path), "--rows", "0-1"],
                          capture_output=True, text=True)
    assert done.returncode == 2 and "--merge reads verdicts" in done.stderr


def _step(workflow: dict, job: str, name_or_id: str) -> dict:
    [step] = [s for s in workflow["jobs"][job]["steps"] if name_or_id in (s.get("id"), s.get("name"))]
    return step


def _run_step(step: dict, cwd: Path, env: dict) -> subprocess.CompletedProcess:
    assert "${{" not in step["run"], "GitHub expressions belong in the step's env, where a value cannot become code"
    bindir = str(Path(sys.executable).parent)  # this checkout's osmosis-workspace, as the install step gives
    full = {**os.environ, **env, "PATH": bindir + os.pathsep + os.environ["PATH"]}
    return subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]], cwd=cwd, env=full,
                          capture_output=True, text=True, timeout=120)


def test_the_generated_workflows_list_and_merge_steps_work_on_a_real_history(tmp_path):
    identity = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid",
                "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid"}
    saved = dict(os.environ)
    os.environ.update(identity)
    try:
        ws = tmp_path / "ws"
        assert CliRunner().invoke(app, ["init", str(ws), "--defaults"]).exit_code == 0
        assert CliRunner().invoke(app, ["rollout", "new", "second", "--defaults", "-w", str(ws)]).exit_code == 0
    finally:
        os.environ.clear()
        os.environ.update(saved)

    def git(*args):
        subprocess.run(["git", *args], cwd=ws, check=True, capture_output=True, env={**os.environ, **identity})

    git("add", "-A")
    git("commit", "-qm", "two rollouts")
    push_to_bare_origin(ws, tmp_path / "origin.git")
    git("checkout", "-qb", "feature")
    (ws / "rollouts/second/README.md").write_text("changed\n", encoding="utf-8")
    git("commit", "-qam", "touch second")

    workflow = yaml.safe_load((ws / ".github/workflows/osmosis.yml").read_text(encoding="utf-8"))
    assert workflow["jobs"]["rehearse"]["strategy"] == {
        "fail-fast": False, "max-parallel": 4, "matrix": {"group": "${{ fromJSON(needs.affected.outputs.matrix) }}"}}
    output = tmp_path / "github_output"
    listed = _run_step(_step(workflow, "affected", "list"), ws, {"BASE_REF": "main", "GITHUB_OUTPUT": str(output)})
    assert listed.returncode == 0, listed.stderr
    assert output.read_text(encoding="utf-8") == 'matrix=[{"job": 1, "rollouts": ["second"]}]\ncount=1\n'
    assert "second: rollouts/second/README.md (under the rollout)" in listed.stdout

    # the matrix job: its group's names reach the command line after `--`, one argument each, whatever they say
    rehearse = _step(workflow, "rehearse", "Rehearse")
    assert rehearse["env"] == {"ROLLOUTS": "${{ toJSON(matrix.group.rollouts) }}", "JOB": "${{ matrix.group.job }}"}
    fake = tmp_path / "fakebin"
    fake.mkdir()
    (fake / "osmosis-workspace").write_text(
        f"#!{sys.executable}\nimport json, sys\nprint(json.dumps(sys.argv[1:]))\n", encoding="utf-8")
    (fake / "osmosis-workspace").chmod(0o755)
    names = ["--no-probes", "second", "$(touch pwned)", "a b"]
    ran = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", rehearse["run"]], cwd=ws,
                         env={**os.environ, "ROLLOUTS": json.dumps(names, indent=2), "JOB": "7",
                              "PATH": str(fake) + os.pathsep + str(Path(sys.executable).parent) + os.pathsep + os.environ["PATH"]},
                         capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    written = ws / "verdicts" / "verdict-7.json"
    assert json.loads(written.read_text(encoding="utf-8")) == ["rehearse", "--format", "json", "--", *names]
    assert not (ws / "pwned").exists()
    written.unlink()

    # the matrix job's verdict, then the summary job's merge over the downloaded artifacts
    verdicts = ws / "verdicts"
    verdict_file(verdicts, "second", {"gold": 1.0, "wrong": 1.0, "empty": 0.0})
    summary = tmp_path / "summary.md"
    merged = _run_step(_step(workflow, "rehearse-summary", "Merge the verdicts"), ws,
                       {"AFFECTED": "success", "GITHUB_STEP_SUMMARY": str(summary), "GITHUB_ACTIONS": "true"})
    assert merged.returncode == 1 and "| second | **failed**" in summary.read_text(encoding="utf-8")
    failed_listing = _run_step(_step(workflow, "rehearse-summary", "Merge the verdicts"), ws, {"AFFECTED": "failure"})
    assert failed_listing.returncode == 1 and "did not succeed (failure)" in failed_listing.stdout


HOSTILE = ["line\nbreak", "100%", "a::error::forged", "<script>alert(1)</script>", "[x](https://evil.example)",
           "![x](https://evil.example/p.png)", "a|b", "`code`", "**bold**", "https://evil.example", "x,y:z"]


@pytest.mark.parametrize("text", HOSTILE)
def test_markdown_text_renders_as_the_text_itself(text):
    from osmosis_workspace.rehearse.merge import markdown_text

    shown = markdown_text(text)
    assert "<" not in shown and ">" not in shown
    # no unescaped sign that starts a link, an image, code, emphasis, a cell or an autolink
    assert not re.search(r"(?<!\\)[\[\]|`*]|(?<!\\)://|www\.", shown), shown
    # and unescaping gives the text back (what a Markdown renderer shows)
    assert html.unescape(re.sub(r"\\(.)", r"\1", shown)) == text


@pytest.mark.parametrize("text", HOSTILE + ["cr\rlf\r\n"])
def test_command_text_is_the_one_escaping_of_workflow_commands(text):
    from osmosis_workspace.rehearse.merge import command_text

    data, prop = command_text(text), command_text(text, property=True)
    assert "\n" not in data and "\r" not in data and "\n" not in prop and "\r" not in prop
    assert ":" not in prop and "," not in prop
    unescape = {"%0A": "\n", "%0D": "\r", "%3A": ":", "%2C": ",", "%25": "%"}
    assert re.sub(r"%(0A|0D|3A|2C|25)", lambda m: unescape[m.group(0)], prop) == text
    assert re.sub(r"%(0A|0D|25)", lambda m: unescape[m.group(0)], data) == text


def test_hostile_names_headlines_and_file_names_render_as_text(tmp_path):
    folder = tmp_path / "v"
    folder.mkdir()
    entry = {"rollout": "<img src=x onerror=alert(1)>", "ok": False, "headline": "see [here](https://evil.example) ![p](https://evil.example/p.png)",
             "verdicts": [{"name": "<b>bold</b>", "holds": False}], "failure": {"where": "a,b:c.py:3"}}
    (folder / "verdict-1.json").write_text(json.dumps({"ok": False, "rollouts": [entry]}), encoding="utf-8")
    (folder / "evil\n::error::forged [x](y) <script>.json").write_text("not json", encoding="utf-8")
    summary = tmp_path / "summary.md"
    done = merge(folder, env={"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": str(summary)})
    assert done.returncode == 1 and "Traceback" not in done.stderr
    table = summary.read_text(encoding="utf-8")
    for raw in ("<img", "<b>", "<script>", "[here](", "![p](", "\n::error"):
        assert raw not in table, raw
    assert "&lt;img src=x onerror=alert(1)&gt;" in table and "\\[here\\](https\\://evil.example)" in table
    lines = done.stdout.splitlines()
    assert all(line.startswith("::error ") or not line.startswith("::") for line in lines)
    [annotation] = [line for line in lines if line.startswith("::error file=")]
    assert annotation.startswith("::error file=a%2Cb%3Ac.py,line=3,title=rehearse <img src=x onerror=alert(1)>::")
    # the file's name is one line (its newline a space), inside our own command's message
    assert any(line.startswith("::error title=rehearse::evil ::error::forged [x](y) <script>.json is not JSON") for line in lines)


def test_a_job_that_stopped_and_the_rollouts_that_vanished_are_named_with_why(tmp_path):
    folder = tmp_path / "v"
    verdict_file(folder, "a", {"gold": 1.0, "wrong": 0.0, "empty": 0.0})
    (folder / "verdict-2.json").write_text(json.dumps({"ok": False, "error": {"message": "no eval config for b"},
                                                       "rollouts": [], "requested": ["b"]}), encoding="utf-8")
    (folder / "affected.json").write_text(json.dumps({
        "rollouts": [{"rollout": n, "reasons": []} for n in ("a", "b", "c")],
        "vanished": [{"rollout": "old", "why": "renamed to a on this branch (rehearsed under its new name)"},
                     {"rollout": "gone", "why": "deleted on this branch"}]}), encoding="utf-8")
    done = merge(folder)
    assert done.returncode == 1
    assert "rollout b has no verdict: its rehearse job stopped before running it (no eval config for b)" in done.stdout
    assert "rollout c has no verdict: no job reported it" in done.stdout and "did not finish" in done.stdout
    assert "- old: renamed to a on this branch (rehearsed under its new name)" in done.stdout
    assert "- gone: deleted on this branch" in done.stdout
    # vanished rollouts alone fail nothing
    (folder / "verdict-2.json").unlink()
    (folder / "affected.json").write_text(json.dumps({"rollouts": [{"rollout": "a"}],
                                                      "vanished": [{"rollout": "gone", "why": "deleted on this branch"}]}))
    done = merge(folder, "--format", "json")
    assert done.returncode == 0 and json.loads(done.stdout)["vanished"] == [{"rollout": "gone", "why": "deleted on this branch"}]
