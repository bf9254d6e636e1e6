"""The rollout's own module: a grader, and a misspelt third-party import beside a guarded one."""
from osmosis_ai.rollout import Grader

try:
    import ujson as json
except ImportError:
    import json

import strandz  # noqa: F401  (strands-agents installs `strands`)


class G(Grader):
    async def grade(self, ctx):
        ctx.set_reward(float(bool(json.dumps({}))))
