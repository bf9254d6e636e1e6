"""Where the bundled templates, skills and schemas live, in a wheel or in a source checkout."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parents[1]
_BUNDLED = _PACKAGE / "_bundled"  # filled by the wheel build (pyproject force-include)
_SOURCE_ROOT = _PACKAGE.parent.parent  # a source checkout keeps them at its top, beside generator/

# The platform's stage loop (contract section 5): a workspace carries all nine.
SKILL_NAMES = ("plan-training", "plan-eval", "create-rollouts", "evaluate-rollouts", "debug-rollouts", "submit-eval",
               "submit-training", "submit-benchmarks", "deploy-models")


def _bundled(name: str) -> Path:
    for base in (_BUNDLED, _SOURCE_ROOT):
        candidate = base / name
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"the bundled {name}/ folder is missing from this installation")


@lru_cache(maxsize=None)
def templates_dir() -> Path:
    return _bundled("templates")


@lru_cache(maxsize=None)
def skills_dir() -> Path:
    return _bundled("skills")


def schemas_dir() -> Path:
    """The JSON Schemas that `osmosis schema` prints and `osmosis init` copies into workspaces."""
    return _PACKAGE / "core" / "schemas"
