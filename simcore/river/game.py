"""The river battle, declared once (``simcore/game.py``)."""
from ..game import GameType

GAME = GameType(
    name="river",
    title="River battle (attacker vs defender at seven dams)",
    kind="asymmetric",
    min_seats=2, max_seats=2, default_seats=2,
    entrants="roles",
    roles=("attacker", "defender"),
    chance="sampled",
    information="imperfect",
    utility="zero_sum",
    score=("dams: the attacker's damage done (a damaged dam 1, a destroyed one 2) against the defender's "
           "clock, dams_to_win x the share of the battle pile drawn since the deal"),
    default_strategy="heuristic",
    api="strategies.river.bind:API",
    package="simcore.river",
    description=("An asymmetric siege card game (a re-theme of Schotten Totten 2): the attacker wins by "
                 "damaging four dams or destroying a damaged one, the defender by holding until the "
                 "battle pile runs out."),
)
