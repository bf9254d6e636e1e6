"""Shell completion of option values that come from a table: `--format` from the reporters' table,
`--template` from the bundled templates and their aliases. Run only when a shell asks."""

from __future__ import annotations


def formats(incomplete: str) -> list[str]:
    from osmosis_workspace.report import REPORTERS

    return [name for name in REPORTERS if name.startswith(incomplete)]


def templates(incomplete: str) -> list[str]:
    from osmosis_workspace.scaffold import catalog

    names = [t.name for t in catalog.bundled_templates() if t.kind == "rollout"] + list(catalog.ALIASES)
    return sorted(name for name in set(names) if name.startswith(incomplete))
