# sdk: osmosis-ai[server]>=0.2,<0.3
# expect: nothing
"""Bases defined in sibling modules: a relative import and a plain one (base.py is beside it), of the modules: the bases stay out of the namespace."""
from . import base
import graders
from . import shared


class MyWorkflow(base.BaseWorkflow):
    async def run(self, ctx):
        return shared.VALUE


class MyGrader(graders.BaseGrader):
    async def grade(self, ctx):
        return None
