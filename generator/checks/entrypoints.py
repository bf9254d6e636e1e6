"""Checks: entrypoints (being written)."""
