"""TEST DOUBLE: `create_rollout_server` (the real one returns a FastAPI app). Serves nothing."""

from __future__ import annotations

from typing import Any


class RolloutServerApp:
    """Stands in for the ASGI app; holds the backend so tests can drive it with _double.run_backend."""

    def __init__(self, backend: Any):
        self.backend = backend

    async def __call__(self, scope, receive, send):  # pragma: no cover - never served in tests
        raise RuntimeError("the SDK double's rollout server cannot serve requests")


def create_rollout_server(*, backend: Any) -> RolloutServerApp:
    if not hasattr(backend, "workflow"):
        raise TypeError(f"backend must be a LocalBackend or HarborBackend, got {backend!r}")
    return RolloutServerApp(backend)
