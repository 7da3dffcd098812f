"""Whole-turn odds for the duel's heroes, on top of the game-agnostic solvers.

- ``odds_table``: for every ability (every tier of a tiered one) of every hero, the best
  probability of being able to activate it after 1..``rolls`` free rolls and with 1..4
  extra rolls bought with CP, when going for it (float DP over all targets at once).
- ``plan_hero`` / ``end_ability_table``: under a value-maximising policy (the duel's
  ``optimal`` strategy, ``strategies.duel.optimal``), the distribution of the ability the
  roll phase ends with, per number of affordable bought rolls.

A hero's space is not collapsed: its slots are the six faces of its die, in order, so a
slot is the face index the duel engine uses.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .solver import cached_space, solve_float
from .space import DiceSpace
from .value import end_distribution, value_dp

DEFAULT_BOUGHT = 4


def hero_space(hero, n_dice: int) -> DiceSpace:
    return cached_space((hero.die,) * n_dice, (), False)


def hero_targets(hero) -> list[tuple]:
    """``(ability index, ability, tier index, tier, label)`` for every tier."""
    out = []
    for a, ab in enumerate(hero.abilities):
        for t, tier in enumerate(ab.tiers):
            label = ab.name if not ab.tiered else f"{ab.name} (tier {t + 1})"
            out.append((a, ab, t, tier, label))
    return out


def best_tiers(hero, space: DiceSpace) -> np.ndarray:
    """int64[n_hands, n_abilities]: the best tier each hand satisfies, or -1."""
    out = np.full((space.n_hands, len(hero.abilities)), -1, np.int64)
    for h in range(space.n_hands):
        faces = space.hand_faces(h)
        for a, ab in enumerate(hero.abilities):
            for t, tier in enumerate(ab.tiers):
                if tier.target.met(faces):
                    out[h, a] = t
    return out


def bought_limit(rules: dict, bought: int) -> int:
    return max(0, min(int(bought), int(rules["max_bought_rolls"])))


def odds_table(setup, heroes=None, bought: int = DEFAULT_BOUGHT):
    """DataFrame, one row per (hero, ability, tier): ``p_1..p_R`` (R free rolls) and
    ``p_R+1..p_R+B`` (B rolls bought with CP), all when going for that target."""
    import pandas as pd

    rules = setup.rules
    n, R = int(rules["dice"]), int(rules["rolls"])
    B = bought_limit(rules, bought)
    rows = []
    idx = range(len(setup.heroes)) if heroes is None else heroes
    for h in idx:
        hero = setup.heroes[h]
        space = hero_space(hero, n)
        targets = hero_targets(hero)
        met = np.stack([space.met_vector(t[3].target) for t in targets], axis=1)
        P, _ = solve_float(space, met, R + B)
        for j, (a, ab, t, tier, label) in enumerate(targets):
            row = {"hero": hero.name, "ability": ab.name, "tier": t + 1, "tiers": len(ab.tiers),
                   "label": label, "target": tier.target.text, "undefendable": ab.undefendable}
            for r in range(R + B):
                row[col_name(r + 1, R)] = float(P[r, j])
            rows.append(row)
    return pd.DataFrame(rows)


def col_name(total_rolls: int, free_rolls: int) -> str:
    if total_rolls <= free_rolls:
        return f"p_{total_rolls}"
    return f"p_{free_rolls}+{total_rolls - free_rolls}"


@dataclass
class HeroPlan:
    """The value-maximising roll phase of one hero."""
    hero: object
    space: DiceSpace
    values: np.ndarray   # [A, T] value of each tier
    tiers: np.ndarray    # [n_hands, A] best tier met or -1
    endval: np.ndarray   # [n_hands]
    choice: np.ndarray   # [n_hands] ability chosen at the end, -1 = none
    V: np.ndarray        # [rolls, bmax+1, n_hands]
    best: np.ndarray     # [rolls, bmax+1, n_hands] keep index
    start: np.ndarray    # [bmax+1] expected end value of the roll phase
    rolls: int


def choose_ability(values: np.ndarray, tiers: np.ndarray):
    """Readable twin of the optimal ``choose``: the legal ability of highest value
    (first on ties); no attack when none is legal or all legal values are negative."""
    H, A = tiers.shape
    choice = np.full(H, -1, np.int64)
    endval = np.zeros(H)
    for h in range(H):
        bv = -np.inf
        for a in range(A):
            t = tiers[h, a]
            if t >= 0 and values[a, t] > bv:
                bv, choice[h] = values[a, t], a
        if bv < 0:
            choice[h] = -1
            bv = 0.0
        endval[h] = bv if choice[h] >= 0 else 0.0
    return choice, endval


def plan_hero(setup, h: int, values: np.ndarray, buy_cost: float, bmax: int) -> HeroPlan:
    rules = setup.rules
    hero = setup.heroes[h]
    space = hero_space(hero, int(rules["dice"]))
    tiers = best_tiers(hero, space)
    choice, endval = choose_ability(values[: len(hero.abilities)], tiers)
    R = int(rules["rolls"])
    V, best, start = value_dp(space, endval, R, bmax, buy_cost)
    return HeroPlan(hero, space, values, tiers, endval, choice, V, best, start, R)


def end_ability_table(plan: HeroPlan, bought=range(DEFAULT_BOUGHT + 1)):
    """DataFrame: for each number of affordable bought rolls, the probability that the
    roll phase ends with each ability (and with none), the mean value and rolls bought."""
    import pandas as pd

    rows = []
    for b in bought:
        b = min(b, plan.best.shape[1] - 1)
        end, nb = end_distribution(plan.space, plan.best, plan.rolls, b)
        row = {"bought_rolls_affordable": b}
        for a, ab in enumerate(plan.hero.abilities):
            row[ab.name] = float(end[plan.choice == a].sum())
        row["(none)"] = float(end[plan.choice < 0].sum())
        row["expected_value"] = float(plan.start[b])
        row["mean_rolls_bought"] = float(nb)
        rows.append(row)
    return pd.DataFrame(rows)
