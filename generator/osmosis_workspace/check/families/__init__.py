"""Check families. Each module declares its rules (osmosis_workspace.check.registry.rule) and registers one or
more workspace checks with :func:`workspace_check`: pure functions from a Workspace snapshot to
diagnostics. Importing this package imports every family, which fills the rule table.
"""

from __future__ import annotations

from osmosis_workspace.check.registry import CHECKS, FAMILIES, RULES, Rule, run_workspace_checks  # noqa: F401

# Imported for their registrations; order does not matter.
from osmosis_workspace.check.families import configs, datasets, entrypoints, gitsync, layout, secrets, skills  # noqa: E402,F401
from osmosis_workspace.check.families import todos  # noqa: E402,F401  (LAY100: template placeholders)
from osmosis_workspace.check.families import leftovers  # noqa: E402,F401  (LAY110, LAY111: what an unfinished update leaves)
from osmosis_workspace.check.families import access  # noqa: E402,F401  (LAY011, LAY012: paths nobody may read)
from osmosis_workspace.check.families import locks  # noqa: E402,F401  (DEP: the uv.lock files uv sync installs from)
from osmosis_workspace.check.families import git_origin  # noqa: E402,F401  (GIT006, GIT007: the origin submit needs)
from osmosis_workspace.check.families import dataset_overlap  # noqa: E402,F401  (DAT029: eval rows in the training dataset)
from osmosis_workspace.check.families import code_tasks  # noqa: E402,F401  (DAT031, DAT032: code tasks' tests, rehearse's columns)
from osmosis_workspace.check.families import checker_source  # noqa: E402,F401  (LAY120, LAY121: where CI installs the checker from)


def all_rules() -> list[Rule]:
    """Every rule, after importing every check module so the table is complete."""
    return sorted(RULES.values(), key=lambda r: (list(FAMILIES).index(r.family), r.code))
