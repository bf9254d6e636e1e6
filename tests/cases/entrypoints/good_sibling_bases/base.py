from osmosis_ai.rollout import AgentWorkflow


class BaseWorkflow(AgentWorkflow):
    """No run(): abstract."""

    def prompt(self, ctx):
        return ctx.prompt
