"""Shared fixtures: a freshly initialised workspace. (The real osmosis-ai runs in tests/sdk_real.)"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest


def pytest_collection_modifyitems(items):
    """The heavy files first, the rest after them in their own order: a file with a `slow` test (it builds a
    wheel or a virtualenv, or runs the real osmosis-ai) or under tests/sdk_real. The test command's
    `--dist loadfile --no-loadscope-reorder` hands files to the workers in this order, so the files of
    minutes start while hundreds of small files are left to fill the gaps and both workers finish
    together; xdist's own order (most tests first) left the heaviest files, which hold few tests, last.
    A file's tests keep their order; no test is added, dropped or changed."""
    heavy = {item.path for item in items if item.get_closest_marker("slow") or "sdk_real" in item.path.parts}
    items[:] = [item for item in items if item.path in heavy] + [item for item in items if item.path not in heavy]


@pytest.fixture(scope="session", autouse=True)
def doctor_cache(tmp_path_factory):
    """doctor's cache in a folder of this session's, not the user's: runs of the CLI share it as a user's would."""
    import os

    folder = tmp_path_factory.mktemp("doctor-cache")
    saved = os.environ.get("OSMOSIS_DOCTOR_CACHE")
    os.environ["OSMOSIS_DOCTOR_CACHE"] = str(folder)
    yield folder
    if saved is None:
        os.environ.pop("OSMOSIS_DOCTOR_CACHE", None)
    else:
        os.environ["OSMOSIS_DOCTOR_CACHE"] = saved


@pytest.fixture
def make_workspace(tmp_path):
    """Factory: ``make_workspace(template="multiply", name="demo", git=True, data=())`` runs
    `osmosis init --defaults` through the CLI into ``tmp_path/<name>`` and returns that path."""
    from typer.testing import CliRunner

    from osmosis_workspace.cli import app

    def make(template: str = "multiply", name: str = "demo", git: bool = True, data: tuple[str, ...] = ()) -> Path:
        target = tmp_path / name
        args = ["init", str(target), "--template", template, "--defaults", "--data", f"workspace_name={name}"]
        for item in data:
            args += ["--data", item]
        if not git:
            args.append("--no-git")
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 0, result.output
        if git and (target / ".git").exists():
            # connected and pushed as init's next steps say (`git remote add origin URL`, `git push -u origin
            # HEAD`): submit needs origin (GIT006), the platform the pushed commit (GIT008). The push is the
            # ref it leaves behind: the remote is not reachable from a test.
            for argv in (["remote", "add", "origin", f"https://github.com/example/{name}.git"],
                         ["update-ref", "refs/remotes/origin/main", "HEAD"], ["branch", "--set-upstream-to=origin/main"]):
                subprocess.run(["git", *argv], cwd=target, check=True, capture_output=True)
        return target

    return make


@pytest.fixture(scope="session")
def release_dist(tmp_path_factory) -> Path:
    """The sdist and wheel of this checkout, built once per test run by the release workflow's own
    build step (`.github/scripts/release_check.py build`); every test that needs a wheel shares it."""
    import sys

    repo = Path(__file__).resolve().parents[1]
    dist = tmp_path_factory.mktemp("release") / "dist"
    proc = subprocess.run([sys.executable, str(repo / ".github/scripts/release_check.py"), "build", "--outdir", str(dist)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return dist


@pytest.fixture(scope="session")
def release_wheel(release_dist) -> Path:
    (wheel,) = release_dist.glob("osmosis_workspace-*.whl")
    return wheel


@pytest.fixture(scope="session")
def _multiply_once(tmp_path_factory):
    """One `osmosis init --template multiply` (with git and an origin) per test session, to copy."""
    from typer.testing import CliRunner

    from osmosis_workspace.cli import app

    target = tmp_path_factory.mktemp("pristine") / "demo"
    result = CliRunner().invoke(app, ["init", str(target), "--template", "multiply", "--defaults", "--data", "workspace_name=demo"])
    assert result.exit_code == 0, result.output
    subprocess.run(["git", "remote", "add", "origin", "https://github.com/example/demo.git"], cwd=target, check=True, capture_output=True)
    return target


@pytest.fixture
def workspace_copy(_multiply_once, tmp_path):
    """A fresh copy of a multiply workspace (git included), cheaper than an init per test."""
    import shutil

    target = tmp_path / "demo"
    shutil.copytree(_multiply_once, target, symlinks=True)
    return target
