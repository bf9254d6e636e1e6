"""`osmosis doctor`: signature only; the work is in generator.check.doctor."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from generator.cli._common import handles_errors


def register(app: typer.Typer) -> None:
    @app.command("doctor")
    @handles_errors
    def doctor(
        path: Path = typer.Argument(Path("."), metavar="PATH", show_default=False, help="A folder inside the workspace (default: the current folder)."),
        format: str = typer.Option("text", "--format", "-f", metavar="FORMAT", help="Output: text, json, github, sarif (markdown with --list-checks)."),
        fix: bool = typer.Option(False, "--fix", help="Make safe repairs, list them, then check again."),
        unsafe_fixes: bool = typer.Option(False, "--unsafe-fixes", help="Also make the unsafe repairs (implies --fix unless --diff)."),
        diff: bool = typer.Option(False, "--diff", help="Show the repairs --fix would make as a unified diff; write nothing (exit 1 if any)."),
        watch: bool = typer.Option(False, "--watch", "-w", help="Check again whenever a file changes; Ctrl-C stops."),
        strict: Optional[bool] = typer.Option(None, "--strict/--no-strict", help="Warnings fail the run (exit 1)."),
        select: List[str] = typer.Option([], "--select", metavar="CODES", help="Only these codes or prefixes (comma-separated or repeated)."),
        ignore: List[str] = typer.Option([], "--ignore", metavar="CODES", help="Skip these codes or prefixes (comma-separated or repeated)."),
        list_checks: bool = typer.Option(False, "--list-checks", help="Document every check and exit."),
        output: Optional[Path] = typer.Option(None, "--output", "-o", metavar="FILE", help="Write the report to this file instead of stdout."),
        verbose: bool = typer.Option(False, "--verbose", "-v", help="Also list skipped families, the files checked, and how long each family took."),
        output_format: str = typer.Option("full", "--output-format", metavar="FORM", help="Text findings: full (with the source line) or concise (one line each)."),
        statistics: bool = typer.Option(False, "--statistics", help="Count the findings per rule (text or json), fixable ones marked."),
        add_ignores: bool = typer.Option(False, "--add-ignores", help="Write an `osmosis: ignore[...]` comment for each finding, then exit."),
        write_baseline: Optional[Path] = typer.Option(None, "--write-baseline", metavar="FILE", help="Record today's findings in FILE, then exit."),
        baseline: Optional[Path] = typer.Option(None, "--baseline", metavar="FILE", help="Report only findings not recorded in FILE (and its stale entries)."),
        no_cache: bool = typer.Option(False, "--no-cache", help="Run every check; neither read nor write the cache."),
    ) -> int:
        """Check a whole workspace against the platform contract.

        Exit codes: 0 no errors, 1 errors (or warnings with --strict), 2 usage or not a workspace,
        3 internal error. Settings: [tool.osmosis] in the workspace's pyproject.toml.

        Example: osmosis doctor --format github
        """
        from contextlib import nullcontext

        from generator.core import lock
        from generator.check.doctor import doctor_command

        fix = (fix or unsafe_fixes) and not diff

        def run() -> int:
            writer = "doctor --fix" if fix else "doctor --add-ignores" if add_ignores else None
            with lock.workspace(path, writer) if writer else nullcontext():
                return doctor_command(
                    path=path, format=format, fix=fix, strict=strict, select=select, ignore=ignore,
                    list_checks=list_checks, output=output, verbose=verbose, output_format=output_format,
                    statistics=statistics, unsafe_fixes=unsafe_fixes, diff=diff, add_ignores=add_ignores,
                    write_baseline=write_baseline, baseline=baseline, no_cache=no_cache,
                )

        if watch:
            from generator.check.watch import watch_command

            return watch_command(path, run, refuse=[n for n, on in (("--fix", fix), ("--diff", diff), ("--list-checks", list_checks), ("--output", output),
                                                                      ("--add-ignores", add_ignores), ("--write-baseline", write_baseline)) if on])
        return run()
