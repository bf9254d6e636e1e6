# sdk: osmosis-ai[server]>=0.2,<0.3
# expect: ENT006 7:5 base.py
import base


class MyWorkflow(base.Shared):
    def helper(self):
        return None


MyGrader = base.MyGrader
