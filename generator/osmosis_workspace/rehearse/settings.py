"""rehearse's settings: `[tool.osmosis.rehearse]`, read where settings live (core/rehearse_settings.py),
and the names of accepted probes checked against the probe table. A bad value is a usage error (exit 2)."""

from __future__ import annotations

from pathlib import Path

from osmosis_workspace.core.errors import UserError
from osmosis_workspace.core.rehearse_settings import RehearseSettings, load
from osmosis_workspace.core.suggest import closest
from osmosis_workspace.rehearse.probes import PROBES


def load_settings(root: Path) -> RehearseSettings:
    settings, problems = load(root)
    if problems:
        key, message = problems[0]
        if key == "pyproject":
            raise UserError(message)
        raise UserError(f"pyproject.toml: [tool.osmosis.rehearse] {message}",
                        hint="`osmosis doctor` lists every problem in the settings (SET002)")
    for key in settings.accept:
        probe = key.rsplit("/", 1)[-1]
        if probe not in PROBES:
            guess = closest(probe, list(PROBES))
            raise UserError(f"pyproject.toml: [tool.osmosis.rehearse] accept names {key!r}, which is no probe"
                            + (f"; did you mean {guess!r}?" if guess else f" (probes: {', '.join(PROBES)})"))
    return settings
