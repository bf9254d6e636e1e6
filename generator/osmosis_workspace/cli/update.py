"""`osmosis update`."""

from __future__ import annotations

from pathlib import Path

import typer

from osmosis_workspace.cli._common import handles_errors


def register(app: typer.Typer) -> None:
    @app.command("update")
    @handles_errors
    def update(
        path: Path = typer.Argument(Path("."), metavar="PATH", help="The workspace.", show_default="current folder"),
        check: bool = typer.Option(False, "--check", help="Change nothing; exit 1 when behind the installed templates."),
        conflict: str = typer.Option("inline", "--conflict", metavar="[inline|rej]", help="How to show conflicts: inline (conflict markers in the file) or rej (your file kept, <file>.rej beside it)."),
        trust: bool = typer.Option(False, "--trust", help="Allow a non-bundled template's tasks, migrations and Jinja extensions."),
        dry_run: bool = typer.Option(False, "--dry-run", help="Change nothing; print what each file would get: new, unchanged, replaced, merged, conflict, left alone."),
        adopt: bool = typer.Option(False, "--adopt", help="Take over a workspace `osmosis init` did not make (e.g. a copy of the platform's template): replaces the files its .osmosis/template.json manages (AGENTS.md, CLAUDE.md, configs/AGENTS.md, configs/*/default.toml, the skills) with osmosis's versions, keeps pyproject.toml, uv.lock, README.md, .gitignore, .env.example and .github/ as they are, adds what is missing (schemas, the answers file, .osmosis/update.json) and records the base; rollouts, data and your configs untouched. Needs a clean tree; preview with --dry-run."),
        verbose: bool = typer.Option(False, "--verbose", "-v", help="Also list the files that stay unchanged."),
    ) -> int:
        """Bring the workspace up to the installed templates and skills, as .osmosis/template.json (the platform's update policy) allows.

        Example: osmosis update --dry-run
        """
        from contextlib import nullcontext

        from osmosis_workspace.core import lock, safe_git
        from osmosis_workspace.scaffold.update import update_command
        safe_git.forget_outer_repository()  # copier runs git too: an exported GIT_DIR must reach none

        with nullcontext() if (check or dry_run) else lock.workspace(path, "update"):
            return update_command(path=path, check=check, conflict=conflict, unfinished=_unfinished, trust=trust,
                                  dry_run=dry_run, adopt=adopt, verbose=verbose)


def _unfinished(root: Path) -> list[str]:
    """Conflicts a previous `osmosis update` left (markers, .rej files), as `path[:line]  what`."""
    from osmosis_workspace.check.families.leftovers import unresolved_findings
    from osmosis_workspace.core.workspace import Workspace

    return [f"{d.path}{f':{d.line}' if d.line else ''}  {d.code} {d.message}" for d in unresolved_findings(Workspace(root))]
