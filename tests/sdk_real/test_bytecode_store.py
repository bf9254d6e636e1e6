"""The harness's bytecode store (sdk_harness.keep_bytecode / seed_bytecode) on a small installed
package in two environments, run by the same Python 3.12 the real-SDK tests use: the .pyc one
environment compiled is taken by the other as it is (co_filename its own path), and a source that
differs gets a fresh compile without touching the store."""

from __future__ import annotations

import base64
import hashlib
import os
import subprocess

import sdk_harness as h

SOURCES = {"pkg/__init__.py": "VALUE = 1\n", "pkg/mod.py": "def where():\n    return where.__code__.co_filename\n"}
SHOW = "import pkg.mod, sys; print(pkg.mod.where()); print(pkg.mod.__cached__)"


def _site(venv):
    return venv / "lib" / "python3.12" / "site-packages"


def _install(venv, shared):
    """The package as uv installs it: each file a hard link to the one copy (uv's cache), and a RECORD."""
    site = _site(venv)
    lines = []
    for name, text in SOURCES.items():
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        os.link(shared / name, site / name)
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
        lines.append(f"{name},sha256={digest},{len(text)}")
    (site / "pkg-1.0.dist-info").mkdir()
    (site / "pkg-1.0.dist-info" / "RECORD").write_text("\n".join([*lines, "pkg-1.0.dist-info/RECORD,,"]) + "\n")


def _import(venv) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH")}
    env["PYTHONPATH"] = str(_site(venv))
    done = subprocess.run([h.find_python312(), "-c", SHOW], capture_output=True, text=True, env=env, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_a_second_environment_runs_the_bytecode_the_first_compiled(tmp_path, monkeypatch):
    monkeypatch.setenv("OSMOSIS_TEST_CACHE", str(tmp_path / "cache"))
    shared = tmp_path / "uv-cache"
    for name, text in SOURCES.items():
        (shared / name).parent.mkdir(parents=True, exist_ok=True)
        (shared / name).write_text(text)
    first, second = tmp_path / "a" / ".venv", tmp_path / "b" / ".venv"
    _install(first, shared)
    _install(second, shared)
    assert h.seed_bytecode(second) == 0   # an empty store seeds nothing

    _import(first)
    assert h.keep_bytecode(first) == 2 and h.keep_bytecode(first) == 0   # kept once
    assert h.seed_bytecode(second) == 2
    where, cached = _import(second)
    assert where == str(_site(second) / "pkg" / "mod.py")   # tracebacks name this environment's file
    kept = os.stat(cached)
    assert kept.st_nlink == 2, "Python compiled again instead of loading the seeded .pyc"

    # The same file changed in a third environment: Python compiles it anew; the store keeps its copy.
    third = tmp_path / "c" / ".venv"
    _install(third, shared)
    assert h.seed_bytecode(third) == 2
    mod = _site(third) / "pkg" / "mod.py"
    mod.unlink()
    mod.write_text(SOURCES["pkg/mod.py"] + "# edited\n")
    where, cached = _import(third)
    assert where == str(mod) and os.stat(cached).st_nlink == 1
    assert os.stat(_site(second) / "pkg" / "__pycache__" / "mod.cpython-312.pyc").st_ino == kept.st_ino
