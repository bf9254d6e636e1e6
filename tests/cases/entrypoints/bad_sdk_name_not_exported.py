# sdk: osmosis-ai[server]>=0.3.1,<0.4
# expect: ENT019 6:24
# expect: ENT019 7:32
"""Names none of the admitted releases exports where imported (0.3.1 and 0.3.8 export tables)."""
import os
from osmosis_ai import LocalBackend
from osmosis_ai.rollout import AgentWorkflowX, Grader
