"""How `osmosis rollout new` scales with a template's folder depth, file count and file size (issue 18
point 8): each row renders a copy of the blank template with extra files, in a child process.

    python bench/render_scale.py                   # moderate sizes (~1-2 min)
    python bench/render_scale.py --depth 50 100    # only the depth rows, at these depths

Prints one row per shape: wall seconds and peak RSS of the whole command (the child's own rusage).
Commands run from a scratch folder, so `PYTHONPATH=<another checkout>` measures that checkout.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from measure import _RSS_TO_MIB  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
BLANK = REPO / "templates" / "blank"
ROLLOUT = "rollouts/{{ rollout_name }}"


def _template(dest: Path, *, depth: int = 0, files: int = 0, sparse_mb: int = 0) -> Path:
    shutil.copytree(BLANK, dest)
    (dest / "template.toml").unlink()
    base = dest / "template" / ROLLOUT / "extra"
    if depth:
        folder = base.joinpath(*["d"] * depth)
        folder.mkdir(parents=True)
        (folder / "leaf.txt").write_text("deep\n")
    for i in range(files):
        sub = base / f"f{i // 500}"
        sub.mkdir(parents=True, exist_ok=True)
        (sub / f"file{i}.txt").write_text(f"file {i}\n")
    if sparse_mb:
        base.mkdir(parents=True, exist_ok=True)
        with open(base / "sparse.bin", "wb") as handle:
            handle.truncate(sparse_mb << 20)
    return dest


def _workspace(root: Path, env: dict) -> Path:
    ws = root / "ws"
    subprocess.run([sys.executable, "-m", "osmosis_workspace", "init", str(ws), "--template", "blank", "--defaults"],
                   env=env, cwd=root, check=True, capture_output=True)
    return ws


def _run(argv: list[str], env: dict, cwd: Path) -> tuple[int, float, float, str]:
    """(exit code, wall s, peak MiB of the child, last stderr line)."""
    import time

    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, env=env, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        lines = err.read().decode("utf-8", "replace").strip().splitlines()
    return proc.returncode, wall, usage.ru_maxrss * _RSS_TO_MIB, (lines[0] if lines else "")[:90]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, nargs="*", default=[25, 50, 100])
    parser.add_argument("--files", type=int, nargs="*", default=[250, 500, 1000])
    parser.add_argument("--sparse-mb", type=int, nargs="*", default=[200])
    args = parser.parse_args()
    env = {**os.environ, "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@x.invalid",
           "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@x.invalid"}
    shapes = ([("depth", d, {"depth": d}) for d in args.depth] + [("files", n, {"files": n}) for n in args.files]
              + [("sparse MB", m, {"sparse_mb": m}) for m in args.sparse_mb])
    print(f"{'shape':>10} {'size':>6} {'exit':>4} {'wall s':>7} {'peak MiB':>9}")
    for label, size, kw in shapes:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            template = _template(root / "tpl", **kw)
            ws = _workspace(root, env)
            argv = [sys.executable, "-m", "osmosis_workspace", "rollout", "new", "second", "--template", str(template),
                    "--workspace", str(ws), "--defaults"]
            code, wall, peak, said = _run(argv, env, root)
            print(f"{label:>10} {size:>6} {code:>4} {wall:>7.2f} {peak:>9.0f}  {said}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
