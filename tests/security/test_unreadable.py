"""Issue 14: a file or folder that cannot be read is a finding on that path, never exit 3, and the rest
of the report stands; writers refuse with one line. Run through `unprivileged` (root reads anything)."""

from __future__ import annotations

import json
import os
import stat
import subprocess
from pathlib import Path

import pytest

from unprivileged import no_access, osmosis, run

SECRET = "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"  # in configs/training: a finding none of the cases touches


@pytest.fixture
def ws(make_workspace) -> Path:
    root = make_workspace()
    with open(root / "configs" / "training" / "default.toml", "a") as config:
        config.write(f'\n# api_key = "{SECRET}"\n')
    return root


def findings(done, exit_code: int = 1) -> list[dict]:
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr, done.stderr
    assert done.returncode == exit_code, (done.returncode, done.stdout, done.stderr)
    return json.loads(done.stdout)["diagnostics"]


def on(found: list[dict], rel: str) -> list[dict]:
    return [d for d in found if d["path"] == rel]


def test_the_helper_really_cannot_read_a_mode_000_file(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("hidden")
    with no_access(secret):
        done = run("cat", secret)
    assert done.returncode != 0 and "Permission denied" in done.stderr, (done.stdout, done.stderr)


# (path made mode 000, the code reported on it, its severity): error where the platform reads the path
CASES = [
    ("configs/eval/multiply.toml", "CFG001", "error"),
    ("data/multiply.jsonl", "DAT002", "error"),
    ("rollouts/multiply/main.py", "ENT002", "error"),
    ("rollouts/multiply/pyproject.toml", "ENT010", "error"),
    ("rollouts/multiply/multiply_rollout/grader.py", "ENT002", "error"),
    ("rollouts/multiply/README.md", "LAY011", "error"),
    ("pyproject.toml", "LAY004", "error"),
    (".agents/skills/plan-eval/SKILL.md", "SKL003", "error"),
    ("rollouts", "LAY011", "error"),
    ("rollouts/multiply", "LAY011", "error"),
    ("rollouts/multiply/multiply_rollout", "LAY011", "error"),
    ("data", "LAY011", "error"),
    ("configs/eval", "LAY011", "error"),
    (".agents/skills/plan-eval", "LAY012", "warning"),
    (".agents", "LAY012", "warning"),
    (".claude", "LAY012", "warning"),
    ("AGENTS.md", "LAY012", "warning"),
    (".copier-answers.yml", "LAY012", "warning"),
    (".git", "GIT004", "warning"),
]


@pytest.mark.parametrize("rel,code,severity", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("fix", [False, True], ids=["doctor", "doctor-fix"])
def test_doctor_reports_an_unreadable_path_and_the_rest_stands(ws, rel, code, severity, fix):
    with no_access(ws / rel):
        done = osmosis("doctor", ws, "--format", "json", *(["--fix"] if fix else []))
    found = findings(done)
    here = on(found, rel)
    assert [d["code"] for d in here] == [code], here or found
    assert here[0]["severity"] == severity
    assert "Permission denied" in here[0]["message"] and "permissions" in here[0]["hint"], here[0]
    assert any(SECRET[:12] in d["message"] or d["code"].startswith("SEC") for d in found), found
    # one root cause, one finding: nothing else about that path or what is inside it
    assert not [d for d in found if d["path"] and d["path"].startswith(rel + "/")], found


@pytest.mark.parametrize("rel,code", [
    ("configs/eval/multiply.toml", "CFG001"), ("data/multiply.jsonl", "DAT002"),
    ("rollouts/multiply/main.py", "ENT002"), (".agents/skills/plan-eval/SKILL.md", "SKL003"),
])
def test_validate_an_unreadable_file(ws, rel, code):
    with no_access(ws / rel):
        found = findings(osmosis("validate", ws / rel, "--format", "json"))
    assert [d["code"] for d in found] == [code] and "Permission denied" in found[0]["message"], found
    assert "permissions" in found[0]["hint"]


@pytest.mark.parametrize("named,rel,code", [
    ("data", "data", "LAY011"),
    ("rollouts/multiply", "rollouts/multiply", "LAY011"),
    (".agents/skills/plan-eval", ".agents/skills/plan-eval", "LAY012"),
    (".", "configs/eval", "LAY011"),
    ("rollouts", "rollouts/multiply/multiply_rollout", "LAY011"),
])
def test_validate_a_folder_with_an_unreadable_folder(ws, named, rel, code):
    with no_access(ws / rel):
        found = findings(osmosis("validate", ws / named, "--format", "json"), exit_code=0 if code == "LAY012" else 1)
    here = on(found, rel)
    assert [d["code"] for d in here] == [code] and "Permission denied" in here[0]["message"], found
    if named == ".":  # the rest is still validated
        assert any(d["path"].startswith("configs/training/") for d in found), found


def test_validate_a_file_inside_a_folder_that_cannot_be_entered(ws):
    with no_access(ws / "configs" / "eval"):
        found = findings(osmosis("validate", ws / "configs" / "eval" / "multiply.toml", "--format", "json"))
    assert [d["code"] for d in found] == ["LAY011"] and "Permission denied" in found[0]["message"], found


def test_fix_on_a_really_read_only_workspace_exits_2_with_one_line(make_workspace):
    ws = make_workspace(git=False)
    (ws / "configs" / "AGENTS.md").unlink()  # something --fix would write
    (ws / ".osmosis" / "schemas" / "eval.schema.json").write_text("{}")
    tree = [Path(here) for here, _, _ in os.walk(ws)] + [Path(here) / f for here, _, files in os.walk(ws) for f in files]
    modes = {p: stat.S_IMODE(p.lstat().st_mode) for p in tree}
    try:
        for path, mode in modes.items():
            path.chmod(mode & ~0o222)
        done = osmosis("doctor", ws, "--fix")
    finally:
        for path, mode in modes.items():
            path.chmod(mode)
    assert done.returncode == 2, (done.stdout, done.stderr)
    error_lines = [line for line in done.stderr.splitlines() if line.startswith("error:")]
    assert len(error_lines) == 1 and "cannot write" in error_lines[0] and "Permission denied" in error_lines[0], done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    assert not (ws / "configs" / "AGENTS.md").exists()


@pytest.mark.parametrize("rel,named", [
    ("rollouts", "rollouts/second"), ("configs/eval", "configs/eval/second.toml"), ("pyproject.toml", "pyproject.toml"),
])
def test_rollout_new_meeting_an_unreadable_path_is_one_line_exit_2(ws, rel, named):
    with no_access(ws / rel):
        done = osmosis("rollout", "new", "second", "--defaults", cwd=ws)
    assert done.returncode == 2, (done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and named in lines[0] and "check its permissions" in lines[0], done.stderr
    assert not (ws / "rollouts" / "second").exists() and not (ws / "configs" / "eval" / "second.toml").exists()


def test_init_force_meeting_an_unreadable_folder_is_exit_2(tmp_path):
    target = tmp_path / "ws"
    (target / "data").mkdir(parents=True)
    with no_access(target / "data"):
        done = osmosis("init", target, "--force", "--defaults", "--template", "multiply", "--no-git")
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert f"{target / 'data'}: Permission denied; check its permissions" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    assert sorted(p.name for p in target.iterdir()) == ["data"]


def test_update_meeting_an_unreadable_file_is_exit_2(ws):
    subprocess.run(["git", "commit", "-qam", "the secret line"], cwd=ws, check=True, capture_output=True)
    with no_access(ws / "AGENTS.md"):
        done = osmosis("update", cwd=ws)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "AGENTS.md: Permission denied; check its permissions" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
