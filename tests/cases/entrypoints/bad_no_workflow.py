# sdk: osmosis-ai[server]>=0.2,<0.3
# expect: ENT003 -
"""Only a grader: nothing for the platform to run."""
from osmosis_ai.rollout import Grader


class MyGrader(Grader):
    async def grade(self, ctx):
        return None
