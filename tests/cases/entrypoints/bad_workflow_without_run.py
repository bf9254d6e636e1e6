# sdk: osmosis-ai[server]>=0.2,<0.3
# expect: ENT003 7:1
"""The only workflow never defines run(), so it is abstract."""
from osmosis_ai.rollout import AgentWorkflow


class Forgot(AgentWorkflow):
    def helper(self):
        return None
