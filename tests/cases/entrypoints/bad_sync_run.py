# expect: ENT006 7:5
from osmosis_ai.rollout import AgentWorkflow


class MyWorkflow(AgentWorkflow):
    # a plain def: the SDK awaits run()
    def run(self, ctx):
        return None
