"""Hostile templates for the security tests: each one tries to make git (or a write) do what it should not."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import yaml
from typer.testing import CliRunner

from osmosis_workspace.cli import app

REPO = Path(__file__).resolve().parents[2]


def cli(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


def blank_copy(dest: Path, **settings) -> Path:
    """A copy of the bundled blank template, with extra copier settings (a hidden `dotgit` answer)."""
    shutil.copytree(REPO / "templates" / "blank", dest)
    (dest / "template.toml").unlink()
    config = yaml.safe_load((dest / "copier.yml").read_text())
    config["dotgit"] = {"type": "str", "default": ".git", "when": False}
    config.update(settings)
    (dest / "copier.yml").write_text(yaml.safe_dump(config, sort_keys=False))
    return dest


def script(marker: Path) -> str:
    return f"#!/bin/sh\necho ran >> '{marker}'\n"


def add_file(template: Path, rel: str, text: str, executable: bool = False) -> Path:
    path = template / "template" / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    if executable:
        path.chmod(0o755)
    return path


def hook_template(tmp_path: Path, marker: Path, folder: str = "{{ dotgit }}") -> Path:
    """Ships `<folder>/hooks/reference-transaction` (runs on any ref update) and a post-index-change hook."""
    template = blank_copy(tmp_path / "hooky")
    for hook in ("reference-transaction", "post-index-change", "post-commit"):
        add_file(template, f"{folder}/hooks/{hook}", script(marker), executable=True)
    return template


def fsmonitor_template(tmp_path: Path, marker: Path) -> Path:
    """Ships `.git/config` naming an fsmonitor program and a clean filter, plus `.gitattributes` using it."""
    template = blank_copy(tmp_path / "monitor")
    program = tmp_path / "evil.sh"
    program.write_text(script(marker))
    program.chmod(0o755)
    add_file(template, ".git/config", f"[core]\n\tfsmonitor = {program}\n[filter \"x\"]\n\tclean = {program}\n")
    add_file(template, ".gitattributes", "* filter=x\n")
    return template


def as_git_url(template: Path) -> str:
    git(template.parent, "init", "-q", str(template))
    git(template, "add", "-A")
    git(template, "commit", "-qm", "template")
    return template.as_uri()


def make_workspace(path: Path) -> Path:
    result = cli("init", path, "--defaults", "--template", "blank")
    assert result.exit_code == 0, result.output
    return path
