"""Issue 29, points 3 and 6: adopting the platform's own workspace template keeps what the platform
says and fits what the workspace is; `.osmosis/template.json` holds the platform's lists only, and
what `osmosis update` manages beyond them lives in our own record, `.osmosis/update.json`.

The workspace is tests/cases/workspace_template (a copy of Osmosis-AI/workspace-template's files)."""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from osmosis_workspace.cli import app
from lifecycle_helpers import cli, commit_all, git, snapshot

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

REPO = Path(__file__).resolve().parents[2]
PLATFORM = REPO / "tests" / "cases" / "workspace_template"
BUNDLED = REPO / "templates" / "workspace" / "template" / ".osmosis"
# Osmosis-AI/workspace-template's .osmosis/template.json, as it ships today
PLATFORM_LISTS = {
    "overwriteManaged": {".agents/skills/**", ".claude/skills/**", "configs/AGENTS.md", "configs/**/default.toml",
                         "AGENTS.md", "CLAUDE.md", "README.md"},
    "additive": {".osmosis/template-ignore", "configs/**", "data/*", "rollouts/*"},
}
OURS = ("pyproject.toml", "uv.lock", ".github/**", ".gitignore", "conftest.py", ".env.example")
# the template.json osmosis-workspace wrote before the record existed
OLD_TEMPLATE_JSON = {
    "overwriteManaged": [".agents/skills/**", ".claude/skills/**", "CLAUDE.md", "AGENTS.md", "configs/AGENTS.md",
                         "configs/**/default.toml", ".osmosis/schemas/**", ".copier-answers.yml",
                         "rollouts/*/.copier-answers.yml", "uv.lock", "rollouts/*/uv.lock", "pyproject.toml",
                         "conftest.py", "README.md", ".gitignore", ".env.example", ".github/**"],
    "additive": ["rollouts/*", "data/*", "configs/**", ".osmosis/template.json", ".osmosis/template-ignore"],
}


def _statuses(output: str) -> dict[str, str]:
    found = {}
    for line in output.splitlines():
        match = re.match(r"^  (left alone|unchanged|replaced|conflict|merged|new)\s+(\S+)", line)
        if match:
            found[match.group(2)] = match.group(1)
    return found


def _doctor(ws: Path, *args: str) -> tuple[int, list[dict]]:
    result = CliRunner().invoke(app, ["doctor", str(ws), "--format", "json", *args])
    return result.exit_code, json.loads(result.stdout)["diagnostics"]


@pytest.fixture
def platform_ws(tmp_path) -> Path:
    ws = tmp_path / "workspace-template"
    shutil.copytree(PLATFORM, ws, symlinks=True)
    git(ws, "init", "-q")
    git(ws, "config", "user.email", "t@example.com")
    git(ws, "config", "user.name", "t")
    git(ws, "add", "-A", "-f")  # the platform's .gitignore ignores .osmosis/**; its template tracks the policy
    git(ws, "commit", "-q", "-m", "the platform's template")
    return ws


@pytest.fixture
def adopted(platform_ws) -> Path:
    result = cli("update", platform_ws, "--adopt")
    assert result.exit_code == 0, result.output
    commit_all(platform_ws, "adopted")
    return platform_ws


def _guidance(ws: Path) -> str:
    files = [ws / "AGENTS.md", ws / "configs" / "AGENTS.md", *sorted((ws / ".agents" / "skills").rglob("*.md"))]
    return "\n".join(" ".join(p.read_text(encoding="utf-8").split()) for p in files)


# -- point 6: the platform's lists, and our own record ------------------------------------------


def test_a_new_workspace_keeps_the_platforms_lists_and_ours_apart(tmp_path):
    ws = tmp_path / "ws"
    assert cli("init", ws, "--defaults").exit_code == 0
    lists = json.loads((ws / ".osmosis" / "template.json").read_text())
    assert {k: set(v) for k, v in lists.items()} == PLATFORM_LISTS
    record = json.loads((ws / ".osmosis" / "update.json").read_text())
    assert set(OURS) <= set(record["overwriteManaged"]) and ".osmosis/template.json" in record["additive"]
    assert ".osmosis/update.json" in git(ws, "ls-files", ".osmosis")
    from osmosis_workspace.scaffold import ownership

    policy = ownership.load(ws)  # read as one: what update manages did not change
    for rel in ("pyproject.toml", "uv.lock", "rollouts/multiply/uv.lock", ".github/workflows/osmosis.yml", "AGENTS.md"):
        assert policy.owner(rel) == "managed", rel
    assert policy.owner(".osmosis/template.json") == "additive" and policy.owner("rollouts/multiply/main.py") == "additive"


def test_update_moves_our_patterns_out_of_an_older_template_json(tmp_path):
    ws = tmp_path / "ws"
    assert cli("init", ws, "--defaults").exit_code == 0
    old = {k: list(v) for k, v in OLD_TEMPLATE_JSON.items()}
    old["overwriteManaged"].append("notes/**")  # the user's own pattern stays where the user put it
    (ws / ".osmosis" / "template.json").write_text(json.dumps({"version": 2, **old}, indent=2) + "\n")
    (ws / ".osmosis" / "update.json").unlink()
    commit_all(ws, "as osmosis-workspace wrote it before the record")

    before = snapshot(ws)
    dry = cli("update", ws, "--dry-run")
    assert dry.exit_code == 0, dry.output
    got = _statuses(dry.output)
    assert got[".osmosis/template.json"] == "merged" and got[".osmosis/update.json"] == "new"
    assert snapshot(ws) == before

    result = cli("update", ws)
    assert result.exit_code == 0, result.output
    lists = json.loads((ws / ".osmosis" / "template.json").read_text())
    assert lists["version"] == 2  # a key of the platform's: kept
    assert set(lists["overwriteManaged"]) == PLATFORM_LISTS["overwriteManaged"] | {"notes/**"}
    assert set(lists["additive"]) == PLATFORM_LISTS["additive"]
    assert (ws / ".osmosis" / "update.json").read_bytes() == (BUNDLED / "update.json").read_bytes()
    from osmosis_workspace.scaffold import ownership

    assert ownership.load(ws).owner("pyproject.toml") == "managed"  # still managed, from the record now
    commit_all(ws, "updated")
    assert "already up to date" in cli("update", ws).output


def test_adopting_the_platforms_template_leaves_its_lists_alone_and_records_nothing_more(platform_ws):
    policy_before = (platform_ws / ".osmosis" / "template.json").read_bytes()
    result = cli("update", platform_ws, "--adopt")
    assert result.exit_code == 0, result.output
    got = _statuses(result.output)
    assert got[".osmosis/update.json"] == "new"
    assert (platform_ws / ".osmosis" / "template.json").read_bytes() == policy_before
    record = json.loads((platform_ws / ".osmosis" / "update.json").read_text())
    assert record["overwriteManaged"] == [] and record["additive"] == []
    # what the platform's lists do not cover stays out: its pyproject, CI, conftest
    assert got["conftest.py"] == "left alone" and not (platform_ws / "conftest.py").exists()
    assert not (platform_ws / ".github").exists()
    commit_all(platform_ws, "adopted")
    assert ".osmosis/update.json" in git(platform_ws, "ls-files", ".osmosis")  # un-ignored for clones
    assert "already up to date" in cli("update", platform_ws).output


# -- point 3: what adopting says and refuses --------------------------------------------------


def test_the_dry_run_refuses_a_dirty_tree_as_the_real_run_does(platform_ws):
    (platform_ws / "README.md").write_text("edited\n")
    dry = cli("update", platform_ws, "--adopt", "--dry-run")
    real = cli("update", platform_ws, "--adopt")
    assert dry.exit_code == real.exit_code == 2
    assert dry.output == real.output and "uncommitted changes (README.md)" in dry.output


def test_adopt_help_says_what_it_replaces():
    result = CliRunner().invoke(app, ["update", "--help"], terminal_width=400)
    text = " ".join(result.output.split())
    for phrase in ("replaces", "AGENTS.md", "configs/*/default.toml", "skills", "keeps pyproject.toml", ".github/",
                   "rollouts, data and your configs untouched"):
        assert phrase in text, phrase


def test_doctor_strict_after_adopting_shows_only_true_findings(adopted):
    code, found = _doctor(adopted, "--strict")
    codes = {d["code"] for d in found}
    # the platform's configs never asked for our `#:schema` line; none of them is a file "runs use" unless it is
    assert "CFG022" not in codes and "GIT001" not in codes
    # what stays is true of this copy: no lock files (DEP001), no `origin` yet (GIT009)
    assert codes <= {"DEP001", "GIT009"}, found
    assert {d["path"] for d in found if d["code"] == "DEP001"} == {"uv.lock", "rollouts/my-rollout/uv.lock"}


def test_git001_names_only_files_runs_use(adopted):
    for rel in ("configs/AGENTS.md", "configs/eval/default.toml", "configs/training/default.toml",
                "configs/benchmark/default.toml"):
        path = adopted / rel
        path.write_text(path.read_text() + "\n# an edit\n")
    _, found = _doctor(adopted, "--select", "GIT001")
    assert found == []
    config = adopted / "configs" / "eval" / "my-rollout.toml"
    config.write_text(config.read_text() + "\n# an edit\n")
    _, found = _doctor(adopted, "--select", "GIT001")
    assert [d["path"] for d in found] == ["configs/eval/my-rollout.toml"]


def test_the_adopted_guidance_keeps_the_platforms_facts(adopted):
    text = _guidance(adopted)
    for fact in ("--tunnel cloudflared", "Daytona", "Docker on Linux", "HarborBackendV2", "task_dir=", "user_code_dir=",
                 "sync_status", "Qwen/Qwen3.6-35B-A3B", "Qwen/Qwen3.5-122B-A10B", "--upload", "--fresh",
                 "--retry-failed", "--max-in-flight", "prewarm_lifespan"):
        assert fact in text, fact
    assert "Qwen/Qwen3.5-122B-A10B" in (adopted / "configs" / "training" / "default.toml").read_text()


def test_the_platforms_references_stay_linked(adopted):
    skills = adopted / ".agents" / "skills"
    for skill, reference in (("evaluate-rollouts", "eval-default.toml"), ("submit-training", "training-config-gates.md"),
                             ("submit-training", "training-default.toml")):
        assert (skills / skill / "references" / reference).is_file()
        assert f"(references/{reference})" in (skills / skill / "SKILL.md").read_text(), (skill, reference)


def test_the_benchmark_reference_stays_a_working_example(adopted):
    data = tomllib.loads((adopted / "configs" / "benchmark" / "default.toml").read_text())
    assert data["experiment"]["benchmark"] == "terminal-bench-2-1" and "tasks" not in data  # every task, no parity
    assert not re.search(r"<[^>]+>", json.dumps(data))  # nothing live is a placeholder
    code, found = _doctor(adopted, "--select", "CFG")
    assert code == 0 and found == []


def test_what_the_guidance_prescribes_exists_in_the_platforms_workspace(adopted):
    """Root and rollouts list neither ruff nor pytest, its rollouts have no tests/ and no grading.py,
    and its data is named after the platform dataset: the text must not assume otherwise."""
    text = _guidance(adopted)
    for assumption in ("uv run ruff", "uv run pytest", "&& uv run pytest", "data/<rollout>.jsonl"):
        assert assumption not in text, assumption
    assert "uv run --with ruff ruff format" in text and "--with pytest pytest rollouts/" in text
    assert "grading.py" not in (adopted / "AGENTS.md").read_text().split("## Layout", 1)[1].split("```", 2)[1].split(
        "`osmosis rollout new`", 1)[0]


@pytest.mark.parametrize("text, expected", [
    ('{"overwriteManaged": "pyproject.toml"}', "overwriteManaged must be a list"),
    ("{" * 100_000, "is not valid JSON"),
    ('{"additive": ["' + "*" * 5000 + '"]}', "at most 1024"),
])
def test_a_broken_record_is_one_line_and_exit_2(tmp_path, text, expected):
    ws = tmp_path / "ws"
    assert cli("init", ws, "--defaults").exit_code == 0
    (ws / ".osmosis" / "update.json").write_text(text)
    commit_all(ws, "oops")
    result = cli("update", ws, "--dry-run")
    assert result.exit_code == 2 and expected in result.output and ".osmosis/update.json" in result.output
    assert "Traceback" not in result.output


# Attack round: every pattern within its 1,024 characters, but a thousand of them: each path was
# matched against them all (and every folder above it), 11 s a path for the opt-outs, so `osmosis update`
# ran for over ten minutes. A file's patterns now hold at most MAX_GLOB_TOTAL characters together.
_SLOW = ["?*" * 500 + str(i) for i in range(1000)]


@pytest.mark.parametrize("rel, text", [
    (".osmosis/template-ignore", "\n".join(_SLOW) + "\n"),
    (".osmosis/update.json", json.dumps({"overwriteManaged": _SLOW[:500]})),
])
def test_a_policy_of_many_long_patterns_is_refused_quickly(tmp_path, rel, text):
    import time

    ws = tmp_path / "ws"
    assert cli("init", ws, "--defaults").exit_code == 0
    (ws / rel).write_text(text)
    commit_all(ws, "slow patterns")
    started = time.monotonic()
    result = cli("update", ws, "--dry-run")
    assert time.monotonic() - started < 20
    assert result.exit_code == 2 and "characters" in result.output and rel in result.output, result.output
    assert "Traceback" not in result.output
