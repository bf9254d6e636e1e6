"""One table of output formats (`report.REPORTERS`, a `report.Format` per row): the --format choices,
the help strings, which formats list --fix's repairs or describe every rule, and the README all come
from it, so a new format is one row (a contributor's `--format csv` once needed five places)."""

from __future__ import annotations

import re
import sys
import types
from pathlib import Path

from typer.testing import CliRunner

from osmosis_workspace.check import doctor
from osmosis_workspace.cli import app
from osmosis_workspace.report import REPORTERS, Format, formats, get_reporter
from osmosis_workspace.report import statistics as statistics_format

REPO = Path(__file__).resolve().parents[2]
RUNNER = CliRunner()


def test_every_row_is_a_writer_and_the_columns_are_what_the_formats_do():
    for name, fmt in REPORTERS.items():
        assert isinstance(fmt, Format) and callable(get_reporter(name)), name
    assert doctor.FINDING_FORMATS == tuple(REPORTERS)
    assert statistics_format.FORMATS == formats(statistics=True) == ("text", "json")
    assert formats(lists_fixes=True) == ("text", "json") and formats(describes_rules=True) == ("sarif",)


def test_the_help_of_each_command_that_prints_findings_lists_the_table():
    listed = ", ".join(REPORTERS)
    for command in (["doctor"], ["validate"], ["dataset", "validate"]):
        help_text = " ".join(RUNNER.invoke(app, [*command, "--help"], terminal_width=200).output.split())
        assert f"Output: {listed}" in help_text, command


def test_the_readme_lists_the_table():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    [doctor_row] = [line for line in readme.splitlines() if line.startswith("| `osmosis doctor [PATH]")]
    [choices] = re.findall(r"\[--format ([a-z\\|]+)\]", doctor_row)
    assert choices.split("\\|") == list(REPORTERS)


def test_a_new_row_is_all_a_format_needs(make_workspace, monkeypatch):
    """A `csv` row that lists fixes: doctor accepts it and hands it --fix's repairs (before the table,
    a forgotten tuple made `--fix --format csv` repair silently)."""
    module = types.ModuleType("osmosis_test_csv_format")

    def write(report, stream):
        stream.write("".join(f"fixed,{line}\n" for line in report.fixes))
        stream.write("".join(f"{d.code},{d.path}\n" for d in report.diagnostics))

    module.write = write
    monkeypatch.setitem(sys.modules, module.__name__, module)
    monkeypatch.setitem(REPORTERS, "csv", Format(module.__name__, lists_fixes=True))
    ws = make_workspace(name="csvws", git=False)
    (ws / ".osmosis/schemas/eval.schema.json").unlink()  # LAY009, a safe fix
    result = RUNNER.invoke(app, ["doctor", str(ws), "--fix", "--format", "csv", "--select", "LAY009"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("fixed,") and "eval.schema.json" in result.stdout.splitlines()[0]
    # the same row without the column: the repairs go to stderr instead of vanishing
    monkeypatch.setitem(REPORTERS, "csv", Format(module.__name__))
    (ws / ".osmosis/schemas/eval.schema.json").unlink()
    result = RUNNER.invoke(app, ["doctor", str(ws), "--fix", "--format", "csv", "--select", "LAY009"])
    assert result.exit_code == 0 and "fixed," not in result.stdout
    assert "fixed: " in result.stderr and "eval.schema.json" in result.stderr
    # and validate takes it as well, from the same table
    data = ws / "data" / "csvws.jsonl"
    out = RUNNER.invoke(app, ["validate", str(data if data.exists() else next((ws / "data").iterdir())), "-f", "csv"])
    assert out.exit_code == 0, out.output
