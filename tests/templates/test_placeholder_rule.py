"""LAY100 template-placeholder: only the exact `TODO(osmosis)` marker, with its position."""

from __future__ import annotations

import os

from osmosis_workspace.check.families.todos import TEMPLATE_PLACEHOLDER, check_template_placeholders, scan_text
from osmosis_workspace.check.registry import RULES
from osmosis_workspace.core.workspace import Workspace


def test_rule_is_registered_as_a_layout_warning():
    rule = RULES["LAY100"]
    assert rule is TEMPLATE_PLACEHOLDER and rule.family == "layout" and rule.severity.value == "warning"
    assert rule.fix and rule.why and rule.example


def test_scan_text_positions_and_notes():
    found = scan_text('x = 1\ny = 2  # TODO(osmosis): pick y\n{"a": "TODO(osmosis): input", "b": "TODO(osmosis)"}\n', "f.py")
    assert [(d.line, d.column) for d in found] == [(2, 10), (3, 8), (3, 37)]
    assert found[0].message.endswith(": pick y") and found[1].message.endswith(": input")
    assert all(d.code == "LAY100" and d.path == "f.py" for d in found)


def test_plain_todos_are_not_reported():
    assert scan_text("# TODO: mine\n# todo(osmosis) lower case\n# TODO (osmosis)\n", "f.py") == []


def test_workspace_scan_covers_rollouts_configs_data_but_not_markdown_or_links(tmp_path):
    root = tmp_path
    (root / "rollouts/r/sub").mkdir(parents=True)
    (root / "configs/eval").mkdir(parents=True)
    (root / "configs/training").mkdir(parents=True)
    (root / "data").mkdir()
    (root / "rollouts/r/sub/x.py").write_text("# TODO(osmosis): a\n")
    (root / "rollouts/r/README.md").write_text("Replace TODO(osmosis) markers\n")
    (root / "configs/eval/r.toml").write_text("# TODO(osmosis): b\n")
    (root / "data/r.jsonl").write_text('{"q": "TODO(osmosis): c"}\n')
    (root / "AGENTS.md").write_text("TODO(osmosis) outside the scanned folders\n")
    outside = tmp_path.parent / f"{tmp_path.name}-outside.py"
    outside.write_text("# TODO(osmosis): not ours\n")
    os.symlink(outside, root / "rollouts/r/linked.py")
    paths = sorted(d.path for d in check_template_placeholders(Workspace(root)))
    assert paths == ["configs/eval/r.toml", "data/r.jsonl", "rollouts/r/sub/x.py"]
