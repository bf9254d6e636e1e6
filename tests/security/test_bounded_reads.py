"""MAJOR 5 and 6 (issue 14): every file parsed whole is capped and checked to be a regular file,
and a nesting depth that would exhaust a recursive parser is a finding on that file.

Runs go through the real CLI in a subprocess with a time limit, so a blocked read fails the test.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from osmosis_workspace.core.bounded import MAX_NESTING, toml_too_deep

LIMIT = 60


def osmosis(*args, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "osmosis_workspace", *map(str, args)], capture_output=True, text=True,
                          timeout=LIMIT, cwd=cwd)


def diagnostics(done: subprocess.CompletedProcess) -> list[dict]:
    assert done.returncode in (0, 1), done.stdout + done.stderr
    return json.loads(done.stdout)["diagnostics"]


@pytest.mark.parametrize("line", [
    "v = " + "[" * 1000 + "]" * 1000, "v = " + "{a = " * 1000 + "}" * 1000,
    # dotted keys (found by bench/adversarial): tomllib builds these without recursing, our walks did
    "[" + ".".join(["a"] * 1000) + "]", "[" + ".".join(["a"] * 50_000) + "]", ".".join(["k"] * 1000) + " = 1",
    "v = {" + ".".join(["k"] * 1000) + " = 1}",
])
def test_toml_nested_1000_deep_is_a_finding_on_that_file(tmp_path, line):
    config = tmp_path / "configs" / "eval" / "deep.toml"
    config.parent.mkdir(parents=True)
    config.write_text(f'[experiment]\nrollout = "x"\n{line}\n')
    done = osmosis("validate", config, "--format", "json")
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr, done.stderr
    found = diagnostics(done)
    assert [(d["code"], d["line"]) for d in found if d["code"] == "CFG001"] == [("CFG001", 3)]
    assert "nested more than" in found[0]["message"]


def test_doctor_keeps_the_rest_of_the_report_with_a_deep_config(make_workspace):
    ws = make_workspace(git=False)
    (ws / "configs/eval/deep.toml").write_text("v = " + "[" * 1000 + "]" * 1000 + "\n")
    (ws / "configs/training/dotted.toml").write_text("[" + ".".join(["a"] * 1000) + "]\nx = 1\n")
    (ws / "pyproject.toml").write_text((ws / "pyproject.toml").read_text() + "\n[tool.deep]\nv = " + "[" * 1000 + "]" * 1000 + "\n")
    done = osmosis("doctor", ws, "--format", "json")
    found = diagnostics(done)
    assert {"CFG001", "LAY004"} <= {d["code"] for d in found}
    assert {d["path"] for d in found if d["code"] == "CFG001"} >= {"configs/eval/deep.toml", "configs/training/dotted.toml"}
    assert "internal error" not in done.stderr


def test_nesting_scan_skips_strings_and_comments():
    deep = "[" * (MAX_NESTING + 1)
    assert toml_too_deep(f'a = "{deep}"\nb = \'{deep}\'\n# {deep}\nc = """\n{deep}"""\nd = \'\'\'{deep}\n\'\'\'\n') is None
    assert toml_too_deep('a = "\\"[[["\n' + "b = " + deep) == (2, 5 + MAX_NESTING)
    assert toml_too_deep("[[tables]]\n" * 1000) is None  # headers close on their line
    # dots in values, strings and comments are not keys
    assert toml_too_deep("x = [" + ", ".join(["1.5"] * 500) + "]\n" + '"a.b.c" = 1\n# ' + "." * 500 + "\n") is None
    assert toml_too_deep("[a.b]\nc.d = {e.f = [1.5, {g.h = 2}]}\n") is None


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_validate_a_fifo_main_py_does_not_block(tmp_path):
    main = tmp_path / "rollouts" / "r" / "main.py"
    main.parent.mkdir(parents=True)
    os.mkfifo(main)
    found = diagnostics(osmosis("validate", main, "--format", "json"))
    assert any("not a regular file" in d["message"] for d in found), found


@pytest.mark.parametrize("rel,expected", [
    (".gitignore", ("GIT004", ".gitignore")),  # git itself opens it on every status and would block
    ("pyproject.toml", ("LAY004", "pyproject.toml")),  # not "the root has no pyproject.toml"
])
def test_doctor_with_a_fifo_that_git_or_doctor_reads_does_not_block(make_workspace, rel, expected):
    """Found by bench/adversarial: both made doctor (and --fix) wait forever."""
    ws = make_workspace()
    (ws / rel).unlink()
    os.mkfifo(ws / rel)
    for args in (["doctor", ws, "--format", "json"], ["doctor", ws, "--fix", "--format", "json"]):
        found = diagnostics(osmosis(*args))  # a block would be a TimeoutExpired after LIMIT seconds
        assert expected in {(d["code"], d["path"]) for d in found}
        assert ("LAY003", "pyproject.toml") not in {(d["code"], d["path"]) for d in found}


def test_validate_a_config_linking_to_dev_zero_in_a_workspace(make_workspace):
    """Found by bench/adversarial: validate read the link whole, until the OOM killer stopped it."""
    ws = make_workspace(git=False)
    config = ws / "configs" / "eval" / "multiply.toml"
    config.unlink()
    config.symlink_to("/dev/zero")
    found = diagnostics(osmosis("validate", "configs/eval/multiply.toml", "--format", "json", cwd=ws))
    # what doctor says of the same link (issue 18: validate finds the workspace the link is in, one rule)
    assert [(d["code"], "links outside the workspace" in d["message"]) for d in found] == [("CFG024", True)]


def test_validate_a_main_py_linking_to_dev_zero(tmp_path):
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero here")
    main = tmp_path / "main.py"
    main.symlink_to("/dev/zero")
    found = diagnostics(osmosis("validate", main, "--format", "json"))
    assert any("not a regular file" in d["message"] for d in found), found


def test_huge_skill_md_is_not_read_whole(tmp_path):
    skill = tmp_path / "big-skill"
    skill.mkdir()
    with open(skill / "SKILL.md", "w") as handle:
        handle.write("---\nname: big-skill\ndescription: " + "x" * (3 << 20) + "\n---\nbody\n")
    found = diagnostics(osmosis("validate", skill, "--format", "json"))
    assert any("larger than" in d["message"] for d in found), found
