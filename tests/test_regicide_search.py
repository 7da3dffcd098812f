"""The search strategy's parts: determinizations respect the information set and conserve
the cards; candidate discard sets are the minimal ones."""
import numpy as np
import pytest

from simcore.regicide import model as M
from simcore.regicide import reference as ref
from simcore.regicide.model import JESTER, NONE, PH_DISCARD, PH_DONE
from strategies.regicide.bind import reference_decider
from strategies.regicide.search import candidates_nb, determinize_nb

RULES = M.load_rules()
RV = M.rules_vector(RULES)


def midgame_states(players, seed, games=6):
    """Observations met while the heuristic plays a few games (reference engine)."""
    decide, _ = reference_decider("heuristic")
    data = np.zeros(1)
    out = []
    for i in range(games):
        g = ref.Game(players, RULES, seed, i)
        moves = g.begin_turn()
        buf = np.zeros(M.MAX_MOVES, np.int64)
        step = 0
        while g.phase != PH_DONE:
            if step % 5 == 0:
                out.append((g.vector(), g.observation(False), g.phase, list(moves)))
            buf[:len(moves)] = moves
            k = int(decide(g.phase, g.observation(False), buf, len(moves), RV, data, g.srng))
            mv = moves[k]
            moves = g.apply_play(mv) if g.phase == 1 else g.apply_discard(mv) if g.phase == 2 else g.apply_jester(mv)
            step += 1
    return out


def cards_in_play(S):
    cs = []
    for p in range(S[M.O_P]):
        cs += list(S[M.O_HANDS + p * 8:M.O_HANDS + p * 8 + S[M.O_HAND_N + p]])
    for off_n, off in ((M.O_TAV_N, M.O_TAV), (M.O_DISC_N, M.O_DISC), (M.O_PLAYED_N, M.O_PLAYED)):
        cs += list(S[off:off + S[off_n]])
    cs += list(S[M.O_CASTLE + S[M.O_ENEMY]:M.O_CASTLE + 12])
    return sorted(cs)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_determinization_conserves_cards_and_keeps_what_is_seen(players):
    ps = np.array([12345, 0], np.uint64)
    seen = np.zeros(53, np.int64)
    pool = np.zeros(64, np.int64)
    D = np.zeros(M.S_LEN, np.int64)
    states = midgame_states(players, seed=17 + players)
    assert len(states) > 10
    differs = 0
    for S, obs, phase, moves in states:
        determinize_nb(obs, D, RV, ps, seen, pool)
        assert cards_in_play(D) == cards_in_play(S)           # same cards, none invented or lost
        known = obs != NONE
        assert (D[known] == obs[known]).all()                 # what the seat sees is kept
        # castle groups keep their ranks
        assert [c // 4 + 1 for c in D[M.O_CASTLE:M.O_CASTLE + 12]] == [11] * 4 + [12] * 4 + [13] * 4
        differs += int(not np.array_equal(D, S))
        full = S.copy()
        determinize_nb(full, D, RV, ps, seen, pool)           # perfect information: nothing to sample
        assert np.array_equal(D, full)
    assert differs > len(states) // 2  # hidden cards are really resampled


def test_candidates_are_minimal_discard_sets():
    h = [M.parse_card(c) for c in ("3H", "5S", "AC", "JESTER", "10D")]
    S = np.full(M.S_LEN, NONE, np.int64)
    S[:M.O_CASTLE] = 0
    S[M.O_P], S[M.O_CUR], S[M.O_HAND_N], S[M.O_PENDING] = 1, 0, len(h), 6
    S[M.O_HANDS:M.O_HANDS + len(h)] = h
    moves = np.array(ref.legal_discard_masks(h, 6, RULES) + [0] * 10, np.int64)
    n = len(ref.legal_discard_masks(h, 6, RULES))
    cand = np.zeros(M.MAX_MOVES, np.int64)
    m = candidates_nb(PH_DISCARD, S, moves, n, RV, cand)
    got = sorted(int(moves[k]) for k in cand[:m])
    assert got == sorted(ref.minimal_discard_masks(h, 6, RULES))
    assert JESTER in h and all(not (mk >> 3) & 1 for mk in got)  # a Jester never helps a discard
