"""Options doctor would silently ignore together are a usage error (exit 2, one line) instead, and
`doctor FILE` says it checks the whole workspace (a ruff user expects one file)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from osmosis_workspace.cli import app


def doctor(root, *args):
    return CliRunner().invoke(app, ["doctor", str(root), *map(str, args)])


@pytest.mark.parametrize(("args", "named"), [
    (("--add-ignores", "--format", "json"), "--add-ignores cannot be combined with --format"),
    (("--add-ignores", "-o", "report.txt"), "--add-ignores cannot be combined with --output"),
    (("--add-ignores", "--statistics"), "--add-ignores cannot be combined with --statistics"),
    (("--write-baseline", "b.json", "--baseline", "a.json"), "--write-baseline cannot be combined with --baseline"),
    (("--write-baseline", "b.json", "--format", "sarif"), "--write-baseline cannot be combined with --format"),
    (("--add-ignores", "--write-baseline", "b.json"), "--add-ignores cannot be combined with --write-baseline"),
    (("--diff", "--statistics"), "--diff cannot be combined with --statistics"),
    (("--diff", "--add-ignores"), "--diff cannot be combined with --add-ignores"),
])
def test_options_that_would_be_ignored_together_are_refused(make_workspace, args, named):
    root = make_workspace()
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file() and ".git" not in p.parts}
    result = doctor(root, *args)
    assert result.exit_code == 2, result.output
    assert f"error: {named}" in result.output and "Traceback" not in result.output
    assert {p: p.read_bytes() for p in root.rglob("*") if p.is_file() and ".git" not in p.parts} == before
    assert not (root / "b.json").exists() and not (root / "report.txt").exists()


def test_doctor_on_a_file_says_it_checks_the_whole_workspace(make_workspace):
    root = make_workspace()
    config = root / "configs" / "eval" / "multiply.toml"
    result = doctor(config)
    assert result.exit_code == 0, result.output
    assert f"`osmosis validate {config}` checks that file alone" in result.stderr
    assert "checks the whole workspace" not in doctor(root).stderr


def test_add_ignores_points_a_workspace_wide_finding_at_ignore_not_per_file_ignores(make_workspace):
    import subprocess

    root = make_workspace()
    subprocess.run(["git", "remote", "remove", "origin"], cwd=root, check=True)  # GIT009: about no file
    result = doctor(root, "--add-ignores")
    assert result.exit_code == 0, result.output
    assert "not suppressible: GIT009 (about the whole workspace; use [tool.osmosis] ignore, --ignore GIT009 or a baseline)" in result.stderr


def test_the_more_specific_of_select_and_ignore_wins(make_workspace):
    import json

    root = make_workspace()
    config = root / "configs" / "eval" / "multiply.toml"
    config.write_text(config.read_text().replace("[evaluation]", "[evaluation]\nlimt = 5", 1))  # CFG003

    def codes(*args):
        return {d["code"] for d in json.loads(doctor(root, "-f", "json", *args).stdout)["diagnostics"]}

    assert "CFG003" in codes("--select", "CFG003", "--ignore", "CFG")
    assert "CFG003" not in codes("--select", "CFG", "--ignore", "CFG003")
    assert "CFG003" not in codes("--select", "CFG003", "--ignore", "CFG003")  # a tie: the ignore wins
    assert "CFG003" not in codes("--ignore", "CFG")
