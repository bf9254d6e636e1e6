"""Issue 18 point 2: a crafted `refs/osmosis/pristine` is hostile input, like any tree read from git.

The ref is built exactly as someone who can push a ref would build it: `git mktree` accepts a tree
holding one name twice (a symlink to a folder outside, and a folder of that name with `.bashrc` in
it), and `git update-ref` points the pristine ref at a commit of it. Extracting that tree in order
(the link first, then the folder's file) writes `.bashrc` through the link. `update` and
`rollout new` must refuse it with one line and exit 2, and write nothing outside.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from hostile import cli

REF = "refs/osmosis/pristine"


def _git(cwd: Path, *args: str, input: bytes | None = None) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, input=input).stdout.decode().strip()


def _blob(ws: Path, data: bytes) -> str:
    return _git(ws, "hash-object", "-w", "--stdin", input=data)


def _push_crafted(ws: Path, extra_lines: list[str]) -> None:
    """Commit the current pristine tree plus ``extra_lines`` (mktree format) on top of the ref."""
    tip = _git(ws, "rev-parse", REF)
    lines = _git(ws, "ls-tree", tip).splitlines() + extra_lines
    tree = _git(ws, "mktree", input=("\n".join(lines) + "\n").encode())
    commit = _git(ws, "commit-tree", tree, "-p", tip, "-m", "crafted")
    _git(ws, "update-ref", REF, commit)


@pytest.fixture
def ws(make_workspace):
    return make_workspace(template="blank", name="ws")


@pytest.fixture
def outside(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / ".bashrc").write_text("the user's own shell setup\n")
    return home


def _dup_link_and_folder(ws: Path, outside: Path, name: str = "evil") -> None:
    link = _blob(ws, str(outside).encode())
    inner = _git(ws, "mktree", input=f"100644 blob {_blob(ws, b'echo pwned')}\t.bashrc\n".encode())
    _push_crafted(ws, [f"120000 blob {link}\t{name}", f"040000 tree {inner}\t{name}"])


@pytest.mark.parametrize("command", ["update", "rollout-new"])
def test_duplicate_name_link_and_folder_is_refused(ws, outside, command):
    _dup_link_and_folder(ws, outside)
    if command == "update":
        result = cli("update", ws)
    else:
        result = cli("rollout", "new", "second", "--template", "blank", "--workspace", ws, "--defaults")
    assert (outside / ".bashrc").read_text() == "the user's own shell setup\n"
    assert sorted(p.name for p in outside.iterdir()) == [".bashrc"]
    assert result.exit_code == 2, result.output
    assert REF in result.output and "twice" in result.output, result.output
    assert "Traceback" not in result.output
    assert not (ws / "rollouts" / "second").exists()


def test_a_link_where_the_new_rollout_goes_is_not_followed(ws, outside):
    """`rollouts/second` as a link out in the base: copying the new rollout's render over the old tree
    (the record `rollout new` makes) must not go through it."""
    link = _blob(ws, str(outside).encode())
    tip = _git(ws, "rev-parse", REF)
    rollouts = _git(ws, "rev-parse", f"{tip}:rollouts")
    inner = _git(ws, "ls-tree", rollouts).splitlines() + [f"120000 blob {link}\tsecond"]
    new_rollouts = _git(ws, "mktree", input=("\n".join(inner) + "\n").encode())
    lines = [ln if not ln.endswith("\trollouts") else f"040000 tree {new_rollouts}\trollouts"
             for ln in _git(ws, "ls-tree", tip).splitlines()]
    tree = _git(ws, "mktree", input=("\n".join(lines) + "\n").encode())
    _git(ws, "update-ref", REF, _git(ws, "commit-tree", tree, "-p", tip, "-m", "crafted"))
    result = cli("rollout", "new", "second", "--template", "blank", "--workspace", ws, "--defaults")
    assert sorted(p.name for p in outside.iterdir()) == [".bashrc"]
    assert result.exit_code == 2, result.output
    assert "symbolic link" in result.output and REF in result.output, result.output
    assert not (ws / "rollouts" / "second").exists()


@pytest.mark.parametrize("entry, why", [
    ("160000 commit {commit}\tsub", "submodule"),
    ("100644 blob {blob}\t..", ".."),
    ("100644 blob {blob}\ta\x1bb", "control character"),
    ("040000 tree {gittree}\t.GIT", ".git"),
])
def test_entries_a_render_never_holds_are_refused(ws, entry, why):
    blob = _blob(ws, b"x")
    gittree = _git(ws, "mktree", input=f"100644 blob {blob}\tconfig\n".encode())
    commit = _git(ws, "rev-parse", "HEAD")
    _push_crafted(ws, [entry.format(blob=blob, commit=commit, gittree=gittree)])
    result = cli("update", ws)
    assert result.exit_code == 2, result.output
    assert why in result.output and REF in result.output, result.output


def test_a_blob_over_the_cap_is_refused_before_it_is_read(ws, monkeypatch):
    monkeypatch.setenv("OSMOSIS_TREE_BLOB_CAP", "1000000")  # the default (50 MB) works the same, only slower
    big = _git(ws, "hash-object", "-w", "--stdin", input=bytes(1_500_000))
    _push_crafted(ws, [f"100644 blob {big}\tzeros.bin"])
    result = cli("update", ws)
    assert result.exit_code == 2, result.output
    assert "zeros.bin" in result.output and "MB" in result.output, result.output


def test_many_blobs_over_the_total_cap_are_refused(ws, monkeypatch):
    monkeypatch.setenv("OSMOSIS_TREE_TOTAL_CAP", "2000000")
    lines = [f"100644 blob {_git(ws, 'hash-object', '-w', '--stdin', input=bytes([i]) * 900_000)}\tpart{i}.bin"
             for i in range(3)]
    _push_crafted(ws, lines)
    result = cli("update", ws)
    assert result.exit_code == 2, result.output
    assert "in all" in result.output, result.output


def test_an_honest_link_in_the_tree_still_extracts(ws):
    """A template may ship a link; it is recorded and merged as a link (nothing is written through it)."""
    _push_crafted(ws, [f"120000 blob {_blob(ws, b'README.md')}\tREADME-link.md"])
    result = cli("update", ws, "--dry-run")
    assert result.exit_code == 0, result.output
