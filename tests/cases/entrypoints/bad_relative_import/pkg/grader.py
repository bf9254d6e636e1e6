from osmosis_ai.rollout import Grader


class MultiplyGrader(Grader):
    async def grade(self, ctx):
        ctx.set_reward(1.0)
