"""Any strategy in any seat: a player that always passes against every built-in, in both
seat orders, through the shared game interface.

Reasoned exactly: the Light Guardian's defence has no strike-back symbol, so a Light
Guardian that never attacks never costs its opponent a single HP (no damage, no wounds):
it can never win. Every game it does not lose must have been ended by the turn cap."""
import numpy as np
import pytest

from simcore.duel.model import find_hero
from simcore.game import get_game

API = get_game("duel")
RULES = API.load_rules()
HEROES = API.load_content(RULES)
SETUP = API.make_setup(RULES, HEROES, 2)
LIGHT = find_hero(HEROES, "light")
PASSER = "passing_duel_strategy:passer"


def test_the_light_guardian_has_no_strike_back():
    assert all(effects.get("strike", 0) == 0 for effects in HEROES[LIGHT].defence.values())


@pytest.mark.parametrize("other", ["random", "greedy", "optimal"])
def test_a_player_that_always_passes_never_wins(other):
    for opp in range(len(HEROES)):
        for seat in (0, 1):
            lineup = (LIGHT, opp) if seat == 0 else (opp, LIGHT)
            specs = (PASSER, other) if seat == 0 else (other, PASSER)
            rec = API.play(0, 300, 4, SETUP, lineup, specs)
            assert not (rec["winner"] == seat).any(), (other, opp, seat)
            not_lost = rec["winner"] != 1 - seat
            assert (rec["capped"][not_lost]).all(), (other, opp, seat)
            # and the passer really sat there: its seat never used an ability
            assert rec["abilities"][:, seat].sum() == 0
            assert rec["abilities"][:, 1 - seat].sum() > 0
