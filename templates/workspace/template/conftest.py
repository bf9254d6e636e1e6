"""Lets `pytest` at the workspace root run every rollout's tests: each rollout folder is an import
root (its package, e.g. `multiply_rollout`), as it is when its tests run from inside it."""

import sys
from pathlib import Path

for rollout in sorted(Path(__file__).resolve().parent.glob("rollouts/*/")):
    if str(rollout) not in sys.path:
        sys.path.insert(0, str(rollout))
