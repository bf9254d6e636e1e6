"""`osmosis doctor` starts without typer (cli/fast.py) in its plain forms, and must answer exactly as
the typer command does: same stdout, stderr and exit code for every form, and the typer command's own
words for anything the fast parser hands over (help, mistakes)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

# Each command through the console scripts' entry (fast start first) or straight into the typer app.
VIA_ENTRY = "import sys; sys.argv = ['osmosis', *sys.argv[1:]]; from osmosis_workspace.entry import main; main()"
VIA_TYPER = "import sys; sys.argv = ['osmosis', *sys.argv[1:]]; from osmosis_workspace.cli import main; main()"
PROBE = ("import json, sys; sys.argv = ['osmosis', *sys.argv[1:]]\nfrom osmosis_workspace.entry import main\n"
         "try:\n    main()\nexcept SystemExit:\n    pass\nprint(json.dumps(sorted(sys.modules)), file=sys.stderr)")


def run(program: str, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO), "NO_COLOR": "1", "COLUMNS": "100"}
    return subprocess.run([sys.executable, "-c", program, *args], cwd=cwd, capture_output=True, text=True, env=env, timeout=120)


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Path:
    from typer.testing import CliRunner

    from osmosis_workspace.cli import app

    target = tmp_path_factory.mktemp("fast") / "ws"
    assert CliRunner().invoke(app, ["init", str(target), "--template", "multiply", "--defaults"]).exit_code == 0
    config = target / "configs" / "eval" / "multiply.toml"
    config.write_text(config.read_text().replace("[evaluation]", "[evaluation]\nlimt = 5", 1))  # one error to show
    return target


PLAIN = [
    [],
    ["."],
    ["--format", "json"],
    ["-f", "json", "--select", "CFG", "--select=LAY,SKL"],
    ["--format=sarif", "--ignore", "GIT"],
    ["--strict", "--output-format", "concise"],
    ["--no-strict", "--statistics", "-v"],
    ["--no-cache", "configs"],
    ["--list-checks", "--format", "json"],
    ["--diff"],
    ["missing-folder"],
    ["--format", "nonsense"],
]

HANDED_OVER = [
    ["--help"],
    ["--bogus"],
    ["--format"],
    ["--format", "--fix"],
    ["--fix=yes"],
    ["-vf", "json"],
    [".", "configs"],
    ["--", "."],
    ["--output", ""],
]


@pytest.mark.parametrize("args", PLAIN + HANDED_OVER, ids=lambda a: " ".join(a) or "(none)")
def test_the_fast_start_answers_as_the_typer_command(workspace, args):
    fast = run(VIA_ENTRY, workspace, "doctor", *args)
    typer_app = run(VIA_TYPER, workspace, "doctor", *args)
    assert (fast.returncode, fast.stdout, fast.stderr) == (typer_app.returncode, typer_app.stdout, typer_app.stderr)
    assert "Traceback" not in fast.stderr


@pytest.mark.parametrize("args", PLAIN, ids=lambda a: " ".join(a) or "(none)")
def test_plain_forms_never_load_typer(workspace, args):
    loaded = set(json.loads(run(PROBE, workspace, "doctor", *args).stderr.strip().splitlines()[-1]))
    assert not {m for m in loaded if m.split(".")[0] in ("typer", "click")}


@pytest.mark.parametrize("args", HANDED_OVER, ids=lambda a: " ".join(a) or "(none)")
def test_other_forms_go_to_typer(workspace, args):
    loaded = set(json.loads(run(PROBE, workspace, "doctor", *args).stderr.strip().splitlines()[-1]))
    assert "typer" in loaded


def test_output_file_and_fix_take_the_fast_start_too(workspace, tmp_path):
    report = tmp_path / "report.json"
    done = run(VIA_ENTRY, workspace, "doctor", "-o", str(report), "--format", "json")
    assert done.returncode == 1 and json.loads(report.read_text())["summary"]["errors"] >= 1
    loaded = set(json.loads(run(PROBE, workspace, "doctor", "--fix").stderr.strip().splitlines()[-1]))
    assert "typer" not in loaded and "osmosis_workspace.check.fix" in loaded
