"""The dice duel, declared once (``simcore/game.py``)."""
from ..game import GameType

GAME = GameType(
    name="duel",
    title="The four-hero dice duel",
    kind="symmetric",
    min_seats=2, max_seats=2, default_seats=2,
    entrants="heroes",
    chance="sampled",
    information="perfect",
    utility="zero_sum",
    score="HP margin: each hero's HP after every turn (the leader has more HP)",
    default_strategy="greedy",
    api="strategies.duel.bind:API",
    package="simcore.duel",
    description="Two heroes, 30 HP each, roll five dice up to three times and attack; the first to 0 HP loses.",
)
