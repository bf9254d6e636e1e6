"""`osmosis rehearse`: signature only; the work is in osmosis_workspace.rehearse.command."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from osmosis_workspace.cli._common import handles_errors


def register(app: typer.Typer) -> None:
    @app.command("rehearse")
    @handles_errors
    def rehearse(
        rollouts: List[str] = typer.Argument(None, metavar="ROLLOUT", show_default=False, help="Rollouts to rehearse (default: every rollout)."),
        config: Optional[Path] = typer.Option(None, "--config", metavar="FILE", help="The eval config to run (default: configs/eval/<rollout>.toml)."),
        dataset_file: Optional[Path] = typer.Option(None, "--dataset-file", metavar="FILE", help="Rows to rehearse with (default: data/<rollout>.jsonl)."),
        rows: Optional[str] = typer.Option(None, "--rows", metavar="SPEC", help="Source rows, e.g. 0-3,7 (default: 0-3); each runs three times."),
        format: str = typer.Option("text", "--format", "-f", metavar="FORMAT", help="Output: text or json (one object: ok, and a rollouts list with one entry per rollout)."),
        timeout: Optional[float] = typer.Option(None, "--timeout", metavar="S", help="Stop a rollout's rehearsal after S seconds (default: 900)."),
        sdk: Optional[Path] = typer.Option(None, "--sdk", metavar="PATH", help="The SDK's osmosis (or its venv) (default: .venv/bin/osmosis at the workspace root)."),
        jobs: int = typer.Option(1, "--jobs", "-j", metavar="N", help="Rehearse up to N rollouts at once."),
        probes: bool = typer.Option(True, "--probes/--no-probes", help="Also send the probes (enumeration, length, malformed, determinism, echo, format-only, partly right) (default: on)."),
        path: Path = typer.Option(Path("."), "--workspace", "-w", metavar="PATH", help="A folder inside the workspace (default: the current folder)."),
        changed: Optional[str] = typer.Option(None, "--changed", metavar="REF", help="Only the rollouts the changes since REF touch (its merge base with HEAD, to the work tree), each with its reason."),
        list_only: bool = typer.Option(False, "--list", help="Print the rollouts that would be rehearsed, and why, without running anything (--format json: a CI matrix)."),
        merge: Optional[Path] = typer.Option(None, "--merge", metavar="DIR", help="Merge the --format json verdicts under DIR (one per CI job) into one report and exit code; in GitHub Actions also the job summary and annotations."),
    ) -> int:
        """Run each rollout end to end with the SDK's own runner and a scripted model, then judge its reward.

        This command RUNS THE WORKSPACE'S CODE (the rollout server, its workflow and grader), unlike
        doctor and validate, which only read it. No model is paid and nothing leaves 127.0.0.1: the
        SDK's `osmosis eval run` talks to a scripted OpenAI-compatible model that answers each row three
        times, with the ground truth (gold), another row's answer (wrong) and nothing (empty); every
        provider key and base URL in your environment is replaced for the processes it starts.
        Verdicts: every row runs, rewards are finite and in range, gold is rewarded, the reward tells right
        from wrong, it is not constant, timings fit the config. Probes, in the same run, try what a policy
        optimising the reward would: the gold among many candidates, a padded wrong answer, malformed text,
        the gold twice, the prompt echoed, the format alone, a partly right answer (docs/rehearse.md).
        Settings: [tool.osmosis.rehearse] reward-range, stochastic, accept. Output goes under
        .osmosis/evals/rehearse/ (git-ignored).

        Exit codes: 0 every verdict holds, 1 a verdict fails, 2 usage, not a workspace or no SDK environment.

        In CI: `--changed origin/main --list --format json` gives the matrix of affected rollouts (at most
        256 jobs, past that a group each), each job rehearses its names with `--format json -- NAME...`,
        and `--merge DIR` joins their verdicts.

        Example: osmosis rehearse multiply --rows 0-3
        """
        from osmosis_workspace.rehearse.command import rehearse_command

        return rehearse_command(path=path, rollouts=list(rollouts or []), config=config, dataset_file=dataset_file,
                                rows=rows, format=format, timeout=timeout, sdk=sdk, jobs=jobs, probes=probes,
                                changed=changed, list_only=list_only, merge=merge)
