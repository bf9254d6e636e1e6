# sdk: osmosis-ai[server]>=0.2,<0.3
# expect: ENT015 11:18
# expect: ENT015 15:16
import openai
from openai import AsyncOpenAI
from osmosis_ai.rollout import AgentWorkflow, Grader


class MyWorkflow(AgentWorkflow):
    async def run(self, ctx):
        client = AsyncOpenAI()
        await client.chat.completions.create(model="gpt-4o", messages=ctx.prompt)

    def other(self):
        return openai.OpenAI()


class JudgeGrader(Grader):
    async def grade(self, ctx):
        judge = AsyncOpenAI()  # an LLM judge in a grader is fine
        return judge
