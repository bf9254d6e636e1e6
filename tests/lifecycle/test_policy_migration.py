"""Issue 20, point 6: one ownership format per workspace, the platform's. A workspace made by
A workspace made before the first release carries `.osmosis-ownership.toml` (the pre-release ownership file); its next `osmosis update` turns it into the
platform's `.osmosis/template.json` + `.osmosis/template-ignore` in the same journal as the update (all
or nothing), an untouched policy into the new templates' files, an edited one into its mapping.

The pre-release workspace is made for real: `osmosis init` from a copy of the workspace template whose
policy is the pre-release file (tests/lifecycle/pre_release_ownership.toml, as those builds wrote it)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from lifecycle_helpers import cli, commit_all, git, snapshot

REPO = Path(__file__).resolve().parents[2]
LEGACY = Path(__file__).with_name("pre_release_ownership.toml").read_text()
SKILL = ".agents/skills/deploy-models/SKILL.md"


def _statuses(output: str) -> dict[str, str]:
    found = {}
    for line in output.splitlines():
        for status in ("left alone", "unchanged", "replaced", "conflict", "merged", "new"):
            if line.startswith(f"  {status:10} "):
                found[line[len(f"  {status:10} "):].split("  (")[0]] = status
    return found


@pytest.fixture
def old_ws(tmp_path, monkeypatch):
    """A workspace as a pre-release build made it (its pristine ref included), with a skill the new release changes."""
    from osmosis_workspace.core import resources
    from osmosis_workspace.scaffold import catalog, policy

    old = tmp_path / "templates-pre-release"  # the bundled templates as pre-release builds shipped the policy
    shutil.copytree(REPO / "templates", old, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.rmtree(old / "workspace" / "template" / ".osmosis")
    (old / "workspace" / "template" / ".osmosis-ownership.toml").write_text(LEGACY)
    catalog.bundled_templates.cache_clear()
    with monkeypatch.context() as patch:
        patch.setattr(resources, "templates_dir", lambda: old)
        ws = tmp_path / "ws"
        result = cli("init", ws, "--defaults")
        assert result.exit_code == 0, result.output
    catalog.bundled_templates.cache_clear()
    policy.default_policy.cache_clear()
    assert (ws / ".osmosis-ownership.toml").is_file() and not (ws / ".osmosis" / "template.json").exists()
    bundle = tmp_path / "bundle"  # the new release also changes a skill
    shutil.copytree(resources.skills_dir(), bundle)
    (bundle / "deploy-models" / "SKILL.md").write_text((bundle / "deploy-models" / "SKILL.md").read_text() + "\nNew.\n")
    monkeypatch.setattr(resources, "skills_dir", lambda: bundle)
    return ws


def test_an_untouched_policy_becomes_the_platforms_files(old_ws):
    ws = old_ws
    template = REPO / "templates" / "workspace" / "template" / ".osmosis"
    dry = cli("update", ws, "--dry-run")
    assert dry.exit_code == 0, dry.output
    got = _statuses(dry.output)
    assert got[".osmosis-ownership.toml"] == "replaced" and got[".osmosis/template.json"] == "new"
    assert got[".osmosis/template-ignore"] == "new" and got[SKILL] == "replaced"
    assert (ws / ".osmosis-ownership.toml").is_file()  # a dry run writes nothing

    result = cli("update", ws)
    assert result.exit_code == 0, result.output
    assert not (ws / ".osmosis-ownership.toml").exists()
    assert (ws / ".osmosis/template.json").read_bytes() == (template / "template.json").read_bytes()
    assert (ws / ".osmosis/template-ignore").read_bytes() == (template / "template-ignore").read_bytes()
    assert (ws / ".osmosis/update.json").read_bytes() == (template / "update.json").read_bytes()
    assert (ws / SKILL).read_text().endswith("\nNew.\n")
    commit_all(ws, "update")
    assert ".osmosis/template.json" in git(ws, "ls-files", ".osmosis")
    assert cli("update", ws, "--check").exit_code == 0
    assert "already up to date" in cli("update", ws).output


def test_an_edited_policy_keeps_its_edits_in_the_platforms_format(old_ws):
    ws = old_ws
    legacy = ws / ".osmosis-ownership.toml"
    text = legacy.read_text().replace('    ".agents/skills/**",\n', "")  # skills are ours now
    legacy.write_text(text.replace("shared = [\n", 'shared = [\n    "notes/**",\n'))
    commit_all(ws, "our policy")
    result = cli("update", ws)
    assert result.exit_code == 0, result.output
    data = json.loads((ws / ".osmosis/template.json").read_text())
    assert ".agents/skills/**" not in data["overwriteManaged"]
    # managed then shared, in order: the same list decides as before
    assert data["overwriteManaged"].index("AGENTS.md") < data["overwriteManaged"].index("notes/**")
    assert data["additive"][-1] == ".osmosis/template-ignore"
    # osmosis's own patterns went to its record, not the platform's file (issue 29, point 6)
    record = json.loads((ws / ".osmosis/update.json").read_text())
    assert ".osmosis/template.json" in record["additive"] and ".osmosis/template.json" not in data["additive"]
    assert "pyproject.toml" in record["overwriteManaged"] and "pyproject.toml" not in data["overwriteManaged"]
    assert ".osmosis-ownership.toml" not in data["additive"] and not legacy.exists()
    assert not (ws / SKILL).read_text().endswith("\nNew.\n")  # the migrated policy already applied
    assert _statuses(result.output)[SKILL] == "left alone"


def test_the_migration_lands_with_the_update_or_not_at_all(old_ws, monkeypatch):
    from osmosis_workspace.core import journal

    ws = old_ws
    before = snapshot(ws)
    ref = git(ws, "rev-parse", "refs/osmosis/pristine")
    made = []
    real = journal._make

    def make_then_fail(root, change):
        if len(made) == 2:
            raise OSError("disk full")
        made.append(change.rel)
        real(root, change)

    monkeypatch.setattr(journal, "_make", make_then_fail)
    result = cli("update", ws)
    assert result.exit_code != 0 and len(made) == 2
    assert snapshot(ws) == before and git(ws, "rev-parse", "refs/osmosis/pristine") == ref
    assert git(ws, "status", "--porcelain") == ""


def test_two_formats_side_by_side_are_refused_in_one_line(old_ws):
    ws = old_ws
    (ws / ".osmosis/template.json").write_text('{"overwriteManaged": [], "additive": []}\n')
    commit_all(ws, "both")
    result = cli("update", ws)
    assert result.exit_code == 2 and "one ownership format per workspace" in result.output, result.output
    assert "Traceback" not in result.output
