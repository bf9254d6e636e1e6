"""TEST DOUBLE of the `osmosis-ai` package (see tests/sdk_double/README.md). Not the real SDK."""

__version__ = "0.2.0+test-double"
IS_TEST_DOUBLE = True
