from abc import ABC

import osmosis_ai.rollout as r


class BaseGrader(r.Grader, ABC):
    def score(self, text):
        return 0.0
