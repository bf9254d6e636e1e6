"""TEST DOUBLE: `harbor.models.environment_type.EnvironmentType` (where a trial's sandbox runs)."""

from enum import Enum


class EnvironmentType(str, Enum):
    DOCKER = "docker"
    DAYTONA = "daytona"
    E2B = "e2b"
    MODAL = "modal"
