"""pandas/scipy pipelines: per-game records in, tables with intervals out."""
