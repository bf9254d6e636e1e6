"""`osmosis rehearse`: signature only; the work is in osmosis_workspace.rehearse.command."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from osmosis_workspace.cli._common import handles_errors
from osmosis_workspace.rehearse.probes import PROBES, TABLE

# What the help cites: a file every workspace has (the bundled skills), never a page of this repository.
REFERENCE = ".agents/skills/debug-rollouts/references/rehearse-probes.md"

HELP = f"""Run each rollout end to end with the SDK's own runner and a scripted model, then judge its reward.

This command RUNS THE WORKSPACE'S CODE (the rollout server, its workflow and grader), unlike
doctor and validate, which only read it. It runs the SDK from the workspace's .venv (`uv sync` at
the root first). No model is paid and nothing leaves 127.0.0.1: the SDK's `osmosis eval run` talks
to a scripted OpenAI-compatible model that answers each row three times, with the row's label in
the prompt's answer format (gold), another row's label (wrong) and nothing (empty); every provider
key and base URL in your environment is replaced for the processes it starts.
Verdicts: {", ".join(e.name for e in TABLE if e.kind == "verdict")}. Probes, in the same run, try
what a policy optimising the reward would: {", ".join(PROBES)}.
Settings: [tool.osmosis.rehearse] in pyproject.toml. Output goes under .osmosis/evals/rehearse/
(git-ignored).

\b
What each probe sends, what the gold asks of your labels, and the gold column for rows whose label
is not an answer, in the workspace: {REFERENCE}

Exit codes: 0 every verdict holds, 1 a verdict fails, 2 usage, not a workspace or no SDK environment.

In CI: `--changed origin/main --list --format json` gives the matrix of affected rollouts (at most
256 jobs, past that a group each), each job rehearses its names with `--format json -- NAME...`, and
`--merge DIR` joins their verdicts.

Example: osmosis rehearse multiply --rows 0-3
"""


def register(app: typer.Typer) -> None:
    @app.command("rehearse", help=HELP)
    @handles_errors
    def rehearse(
        rollouts: List[str] = typer.Argument(None, metavar="ROLLOUT", show_default=False, help="Rollouts to rehearse (default: every rollout)."),
        config: Optional[Path] = typer.Option(None, "--config", metavar="FILE", help="The eval config to run (default: configs/eval/<rollout>.toml)."),
        dataset_file: Optional[Path] = typer.Option(None, "--dataset-file", metavar="FILE", help="Rows to rehearse with (default: the local copy of the dataset the eval config names, data/<dataset>.jsonl, .csv or .parquet; else data/<rollout>.jsonl)."),
        rows: Optional[str] = typer.Option(None, "--rows", metavar="SPEC", help="Source rows, e.g. 0-3,7 (default: 0-3); each runs three times."),
        format: str = typer.Option("text", "--format", "-f", metavar="FORMAT", help="Output: text or json (one object: ok, and a rollouts list with one entry per rollout)."),
        timeout: Optional[float] = typer.Option(None, "--timeout", metavar="S", help="Stop a rollout's rehearsal after S seconds (default: 900)."),
        sdk: Optional[Path] = typer.Option(None, "--sdk", metavar="PATH", help="The SDK's osmosis (or its venv) (default: .venv/bin/osmosis at the workspace root)."),
        jobs: int = typer.Option(1, "--jobs", "-j", metavar="N", help="Rehearse up to N rollouts at once."),
        probes: bool = typer.Option(True, "--probes/--no-probes", help=f"Also send the probes ({', '.join(PROBES)}) (default: on)."),
        path: Path = typer.Option(Path("."), "--workspace", "-w", metavar="PATH", help="A folder inside the workspace (default: the current folder)."),
        changed: Optional[str] = typer.Option(None, "--changed", metavar="REF", help="Only the rollouts the changes since REF touch (its merge base with HEAD, to the work tree), each with its reason."),
        list_only: bool = typer.Option(False, "--list", help="Print the rollouts that would be rehearsed, and why, without running anything (--format json: a CI matrix)."),
        merge: Optional[Path] = typer.Option(None, "--merge", metavar="DIR", help="Merge the --format json verdicts under DIR (one per CI job) into one report and exit code; in GitHub Actions also the job summary and annotations."),
    ) -> int:
        """The help is HELP above (its lists come from the rehearse table)."""
        from osmosis_workspace.rehearse.command import rehearse_command

        return rehearse_command(path=path, rollouts=list(rollouts or []), config=config, dataset_file=dataset_file,
                                rows=rows, format=format, timeout=timeout, sdk=sdk, jobs=jobs, probes=probes,
                                changed=changed, list_only=list_only, merge=merge)
