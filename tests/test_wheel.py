"""The built wheel works on its own: bundled templates, skills and schemas, and `osmosis init`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
BIN = "Scripts" if os.name == "nt" else "bin"


def run(cmd, **kwargs) -> subprocess.CompletedProcess:
    proc = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kwargs)
    assert proc.returncode == 0, f"{cmd}\n{proc.stdout}\n{proc.stderr}"
    return proc


def _site_dirs_of_this_run() -> list[str]:
    """The site-packages folders the running test session imports its dependencies from."""
    return [p for p in sys.path if Path(p).name in ("site-packages", "dist-packages") and Path(p).is_dir()]


def _inherit_dependencies(python: Path) -> None:
    """Append this run's site-packages to the new venv's path through a .pth file.

    Paths listed in a .pth file are appended after the venv's own site-packages, and .pth files inside
    them are not processed, so the editable install of this checkout stays invisible: only the wheel
    provides `osmosis_workspace`.
    """
    site = run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip()
    (Path(site) / "_test_run_dependencies.pth").write_text("\n".join(_site_dirs_of_this_run()) + "\n")


def install_wheel(wheel: Path, venv: Path) -> Path:
    """A new venv at ``venv`` with ``wheel`` installed for real (not editable, no deps); returns its python.

    Its dependencies come from the environment this test runs in: `--system-site-packages` would give
    the *base* interpreter's packages, not this venv's.
    """
    run([sys.executable, "-m", "venv", venv])
    python = venv / BIN / "python"
    run([python, "-m", "pip", "install", "--no-deps", "--no-index", "--quiet", wheel])
    _inherit_dependencies(python)
    return python


def wheel_env() -> dict[str, str]:
    """This run's environment without PYTHONPATH, so nothing but the wheel can provide `osmosis_workspace`."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}


@pytest.mark.slow
def test_wheel_installs_and_initialises_a_workspace(tmp_path, release_wheel):
    wheels = [release_wheel]  # built once per run from the sdist, by the release workflow's build step

    venv = tmp_path / "venv"
    python = install_wheel(wheels[0], venv)
    env = wheel_env()
    work = tmp_path / "work"
    work.mkdir()
    where = run([python, "-c", "import osmosis_workspace, osmosis_workspace.core.resources as r; print(osmosis_workspace.__file__); "
                 "print(r.templates_dir()); print(r.skills_dir())"], cwd=work, env=env).stdout.split()
    assert all(Path(p).is_relative_to(venv) for p in where), where
    assert all("_bundled" in p for p in where[1:]), where

    listing = run([venv / BIN / "osmosis", "template", "list"], cwd=work, env=env).stdout
    assert "multiply " in listing
    # the alias that osmosis-ai's own `osmosis` command cannot shadow
    version = run([venv / BIN / "osmosis-workspace", "--version"], cwd=work, env=env).stdout
    assert version.startswith("osmosis-workspace ")

    run([venv / BIN / "osmosis", "init", "from-wheel", "--defaults", "--no-git"], cwd=work, env=env,
        stdin=subprocess.DEVNULL)
    ws = work / "from-wheel"
    for rel in ["AGENTS.md", "CLAUDE.md", "pyproject.toml", ".github/workflows/osmosis.yml", "configs/AGENTS.md",
                "rollouts/multiply/main.py", "rollouts/multiply/multiply_rollout/grading.py", "rollouts/multiply/tests/test_grading.py",
                "configs/eval/multiply.toml", "configs/training/multiply.toml", "configs/eval/default.toml", "data/multiply.jsonl",
                ".osmosis/schemas/eval.schema.json", ".osmosis/schemas/training.schema.json",
                ".osmosis/schemas/dataset.schema.json"]:
        assert (ws / rel).is_file(), rel
    bundled_skills = sorted(p.name for p in (REPO / "skills").iterdir() if p.is_dir())
    agents = ws / ".agents" / "skills"
    assert (sorted(p.name for p in agents.iterdir()) if agents.is_dir() else []) == bundled_skills
    for name in bundled_skills:
        assert (ws / ".claude" / "skills" / name / "SKILL.md").is_file()
        for src in (REPO / "skills" / name).rglob("*"):
            if src.is_file() and "__pycache__" not in src.parts:
                assert (agents / name / src.relative_to(REPO / "skills" / name)).read_bytes() == src.read_bytes()
    # pip byte-compiled the bundled templates' .py files on install; none of that bytecode is rendered
    assert list((venv / "lib").rglob("_bundled/templates/**/*.pyc")), "pip did not compile the templates"
    assert [p for p in ws.rglob("*") if p.name == "__pycache__" or p.suffix == ".pyc"] == []

    # issue 23: rules explain themselves from the wheel, with the docs link its metadata names
    explained = run([venv / BIN / "osmosis", "rule", "CFG003", "--format", "json"], cwd=work, env=env).stdout
    from osmosis_workspace.core.rules import DOCS_URL, REPOSITORY_URL

    assert json.loads(explained)["url"] == f"{DOCS_URL}#cfg003"
    urls = run([python, "-c", "import importlib.metadata as m; print('\\n'.join(m.metadata('osmosis-workspace').get_all('Project-URL')))"]).stdout
    assert f"Repository, {REPOSITORY_URL}" in urls.splitlines()
    # the linter features from the wheel: an unsafe fix shown as a diff, nothing written; the language server answers
    (ws / "CLAUDE.md").write_text("# Notes\n")
    diff = subprocess.run([venv / BIN / "osmosis", "doctor", ws, "--diff", "--unsafe-fixes"], capture_output=True, text=True,
                          cwd=work, env=env)
    assert diff.returncode == 1 and "+@AGENTS.md" in diff.stdout and (ws / "CLAUDE.md").read_text() == "# Notes\n"
    messages = [{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}, "rootUri": ws.as_uri()}},
                {"jsonrpc": "2.0", "method": "initialized", "params": {}},
                {"jsonrpc": "2.0", "id": 2, "method": "shutdown"}, {"jsonrpc": "2.0", "method": "exit"}]
    framed = "".join(f"Content-Length: {len(body)}\r\n\r\n{body}" for body in map(json.dumps, messages))
    served = subprocess.run([venv / BIN / "osmosis", "lsp"], input=framed, capture_output=True, text=True, cwd=work, env=env, timeout=60)
    assert served.returncode == 0, served.stderr
    assert '"serverInfo": {"name": "osmosis"' in served.stdout and '"hoverProvider": true' in served.stdout
