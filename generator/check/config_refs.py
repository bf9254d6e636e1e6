"""What the workspace's configs say about rollouts and git, read cheaply for other check families.

The entrypoint and git checks need a few `[experiment]` values (rollout, entrypoint, branch,
commit_sha) and where they are. Configs that do not parse, or values of the wrong type, are
skipped here without a finding: the config checks report those, once.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from osmosis_workspace.core.workspace import CONFIG_KINDS, Workspace
from osmosis_workspace.readers.toml_locate import TomlDoc


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


# Where a platform dataset named in a config lives locally: `osmosis dataset upload data/x.jsonl`
# names the dataset "x" after the file's stem, so `dataset = "x"` is data/x.<suffix>.
LOCAL_DATASET_SUFFIXES = (".jsonl", ".csv", ".parquet")


def local_dataset_file(ws: Workspace, name: str, suffixes: tuple[str, ...] = LOCAL_DATASET_SUFFIXES) -> Path | None:
    """The file under data/ that holds the platform dataset ``name`` (core/dataset_names.local_copy, the one
    mapping), None when there is none, ``name`` is no plain name, or the file is unreadable or a link."""
    from osmosis_workspace.core.dataset_names import local_copy

    path = local_copy(ws.root, name, suffixes)
    return None if path is None or path in ws.unreadable or path.is_symlink() else path


@dataclass(frozen=True)
class DatasetPair:
    """An eval config's and a training config's local datasets, of one rollout, in two files."""

    rollout: str
    eval_file: Path
    training_file: Path


def dataset_pairs(ws: Workspace) -> list[DatasetPair]:
    """Every (eval dataset, training dataset) pair of files the configs of one rollout name (once per snapshot)."""
    return ws.memo("dataset_pairs", lambda: _pairs(ws))


def paired_files(ws: Workspace) -> frozenset[str]:
    """The real paths of every file a pair names (once per snapshot)."""
    import os

    return ws.memo("dataset_paired_files", lambda: frozenset(
        os.path.realpath(p) for pair in dataset_pairs(ws) for p in (pair.eval_file, pair.training_file)))


def _pairs(ws: Workspace) -> list[DatasetPair]:
    files: dict[tuple[str, str], set[Path]] = {}
    for ref in workspace_configs(ws):
        rollout, name = ref.experiment_str("rollout"), ref.experiment_str("dataset")
        path = local_dataset_file(ws, name) if rollout and name else None
        if path is not None:
            files.setdefault((rollout, ref.kind), set()).add(path)
    pairs = []
    for (rollout, kind), evals in sorted(files.items()):
        if kind != "eval":
            continue
        for eval_file in sorted(evals):
            for training_file in sorted(files.get((rollout, "training"), ())):
                if eval_file != training_file:  # one file for both (as the templates ship) is not compared
                    pairs.append(DatasetPair(rollout, eval_file, training_file))
    return pairs
