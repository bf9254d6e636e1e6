"""Checks: configs (being written)."""
