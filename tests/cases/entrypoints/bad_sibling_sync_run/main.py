# expect: ENT006 7:5 base.py
from base import Shared


class MyWorkflow(Shared):
    def helper(self):
        return None
