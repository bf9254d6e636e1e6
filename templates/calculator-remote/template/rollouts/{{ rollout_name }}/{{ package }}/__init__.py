"""The rollout's own code: calculator tools, the agent loop, the policy client and the reward.

Nothing here imports osmosis-ai, so the tests run with pytest alone; main.py wires these pieces
into the SDK's AgentWorkflow and Grader.
"""
