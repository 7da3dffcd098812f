"""Throne Arcade ``random``, ``greedy`` and ``defensive`` strategies.

Interface (every strategy is ONE numba-compilable function)::

    decide(phase, obs, moves, n_moves, rules, data, rng) -> int

returning an index into ``moves[:n_moves]`` (the sorted legal moves of the seat to act,
``obs[O_CUR]``; encoding in ``simcore.arcade.model``). ``obs`` is the information-fair
state vector of that seat (``kernel.observe_nb``): its own hand (bitmask at
``O_HAND + seat``), the pile (top card, named suit, the cards under the top), every hand
size, pending draws, public counters and the deck's constants (``O_NSUITS``, ``O_COPIES``,
``O_FX_*`` effect masks); other hands read 0 and the draw pile's cards NONE. ``rules`` is
the int64 rule vector; ``data`` the seat's float64 strategy parameters. ``rng`` is the
strategies' own stream for the game (never the game's).
"""
from __future__ import annotations

import numba as nb

from simcore.arcade.kernel import popcount_nb
from simcore.arcade.model import (CARD_BITS, DRAW, MOVE_LAST_SHIFT, MOVE_NAMED_SHIFT, O_COPIES, O_CUR,
                                  O_FX_DRAW, O_FX_NAME, O_FX_REVIVE, O_FX_SKIP, O_HAND, O_HAND_N, O_LAST_OUT,
                                  O_NSUITS, O_NTYPES, O_P)
from simcore.rng import below_nb

_JIT = dict(cache=True, nogil=True)


@nb.njit(**_JIT)
def random_decide(phase, obs, moves, n_moves, rules, data, rng):
    return below_nb(rng, n_moves)


@nb.njit(inline="always", **_JIT)
def next_holder_nb(obs, p):
    """The next seat clockwise still holding cards (p itself if nobody else)."""
    P = obs[O_P]
    q = p
    for _ in range(P):
        q += 1
        if q == P:
            q = 0
        if obs[O_HAND_N + q] > 0:
            return q
    return p


@nb.njit(inline="always", **_JIT)
def suit0_mask_nb(obs):
    """The cards of suit 0; suit s's cards are this mask shifted by ``s * copies``."""
    ns = obs[O_NSUITS]
    cp = obs[O_COPIES]
    m = 0
    for t in range(obs[O_NTYPES]):
        m |= ((1 << cp) - 1) << (t * ns * cp)
    return m


@nb.njit(inline="always", **_JIT)
def suit_mask_nb(obs, s):
    """The cards of suit s (from the deck constants in the observation)."""
    return suit0_mask_nb(obs) << (s * obs[O_COPIES])


@nb.njit(inline="always", **_JIT)
def type_mask_nb(obs, t):
    per = obs[O_NSUITS] * obs[O_COPIES]
    return ((1 << per) - 1) << (t * per)


@nb.njit(inline="always", **_JIT)
def followers_nb(rest, last, named, obs, suit0):
    """Own remaining cards that could be laid first on ``last`` (or on the named suit);
    ``suit0`` = ``suit0_mask_nb(obs)``."""
    cp = obs[O_COPIES]
    if named >= 0:
        return popcount_nb(rest & (suit0 << (named * cp)))
    ns = obs[O_NSUITS]
    if cp == 1 and ns == 4:       # the standard deck: no divisions on the hot path
        return popcount_nb(rest & ((suit0 << (last & 3)) | (15 << (last & ~3))))
    return popcount_nb(rest & ((suit0 << (((last // cp) % ns) * cp)) | type_mask_nb(obs, last // (cp * ns))))


@nb.njit(inline="always", **_JIT)   # inlined: called every turn (kernel.py)
def greedy_decide(phase, obs, moves, n_moves, rules, data, rng):
    p = obs[O_CUR]
    hand = obs[O_HAND + p]
    nxt = next_holder_nb(obs, p)
    threat = obs[O_HAND_N + nxt] <= 2
    special = obs[O_FX_DRAW] | obs[O_FX_SKIP] | obs[O_FX_NAME]
    suit0 = suit0_mask_nb(obs)
    best = -1.0e18
    bi = 0
    for k in range(n_moves):
        mv = moves[k]
        if mv == DRAW:
            sc = -1.0e9
        else:
            mask = mv & CARD_BITS
            last = (mv >> MOVE_LAST_SHIFT) & 31
            named = (mv >> MOVE_NAMED_SHIFT) - 1
            rest = hand & ~mask
            sc = 10.0 * popcount_nb(mask)
            if rest == 0:
                sc += 1000.0
            else:
                ns = popcount_nb(mask & special)
                if threat:
                    sc += 30.0 * ns
                else:
                    sc -= 15.0 * ns
                sc += 3.0 * followers_nb(rest, last, named, obs, suit0)
            if (mask & obs[O_FX_REVIVE]) != 0 and obs[O_LAST_OUT] >= 0:
                sc += 20.0
        if sc > best:
            best = sc
            bi = k
    return bi


@nb.njit(**_JIT)
def coverage_nb(rest, obs):
    """Distinct suits plus distinct types among the cards ``rest``."""
    c = 0
    for s in range(obs[O_NSUITS]):
        if (rest & suit_mask_nb(obs, s)) != 0:
            c += 1
    for t in range(obs[O_NTYPES]):
        if (rest & type_mask_nb(obs, t)) != 0:
            c += 1
    return c


@nb.njit(**_JIT)
def defensive_decide(phase, obs, moves, n_moves, rules, data, rng):
    p = obs[O_CUR]
    hand = obs[O_HAND + p]
    nxt = next_holder_nb(obs, p)
    danger = obs[O_HAND_N + nxt] <= 1
    guard = obs[O_FX_DRAW] | obs[O_FX_SKIP]
    suit0 = suit0_mask_nb(obs)
    best = -1.0e18
    bi = 0
    for k in range(n_moves):
        mv = moves[k]
        if mv == DRAW:
            sc = -1.0e9
        else:
            mask = mv & CARD_BITS
            last = (mv >> MOVE_LAST_SHIFT) & 31
            named = (mv >> MOVE_NAMED_SHIFT) - 1
            rest = hand & ~mask
            nc = popcount_nb(mask)
            if rest == 0:
                sc = 1.0e6
            else:
                sc = 0.0
                if nc > 1:
                    sc -= 500.0 * (nc - 1)          # one card at a time
                ng = popcount_nb(mask & guard)
                if danger:
                    sc += 200.0 * ng                # defence: stop the next player going out
                else:
                    sc -= 100.0 * ng                # hold Aces and VIIs
                    sc -= 40.0 * popcount_nb(mask & obs[O_FX_NAME])
                sc += 5.0 * coverage_nb(rest, obs) + 2.0 * followers_nb(rest, last, named, obs, suit0)
            if (mask & obs[O_FX_REVIVE]) != 0 and obs[O_LAST_OUT] >= 0:
                sc += 50.0
        if sc > best:
            best = sc
            bi = k
    return bi
