"""Regicide, declared once (``simcore/game.py``)."""
from ..game import GameType

GAME = GameType(
    name="regicide",
    title="Regicide",
    kind="cooperative",
    min_seats=1, max_seats=4, default_seats=1,
    entrants="seats",
    chance="sampled",
    information="imperfect",
    utility="identical",
    score="enemies defeated (the same for every seat: a cooperative game has no leader)",
    default_strategy="heuristic",
    api="strategies.regicide.bind:API",
    package="simcore.regicide",
    description="1-4 players together defeat the twelve royals of the castle deck with the cards in hand.",
)
