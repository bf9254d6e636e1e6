"""The workspace snapshot, diagnostics, paths, names, errors and bundled resources: imported by every wing, importing none."""
