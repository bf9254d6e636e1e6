"""TEST DOUBLE of the third-party `harbor` package: only the names HarborBackend users import.
Not the real package; runs no sandbox. See tests/sdk_double/README.md."""
