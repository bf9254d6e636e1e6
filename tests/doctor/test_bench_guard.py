"""bench/guard.py (issue 40 point 3): the older build comes from git into its own venv, never from the
editable install, and a run's CPU counts the worker processes it waited for."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

GUARD = Path(__file__).resolve().parents[2] / "bench" / "guard.py"


def _guard():
    sys.path.insert(0, str(GUARD.parent))
    try:
        spec = importlib.util.spec_from_file_location("bench_guard", GUARD)
        module = importlib.util.module_from_spec(spec)
        sys.modules["bench_guard"] = module  # dataclasses look their module up there
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(GUARD.parent))


def test_the_older_build_is_unpacked_from_git_and_installed_not_editable(tmp_path, monkeypatch):
    guard = _guard()
    calls: list[list[str]] = []
    real = subprocess.run

    def fake(argv, *args, **kwargs):
        argv = [str(a) for a in argv]
        calls.append(argv)
        if argv[:2] == ["git", "rev-parse"] or argv[:2] == ["git", "archive"]:
            return real(argv, *args, **kwargs)  # the real repository answers
        if argv[0] == "tar":
            return real(argv, *args, **kwargs)
        return subprocess.CompletedProcess(argv, 0, b"", b"")

    monkeypatch.setattr(guard.subprocess, "run", fake)
    python = guard.build("HEAD", tmp_path, rebuild=False)
    sha = real(["git", "rev-parse", "HEAD"], cwd=guard.ROOT, capture_output=True, text=True, check=True).stdout.strip()
    assert python == tmp_path / f"venv-{sha[:12]}" / "bin" / "python"
    src = tmp_path / f"src-{sha[:12]}"
    assert (src / "pyproject.toml").is_file()  # the ref's own files, from git archive
    [pip] = [c for c in calls if "pip" in c]
    assert pip[pip.index("install"):] == ["install", "-q", str(src), "check-jsonschema"]  # no -e: a real build
    assert "-e" not in pip and "--editable" not in pip


def test_a_run_counts_the_cpu_of_the_workers_it_waited_for(tmp_path):
    guard = _guard()
    busy = ("import multiprocessing as m, time\n"
            "def spin():\n    end = time.process_time() + 0.3\n    while time.process_time() < end: pass\n"
            "if __name__ == '__main__':\n    p = m.get_context('fork').Process(target=spin); p.start(); p.join()\n")
    script = tmp_path / "busy.py"
    script.write_text(busy)
    wall, cpu, rss = guard.run([sys.executable, str(script)], tmp_path, {}, ok=(0,))
    assert cpu >= 0.3 and wall >= 0.3 and rss > 0


def test_a_run_reports_its_own_peak_memory_not_the_guards(tmp_path):
    # Linux carries the forking process's peak RSS across exec into the child's ru_maxrss: a child the
    # guard forked itself reported the guard's peak (40 MiB for every build and for jq alike)
    guard = _guard()
    ballast = bytearray(160 * 1024 * 1024)
    ballast[:: 4096] = b"x" * len(ballast[:: 4096])  # touched, so resident
    _, _, small = guard.run([sys.executable, "-c", "pass"], tmp_path, {}, ok=(0,))
    grow = "b = bytearray(96 * 1024 * 1024); b[::4096] = b'x' * len(b[::4096])"
    _, _, big = guard.run([sys.executable, "-c", grow], tmp_path, {}, ok=(0,))
    del ballast
    assert small < 60, small
    assert 96 <= big < 150, big
