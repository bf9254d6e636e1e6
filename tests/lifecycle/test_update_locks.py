"""`osmosis update` and the templates' lockfiles: a lock nobody re-made moves to the templates' newer
tested set (and the output says what it is); a lock the user re-made is kept, never merged line by
line, with the command that re-resolves it. Under the default ownership policy."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from lifecycle_helpers import cli, commit_all, git

REPO = Path(__file__).resolve().parents[2]
SOURCE = REPO / "templates" / "multiply"
LOCK = Path("template") / "rollouts" / "{{ rollout_name }}" / "{% if integration == 'openai-agents' %}uv.lock{% endif %}.jinja"


def _older(text: str) -> str:
    """The same lock with one package pinned at a made-up older version (what a previous release shipped)."""
    marker = 'name = "annotated-types"\nversion = "'
    assert marker in text
    head, tail = text.split(marker, 1)
    return head + marker + "0.0.1" + tail[tail.index('"'):]


@pytest.fixture
def ws(tmp_path):
    template = tmp_path / "tmpl"
    shutil.copytree(SOURCE, template)
    (template / LOCK).write_text(_older((SOURCE / LOCK).read_text()))
    target = tmp_path / "ws"
    result = cli("init", target, "--template", template, "--defaults", "--data", "rollout_name=mult",
                 "--data", "integration=openai-agents")
    assert result.exit_code == 0, result.output
    assert 'version = "0.0.1"' in (target / "rollouts/mult/uv.lock").read_text()
    shutil.rmtree(template)
    shutil.copytree(SOURCE, template)  # the next release: the bundled lock
    return target


def test_an_untouched_lock_moves_to_the_newer_tested_set_and_update_says_so(ws):
    result = cli("update", ws)
    assert result.exit_code == 0, result.output
    assert "replaced   rollouts/mult/uv.lock" in result.output
    assert "the package set the templates were tested with" in result.output
    lock = (ws / "rollouts/mult/uv.lock").read_text()
    assert 'version = "0.0.1"' not in lock and 'name = "mult"\n' in lock
    assert lock == (SOURCE / LOCK).read_text().replace('name = "{{ rollout_name }}"', 'name = "mult"').replace(
        "{% raw %}", "").replace("{% endraw %}", "")


def test_a_lock_the_user_re_made_is_kept_and_the_fix_is_named(ws):
    lock = ws / "rollouts/mult/uv.lock"
    mine = lock.read_text().replace('version = "0.0.1"', 'version = "0.0.2"')
    lock.write_text(mine)
    commit_all(ws, "re-locked")
    result = cli("update", ws)
    assert result.exit_code == 0, result.output
    assert "left alone rollouts/mult/uv.lock" in result.output
    assert "uv lock --project rollouts/mult" in result.output
    assert lock.read_text() == mine and "<<<<<<<" not in lock.read_text()
    assert not (ws / "rollouts/mult/uv.lock.rej").exists()
    assert git(ws, "status", "--porcelain", "--", "rollouts/mult/uv.lock") == ""
