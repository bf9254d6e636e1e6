"""Checks: secrets (being written)."""
