"""CRITICAL 1 (issue 14): a template runs nothing through git without `--trust`.

Each hostile template would have its program run by git the moment it lands in a repository (or the
moment copier runs git while rendering). The marker file proves whether anything ran.
"""

from __future__ import annotations

import pytest

from hostile import add_file, as_git_url, blank_copy, cli, fsmonitor_template, git, hook_template, make_workspace, script
from osmosis_workspace.core.template_guard import gitattributes_drivers, has_git_segment, unsafe_config_keys


@pytest.mark.parametrize("folder", ["{{ dotgit }}", ".git", ".GIT", "{{ dotgit | upper }}", ".git.", "git~1"])
def test_rollout_new_refuses_hooks_in_any_spelling_of_dot_git(tmp_path, folder):
    ws = make_workspace(tmp_path / "ws")
    marker = tmp_path / "hook-ran"
    template = hook_template(tmp_path, marker, folder)
    result = cli("rollout", "new", "evil", "--template", template, "--workspace", ws, "--defaults")
    assert result.exit_code == 2, result.output
    assert "would make git run code" in result.output and "hooks/reference-transaction" in result.output
    assert "--trust" in result.output and "Traceback" not in result.output
    git(ws, "update-ref", "refs/heads/probe", "HEAD")  # a ref update would run a planted hook now
    assert not marker.exists()
    assert not (ws / "rollouts" / "evil").exists()
    assert not list((ws / ".git" / "hooks").glob("reference-transaction*"))


def test_init_refuses_git_config_with_fsmonitor_and_a_clean_filter(tmp_path):
    marker = tmp_path / "fsmonitor-ran"
    template = fsmonitor_template(tmp_path, marker)
    target = tmp_path / "ws"
    result = cli("init", target, "--template", template, "--defaults")
    assert result.exit_code == 2, result.output
    assert ".git/config" in result.output and ".gitattributes" in result.output and "filter=x" in result.output
    assert not marker.exists() and not target.exists()
    assert not list(tmp_path.glob(".osmosis-init-*"))


def test_a_dot_git_file_is_refused(tmp_path):
    other = tmp_path / "elsewhere"
    other.mkdir()
    git(other, "init", "-q")
    template = blank_copy(tmp_path / "gitfile")
    add_file(template, "rollouts/{{ rollout_name }}/.git", f"gitdir: {other / '.git'}\n")
    result = cli("init", tmp_path / "ws", "--template", template, "--defaults", "--no-git")
    assert result.exit_code == 2 and "rollouts/my-rollout/.git " in result.output, result.output


def test_gitattributes_driver_alone_is_refused_and_a_plain_one_is_not(tmp_path):
    template = blank_copy(tmp_path / "attrs")
    add_file(template, "rollouts/{{ rollout_name }}/.gitattributes", "*.py diff=evil\n")
    refused = cli("init", tmp_path / "ws", "--template", template, "--defaults", "--no-git")
    assert refused.exit_code == 2 and "diff=evil" in refused.output, refused.output
    add_file(template, "rollouts/{{ rollout_name }}/.gitattributes", "*.jsonl text eol=lf\n")
    assert cli("init", tmp_path / "ws2", "--template", template, "--defaults", "--no-git").exit_code == 0


def test_gitmodules_is_refused(tmp_path):
    template = blank_copy(tmp_path / "mods")
    add_file(template, ".gitmodules", '[submodule "x"]\n\tpath = x\n\turl = ./x\n\tupdate = !sh evil\n')
    result = cli("init", tmp_path / "ws", "--template", template, "--defaults", "--no-git")
    assert result.exit_code == 2 and ".gitmodules" in result.output, result.output


def test_file_url_template_with_hooks_is_refused(tmp_path):
    ws = make_workspace(tmp_path / "ws")
    marker = tmp_path / "hook-ran"
    url = as_git_url(hook_template(tmp_path, marker))
    result = cli("rollout", "new", "evil", "--template", url, "--workspace", ws, "--defaults")
    assert result.exit_code == 2 and "hooks/reference-transaction" in result.output, result.output
    git(ws, "update-ref", "refs/heads/probe", "HEAD")
    assert not marker.exists()


def test_template_folder_whose_own_repository_runs_a_program_is_refused(tmp_path):
    """copier runs `git status` in a local template that is a repository: its config must not name programs."""
    marker = tmp_path / "template-repo-ran"
    template = blank_copy(tmp_path / "repo-template")
    as_git_url(template)
    program = tmp_path / "monitor.sh"
    program.write_text(script(marker))
    program.chmod(0o755)
    with open(template / ".git" / "config", "a") as config:
        config.write(f"[core]\n\tfsmonitor = {program}\n")
    (template / "template" / "data" / "extra.txt").write_text("dirty\n")  # git status has work to do
    result = cli("init", tmp_path / "ws", "--template", template, "--defaults", "--no-git")
    assert not marker.exists()
    assert result.exit_code == 2 and "core.fsmonitor" in result.output, result.output
    assert not (tmp_path / "ws").exists()


def test_trust_lets_a_driver_through(tmp_path):
    template = blank_copy(tmp_path / "attrs")
    add_file(template, "rollouts/{{ rollout_name }}/.gitattributes", "*.py diff=python\n")
    result = cli("init", tmp_path / "ws", "--template", template, "--defaults", "--no-git", "--trust")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "ws/rollouts/my-rollout/.gitattributes").is_file()


def test_update_refuses_an_answers_file_naming_a_hostile_local_template(tmp_path):
    """MAJOR 3: a cloned workspace whose rollout answers name a local template that ships `.git/*`."""
    ws = make_workspace(tmp_path / "ws")
    marker = tmp_path / "hook-ran"
    template = hook_template(tmp_path, marker, ".git")
    answers = ws / "rollouts" / "my-rollout" / ".copier-answers.yml"
    text = answers.read_text().replace("_osmosis_template: blank", f"_osmosis_template: {template}")
    answers.write_text(text.replace("+", "+0"))  # and claim an older version, so update renders it
    git(ws, "commit", "-qam", "point at another template")
    before = git(ws, "rev-parse", "refs/osmosis/pristine")
    result = cli("update", ws)
    assert result.exit_code == 2, result.output
    assert "hooks/reference-transaction" in result.output
    git(ws, "update-ref", "refs/heads/probe", "HEAD")
    assert not marker.exists()
    assert git(ws, "rev-parse", "refs/osmosis/pristine") == before
    assert not (ws / ".git" / "hooks" / "reference-transaction").exists()


def test_update_never_writes_into_dot_git_even_when_trusted(tmp_path):
    """MAJOR 3: with --trust the render may hold `.git/config`; the merge still never writes it into the repository."""
    from osmosis_workspace.scaffold import ownership

    root, base, new = tmp_path / "ws", tmp_path / "base", tmp_path / "new"
    for folder in (root, base, new):
        folder.mkdir()
    (new / ".git").mkdir()
    (new / ".git" / "config").write_text("[core]\n\tbare = oops\n")
    (new / ".GIT").mkdir()
    (new / ".GIT" / "HEAD").write_text("garbage\n")
    (new / "AGENTS.md").write_text("new\n")
    plan = ownership.land(root, base, new, ownership.default_policy(), conflict="inline", dry_run=False,
                          what="update", message="test")
    assert [(c.rel, c.status) for c in plan.changes] == [("AGENTS.md", "new")]
    assert not (root / ".git").exists() and not (root / ".GIT").exists()
    assert (root / "AGENTS.md").read_text() == "new\n"


@pytest.mark.parametrize("rel,expected", [
    (".git/hooks/x", True), ("a/.GIT/config", True), ("a/.git ", True), ("a/.git..", True), ("GIT~1/x", True),
    (".g\u200cit/config", True), (".git::$INDEX_ALLOCATION/x", True), ("a\\.git\\config", True),
    (".github/workflows/ci.yml", False), (".gitignore", False), ("git/x", False), ("a.git/x", False),
])
def test_dot_git_spellings(rel, expected):
    assert has_git_segment(rel) is expected


def test_config_and_attribute_readers():
    assert unsafe_config_keys("[core]\n\trepositoryformatversion = 0\n\tbare = false\n[remote \"o\"]\n\turl = x\n") == []
    assert unsafe_config_keys("[core] fsmonitor = x\n[include]\n path = y\n[Filter \"a\"]\n clean = z\n") == [
        "core.fsmonitor", "include.path", "filter.clean"]
    assert gitattributes_drivers("# filter=x\n*.py text\n* -diff merge=ours\n") == ["line 3: merge=ours"]


@pytest.mark.parametrize("attributes", ["* working-tree-encoding=UTF-16\n", "* text eol=crlf\n"])
def test_a_rendered_gitattributes_does_not_change_the_pristine_record(tmp_path, attributes):
    """Found by bench/adversarial: a template's root .gitattributes with `working-tree-encoding=UTF-16`
    made `git add` of the pristine render fail (exit 3). The render is recorded byte for byte, with
    no attribute applied, so `osmosis update` later compares like with like."""
    ws = make_workspace(tmp_path / "ws")
    template = blank_copy(tmp_path / "attrs")
    add_file(template, ".gitattributes", attributes)
    result = cli("rollout", "new", "second", "--template", template, "--workspace", ws, "--defaults")
    assert result.exit_code == 0, result.output
    for rel in (".gitattributes", "rollouts/second/main.py"):
        recorded = git(ws, "cat-file", "blob", f"refs/osmosis/pristine:{rel}")
        assert recorded == (ws / rel).read_text(), rel


def test_the_pristine_base_is_read_back_whole_whatever_its_attributes(tmp_path):
    """`git archive` would apply the recorded render's own export-ignore / export-subst attributes,
    and `osmosis update` would merge from a base missing files or with rewritten ones."""
    from osmosis_workspace.scaffold import pristine

    ws = make_workspace(tmp_path / "ws")
    template = blank_copy(tmp_path / "attrs")
    add_file(template, ".gitattributes", "* export-ignore\n*.md export-subst\n")
    add_file(template, "rollouts/{{ rollout_name }}/NOTES.md", "$Format:%H$\n")
    assert cli("rollout", "new", "second", "--template", template, "--workspace", ws, "--defaults").exit_code == 0
    base = tmp_path / "base"
    base.mkdir()
    pristine.extract(ws, pristine.PRISTINE_REF, base)
    assert (base / "rollouts/second/NOTES.md").read_text() == "$Format:%H$\n"
    recorded = set(git(ws, "ls-tree", "-r", "--name-only", pristine.PRISTINE_REF).split())
    assert {p.relative_to(base).as_posix() for p in base.rglob("*") if p.is_file() or p.is_symlink()} == recorded
