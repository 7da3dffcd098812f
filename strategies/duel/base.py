"""The duel strategy interface.

A duel strategy is two numba-compiled functions plus an optional data builder:

``keep(faces, n_dice, rolls_done, free_left, me, st, tb, rules, data, rng) -> int``
    Called after every roll of the offensive roll phase. Returns a bit mask of the dice
    to KEEP (bit i = die i). Keeping every die (``(1 << n_dice) - 1``) ends the roll
    phase. While ``free_left > 0`` any other mask rerolls the unkept dice for free; when
    ``free_left == 0`` any other mask asks to BUY a roll (costs ``rules[R['roll_cost']]``
    CP; the engine ends the roll phase instead when the player cannot pay or has bought
    ``max_bought_rolls`` already).

``choose(faces, n_dice, legal, me, st, tb, rules, data, rng) -> int``
    Called once at the end of the roll phase. ``legal[a]`` is the best tier of ability
    ``a`` the dice satisfy, or -1. Returns an ability index with ``legal[a] >= 0``, or -1
    for no attack (an illegal answer is treated as -1).

Arguments:
    faces      int64[MAX_DICE]: face index 0..5 of each die (first ``n_dice`` used)
    n_dice     number of dice rolled
    rolls_done rolls made so far this turn (1 after the first roll)
    free_left  free rolls left (``rules.rolls - rolls_done`` while positive, else 0)
    me         the acting seat, 0 or 1 (opponent ``1 - me``)
    st         int64 game-state vector (``simcore.duel.state``: HP, CP, wounds, daze,
               shield, hero of each seat, turn, first seat, current seat)
    tb         ``simcore.duel.model.DuelTables`` (faces, abilities, tiers, effects...)
    rules      int64 rule vector (``simcore.duel.model.R`` maps names to indices)
    data       the strategy's own data, built once per run by ``make_data(setup)``
               (any numba-typable value: an array, a tuple of arrays...)
    rng        uint64[2]: the strategies' own random stream for this game (stream
               ``(seed, game, STRATEGY_DOMAIN)``), separate from the dice so that no
               strategy can foresee a roll; draw with ``simcore.rng.below_nb``. The
               reference engine and the kernel hand over the same stream, so they stay in
               step as long as the strategy is deterministic given its arguments.

A strategy must be deterministic given its arguments (no global random state), so
that the kernel and the reference engine play the same game.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np


def no_data(setup):
    """Default ``make_data``: strategies that need no precomputed data get a dummy array."""
    return np.zeros(1, np.float64)


@dataclass(frozen=True)
class DuelStrategy:
    name: str
    keep: Callable
    choose: Callable
    make_data: Callable = no_data
    description: str = ""
    builtin: bool = False
    # id of a built-in strategy in the binding's dispatcher (strategies/duel/bind.py); -1 = plug-in
    sid: int = -1
