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


def test_rollout_value_ranks_every_win_above_every_loss_and_tells_margins_apart():
    from strategies.river.search import SHAPE, outcome_value_nb

    def final(winner, damaged, deck_left):
        S = np.zeros(M.S_LEN, np.int64)
        S[M.O_WINNER], S[M.O_DAMAGED], S[M.O_DECK_N], S[M.O_DECK0], S[M.O_DAMS] = winner, damaged, deck_left, 48, 4
        return S

    for seat in (0, 1):
        wins = [outcome_value_nb(final(seat, d, left), seat) for d in range(5) for left in (0, 20, 48)]
        losses = [outcome_value_nb(final(1 - seat, d, left), seat) for d in range(5) for left in (0, 20, 48)]
        assert min(wins) >= 1.0 and max(losses) <= SHAPE < 1.0
    # the attacker prefers a quicker win and, losing, more damage; the defender a win with
    # fewer dams damaged and, losing, a later loss
    assert outcome_value_nb(final(0, 4, 30), 0) > outcome_value_nb(final(0, 4, 5), 0)
    assert outcome_value_nb(final(1, 3, 0), 0) > outcome_value_nb(final(1, 1, 0), 0)
    assert outcome_value_nb(final(1, 1, 0), 1) > outcome_value_nb(final(1, 3, 0), 1)
    assert outcome_value_nb(final(0, 4, 2), 1) > outcome_value_nb(final(0, 4, 30), 1)


def test_search_answers_among_the_heuristics_best_plays():
    """In a play phase the search only weighs the heuristic's CANDIDATES best plays."""
    from simcore.rng import new_state
    from strategies.river.basic import heuristic_scored
    from strategies.river.search import CANDIDATES, search_decide

    rules = M.rules_vector(M.load_rules())
    data = np.concatenate([TABLES, [2]]).astype(np.int64)
    checked = 0
    for g in range(6):
        S = np.zeros(M.S_LEN, np.int64)
        moves = np.zeros(M.MAX_MOVES, np.int64)
        ph, n = K.start_nb(S, 2, rules, TABLES, new_state(3, g, M.DOMAIN), moves)
        rng = new_state(3, g, 99)
        for _ in range(12):
            obs = np.zeros_like(S)
            K.observe_nb(S, obs, S[M.O_CUR], TABLES)
            if ph in (M.PH_A_PLAY, M.PH_D_PLAY) and n > CANDIDATES:
                sc = np.full(n, -1e18)
                heuristic_scored(ph, obs, moves, n, rules, data, rng, sc)
                k = search_decide(ph, obs, moves, n, rules, data, rng)
                assert sc[k] >= np.sort(sc[:n])[-CANDIDATES]
                checked += 1
            k = heuristic_scored(ph, obs, moves, n, rules, data, rng, np.zeros(0))
            ph, n = K.apply_nb(S, ph, moves[k], rules, TABLES, rng, moves)
            if ph == M.PH_DONE:
                break
    assert checked >= 6
