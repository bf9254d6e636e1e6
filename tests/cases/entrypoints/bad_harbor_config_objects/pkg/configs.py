from osmosis_ai.rollout import AgentWorkflowConfig

from pkg.workflow import MyGraderConfig

PLAIN = AgentWorkflowConfig(name="plain")
MOVED = MyGraderConfig(name="moved")
