"""The duel's optimal strategy: its value DP against brute force, and its compiled
keep/choose functions against the DP."""
from __future__ import annotations

import itertools
from functools import lru_cache

import numpy as np
import pytest

from analysis.stats import wilson
from simcore.dice import parse_die
from simcore.duel.model import load_setup
from simcore.duel.state import S_CP, S_HERO, S_SIZE
from simcore.odds.duel import choose_ability, end_ability_table
from simcore.odds.space import DiceSpace
from simcore.odds.value import end_distribution, value_dp
from simcore.rng import below_py, new_state
from strategies.duel.optimal import OPTIMAL, ability_values, check_weights, plans
from simcore.errors import PlaytestError


@pytest.fixture(scope="module")
def setup():
    return load_setup()


@pytest.fixture(scope="module")
def data(setup):
    return OPTIMAL.make_data(setup)


@pytest.fixture(scope="module")
def hero_plans(setup):
    return plans(setup)


# --------------------------------------------------------------- DP vs brute force
def test_value_dp_matches_brute_force():
    die = parse_die("1:a,2:a,3:b,4:b,5:c,6:c")
    n, rolls, bmax, cost = 3, 2, 2, 0.8
    space = DiceSpace.build([die] * n, collapse=False)
    rng = np.random.default_rng(5)
    # end value of a hand: an arbitrary function of its multiset
    table = {tuple(h): float(v) for h, v in zip(space.hands.tolist(), rng.uniform(0, 10, space.n_hands))}

    def endval_of(hand):  # ordered faces -> value
        c = [0] * 6
        for f in hand:
            c[f] += 1
        return table[tuple(c)]

    endval = np.array([table[tuple(h)] for h in space.hands.tolist()])
    V, best, start = value_dp(space, endval, rolls, bmax, cost)

    @lru_cache(maxsize=None)
    def val(hand, f, b):  # ordered dice, after a roll
        v = endval_of(hand)
        if f == 0 and b == 0:
            return v
        pay = 0.0 if f > 0 else cost
        nf, nb = (f - 1, b) if f > 0 else (0, b - 1)
        for mask in range((1 << n) - 1):  # every strict keep
            free = [i for i in range(n) if not mask >> i & 1]
            tot = 0.0
            for o in itertools.product(range(6), repeat=len(free)):
                new = list(hand)
                for i, x in zip(free, o):
                    new[i] = x
                tot += val(tuple(new), nf, nb)
            v = max(v, tot / 6 ** len(free) - pay)
        return v

    for b in range(bmax + 1):
        brute = np.mean([val(h, rolls - 1, b) for h in itertools.product(range(6), repeat=n)])
        assert start[b] == pytest.approx(brute, abs=1e-9)
        for f in range(rolls):
            for hi, counts in enumerate(space.hands.tolist()):
                hand = tuple(x for x in range(6) for _ in range(counts[x]))
                assert V[f, b, hi] == pytest.approx(val(hand, f, b), abs=1e-9)


def test_end_distribution_is_consistent(hero_plans, setup):
    cost = check_weights(None)["roll_cp"] * setup.rules["roll_cost"]
    for p in hero_plans:
        for b in range(p.best.shape[1]):
            end, bought = end_distribution(p.space, p.best, p.rolls, b)
            assert end.sum() == pytest.approx(1.0, abs=1e-12)
            # expected end value minus the CP spent = the DP's value of the roll phase
            assert (end * p.endval).sum() - cost * bought == pytest.approx(p.start[b], abs=1e-9)
        # more affordable rolls never lower the value
        assert np.all(np.diff(p.start) >= -1e-12)


# --------------------------------------------------------------- keep/choose vs DP
def _state(h, cp):
    st = np.zeros(S_SIZE, np.int64)
    st[S_HERO] = h
    st[S_HERO + 1] = (h + 1) % 4
    st[S_CP] = cp
    return st


def test_keep_follows_the_dp(setup, data, hero_plans):
    tb, rules = setup.tables, setup.rules_vec
    R, cost = setup.rules["rolls"], setup.rules["roll_cost"]
    wcost = check_weights(None)["roll_cp"] * cost
    rng = np.random.default_rng(1)
    faces = np.zeros(6, np.int64)
    st_rng = new_state(0, 0, 0)
    for h, p in enumerate(hero_plans):
        M = p.space.matrix
        for hand in range(p.space.n_hands):
            dice = [f for f in range(6) for _ in range(p.space.hands[hand, f])]
            rng.shuffle(dice)
            faces[:5] = dice
            for rolls_done, cp in ((1, 0), (2, 5), (3, 0), (3, 4), (4, 15), (5, 2)):
                free_left = max(0, R - rolls_done)
                bought = max(0, rolls_done - R)
                b = max(0, min(cp // cost, setup.rules["max_bought_rolls"] - bought, p.best.shape[1] - 1))
                mask = OPTIMAL.keep(faces, 5, rolls_done, free_left, 0, _state(h, cp), tb, rules, data, st_rng)
                kept = np.bincount([dice[i] for i in range(5) if mask >> i & 1], minlength=6)
                k = p.space.keep_index[tuple(kept)]
                assert k == p.best[free_left, b, hand]
                # the kept dice are the lowest-index dice showing each kept face
                for f in range(6):
                    idx = [i for i in range(5) if dice[i] == f]
                    assert all(mask >> i & 1 for i in idx[:kept[f]])
                # its value is the DP's value
                if mask == 31:
                    v = p.endval[hand]
                elif free_left > 0:
                    v = (M @ p.V[free_left - 1, b])[k]
                else:
                    assert b > 0  # never asks to buy what it cannot afford
                    v = (M @ p.V[0, b - 1])[k] - wcost
                assert v == pytest.approx(p.V[free_left, b, hand], abs=1e-9)


def test_choose_takes_the_most_valuable_legal_ability(setup, data, hero_plans):
    tb, rules = setup.tables, setup.rules_vec
    values = ability_values(setup)
    faces = np.zeros(6, np.int64)
    st_rng = new_state(0, 0, 0)
    for h, p in enumerate(hero_plans):
        choice, _ = choose_ability(values[h], p.tiers)
        for hand in range(p.space.n_hands):
            legal = np.full(tb.n_tier.shape[1], -1, np.int64)
            legal[: p.tiers.shape[1]] = p.tiers[hand]
            c = OPTIMAL.choose(faces, 5, legal, 0, _state(h, 0), tb, rules, data, st_rng)
            assert c == choice[hand]
            if c >= 0:
                assert values[h, c, legal[c]] == max(values[h, a, legal[a]] for a in range(len(legal)) if legal[a] >= 0)


def test_bad_weight(setup):
    with pytest.raises(PlaytestError, match="unknown weight 'dmg'"):
        ability_values(setup, {"dmg": 1.0})


def test_end_ability_distribution_matches_simulation(setup, data, hero_plans):
    """Roll phases played with the compiled keep/choose (CP for 2 bought rolls) end with
    each ability at rates within the 99.9% interval of the exact distribution."""
    tb, rules = setup.tables, setup.rules_vec
    R, cost = setup.rules["rolls"], setup.rules["roll_cost"]
    h, n = 1, 4000
    p = hero_plans[h]
    exact = end_ability_table(p, bought=[2]).iloc[0]
    counts = np.zeros(len(p.hero.abilities) + 1, np.int64)
    faces = np.zeros(6, np.int64)
    for i in range(n):
        st = _state(h, 2 * cost)
        rng = new_state(77, i, 0x0DD5)
        for d in range(5):
            faces[d] = below_py(rng, 6)
        rolls_done = 1
        while True:
            free_left = max(0, R - rolls_done)
            mask = OPTIMAL.keep(faces, 5, rolls_done, free_left, 0, st, tb, rules, data, rng)
            if mask == 31:
                break
            if free_left == 0:
                assert st[S_CP] >= cost
                st[S_CP] -= cost
            for d in range(5):
                if not mask >> d & 1:
                    faces[d] = below_py(rng, 6)
            rolls_done += 1
        counts_v = np.bincount(faces[:5], minlength=6)
        legal = np.full(tb.n_tier.shape[1], -1, np.int64)
        legal[: p.tiers.shape[1]] = p.tiers[p.space.hand_index[tuple(counts_v)]]
        c = OPTIMAL.choose(faces, 5, legal, 0, st, tb, rules, data, rng)
        counts[c] += 1  # -1 = none (last slot)
    names = [a.name for a in p.hero.abilities] + ["(none)"]
    for j, name in enumerate(names):
        lo, hi = wilson(int(counts[j]), n, 0.999)
        assert lo <= exact[name] <= hi, (name, counts[j] / n, exact[name])


def test_optimal_plays_the_same_games_in_kernel_and_reference_engine(setup):
    from strategies.duel.bind import simulate

    k = simulate(setup, 1, 2, OPTIMAL, 12, seed=3)
    r = simulate(setup, 1, 2, OPTIMAL, 12, seed=3, engine="reference")
    for key in r:
        assert np.array_equal(k[key], r[key]), key
    assert k["bought"].sum() > 0  # it does buy rolls when they pay
