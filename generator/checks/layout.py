"""Checks: layout (being written)."""
