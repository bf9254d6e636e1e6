"""How the configs family grades what the schema finds: which range violations are impossible
(errors) rather than unusual (warnings), and which pattern means "empty in all but name".
"""

from __future__ import annotations

RANGE_KEYWORDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")

# Bounds that are advice, not impossibility: a temperature above 2 or a pass threshold outside
# [0, 1] still runs. Every other bound in the schemas is a value no run can use (a learning rate
# <= 0, fewer than one epoch, sample or step, top_p outside (0, 1], a negative temperature).
ADVISORY_BOUNDS = frozenset({
    (("sampling", "rollout_temperature"), "maximum"),
    (("evaluation", "pass_threshold"), "minimum"), (("evaluation", "pass_threshold"), "maximum"),
})

# `model_path` and `dataset` carry this pattern in the schemas: osmosis-ai passes them on as written
# (ExperimentSection has no strip), so "  " names no model or dataset any more than "" does.
BLANK_PATTERN = "\\S"
