"""The README's first command, as a new user runs it from a fresh clone of this repository, gives a
workspace with its own repository and a clean first commit, and leaves the clone itself untouched.
(`pip install .` is covered by tests/test_wheel.py; here the installed `osmosis` is `python -m osmosis_workspace`.)"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def first_command() -> list[list[str]]:
    """The `osmosis ...` steps of the first bash block under "## Set up"."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    setup = readme[readme.index("## Set up"):]
    block = re.search(r"```bash\n(.*?)```", setup, re.S).group(1)
    steps = [shlex.split(part) for part in block.strip().split("&&")]
    return [step for step in steps if step and step[0] == "osmosis"]


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True).stdout


def test_readme_first_command_makes_a_committed_workspace_outside_the_clone(tmp_path):
    steps = first_command()
    assert [s[1] for s in steps] == ["init", "doctor"], steps
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "--quiet", str(REPO), str(clone)], check=True)
    env = {**os.environ, "PYTHONPATH": str(REPO), "GIT_AUTHOR_NAME": "Readme Test", "GIT_AUTHOR_EMAIL": "r@example.invalid",
           "GIT_COMMITTER_NAME": "Readme Test", "GIT_COMMITTER_EMAIL": "r@example.invalid"}
    for step in steps:
        proc = subprocess.run([sys.executable, "-m", "osmosis_workspace", *step[1:]], cwd=clone, env=env, capture_output=True,
                              text=True, stdin=subprocess.DEVNULL, timeout=120)
        assert proc.returncode == 0, f"{step}\n{proc.stdout}\n{proc.stderr}"
        assert "already inside the repository" not in proc.stdout

    init_path = next(a for a in steps[0][2:] if not a.startswith("-") and a != "multiply")
    ws = (clone / init_path).resolve()
    assert (ws / "AGENTS.md").is_file()
    assert Path(git(ws, "rev-parse", "--show-toplevel").strip()).resolve() == ws
    assert git(ws, "status", "--porcelain") == "" and git(ws, "log", "--oneline").strip()
    assert git(clone, "status", "--porcelain", "--untracked-files=all") == ""
    assert git(clone, "for-each-ref", "refs/osmosis") == ""
