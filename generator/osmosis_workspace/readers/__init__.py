"""Readers that give line and column: TOML, Python source, YAML, datasets. Import only core."""
