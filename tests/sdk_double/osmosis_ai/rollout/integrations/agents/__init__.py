"""TEST DOUBLE: `osmosis_ai.rollout.integrations.agents`."""
