"""`doctor --fix` / `--unsafe-fixes` / `--diff` end to end through the CLI: safe and unsafe repairs
as the rule registry classes them, a diff that writes nothing and applies to the same result, and
every repair landing through the journal all or nothing."""

from __future__ import annotations

import errno
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from osmosis_workspace.cli import app
from test_fix import tree


def doctor(root: Path, *args: str):
    return CliRunner().invoke(app, ["doctor", str(root), *args])


@pytest.fixture
def broken(make_workspace) -> Path:
    """A workspace with three safe repairs to make (CFG022, LAY009, LAY001) and one unsafe (LAY008)."""
    root = make_workspace()
    config = root / "configs" / "eval" / "multiply.toml"
    config.write_text(config.read_text().split("\n", 1)[1])  # the #:schema line gone
    (root / ".osmosis" / "schemas" / "eval.schema.json").unlink()
    shutil.rmtree(root / "data")
    (root / "CLAUDE.md").write_text("# Notes\nBe careful.\n")
    return root


def test_the_registry_classes_each_fix(tmp_path):
    result = CliRunner().invoke(app, ["doctor", "--list-checks", "--format", "json"])
    rules = {r["code"]: r for r in json.loads(result.stdout)["checks"]}
    assert rules["LAY008"]["fixability"] == "unsafe" and rules["LAY008"]["fixable"] is True
    assert rules["CFG022"]["fixability"] == "safe"
    assert rules["CFG001"]["fixability"] == "none" and rules["CFG001"]["fixable"] is False


def test_diff_shows_the_safe_fixes_writes_nothing_and_exits_1(broken):
    before = tree(broken)
    result = doctor(broken, "--diff")
    assert result.exit_code == 1, result.output
    assert tree(broken) == before
    out = result.stdout
    assert "--- a/configs/eval/multiply.toml\n+++ b/configs/eval/multiply.toml\n" in out
    assert "\n+#:schema ../../.osmosis/schemas/eval.schema.json\n" in out
    assert "--- /dev/null\n+++ b/.osmosis/schemas/eval.schema.json\n" in out
    assert "CLAUDE.md" not in out  # unsafe: not without --unsafe-fixes
    assert "would fix LAY001: created folder data/" in result.stderr
    assert "1 unsafe fix available with --unsafe-fixes" in result.stderr


def test_unsafe_diff_adds_the_unsafe_fix(broken):
    result = doctor(broken, "--diff", "--unsafe-fixes")
    assert result.exit_code == 1
    assert "--- a/CLAUDE.md\n+++ b/CLAUDE.md\n@@ -1,2 +1,3 @@\n # Notes\n Be careful.\n+@AGENTS.md\n" in result.stdout
    assert (broken / "CLAUDE.md").read_text() == "# Notes\nBe careful.\n"


def test_fix_makes_the_safe_ones_only_then_unsafe_fixes_the_rest(broken):
    result = doctor(broken, "--fix", "--format", "json")
    data = json.loads(result.stdout)
    assert "created folder data/" in data["fixes"]
    assert (broken / "configs/eval/multiply.toml").read_text().startswith("#:schema ../../.osmosis/schemas/eval.schema.json\n")
    assert (broken / "CLAUDE.md").read_text() == "# Notes\nBe careful.\n"
    assert [d["code"] for d in data["diagnostics"]] == ["LAY008"]
    assert not any(p.name.startswith(".osmosis-undo-") for p in broken.iterdir())  # the journal is gone once done

    result = doctor(broken, "--unsafe-fixes")  # implies --fix
    assert result.exit_code == 0, result.output
    assert "fixed: CLAUDE.md: appended `@AGENTS.md`" in result.stdout
    assert (broken / "CLAUDE.md").read_text() == "# Notes\nBe careful.\n@AGENTS.md\n"
    nothing = doctor(broken, "--diff", "--unsafe-fixes")
    assert nothing.exit_code == 0 and nothing.stdout == "" and "Nothing to fix automatically." in nothing.stderr


def test_the_diff_applies_to_what_fix_writes(broken, tmp_path):
    """`git apply` of the --diff gives the files --fix writes (the folder is not a diff's to make)."""
    copy = tmp_path / "copy"
    shutil.copytree(broken, copy, symlinks=True)
    patch = doctor(broken, "--diff", "--unsafe-fixes").stdout
    doctor(broken, "--unsafe-fixes")
    subprocess.run(["git", "apply", "--unsafe-paths", "-p1", "-"], cwd=copy, input=patch.encode(), check=True)
    (copy / "data").mkdir()
    assert tree(copy) == tree(broken)


def test_a_diff_that_restores_a_link_applies_as_a_link(make_workspace, tmp_path):
    """A skill link's repair is a symlink in the diff (git's mode 120000, under a `diff --git` header):
    `git apply` makes the link, not a file holding its target."""
    root = make_workspace()
    link = next(p for p in (root / ".claude" / "skills").iterdir() if p.is_symlink())
    target = link.readlink()
    link.unlink()
    copy = tmp_path / "copy"
    shutil.copytree(root, copy, symlinks=True)
    patch = doctor(root, "--diff").stdout
    assert f"diff --git a/.claude/skills/{link.name} b/.claude/skills/{link.name}\nnew file mode 120000\n" in patch
    subprocess.run(["git", "apply", "-p1", "-"], cwd=copy, input=patch.encode(), check=True)
    restored = copy / ".claude" / "skills" / link.name
    assert restored.is_symlink() and restored.readlink() == target
    assert doctor(copy, "--select", "SKL", "-f", "json").exit_code == 0


def test_select_limits_what_fix_repairs(broken):
    result = doctor(broken, "--fix", "--select", "CFG022")
    assert "first line set to" in result.stdout
    assert not (broken / "data").exists()
    assert not (broken / ".osmosis/schemas/eval.schema.json").exists()


def test_a_failed_write_takes_every_repair_back(broken, monkeypatch):
    """The repairs land through core/journal.py: a disk full at the second write undoes the first and
    the folder made before it."""
    from osmosis_workspace.core import journal

    real, calls = journal._make, []

    def flaky(root, change):
        calls.append(change.rel)
        if len(calls) == 2:
            raise OSError(errno.ENOSPC, "No space left on device", str(root / change.rel))
        real(root, change)

    monkeypatch.setattr(journal, "_make", flaky)
    before = tree(broken)
    result = doctor(broken, "--fix")
    assert result.exit_code == 2, result.output
    assert "doctor --fix cannot write" in result.output and "No space left on device" in result.output
    assert calls == [".osmosis/schemas/eval.schema.json", "configs/eval/multiply.toml"]
    assert tree(broken) == before  # folder, schema and config all as they were


def test_diff_to_a_file_and_not_as_json(broken, tmp_path):
    out = tmp_path / "fixes.patch"
    result = doctor(broken, "--diff", "-o", str(out))
    assert result.exit_code == 1 and result.stdout == ""
    assert "+#:schema ../../.osmosis/schemas/eval.schema.json\n" in out.read_text()
    refused = doctor(broken, "--diff", "--format", "json")
    assert refused.exit_code == 2 and "--diff prints a unified diff" in refused.output


def test_when_only_an_unsafe_fix_exists_fix_and_diff_say_so(make_workspace):
    root = make_workspace()
    (root / "CLAUDE.md").write_text("# Notes\nBe careful.\n")  # LAY008, the one unsafe fix
    for args in (("--fix",), ("--diff",)):
        result = doctor(root, *args)
        assert "Nothing to fix automatically. 1 unsafe fix available with --unsafe-fixes" in result.stderr, result.output
    assert "@AGENTS.md" not in (root / "CLAUDE.md").read_text()


@pytest.mark.parametrize("mode", [("--add-ignores",), ("--write-baseline", "baseline.json")])
def test_fix_lists_its_repairs_beside_add_ignores_and_write_baseline(broken, mode):
    result = doctor(broken, "--fix", *(str(broken / m) if m.endswith(".json") else m for m in mode))
    assert "fixed: " in result.stderr, result.output
    assert (broken / "data").is_dir()
