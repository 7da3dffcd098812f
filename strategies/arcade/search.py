"""Throne Arcade ``search``: determinized Monte Carlo with kernel rollouts.

For each legal move of the seat to act (a forced move is played at once), ``budget``
times (``data[0]``, default 8; ``--param``):
  1. determinize: the cards the seat cannot see (all cards but its own hand, the top
     card and the pile under it) are shuffled and dealt to the other seats by their
     public hand sizes, the rest forming the draw pile (in that random order);
  2. apply the move with the kernel's ``apply_nb`` and play on with the ``greedy`` policy
     in every seat (on the sampled world) until the round ends, at most 400 turns;
  3. score 1 if the seat did not lose the round (0 if it did, 0.5 if the rollout stopped
     first), plus 0.001 per card fewer than the others' average at the end.
Every move is scored on the same sampled deals (common random numbers); the ``greedy``
choice is played unless another move scores better by ``max(1, budget/8)`` rollouts. Only ``obs`` is used (the
card tables are rebuilt from the deck constants in it); the shuffles come from a private
stream keyed by a draw from the strategies' stream, so the game's stream is never touched
and both engines see the same choices.
"""
from __future__ import annotations

import numba as nb
import numpy as np

from simcore.arcade.kernel import apply_nb
from simcore.arcade.model import (MAX_MOVES, O_COPIES, O_CUR, O_DISC, O_DRAW, O_DRAW_N, O_FX_DRAW,
                                  O_FX_NAME, O_FX_REVIVE, O_FX_SKIP, O_HAND, O_HAND_N, O_LOSSES, O_NCARDS,
                                  O_NSUITS, O_NTYPES, O_P, O_PHASE, O_ROUND, O_TOP, PH_DONE, S_LEN, T_ALL,
                                  T_DRAW, T_LEN, T_N, T_NAME, T_NSUITS, T_NTYPES, T_PERTYPE, T_REVIVE, T_SKIP,
                                  T_SUIT, T_SUITMASK, T_TYPE, T_TYPEMASK)
from simcore.rng import below_nb, next_u64_nb

from .basic import greedy_decide

_JIT = dict(cache=True, nogil=True)
ROLLOUT_TURNS = 400


@nb.njit(**_JIT)
def tables_from_obs(obs):
    """The kernel's card tables, rebuilt from the deck constants every observation carries."""
    T = np.zeros(T_LEN, np.int64)
    n, ns, nt, cp = obs[O_NCARDS], obs[O_NSUITS], obs[O_NTYPES], obs[O_COPIES]
    T[T_N], T[T_NSUITS], T[T_NTYPES], T[T_PERTYPE] = n, ns, nt, ns * cp
    T[T_DRAW], T[T_SKIP], T[T_NAME], T[T_REVIVE] = obs[O_FX_DRAW], obs[O_FX_SKIP], obs[O_FX_NAME], obs[O_FX_REVIVE]
    for c in range(n):
        s = (c // cp) % ns
        t = c // (cp * ns)
        T[T_SUIT + c] = s
        T[T_TYPE + c] = t
        T[T_SUITMASK + s] |= 1 << c
        T[T_TYPEMASK + t] |= 1 << c
        T[T_ALL] |= 1 << c
    return T


@nb.njit(**_JIT)
def determinize(obs, S, rng, unknown):
    """Copy ``obs`` into ``S`` with the hidden cards dealt at random."""
    for i in range(S_LEN):
        S[i] = obs[i]
    me = obs[O_CUR]
    hidden = obs[O_NCARDS]
    k = 0
    for c in range(hidden):
        if not ((obs[O_HAND + me] >> c) & 1) and not ((obs[O_DISC] >> c) & 1) and c != obs[O_TOP]:
            unknown[k] = c
            k += 1
    for i in range(k - 1, 0, -1):
        j = below_nb(rng, i + 1)
        t = unknown[i]
        unknown[i] = unknown[j]
        unknown[j] = t
    pos = 0
    for q in range(obs[O_P]):
        if q == me:
            continue
        S[O_HAND + q] = 0
        for _ in range(obs[O_HAND_N + q]):
            S[O_HAND + q] |= 1 << unknown[pos]
            pos += 1
    nd = k - pos
    for i in range(nd):
        S[O_DRAW + i] = unknown[pos + i]
    S[O_DRAW_N] = nd


@nb.njit(**_JIT)
def rollout_value(S, move, rules, T, rng, moves, zero):
    me = S[O_CUR]
    lost0 = S[O_LOSSES + me]
    rnd = S[O_ROUND]
    phase, n = apply_nb(S, S[O_PHASE], move, rules, T, rng, moves)
    turns = 0
    while phase != PH_DONE and S[O_ROUND] == rnd and turns < ROLLOUT_TURNS:
        k = greedy_decide(phase, S, moves, n, rules, zero, rng)
        phase, n = apply_nb(S, phase, moves[k], rules, T, rng, moves)
        turns += 1
    if S[O_LOSSES + me] > lost0:
        return 0.0
    if phase != PH_DONE and S[O_ROUND] == rnd:
        others = 0.0
        cnt = 0
        for q in range(S[O_P]):
            if q != me and S[O_HAND_N + q] > 0:
                others += S[O_HAND_N + q]
                cnt += 1
        avg = others / cnt if cnt > 0 else 0.0
        return 0.5 + 0.001 * (avg - S[O_HAND_N + me])
    return 1.0


@nb.njit(**_JIT)
def search_decide(phase, obs, moves, n_moves, rules, data, rng):
    if n_moves <= 1:
        return 0
    budget = int(data[0]) if data.shape[0] > 0 and data[0] >= 1 else 8
    T = tables_from_obs(obs)
    prng = np.empty(2, np.uint64)
    prng[0] = next_u64_nb(rng)
    prng[1] = np.uint64(0)
    S = np.empty(S_LEN, np.int64)
    buf = np.empty(MAX_MOVES, np.int64)
    unknown = np.empty(32, np.int64)
    zero = np.zeros(1, np.float64)
    g = greedy_decide(phase, obs, moves, n_moves, rules, zero, rng)
    vals = np.empty(n_moves, np.float64)
    for k in range(n_moves):
        prng[1] = np.uint64(0)          # the same sampled deals for every move (common random numbers)
        tot = 0.0
        for _ in range(budget):
            determinize(obs, S, prng, unknown)
            tot += rollout_value(S, moves[k], rules, T, prng, buf, zero)
        vals[k] = tot
    # greedy's choice stands unless another move wins clearly more often on the same deals
    # (a margin of budget/8 rollouts, at least one: the best of many noisy estimates is biased up)
    margin = max(1.0, budget / 8.0)
    bi = g
    for k in range(n_moves):
        if vals[k] > vals[bi] + (margin if bi == g else 1e-9):
            bi = k
    return bi
