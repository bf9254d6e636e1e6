"""Issue 20, point 6: the platform's recipe names (osmosis-ai's `template apply NAME`: contract
section 1) work as template names: `multiply` with the integration each name implies, the rollout
named after the recipe unless told otherwise, as `template apply` writes `rollouts/NAME/`."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from osmosis_workspace.cli import app

RECIPES = {"multiply-local-strands": "strands", "multiply-local-openai": "openai-agents",
           "multiply-harbor-strands": "harbor"}


def cli(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


@pytest.mark.parametrize("recipe, integration", RECIPES.items())
def test_init_with_a_recipe_name(tmp_path, recipe, integration):
    ws = tmp_path / "ws"
    result = cli("init", ws, "--template", recipe, "--defaults", "--no-git")
    assert result.exit_code == 0, result.output
    answers = (ws / "rollouts" / recipe / ".copier-answers.yml").read_text()
    assert f"integration: {integration}" in answers and "_osmosis_template: multiply" in answers
    assert (ws / "configs" / "eval" / f"{recipe}.toml").is_file()


def test_rollout_new_with_a_recipe_name_keeps_the_given_name(tmp_path):
    ws = tmp_path / "ws"
    assert cli("init", ws, "--defaults", "--no-git").exit_code == 0
    result = cli("rollout", "new", "sums", "--template", "multiply-local-openai", "--defaults", "-w", ws)
    assert result.exit_code == 0, result.output
    assert "integration: openai-agents" in (ws / "rollouts/sums/.copier-answers.yml").read_text()


def test_template_list_shows_the_recipes():
    text = cli("template", "list")
    assert text.exit_code == 0
    lines = {line.split()[0]: line for line in text.output.splitlines()}
    for recipe, integration in RECIPES.items():
        assert f"integration={integration}" in lines[recipe]
    data = json.loads(cli("template", "list", "--json").output)
    names = [t["name"] for t in data]
    assert names == sorted(names) and set(RECIPES) <= set(names)
    entry = next(t for t in data if t["name"] == "multiply-local-openai")
    assert entry["alias_of"] == "multiply" and entry["answers"] == {"integration": "openai-agents"}
    assert cli("template", "inspect", "multiply-harbor-strands").exit_code == 0
