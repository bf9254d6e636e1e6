"""Issue 18 point 12: what the input or the machine does wrong is one clear line and exit 1 or 2,
never "internal error" (exit 3). Each case runs the real command in a subprocess, as a user's shell
would start it (closed streams, `ulimit`, a deleted folder, PATH)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

PY = sys.executable


def run(*args, cwd=None, env=None, stdout=subprocess.PIPE, pre: str = "") -> subprocess.CompletedProcess:
    """`python -m osmosis_workspace ARGS`, through a shell when ``pre`` sets it up (`ulimit ...;`)."""
    cmd = [PY, "-m", "osmosis_workspace", *map(str, args)]
    full_env = {**os.environ, **(env or {})}
    if pre:
        import shlex

        return subprocess.run(["sh", "-c", f"{pre} exec {shlex.join(cmd)}"], cwd=cwd, env=full_env, stdout=stdout,
                              stderr=subprocess.PIPE, text=True, timeout=300)
    return subprocess.run(cmd, cwd=cwd, env=full_env, stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=300)


def _no_bug(done: subprocess.CompletedProcess) -> None:
    assert done.returncode in (0, 1, 2), (done.returncode, done.stderr[-800:])
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr, done.stderr[-800:]


@pytest.fixture(scope="module")
def ws(tmp_path_factory):
    target = tmp_path_factory.mktemp("w") / "ws"
    env = {f"GIT_{r}_{k}": v for r in ("AUTHOR", "COMMITTER") for k, v in (("NAME", "t"), ("EMAIL", "t@example.invalid"))}
    done = run("init", target, "--template", "blank", "--defaults", env=env)
    assert done.returncode == 0, done.stderr
    return target


def _copy(ws: Path, tmp_path: Path, name: str = "copy") -> Path:
    import shutil

    dest = tmp_path / name
    shutil.copytree(ws, dest, symlinks=True)
    return dest


@pytest.mark.parametrize("rel", ["configs/eval/my-rollout.toml", "pyproject.toml"])
def test_an_integer_of_5000_digits(ws, tmp_path, rel):
    copy = _copy(ws, tmp_path)
    with open(copy / rel, "a") as handle:
        handle.write("\n[tool.huge]\nn = " + "9" * 5000 + "\n" if rel == "pyproject.toml" else "\nhuge = " + "9" * 5000 + "\n")
    done = run("doctor", copy)
    _no_bug(done)
    assert done.returncode == 1 and "4,300 digits" in done.stdout, done.stdout[-1500:]


def test_a_file_1000_folders_deep_in_a_rollout(ws, tmp_path):
    copy = _copy(ws, tmp_path)
    here = os.getcwd()
    try:
        os.chdir(copy / "rollouts" / "my-rollout")
        for _ in range(1000):
            os.mkdir("d")
            os.chdir("d")
        Path("deep.py").write_text("x = 1  # TODO(osmosis): deep\n")
    finally:
        os.chdir(here)
    try:
        _no_bug(run("doctor", copy))
        _no_bug(run("validate", copy / "rollouts"))
    finally:  # shutil.rmtree (pytest's clean-up) recurses per level before Python 3.12
        _remove_deep(copy / "rollouts" / "my-rollout" / "d")


def _remove_deep(top: Path) -> None:
    path = top
    while (path / "d").is_dir():
        path = path / "d"
    for leaf in path.iterdir():
        leaf.unlink()
    while path != top.parent:
        path.rmdir()
        path = path.parent


def test_an_ascii_only_terminal_and_a_non_ascii_name(ws, tmp_path):
    copy = _copy(ws, tmp_path)
    (copy / "configs" / "eval" / "caf\u00e9.toml").write_text("x = [\n")
    done = run("doctor", copy, env={"PYTHONIOENCODING": "ascii"})
    _no_bug(done)
    assert done.returncode == 1 and "caf\\xe9.toml" in done.stdout, done.stdout[-1500:]


def test_stdout_closed(ws):
    done = run("doctor", ws, "--format", "json", stdout=None, pre="exec 1>&-;")
    _no_bug(done)
    assert done.returncode == run("doctor", ws, "--format", "json").returncode


@pytest.mark.parametrize("how", ["stdout", "output-option"])
def test_dev_full(ws, how):
    if how == "stdout":
        done = run("doctor", ws, pre="exec 1>/dev/full;", stdout=None)
    else:
        done = run("doctor", ws, "-o", "/dev/full")
    _no_bug(done)
    # a full device, or (for -o) refused before writing because it is no regular file: one line, exit 2
    assert done.returncode == 2 and ("No space left on device" in done.stderr or "not a regular file" in done.stderr), done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_a_deleted_working_folder(tmp_path):
    gone = tmp_path / "gone"
    gone.mkdir()
    done = run("doctor", cwd=gone, pre="rmdir \"$PWD\";")
    _no_bug(done)
    assert done.returncode == 2 and "no longer exists" in done.stderr, done.stderr


def test_a_file_size_limit(ws, tmp_path):
    done = run("doctor", ws, "--format", "json", "-o", tmp_path / "out.json", pre="ulimit -f 1;")
    _no_bug(done)
    assert done.returncode == 2 and ("ulimit -f" in done.stderr or "File too large" in done.stderr), done.stderr


def test_too_few_file_descriptors(ws, tmp_path):
    copy = _copy(ws, tmp_path)
    done = run("rollout", "new", "second", "--template", "blank", "--workspace", copy, "--defaults", pre="ulimit -n 12;",
               env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@x.invalid", "GIT_COMMITTER_NAME": "t",
                    "GIT_COMMITTER_EMAIL": "t@x.invalid"})
    _no_bug(done)


def test_a_git_that_prints_garbage(ws, tmp_path):
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "git").write_bytes(b"#!/bin/sh\nprintf '\\377\\376garbage\\000\\n'\nexit 0\n")
    (fake / "git").chmod(0o755)
    copy = _copy(ws, tmp_path)
    done = run("update", copy, env={"PATH": f"{fake}{os.pathsep}{os.environ['PATH']}"})
    _no_bug(done)
    assert done.returncode == 2 and "does not answer as git does" in done.stderr, done.stderr


def test_doctor_with_a_git_that_prints_garbage_reports_git004(ws, tmp_path):
    """Every git call answers exit 0 with garbage: the upstream looks set and `rev-list --count` is no
    number. That is the machine's fault, said as GIT004, never an internal error."""
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "git").write_bytes(b"#!/bin/sh\nprintf '\\377\\376garbage\\000\\n'\nexit 0\n")
    (fake / "git").chmod(0o755)
    copy = _copy(ws, tmp_path)
    done = run("doctor", copy, "--no-cache", env={"PATH": f"{fake}{os.pathsep}{os.environ['PATH']}"})
    _no_bug(done)
    assert "GIT004" in done.stdout, done.stdout
