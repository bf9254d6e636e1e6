from abc import ABC

from osmosis_ai.rollout import AgentWorkflow


class Shared(AgentWorkflow, ABC):
    def run(self, ctx):
        return None
