"""The generations table's 0.3 row (generator/osmosis_workspace/core/sdk_generations.py) agrees with the real osmosis-ai:
every name it places in a 0.3 module is there, every name it says 0.3 dropped is gone, and the Harbor
arguments and context attributes match."""

from __future__ import annotations

import sdk_harness as h
from tests.entrypoints.test_sdk_generations import check_real_sdk_agrees_with_generation_b


def test_generation_b_agrees_with_the_installed_sdk(full_sdk_env):
    check_real_sdk_agrees_with_generation_b(str(full_sdk_env.python), env=h.sdk_child_environ())
