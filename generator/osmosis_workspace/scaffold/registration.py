"""Root files that learn about a new rollout: `.env.example` names its secrets, and the root
`pyproject.toml` its rehearse columns.

A rollout is a uv project of its own (its own `uv.lock`, which the template brings), so the root
`pyproject.toml` does not list it. A rollout whose label is not an answer to replay (the `code`
template's test cases) declares the dataset columns holding a gold and a partly right answer in its
own `pyproject.toml` (`[tool.osmosis.rehearse]` gold-column / partial-column); they are copied into
the root's `[tool.osmosis.rehearse.rollout.<name>]`, where `osmosis rehearse` reads them, when the
workspace follows our conventions (a root `.copier-answers.yml` or `[tool.osmosis]`: adding the table
elsewhere would opt the workspace into them) and the root does not declare that rollout already.
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
PYPROJECT = "pyproject.toml"
REHEARSE_COLUMNS = ("gold-column", "partial-column")
Writer = Callable[[Path, str], None]  # (path, new text)


def _write_safely(root: Path) -> Writer:
    from osmosis_workspace.core import safe_write

    return lambda path, text: safe_write.write_text(root, path, text)


def register_rollout(root: Path, rollout: str, *, configs_root: Path | None = None, write: Writer | None = None) -> list[str]:
    """Make the root files know ``rollout``: its secrets in .env.example, its rehearse columns in pyproject.toml.

    The rollout's configs are read under ``configs_root`` (default: ``root``); ``write`` receives the new
    files (default: written in place). Returns the workspace-relative files it changed. Used by `init`,
    `rollout new` and the pristine render.
    """
    write = write or _write_safely(root)
    changed = []
    if add_env_example_names(root, required_secrets(configs_root or root, rollout), rollout, write):
        changed.append(ENV_EXAMPLE)
    if add_rehearse_columns(root, rollout_rehearse_columns(configs_root or root, rollout), rollout, write):
        changed.append(PYPROJECT)
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


def _toml(path: Path) -> dict | None:
    try:
        data = toml_loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    return data if isinstance(data, dict) else None


def _table(data: object, *keys: str) -> dict | None:
    for key in keys:
        data = data.get(key) if isinstance(data, dict) else None
    return data if isinstance(data, dict) else None


def rollout_rehearse_columns(root: Path, rollout: str) -> dict[str, str]:
    """The gold-column / partial-column the rollout's own pyproject.toml declares (its template's choice)."""
    table = _table(_toml(root / "rollouts" / rollout / PYPROJECT), "tool", "osmosis", "rehearse") or {}
    return {k: table[k] for k in REHEARSE_COLUMNS
            if isinstance(table.get(k), str) and table[k].replace("_", "").replace("-", "").isalnum()}


def add_rehearse_columns(root: Path, columns: dict[str, str], rollout: str, write: Writer | None = None) -> bool:
    """Append ``[tool.osmosis.rehearse.rollout.<rollout>]`` with ``columns`` to the root pyproject.toml, when
    the workspace follows our conventions and declares nothing for the rollout yet; the text is kept as it is."""
    from osmosis_workspace.core.paths import is_inside

    path = root / PYPROJECT
    if not columns or not path.is_file() or (path.is_symlink() and not is_inside(root, path)):
        return False
    data = _toml(path)
    if data is None or not ((root / ".copier-answers.yml").is_file() or _table(data, "tool", "osmosis") is not None):
        return False
    if rollout in (_table(data, "tool", "osmosis", "rehearse", "rollout") or {}):
        return False
    existing = path.read_text(encoding="utf-8")
    block = (f"\n# Rollout {rollout}: the dataset columns `osmosis rehearse` replays as its gold and partly right answers\n"
             f"# (written by osmosis from the rollout's pyproject.toml).\n[tool.osmosis.rehearse.rollout.{rollout}]\n")
    block += "".join(f'{key} = "{columns[key]}"\n' for key in REHEARSE_COLUMNS if key in columns)
    text = (existing if not existing or existing.endswith("\n") else existing + "\n") + block
    # A root holding `rehearse` as an inline table (or any shape a new table header would break) is left alone.
    if _table(_toml_text(text), "tool", "osmosis", "rehearse", "rollout", rollout) is None:
        return False
    (write or _write_safely(root))(path, text)
    return True


def _toml_text(text: str) -> dict | None:
    try:
        return toml_loads(text)
    except tomllib.TOMLDecodeError:
        return None
