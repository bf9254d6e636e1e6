# sdk: osmosis-ai[server]>=0.2,<0.3
# expect: ENT004 9:1
# expect: ENT023 5:1
"""The imported base is concrete and sits in the entrypoint's namespace too: two workflows."""
from .impl import Complete



class Mine(Complete):
    pass
