"""`osmosis lsp`: signature only; the server is osmosis_workspace.lsp.server (needs the `[lsp]` extra)."""

from __future__ import annotations

import typer

from osmosis_workspace.cli._common import handles_errors

INSTALL = "`osmosis lsp` needs pygls: pip install 'osmosis-workspace[lsp]' (or add pygls>=2 and lsprotocol to the same environment)"


def register(app: typer.Typer) -> None:
    @app.command("lsp")
    @handles_errors
    def lsp(
        stdio: bool = typer.Option(True, "--stdio", hidden=True, help="Talk over stdin/stdout (the only transport; editors pass it)."),
    ) -> int:
        """Run the language server: doctor's findings in your editor.

        Diagnostics for configs, entrypoints, datasets and SKILL.md on open and save, rule help on
        hover, safe fixes as quick fixes. Speaks LSP over stdin/stdout; your editor starts it.

        Example: osmosis lsp   (your editor runs this)

        \b
        Setup for VS Code and Neovim:
        https://github.com/osmosis-ai/osmosis-workspace/blob/main/docs/editor.md
        """
        try:
            import lsprotocol  # noqa: F401
            import pygls  # noqa: F401
        except ImportError:
            from osmosis_workspace.core.errors import UserError

            raise UserError(INSTALL) from None
        from osmosis_workspace.lsp.server import serve

        serve()
        return 0
