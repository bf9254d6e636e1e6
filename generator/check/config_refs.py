"""What the workspace's configs say about rollouts and git, read cheaply for other check families.

The entrypoint and git checks need a few `[experiment]` values (rollout, entrypoint, branch,
commit_sha) and where they are. Configs that do not parse, or values of the wrong type, are
skipped here without a finding: the config checks report those, once.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from generator.formats.toml_locate import TomlDoc
from generator.core.workspace import CONFIG_KINDS, Workspace


@dataclass(frozen=True)
class ConfigRef:
    path: Path
    kind: str
    doc: TomlDoc

    def experiment_str(self, key: str) -> str | None:
        """``[experiment].<key>`` when it is a string, else None."""
        table = (self.doc.data or {}).get("experiment")
        value = table.get(key) if isinstance(table, dict) else None
        return value if isinstance(value, str) else None

    def value_position(self, key: str) -> tuple[int | None, int | None]:
        """Line and column where ``[experiment].<key>``'s value starts (None, None if unknown)."""
        pos = self.doc.locator.value(("experiment", key))
        return pos if pos else (None, None)


def workspace_configs(ws: Workspace) -> list[ConfigRef]:
    """Every eval and training config of ``ws`` that parses as TOML, in a stable order (computed
    once per snapshot)."""
    return ws.memo("config_refs", lambda: _read_configs(ws))


def _read_configs(ws: Workspace) -> list[ConfigRef]:
    found = []
    for kind in CONFIG_KINDS:
        for path in ws.config_files(kind):
            text = ws.read_text(path)
            if text is None:
                continue
            doc = TomlDoc.parse(text)
            if doc.data is not None:
                found.append(ConfigRef(path, kind, doc))
    return found
