"""TEST DOUBLE: `harbor.trial`."""
