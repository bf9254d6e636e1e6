"""A minimal valid workspace built by hand (no `osmosis init`), for tests that break it in one way.

Shared by tests/layout, tests/entrypoints and tests/gitsync (their conftests load it by path).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from osmosis_workspace.core.schemas import KINDS, WORKSPACE_SCHEMA_DIR, schema_bytes, schema_filename

MAIN_PY = '''\
from osmosis_ai.rollout import AgentWorkflow, Grader


class MultiplyWorkflow(AgentWorkflow):
    async def run(self, ctx):
        return None


class MultiplyGrader(Grader):
    async def grade(self, ctx):
        return None
'''

ROLLOUT_PYPROJECT = '''\
[project]
name = "multiply"
version = "0.1.0"
dependencies = ["osmosis-ai[server]>=0.3.1,<0.4", "strands-agents"]
'''

CONFIG = '''\
[experiment]
rollout = "{rollout}"
entrypoint = "main.py"
model_path = "openai/gpt-5-mini"
dataset = "{rollout}"
'''

GIT_ENV = {
    "GIT_AUTHOR_NAME": "Test Author",
    "GIT_AUTHOR_EMAIL": "author@example.com",
    "GIT_COMMITTER_NAME": "Test Committer",
    "GIT_COMMITTER_EMAIL": "committer@example.com",
}


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def build_workspace(root: Path, *, name: str = "demo", rollout: str = "multiply", git_dir: bool = True) -> Path:
    """Write a workspace that passes the layout and entrypoint checks into ``root``.

    ``git_dir`` makes an empty ``.git`` folder: enough for the layout check, which only walks up
    for it (use :func:`git_init` for a real repository).
    """
    write(root / "pyproject.toml", f'[project]\nname = "{name}"\nversion = "0.1.0"\n')
    write(root / "AGENTS.md", "# Agents\nRead configs/AGENTS.md before editing configs.\n")
    write(root / "CLAUDE.md", "@AGENTS.md\n")
    write(root / "configs" / "AGENTS.md", "# Configs\n")
    for kind in KINDS:
        (root / WORKSPACE_SCHEMA_DIR).mkdir(parents=True, exist_ok=True)
        (root / WORKSPACE_SCHEMA_DIR / schema_filename(kind)).write_bytes(schema_bytes(kind))
    write(root / "rollouts" / rollout / "main.py", MAIN_PY)
    write(root / "rollouts" / rollout / "pyproject.toml", ROLLOUT_PYPROJECT)
    for kind in ("eval", "training"):
        write(root / "configs" / kind / f"{rollout}.toml", CONFIG.format(rollout=rollout))
    write(root / "data" / f"{rollout}.jsonl", '{"user_prompt": "2 * 3", "ground_truth": "6"}\n' * 4)
    if git_dir:
        (root / ".git").mkdir(exist_ok=True)
    return root


def git(root: Path, *args: str) -> str:
    """Run git in ``root`` with a fixed identity (works without any global git config)."""
    import os

    env = {**os.environ, **GIT_ENV, "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(root)}
    done = subprocess.run(["git", *args], cwd=root, env=env, check=True, capture_output=True, text=True)
    return done.stdout


def git_init(root: Path) -> Path:
    """Make ``root`` a git repository on branch main with everything committed."""
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "initial")
    return root
