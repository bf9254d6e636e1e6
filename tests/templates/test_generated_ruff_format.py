"""Every file a bundled template and integration generates is as `ruff format` writes it, under the
workspace's own [tool.ruff] settings (the skills tell agents to run `ruff format` and `ruff check`;
a fresh workspace must not make that a diff of the template's code). Python files and the Python
blocks of the Markdown that ruff formats are both checked, across the whole workspace."""

from __future__ import annotations

import subprocess
import sys

import pytest

from template_helpers import cli

# (template, --data answers): every rollout template, and each integration of multiply
RENDERS = {
    "multiply-strands": ("multiply", ()),
    "multiply-openai-agents": ("multiply", ("integration=openai-agents",)),
    "multiply-harbor": ("multiply", ("integration=harbor",)),
    "calculator-remote": ("calculator-remote", ()),
    "llm-judge": ("llm-judge", ()),
    "blank": ("blank", ()),
    "code": ("code", ()),
    # the longest rollout name (64 characters) in every generated line: wrapped imports, short docstring lines
    "code-long-name": ("code", ("rollout_name=cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccx",)),
}


@pytest.fixture(scope="module")
def workspaces(tmp_path_factory):
    root = tmp_path_factory.mktemp("ruff-format")
    made = {}
    for key, (template, data) in RENDERS.items():
        args = ["init", root / key, "--template", template, "--defaults", "--no-git"]
        for item in data:
            args += ["--data", item]
        result = cli(*args)
        assert result.exit_code == 0, result.output
        made[key] = root / key
    return made


def _ruff(workspace, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ruff", *args, "--no-cache", "."], cwd=workspace,
                          capture_output=True, text=True, timeout=120)


def test_the_bundled_templates_are_all_rendered():
    from osmosis_workspace.scaffold.catalog import rollout_templates

    assert {t.name for t in rollout_templates()} == {template for template, _ in RENDERS.values()}


@pytest.mark.parametrize("key", list(RENDERS))
def test_ruff_format_check_is_clean_on_every_generated_file(workspaces, key):
    done = _ruff(workspaces[key], "format", "--check")
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    formatted = int(done.stdout.split(" files already formatted")[0].split()[-1])
    assert formatted >= 10, done.stdout  # the rollout's Python and the skills' Markdown were really looked at


@pytest.mark.parametrize("key", list(RENDERS))
def test_ruff_check_is_clean_under_the_workspace_settings(workspaces, key):
    done = _ruff(workspaces[key], "check")
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
