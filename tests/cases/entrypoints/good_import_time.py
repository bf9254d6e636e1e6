# expect: nothing
import os

from osmosis_ai.rollout import AgentWorkflow, Grader, LocalBackend
from osmosis_ai.rollout.server import create_rollout_server


class W(AgentWorkflow):
    async def run(self, ctx):
        return None


class G(Grader):
    async def grade(self, ctx):
        ctx.set_reward(1.0)

"""What runs at import and is fine: guarded and conditional reads, names bound late or in a loop,
a raise under a condition, a NameError caught, TYPE_CHECKING imports used only in annotations."""
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

if sys.version_info < (3, 10):
    raise RuntimeError("needs Python 3.10")
TOKEN = os.environ.get("JUDGE_API_KEY")
HOME = os.environ["HOME"]
REGION = os.environ["REGION"] if "REGION" in os.environ else "us"
try:
    EXTRA = UNDEFINED_ON_PURPOSE
except NameError:
    EXTRA = None
for index in range(2):
    LAST = index
SIZES = [n * 2 for n in range(3)]


class Holder:
    limit = 3
    doubled = limit * 2
    label = __qualname__

    def method(self, items: "Sequence[int]") -> int:
        return later_bound(items)


def later_bound(items):
    return len(items) + missing_at_import_is_fine_in_a_function()


PORT_ENV = "_OSMOSIS_ROLLOUT_PORT"
backend = LocalBackend(workflow=W, workflow_config="pkg.configs:CONFIG", grader=G)
app = create_rollout_server(backend=backend)

if __name__ == "__main__":
    import uvicorn

    uvicorn.run(app, port=int(os.environ.get(PORT_ENV, "8000")))
