"""TEST DOUBLE: `harbor.models.trial`."""
