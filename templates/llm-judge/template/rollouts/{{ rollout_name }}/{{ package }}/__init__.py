"""The rollout's own code: the judge (judge.py, no SDK needed) and the SDK wiring (workflow.py)."""
