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

from simcore.arcade.kernel import low_card_nb, match_mask_nb, popcount_nb
from simcore.arcade.model import (CARD_BITS, DRAW, MAX_PLAYERS, MOVE_LAST_SHIFT, MOVE_NAMED_SHIFT, O_COPIES,
                                  O_CUR, O_FX_DRAW, O_FX_NAME, O_FX_REVIVE, O_FX_SKIP, O_HAND, O_HAND_N,
                                  O_LAST_OUT, O_NAMED, O_NCARDS, O_NSUITS, O_NTYPES, O_P, O_RTURN, O_TOP, T_NSUITS,
                                  T_SUIT, T_SUITMASK, T_TYPE, T_TYPEMASK)
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


# ---------------------------------------------------------------- greedy without the list
# ``greedy_decide`` scores every move of the sorted list and keeps the first best one. The
# kernel chunk (``strategies/arcade/bind.py``) plays a ``greedy`` seat through
# ``greedy_move_nb`` instead: the same scores (integers, so exact in any order) computed
# while enumerating the legal lays, the best kept with ties to the smallest move code -
# the move the sorted list's first best index points at - and no list built or sorted.
# ``DRAW`` (score -1e9) is greedy's move only when no lay is legal. The twin tests hold
# the two to each other: the reference engine lists the moves and calls ``greedy_decide``.
_KEY_LOW = (1 << 40) - 1        # move codes are below 2**40: key = score << 40 | ~move


@nb.njit(inline="always", **_JIT)
def greedy_view_start_nb(S, view):
    """The constants of the game ``greedy_move_nb`` reads (players, the deck's effect masks)."""
    view[O_P] = S[O_P]
    view[O_NCARDS] = S[O_NCARDS]
    view[O_NSUITS] = S[O_NSUITS]
    view[O_NTYPES] = S[O_NTYPES]
    view[O_COPIES] = S[O_COPIES]
    view[O_FX_DRAW] = S[O_FX_DRAW]
    view[O_FX_SKIP] = S[O_FX_SKIP]
    view[O_FX_NAME] = S[O_FX_NAME]
    view[O_FX_REVIVE] = S[O_FX_REVIVE]


@nb.njit(inline="always", **_JIT)
def greedy_view_nb(S, view, seat):
    """``view`` = the part of ``seat``'s observation (``kernel.observe_nb``) that
    ``greedy_move_nb`` reads, everything else left as it was (never another seat's hand
    or the draw pile): the seat to act, the top card, the named suit, the turns played in
    the round (the free lead), who went out last turn, the seat's own hand and every hand
    size. Undo with ``view[O_HAND + seat] = 0``."""
    view[O_CUR] = seat
    view[O_TOP] = S[O_TOP]
    view[O_RTURN] = S[O_RTURN]
    view[O_NAMED] = S[O_NAMED]
    view[O_LAST_OUT] = S[O_LAST_OUT]
    view[O_HAND + seat] = S[O_HAND + seat]
    for q in range(MAX_PLAYERS):
        view[O_HAND_N + q] = S[O_HAND_N + q]


@nb.njit(inline="always", **_JIT)
def greedy_move_nb(obs, rules, T):
    """The move ``greedy_decide`` picks from the legal moves of the seat ``obs[O_CUR]``
    (its observation, or ``greedy_view_nb``'s part of it), found without listing them.
    The lays are those of ``kernel.legal_moves_nb``: a set of one type whose cards other
    than the last include one matching the top (or named suit), or a single matching
    card; with a Hand in the set, each suit to name."""
    p = obs[O_CUR]
    h = obs[O_HAND + p]
    m = match_mask_nb(obs, rules, T)
    lay = h & m
    if lay == 0:
        return DRAW
    nxt = next_holder_nb(obs, p)
    w_special = 30 if obs[O_HAND_N + nxt] <= 2 else -15
    special = obs[O_FX_DRAW] | obs[O_FX_SKIP] | obs[O_FX_NAME]
    revive = obs[O_FX_REVIVE] if obs[O_LAST_OUT] >= 0 else 0
    name_fx = obs[O_FX_NAME]
    nsuits = T[T_NSUITS]
    best = -(1 << 62)
    while lay != 0:                       # each type holding a card that matches
        G = h & T[T_TYPEMASK + T[T_TYPE + low_card_nb(lay)]]
        lay &= ~G
        sub = G
        while sub != 0:                   # each non-empty set of that type
            first = sub & m               # its cards that may be laid first
            nc = popcount_nb(sub)
            if nc == 1:
                lasts = first
            elif first == 0:
                lasts = 0
            elif (first & (first - 1)) == 0:
                lasts = sub & ~first      # one matching card: any other card ends the set
            else:
                lasts = sub
            if lasts != 0:
                rest = h & ~sub
                base = 10 * nc
                if rest == 0:
                    base += 1000
                else:
                    base += w_special * popcount_nb(sub & special)
                if (sub & revive) != 0:
                    base += 20
                if (sub & name_fx) != 0:
                    # the score does not depend on the last card: the smallest one wins ties
                    mv = (low_card_nb(lasts) << MOVE_LAST_SHIFT) | sub
                    for s in range(nsuits):
                        sc = base
                        if rest != 0:
                            sc += 3 * popcount_nb(rest & T[T_SUITMASK + s])
                        key = (sc << 40) | (_KEY_LOW - (((s + 1) << MOVE_NAMED_SHIFT) | mv))
                        if key > best:
                            best = key
                else:
                    same = G & ~sub
                    while lasts != 0:
                        c = low_card_nb(lasts)
                        lasts &= lasts - 1
                        sc = base
                        if rest != 0:
                            sc += 3 * popcount_nb(rest & (T[T_SUITMASK + T[T_SUIT + c]] | same))
                        key = (sc << 40) | (_KEY_LOW - ((c << MOVE_LAST_SHIFT) | sub))
                        if key > best:
                            best = key
            sub = (sub - 1) & G
    return _KEY_LOW - (best & _KEY_LOW)


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
