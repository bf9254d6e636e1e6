"""What the workspace's configs say about rollouts and git, read cheaply for other check families.

The entrypoint and git checks need a few `[experiment]` values (rollout, entrypoint, branch,
commit_sha) and where they are. Configs that do not parse, or values of the wrong type, are
skipped here without a finding: the config checks report those, once.
"""

from __future__ import annotations

from pathlib import Path

from osmosis_workspace.check.units import remember_items, view
from osmosis_workspace.core.records import dataclass
from osmosis_workspace.core.workspace import CONFIG_KINDS, Workspace
from osmosis_workspace.readers.toml_locate import TomlDoc


@dataclass(frozen=True)
class ConfigRef:
    """What other families read of one config that parses: its `[experiment]` strings and
    `[secrets].required`, with where each value starts. Plain data, so doctor's cache keeps it per
    file and a run re-parses only the configs that changed."""

    path: Path
    kind: str
    experiment: dict[str, str]  # [experiment]'s string values
    positions: dict[str, tuple[int, int]]  # where each of them starts
    required: list[tuple[str | None, tuple[int, int] | None]] | None  # [secrets].required: (name if a string, where)

    @classmethod
    def from_doc(cls, path: Path, kind: str, doc: TomlDoc) -> "ConfigRef":
        data = doc.data or {}
        table = data.get("experiment")
        experiment = {k: v for k, v in table.items() if isinstance(v, str)} if isinstance(table, dict) else {}
        positions = {}
        for key in experiment:
            if (pos := doc.locator.value(("experiment", key))) is not None:
                positions[key] = (pos[0], pos[1])
        secrets = data.get("secrets")
        listed = secrets.get("required") if isinstance(secrets, dict) else None
        required = None
        if isinstance(listed, list):
            required = [(name if isinstance(name, str) else None, doc.locator.value(("secrets", "required", i)))
                        for i, name in enumerate(listed)]
        return cls(path, kind, experiment, positions, required)

    def experiment_str(self, key: str) -> str | None:
        """``[experiment].<key>`` when it is a string, else None."""
        return self.experiment.get(key)

    def value_position(self, key: str) -> tuple[int | None, int | None]:
        """Line and column where ``[experiment].<key>``'s value starts (None, None if unknown)."""
        return self.positions.get(key, (None, None))


def workspace_configs(ws: Workspace) -> list[ConfigRef]:
    """Every eval and training config of ``ws`` that parses as TOML, in a stable order (computed
    once per snapshot; each file's facts kept by doctor's cache while the file is unchanged)."""
    return ws.memo("config_refs", lambda: _read_configs(ws))


def _read_configs(ws: Workspace) -> list[ConfigRef]:
    # an editor's edit run keeps each unchanged config's ConfigRef, the same object (by_config relies on it)
    items = [(path, None, kind) for kind in CONFIG_KINDS for path in ws.config_files(kind)]
    refs = remember_items(ws, "config_refs", items, _judge, lambda item: _facts(ws, item[0], item[2]), _make, codec=_CODEC)
    return [ref for ref in refs if ref is not None]


def _judge(item: tuple) -> tuple:
    path, _, kind = item
    return f"config-refs:configs/{kind}/{path.name}", (str(path),), kind  # ws.rel(path), at a fraction of its cost


def _make(item: tuple, found: list) -> ConfigRef | None:
    path, _, kind = item
    return ConfigRef(path, kind, found[0]["experiment"], found[0]["positions"], found[0]["required"]) if found else None


def _facts(ws: Workspace, path: Path, kind: str) -> list[dict]:
    text = ws.read_text(path)
    if text is None:
        return []
    doc = TomlDoc.parse(text)
    if doc.data is None:
        return []
    ref = ConfigRef.from_doc(path, kind, doc)
    return [{"experiment": ref.experiment, "positions": ref.positions, "required": ref.required}]


def _position(value) -> tuple[int, int] | None:
    if value is None:
        return None
    line, column = value  # a cache entry of another shape raises, and is no entry
    if type(line) is not int or type(column) is not int:
        raise ValueError("a position of the wrong type")
    return (line, column)


def _decode(data: dict) -> dict:
    """A config's facts from a cache entry, every value of the type a run gives it (else ValueError)."""
    experiment = data["experiment"]
    if not isinstance(experiment, dict) or not all(isinstance(v, str) for v in experiment.values()):
        raise ValueError("experiment values of the wrong type")
    positions = {key: _position(pos) for key, pos in data["positions"].items() if key in experiment}
    required = data["required"]
    if required is not None:
        required = [(name if isinstance(name, str) else None, _position(pos)) for name, pos in required]
    return {"experiment": dict(experiment), "positions": positions, "required": required}


_CODEC = (lambda facts: facts, _decode)


def named_entrypoints(ws: Workspace) -> dict[str, list[str | None]]:
    """The entrypoints the workspace's configs name, by rollout."""
    named_by_rollout: dict[str, list[str | None]] = {}
    for config in workspace_configs(ws):
        rollout, entrypoint = config.experiment_str("rollout"), config.experiment_str("entrypoint")
        if rollout and entrypoint:
            named_by_rollout.setdefault(rollout, []).append(entrypoint)
    return named_by_rollout


def named_for_folders(ws: Workspace) -> dict[str, list[str | None]]:
    """`named_entrypoints` of the rollouts that are folders (all the entrypoints check asks about): renaming
    a config's rollout to a name with no folder leaves it equal, and an editor's edit run compares it (units.view)."""
    return by_config(ws, "named-for-folders", _named_for_folder, _by_rollout)


def _named_for_folder(ws: Workspace, ref: ConfigRef) -> tuple[str, str] | None:
    rollout, entrypoint = ref.experiment_str("rollout"), ref.experiment_str("entrypoint")
    return (rollout, entrypoint) if rollout and entrypoint and rollout in ws.memo("rollout-names", lambda: _folder_names(ws)) else None


def _folder_names(ws: Workspace) -> frozenset[str]:
    return frozenset(folder.name for folder in ws.rollout_dirs)


def _by_rollout(ws: Workspace, entries: list) -> dict[str, list[str | None]]:
    named: dict[str, list[str | None]] = {}
    for entry in entries:
        if entry is not None:
            named.setdefault(entry[0], []).append(entry[1])
    return named


def by_config(ws: Workspace, key: str, entry, combine):
    """``combine(ws, [entry(ws, ref) for ref in workspace_configs(ws)])``: ``entry`` and ``combine`` read
    nothing but the ConfigRef and the files as they are on disk (no buffer), so an editor's edit run
    (check/live.py) makes again only the entries of the configs that changed, and keeps the value when
    they are equal to last run's."""
    refs = workspace_configs(ws)
    each = getattr(ws.units, "config_entries", None)
    if each is not None:
        return each(ws, key, refs, entry, combine)
    return combine(ws, [entry(ws, ref) for ref in refs])


# Where a platform dataset named in a config lives locally: `osmosis dataset upload data/x.jsonl`
# names the dataset "x" after the file's stem, so `dataset = "x"` is data/x.<suffix>.
LOCAL_DATASET_SUFFIXES = (".jsonl", ".csv", ".parquet")


def local_dataset_file(ws: Workspace, name: str, suffixes: tuple[str, ...] = LOCAL_DATASET_SUFFIXES) -> Path | None:
    """The file under data/ that holds the platform dataset ``name`` (core/dataset_names.local_copy, the one
    mapping), None when there is none, ``name`` is no plain name, or the file is unreadable or a link."""
    from osmosis_workspace.core.dataset_names import local_copy

    known = ws.memo("local-datasets", dict)  # the files alone decide: an editor's edit run keeps these
    if (name, suffixes) not in known:
        path = local_copy(ws.root, name, suffixes)
        known[name, suffixes] = None if path is None or path in ws.unreadable or path.is_symlink() else path
    return known[name, suffixes]


@dataclass(frozen=True)
class DatasetPair:
    """An eval config's and a training config's local datasets, of one rollout, in two files."""

    rollout: str
    eval_file: Path
    training_file: Path


def dataset_pairs(ws: Workspace) -> list[DatasetPair]:
    """Every (eval dataset, training dataset) pair of files the configs of one rollout name (once per snapshot)."""
    return view(ws, "dataset_pairs", _pairs)


def paired_files(ws: Workspace) -> frozenset[str]:
    """The real paths of every file a pair names (once per snapshot)."""
    return view(ws, "dataset_paired_files", _paired_files)


def _paired_files(ws: Workspace) -> frozenset[str]:
    import os

    return frozenset(os.path.realpath(p) for pair in dataset_pairs(ws) for p in (pair.eval_file, pair.training_file))


def _pairs(ws: Workspace) -> list[DatasetPair]:
    return by_config(ws, "dataset-pairs", _paired_entry, _pairs_of)


def _paired_entry(ws: Workspace, ref: ConfigRef) -> tuple[str, str, Path] | None:
    rollout, name = ref.experiment_str("rollout"), ref.experiment_str("dataset")
    path = local_dataset_file(ws, name) if rollout and name else None
    return None if path is None else (rollout, ref.kind, path)


def _pairs_of(ws: Workspace, entries: list) -> list[DatasetPair]:
    files: dict[tuple[str, str], set[Path]] = {}
    for entry in entries:
        if entry is not None:
            files.setdefault(entry[:2], set()).add(entry[2])
    pairs = []
    # by rollout, an eval file's pairs in order; a rollout whose configs name one file for both has none
    both = sorted(((rollout, evals, trainings) for (rollout, kind), evals in files.items()
                   if kind == "eval" and (trainings := files.get((rollout, "training"))) and not (len(evals) == 1 and evals == trainings)),
                  key=lambda group: group[0])
    for rollout, evals, trainings in both:
        for eval_file in sorted(evals):
            for training_file in sorted(trainings):
                if eval_file != training_file:  # one file for both (as the templates ship) is not compared
                    pairs.append(DatasetPair(rollout, eval_file, training_file))
    return pairs
