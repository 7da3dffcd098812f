"""Value-maximising roll phase: the exact DP behind the duel's ``optimal`` strategy and
the whole-turn "which ability does the roll phase end with" distribution.

Each final hand has a value ``endval[h]`` (the best ability it allows). After a roll the
player holds hand ``h`` with ``f`` free rerolls left and ``b`` rerolls it can still buy
(each costing ``buy_cost`` in value units)::

    V[0][0](h) = endval(h)
    V[f][b](h) = max(endval(h), max_{k strict sub-multiset of h} (M V[f-1][b])(k))      f >= 1
    V[0][b](h) = max(endval(h), max_{k strict sub-multiset of h} (M V[0][b-1])(k) - buy_cost)

(``M`` = the reroll transition of ``simcore.odds.space``). Keeping the whole hand means
stopping. ``best[f][b][h]`` is the keep attaining the maximum (ties: stop, then the larger
keep). ``end_distribution`` pushes the first roll's distribution through that policy.
"""
from __future__ import annotations

import numpy as np

from .space import DiceSpace

TIE_TOL = 1e-9


def value_dp(space: DiceSpace, endval: np.ndarray, rolls: int, bmax: int, buy_cost: float):
    """Returns ``(V[rolls, bmax+1, n_hands], best[rolls, bmax+1, n_hands], start[bmax+1])``;
    ``start[b]`` = expected end value of a roll phase begun with ``b`` affordable rolls."""
    endval = np.asarray(endval, np.float64)
    M = space.matrix
    H = space.n_hands
    V = np.zeros((rolls, bmax + 1, H))
    best = np.zeros((rolls, bmax + 1, H), np.int64)
    sub = space.sub
    ext = np.empty(space.n_keeps + 1)

    def step(prev, cost):
        ext[:-1] = M @ prev - cost
        ext[-1] = -np.inf
        opts = ext[sub]
        opts[:, 0] = endval           # sub[:, 0] is the full hand: stop
        v = opts.max(axis=1)
        first = np.argmax(opts >= v[:, None] - TIE_TOL, axis=1)
        return v, sub[np.arange(H), first]

    for b in range(bmax + 1):
        for f in range(rolls):
            if f == 0 and b == 0:
                V[0, 0] = endval
                best[0, 0] = space.full_keep
            elif f == 0:
                V[0, b], best[0, b] = step(V[0, b - 1], buy_cost)
            else:
                V[f, b], best[f, b] = step(V[f - 1, b], 0.0)
    start = np.array([(M @ V[rolls - 1, b])[space.empty_keep] for b in range(bmax + 1)])
    return V, best, start


def end_distribution(space: DiceSpace, best: np.ndarray, rolls: int, b: int, p0=None, free_left=None):
    """Probability of each final hand, and the expected number of rolls bought, for a
    roll phase begun with ``b`` affordable bought rolls following ``best``; by default
    from the first roll, else from the hand distribution ``p0`` with ``free_left``
    free rerolls left."""
    M = space.matrix
    p = M[space.empty_keep].copy() if p0 is None else np.asarray(p0, np.float64).copy()
    f0 = rolls - 1 if free_left is None else free_left
    end = np.zeros(space.n_hands)
    stages = [(f, b) for f in range(f0, -1, -1)] + [(0, bb) for bb in range(b - 1, -1, -1)]
    bought = 0.0
    for j, (f, bb) in enumerate(stages):
        keep = best[f, bb]
        stop = keep == space.full_keep
        end += np.where(stop, p, 0.0)
        go = np.where(stop, 0.0, p)
        if not go.any():
            break
        if f == 0:
            bought += go.sum()
        q = np.zeros(space.n_keeps)
        np.add.at(q, keep, go)
        p = q @ M
    return end, bought
