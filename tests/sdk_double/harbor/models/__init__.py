"""TEST DOUBLE: `harbor.models`."""
