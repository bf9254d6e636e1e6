# expect: ENT003 6:1
"""The only workflow never defines run(), so it is abstract."""
from osmosis_ai.rollout import AgentWorkflow


class Forgot(AgentWorkflow):
    def helper(self):
        return None
