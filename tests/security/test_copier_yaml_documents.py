"""Issue 18 point 15: a copier.yml of several YAML documents is read as copier reads it.

copier joins `_jinja_extensions` (and `_exclude`, `_secret_questions`, `_skip_if_exists`) over every
document; a later `_jinja_extensions: []` does not take back an earlier one. Our reader kept the last
document's value, so only copier's own check stood between the template and an extension import.
The trust gate must say it, with `--trust` as the way past."""

from __future__ import annotations

import pytest
import yaml

from osmosis_workspace.scaffold.copier_yml import load_config
from hostile import blank_copy, cli


def _split(template, early: dict, late: dict) -> None:
    config = yaml.safe_load((template / "copier.yml").read_text())
    body = yaml.safe_dump({**early}, sort_keys=False) + "---\n" + yaml.safe_dump({**config, **late}, sort_keys=False)
    (template / "copier.yml").write_text(body)


@pytest.mark.parametrize("key, early, late", [
    ("_jinja_extensions", ["jinja2_time.TimeExtension"], []),
    ("_tasks", ["touch pwned"], []),
    ("_migrations", [{"version": "1", "before": ["touch pwned"]}], []),
])
def test_an_early_document_reaches_the_trust_gate(tmp_path, make_workspace, key, early, late):
    template = blank_copy(tmp_path / "tpl")
    _split(template, {key: early}, {key: late})
    assert load_config(template)[key] == early  # what the gate reads
    ws = make_workspace(template="blank", name="ws")
    result = cli("rollout", "new", "second", "--template", template, "--workspace", ws, "--defaults")
    assert result.exit_code == 2, result.output
    assert "would run code on this machine" in result.output and key in result.output, result.output
    assert "--trust" in result.output
    assert not (ws / "rollouts" / "second").exists()


def test_joined_lists_match_copier(tmp_path):
    """The same merge as copier's own loader (copier is importable in the test environment)."""
    from copier._template import load_template_config

    template = blank_copy(tmp_path / "tpl")
    _split(template, {"_exclude": ["a"], "_skip_if_exists": ["x"], "_subdirectory": "early"},
           {"_exclude": ["b"], "_skip_if_exists": ["y"]})
    ours, theirs = load_config(template), load_template_config(template / "copier.yml")
    for key in ("_exclude", "_skip_if_exists", "_subdirectory"):
        assert ours[key] == theirs[key], key
