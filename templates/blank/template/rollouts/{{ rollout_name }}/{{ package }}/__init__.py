"""The rollout's own code: scoring (grading.py, no SDK needed) and the SDK wiring (workflow.py)."""
