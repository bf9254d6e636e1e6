"""The command line itself: version, completion, help texts, no-argument and typo behaviour."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
import typer
from typer.testing import CliRunner

from osmosis_workspace import __version__
from osmosis_workspace.cli import app

runner = CliRunner()


def all_command_paths() -> list[list[str]]:
    """Every command and group of the app as argv prefixes ([] is the root)."""
    root = typer.main.get_command(app)
    paths: list[list[str]] = []

    def walk(cmd, prefix: list[str]) -> None:
        paths.append(prefix)
        if getattr(cmd, "commands", None):  # a group (typer may vendor click: no isinstance check)
            for name, sub in cmd.commands.items():
                walk(sub, [*prefix, name])

    walk(root, [])
    assert len(paths) > 8, paths  # the walk really found the subcommands
    return paths


def test_version():
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.stdout == f"osmosis-workspace {__version__}\n"


def test_version_through_the_module_entry_point():
    out = subprocess.run([sys.executable, "-m", "osmosis_workspace", "--version"], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == f"osmosis-workspace {__version__}"


def test_show_completion_prints_a_script():
    result = runner.invoke(app, ["--show-completion", "bash"], prog_name="osmosis")
    assert result.exit_code == 0
    assert "_osmosis_completion()" in result.stdout and "complete " in result.stdout


def test_completion_completes_command_names():
    env = {**os.environ, "_OSMOSIS_COMPLETE": "complete_bash", "COMP_WORDS": "osmosis doc", "COMP_CWORD": "1"}
    out = subprocess.run([sys.executable, "-m", "osmosis_workspace"], capture_output=True, text=True, env=env)
    assert out.returncode == 0 and out.stdout.split() == ["doctor"]


def test_no_arguments_lists_commands_and_where_to_start():
    result = runner.invoke(app, [])
    assert result.exit_code == 0
    assert "Commands:" in result.stdout
    for name in ("init", "doctor", "validate"):
        assert re.search(rf"^\s+{name}\s", result.stdout, re.MULTILINE)
    assert "Start here: osmosis init" in result.stdout


def test_typo_suggests_the_nearest_command():
    result = runner.invoke(app, ["doctr"])
    assert result.exit_code == 2
    assert "Did you mean 'doctor'?" in result.output


@pytest.mark.parametrize("argv", all_command_paths(), ids=" ".join)
def test_every_help_has_an_example_and_readable_value_names(argv):
    result = runner.invoke(app, [*argv, "--help"], prog_name="osmosis")
    assert result.exit_code == 0, result.output
    assert "Example: osmosis " in result.stdout
    assert not re.search(r"<(list\[|str>|path>|int>|bool>)", result.stdout), result.stdout


def test_help_shows_options_with_plain_metavars():
    out = runner.invoke(app, ["doctor", "--help"]).stdout
    assert "--select CODES" in out and "--format FORMAT" in out and "-o, --output FILE" in out
