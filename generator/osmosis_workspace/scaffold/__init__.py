"""Rendering with copier: init, rollout new, update and its pristine base, the template catalogue."""
