"""osmosis-workspace: scaffolding and static checks for Osmosis training workspaces."""

# The one place the version is written: the build reads it here (pyproject.toml, [tool.hatch.version]).
__version__ = "0.1.0"
