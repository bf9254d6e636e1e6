"""osmosis_workspace.cli.typer_compat: plain parameters are converted without pydantic, with typer's errors."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer
from typer.testing import CliRunner

import osmosis_workspace.cli  # noqa: F401  applies the adjustments
from osmosis_workspace.cli.typer_compat import _leaf


def test_leaf_types():
    assert _leaf(str) == (str, False)
    assert _leaf(Optional[Path]) == (Path, False)
    assert _leaf(List[str]) == (str, True)
    assert _leaf(Optional[List[int]]) == (int, True)
    assert _leaf(dict) == (None, False)
    assert _leaf(List[List[str]]) == (None, False)


def test_plain_values_are_converted_and_bad_ones_are_usage_errors():
    app = typer.Typer()
    seen = {}

    @app.command()
    def cmd(
        path: Path = typer.Argument(...),
        n: int = typer.Option(1, "--n"),
        tags: List[str] = typer.Option([], "--tag"),
        flag: Optional[bool] = typer.Option(None, "--flag/--no-flag"),
    ) -> None:
        seen.update(path=path, n=n, tags=tags, flag=flag)

    runner = CliRunner()
    ok = runner.invoke(app, ["some/where", "--n", "3", "--tag", "a", "--tag", "b", "--no-flag"])
    assert ok.exit_code == 0, ok.output
    assert seen == {"path": Path("some/where"), "n": 3, "tags": ["a", "b"], "flag": False}
    bad = runner.invoke(app, ["x", "--n", "three"])
    assert bad.exit_code == 2 and "'three' is not a valid int" in bad.output
