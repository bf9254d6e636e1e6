"""TEST DOUBLE: `harbor.trial.queue.TrialQueue` -- the same class the osmosis_ai double's HarborBackend expects."""

from osmosis_ai.rollout.backend.harbor import TrialQueue

__all__ = ["TrialQueue"]
