"""The duel's ``optimal`` strategy: an exact dynamic program over the dice multisets.

For each hero, every final hand is worth the value of the best ability it allows
(``value = sum(weight[effect] * amount) + undefendable bonus``, weights below). An exact DP
over the 252 multisets of five dice (``simcore.odds.value``), the free rolls left and the
rolls the player can still buy, picks after every roll the kept sub-multiset maximising
the expected value at the end of the roll phase; a bought roll costs
``weights['roll_cp'] * roll_cost``, so the DP buys only when the expected gain pays for
the CP spent.

``keep`` maps the dice to their multiset, looks the best keep up and turns it into a bit
mask deterministically (the lowest-index dice showing each kept face); keeping every die
stops. ``choose`` takes the legal ability of highest value.
"""
from __future__ import annotations

import numba as nb
import numpy as np

from simcore.duel.model import EFFECTS
from simcore.duel.state import S_CP, S_HERO
from simcore.errors import PlaytestError
from strategies.duel.base import DuelStrategy

# Value of one unit of each effect (damage points, HP healed, CP gained, wounds, a daze,
# a shield token, CP stolen), a flat bonus for undefendable abilities, and the value
# of one CP spent on buying a roll.
DEFAULT_WEIGHTS = {
    "damage": 1.0,      # one HP off the opponent
    "heal": 0.7,        # healing is capped at 30 HP, so worth a little less than damage
    "cp": 0.5,          # a CP buys half a roll
    "wounds": 2.5,      # 1 HP per opponent turn for the rest of the game (a few turns)
    "daze": 5.0,        # the opponent loses a whole turn (about one average attack)
    "shield": 2.0,      # absorbs up to 3 damage once
    "steal": 1.0,       # the opponent loses a CP and we gain it
    "undefendable": 2.5,  # no defence roll: no shields, no strike-back (about one shield)
    "roll_cp": 0.5,     # cost of one CP spent on a bought roll (same as a CP gained)
}
WEIGHT_KEYS = tuple(DEFAULT_WEIGHTS)

# indices in the int64 parameter vector of the data
P_ROLLS, P_COST, P_MAX_BOUGHT, P_BMAX, P_DICE = range(5)


def check_weights(weights) -> dict:
    w = dict(DEFAULT_WEIGHTS)
    for k, v in (weights or {}).items():
        if k not in DEFAULT_WEIGHTS:
            raise PlaytestError(f"unknown weight {k!r} (weights: {', '.join(WEIGHT_KEYS)})", field="weights")
        if not isinstance(v, (int, float)) or isinstance(v, bool) or not np.isfinite(v):
            raise PlaytestError(f"weight {k!r} must be a number, got {v!r}", field="weights")
        w[k] = float(v)
    return w


def ability_values(setup, weights=None) -> np.ndarray:
    """float64[H, MAX_ABILITIES, MAX_TIERS]: value of each tier of each ability."""
    w = check_weights(weights)
    tb = setup.tables
    ew = np.array([w[e] for e in EFFECTS])
    vals = (tb.eff * ew).sum(axis=-1) + w["undefendable"] * tb.undef[:, :, None]
    return np.ascontiguousarray(vals, np.float64)


def plans(setup, weights=None):
    """The value DP of every hero (``simcore.odds.duel.HeroPlan``)."""
    from simcore.odds.duel import plan_hero

    w = check_weights(weights)
    rules = setup.rules
    cost = int(rules["roll_cost"])
    bmax = max(0, min(int(rules["max_bought_rolls"]), int(rules["cp_cap"]) // cost))
    vals = ability_values(setup, w)
    return [plan_hero(setup, h, vals[h], w["roll_cp"] * cost, bmax) for h in range(len(setup.heroes))]


def make_data(setup, weights=None):
    """``(params, slot_pow, rank, keep_counts, best, values)``:
    ``best[hero, free_left, affordable_bought, hand]`` = kept sub-multiset index,
    ``keep_counts[keep, face]`` = dice kept per face index, ``values[hero, ability, tier]``."""
    ps = plans(setup, weights)
    space = ps[0].space
    rules = setup.rules
    slot_pow, rank, rank_off, stride, *_ = space.lookup_tables()
    params = np.array([int(rules["rolls"]), int(rules["roll_cost"]), int(rules["max_bought_rolls"]),
                       ps[0].best.shape[1] - 1, int(rules["dice"])], np.int64)
    best = np.ascontiguousarray(np.stack([p.best for p in ps]), np.int64)
    values = ability_values(setup, weights)
    return (params, slot_pow.astype(np.int64), rank.astype(np.int64),
            np.ascontiguousarray(space.keeps, np.int64), best, values)


@nb.njit(cache=True)
def affordable(rolls_done, free_left, cp, params):
    """Rolls the player can still buy this turn (CP and the max_bought_rolls bound)."""
    cost = params[P_COST]
    bought = rolls_done - params[P_ROLLS] if free_left == 0 and rolls_done > params[P_ROLLS] else 0
    b = min(cp // cost, params[P_MAX_BOUGHT] - bought, params[P_BMAX])
    return max(b, 0)


@nb.njit(cache=True)
def keep(faces, n_dice, rolls_done, free_left, me, st, tb, rules, data, rng):
    params, slot_pow, rank, keep_counts, best, values = data
    h = st[S_HERO + me]
    code = 0
    for i in range(n_dice):
        code += slot_pow[faces[i]]
    hand = rank[code]
    f = min(free_left, best.shape[1] - 1)
    b = affordable(rolls_done, free_left, st[S_CP + me], params)
    k = best[h, f, b, hand]
    return kept_mask(faces, n_dice, keep_counts[k])


@nb.njit(cache=True, inline="always")
def kept_mask(faces, n_dice, counts):
    """The lowest-index dice showing each kept face (``counts[face]`` dice of each; no
    allocation: the kernel's block functions run without reference counting). Dice
    Throne's ``optimal`` turns its keeps into masks with it too."""
    mask = 0
    for i in range(n_dice):
        kept_before = 0
        for j in range(i):
            if faces[j] == faces[i] and (mask >> j) & 1:
                kept_before += 1
        if kept_before < counts[faces[i]]:
            mask |= 1 << i
    return mask


@nb.njit(cache=True)
def choose(faces, n_dice, legal, me, st, tb, rules, data, rng):
    values = data[5]
    h = st[S_HERO + me]
    best = -1
    bv = -np.inf
    for a in range(tb.n_ab[h]):
        t = legal[a]
        if t >= 0 and values[h, a, t] > bv:
            bv = values[h, a, t]
            best = a
    if bv < 0.0:
        return -1
    return best


OPTIMAL = DuelStrategy(
    "optimal", keep, choose, make_data,
    "exact DP over the 252 dice multisets and the rolls left: keeps the dice that maximise "
    "the expected value of the ability taken, buys a roll when it pays for its CP",
    builtin=True, sid=2,
)
