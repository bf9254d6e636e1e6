"""`osmosis rule`: signature only; the work is in osmosis_workspace.check.explain."""

from __future__ import annotations

from typing import Optional

import typer

from osmosis_workspace.cli._common import handles_errors


def register(app: typer.Typer) -> None:
    @app.command("rule")
    @handles_errors
    def rule(
        code: Optional[str] = typer.Argument(None, metavar="CODE", show_default=False, help="A rule code, such as CFG003."),
        all_rules: bool = typer.Option(False, "--all", help="Explain every rule."),
        format: str = typer.Option("text", "--format", "-f", metavar="FORMAT", help="Output: text or json."),
    ) -> int:
        """Explain a rule: what it checks, why it matters, how to fix it, an example, its source.

        Exit codes: 0 explained, 2 no such rule or a usage error.

        Example: osmosis rule CFG003 --format json
        """
        from osmosis_workspace.check.explain import rule_command

        return rule_command(code=code, all_rules=all_rules, format=format)
