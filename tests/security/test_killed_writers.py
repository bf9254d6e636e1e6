"""A writer killed part-way (kill -9) leaves nothing half-done that the next run cannot finish.

Each test runs the real CLI in a subprocess that SIGKILLs itself at an exact point: the wrapper
counts calls of one internal step (a file change of the journal, a ref move, the first line printed
after the workspace is placed) and kills the process there, so the kill lands in the middle of the
work every time. The kill is real; only where it lands is chosen.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from osmosis_workspace.scaffold import pristine

REPO = Path(__file__).resolve().parents[2]
KILLER = """
import os, signal, sys
import importlib
module_name, attr, after = sys.argv[1], sys.argv[2], int(sys.argv[3])
module = importlib.import_module(module_name)
real = getattr(module, attr)
calls = [0]
def step(*args, **kwargs):
    calls[0] += 1
    if calls[0] > after:
        os.kill(os.getpid(), signal.SIGKILL)
    return real(*args, **kwargs)
setattr(module, attr, step)
sys.argv = ["osmosis", *sys.argv[4:]]
from osmosis_workspace.entry import main
main()
"""


def env() -> dict[str, str]:
    return {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
            "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}


def osmosis(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "osmosis_workspace", *args], cwd=cwd, env=env(),
                          capture_output=True, text=True, timeout=300)


def killed(cwd: Path, where: str, after: int, *args: str) -> None:
    """Run ``osmosis ARGS`` and SIGKILL it when ``where`` (module:function) is called the ``after+1``-th time."""
    module, attr = where.split(":")
    done = subprocess.run([sys.executable, "-c", KILLER, module, attr, str(after), *args], cwd=cwd, env=env(),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == -9, f"not killed where expected (exit {done.returncode}):\n{done.stdout}\n{done.stderr}"


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True, env=env()).stdout


def files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and not p.is_symlink() and ".git" not in p.relative_to(root).parts}


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith((".osmosis-undo-", ".osmosis-new-", ".osmosis-init-")))


@pytest.fixture
def ws(tmp_path):
    done = osmosis(tmp_path, "init", "ws", "--defaults")
    assert done.returncode == 0, done.stderr
    return tmp_path / "ws"


def pristine_commits(root: Path) -> int:
    return int(git(root, "rev-list", "--count", pristine.PRISTINE_REF).strip())


@pytest.mark.parametrize("after", [0, 3, 12])
def test_rollout_new_killed_part_way_is_taken_back_and_the_re_run_completes(ws, after):
    before = files(ws)
    killed(ws, "osmosis_workspace.core.journal:_make", after, "rollout", "new", "extra", "--template", "blank", "--defaults")
    if after:
        assert (ws / "rollouts" / "extra").exists()  # the kill really left a half-added rollout
    done = osmosis(ws, "rollout", "new", "extra", "--template", "blank", "--defaults")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "took back an interrupted `osmosis rollout new extra`" in done.stderr
    assert leftovers(ws) == []
    after_files = files(ws)
    assert {k: v for k, v in after_files.items() if k in before and k not in ("pyproject.toml", ".env.example")} == \
        {k: v for k, v in before.items() if k not in ("pyproject.toml", ".env.example")}
    assert (ws / "rollouts" / "extra" / "uv.lock").is_file()  # the rollout arrived whole, its lock included
    assert pristine_commits(ws) == 2  # init's, then this rollout's: the killed run's never landed


def test_rollout_new_killed_before_its_pristine_ref_moves_leaves_root_files_as_they_were(ws):
    """Every file is in place but the ref has not moved: the next writer takes the files back too."""
    pyproject, env_example = (ws / "pyproject.toml").read_bytes(), (ws / ".env.example").read_bytes()
    killed(ws, "osmosis_workspace.core.journal:move_ref", 0, "rollout", "new", "extra", "--template", "llm-judge", "--defaults")
    assert (ws / "rollouts" / "extra" / "uv.lock").is_file()  # the kill landed after every file was in place
    done = osmosis(ws, "update", "--dry-run")
    assert done.returncode == 0  # a dry run writes nothing, recovery included
    assert [p for p in ws.iterdir() if p.name.startswith(".osmosis-undo-")]
    done = osmosis(ws, "doctor")
    assert done.returncode == 1 and "LAY112" in done.stdout and "`osmosis rollout new extra` was interrupted" in done.stdout
    done = osmosis(ws, "doctor", "--fix")
    assert "fixed: took back an interrupted `osmosis rollout new extra`" in done.stdout + done.stderr
    assert (ws / "pyproject.toml").read_bytes() == pyproject
    assert (ws / ".env.example").read_bytes() == env_example
    assert not (ws / "rollouts" / "extra").exists()
    assert git(ws, "status", "--porcelain") == ""


def test_an_edit_made_after_the_kill_is_never_taken_back(ws):
    killed(ws, "osmosis_workspace.core.journal:move_ref", 0, "rollout", "new", "extra", "--template", "blank", "--defaults")
    readme = ws / "rollouts" / "extra" / "README.md"
    readme.write_text("my notes, written after the crash\n")
    done = osmosis(ws, "rollout", "new", "other", "--template", "blank", "--defaults")
    assert done.returncode == 0, done.stderr
    assert "left 1 file(s) changed since as they are: rollouts/extra/README.md" in done.stderr
    assert readme.read_text() == "my notes, written after the crash\n"
    assert sorted(p.name for p in (ws / "rollouts" / "extra").iterdir()) == ["README.md"]


def _an_older_base(ws: Path, names: list[str]) -> None:
    """Make the workspace look rendered by an older template: each managed file in ``names`` gets an
    extra line in the working tree and in the recorded pristine base, so `update` replaces them all."""
    repo = ws
    base = ws.parent / "older-base"
    base.mkdir()
    pristine.extract(repo, pristine.PRISTINE_REF, base)
    for rel in names:
        for root in (ws, base):
            path = root / rel
            path.write_text(path.read_text() + "an older template's line\n")
    git(ws, "add", "-A")
    git(ws, "commit", "-qm", "older")
    pristine.record(repo, ws, base, "older base")


def test_update_killed_half_way_is_all_or_nothing(ws, tmp_path, monkeypatch):
    names = ["AGENTS.md", "CLAUDE.md", "configs/AGENTS.md",
             *sorted(p.relative_to(ws).as_posix() for p in (ws / ".agents" / "skills").rglob("SKILL.md"))]
    assert len(names) >= 8
    _an_older_base(ws, names)
    older = files(ws)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))  # where the runs keep their scratch folders
    killed(ws, "osmosis_workspace.core.journal:_make", len(names) // 2, "update")
    assert files(ws) != older  # half of the files were replaced when the kill landed
    assert [p for p in scratch.iterdir() if p.name.startswith("osmosis-update-")]  # and its scratch folder stayed
    done = osmosis(ws, "update")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "took back an interrupted `osmosis update`" in done.stderr
    assert leftovers(ws) == []
    for rel in names:
        assert "an older template's line" not in (ws / rel).read_text(), rel
    assert osmosis(ws, "update", "--check").returncode == 0
    assert not [p for p in scratch.iterdir() if p.name.startswith("osmosis-") and not p.name.startswith("osmosis-lock-")]


def test_update_killed_then_undone_by_hand_is_not_clobbered(ws):
    """The user reverts the half-applied files with git before running osmosis again: recovery sees the
    files hold their old content and only clears the journal."""
    names = ["AGENTS.md", "CLAUDE.md", "configs/AGENTS.md"]
    _an_older_base(ws, names)
    killed(ws, "osmosis_workspace.core.journal:_make", 1, "update")
    git(ws, "checkout", "--", ".")
    done = osmosis(ws, "update")
    assert done.returncode == 0, done.stdout + done.stderr
    assert leftovers(ws) == []
    assert "an older template's line" not in (ws / "AGENTS.md").read_text()


@pytest.mark.parametrize("where", ["osmosis_workspace.scaffold.staging:place", "typer:echo"])
def test_a_killed_init_leaves_no_workspace_or_a_whole_one(tmp_path, where):
    """Killed before the move into place: nothing but a staging folder the next run removes. Killed right
    after (the first line printed): a workspace with its repository, first commit and pristine ref."""
    killed(tmp_path, where, 0, "init", "ws", "--defaults")
    ws = tmp_path / "ws"
    if ws.exists():
        assert git(ws, "status", "--porcelain") == ""
        assert pristine.resolve_ref(ws, pristine.PRISTINE_REF)
        assert osmosis(ws, "update", "--check").returncode == 0
    else:
        done = osmosis(tmp_path, "init", "ws", "--defaults")
        assert done.returncode == 0, done.stderr
        assert leftovers(tmp_path) == []
        assert pristine.resolve_ref(ws, pristine.PRISTINE_REF)


def test_init_force_killed_part_way_is_taken_back_and_the_re_run_completes(tmp_path):
    target = tmp_path / "mine"
    target.mkdir()
    (target / "notes.txt").write_text("mine\n")
    (target / "README.md").write_text("my readme\n")
    killed(tmp_path, "osmosis_workspace.core.journal:_make", 5, "init", "mine", "--defaults", "--force")
    assert [p for p in target.iterdir() if p.name.startswith(".osmosis-undo-")]
    done = osmosis(tmp_path, "init", "mine", "--defaults", "--force")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "took back an interrupted `osmosis init`" in done.stderr
    assert (target / "notes.txt").read_text() == "mine\n" and (target / "README.md").read_text() == "my readme\n"
    assert leftovers(target) == [] and leftovers(tmp_path) == []
    assert git(target, "status", "--porcelain").split("\n")[0].startswith("??")  # only the user's files
    assert pristine.resolve_ref(target, pristine.PRISTINE_REF)


def test_an_undo_journal_osmosis_did_not_write_is_never_acted_on(ws):
    """A clone or an archive can hold a folder of any name: a planted journal that "takes back" a user's
    file (deletes it), rewrites a hook in .git, and moves a branch must do nothing."""
    import hashlib
    import json

    notes = ws / "notes.txt"
    notes.write_text("the user's own notes\n")
    digest = hashlib.sha256(notes.read_bytes()).hexdigest()
    head = git(ws, "rev-parse", "HEAD").strip()
    planted = ws / ".osmosis-undo-planted"
    planted.mkdir()
    journal = {"command": "rollout new x", "pid": 1, "dirs": [],
               "changes": [{"rel": "notes.txt", "before": {"kind": "none"}, "after": {"kind": "file", "sha": digest}},
                           {"rel": ".git/hooks/post-checkout", "before": {"kind": "link", "target": "../../evil.sh"},
                            "after": {"kind": "none"}}],
               "refs": [{"repo": str(ws), "ref": "refs/heads/main", "old": None, "new": head}]}
    (planted / "journal.json").write_text("0" * 64 + "\n" + json.dumps(journal))
    done = osmosis(ws, "doctor")
    assert "LAY112" in done.stdout and "did not write it" in done.stdout
    done = osmosis(ws, "rollout", "new", "x", "--template", "blank", "--defaults")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "left .osmosis-undo-planted/ alone" in done.stderr
    assert notes.read_text() == "the user's own notes\n"
    assert not (ws / ".git" / "hooks" / "post-checkout").exists()
    assert git(ws, "rev-parse", "HEAD").strip() == head and planted.is_dir()
