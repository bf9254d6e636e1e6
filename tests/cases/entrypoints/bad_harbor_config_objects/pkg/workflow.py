from osmosis_ai.rollout import AgentWorkflow, AgentWorkflowConfig, Grader, GraderConfig


class MyGraderConfig(GraderConfig):
    pass


class MyConfig(AgentWorkflowConfig):
    pass


OTHER = MyConfig(name="other")


class MultiplyWorkflow(AgentWorkflow):
    async def run(self, ctx):
        return None


class MultiplyGrader(Grader):
    async def grade(self, ctx):
        ctx.set_reward(0.0)
