"""Workspaces to benchmark on: one fresh `osmosis init`, and copies of it scaled to N rollouts.

Scaling copies the multiply rollout, its two configs and its dataset under new names instead of
running init N times: 500 rollouts take seconds to make, and each copy is exactly what init wrote
apart from the name.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Sequence

import tomlkit

TEMPLATE = "multiply"

# Lets the bench commit in a fresh workspace on a machine with no git identity configured.
GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "osmosis bench",
    "GIT_AUTHOR_EMAIL": "bench@example.invalid",
    "GIT_COMMITTER_NAME": "osmosis bench",
    "GIT_COMMITTER_EMAIL": "bench@example.invalid",
}


def git_env() -> dict[str, str]:
    return {**os.environ, **GIT_IDENTITY}


def bench_env(cache: Path | None = None) -> dict[str, str]:
    """The environment every timed command gets: cached bytecode (as users run), this checkout first on
    the path, no colour or terminal probing (not what CI or pre-commit pays for), doctor's cache in
    ``cache`` when given."""
    env = git_env()
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("PYTHONSTARTUP", None)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(Path(__file__).resolve().parent.parent), env.get("PYTHONPATH", "")) if p)
    env.update(NO_COLOR="1", TERM="dumb")
    if cache is not None:
        env["OSMOSIS_DOCTOR_CACHE"] = str(cache)
    return env


def commit_all(root: Path, message: str) -> None:
    """Commit everything in ``root`` so doctor's git-sync checks see a clean, committed tree."""
    env = git_env()
    if not (root / ".git").exists():
        subprocess.run(["git", "init", "-q", "-b", "main"], cwd=root, check=True, env=env)
    subprocess.run(["git", "add", "-A"], cwd=root, check=True, env=env)
    # the automatic `git gc` a commit of thousands of new files starts runs in the foreground here: in
    # the background it packs refs while the bench's first doctor runs, which then keeps no findings
    subprocess.run(["git", "-c", "gc.autoDetach=false", "commit", "-q", "--allow-empty", "-m", message], cwd=root, check=True, env=env)


def init_workspace(osmosis: Sequence[str], dst: Path, *, git: bool = True, env=None) -> Path:
    """``osmosis init dst --template multiply --defaults`` (with a git repo and commit unless git=False)."""
    argv = [*osmosis, "init", str(dst), "--template", TEMPLATE, "--defaults"]
    if not git:
        argv.append("--no-git")
    proc = subprocess.run(argv, env=env or git_env(), capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"osmosis init failed ({proc.returncode}): {(proc.stderr or proc.stdout).strip()}")
    if git and not (dst / ".git").exists():
        commit_all(dst, "workspace from osmosis init")
    return dst


def _rename_config(text: str, old: str, new: str) -> str:
    """A config's TOML with its rollout (and a dataset named after it) pointed at ``new``."""
    doc = tomlkit.parse(text)  # keeps the `#:schema` first line and every comment
    experiment = doc.get("experiment")
    if experiment is not None:
        if experiment.get("rollout") == old:
            experiment["rollout"] = new
        dataset = experiment.get("dataset")
        if isinstance(dataset, str):
            experiment["dataset"] = _renamed_path(dataset, old, new)
    return tomlkit.dumps(doc)


def _renamed_path(value: str, old: str, new: str) -> str:
    """``data/multiply.jsonl`` -> ``data/<new>.jsonl``: only a path segment's stem is renamed."""
    parts = value.split("/")
    stem, dot, suffix = parts[-1].partition(".")
    if stem == old:
        parts[-1] = new + dot + suffix
    return "/".join(parts)


# A quoted string or a YAML/TOML scalar that is exactly the rollout's name; never part of an
# identifier, so Python code (class and function names) is left alone.
def _rename_text(text: str, old: str, new: str) -> str:
    text = re.sub(rf"""(["']){re.escape(old)}\1""", lambda m: f"{m.group(1)}{new}{m.group(1)}", text)
    return re.sub(rf"(?m)^([ \t]*[\w-]+:[ \t]*){re.escape(old)}[ \t]*$", lambda m: m.group(1) + new, text)


def base_rollout(root: Path) -> str:
    """The name of the one rollout a fresh `osmosis init --template multiply` workspace holds."""
    names = sorted(p.name for p in (root / "rollouts").iterdir() if p.is_dir() and not p.name.startswith((".", "_")))
    if len(names) != 1:
        raise RuntimeError(f"{root}: expected one rollout folder, found {names}")
    return names[0]


def add_rollout_copy(root: Path, old: str, new: str) -> None:
    """Copy rollout ``old`` (folder, configs, datasets named after it) to ``new`` inside ``root``."""
    src = root / "rollouts" / old
    dst = root / "rollouts" / new
    shutil.copytree(src, dst, symlinks=True, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"))
    for path in dst.rglob("*"):
        if path.is_file() and not path.is_symlink() and path.suffix in {".toml", ".lock", ".yml", ".yaml", ".md"}:
            path.write_text(_rename_text(path.read_text(encoding="utf-8"), old, new), encoding="utf-8")
    for kind in ("eval", "training"):
        config = root / "configs" / kind / f"{old}.toml"
        if config.is_file():
            renamed = _rename_config(config.read_text(encoding="utf-8"), old, new)
            (config.parent / f"{new}.toml").write_text(renamed, encoding="utf-8")
    data = root / "data"
    if data.is_dir():
        for dataset in sorted(data.glob(f"{old}.*")):
            shutil.copyfile(dataset, data / _renamed_path(dataset.name, old, new))


def scaled_copy(base: Path, dst: Path, rollouts: int) -> Path:
    """A copy of ``base`` (one multiply rollout) holding ``rollouts`` rollouts in all, committed."""
    shutil.copytree(base, dst, symlinks=True)
    old = base_rollout(base)
    for i in range(2, rollouts + 1):
        add_rollout_copy(dst, old, f"{old}-{i:04d}")
    if rollouts > 1:
        commit_all(dst, f"scale to {rollouts} rollouts")
    return dst
