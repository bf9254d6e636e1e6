# sdk: osmosis-ai==0.2.17
# expect: ENT011 9:1
# expect: ENT012 9:1
# expect: ENT013 9:1
# expect: ENT014 9:1
from osmosis_ai.rollout import RolloutAgentLoop


class Empty(RolloutAgentLoop):
    pass
