"""`osmosis init` records where CI installs the checker from as where this checker came from (PEP 610
`direct_url.json`), and doctor says when `checker_source` names another version or a local path.

The three installs are real pip installs into new virtualenvs, all offline: the built wheel as a file
(a local origin), `git+file://` of a git repository made from the sdist at one commit (a VCS origin),
and `--index-url file://...` of a PEP 503 simple index folder holding the wheel (an index origin:
pip writes no direct_url.json for it, as for PyPI). Each installed `osmosis init` then writes its
`checker_source`; the generated workflow installs from it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from osmosis_workspace import __version__
from osmosis_workspace.cli import app
from osmosis_workspace.core.install_origin import (Origin, checker_source_for, from_direct_url, local_note, local_path,
                                           named_version)
from tests.test_wheel import BIN, _inherit_dependencies, install_wheel, run, wheel_env

GIT_IDENTITY = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid",
                "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid"}


# ------------------------------------------------------------------------------ direct_url.json read


def test_each_kind_of_direct_url_record_becomes_its_checker_source():
    vcs = json.dumps({"url": "https://github.com/me/osmosis-workspace", "vcs_info": {"vcs": "git", "commit_id": "ab12"}})
    assert checker_source_for(from_direct_url(vcs, "1.0.0")) == "git+https://github.com/me/osmosis-workspace@ab12"
    sub = json.dumps({"url": "file:///r", "subdirectory": "pkg", "vcs_info": {"vcs": "git", "commit_id": "c"}})
    assert checker_source_for(from_direct_url(sub, "1.0.0")) == "git+file:///r@c#subdirectory=pkg"
    archive = json.dumps({"url": "https://example.com/osmosis_workspace-1.0.0-py3-none-any.whl", "archive_info": {}})
    assert checker_source_for(from_direct_url(archive, "1.0.0")) == "https://example.com/osmosis_workspace-1.0.0-py3-none-any.whl"
    for local in ({"url": "file:///home/me/osmosis-workspace", "dir_info": {"editable": True}},
                  {"url": "file:///tmp/osmosis_workspace-1.0.0-py3-none-any.whl", "archive_info": {}}):
        origin = from_direct_url(json.dumps(local), "1.0.0")
        assert origin.kind == "local" and checker_source_for(origin) == "pypi"
        assert local_note(origin).startswith("# CI installs osmosis-workspace==1.0.0 from PyPI, but ")
    for index in (None, "not json", "[]", '{"url": 3}'):  # no record (an index install), or one that is no record
        assert checker_source_for(from_direct_url(index, "1.0.0")) == "pypi"
    # a URL the workflow's double-quoted YAML and shell could not carry falls back to pypi
    quoted = json.dumps({"url": "https://example.com/a\"b.whl", "archive_info": {}})
    assert checker_source_for(from_direct_url(quoted, "1.0.0")) == "pypi"
    assert local_note(Origin("index", "1.0.0")) is None and local_note(Origin("vcs", "1.0.0", "git+x", "c")) is None


@pytest.mark.parametrize("source, version, path", [
    ("pypi", None, None),
    ("osmosis-workspace==0.0.9", "0.0.9", None),
    ("--index-url https://pypi.example.com/simple/ osmosis_workspace==2.0.0", "2.0.0", None),
    ("git+https://github.com/osmosis-ai/osmosis-workspace@v0.1.0", "0.1.0", None),
    ("git+https://github.com/osmosis-ai/osmosis-workspace@3f2a9c1", None, None),
    ("osmosis-workspace>=0.1,<0.2", None, None),
    ("/home/me/osmosis_workspace-0.1.0-py3-none-any.whl", None, "/home/me/osmosis_workspace-0.1.0-py3-none-any.whl"),
    ("./dist/osmosis_workspace-0.1.0.tar.gz", None, "./dist/osmosis_workspace-0.1.0.tar.gz"),
    ("git+file:///srv/osmosis-workspace@abc", None, "git+file:///srv/osmosis-workspace@abc"),
    ("--find-links file:///wheels osmosis-workspace", None, "file:///wheels"),
    ("C:\\wheels\\osmosis_workspace.whl", None, "C:\\wheels\\osmosis_workspace.whl"),
    ("https://example.com/osmosis_workspace-0.1.0-py3-none-any.whl", None, None),
])
def test_what_a_checker_source_names(source, version, path):
    assert named_version(source) == version
    assert local_path(source) == path


# ---------------------------------------------------------------------------------------- doctor


def test_doctor_reports_a_checker_source_of_another_version_or_a_local_path(tmp_path):
    ws = tmp_path / "ws"
    assert CliRunner().invoke(app, ["init", str(ws), "--defaults", "--no-git"]).exit_code == 0
    answers = ws / ".copier-answers.yml"
    text = answers.read_text(encoding="utf-8")
    assert "\nchecker_source: pypi\n" in text  # this test session's checker is an editable install: a local one

    def lay12(source: str) -> list[dict]:
        answers.write_text(text.replace("checker_source: pypi", f"checker_source: {source}"), encoding="utf-8")
        out = CliRunner().invoke(app, ["doctor", str(ws), "--select", "LAY12", "-f", "json"]).stdout
        return json.loads(out)["diagnostics"]

    assert lay12("pypi") == [] and lay12(f"osmosis-workspace=={__version__}") == []
    assert lay12("git+https://github.com/osmosis-ai/osmosis-workspace@0123abc") == []
    [other] = lay12("osmosis-workspace==0.0.9")
    assert (other["code"], other["severity"], other["path"], other["line"]) == ("LAY120", "warning", ".copier-answers.yml", 4)
    assert other["message"] == f"checker_source installs osmosis-workspace 0.0.9 in CI, but this is {__version__}"
    [local] = lay12("/home/me/osmosis_workspace-0.1.0-py3-none-any.whl")
    assert local["code"] == "LAY121" and "a path on this machine that CI cannot reach" in local["message"]


# ---------------------------------------------------------------------------------- real installs


def _init_with(python: Path, work: Path) -> tuple[str, str, str]:
    """The installed checker's `osmosis init`: (checker_source recorded, the workflow's install source, output)."""
    done = run([python.parent / "osmosis", "init", "ws", "--defaults", "--no-git"], cwd=work, env=wheel_env(),
               stdin=subprocess.DEVNULL)
    answers = yaml.safe_load((work / "ws/.copier-answers.yml").read_text(encoding="utf-8"))
    workflow = yaml.safe_load((work / "ws/.github/workflows/osmosis.yml").read_text(encoding="utf-8"))
    return answers["checker_source"], workflow["env"]["OSMOSIS_CHECKER"], done.stdout


def _offline_pip(python: Path, *args, cwd: Path) -> None:
    """pip without this machine's configured indexes (only what ``args`` name), no dependencies."""
    env = {k: v for k, v in wheel_env().items() if not k.startswith("PIP_")} | {"PIP_CONFIG_FILE": os.devnull}
    run([python, "-m", "pip", "install", "--no-deps", "--quiet", *args], cwd=cwd, env=env)


@pytest.mark.slow
def test_init_from_a_wheel_file_keeps_pypi_and_says_ci_cannot_reach_the_wheel(release_wheel, tmp_path):
    python = install_wheel(release_wheel, tmp_path / "venv")
    source, installs, out = _init_with(python, tmp_path)
    assert (source, installs) == ("pypi", f"osmosis-workspace=={__version__}")
    [note] = [line.strip() for line in out.splitlines() if "CI cannot reach" in line]
    assert note.startswith(f"# CI installs osmosis-workspace=={__version__} from PyPI, but this checker came from a local "
                           f"folder or wheel (file://")
    assert "set checker_source in .copier-answers.yml" in note


@pytest.mark.slow
def test_init_from_a_git_url_pins_that_url_at_its_commit(release_dist, tmp_path):
    (sdist,) = release_dist.glob("*.tar.gz")
    with tarfile.open(sdist) as tf:
        tf.extractall(tmp_path / "src", filter="data") if sys.version_info >= (3, 12) else tf.extractall(tmp_path / "src")
    repo = next((tmp_path / "src").iterdir())
    env = {**os.environ, **GIT_IDENTITY}
    for git in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "the checker"]):
        run(["git", *git], cwd=repo, env=env)
    commit = run(["git", "rev-parse", "HEAD"], cwd=repo).stdout.strip()
    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", venv])
    python = venv / BIN / "python"
    # Building from the clone needs hatchling: installed here first, then no build isolation, so pip reaches no index.
    run([python, "-m", "pip", "install", "--quiet", "hatchling>=1.21"], cwd=tmp_path)
    _offline_pip(python, "--no-build-isolation", f"git+{repo.as_uri()}", cwd=tmp_path)
    _inherit_dependencies(python)
    source, installs, out = _init_with(python, tmp_path)
    assert source == installs == f"git+{repo.as_uri()}@{commit}"
    assert "CI cannot reach" not in out


@pytest.mark.slow
def test_init_from_an_index_pins_the_installed_version(release_wheel, tmp_path):
    project = tmp_path / "simple" / "osmosis-workspace"
    project.mkdir(parents=True)
    (project / release_wheel.name).write_bytes(release_wheel.read_bytes())
    (project / "index.html").write_text(f'<a href="{release_wheel.name}">{release_wheel.name}</a>\n', encoding="utf-8")
    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", venv])
    python = venv / BIN / "python"
    _offline_pip(python, "--index-url", (tmp_path / "simple").as_uri(), f"osmosis-workspace=={__version__}", cwd=tmp_path)
    _inherit_dependencies(python)
    site = run([python, "-c", "import importlib.metadata as m; print(m.distribution('osmosis-workspace').read_text("
                "'direct_url.json'))"], cwd=tmp_path, env=wheel_env()).stdout.strip()
    assert site == "None"  # as from PyPI: an index install has no PEP 610 record
    source, installs, out = _init_with(python, tmp_path)
    assert (source, installs) == ("pypi", f"osmosis-workspace=={__version__}")
    assert "CI cannot reach" not in out
