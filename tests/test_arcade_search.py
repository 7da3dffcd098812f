"""Throne Arcade ``search`` strategy: its determinizations deal exactly the cards the seat
cannot see (keeping its own hand, the pile and every public count), it is
information-fair (the same answer whatever the hidden cards are), and both engines play
the same games with it in any seat."""
import numpy as np

from simcore.arcade import kernel as K
from simcore.arcade import model as M
from simcore.rng import new_state
from strategies.arcade.bind import play_range
from strategies.arcade.search import determinize, search_decide, tables_from_obs

RULES = M.load_rules()
RV = M.rules_vector(RULES)
T = M.build_tables(M.load_deck(), RULES)


def midgame(seed, turns):
    """A 4-player game (greedy-ish: first lay, else draw) stopped after ``turns`` turns."""
    S = np.zeros(M.S_LEN, np.int64)
    mv = np.zeros(M.MAX_MOVES, np.int64)
    rng = new_state(seed, 0, M.DOMAIN)
    ph, n = K.start_nb(S, 4, RV, T, rng, mv)
    for _ in range(turns):
        ph, n = K.apply_nb(S, ph, mv[n - 1], RV, T, rng, mv)
    return S, mv[:n].copy(), n


def test_tables_rebuilt_from_the_observation_equal_the_kernels():
    S, _, _ = midgame(1, 3)
    obs = np.zeros(M.S_LEN, np.int64)
    K.observe_nb(S, obs, S[M.O_CUR], T)
    assert np.array_equal(tables_from_obs(obs), T)


def test_determinization_deals_only_the_hidden_cards():
    for seed in range(20):
        S, _, _ = midgame(seed, 7 + seed)
        me = S[M.O_CUR]
        obs = np.zeros(M.S_LEN, np.int64)
        K.observe_nb(S, obs, me, T)
        D = np.zeros(M.S_LEN, np.int64)
        determinize(obs, D, new_state(seed, 1, 99), np.zeros(32, np.int64))
        # public parts and own hand unchanged
        for i in range(M.S_LEN):
            if not (M.O_DRAW <= i < M.O_DRAW + M.MAX_CARDS) and not (M.O_HAND <= i < M.O_HAND + M.MAX_PLAYERS):
                assert D[i] == S[i], i
        assert D[M.O_HAND + me] == S[M.O_HAND + me]
        # every card exactly once; every hand has its public size; the draw pile its size
        seen = [int(D[M.O_TOP])] + [c for c in range(32) if D[M.O_DISC] >> c & 1]
        for q in range(4):
            h = [c for c in range(32) if D[M.O_HAND + q] >> c & 1]
            assert len(h) == S[M.O_HAND_N + q]
            seen += h
        seen += list(D[M.O_DRAW:M.O_DRAW + D[M.O_DRAW_N]])
        assert sorted(seen) == list(range(32)) and D[M.O_DRAW_N] == S[M.O_DRAW_N]


def test_search_sees_only_its_observation():
    """Two worlds differing only in hidden cards give the same observation, hence the same move."""
    for seed in range(6):
        S, moves, n = midgame(seed, 11)
        if n < 2:
            continue
        me = S[M.O_CUR]
        S2 = S.copy()
        others = [q for q in range(4) if q != me and S[M.O_HAND_N + q] > 0]
        # swap one hidden card between two other hands (sizes kept)
        a, b = others[0], others[-1]
        if a != b:
            ca = S2[M.O_HAND + a] & -S2[M.O_HAND + a]
            cb = S2[M.O_HAND + b] & -S2[M.O_HAND + b]
            S2[M.O_HAND + a] ^= ca | cb
            S2[M.O_HAND + b] ^= ca | cb
        o1, o2 = np.zeros(M.S_LEN, np.int64), np.zeros(M.S_LEN, np.int64)
        K.observe_nb(S, o1, me, T)
        K.observe_nb(S2, o2, me, T)
        assert np.array_equal(o1, o2)
        data = np.array([4.0])
        k1 = search_decide(M.PH_PLAY, o1, moves, n, RV, data, new_state(3, seed, 7))
        k2 = search_decide(M.PH_PLAY, o2, moves, n, RV, data, new_state(3, seed, 7))
        assert k1 == k2 and 0 <= k1 < n


def test_search_in_any_seat_matches_in_both_engines():
    lineups = [["search", "greedy", "defensive"], ["random", "greedy", "search", "greedy"]]
    lineups += [["greedy"] * (p - 1) + ["search"] for p in (2, 3, 4, 5, 6)] + [["search"] * 2]
    for i, seats in enumerate(lineups):
        budget = "2" if i < 2 else "1"
        k = play_range(0, 6, 4 + i, len(seats), seats, params=budget, keep_states=True)
        r = play_range(0, 6, 4 + i, len(seats), seats, params=budget, engine="reference", keep_states=True)
        for f in k:
            assert np.array_equal(k[f], r[f]), (seats, f)
