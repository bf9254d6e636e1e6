"""Before a rollout runs: does its environment hold a dependency pair known to break every row?

Two places say what a rollout's environment is: its `uv.lock` (what `uv sync`, run by `eval run` and
by the preflight, installs while the lock fits the pyproject; doctor's DEP003 reads the same pins) and,
once synced, the distributions in `rollouts/<rollout>/.venv`. Both are read, never run; the pairs are
core/known_bad.py's table, the one doctor uses. A match fails the rollout's preflight verdict with the
pair and its effect, where otherwise every row would end in agent_error with a traceback far from the cause.
"""

from __future__ import annotations

from pathlib import Path

from osmosis_workspace.core import known_bad
from osmosis_workspace.core.bounded import Unreadable, read_capped
from osmosis_workspace.core.paths import is_dir, is_file
from osmosis_workspace.core.pep440 import normalise_name
from osmosis_workspace.readers import uvlock

MAX_LOCK_BYTES = 16 << 20     # a Strands + Harbor lock is about 1 MB
MAX_DIST_INFOS = 5000         # entries of site-packages looked at


def lock_problem(root: Path, rollout: str) -> str | None:
    """Why the rollout's uv.lock breaks every row, or None (no lock, an unreadable one, or no known pair)."""
    path = root / "rollouts" / rollout / "uv.lock"
    if not is_file(path):
        return None
    try:
        text = read_capped(path, MAX_LOCK_BYTES).decode("utf-8", "replace")
    except Unreadable:
        return None
    lock = uvlock.parse(text)
    if lock is None:
        return None
    names = {name for bad in known_bad.KNOWN_BAD for name in bad.pins}
    pins = {name: pin.version for name in names if (pin := lock.pin(name)) is not None}
    return _reason(f"rollouts/{rollout}/uv.lock pins", known_bad.breaks(pins), rollout)


def installed(venv: Path) -> dict[str, str]:
    """Normalised distribution name -> version, from the ``*.dist-info`` folder names of a virtual
    environment's site-packages (``name-version.dist-info``, as installers write them)."""
    found: dict[str, str] = {}
    libs = [venv / "Lib" / "site-packages"]
    if is_dir(venv / "lib"):
        try:
            libs += sorted(p / "site-packages" for p in (venv / "lib").iterdir() if p.name.startswith("python"))
        except OSError:
            pass
    seen = 0
    for lib in libs:
        if not is_dir(lib):
            continue
        try:
            for entry in lib.iterdir():
                seen += 1
                if seen > MAX_DIST_INFOS:
                    return found
                if entry.name.endswith(".dist-info") and "-" in entry.name:
                    name, _, version = entry.name[: -len(".dist-info")].rpartition("-")
                    found.setdefault(normalise_name(name), version)
        except OSError:
            continue
    return found


def environment_problem(root: Path, rollout: str) -> str | None:
    """Why the rollout's synced environment (rollouts/<rollout>/.venv) breaks every row, or None."""
    venv = root / "rollouts" / rollout / ".venv"
    if not is_dir(venv):
        return None
    return _reason(f"rollouts/{rollout}/.venv holds", known_bad.breaks(installed(venv)), rollout)


def _reason(where: str, matches: list, rollout: str) -> str | None:
    if not matches:
        return None
    bad, held = matches[0]
    return (f"{where} {known_bad.describe(held)}: {bad.effect} (add \"{bad.constraint}\" to [tool.uv] "
            f"constraint-dependencies in rollouts/{rollout}/pyproject.toml, then `uv lock --project rollouts/{rollout}`; doctor's DEP003)")
