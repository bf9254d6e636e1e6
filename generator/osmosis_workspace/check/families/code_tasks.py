"""The datasets family's checks of code tasks and of what rehearse replays: rules DAT031-DAT032.

DAT031 is a row rule (osmosis_workspace.readers.datasets.rows, kind "bad-tests"): a label written as a
code task's tests that do not parse. DAT032 reads `[tool.osmosis.rehearse]` (core/rehearse_settings.py):
each gold-column and partial-column must be a column of the datasets of the rollouts it applies to (the
rollout's own table, else the workspace-wide value), as the local copies the rollout's configs name hold
them (the first JSON lines row or the CSV header; a parquet file is not opened here).
"""

from __future__ import annotations

from osmosis_workspace.check.registry import family_rules, workspace_check
from osmosis_workspace.core.diagnostics import Diagnostic
from osmosis_workspace.core.workspace import Workspace

_rule = family_rules("datasets")

CODE_TESTS = _rule(
    "DAT031", "dataset-code-tests-unparsable", "error",
    summary='A label that begins like a code task\'s tests (`{"function": ...}`, the `code` template\'s format) does not parse '
            'as them: not JSON, no function name, or `tests` not a non-empty list of {"input": [...], "output": ...}.',
    why="The grader reads the tests from the label: one it cannot read scores every answer to the row 0, so the row can never "
        "be rewarded, and a training run learns nothing from it.",
    fix='Write the label as JSON text: {"function": "gcd", "tests": [{"input": [7, 13], "output": 1}]} (input: the list of '
        "positional arguments; output: the value to return).",
    example='{"user_prompt": "Write gcd(a, b) ...", "ground_truth": "{\\"function\\": \\"gcd\\", \\"tests\\": [7, 13]}"}',
    source="ours",
)  # fmt: skip
REHEARSE_COLUMN_MISSING = _rule(
    "DAT032", "dataset-rehearse-column-missing", "error",
    summary="A `gold-column` or `partial-column` declared in `[tool.osmosis.rehearse]` (workspace-wide or in "
            "`[tool.osmosis.rehearse.rollout.<name>]`) is not a column of a dataset of a rollout it applies to.",
    why="`osmosis rehearse` replays that column as the gold (or partly right) answer: without it the rehearsal cannot show "
        "that the grader rewards a right answer, and the declaration promises a proof the data cannot give.",
    fix="Add the column to the dataset (a correct solution per row for gold-column; a partly right one, or an empty value, "
        "for partial-column), or fix the name in pyproject.toml.",
    example='[tool.osmosis.rehearse.rollout.tasks]\ngold-column = "reference"   # data/tasks.jsonl has no "reference"',
    source="ours",
)  # fmt: skip

PYPROJECT = "pyproject.toml"
KEYS = (("gold-column", "gold_column"), ("partial-column", "partial_column"))


def _datasets_by_rollout(ws: Workspace) -> dict[str, list]:
    """Rollout name -> the local dataset files its eval and training configs name (each once, in order)."""
    from osmosis_workspace.check.config_refs import local_dataset_file, workspace_configs

    found: dict[str, list] = {}
    for config in workspace_configs(ws):
        rollout, name = config.experiment_str("rollout"), config.experiment_str("dataset")
        path = local_dataset_file(ws, name) if rollout and name else None
        if path is not None and path not in found.setdefault(rollout, []):
            found[rollout].append(path)
    return found


def _line(ws: Workspace, key: str, rollout: str, own: bool) -> int | None:
    from osmosis_workspace.check.settings import key_line

    text = ws.read_text(ws.root / PYPROJECT) or ""
    if own:
        line = key_line(text, key, f"tool.osmosis.rehearse.rollout.{rollout}") or key_line(text, rollout, "tool.osmosis.rehearse.rollout")
        if line is not None:
            return line
    return key_line(text, key, "tool.osmosis.rehearse") or key_line(text, "rehearse")


@workspace_check("datasets")
def check_rehearse_columns(ws: Workspace) -> list[Diagnostic]:
    from osmosis_workspace.core.rehearse_settings import parse
    from osmosis_workspace.readers.datasets.code_tests import first_columns

    tool = ws.pyproject.get("tool")
    osmosis = tool.get("osmosis") if isinstance(tool, dict) else None
    table = osmosis.get("rehearse") if isinstance(osmosis, dict) else None
    if not isinstance(table, dict):
        return []
    settings, _ = parse(table)  # a malformed value is SET002's finding; what parses is checked here
    found = []
    for rollout, paths in sorted(_datasets_by_rollout(ws).items()):
        rules, own = settings.for_rollout(rollout), settings.per_rollout.get(rollout)
        for key, attribute in KEYS:
            column = getattr(rules, attribute)
            if column is None:
                continue
            declared_here = own is not None and getattr(own, attribute) is not None
            for path in paths:
                columns = None if ws.outside(path) else first_columns(path)
                if columns is None or column in columns:
                    continue
                rel = ws.rel(path)
                line = _line(ws, key, rollout, declared_here)
                found.append(REHEARSE_COLUMN_MISSING.at(
                    PYPROJECT, f"`{key} = \"{column}\"` applies to rollout {rollout}, but its dataset {rel} has no `{column}` "
                    f"column: rehearse has no {'gold' if key == 'gold-column' else 'partly right'} answer to replay",
                    line=line, column=1 if line else None,
                    hint=f"Add a `{column}` column to every row of {rel}, or name the column it has."))
    return found
