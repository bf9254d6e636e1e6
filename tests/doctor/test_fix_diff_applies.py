"""`doctor --diff` against `doctor --fix` (issue 28, point 8): the diff split lines as str.splitlines
does (at a lone CR, form feed, U+2028, U+0085...), so for such a file `git apply` refused the patch and
what it showed was not what --fix writes. Every diff must apply with `git apply` and leave the tree
--fix leaves."""

from __future__ import annotations

import shutil
import subprocess

import pytest

ODD = {
    "line separator": "one\u2028two\n",
    "paragraph separator": "one\u2029two\n",
    "form feed": "one\x0ctwo\n",
    "lone cr": "one\rtwo\n",
    "next line": "one\u0085two\n",
    "vertical tab": "one\x0btwo\n",
    "file separator": "one\x1ctwo\n",
    "no final newline": "one\u2028two",
    "crlf": "one\r\ntwo\r\n",
}


def files(root) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and ".git" not in p.relative_to(root).parts}


def broken(ws, text: str) -> None:
    """Several fixes at once: CLAUDE.md without its @AGENTS.md line (with ``text`` in it), AGENTS.md gone,
    a workspace schema gone stale."""
    (ws / "CLAUDE.md").write_bytes(("# notes\n" + text).encode())
    (ws / "AGENTS.md").unlink()
    (ws / ".osmosis" / "schemas" / "eval.schema.json").write_text("{}\n", encoding="utf-8")


@pytest.mark.parametrize("name", sorted(ODD))
def test_every_diff_applies_and_equals_what_fix_writes(make_workspace, run, tmp_path, name):
    ws = make_workspace(git=False)
    broken(ws, ODD[name])
    patched, fixed = tmp_path / "patched", tmp_path / "fixed"
    shutil.copytree(ws, patched, symlinks=True)
    shutil.copytree(ws, fixed, symlinks=True)
    shown = run("doctor", ws, "--diff", "--unsafe-fixes")
    assert shown.exit_code == 1, shown.output
    patch = shown.stdout_bytes  # bytes: the text form reads CRLF as LF
    assert b"CLAUDE.md" in patch and b"AGENTS.md" in patch
    (tmp_path / "fix.patch").write_bytes(patch)
    applied = subprocess.run(["git", "apply", str(tmp_path / "fix.patch")], cwd=patched, capture_output=True, text=True)
    assert applied.returncode == 0, applied.stderr
    made = run("doctor", fixed, "--fix", "--unsafe-fixes")
    assert made.exit_code in (0, 1), made.output
    assert files(patched) == files(fixed)
    assert files(ws) != files(fixed)  # --diff wrote nothing
