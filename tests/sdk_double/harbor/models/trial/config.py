"""TEST DOUBLE: `harbor.models.trial.config.EnvironmentConfig`."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from harbor.models.environment_type import EnvironmentType


class EnvironmentConfig(BaseModel):
    type: EnvironmentType = EnvironmentType.DOCKER
    force_build: bool = False
    delete: bool = True
    kwargs: dict[str, Any] = Field(default_factory=dict)
