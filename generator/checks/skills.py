"""Checks: skills (being written)."""
