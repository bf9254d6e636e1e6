# expect: ENT004 7:1
"""The imported base is concrete and sits in the entrypoint's namespace too: two workflows."""
from .impl import Complete



class Mine(Complete):
    pass
