"""osmosis-workspace: scaffolding and static checks for Osmosis training workspaces."""

__version__ = "0.1.0"
