"""Root files that learn about a new rollout: `.env.example` names its secrets.

A rollout is a uv project of its own (its own `uv.lock`, which the template brings), so the root
`pyproject.toml` does not list it: nothing else at the root changes.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from osmosis_workspace.core.bounded import toml_loads

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


ENV_EXAMPLE = ".env.example"
Writer = Callable[[Path, str], None]  # (path, new text)


def _write_safely(root: Path) -> Writer:
    from osmosis_workspace.core import safe_write

    return lambda path, text: safe_write.write_text(root, path, text)


def register_rollout(root: Path, rollout: str, *, configs_root: Path | None = None, write: Writer | None = None) -> list[str]:
    """Make the root files know ``rollout``: its secrets in .env.example.

    The rollout's configs are read under ``configs_root`` (default: ``root``); ``write`` receives the new
    files (default: written in place). Returns the workspace-relative files it changed. Used by `init`,
    `rollout new` and the pristine render.
    """
    write = write or _write_safely(root)
    changed = []
    if add_env_example_names(root, required_secrets(configs_root or root, rollout), rollout, write):
        changed.append(ENV_EXAMPLE)
    return changed


def planned_registration(root: Path, rollout: str, configs_root: Path) -> dict[str, bytes]:
    """What `register_rollout` would write, by workspace-relative path, writing nothing."""
    planned: dict[str, bytes] = {}
    register_rollout(root, rollout, configs_root=configs_root,
                     write=lambda path, text: planned.__setitem__(path.relative_to(root).as_posix(), text.encode("utf-8")))
    return planned


def required_secrets(root: Path, rollout: str) -> list[str]:
    """Secret names the rollout's configs list under [secrets] required, in first-seen order."""
    names: list[str] = []
    for kind in ("eval", "training"):
        path = root / "configs" / kind / f"{rollout}.toml"
        try:
            data = toml_loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            continue  # doctor reports a broken config; here it just teaches .env.example nothing
        required = data.get("secrets", {}).get("required", [])
        for item in required if isinstance(required, list) else []:
            if isinstance(item, str) and item not in names:
                names.append(item)
    return names


def _listed_names(text: str) -> set[str]:
    names = set()
    for line in text.splitlines():
        stripped = line.strip().lstrip("#").strip()
        if stripped.startswith("export "):
            stripped = stripped[len("export "):].strip()
        key, sep, _ = stripped.partition("=")
        if sep and key.strip().isidentifier():
            names.add(key.strip())
    return names


def add_env_example_names(root: Path, names: list[str], rollout: str, write: Writer | None = None) -> bool:
    """Append the ``names`` .env.example lacks (empty values), never touching what is there."""
    from osmosis_workspace.core.paths import is_inside

    path = root / ENV_EXAMPLE
    if path.is_symlink() and not is_inside(root, path):
        return False
    existing = path.read_text(encoding="utf-8") if path.is_file() else ""
    missing = [n for n in names if n not in _listed_names(existing)]
    if not missing:
        return False
    block = f"# Needed by rollout {rollout} (its configs list it under [secrets] required).\n"
    block += "".join(f"{n}=\n" for n in missing)
    prefix = existing if not existing or existing.endswith("\n") else existing + "\n"
    (write or _write_safely(root))(path, prefix + block)
    return True
