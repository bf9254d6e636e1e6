"""DAT029: eval rows that are also training rows, between the two local datasets one rollout's eval and
training configs name (osmosis_workspace.check.config_refs.dataset_pairs: `dataset = "x"` is data/x.jsonl, .csv
or .parquet; configs naming one file for both are not compared).

Rows are matched by the digest of their prompt that the datasets check already took while reading
each file (osmosis_workspace.readers.datasets.profile; it keeps the profiles of paired files for this check),
so no file is read twice. A file that check did not read (it stopped at its findings cap, or was not
selected) is read here. Parquet files have no row profile (their reader reads the footer) and are
not compared.
"""

from __future__ import annotations

from osmosis_workspace.check.config_refs import dataset_pairs
from osmosis_workspace.check.families.data_rules import EVAL_IN_TRAINING
from osmosis_workspace.check.families.datasets import profile_of
from osmosis_workspace.check.registry import workspace_check
from osmosis_workspace.core.diagnostics import Diagnostic
from osmosis_workspace.core.workspace import Workspace
from osmosis_workspace.readers.datasets.profile import SHOWN_LINES, lines_text


@workspace_check("datasets")
def check_eval_in_training(ws: Workspace) -> list[Diagnostic]:
    found = []
    for pair in dataset_pairs(ws):
        evals, training = profile_of(ws, pair.eval_file), profile_of(ws, pair.training_file)
        if evals is None or training is None or not evals.rows:
            continue
        seen = training.seen
        shared = [line for digest, line in zip(evals.firsts, evals.first_lines) if digest in seen]
        if not shared:
            continue
        eval_rel, training_rel = ws.rel(pair.eval_file), ws.rel(pair.training_file)
        lines = shared[:SHOWN_LINES]
        found.append(EVAL_IN_TRAINING.at(
            eval_rel,
            f"{len(shared):,} of {evals.rows:,} rows of rollout {pair.rollout}'s eval dataset have a prompt that is also in its "
            f"training dataset {training_rel}: line{'s' if len(lines) > 1 else ''} {lines_text(lines)}"
            f"{', ...' if len(shared) > len(lines) else ''}",
            line=lines[0],
            hint=f"Remove the shared prompts from one of the two files (usually {training_rel}), so the eval measures rows the "
                 "model has not trained on.",
        ))
    return found
