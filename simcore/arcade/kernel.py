"""The compiled Throne Arcade engine: the rules as numba functions over the int64 state
vector ``S`` (layout in ``simcore.arcade.model``), a state machine that any driver (the
kernel chunk, a search strategy's rollouts, a plug-in's kernel) runs the same way:

    phase, n = start_nb(S, seats, rules, tables, rng, moves)    # deal round 1; first decision
    while phase != PH_DONE:
        observe_nb(S, obs, S[O_CUR], tables)
        k = <strategy>(phase, obs, moves, n, rules, tables, srng)
        phase, n = apply_nb(S, phase, moves[k], rules, tables, rng, moves)

Every decision is a turn of the seat ``S[O_CUR]``: lay cards or draw (``model.DRAW``).
Everything automatic (drawing for a VII/Lord at the start of a turn, skips, revivals,
the end of a round, the penalty deal of the next round, elimination) happens inside
``apply_nb``. ``moves`` receives the sorted legal moves of the next decision.

``apply_nb`` / ``start_nb`` are ``step_nb`` / ``start_game_nb`` (the rules, returning only
the phase) followed by ``legal_moves_nb``: a driver whose strategy needs no list (the
kernel chunk's ``greedy`` seats, ``strategies.arcade.basic.greedy_move_nb``) calls the
phase-only functions and lists the moves only for the seats that read them.

Random numbers (the only ones the game draws, in this order, identical in the reference
engine ``simcore.arcade.reference``): one Fisher-Yates shuffle of all the cards per round
(``for i = n-1..1: j = below(i + 1)``), one per reshuffle of the pile (the pile's cards
in ascending card order, then shuffled).
"""
from __future__ import annotations

import numba as nb
from llvmlite import ir
from numba.core import types
from numba.extending import intrinsic

from ..rng import below_nb
from .model import (CAP_ROUNDS, CAP_TURNS, CARD_BITS, DRAW, F, F_ELIM_ORDER, F_ELIM_ROUND, F_LOSSES,
                    MAX_PLAYERS, MOVE_LAST_SHIFT, MOVE_NAMED_SHIFT, NONE, O_CAPPED, O_CUR, O_DEALT, O_DISC,
                    O_DRAW, O_DRAW_N, O_DRAWCARDS, O_ELIM_ORDER, O_ELIM_ROUND, O_FIRST, O_FIRSTOUT1, O_NCARDS, O_NSUITS, O_NTYPES, O_COPIES,
                    O_FX_DRAW, O_FX_SKIP, O_FX_NAME, O_FX_REVIVE, O_HAND,
                    O_HAND_N, O_HANDCARDS, O_LAST_OUT, O_LOSER1, O_LOSSES, O_NAMED, O_NELIM, O_P,
                    O_PEND, O_PENALIZED, O_PENDRAWN, O_PHASE, O_RESHUF, O_REVIVES, O_ROUND,
                    O_RSTART_TURN, O_RTURN, O_SKIPCARDS, O_STARTER, O_TOP, O_TURN, O_WINNER, PH_DONE,
                    PH_PLAY, R_DRAW_AFTER_PEN, R_DRAW_OPTIONAL, R_DRAW_PER_CARD, R_SKIP_PER_CARD, R_ELIM_HAND, R_FIRST,
                    R_FREE_LEAD, R_HAND_ANSWERS, R_HAND_ANYTHING, R_HAND_SIZE, R_MAX_ROUNDS, R_MAX_TURNS, R_MIN_HAND,
                    R_NAMED_PERSISTS, R_PENALTY, R_REVIVE_DRAW, R_SKULL_DRAW_PLAIN, R_SKULL_DRAW_REVIVING,
                    R_START_EFFECT, S_LEN, T_DRAW, T_N, T_NAME, T_NSUITS, T_NTYPES, T_PERTYPE, T_REVIVE, T_SKIP,
                    T_ALL, T_SUIT, T_SUITMASK, T_TYPE, T_TYPEMASK)

# _nrt=False: no function here allocates, so none needs numba's reference counting (an
# atomic increment and decrement per array argument per call; see strategies/arcade/bind.py)
_JIT = dict(cache=True, nogil=True, _nrt=False)
# The per-turn functions (apply_nb, begin_turn_nb, legal_moves_nb, observe_nb) are
# inline="always": a numba call passes every array argument as a whole struct, and at
# ~900 turns a 4-player game those calls cost more than the rules themselves (measured:
# 183 -> 138 ns a turn on one core, the same records). Round-level functions stay calls.
# record columns (numba reads module-level ints as constants)
_F_WINNER = F["winner"]
_F_CAPPED = F["capped"]
_F_TURNS = F["turns"]
_F_FIRST = F["first"]
_F_PLAYERS = F["players"]
_F_ROUNDS = F["rounds"]
_F_CAP_KIND = F["cap_kind"]
_F_LOSER_R1 = F["loser_r1"]
_F_FIRST_OUT_R1 = F["first_out_r1"]
_F_REVIVES = F["revives"]
_F_RESHUFFLES = F["reshuffles"]
_F_DRAW_CARDS = F["draw_cards"]
_F_SKIP_CARDS = F["skip_cards"]
_F_HAND_CARDS = F["hand_cards"]
_F_PENALTY_DRAWN = F["penalty_drawn"]
_F_LAST_ROUND_TURNS = F["last_round_turns"]


# ------------------------------------------------------------------ bits
@intrinsic
def _ctpop64(typingctx, x):
    """llvm.ctpop on an int64: one POPCNT instruction (numba has no popcount of its own)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        return builder.ctpop(context.cast(builder, args[0], sig.args[0], types.int64))

    return types.int64(x), codegen


@intrinsic
def _cttz64(typingctx, x):
    """llvm.cttz on an int64 (64 for 0): one TZCNT instruction."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        v = context.cast(builder, args[0], sig.args[0], types.int64)
        return builder.cttz(v, ir.Constant(ir.IntType(1), 0))

    return types.int64(x), codegen


@nb.njit(inline="always", **_JIT)
def popcount_nb(x):
    """Set bits of a non-negative mask (a card set: below 2**32)."""
    return _ctpop64(x)


@nb.njit(inline="always", **_JIT)
def low_card_nb(x):
    """The lowest card code of a non-empty card set (its lowest set bit's index)."""
    return _cttz64(x)


@nb.njit(**_JIT)
def shuffle_nb(S, off, n, rng):
    for i in range(n - 1, 0, -1):
        j = below_nb(rng, i + 1)
        t = S[off + i]
        S[off + i] = S[off + j]
        S[off + j] = t


# ------------------------------------------------------------------ piles
@nb.njit(inline="always", **_JIT)
def draw_one_nb(S, p, T, rng):
    """The top card of the draw pile into seat p's hand; an empty draw pile is first
    refilled from the pile under the top card (ascending card order, shuffled). Returns
    False when there is nothing to draw (the draw is skipped)."""
    if S[O_DRAW_N] == 0:
        disc = S[O_DISC]
        if disc == 0:
            return False
        n = 0
        while disc != 0:                  # ascending card order
            S[O_DRAW + n] = low_card_nb(disc)
            disc &= disc - 1
            n += 1
        S[O_DISC] = 0
        shuffle_nb(S, O_DRAW, n, rng)
        S[O_DRAW_N] = n
        S[O_RESHUF] += 1
    n = S[O_DRAW_N] - 1
    c = S[O_DRAW + n]
    S[O_DRAW + n] = NONE
    S[O_DRAW_N] = n
    S[O_HAND + p] |= 1 << c
    S[O_HAND_N + p] += 1
    return True


@nb.njit(**_JIT)
def draw_many_nb(S, p, k, T, rng):
    got = 0
    for _ in range(k):
        if not draw_one_nb(S, p, T, rng):
            break
        got += 1
    return got


# ------------------------------------------------------------------ seats
@nb.njit(inline="always", **_JIT)
def active_count_nb(S):
    n = 0
    for p in range(S[O_P]):
        if S[O_HAND_N + p] > 0:
            n += 1
    return n


@nb.njit(inline="always", **_JIT)
def next_active_nb(S, p, skips):
    """The seat that plays after seat p when ``skips`` players lose their turn: the
    (skips+1)-th seat holding cards, counting clockwise from p+1 (p itself counts when
    the count wraps round)."""
    P = S[O_P]
    left = skips + 1
    q = p
    while True:
        q += 1
        if q == P:
            q = 0
        if S[O_HAND_N + q] > 0:
            left -= 1
            if left == 0:
                return q


# ------------------------------------------------------------------ legal moves
@nb.njit(inline="always", **_JIT)
def match_mask_nb(S, rules, T):
    """Cards that may be laid first on the current top (or named suit); on the round's
    first turn, with starter_leads_freely, every card (the starter leads freely)."""
    if rules[R_FREE_LEAD] != 0 and S[O_RTURN] == 0:
        return T[T_ALL]
    named = S[O_NAMED]
    if named >= 0:
        m = T[T_SUITMASK + named]
        if rules[R_HAND_ANSWERS] != 0:
            m |= T[T_NAME]
        return m
    top = S[O_TOP]
    m = T[T_SUITMASK + T[T_SUIT + top]] | T[T_TYPEMASK + T[T_TYPE + top]]
    if rules[R_HAND_ANYTHING] != 0:
        m |= T[T_NAME]
    return m


@nb.njit(inline="always", **_JIT)
def legal_moves_nb(S, rules, T, moves):
    """Every legal move of the seat to act, sorted: DRAW (when allowed), then every lay:
    a non-empty set of cards of one type, of which a card other than the last matches
    (or the single card matches), with each choice of last card, and for a set holding a
    Hand each suit to name."""
    p = S[O_CUR]
    h = S[O_HAND + p]
    M = match_mask_nb(S, rules, T)
    n = 0
    if (h & M) == 0 or rules[R_DRAW_OPTIONAL] != 0:
        moves[0] = DRAW
        n = 1
    if (h & M) == 0:
        return n
    start = n
    nsuits = T[T_NSUITS]
    hand_fx = T[T_NAME]
    for t in range(T[T_NTYPES]):
        G = h & T[T_TYPEMASK + t]
        if (G & M) == 0:
            continue
        sub = G
        while sub != 0:
            rem = sub
            while rem != 0:
                lb = rem & -rem
                rem ^= lb
                rest = sub ^ lb
                if rest == 0:
                    ok = (lb & M) != 0
                else:
                    ok = (rest & M) != 0
                if ok:
                    base = (low_card_nb(lb) << MOVE_LAST_SHIFT) | sub
                    if (sub & hand_fx) != 0:
                        for s in range(nsuits):
                            moves[n] = ((s + 1) << MOVE_NAMED_SHIFT) | base
                            n += 1
                    else:
                        moves[n] = base
                        n += 1
            sub = (sub - 1) & G
    # insertion sort (a few dozen entries)
    for a in range(start + 1, n):
        v = moves[a]
        b = a - 1
        while b >= start and moves[b] > v:
            moves[b + 1] = moves[b]
            b -= 1
        moves[b + 1] = v
    return n


# ------------------------------------------------------------------ rounds
@nb.njit(inline="always", **_JIT)
def begin_turn_nb(S, q, rules, T, rng):
    """Seat q's turn begins: it first draws what VIIs / Lords laid for it."""
    S[O_CUR] = q
    S[O_PENALIZED] = 0
    if S[O_PEND] > 0:
        S[O_PENDRAWN] += draw_many_nb(S, q, S[O_PEND], T, rng)
        S[O_PEND] = 0
        S[O_PENALIZED] = 1
    S[O_PHASE] = PH_PLAY
    return PH_PLAY


@nb.njit(**_JIT)
def end_game_nb(S, winner, capped):
    S[O_WINNER] = winner
    S[O_CAPPED] = capped
    S[O_PHASE] = PH_DONE
    S[O_CUR] = -1
    return PH_DONE


@nb.njit(**_JIT)
def deal_round_nb(S, rules, T, rng):
    """Start the next round: the starter (S[O_STARTER]) shuffles every card and deals
    each seat still in the game its hand (hand_size less the penalty for rounds lost,
    never below min_hand) in seat order from the starter, then turns up the starting card."""
    if S[O_ROUND] >= rules[R_MAX_ROUNDS]:
        return end_game_nb(S, -1, CAP_ROUNDS)
    S[O_ROUND] += 1
    S[O_RTURN] = 0
    S[O_RSTART_TURN] = S[O_TURN]
    P = S[O_P]
    N = T[T_N]
    for c in range(N):
        S[O_DRAW + c] = c
    for c in range(N, 32):
        S[O_DRAW + c] = NONE
    shuffle_nb(S, O_DRAW, N, rng)
    top = N
    st = S[O_STARTER]
    p = st
    for i in range(P):                     # seat order from the starter
        if i > 0:
            p += 1
            if p == P:
                p = 0
        S[O_HAND_N + p] = 0
        if S[O_ELIM_ROUND + p] != 0:
            S[O_HAND + p] = 0
            S[O_DEALT + p] = 0
            continue
        k = max(rules[R_HAND_SIZE] - rules[R_PENALTY] * S[O_LOSSES + p], rules[R_MIN_HAND])
        S[O_DEALT + p] = k
        hand = 0
        for _ in range(k):
            top -= 1
            hand |= 1 << S[O_DRAW + top]
            S[O_DRAW + top] = NONE
        S[O_HAND + p] = hand
        S[O_HAND_N + p] = k
    top -= 1
    S[O_TOP] = S[O_DRAW + top]
    S[O_DRAW + top] = NONE
    S[O_DRAW_N] = top
    S[O_DISC] = 0
    S[O_NAMED] = -1
    S[O_PEND] = 0
    S[O_LAST_OUT] = -1
    q = st
    if rules[R_START_EFFECT] != 0:
        tb = 1 << S[O_TOP]
        if (T[T_DRAW] & tb) != 0 and ((T[T_REVIVE] & tb) == 0 or rules[R_SKULL_DRAW_PLAIN] != 0):
            S[O_PEND] = rules[R_DRAW_PER_CARD]
        if (T[T_SKIP] & tb) != 0 and rules[R_SKIP_PER_CARD] > 0:
            q = next_active_nb(S, st, rules[R_SKIP_PER_CARD] - 1)
    return begin_turn_nb(S, q, rules, T, rng)


@nb.njit(**_JIT)
def end_round_nb(S, loser, rules, T, rng):
    """The loser of the round: one more lost round; eliminated if it started the round
    with at most elimination_hand cards; the game ends when one seat is left, else the
    loser (or, if eliminated, the next seat still in the game) starts the next round."""
    S[O_LOSSES + loser] += 1
    if S[O_ROUND] == 1:
        S[O_LOSER1] = loser
    if S[O_DEALT + loser] <= rules[R_ELIM_HAND]:
        S[O_NELIM] += 1
        S[O_ELIM_ROUND + loser] = S[O_ROUND]
        S[O_ELIM_ORDER + loser] = S[O_NELIM]
    P = S[O_P]
    if S[O_NELIM] == P - 1:
        for p in range(P):
            if S[O_ELIM_ROUND + p] == 0:
                return end_game_nb(S, p, 0)
    st = loser
    while S[O_ELIM_ROUND + st] != 0:
        st = (st + 1) % P
    S[O_STARTER] = st
    return deal_round_nb(S, rules, T, rng)


# ------------------------------------------------------------------ the state machine
@nb.njit(**_JIT)
def start_game_nb(S, seats, rules, T, rng):
    """A new game for ``seats`` players: deal round 1; returns the phase."""
    for i in range(S_LEN):
        S[i] = 0
    S[O_P] = seats
    S[O_WINNER] = -1
    S[O_LOSER1] = -1
    S[O_FIRSTOUT1] = -1
    S[O_STARTER] = rules[R_FIRST]
    S[O_FIRST] = rules[R_FIRST]
    S[O_NCARDS] = T[T_N]
    S[O_NSUITS] = T[T_NSUITS]
    S[O_NTYPES] = T[T_NTYPES]
    S[O_COPIES] = T[T_PERTYPE] // T[T_NSUITS]
    S[O_FX_DRAW] = T[T_DRAW]
    S[O_FX_SKIP] = T[T_SKIP]
    S[O_FX_NAME] = T[T_NAME]
    S[O_FX_REVIVE] = T[T_REVIVE]
    return deal_round_nb(S, rules, T, rng)


@nb.njit(inline="always", **_JIT)
def step_nb(S, move, rules, T, rng):
    """Play one turn of the seat to act, then everything automatic up to the next
    decision; returns the phase (``apply_nb`` also lists the next decision's moves)."""
    p = S[O_CUR]
    S[O_TURN] += 1
    S[O_RTURN] += 1
    prev_out = S[O_LAST_OUT]
    S[O_LAST_OUT] = -1
    skips = 0
    if move == DRAW:
        if S[O_PENALIZED] == 0 or rules[R_DRAW_AFTER_PEN] != 0:
            draw_one_nb(S, p, T, rng)
        if rules[R_NAMED_PERSISTS] == 0:
            S[O_NAMED] = -1
    else:
        mask = move & CARD_BITS
        last = (move >> MOVE_LAST_SHIFT) & 31
        S[O_DISC] |= (1 << S[O_TOP]) | (mask & ~(1 << last))
        S[O_TOP] = last
        S[O_HAND + p] &= ~mask
        S[O_HAND_N + p] -= popcount_nb(mask)
        S[O_NAMED] = (move >> MOVE_NAMED_SHIFT) - 1
        if (mask & (T[T_DRAW] | T[T_SKIP] | T[T_NAME] | T[T_REVIVE])) != 0:   # a special card
            ndraw = popcount_nb(mask & T[T_DRAW])
            skips = popcount_nb(mask & T[T_SKIP])
            S[O_DRAWCARDS] += ndraw
            S[O_SKIPCARDS] += skips
            skips *= rules[R_SKIP_PER_CARD]
            S[O_HANDCARDS] += popcount_nb(mask & T[T_NAME])
            rev = mask & T[T_REVIVE]
            if rev != 0:
                revived = False
                if prev_out >= 0 and S[O_HAND_N + prev_out] == 0:
                    if draw_many_nb(S, prev_out, rules[R_REVIVE_DRAW], T, rng) > 0:
                        revived = True
                        S[O_REVIVES] += 1
                if revived:
                    if rules[R_SKULL_DRAW_REVIVING] == 0:
                        ndraw -= popcount_nb(rev & T[T_DRAW])
                elif rules[R_SKULL_DRAW_PLAIN] == 0:
                    ndraw -= popcount_nb(rev & T[T_DRAW])
            S[O_PEND] += ndraw * rules[R_DRAW_PER_CARD]
        if S[O_HAND_N + p] == 0:
            S[O_LAST_OUT] = p
            if S[O_ROUND] == 1 and S[O_FIRSTOUT1] < 0:
                S[O_FIRSTOUT1] = p
            if active_count_nb(S) <= 1:
                loser = p
                for q in range(S[O_P]):
                    if S[O_HAND_N + q] > 0:
                        loser = q
                S[O_PEND] = 0
                return end_round_nb(S, loser, rules, T, rng)
    if S[O_RTURN] >= rules[R_MAX_TURNS]:
        return end_game_nb(S, -1, CAP_TURNS)
    return begin_turn_nb(S, next_active_nb(S, p, skips), rules, T, rng)


@nb.njit(inline="always", **_JIT)
def moves_of_nb(S, phase, rules, T, moves):
    """The legal moves of the decision in ``phase`` into ``moves``; returns their count."""
    if phase == PH_DONE:
        return 0
    return legal_moves_nb(S, rules, T, moves)


@nb.njit(**_JIT)
def start_nb(S, seats, rules, T, rng, moves):
    """A new game for ``seats`` players: deal round 1; returns the first decision."""
    phase = start_game_nb(S, seats, rules, T, rng)
    return phase, moves_of_nb(S, phase, rules, T, moves)


@nb.njit(inline="always", **_JIT)
def apply_nb(S, phase, move, rules, T, rng, moves):
    """Play one turn of the seat to act, then everything automatic up to the next decision."""
    phase = step_nb(S, move, rules, T, rng)
    return phase, moves_of_nb(S, phase, rules, T, moves)


# ------------------------------------------------------------------ views
@nb.njit(inline="always", **_JIT)
def observe_nb(S, obs, seat, T):
    """What ``seat`` may see: its own hand, the pile (top card and the cards under it),
    every hand size and the public counters; the other hands read 0 and the draw pile's
    cards NONE (its size is public)."""
    for i in range(S_LEN):
        obs[i] = S[i]
    for q in range(MAX_PLAYERS):
        if q != seat:
            obs[O_HAND + q] = 0
    for i in range(O_DRAW, O_DRAW + S[O_DRAW_N]):
        obs[i] = NONE


@nb.njit(**_JIT)
def score_nb(S, scores):
    """Per-seat standing now (cards shed: fewer cards in hand leads): -100 per lost round
    minus the cards in hand; an eliminated seat also loses 1000."""
    for p in range(S[O_P]):
        v = -100 * S[O_LOSSES + p] - S[O_HAND_N + p]
        if S[O_ELIM_ROUND + p] != 0:
            v -= 1000
        scores[p] = v


@nb.njit(**_JIT)
def record_nb(S, row):
    row[_F_WINNER] = S[O_WINNER]
    row[_F_CAPPED] = 1 if S[O_CAPPED] != 0 else 0
    row[_F_TURNS] = S[O_TURN]
    row[_F_FIRST] = S[O_FIRST]
    row[_F_PLAYERS] = S[O_P]
    row[_F_ROUNDS] = S[O_ROUND]
    row[_F_CAP_KIND] = S[O_CAPPED]
    row[_F_LOSER_R1] = S[O_LOSER1]
    row[_F_FIRST_OUT_R1] = S[O_FIRSTOUT1]
    row[_F_REVIVES] = S[O_REVIVES]
    row[_F_RESHUFFLES] = S[O_RESHUF]
    row[_F_DRAW_CARDS] = S[O_DRAWCARDS]
    row[_F_SKIP_CARDS] = S[O_SKIPCARDS]
    row[_F_HAND_CARDS] = S[O_HANDCARDS]
    row[_F_PENALTY_DRAWN] = S[O_PENDRAWN]
    row[_F_LAST_ROUND_TURNS] = S[O_TURN] - S[O_RSTART_TURN]
    for p in range(MAX_PLAYERS):
        row[F_ELIM_ROUND + p] = S[O_ELIM_ROUND + p]
        row[F_ELIM_ORDER + p] = S[O_ELIM_ORDER + p]
        row[F_LOSSES + p] = S[O_LOSSES + p]
