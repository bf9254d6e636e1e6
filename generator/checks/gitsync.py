"""Checks: gitsync (being written)."""
