# expect: ENT011 8:1
# expect: ENT012 8:1
# expect: ENT013 8:1
# expect: ENT014 8:1
from osmosis_ai.rollout import RolloutAgentLoop


class Empty(RolloutAgentLoop):
    pass
