"""`osmosis update`: a real three-way merge against the pristine render, offline.

The "old" template is a copy of a bundled one, edited; the workspace is made from it, the user edits
the workspace, then the copy is brought back to the bundled content ("the new release") and the
workspace is updated.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from lifecycle_helpers import cli, commit_all, git, merge_rollouts, snapshot

REPO = Path(__file__).resolve().parents[2]
SOURCE = REPO / "templates" / "multiply"
ROLLOUT_FILES = Path("template") / "rollouts" / "{{ rollout_name }}"
README_LINE = "`#### <product>`; the grader gives 1.0 when that number is within 0.01 of `ground_truth`, else 0.0."
OLD_LINE = "`#### <product>`; the grader gives 1.0 for a right product (OLD WORDING), else 0.0."


def old_template(tmp_path: Path) -> Path:
    """multiply (OpenAI Agents) as it 'was': an older README line, an older main.py docstring, no CHANGELOG."""
    template = tmp_path / "tmpl"
    shutil.copytree(SOURCE, template)
    readme = template / ROLLOUT_FILES / "README.md.jinja"
    assert README_LINE in readme.read_text()
    readme.write_text(readme.read_text().replace(README_LINE, OLD_LINE))
    main = template / ROLLOUT_FILES / "main.py.jinja"
    main.write_text(main.read_text().replace("an agent multiplies the row's numbers;",
                                             "multiply two numbers (old docstring);"))
    return template


def release_new_version(template: Path) -> None:
    """The template moves on: back to the bundled content, plus a file it did not have."""
    shutil.rmtree(template)
    shutil.copytree(SOURCE, template)
    (template / ROLLOUT_FILES / "CHANGELOG.md").write_text("# Changes\n\n- new in this release\n")


@pytest.fixture
def ws(tmp_path):
    template = old_template(tmp_path)
    target = tmp_path / "ws"
    result = cli("init", target, "--template", template, "--defaults", "--data", "rollout_name=mult",
                 "--data", "integration=openai-agents")
    assert result.exit_code == 0, result.output
    merge_rollouts(target)  # these tests are about the three-way merge; test_ownership covers the default
    return target, template


def test_check_is_current_right_after_init(ws):
    target, _ = ws
    result = cli("update", target, "--check")
    assert result.exit_code == 0, result.output
    assert "up to date" in result.output


def test_user_edit_kept_template_change_applied_conflict_reported(ws):
    target, template = ws
    rollout = target / "rollouts" / "mult"
    # user edits: one far from anything the template changes, one on the very line it changes
    main = rollout / "main.py"
    main.write_text(main.read_text() + "\n# my tuning notes\n")
    readme = rollout / "README.md"
    readme.write_text(readme.read_text().replace(OLD_LINE, OLD_LINE.replace("1.0 for a right product (OLD WORDING)",
                                                                              "MY OWN WORDING")))
    commit_all(target, "my edits")
    release_new_version(template)

    check = cli("update", target, "--check")
    assert check.exit_code == 1 and "rollouts/mult" in check.output
    assert git(target, "status", "--porcelain") == ""  # --check changed nothing

    result = cli("update", target)
    assert result.exit_code == 1, result.output
    assert "conflict" in result.output and "rollouts/mult/README.md" in result.output

    main_text = main.read_text()
    assert "# my tuning notes" in main_text  # user edit kept
    assert "an agent multiplies the row's numbers;" in main_text  # template change merged in
    assert "(old docstring)" not in main_text
    assert (rollout / "CHANGELOG.md").read_text().startswith("# Changes")  # new template file added
    readme_text = readme.read_text()
    assert "<<<<<<<" in readme_text and ">>>>>>>" in readme_text
    assert "MY OWN WORDING" in readme_text and README_LINE in readme_text
    answers = yaml.safe_load((rollout / ".copier-answers.yml").read_text())
    assert answers["rollout_name"] == "mult"
    # the recorded version moved forward, but the merge is not finished: --check says so (issue 12, point 9)
    check = cli("update", target, "--check")
    assert check.exit_code == 1 and "up to date" not in check.output, check.output
    assert "an update is not finished" in check.output and "rollouts/mult/README.md:" in check.output
    pristine_main = git(target, "show", "refs/osmosis/pristine:rollouts/mult/main.py")
    assert "# my tuning notes" not in pristine_main and "an agent multiplies the row's numbers;" in pristine_main


def test_conflict_rej_keeps_the_users_file_and_writes_the_patch(ws):
    target, template = ws
    readme = target / "rollouts" / "mult" / "README.md"
    mine = readme.read_text().replace(OLD_LINE, OLD_LINE.replace("1.0 for a right product (OLD WORDING)", "MINE"))
    readme.write_text(mine)
    commit_all(target)
    release_new_version(template)
    result = cli("update", target, "--conflict", "rej")
    assert result.exit_code == 1, result.output
    assert readme.read_text() == mine
    rej = (readme.parent / "README.md.rej").read_text()
    assert f"-{OLD_LINE}" in rej and f"+{README_LINE}" in rej
    assert "README.md.rej" in result.output


def test_clean_update_exits_0_and_a_second_run_has_nothing_to_do(ws):
    target, template = ws
    release_new_version(template)
    result = cli("update", target)
    assert result.exit_code == 0, result.output
    assert "replaced   rollouts/mult/README.md" in result.output
    assert README_LINE in (target / "rollouts/mult/README.md").read_text()
    commit_all(target, "update")
    again = cli("update", target)
    assert again.exit_code == 0 and "already up to date" in again.output
    assert git(target, "status", "--porcelain") == ""


def test_file_removed_by_template_is_deleted_unless_user_changed_it(ws):
    target, template = ws
    (target / "rollouts/mult/tests/test_tools.py").write_text("# mine now\n")
    commit_all(target)
    release_new_version(template)
    for rel in ("{% if task != 'single-answer' %}test_tools.py{% endif %}.jinja", "test_grading.py.jinja"):
        (template / ROLLOUT_FILES / "tests" / rel).unlink()
    result = cli("update", target)
    assert result.exit_code == 0, result.output
    assert not (target / "rollouts/mult/tests/test_grading.py").exists()  # untouched: removed
    assert (target / "rollouts/mult/tests/test_tools.py").read_text() == "# mine now\n"  # changed: kept
    assert "left alone rollouts/mult/tests/test_tools.py" in result.output


def test_dirty_tree_is_refused(ws):
    target, template = ws
    release_new_version(template)
    (target / "rollouts/mult/main.py").write_text("# uncommitted\n")
    (target / "scratch.txt").write_text("untracked\n")
    before = snapshot(target)
    result = cli("update", target)
    assert result.exit_code == 2 and "uncommitted changes" in result.output
    assert snapshot(target) == before
    # --check still works on a dirty tree (it changes nothing)
    assert cli("update", target, "--check").exit_code == 1


def test_missing_pristine_ref_is_explained_when_behind(ws):
    target, template = ws
    git(target, "update-ref", "-d", "refs/osmosis/pristine")
    release_new_version(template)
    before = snapshot(target)
    result = cli("update", target)
    assert result.exit_code == 2 and "refs/osmosis/pristine" in result.output and "git fetch" in result.output
    assert snapshot(target) == before


def test_missing_pristine_ref_is_recorded_when_current(tmp_path):
    target = tmp_path / "nogit"
    assert cli("init", target, "--defaults", "--no-git").exit_code == 0
    assert cli("update", target).exit_code == 2  # not a git repository yet
    git(target, "init", "-q")
    commit_all(target, "by hand")
    result = cli("update", target)
    assert result.exit_code == 0 and "recorded" in result.output, result.output
    assert git(target, "rev-parse", "--verify", "refs/osmosis/pristine")
    assert git(target, "status", "--porcelain") == ""
    assert "already up to date" in cli("update", target).output


def test_usage_errors(tmp_path, ws):
    target, _ = ws
    assert cli("update", target, "--conflict", "theirs").exit_code == 2
    assert cli("update", tmp_path / "nope").exit_code == 2
    no_answers = tmp_path / "plain"
    for folder in ("rollouts", "configs/eval"):  # a workspace, but not one osmosis init made
        (no_answers / folder).mkdir(parents=True)
    git(no_answers, "init", "-q")
    result = cli("update", no_answers, "--check")
    assert result.exit_code == 2 and "not created by `osmosis init`" in result.output


def test_bundled_workspace_is_current_and_update_is_a_no_op(tmp_path):
    target = tmp_path / "fresh"
    assert cli("init", target, "--template", "calculator-remote", "--defaults").exit_code == 0
    assert cli("rollout", "new", "extra", "-t", "blank", "-w", target, "--defaults").exit_code == 0
    commit_all(target)
    assert cli("update", target, "--check").exit_code == 0
    result = cli("update", target)
    assert result.exit_code == 0 and "already up to date" in result.output, result.output
    assert git(target, "status", "--porcelain") == ""


def test_skills_from_a_newer_bundle_are_merged(tmp_path, monkeypatch):
    from osmosis_workspace.core import resources

    target = tmp_path / "skilled"
    assert cli("init", target, "--defaults").exit_code == 0
    installed = target / ".agents/skills/debug-rollouts/SKILL.md"
    installed.write_text(installed.read_text() + "\nMy team's note: check the logs first.\n")
    commit_all(target)
    bundle = tmp_path / "bundle"
    shutil.copytree(resources.skills_dir(), bundle)
    skill = bundle / "debug-rollouts" / "SKILL.md"
    lines = skill.read_text().splitlines(keepends=True)
    heading = next(i for i, line in enumerate(lines) if line.startswith("#") and i > 3)
    lines.insert(heading + 1, "\nNew in this release: read the grader's reward first.\n")
    skill.write_text("".join(lines))
    monkeypatch.setattr(resources, "skills_dir", lambda: bundle)

    check = cli("update", target, "--check")
    assert check.exit_code == 1 and "(workspace)" in check.output
    result = cli("update", target)
    assert result.exit_code == 0, result.output
    text = installed.read_text()
    assert "New in this release: read the grader's reward first." in text and "My team's note" in text
    assert (target / ".claude/skills/debug-rollouts").is_symlink()


def test_a_folder_in_the_way_of_a_new_file_is_a_conflict_not_a_crash(ws):
    target, template = ws
    (target / "rollouts/mult/CHANGELOG.md").mkdir()
    (target / "rollouts/mult/CHANGELOG.md/keep.txt").write_text("mine\n")
    commit_all(target)
    release_new_version(template)
    result = cli("update", target)
    assert result.exit_code == 1, result.output
    assert "CHANGELOG.md  (something of yours is in the way" in result.output
    assert (target / "rollouts/mult/CHANGELOG.md/keep.txt").read_text() == "mine\n"


# -- what an unfinished update leaves (issue 12, point 9) ------------------------------------------


def _conflicted(ws, *args):
    target, template = ws
    # the user edits the very lines the release changes, so both files conflict
    readme = target / "rollouts" / "mult" / "README.md"
    assert OLD_LINE in readme.read_text()
    readme.write_text(readme.read_text().replace(OLD_LINE, OLD_LINE.replace("1.0 for a right product (OLD WORDING)", "MINE")))
    main = target / "rollouts" / "mult" / "main.py"
    assert "multiply two numbers (old docstring);" in main.read_text()
    main.write_text(main.read_text().replace("multiply two numbers (old docstring);", "multiply, my docstring;"))
    commit_all(target)
    release_new_version(template)
    assert cli("update", target, *args).exit_code == 1
    return target


def _doctor(target):
    result = cli("doctor", target, "-f", "json")
    return [(d["code"], d["path"], d["line"]) for d in json.loads(result.stdout)["diagnostics"]]


def test_inline_markers_are_one_finding_at_the_marker_not_a_syntax_error(ws):
    target = _conflicted(ws)
    main = target / "rollouts" / "mult" / "main.py"
    marker = next(n for n, line in enumerate(main.read_text().splitlines(), 1) if line.startswith("<<<<<<< "))
    found = _doctor(target)
    on_main = [f for f in found if f[1] == "rollouts/mult/main.py"]
    assert on_main == [("LAY111", "rollouts/mult/main.py", marker)], found
    assert any(f[:2] == ("LAY111", "rollouts/mult/README.md") for f in found)
    assert not any(code == "ENT002" for code, _, _ in found)


def test_rej_files_have_their_own_finding_and_git_never_asks_to_commit_them(ws):
    target = _conflicted(ws, "--conflict", "rej")
    found = _doctor(target)
    assert ("LAY110", "rollouts/mult/README.md.rej", None) in found
    assert ("LAY110", "rollouts/mult/main.py.rej", None) in found
    [git001] = [d for d in json.loads(cli("doctor", target, "-f", "json").stdout)["diagnostics"] if d["code"] == "GIT001"]
    assert "copier-answers" in git001["message"]  # update moved the recorded version: that is to commit
    assert ".rej" not in git001["message"] + git001["hint"], git001
    check = cli("update", target, "--check")
    assert check.exit_code == 1 and "rollouts/mult/main.py.rej" in check.output
    for rej in (target / "rollouts" / "mult").glob("*.rej"):
        rej.unlink()
    check = cli("update", target, "--check")
    assert check.exit_code == 0 and "up to date" in check.output
