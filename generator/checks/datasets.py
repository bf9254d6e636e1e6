"""Checks: datasets (being written)."""
