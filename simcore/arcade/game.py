"""Throne Arcade, declared once (``simcore/game.py``)."""
from ..game import GameType

GAME = GameType(
    name="arcade",
    title="Throne Arcade",
    kind="symmetric",
    min_seats=2, max_seats=6, default_seats=4,
    entrants="seats",
    chance="sampled",
    information="imperfect",
    utility="zero_sum",
    score="cards shed (fewer cards in hand leads; -100 per lost round, eliminated seats last)",
    default_strategy="greedy",
    api="strategies.arcade.bind:API",
    package="simcore.arcade",
    description="2-6 players shed their cards round after round; the loser of a round is dealt one card "
                "fewer, and loses the game by losing a round started with one card.",
)
