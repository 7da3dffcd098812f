"""Legal moves: hand-enumerated small hands, and the compiled generator against the
readable one on random hands."""
import numpy as np
import pytest

from simcore import rng as R
from simcore.regicide import kernel as E
from simcore.regicide import model as M
from simcore.regicide import reference as ref
from simcore.regicide.model import FLIP, JESTER, YIELD, parse_card

RULES = M.load_rules()
RV = M.rules_vector(RULES)


def hand(*names):
    return [parse_card(n) for n in names]


def names(h, mask):
    return tuple(M.card_name(h[i]) for i in ref.positions(mask))


def kernel_state(h, players=1, pending=0, flips=0, yielded=(0, 0, 0, 0), rules=RULES):
    S = np.full(M.S_LEN, M.NONE, np.int64)
    S[:M.O_CASTLE] = 0
    S[M.O_HANDS:M.O_CASTLE] = M.NONE
    S[M.O_P] = players
    S[M.O_MAXH] = rules[f"hand_size_{players}"]
    S[M.O_CUR] = 0
    S[M.O_FLIPS] = flips
    S[M.O_PENDING] = pending
    for p in range(4):
        S[M.O_YIELDED + p] = yielded[p]
    for p in range(players):
        S[M.O_HAND_N + p] = len(h) if p == 0 else 1
    S[M.O_HANDS:M.O_HANDS + len(h)] = h
    for p in range(1, players):
        S[M.O_HANDS + p * M.MAX_HAND] = parse_card("2H")
    S[M.O_CASTLE:M.O_CASTLE + 12] = [M.card(r, s) for r in (11, 12, 13) for s in range(4)]
    return S


def kernel_plays(h, rules_vec=RV, **kw):
    S = kernel_state(h, **kw)
    moves = np.zeros(M.MAX_MOVES, np.int64)
    n = E.play_moves_nb(S, rules_vec, moves)
    return list(moves[:n])


def kernel_discards(h, need, flips=0):
    S = kernel_state(h, pending=need, flips=flips)
    moves = np.zeros(M.MAX_MOVES, np.int64)
    n = E.discard_moves_nb(S, RV, moves)
    return list(moves[:n])


def test_small_hand_by_hand():
    h = hand("2H", "2S", "AC", "5D", "JESTER")
    sets = {names(h, ref.mask_of(idx)) for idx in ref.legal_play_sets(h, RULES)}
    expected = {
        ("2H",), ("2S",), ("AC",), ("5D",), ("Jester",),      # singles
        ("2H", "2S"),                                         # pair of 2s (total 4)
        ("2H", "AC"), ("2S", "AC"), ("AC", "5D"),             # Ace with one other card
    }
    assert sets == expected
    # the kernel lists the same sets, by mask, then yield (solo default allows it)
    masks = kernel_plays(h)
    assert masks[-1] == YIELD
    assert {names(h, m) for m in masks[:-1]} == expected
    assert masks[:-1] == sorted(masks[:-1])


def test_combos_and_limits():
    h = hand("5H", "5S", "5C", "3H", "3D", "3C", "3S", "AD", "AH")[:8]
    sets = {names(h, ref.mask_of(idx)) for idx in ref.legal_play_sets(h, RULES)}
    assert ("5H", "5S") in sets and ("5H", "5C") in sets
    assert ("5H", "5S", "5C") not in sets             # 15 > 10
    assert ("3H", "3D", "3C") in sets                 # 9 <= 10
    assert ("3H", "3D", "3C", "3S") not in sets       # 12 > 10
    assert ("3H", "AD") in sets and ("5H", "AD") in sets
    assert not any(len(s) == 3 and "AD" in s for s in sets)  # an Ace pairs with ONE card
    h2 = hand("2H", "2D", "2C", "2S", "AH", "AS")
    sets2 = {names(h2, ref.mask_of(idx)) for idx in ref.legal_play_sets(h2, RULES)}
    assert ("2H", "2D", "2C", "2S") in sets2           # four 2s = 8
    assert ("AH", "AS") in sets2                       # two Aces pair
    assert ("2H", "2D", "AH") not in sets2
    # every combo size/total rule: count the sets by size
    by_size = {k: sum(1 for s in sets2 if len(s) == k) for k in (1, 2, 3, 4)}
    # pairs: C(4,2)=6 pairs of 2s + Ace pairs: 2 Aces x 4 twos + the Ace pair = 9
    assert by_size == {1: 6, 2: 15, 3: 4, 4: 1}


def test_jester_alone_and_enemies_in_hand():
    h = hand("JESTER", "AH", "JD", "QS")
    sets = {names(h, ref.mask_of(idx)) for idx in ref.legal_play_sets(h, RULES)}
    assert ("Jester", "AH") not in sets                # Jester only alone
    assert ("AH", "JD") in sets and ("AH", "QS") in sets  # a companion may pair with an enemy card
    assert ("JD", "QS") not in sets
    assert ref.value(parse_card("JD"), RULES) == 10 and ref.value(parse_card("QS"), RULES) == 15
    assert ref.value(parse_card("KC"), RULES) == 20 and ref.value(JESTER, RULES) == 0


def test_options_change_moves():
    h = hand("AH", "4S", "4D", "6C", "6D")
    no_comp = dict(RULES, companions=False, combo_max_total=12)
    sets = {names(h, ref.mask_of(idx)) for idx in ref.legal_play_sets(h, no_comp)}
    assert ("AH", "4S") not in sets and ("6C", "6D") in sets
    masks = kernel_plays(h, rules_vec=M.rules_vector(no_comp))
    assert {names(h, m) for m in masks if m < 256} == sets


def test_yield_and_flip_moves():
    h = hand("7H", "8S")
    assert kernel_plays(h)[-1] == YIELD                                   # solo Decision: allowed
    no_solo_yield = M.rules_vector(dict(RULES, solo_yield_allowed=False))
    assert YIELD not in kernel_plays(h, rules_vec=no_solo_yield)
    assert kernel_plays(h, flips=2)[-2:] == [YIELD, FLIP]
    # multiplayer: no yield if every other player yielded on their last turn
    assert YIELD not in kernel_plays(h, players=3, yielded=(0, 1, 1, 0))
    assert YIELD in kernel_plays(h, players=3, yielded=(0, 1, 0, 0))
    assert YIELD in kernel_plays(h, players=3, yielded=(1, 0, 0, 0))
    no_restr = M.rules_vector(dict(RULES, yield_restriction=False))
    assert YIELD in kernel_plays(h, rules_vec=no_restr, players=2, yielded=(0, 1, 0, 0))
    # an empty hand with no yield and no flip: no legal move at all
    assert kernel_plays([], rules_vec=no_solo_yield) == []


def test_discard_sets_by_hand():
    h = hand("3H", "5S", "AC", "JESTER")
    got = {names(h, m) for m in ref.legal_discard_masks(h, 6, RULES)}
    # values 3, 5, 1, 0: every subset with total >= 6
    expected = {("3H", "5S"), ("5S", "AC"), ("3H", "5S", "AC"), ("3H", "5S", "Jester"),
                ("5S", "AC", "Jester"), ("3H", "5S", "AC", "Jester")}
    assert got == expected
    minimal = {names(h, m) for m in ref.minimal_discard_masks(h, 6, RULES)}
    assert minimal == {("3H", "5S"), ("5S", "AC")}
    assert ref.legal_discard_masks(h, 10, RULES) == []        # 9 < 10: cannot cover
    assert ref.legal_discard_masks(h, 0, RULES) == [0]        # nothing to suffer
    assert kernel_discards(h, 6) == ref.legal_discard_masks(h, 6, RULES)
    assert kernel_discards(h, 10) == []
    assert kernel_discards(h, 10, flips=1) == [FLIP]


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_generators_agree_on_random_hands(players):
    st = R.new_state(99, players, 7)
    pool = list(range(52)) + [JESTER, JESTER]
    for trial in range(150):
        n = R.below_py(st, 9)
        cards = pool[:]
        for i in range(len(cards) - 1, 0, -1):
            j = R.below_py(st, i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        h = cards[:n]
        want = [ref.mask_of(idx) for idx in ref.legal_play_sets(h, RULES)] + [YIELD]
        if players > 1:
            got = kernel_plays(h, players=players)
        else:
            got = kernel_plays(h)
        assert got == want, (h, got, want)
        need = R.below_py(st, 30)
        assert kernel_discards(h, need) == ref.legal_discard_masks(h, need, RULES)


def test_generator_matches_brute_force_predicate():
    """The fast generator against a brute-force scan of all masks with the legality predicate."""
    st = R.new_state(3, 0, 11)
    for trial in range(200):
        cards = list(range(52)) + [JESTER] * 2
        for i in range(len(cards) - 1, 0, -1):
            j = R.below_py(st, i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        # bias towards low ranks so that combos are frequent
        h = sorted(cards[:20], key=lambda c: (c // 4) if c != JESTER else 3)[:1 + R.below_py(st, 8)]
        S = kernel_state(h)
        brute = [m for m in range(1, 1 << len(h)) if E.is_legal_set_nb(S, 0, m, RV)]
        assert kernel_plays(h)[:-1] == brute
