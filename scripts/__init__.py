"""The ``playtest`` command line (Typer) and benchmark scripts."""
