"""CRITICAL 2 (issue 14): no write goes through a link or outside the target.

Each case plants a link (or a hard link) in a workspace the way a cloned repository can, runs the
writer, and proves the file outside is byte-identical afterwards and the command said why it stopped.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hostile import blank_copy, cli, git, make_workspace
from osmosis_workspace.core import safe_write
from osmosis_workspace.core.errors import UserError

OUTSIDE = b"# my shell settings\nexport PATH=$HOME/bin:$PATH\n"


@pytest.fixture
def outside(tmp_path) -> Path:
    path = tmp_path / "home" / ".bashrc"
    path.parent.mkdir()
    path.write_bytes(OUTSIDE)
    return path


def test_fix_ignores_a_link_planted_at_the_old_temporary_name(tmp_path, outside):
    ws = make_workspace(tmp_path / "ws")
    schema = ws / ".osmosis/schemas/eval.schema.json"
    schema.write_text("{}\n")  # stale: --fix refreshes it
    os.symlink(outside, schema.with_name(".eval.schema.json.osmosis-tmp"))
    result = cli("doctor", ws, "--fix")
    assert outside.read_bytes() == OUTSIDE
    assert "refreshed .osmosis/schemas/eval.schema.json" in result.output, result.output
    assert not schema.is_symlink() and schema.read_text() != "{}\n"


def test_fix_refuses_a_hard_linked_config(tmp_path, outside):
    ws = make_workspace(tmp_path / "ws")
    config = ws / "configs/eval/my-rollout.toml"
    lines = config.read_text().splitlines(keepends=True)
    outside.write_text("".join(lines[1:]))  # the same config without its #:schema line
    config.unlink()
    os.link(outside, config)
    before = outside.read_bytes()
    result = cli("doctor", ws, "--fix")
    assert outside.read_bytes() == before
    assert result.exit_code == 2 and "hard links" in result.output and "Traceback" not in result.output, result.output


def test_fix_refuses_a_hard_linked_env_example(tmp_path, outside):
    ws = make_workspace(tmp_path / "ws")
    env = ws / ".env.example"
    env.unlink()
    os.link(outside, env)
    result = cli("doctor", ws, "--fix")  # the config requires OPENAI_API_KEY, which the outside file lacks
    assert outside.read_bytes() == OUTSIDE
    assert result.exit_code == 2 and "hard links" in result.output, result.output


def test_update_refuses_a_symlinked_answers_file(tmp_path, outside):
    ws = make_workspace(tmp_path / "ws")
    answers = ws / "rollouts/my-rollout/.copier-answers.yml"
    outside.write_bytes(answers.read_bytes())
    before = outside.read_bytes()
    answers.unlink()
    os.symlink(outside, answers)
    git(ws, "add", "-A")
    git(ws, "commit", "-qm", "link")
    for args in (("update", ws), ("rollout", "new", "second", "--template", "blank", "--workspace", ws, "--defaults")):
        result = cli(*args)
        assert outside.read_bytes() == before
        assert result.exit_code == 2 and "symbolic link" in result.output, (args, result.output)


def link_template(tmp_path: Path, outside: Path) -> Path:
    """`_preserve_symlinks: true`, and the rollout's answers file is a link to ``outside``."""
    template = blank_copy(tmp_path / "linky", _preserve_symlinks=True)
    (template / "template" / "{{ _copier_conf.answers_file }}.jinja").unlink()
    folder = template / "template" / "rollouts" / "{{ rollout_name }}"
    os.symlink(outside, folder / ".copier-answers.yml")
    return template


@pytest.mark.parametrize("trust", [False, True])
def test_preserved_symlink_out_of_the_template_never_receives_a_write(tmp_path, outside, trust):
    template = link_template(tmp_path, outside)
    target = tmp_path / "ws"
    result = cli("init", target, "--template", template, "--defaults", *(["--trust"] if trust else []))
    assert outside.read_bytes() == OUTSIDE
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    assert ("a link to an absolute path" if not trust else "symbolic link") in result.output
    assert not target.exists()


def test_rollout_new_with_a_preserved_link_out(tmp_path, outside):
    ws = make_workspace(tmp_path / "ws")
    template = link_template(tmp_path, outside)
    for extra in ([], ["--trust"]):
        result = cli("rollout", "new", "linked", "--template", template, "--workspace", ws, "--defaults", *extra)
        assert outside.read_bytes() == OUTSIDE
        assert result.exit_code == 2, result.output
        assert not (ws / "rollouts/linked").exists()


# -- the module itself -------------------------------------------------------------------------


def test_write_refuses_links_hard_links_git_and_outside(tmp_path, outside):
    root = tmp_path / "root"
    (root / ".git").mkdir(parents=True)
    os.symlink(outside, root / "link")
    os.link(outside, root / "hard")
    os.symlink(outside.parent, root / "out")
    for rel, words in [("link", "symbolic link"), ("hard", "hard links"), ("out/new", "leads out"),
                       (".git/config", ".git folder"), (".GIT/hooks", ".git folder")]:
        with pytest.raises(safe_write.UnsafeWrite, match=words):
            safe_write.write_bytes(root, root / rel, b"x")
    assert outside.read_bytes() == OUTSIDE and not (outside.parent / "new").exists()
    safe_write.write_bytes(root, root / "plain", b"ok")
    safe_write.append_bytes(root, root / "plain", b"!")
    assert (root / "plain").read_bytes() == b"ok!"
    assert sorted(p.name for p in root.iterdir()) == [".git", "hard", "link", "out", "plain"]  # no temporary left


def test_write_keeps_the_mode_and_says_so_on_a_read_only_folder(tmp_path):
    root = tmp_path / "root"
    root.mkdir()
    script = root / "run.sh"
    script.write_text("old")
    script.chmod(0o750)
    safe_write.write_bytes(root, script, b"new")
    assert script.read_bytes() == b"new" and (script.stat().st_mode & 0o777) == 0o750
    if os.geteuid() == 0:
        return  # root writes anywhere; the read-only case is covered by the CLI test below for users
    root.chmod(0o500)
    try:
        with pytest.raises(UserError, match="cannot write run.sh"):
            safe_write.write_bytes(root, script, b"newer")
    finally:
        root.chmod(0o700)
