from osmosis_ai.rollout import AgentWorkflow, AgentWorkflowConfig, Grader, GraderConfig


class MultiplyConfig(AgentWorkflowConfig):
    max_tokens: int = 1024


class MultiplyGraderConfig(GraderConfig):
    tolerance: float = 0.01


WORKFLOW_CONFIG = MultiplyConfig(name="multiply")
GRADER_CONFIG = MultiplyGraderConfig(name="multiply-grader")


class MultiplyWorkflow(AgentWorkflow):
    async def run(self, ctx):
        return None


class MultiplyGrader(Grader):
    async def grade(self, ctx):
        ctx.set_reward(0.0)
