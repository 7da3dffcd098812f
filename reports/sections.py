"""A game's own report sections, found by the game's name in the reports layer: the
shared report (``reports/game.py``) and the balance search's report (``playtest GAME fix``)
add them after the shared ones. A game's binding (``strategies/<game>/bind.py``, a layer
below) never imports the reports; a game without an entry here has the shared sections
only.

Each entry names a function ``sections(result) -> [section(page), ...]`` of the reports
layer, given the ``analysis.runs.RunResult`` of the report's run.
"""
from __future__ import annotations

import importlib

SECTIONS = {
    "dicethrone": "reports.dicethrone:report_sections",
    "arcade": "reports.arcade:sections",
    "river": "reports.river:sections",
}


def report_sections(game: str, result) -> list:
    """The game's own sections for the report of ``result`` (``[]`` when it has none)."""
    spec = SECTIONS.get(game)
    if spec is None:
        return []
    mod, _, fn = spec.partition(":")
    return list(getattr(importlib.import_module(mod), fn)(result))
