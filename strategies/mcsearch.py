"""Determinized Monte Carlo search: the game-independent machinery every game's ``search``
strategy shares (Dice Throne: ``strategies/dicethrone/search.py``; the duel:
``strategies/duel/search.py``).

A game supplies one numba function ``evaluate(ctx, c, rng) -> float`` that samples a world
consistent with what the deciding seat sees (its determinization), plays candidate ``c``
in it and rolls the game out with a cheap policy, and returns the deciding seat's value
of the outcome in [0, 1] (1 = a win). This module supplies the rest:

- ``search_nb``: the sampling loop with common random numbers. For each of ``budget``
  samples (rollouts per candidate) one private stream is seeded from a single draw of the
  strategies' stream; every candidate is evaluated on that same stream, so candidates are
  compared on the same hidden cards and the same dice. The game's own stream is never
  touched, and the strategies' stream advances by exactly one draw, so the kernel and the
  reference engine stay in step.
- the move statistics: the mean value per candidate; the prior policy's candidate
  (``default``) stands unless another candidate's mean beats it by ``margin`` (the best of
  many noisy means is biased up; a margin keeps the search from trading a sound prior
  move for noise), ties to the lowest index;
- ``playout_nb``: the rollout loop of a move-list game (``simcore/game.py`` kernels):
  ``policy`` plays every seat until the game ends, the turn counter reaches ``stop_turn``
  (a truncated rollout: the game's value function scores the position) or ``max_steps``
  decisions were played;
- ``add_candidate``: the candidate list with the prior's index;
- ``budget_of``: the budget (rollouts per candidate) read from a strategy's data, with a
  default and bounds.

Every function is ``inline="always"``: the game's cached strategy function inlines it with
its own kernel functions as arguments (the caching pattern of ``simcore/driver.py``).
"""
from __future__ import annotations

import numba as nb
import numpy as np

from simcore.rng import next_u64_nb

_JIT = dict(cache=True, nogil=True, inline="always")
MAX_BUDGET = 100_000
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@nb.njit(**_JIT)
def budget_of(data, at, default):
    """Rollouts per candidate: ``data[at]`` when it holds a whole number 1..MAX_BUDGET,
    else ``default``."""
    if at >= 0 and at < data.shape[0]:
        b = data[at]
        if b >= 1 and b <= MAX_BUDGET:
            return int(b)
    return default


@nb.njit(**_JIT)
def add_candidate(cand, nc, x, default, is_default):
    """Append candidate ``x``; returns the new count and the default's index."""
    cand[nc] = x
    return nc + 1, (nc if is_default else default)


@nb.njit(**_JIT)
def pick_nb(vals, n_cand, default, margin):
    """The candidate to play: ``default`` unless another's mean value beats it by ``margin``
    (then the best, lowest index on ties)."""
    best = default
    for c in range(n_cand):
        if c == best:
            continue
        need = margin if best == default else 1e-12
        if vals[c] > vals[best] + need:
            best = c
    return best


@nb.njit(**_JIT)
def search_nb(evaluate, ctx, n_cand, default, budget, margin, rng, vals):
    """Mean value of each of ``n_cand`` candidates over ``budget`` common samples (into
    ``vals``); returns the candidate to play (``pick_nb``). ``rng`` is the strategies'
    stream: one draw from it keys the private sample streams."""
    key = next_u64_nb(rng)
    prng = np.empty(2, np.uint64)
    for c in range(n_cand):
        vals[c] = 0.0
    for r in range(budget):
        sk = key + np.uint64(r + 1) * _GOLDEN
        for c in range(n_cand):
            prng[0] = sk
            prng[1] = np.uint64(0)
            vals[c] += evaluate(ctx, c, prng)
    for c in range(n_cand):
        vals[c] /= budget
    return pick_nb(vals, n_cand, default, margin)


@nb.njit(**_JIT)
def playout_nb(apply, policy, S, phase, n, rules, tables, pdata, rng, moves, turn_at, stop_turn, max_steps):
    """Play on from ``phase`` (``n`` legal moves in ``moves``) with ``policy`` for every
    seat, reading the full sampled state; stops at the end of the game (phase 0), when
    ``S[turn_at] >= stop_turn`` or after ``max_steps`` decisions. Returns the phase."""
    steps = 0
    while phase != 0 and S[turn_at] < stop_turn and steps < max_steps:
        k = policy(phase, S, moves, n, rules, pdata, rng)
        phase, n = apply(S, phase, moves[k], rules, tables, rng, moves)
        steps += 1
    return phase
