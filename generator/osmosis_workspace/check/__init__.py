"""doctor, validate and --fix: the rule registry, settings, suppressions and one module per check family."""
