"""Dice Throne Season One (ReRolled, rulebook v2.2), declared once (``simcore/game.py``)."""
from ..game import GameType

GAME = GameType(
    name="dicethrone",
    title="Dice Throne Season One",
    kind="symmetric",
    min_seats=2, max_seats=6, default_seats=2,   # 4-6: the team and free-for-all modes (rule option mode)
    entrants="heroes",
    chance="sampled",
    information="imperfect",
    utility="zero_sum",
    score="health: each hero's health after every turn (the leader has more)",
    default_strategy="greedy",
    api="strategies.dicethrone.bind:API",
    package="simcore.dicethrone",
    description=("Two heroes, 50 health each, roll five dice up to three times, play cards and spend "
                 "tokens; the first knocked out loses (both at once: a draw)."),
)
