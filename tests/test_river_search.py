"""The river ``search`` strategy: its deals of the hidden cards are consistent with what
the deciding seat sees, its games are the same in both engines, and it answers in both
roles with a budget given as a parameter."""
import numpy as np

from river_helpers import TABLES, position
from simcore.river import kernel as K
from simcore.river import model as M
from simcore.rng import new_state
from strategies.river.bind import play_range
from strategies.river.search import determinize_nb


def test_deal_uses_exactly_the_unseen_cards_and_keeps_sizes():
    S = position(sides={(2, 0): "r5 r6", (2, 1): "y9"}, hands=("r1 y1 g1", "b1 p1 r2 g7"),
                 deck="p5 p6 b2 b3 g4", disc="y4 y5")
    for seat in (0, 1):
        obs = np.zeros_like(S)
        K.observe_nb(S, obs, seat, TABLES)
        out = np.zeros_like(S)
        pool = np.zeros(96, np.int64)
        determinize_nb(obs, out, seat, TABLES, new_state(1, seat, 7), pool)
        opp = 1 - seat
        b = M.O_HAND + opp * M.MAX_HAND
        dealt = list(out[b:b + S[M.O_HAND_N + opp]]) + list(out[M.O_DECK:M.O_DECK + S[M.O_DECK_N]])
        unseen = K.unseen_nb(obs, seat, TABLES)
        # every dealt card is unseen by the seat, none twice, sizes as observed
        assert len(set(dealt)) == len(dealt) and all(unseen >> c & 1 for c in dealt)
        assert out[M.O_HAND_N + opp] == S[M.O_HAND_N + opp] and out[M.O_DECK_N] == S[M.O_DECK_N]
        # what the seat sees is untouched
        mine = M.O_HAND + seat * M.MAX_HAND
        assert np.array_equal(out[mine:mine + M.MAX_HAND], S[mine:mine + M.MAX_HAND])
        assert np.array_equal(out[M.O_SIDE:M.O_DONE], S[M.O_SIDE:M.O_DONE])


def test_search_games_equal_in_both_engines_in_both_roles():
    for a, d in (("search", "heuristic"), ("random", "search")):
        k = play_range(0, 2, 13, attacker=a, defender=d, params="1", keep_states=True)
        r = play_range(0, 2, 13, attacker=a, defender=d, params="1", keep_states=True, engine="reference")
        for f in list(M.RECORD_FIELDS) + ["final_state"]:
            assert np.array_equal(k[f], r[f]), f
        assert (k["capped"] == 0).all()
