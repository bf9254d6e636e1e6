"""Fuzz (hypothesis) of the writers' path handling and of the parsers this issue added: whatever the
input, a write lands inside the root and outside `.git` or is refused with a UserError, the outside
file never changes, and each parser returns instead of raising. Bounded to run in seconds in CI."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from osmosis_workspace.core import safe_write
from osmosis_workspace.core.bounded import MAX_NESTING, toml_too_deep
from osmosis_workspace.core.errors import UserError
from osmosis_workspace.core.paths import unusable_path
from osmosis_workspace.core.template_guard import gitattributes_drivers, has_git_segment, output_problems, plain_name, unsafe_config_keys

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

FAST = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SEGMENTS = st.sampled_from([
    "a", "b", ".git", ".GIT", ".git.", "git~1", ".g\u200cit", "..", ".", "", "out", "in", "hard", "link",
    ".gitattributes", "x" * 300, "caf\u00e9", "a\\b", ".osmosis-tmp",
])
OUTSIDE_TEXT = b"outside, never to change\n"


def _layout(base: Path) -> tuple[Path, Path]:
    """root/ with a link out (`out`), a link in (`in`), a hard link to the outside file and a link to it."""
    root, outside = base / "root", base / "outside"
    root.mkdir()
    outside.mkdir()
    (outside / "file").write_bytes(OUTSIDE_TEXT)
    (root / "a").mkdir()
    (root / ".git").mkdir()
    os.symlink(outside, root / "out")
    os.symlink("a", root / "in")
    os.link(outside / "file", root / "hard")
    os.symlink(outside / "file", root / "link")
    return root, outside


@FAST
@given(st.lists(SEGMENTS, min_size=1, max_size=5), st.binary(max_size=64))
def test_a_write_lands_inside_the_root_or_is_refused(parts, data):
    base = Path(tempfile.mkdtemp(prefix="osmosis-fuzz-"))
    try:
        root, outside = _layout(base)
        target = root.joinpath(*parts)
        # the test's own folders only inside its base: `..` segments (through `out` too) once made
        # /tmp/.git, which turned every later workspace under /tmp into "a git repository"
        if Path(os.path.realpath(target.parent)).is_relative_to(os.path.realpath(base)):
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
            except (OSError, ValueError):
                pass
        try:
            safe_write.write_bytes(root, target, data)
        except UserError:
            pass
        else:
            real = Path(os.path.realpath(target))
            rel = real.relative_to(Path(os.path.realpath(root)))  # raises when the write left the root
            assert not has_git_segment(rel.as_posix())
            assert real.read_bytes() == data
        assert (outside / "file").read_bytes() == OUTSIDE_TEXT
        # the test's own mkdir may make folders through `out`; no file may appear there
        assert [p.relative_to(outside).as_posix() for p in outside.rglob("*") if not p.is_dir()] == ["file"]
        leftovers = [p for p in root.rglob("*.osmosis-tmp") if p.name != ".osmosis-tmp"]
        assert leftovers == []
    finally:
        shutil.rmtree(base, ignore_errors=True)


@FAST
@given(st.lists(SEGMENTS, min_size=1, max_size=6))
def test_git_segment_is_seen_in_every_spelling(parts):
    rel = "/".join(parts)
    expected = any(plain_name(p) in (".git", "git~1") for part in parts for p in part.split("\\"))
    assert has_git_segment(rel) is expected


@FAST
@given(st.text(alphabet="[]{}\"'#\n\\=ab ,.", max_size=400))
def test_nesting_scan_then_tomllib_never_recurses_too_far(text):
    where = toml_too_deep(text)
    if where is None:
        try:
            tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            pass
    else:
        line, column = where
        assert 1 <= line <= text.count("\n") + 1 and column >= 1


@settings(max_examples=30, deadline=None)
@given(st.integers(MAX_NESTING + 1, 3000), st.sampled_from(["[", "{a = "]))
def test_deep_values_are_always_caught(depth, opener):
    closer = "]" if opener == "[" else "}"
    assert toml_too_deep("v = " + opener * depth + closer * depth) is not None


@FAST
@given(st.text(max_size=300))
def test_git_text_readers_never_raise(text):
    assert isinstance(gitattributes_drivers(text), list)
    assert isinstance(unsafe_config_keys(text), list)
    assert unusable_path(text) is None or isinstance(unusable_path(text), str)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.lists(SEGMENTS.filter(lambda s: s not in ("", ".", "..")), min_size=1, max_size=3),
                          st.sampled_from(["file", "link-out", "link-in", "attrs"])), max_size=6))
def test_output_scan_flags_every_git_path_and_link_out(entries):
    base = Path(tempfile.mkdtemp(prefix="osmosis-fuzz-"))
    try:
        dst, rendered, expected = base / "dst", [], set()
        dst.mkdir()
        for parts, kind in entries:
            rel = "/".join(parts)
            path = dst.joinpath(*parts)
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                if os.path.lexists(path):
                    continue
                if kind == "link-out":
                    os.symlink("/etc/passwd", path)
                elif kind == "link-in":
                    os.symlink(".", path)
                else:
                    path.write_text("* filter=x\n" if kind == "attrs" else "x")
            except OSError:
                continue
            rendered.append(rel)
            if has_git_segment(rel) or kind == "link-out":
                expected.add(rel)
        flagged = {line.split(" ", 1)[0] for line in output_problems(dst, rendered)}
        assert expected <= flagged
    finally:
        shutil.rmtree(base, ignore_errors=True)


@FAST
@given(st.binary(max_size=400))
def test_a_planted_journal_is_read_without_raising_and_never_acted_on(data):
    """An `.osmosis-undo-*` folder can come with a clone: its journal is untrusted input."""
    from osmosis_workspace.core import journal

    base = Path(tempfile.mkdtemp(prefix="osmosis-fuzz-"))
    try:
        root, outside = _layout(base)
        (root / "mine.txt").write_bytes(b"the user's\n")
        planted = root / ".osmosis-undo-fuzz"
        planted.mkdir()
        (planted / journal.JOURNAL).write_bytes(data)
        _, sealed = journal.read_journal(planted)
        assert not sealed
        journal.recover(root)
        assert (root / "mine.txt").read_bytes() == b"the user's\n" and planted.is_dir()
        assert (outside / "file").read_bytes() == OUTSIDE_TEXT
    finally:
        shutil.rmtree(base, ignore_errors=True)


@FAST
@given(st.lists(st.tuples(st.lists(SEGMENTS, min_size=1, max_size=4), st.binary(max_size=16)), min_size=1, max_size=4))
def test_a_journaled_change_lands_inside_the_root_whole_or_not_at_all(changes):
    from osmosis_workspace.core import journal

    base = Path(tempfile.mkdtemp(prefix="osmosis-fuzz-"))
    try:
        root, outside = _layout(base)
        before = {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*")
                  if p.is_file() and not p.is_symlink()}
        wanted = {"/".join(parts): data for parts, data in changes}
        try:
            journal.apply(root, "fuzz", [journal.Change(rel, content=data) for rel, data in wanted.items()])
            landed = True
        except (UserError, OSError, ValueError):
            landed = False
        assert (outside / "file").read_bytes() == OUTSIDE_TEXT
        assert not [p for p in root.iterdir() if p.name.startswith(journal.PREFIX)]
        now = {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*")
               if p.is_file() and not p.is_symlink()}
        if landed:
            for rel, data in wanted.items():
                assert (root / rel).read_bytes() == data
                assert not has_git_segment(os.path.relpath(os.path.realpath(root / rel), os.path.realpath(root)))
        else:
            assert now == before  # nothing of a refused change stays
    finally:
        shutil.rmtree(base, ignore_errors=True)
