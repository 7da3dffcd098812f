"""The exact control proof: the fast best-completion key (kernel ``best_key_nb`` and the
reference's ``best_completion_key``) equals brute-force enumeration of every completion,
on thousands of random partial formations and pools over every tile rule and size, and
the kernel's claim decisions equal a brute-force claim decision on positions from real
games (tile restrictions, damaged sides and both tie options included)."""
import numpy as np
import pytest

from river_helpers import TABLES
from simcore.river import kernel as K
from simcore.river import model as M
from simcore.river import reference as ref
from simcore.river.formations import best_key_nb, brute_best_key_nb, key_nb
from simcore.rng import new_state
from strategies.river.bind import SID_HEURISTIC, SID_RANDOM, decide_builtin


def random_case(rng):
    """A partial formation (often structured: one colour, one value, a run) and a pool."""
    n = int(rng.integers(2, 5))
    k = int(rng.integers(0, n + 1))
    mode = int(rng.integers(0, 6))
    kind = rng.integers(0, 4)
    if kind == 0 or k == 0:
        cards = rng.choice(60, k, replace=False)
    elif kind == 1:                                  # one colour
        cards = int(rng.integers(5)) * 12 + rng.choice(12, k, replace=False)
    elif kind == 2:                                  # one value
        cards = rng.choice(5, k, replace=False) * 12 + int(rng.integers(12))
    else:                                            # consecutive values, mixed colours
        lo = int(rng.integers(0, 12 - k + 1))
        cards = rng.integers(0, 5, k) * 12 + np.arange(lo, lo + k)
    cards = np.array(cards, np.int64)
    rest = np.setdiff1d(np.arange(60), cards)
    size = int(rng.integers(0, 24)) if rng.random() < 0.8 else int(rng.integers(0, 4))
    pool = 0
    for x in rng.choice(rest, min(size, len(rest)), replace=False):
        pool |= 1 << int(x)
    return cards, k, n, mode, pool


def test_fast_best_key_equals_brute_force_on_random_cases():
    rng = np.random.default_rng(2026)
    seen_modes = set()
    for _ in range(6000):
        cards, k, n, mode, pool = random_case(rng)
        fast = best_key_nb(cards, 0, k, n, mode, pool)
        brute = brute_best_key_nb(cards, 0, k, n, mode, pool)
        assert fast == brute, (cards.tolist(), k, n, mode, hex(pool), fast, brute)
        seen_modes.add((mode, n))
    assert len(seen_modes) == 18          # every tile rule at every size 2..4


def test_reference_best_completion_equals_its_brute_force_and_the_kernel():
    rng = np.random.default_rng(7)
    for _ in range(800):
        cards, k, n, mode, pool = random_case(rng)
        pool_set = {b for b in range(60) if pool >> b & 1}
        if len(pool_set) > 14:
            continue
        a = ref.best_completion_key(list(cards), n, mode, pool_set)
        b = ref.brute_completion_key(list(cards), n, mode, pool_set)
        assert a == b, (cards.tolist(), n, mode, sorted(pool_set))
        assert (a if a is not None else -1) == best_key_nb(cards, 0, k, n, mode, pool)


def test_formation_keys_rank_as_the_digest():
    def key(text, mode, n=3):
        from river_helpers import cs
        return key_nb(np.array(cs(text), np.int64), 0, n, mode)
    # all formations: colour run > same strength > colour > run > sum; then the higher sum
    order = ["r1 r2 r3", "r9 y9 g9", "b1 b5 b11", "r9 y10 g11", "r11 y11 g10"]
    keys = [key(t, M.M_ALL) for t in order]
    assert keys[0] > keys[1] > keys[2] > keys[3] > keys[4]
    assert key("r4 r5 r6", M.M_ALL) > key("y1 y2 y3", M.M_ALL)
    # sum only: the colour run 1-2-3 is just 6
    assert key("r1 r2 r3", M.M_SUM) < key("r11 y10 g9", M.M_SUM)
    # lowest: lower sum is stronger
    assert key("r0 y1 g2", M.M_LOW) > key("r1 y1 g2", M.M_LOW)
    # runs and sum: a colour run is a run; colour alone is a sum
    assert key("r1 r2 r3", M.M_RUNS) == key("r1 y2 g3", M.M_RUNS)
    assert key("b1 b5 b11", M.M_RUNS) < key("r1 y2 g3", M.M_RUNS)
    # colour and sum: a colour run is a colour; a run alone is a sum
    assert key("r1 r2 r3", M.M_COLOUR) == key("r1 r3 r2", M.M_COLOUR)
    assert key("r9 y10 g11", M.M_COLOUR) < key("b1 b2 b4", M.M_COLOUR)
    # same strength and sum
    assert key("r1 y1", M.M_SAME, 2) > key("r11 y10", M.M_SAME, 2)


def brute_may_claim(S, pos, rules):
    """The digest's control rule by enumeration: every completion of the defender's side
    with cards the attacker has not seen (computed here from the full state: the pile and
    the defender's hand)."""
    n = K.tile_n_nb(S, pos, TABLES)
    mode = K.tile_mode_nb(S, pos, TABLES)
    st = S[M.O_TSTATE + pos]
    if st == 2 or (st == 1 and not rules["destroy_wins"]):
        return False
    a = S[K.side_off(pos, 0):K.side_off(pos, 0) + S[M.O_SIDE_N + pos * 2]]
    d = S[K.side_off(pos, 1):K.side_off(pos, 1) + S[M.O_SIDE_N + pos * 2 + 1]]
    if len(a) < n:
        return False
    ka = key_nb(a, 0, n, mode)
    if len(d) == n:
        kd = key_nb(d, 0, n, mode)
        return ka > kd or (ka == kd and rules["tie_rule"] == "first"
                           and S[M.O_DONE + pos * 2] < S[M.O_DONE + pos * 2 + 1])
    if not rules["claim_by_proof"]:
        return False
    pool = 0
    for x in S[M.O_DECK:M.O_DECK + S[M.O_DECK_N]]:
        pool |= 1 << int(x)
    for x in S[M.O_HAND + M.MAX_HAND:M.O_HAND + M.MAX_HAND + S[M.O_HAND_N + 1]]:
        if x < 60:
            pool |= 1 << int(x)
    # duck and beaver: the partner of a 0 or 11 on the attacker's side there would cancel
    # it instead of landing on the defender's side (digest: it completes nothing there)
    if rules["duck_beaver"]:
        duck, beaver = TABLES[M.TB_DUCK], TABLES[M.TB_BEAVER]
        for x in a:
            v = int(x) % M.VSTRIDE
            if v in (duck, beaver):
                pool &= ~(1 << (int(x) - v + (beaver if v == duck else duck)))
    best = brute_best_key_nb(np.array(d, np.int64), 0, len(d), n, mode, pool)
    if best < 0:
        return True
    # a completion still to come that only ties loses to the attacker, who completed first,
    # unless the defender holds every tie (defender_complete: only ties of complete sides)
    return best < ka or (best == ka and rules["tie_rule"] != "defender")


@pytest.mark.parametrize("overrides", [{}, {"tie_rule": "defender"}, {"tie_rule": "defender_complete"},
                                       {"shuffle_tiles": False}])
def test_kernel_claims_equal_brute_force_on_game_positions(overrides):
    """Heuristic (and some random) games; at every attacker decision every dam's claim legality is checked
    against enumeration over the true unseen cards (pile + defender's hand)."""
    rules = M.load_rules(overrides=overrides)
    rv = M.rules_vector(rules)
    checked = proven = 0
    complete_modes = set()
    for g in range(80):
        rng = new_state(11, g, M.DOMAIN)
        srng = new_state(11, g, M.STRATEGY_DOMAIN)
        S = np.zeros(M.S_LEN, np.int64)
        obs = np.zeros(M.S_LEN, np.int64)
        moves = np.zeros(M.MAX_MOVES, np.int64)
        phase, n = K.start_nb(S, 2, rv, TABLES, rng, moves)
        while phase != M.PH_DONE:
            if S[M.O_CUR] == 0:
                legal = set(int(x) for x in moves[:n] if x < M.MV_RETREAT)
                for pos in range(7):
                    want = brute_may_claim(S, pos, rules)
                    assert (M.MV_CLAIM + pos in legal) == want, (g, pos)
                    if S[M.O_SIDE_N + pos * 2] >= K.tile_n_nb(S, pos, TABLES):
                        checked += 1
                        proven += want and S[M.O_SIDE_N + pos * 2 + 1] < K.tile_n_nb(S, pos, TABLES)
                        complete_modes.add((int(S[M.O_TSTATE + pos]), K.tile_mode_nb(S, pos, TABLES)))
            K.observe_nb(S, obs, S[M.O_CUR], TABLES)
            # heuristic play (builds formations, claims, damages dams); one game in four random
            k = decide_builtin(SID_RANDOM if g % 4 == 3 else SID_HEURISTIC, phase, obs, moves, n, rv, TABLES, srng)
            phase, n = K.apply_nb(S, phase, moves[k], rv, TABLES, rng, moves)
    assert checked > 300 and proven > 20, (checked, proven)
    assert len(complete_modes) >= 7, complete_modes  # intact and damaged sides, several tile rules
