"""playtest simulation core: shared machinery (random streams, chunked parallel runs,
errors, dice targets) and one sub-package per game."""

__version__ = "0.1.0"
