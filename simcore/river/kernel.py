"""The compiled river battle: the rules as numba functions over the int64 state vector
``S`` (layout in ``simcore.river.model``), a state machine every driver shares:

    phase, n = start_nb(S, seats, rules, tables, rng, moves)       # setup; first decision
    while phase != PH_DONE:
        observe_nb(S, obs, S[O_CUR], tables)
        k = <strategy>(phase, obs, moves, n, rules, tables, srng)
        phase, n = apply_nb(S, phase, moves[k], rules, tables, rng, moves)

``moves`` (int64[MAX_MOVES]) receives the sorted legal moves of the next decision. A
decision whose only legal move is ``MV_END`` is taken automatically (both engines), so a
strategy is only asked when it has a choice.

Turn structure (digest "A turn"): the attacker's turn is preparation (claims, one retreat,
or END), play (claims, one card; END only when no card can be played), the automatic draw
(a choice of pile when tactic cards are on), then the end of turn (claims or END): the
attacker may declare control at every one of its decisions. The defender's turn is
preparation (one log or END) then play, then the draw. The random stream is used only at
setup (tile order, battle pile, tactic pile), so the kernel and the reference engine draw
the same numbers. The pure-Python twin is ``simcore.river.reference``.
"""
from __future__ import annotations

import numba as nb
from numba.cpython.unsafe.numbers import trailing_zeros

from ..driver import sort_moves_nb
from ..rng import below_nb
from .formations import best_key_stats_nb, key_nb, pool_stats_nb
from simcore.rawarrays import raw_view, stack_array_i64
from .model import (DISC_CAP, EF_STEAL, MAX_HAND, MAX_SIDE, MV_CLAIM, MV_DRAW_BATTLE, MV_DRAW_TACTIC,
                    MV_END, MV_LOG, MV_PLAY, MV_RETREAT, MV_STEAL, N_TILES, NONE, O_CANCELS, O_CAPPED, O_DAMS, O_DECK0,
                    O_CLAIMS, O_CUR, O_DAMAGED, O_DECIDE, O_DECK, O_DECK_N, O_DISC, O_DISC_N, O_DONE,
                    O_FINAL, O_HAND, O_HAND_N, O_LOGS, O_LOGS_USED, O_PHASE, O_REASON, O_RETREATS,
                    O_SIDE, O_SIDE_N, O_STAMP, O_STEALS, O_TDECK, O_TDECK_N, O_TILE, O_TSTATE, O_TURN,
                    O_WINNER, PH_A_END, PH_A_PLAY, PH_A_PREP, PH_D_PLAY, PH_D_PREP, PH_DONE, PH_DRAW,
                    END_CAP, R_DAMS, END_DECKOUT, END_DESTROY, R_DESTROY_WINS, R_DUCK, END_FOURTH, R_HAND,
                    R_LAST_TURN, R_LOGS, R_MAX_TURNS, R_PROOF, R_SHUFFLE, R_TACTICS, R_TIE, R_TRIGGER, S_LEN,
                    TACTIC0, TB_BEAVER, TB_DUCK, TB_FULL, TB_FULL_HI, TB_TACT, TB_TACT_N, TB_TILE, VSTRIDE)

# ``_nrt=False``: numba emits no reference counting in these functions. They allocate no
# array: every array they touch is an argument (kept alive by the caller), a view of one or
# a stack buffer (``simcore.rawarrays.raw_view`` / ``stack_array_i64``, null meminfo). With
# it on, each inlined helper taking an array paid an incref/decref call pair, even on the
# borrowed views (whose counts are null).
_JIT = dict(cache=True, nogil=True, _nrt=False)


# ------------------------------------------------------------------ helpers
@nb.njit(inline="always", **_JIT)
def shuffle_nb(a, lo, n, rng):
    """Fisher-Yates on a[lo:lo+n]: for i = n-1 .. 1, j = below(i + 1), swap."""
    for i in range(n - 1, 0, -1):
        j = below_nb(rng, i + 1)
        t = a[lo + i]
        a[lo + i] = a[lo + j]
        a[lo + j] = t


@nb.njit(inline="always", **_JIT)
def tile_n_nb(S, pos, tables):
    st = S[O_TSTATE + pos]
    if st > 1:
        st = 1
    return tables[TB_TILE + 4 * S[O_TILE + pos] + 2 * st]


@nb.njit(inline="always", **_JIT)
def tile_mode_nb(S, pos, tables):
    st = S[O_TSTATE + pos]
    if st > 1:
        st = 1
    return tables[TB_TILE + 4 * S[O_TILE + pos] + 2 * st + 1]


@nb.njit(inline="always", **_JIT)
def side_off(pos, seat):
    return O_SIDE + (pos * 2 + seat) * MAX_SIDE


@nb.njit(inline="always", **_JIT)
def restamp_nb(S, pos, seat, tables):
    """A side's completion stamp: set when it becomes complete, cleared when it is not."""
    d = O_DONE + pos * 2 + seat
    if S[O_SIDE_N + pos * 2 + seat] >= tile_n_nb(S, pos, tables):
        if S[d] == 0:
            S[O_STAMP] += 1
            S[d] = S[O_STAMP]
    else:
        S[d] = 0


@nb.njit(inline="always", **_JIT)
def discard_nb(S, c):
    S[O_DISC + S[O_DISC_N]] = c
    S[O_DISC_N] += 1


@nb.njit(inline="always", **_JIT)
def remove_side_card_nb(S, pos, seat, i, tables):
    """Take card i off a side (later cards move one step closer to the dam); returns it."""
    o = side_off(pos, seat)
    k = S[O_SIDE_N + pos * 2 + seat]
    c = S[o + i]
    for j in range(i, k - 1):
        S[o + j] = S[o + j + 1]
    S[o + k - 1] = NONE
    S[O_SIDE_N + pos * 2 + seat] = k - 1
    restamp_nb(S, pos, seat, tables)
    return c


@nb.njit(inline="always", **_JIT)
def clear_side_nb(S, pos, seat):
    o = side_off(pos, seat)
    for i in range(S[O_SIDE_N + pos * 2 + seat]):
        discard_nb(S, S[o + i])
        S[o + i] = NONE
    S[O_SIDE_N + pos * 2 + seat] = 0
    S[O_DONE + pos * 2 + seat] = 0


@nb.njit(**_JIT)
def remove_hand_nb(S, seat, c):
    base = O_HAND + seat * MAX_HAND
    h = S[O_HAND_N + seat]
    j = 0
    for i in range(h):
        x = S[base + i]
        if x == c and j == i:
            continue
        S[base + j] = x
        j += 1
    S[base + h - 1] = NONE
    S[O_HAND_N + seat] = h - 1


@nb.njit(inline="always", **_JIT)
def full_mask_nb(tables):
    """The battle cards of the deck as a bit mask (stored in two 30-bit halves)."""
    return tables[TB_FULL] | (tables[TB_FULL_HI] << 30)


@nb.njit(inline="always", **_JIT)
def unseen_nb(S, seat, tables):
    """Battle cards ``seat`` has not seen: the deck minus its own hand, the board and the
    public discards (= the draw pile and the opponent's hand). Uses only what ``seat``
    observes, so it is the same on the true state and on ``seat``'s observation."""
    known = 0
    base = O_HAND + seat * MAX_HAND
    for i in range(S[O_HAND_N + seat]):
        c = S[base + i]
        if 0 <= c < 60:
            known |= 1 << c
    for q in range(2 * N_TILES):
        o = O_SIDE + q * MAX_SIDE
        for i in range(S[O_SIDE_N + q]):
            known |= 1 << S[o + i]
    for i in range(S[O_DISC_N]):
        c = S[O_DISC + i]
        if 0 <= c < 60:
            known |= 1 << c
    return full_mask_nb(tables) & ~known


@nb.njit(inline="always", **_JIT)
def claim_verdict_nb(S, pos, rules, tables):
    """What decides a claim at ``pos`` without the unseen cards: 1 the attacker may
    declare control, 0 it may not, -1 only the proof can tell (``proven_claims_nb``)."""
    st = S[O_TSTATE + pos]
    if st >= 2 or (st == 1 and rules[R_DESTROY_WINS] == 0):
        return 0
    n = tile_n_nb(S, pos, tables)
    if S[O_SIDE_N + pos * 2] < n:
        return 0
    if S[O_SIDE_N + pos * 2 + 1] >= n:
        mode = tile_mode_nb(S, pos, tables)
        ka = key_nb(S, side_off(pos, 0), n, mode)
        kd = key_nb(S, side_off(pos, 1), n, mode)
        if ka > kd:
            return 1
        if ka == kd and rules[R_TIE] == 0:
            return 1 if S[O_DONE + pos * 2] < S[O_DONE + pos * 2 + 1] else 0
        return 0
    if rules[R_PROOF] == 0:
        return 0
    return -1


@nb.njit(inline="always", **_JIT)
def partner_nb(c, tables):
    """The card that cancels ``c`` played opposite it (the same colour's beaver for a
    duck, its duck for a beaver), or -1 (``reference.Game.partner``)."""
    v = c % VSTRIDE
    if v == tables[TB_DUCK]:
        return c - v + tables[TB_BEAVER]
    if v == tables[TB_BEAVER]:
        return c - v + tables[TB_DUCK]
    return -1


@nb.njit(inline="always", **_JIT)
def cancellers_nb(S, pos, rules, tables):
    """The cards that could never land on the defender's side at ``pos``, as a bit mask
    (``reference.Game.cancellers``): with duck_beaver on, the partner of each duck or
    beaver on the attacker's side there (played at that dam, it cancels that card)."""
    m = 0
    if rules[R_DUCK] != 0:
        o = side_off(pos, 0)
        for i in range(S[O_SIDE_N + pos * 2]):
            q = partner_nb(S[o + i], tables)
            if q >= 0:
                m |= 1 << q
    return m


@nb.njit(inline="always", **_JIT)
def claim_proof_nb(S, pos, rules, tables, cntv, colm, total):
    """The exact control proof at ``pos`` (attacker's side complete, defender's not): no
    completion of the defender's side with cards the attacker has not seen (pool
    statistics ``cntv, colm, total`` of ``unseen_nb(S, 0)``) reaches a key that beats the
    attacker's (a later completion wins a tie only when the defender holds every tie,
    ``tie_rule`` defender; under first and defender_complete the attacker completed first)."""
    n = tile_n_nb(S, pos, tables)
    mode = tile_mode_nb(S, pos, tables)
    ka = key_nb(S, side_off(pos, 0), n, mode)
    best = best_key_stats_nb(S, side_off(pos, 1), S[O_SIDE_N + pos * 2 + 1], n, mode, cntv, colm, total)
    if best < 0:
        return True
    if rules[R_TIE] == 1:
        return best < ka
    return best <= ka


@nb.njit(**_JIT)
def has_steal_nb(S, seat, tables):
    base = O_HAND + seat * MAX_HAND
    for i in range(S[O_HAND_N + seat]):
        c = S[base + i]
        if c >= TACTIC0 and tables[TB_TACT + c - TACTIC0] == EF_STEAL:
            return True
    return False


# ------------------------------------------------------------------ legal moves
MAX_STEALS = N_TILES * MAX_SIDE * N_TILES   # steal moves at most: (source dam, card there, destination)


@nb.njit(inline="always", **_JIT)
def steal_moves_nb(S, seat, tables, out, n):
    """``seat``'s "steal" moves (an opponent's card at a dam not destroyed, to a dam where
    ``seat``'s side is open), in ascending order, written to ``out`` from index ``n``;
    returns the new count (at most ``MAX_STEALS`` more)."""
    opp = 1 - seat
    for sp in range(N_TILES):
        if S[O_TSTATE + sp] >= 2:
            continue
        for si in range(S[O_SIDE_N + sp * 2 + opp]):
            for dp in range(N_TILES):
                if S[O_TSTATE + dp] < 2 and S[O_SIDE_N + dp * 2 + seat] < tile_n_nb(S, dp, tables):
                    out[n] = MV_STEAL + (sp * 4 + si) * 8 + dp
                    n += 1
    return n


PS_LEN = VSTRIDE + 5     # pool statistics: counts per value, value masks per colour


@nb.njit(inline="always", **_JIT)
def proven_claims_nb(S, proof, rules, tables, moves, n):
    """Append ``MV_CLAIM + pos`` for each dam of the bit mask ``proof`` whose claim the
    exact proof allows (the unseen cards' statistics computed once); returns the new count."""
    ps = stack_array_i64(PS_LEN)     # on the stack: no allocation, no reference count
    cntv = ps[0:VSTRIDE]
    colm = ps[VSTRIDE:VSTRIDE + 5]
    unseen = unseen_nb(S, 0, tables)
    total = pool_stats_nb(unseen, cntv, colm)
    while proof != 0:
        pos = trailing_zeros(proof)
        proof &= proof - 1
        # a card that would only cancel an attacker's card there completes nothing: out
        # of that dam's pool (rare: the statistics are recomputed for it, then restored)
        gone = cancellers_nb(S, pos, rules, tables) & unseen
        if gone != 0:
            ok = claim_proof_nb(S, pos, rules, tables, cntv, colm, pool_stats_nb(unseen & ~gone, cntv, colm))
            total = pool_stats_nb(unseen, cntv, colm)
        else:
            ok = claim_proof_nb(S, pos, rules, tables, cntv, colm, total)
        if ok:
            moves[n] = MV_CLAIM + pos
            n += 1
    return n


@nb.njit(**_JIT)
def gen_moves_nb(S, phase, rules, tables, moves):
    n = 0
    seat = S[O_CUR]
    if phase == PH_A_PREP or phase == PH_A_PLAY or phase == PH_A_END:
        proof = 0                       # dams only the proof can decide, as a bit mask
        for pos in range(N_TILES):
            v = claim_verdict_nb(S, pos, rules, tables)
            if v < 0:
                proof |= 1 << pos
            elif v == 1:
                moves[n] = MV_CLAIM + pos
                n += 1
        if proof != 0:
            n = proven_claims_nb(S, proof, rules, tables, moves, n)
            sort_moves_nb(moves, n)   # the proven claims come after the others (at most 7 claims)
    if phase == PH_A_PREP:
        for pos in range(N_TILES):
            if S[O_SIDE_N + pos * 2] > 0 and S[O_TSTATE + pos] < 2:
                moves[n] = MV_RETREAT + pos
                n += 1
        moves[n] = MV_END
        n += 1
    elif phase == PH_D_PREP:
        if S[O_LOGS] > 0:
            for pos in range(N_TILES):
                if S[O_SIDE_N + pos * 2] > 0 and S[O_TSTATE + pos] < 2:
                    moves[n] = MV_LOG + pos
                    n += 1
        moves[n] = MV_END
        n += 1
    elif phase == PH_A_PLAY or phase == PH_D_PLAY:
        n0 = n
        base = O_HAND + seat * MAX_HAND
        # battle cards of the hand in ascending order (a bit mask), so the plays come out sorted
        hm = 0
        for i in range(S[O_HAND_N + seat]):
            c = S[base + i]
            if c < 60:
                hm |= 1 << c
        open_m = 0                      # the dams open to this side, as a bit mask
        for pos in range(N_TILES):
            if S[O_TSTATE + pos] < 2 and S[O_SIDE_N + pos * 2 + seat] < tile_n_nb(S, pos, tables):
                open_m |= 1 << pos
        while hm != 0:
            c = trailing_zeros(hm)
            hm &= hm - 1
            om = open_m
            while om != 0:
                moves[n] = MV_PLAY + c * 8 + trailing_zeros(om)
                om &= om - 1
                n += 1
        if has_steal_nb(S, seat, tables):
            n = steal_moves_nb(S, seat, tables, moves, n)
        if n == n0:
            moves[n] = MV_END
            n += 1
    elif phase == PH_A_END:
        moves[n] = MV_END
        n += 1
    elif phase == PH_DRAW:
        moves[0] = MV_DRAW_BATTLE
        moves[1] = MV_DRAW_TACTIC
        n = 2
    # The list is sorted as built: claims (MV_CLAIM + pos, sorted above), then retreats or
    # logs by dam, or plays by card then dam (MV_PLAY + card * 8 + pos) and steals, then END;
    # the draw's two piles in order.
    return n


# ------------------------------------------------------------------ actions
@nb.njit(inline="always", **_JIT)
def end_game_nb(S, winner, reason, tile):
    S[O_WINNER] = winner
    S[O_REASON] = reason
    S[O_DECIDE] = tile
    S[O_PHASE] = PH_DONE


@nb.njit(**_JIT)
def draw_battle_nb(S, seat, rules):
    k = S[O_DECK_N]
    if k == 0:
        if S[O_FINAL] == 0 and rules[R_TRIGGER] == 0:
            S[O_FINAL] = 1
        return
    c = S[O_DECK + k - 1]
    S[O_DECK + k - 1] = NONE
    S[O_DECK_N] = k - 1
    S[O_HAND + seat * MAX_HAND + S[O_HAND_N + seat]] = c
    S[O_HAND_N + seat] += 1
    if k == 1 and S[O_FINAL] == 0 and rules[R_TRIGGER] == 1:
        S[O_FINAL] = 1


@nb.njit(**_JIT)
def draw_tactic_nb(S, seat):
    k = S[O_TDECK_N]
    c = S[O_TDECK + k - 1]
    S[O_TDECK + k - 1] = NONE
    S[O_TDECK_N] = k - 1
    S[O_HAND + seat * MAX_HAND + S[O_HAND_N + seat]] = c
    S[O_HAND_N + seat] += 1


@nb.njit(**_JIT)
def claim_nb(S, pos, rules):
    """Declare control: discard both sides, damage the dam (or destroy a damaged one)."""
    S[O_CLAIMS] += 1
    clear_side_nb(S, pos, 0)
    clear_side_nb(S, pos, 1)
    tile = S[O_TILE + pos]
    if S[O_TSTATE + pos] == 0:
        S[O_TSTATE + pos] = 1
        S[O_DAMAGED] += 1
        if S[O_DAMAGED] >= rules[R_DAMS]:
            end_game_nb(S, 0, END_FOURTH, tile)
    else:
        S[O_TSTATE + pos] = 2
        end_game_nb(S, 0, END_DESTROY, tile)


@nb.njit(**_JIT)
def play_card_nb(S, seat, c, pos, rules, tables):
    remove_hand_nb(S, seat, c)
    if rules[R_DUCK] != 0:
        other = partner_nb(c, tables)
        if other >= 0:
            opp = 1 - seat
            o = side_off(pos, opp)
            for i in range(S[O_SIDE_N + pos * 2 + opp]):
                if S[o + i] == other:
                    discard_nb(S, c)
                    discard_nb(S, remove_side_card_nb(S, pos, opp, i, tables))
                    S[O_CANCELS] += 1
                    return
    k = S[O_SIDE_N + pos * 2 + seat]
    S[side_off(pos, seat) + k] = c
    S[O_SIDE_N + pos * 2 + seat] = k + 1
    restamp_nb(S, pos, seat, tables)


@nb.njit(**_JIT)
def steal_nb(S, seat, mv, tables):
    x = mv - MV_STEAL
    dp = x % 8
    sp = (x // 8) // 4
    si = (x // 8) % 4
    base = O_HAND + seat * MAX_HAND
    for i in range(S[O_HAND_N + seat]):
        c = S[base + i]
        if c >= TACTIC0 and tables[TB_TACT + c - TACTIC0] == EF_STEAL:
            remove_hand_nb(S, seat, c)
            discard_nb(S, c)
            break
    c = remove_side_card_nb(S, sp, 1 - seat, si, tables)
    k = S[O_SIDE_N + dp * 2 + seat]
    S[side_off(dp, seat) + k] = c
    S[O_SIDE_N + dp * 2 + seat] = k + 1
    restamp_nb(S, dp, seat, tables)
    S[O_STEALS] += 1


@nb.njit(inline="always", **_JIT)
def begin_turn_nb(S, seat, rules):
    S[O_TURN] += 1
    if S[O_TURN] > rules[R_MAX_TURNS]:
        S[O_TURN] -= 1
        S[O_CAPPED] = 1
        end_game_nb(S, -1, END_CAP, -1)
        return PH_DONE
    S[O_CUR] = seat
    if seat == 0:
        if S[O_FINAL] == 1:
            S[O_FINAL] = 2
        return PH_A_PREP
    return PH_D_PREP


@nb.njit(**_JIT)
def end_turn_nb(S, rules):
    seat = S[O_CUR]
    if S[O_FINAL] == 2 or (S[O_FINAL] == 1 and rules[R_LAST_TURN] == 0):
        end_game_nb(S, 1, END_DECKOUT, -1)
        return PH_DONE
    return begin_turn_nb(S, 1 - seat, rules)


@nb.njit(**_JIT)
def after_play_nb(S, rules):
    """Phase 3: draw (a choice of pile only when tactic cards are on and both piles have cards)."""
    seat = S[O_CUR]
    if rules[R_TACTICS] != 0 and S[O_TDECK_N] > 0 and S[O_DECK_N] > 0:
        return PH_DRAW
    draw_battle_nb(S, seat, rules)
    return after_draw_nb(S, rules)


@nb.njit(**_JIT)
def after_draw_nb(S, rules):
    if S[O_CUR] == 0:
        return PH_A_END
    return end_turn_nb(S, rules)


@nb.njit(**_JIT)
def do_move_nb(S, phase, mv, rules, tables):
    """Carry out one move; returns the next phase (its moves not yet generated)."""
    seat = S[O_CUR]
    if mv < MV_RETREAT:
        claim_nb(S, mv - MV_CLAIM, rules)
        if S[O_PHASE] == PH_DONE:
            return PH_DONE
        return phase
    if mv < MV_LOG:
        pos = mv - MV_RETREAT
        clear_side_nb(S, pos, 0)
        S[O_RETREATS] += 1
        return PH_A_PLAY
    if mv < MV_PLAY:
        pos = mv - MV_LOG
        discard_nb(S, remove_side_card_nb(S, pos, 0, 0, tables))
        S[O_LOGS] -= 1
        S[O_LOGS_USED] += 1
        return PH_D_PLAY
    if mv < MV_STEAL:
        x = mv - MV_PLAY
        play_card_nb(S, seat, x // 8, x % 8, rules, tables)
        return after_play_nb(S, rules)
    if mv < MV_DRAW_BATTLE:
        steal_nb(S, seat, mv, tables)
        return after_play_nb(S, rules)
    if mv == MV_DRAW_BATTLE:
        draw_battle_nb(S, seat, rules)
        return after_draw_nb(S, rules)
    if mv == MV_DRAW_TACTIC:
        draw_tactic_nb(S, seat)
        return after_draw_nb(S, rules)
    # MV_END
    if phase == PH_A_PREP:
        return PH_A_PLAY
    if phase == PH_D_PREP:
        return PH_D_PLAY
    if phase == PH_A_PLAY or phase == PH_D_PLAY:
        return after_play_nb(S, rules)
    return end_turn_nb(S, rules)       # PH_A_END


@nb.njit(**_JIT)
def settle_nb(S, phase, rules, tables, moves):
    """Generate the next decision's moves; a lone END is taken automatically."""
    while True:
        if phase == PH_DONE:
            S[O_PHASE] = PH_DONE
            return PH_DONE, 0
        n = gen_moves_nb(S, phase, rules, tables, moves)
        if n == 1 and moves[0] == MV_END:
            phase = do_move_nb(S, phase, moves[0], rules, tables)   # moves[0] == MV_END, not a literal:
            # a literal argument compiles a second specialization of do_move_nb
            continue
        S[O_PHASE] = phase
        return phase, n


# ------------------------------------------------------------------ entry points
@nb.njit(**_JIT)
def start_nb(S, seats, rules, tables, rng, moves):
    """Set up a game (tile order, battle pile, tactic pile from ``rng``; 6 cards to the
    attacker, then 6 to the defender, from the top) and return the first decision."""
    for i in range(S_LEN):
        S[i] = 0
    for i in range(O_DECK, O_DECK + 64):
        S[i] = NONE
    for i in range(O_TDECK, O_TDECK + 16):
        S[i] = NONE
    for i in range(O_HAND, O_HAND + 2 * MAX_HAND):
        S[i] = NONE
    for i in range(O_SIDE, O_SIDE + 2 * N_TILES * MAX_SIDE):
        S[i] = NONE
    for i in range(O_DISC, O_DISC + DISC_CAP):
        S[i] = NONE
    S[O_WINNER] = -1
    S[O_DECIDE] = -1
    for i in range(N_TILES):
        S[O_TILE + i] = i
    if rules[R_SHUFFLE] != 0:
        shuffle_nb(S, O_TILE, N_TILES, rng)
    k = 0
    full = full_mask_nb(tables)
    for c in range(60):
        if (full >> c) & 1:
            S[O_DECK + k] = c
            k += 1
    S[O_DECK_N] = k
    shuffle_nb(S, O_DECK, k, rng)
    if rules[R_TACTICS] != 0:
        t = tables[TB_TACT_N]
        for i in range(t):
            S[O_TDECK + i] = TACTIC0 + i
        S[O_TDECK_N] = t
        shuffle_nb(S, O_TDECK, t, rng)
    for seat in range(2):
        for _ in range(rules[R_HAND]):
            if S[O_DECK_N] > 0:
                draw_battle_nb(S, seat, rules)
    S[O_FINAL] = 0
    S[O_LOGS] = rules[R_LOGS]
    S[O_DECK0] = S[O_DECK_N]
    S[O_DAMS] = rules[R_DAMS]
    phase = begin_turn_nb(S, 0, rules)
    return settle_nb(S, phase, rules, tables, moves)


@nb.njit(**_JIT)
def apply_nb(S, phase, move, rules, tables, rng, moves):
    # the rules read the arrays through borrowed views (``simcore.rawarrays``): the
    # helpers they pass through keep no reference counts
    S, rules, tables, moves = raw_view(S), raw_view(rules), raw_view(tables), raw_view(moves)
    phase = do_move_nb(S, phase, move, rules, tables)
    return settle_nb(S, phase, rules, tables, moves)


@nb.njit(**_JIT)
def observe_nb(S, obs, seat, tables):
    """What ``seat`` sees: the opponent's hand, the battle pile and the tactic pile are
    masked (NONE), their sizes kept."""
    for i in range(O_DECK):
        obs[i] = S[i]
    for i in range(O_DECK, O_DECK + 64):
        obs[i] = NONE
    obs[O_TDECK_N] = S[O_TDECK_N]
    for i in range(O_TDECK, O_TDECK + 16):
        obs[i] = NONE
    for i in range(O_HAND_N, S_LEN):
        obs[i] = S[i]
    base = O_HAND + (1 - seat) * MAX_HAND
    for i in range(MAX_HAND):
        obs[base + i] = NONE


@nb.njit(**_JIT)
def score_nb(S, scores):
    """Per-seat score for the lead metrics, both on the scale of the attacker's goal:
    the attacker's is the damage done (a damaged dam 1, a destroyed one 2); the
    defender's is ``dams_to_win`` x the share of the battle pile drawn since the deal (its
    clock: it wins when the pile runs out). Both 0 at the start."""
    d = 0.0
    for pos in range(N_TILES):
        d += S[O_TSTATE + pos]
    scores[0] = d
    if S[O_DECK0] > 0:
        scores[1] = S[O_DAMS] * (S[O_DECK0] - S[O_DECK_N]) / S[O_DECK0]
    else:
        scores[1] = S[O_DAMS]


@nb.njit(**_JIT)
def record_nb(S, row):
    row[0] = S[O_WINNER]
    row[1] = S[O_CAPPED]
    row[2] = S[O_TURN]
    row[3] = 0
    row[4] = S[O_REASON]
    row[5] = S[O_DECIDE] + 1
    row[6] = S[O_DAMAGED]
    row[7] = S[O_CLAIMS]
    row[8] = S[O_RETREATS]
    row[9] = S[O_LOGS_USED]
    row[10] = S[O_CANCELS]
    row[11] = S[O_STEALS]
    row[12] = S[O_DECK_N]
    for pos in range(N_TILES):
        row[13 + S[O_TILE + pos]] = S[O_TSTATE + pos]
