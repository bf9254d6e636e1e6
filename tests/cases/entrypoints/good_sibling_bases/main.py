# expect: nothing
"""Bases defined in sibling modules: a relative import and a plain one (base.py is beside it)."""
from .base import BaseWorkflow
from graders import BaseGrader
from . import shared


class MyWorkflow(BaseWorkflow):
    async def run(self, ctx):
        return shared.VALUE


class MyGrader(BaseGrader):
    async def grade(self, ctx):
        return None
