"""The compiled Regicide engine: the rules as numba functions over the int64 state vector
``S`` (layout in ``simcore.regicide.model``), written as a state machine so that drivers
(the kernel, the search strategy's rollouts, a user plug-in's kernel) share it:

    phase, n = start_nb(S, players, rules, TABLES, rng, moves)   # deal; first decision
    while phase != PH_DONE:
        k = <strategy>(phase, obs, moves, n, rules, data, rng)
        phase, n = apply_nb(S, phase, moves[k], rules, TABLES, rng, moves)

``moves`` (int64[MAX_MOVES]) receives the sorted legal moves of the next decision.
The pure-Python twin is ``simcore.regicide.reference``; tests hold them to each other.
"""
from __future__ import annotations

import numba as nb
import numpy as np

from ..driver import sort_moves_nb
from ..rng import below_nb
from .model import (CLUBS, DIAMONDS, FLIP, HEARTS, JESTER, MAX_HAND, MAX_PLAYERS, N_CASTLE, NONE,
                    O_CANCEL, O_CASTLE, O_CUR, O_DAMAGE, O_DEFEATED, O_DISC, O_DISC_N, O_ENEMY, O_EXACT,
                    O_FLIPS, O_FLIPS_USED, O_HAND_N, O_HANDS, O_JESTERS, O_KNOWN_TOP, O_MAXH, O_P,
                    O_PENDING, O_PHASE, O_PLAYED, O_PLAYED_N, O_REASON, O_SPADES, O_STATUS, O_TAV,
                    O_TAV_N, O_TURNS, O_YIELDED, O_YIELDS, PH_DISCARD, PH_DONE, PH_JESTER, PH_PLAY,
                    R_COMBO_MAX, R_COMPANIONS, R_DAMAGE, R_EXACT_TAVERN, R_FLIP1, R_FLIP4,
                    R_HAND_SIZE, R_HEARTS_FIRST, R_IMMUNITY, R_JACK_ATTACK, R_JACK_HEALTH,
                    R_JACK_VALUE, R_JESTER_CANCELS, R_JESTER_SELF, R_JESTERS, R_MAX_TURNS,
                    R_NO_MOVE, R_SOLO_FLIPS, R_SOLO_YIELD, R_STALLED, R_TURN_CAP, R_YIELD_RESTRICTION, S_LEN,
                    SPADES, YIELD)

_JIT = dict(cache=True, nogil=True)
# Regicide has no content tables (the deck is fixed): the ``tables`` argument of the game
# contract (``simcore/game.py``) is this placeholder array
TABLES = np.zeros(1, np.int64)


# ------------------------------------------------------------------ cards
@nb.njit(inline="always", **_JIT)
def value_nb(c, rules):
    if c == JESTER:
        return 0
    r = c // 4 + 1
    if r <= 10:
        return r
    return rules[R_JACK_VALUE + r - 11]


@nb.njit(inline="always", **_JIT)
def enemy_attack_nb(S, rules):
    return rules[R_JACK_ATTACK + 2 * (S[O_CASTLE + S[O_ENEMY]] // 4 - 10)]


@nb.njit(inline="always", **_JIT)
def enemy_health_nb(S, rules):
    return rules[R_JACK_HEALTH + 2 * (S[O_CASTLE + S[O_ENEMY]] // 4 - 10)]


@nb.njit(inline="always", **_JIT)
def immune_suit_nb(S, rules):
    if rules[R_IMMUNITY] == 0 or S[O_CANCEL] != 0:
        return -1
    return S[O_CASTLE + S[O_ENEMY]] % 4


@nb.njit(inline="always", **_JIT)
def shield_nb(S, rules):
    if rules[R_IMMUNITY] != 0 and S[O_CANCEL] == 0 and S[O_CASTLE + S[O_ENEMY]] % 4 == SPADES:
        return 0
    return S[O_SPADES]


@nb.njit(**_JIT)
def shuffle_nb(a, n, rng):
    for i in range(n - 1, 0, -1):
        j = below_nb(rng, i + 1)
        t = a[i]
        a[i] = a[j]
        a[j] = t


# ------------------------------------------------------------------ piles
@nb.njit(**_JIT)
def draw_nb(S, p):
    """Top of the Tavern deck into seat p's hand (caller checks the deck is not empty)."""
    n = S[O_TAV_N] - 1
    c = S[O_TAV + n]
    S[O_TAV + n] = NONE
    S[O_TAV_N] = n
    if S[O_KNOWN_TOP] > 0:
        S[O_KNOWN_TOP] -= 1
    h = S[O_HAND_N + p]
    S[O_HANDS + p * MAX_HAND + h] = c
    S[O_HAND_N + p] = h + 1


@nb.njit(**_JIT)
def refill_nb(S, p):
    while S[O_HAND_N + p] < S[O_MAXH] and S[O_TAV_N] > 0:
        draw_nb(S, p)


@nb.njit(inline="always", **_JIT)
def to_discard_nb(S, c):
    S[O_DISC + S[O_DISC_N]] = c
    S[O_DISC_N] += 1


@nb.njit(**_JIT)
def take_cards_nb(S, p, mask, dest_n, dest):
    """Move the masked hand positions of seat p (in position order) onto a pile;
    the remaining cards keep their order."""
    base = O_HANDS + p * MAX_HAND
    h = S[O_HAND_N + p]
    keep = 0
    for i in range(h):
        c = S[base + i]
        if (mask >> i) & 1:
            S[dest + S[dest_n]] = c
            S[dest_n] += 1
        else:
            S[base + keep] = c
            keep += 1
    for i in range(keep, h):
        S[base + i] = NONE
    S[O_HAND_N + p] = keep


@nb.njit(**_JIT)
def flip_nb(S):
    p = S[O_CUR]
    take_cards_nb(S, p, (1 << S[O_HAND_N + p]) - 1, O_DISC_N, O_DISC)
    refill_nb(S, p)
    S[O_FLIPS] -= 1
    S[O_FLIPS_USED] += 1


@nb.njit(**_JIT)
def hearts_nb(S, x, rng):
    n = S[O_DISC_N]
    shuffle_nb(S[O_DISC:O_DISC + n], n, rng)
    k = min(x, n)
    t = S[O_TAV_N]
    for i in range(t - 1, -1, -1):      # make room at the bottom of the Tavern deck
        S[O_TAV + k + i] = S[O_TAV + i]
    for i in range(k):
        S[O_TAV + i] = S[O_DISC + i]
    S[O_TAV_N] = t + k
    for i in range(k, n):
        S[O_DISC + i - k] = S[O_DISC + i]
    for i in range(n - k, n):
        S[O_DISC + i] = NONE
    S[O_DISC_N] = n - k


@nb.njit(**_JIT)
def diamonds_nb(S, x):
    P = S[O_P]
    drawn = 0
    p = S[O_CUR]
    skipped = 0
    while drawn < x and S[O_TAV_N] > 0 and skipped < P:
        if S[O_HAND_N + p] < S[O_MAXH]:
            draw_nb(S, p)
            drawn += 1
            skipped = 0
        else:
            skipped += 1
        p = (p + 1) % P


# ------------------------------------------------------------------ legal moves
@nb.njit(**_JIT)
def is_legal_set_nb(S, p, mask, rules):
    """Is this set of hand positions a legal step-1 play? (single; combo of 2-4 same-rank
    non-Ace cards totalling <= combo_max_total; Ace + one non-Jester card)."""
    base = O_HANDS + p * MAX_HAND
    cnt = 0
    r0 = -1
    same = True
    aces = 0
    jesters = 0
    total = 0
    for i in range(S[O_HAND_N + p]):
        if (mask >> i) & 1:
            c = S[base + i]
            cnt += 1
            if c == JESTER:
                jesters += 1
                continue
            r = c // 4 + 1
            if r == 1:
                aces += 1
            if r0 < 0:
                r0 = r
            elif r != r0:
                same = False
            total += value_nb(c, rules)
    if cnt == 1:
        return True
    if jesters > 0 or cnt > 4:
        return False
    if cnt == 2 and aces > 0 and rules[R_COMPANIONS] != 0:
        return True
    return same and aces == 0 and total <= rules[R_COMBO_MAX]


@nb.njit(**_JIT)
def may_yield_nb(S, rules):
    P = S[O_P]
    if P == 1:
        return rules[R_SOLO_YIELD] != 0
    if rules[R_YIELD_RESTRICTION] == 0:
        return True
    cur = S[O_CUR]
    for p in range(P):
        if p != cur and S[O_YIELDED + p] == 0:
            return True
    return False


@nb.njit(**_JIT)
def play_moves_nb(S, rules, moves):
    """Every legal step-1 move, sorted by mask: singles, pairs (companions, same-rank
    combos), same-rank triples and quads; then yield and flip when allowed."""
    p = S[O_CUR]
    h = S[O_HAND_N + p]
    base = O_HANDS + p * MAX_HAND
    cmax = rules[R_COMBO_MAX]
    comp = rules[R_COMPANIONS] != 0
    n = 0
    for i in range(h):
        moves[n] = 1 << i
        n += 1
    for i in range(h):
        ci = S[base + i]
        if ci == JESTER:
            continue
        ri = ci // 4 + 1
        vi = value_nb(ci, rules)
        for j in range(i + 1, h):
            cj = S[base + j]
            if cj == JESTER:
                continue
            rj = cj // 4 + 1
            if comp and (ri == 1 or rj == 1):
                moves[n] = (1 << i) | (1 << j)
                n += 1
            elif ri == rj and ri != 1 and vi + value_nb(cj, rules) <= cmax:
                moves[n] = (1 << i) | (1 << j)
                n += 1
            if ri == rj and ri != 1 and 3 * vi <= cmax:
                for k in range(j + 1, h):
                    ck = S[base + k]
                    if ck != JESTER and ck // 4 + 1 == ri:
                        if 3 * vi <= cmax:
                            moves[n] = (1 << i) | (1 << j) | (1 << k)
                            n += 1
                        if 4 * vi <= cmax:
                            for m in range(k + 1, h):
                                cm = S[base + m]
                                if cm != JESTER and cm // 4 + 1 == ri:
                                    moves[n] = (1 << i) | (1 << j) | (1 << k) | (1 << m)
                                    n += 1
    sort_moves_nb(moves, n)   # by mask
    if may_yield_nb(S, rules):
        moves[n] = YIELD
        n += 1
    if S[O_P] == 1 and S[O_FLIPS] > 0 and rules[R_FLIP1] != 0:
        moves[n] = FLIP
        n += 1
    return n


@nb.njit(**_JIT)
def discard_moves_nb(S, rules, moves):
    """Every discard set covering the pending damage (minimal or not), then a flip."""
    p = S[O_CUR]
    need = S[O_PENDING]
    n = 0
    if need <= 0:
        moves[0] = 0
        n = 1
    else:
        h = S[O_HAND_N + p]
        base = O_HANDS + p * MAX_HAND
        total = 0
        for i in range(h):
            total += value_nb(S[base + i], rules)
        if total >= need:
            for mask in range(1 << h):
                s = 0
                m = mask
                i = 0
                while m:
                    if m & 1:
                        s += value_nb(S[base + i], rules)
                    m >>= 1
                    i += 1
                if s >= need:
                    moves[n] = mask
                    n += 1
    if S[O_P] == 1 and S[O_FLIPS] > 0 and rules[R_FLIP4] != 0:
        moves[n] = FLIP
        n += 1
    return n


@nb.njit(**_JIT)
def jester_moves_nb(S, rules, moves):
    n = 0
    for p in range(S[O_P]):
        if p != S[O_CUR] or rules[R_JESTER_SELF] != 0:
            moves[n] = p
            n += 1
    return n


# ------------------------------------------------------------------ turn steps
@nb.njit(**_JIT)
def lose_nb(S, reason):
    S[O_STATUS] = 2
    S[O_REASON] = reason
    S[O_PHASE] = PH_DONE


@nb.njit(**_JIT)
def stalled_nb(S, rules):
    """Solo, empty hand, no flip usable at step 1 or 4, attack fully shielded: yielding
    forever is the only move and changes nothing (``model.R_STALLED``)."""
    if S[O_P] != 1 or S[O_HAND_N] != 0:
        return False
    if S[O_FLIPS] > 0 and (rules[R_FLIP1] != 0 or rules[R_FLIP4] != 0):
        return False
    return enemy_attack_nb(S, rules) - shield_nb(S, rules) <= 0


@nb.njit(**_JIT)
def begin_turn_nb(S, rules, moves):
    if S[O_TURNS] >= rules[R_MAX_TURNS]:
        lose_nb(S, R_TURN_CAP)
        return PH_DONE, 0
    n = play_moves_nb(S, rules, moves)
    if n == 0:
        lose_nb(S, R_NO_MOVE)
        return PH_DONE, 0
    if stalled_nb(S, rules):
        lose_nb(S, R_STALLED)
        return PH_DONE, 0
    S[O_PHASE] = PH_PLAY
    return PH_PLAY, n


@nb.njit(**_JIT)
def begin_step4_nb(S, rules, moves):
    S[O_PENDING] = max(0, enemy_attack_nb(S, rules) - shield_nb(S, rules))
    n = discard_moves_nb(S, rules, moves)
    if n == 0:
        lose_nb(S, R_DAMAGE)
        return PH_DONE, 0
    S[O_PHASE] = PH_DISCARD
    return PH_DISCARD, n


@nb.njit(**_JIT)
def apply_play_nb(S, move, rules, rng, moves):
    p = S[O_CUR]
    if move == FLIP:
        flip_nb(S)
        return begin_turn_nb(S, rules, moves)
    S[O_TURNS] += 1
    if move == YIELD:
        S[O_YIELDED + p] = 1
        S[O_YIELDS] += 1
        return begin_step4_nb(S, rules, moves)
    S[O_YIELDED + p] = 0
    first = S[O_PLAYED_N]
    take_cards_nb(S, p, move, O_PLAYED_N, O_PLAYED)
    last = S[O_PLAYED_N]
    if last - first == 1 and S[O_PLAYED + first] == JESTER:
        if rules[R_JESTER_CANCELS] != 0:
            S[O_CANCEL] = 1
        S[O_JESTERS] += 1
        S[O_PHASE] = PH_JESTER
        return PH_JESTER, jester_moves_nb(S, rules, moves)
    x = 0
    suits = 0
    for i in range(first, last):
        c = S[O_PLAYED + i]
        x += value_nb(c, rules)
        suits |= 1 << (c % 4)
    spade_played = (suits >> SPADES) & 1
    immune = immune_suit_nb(S, rules)
    if immune >= 0:
        suits &= ~(1 << immune)
    # step 2: suit powers (Hearts before Diamonds unless the option says otherwise)
    if rules[R_HEARTS_FIRST] != 0:
        if (suits >> HEARTS) & 1:
            hearts_nb(S, x, rng)
        if (suits >> DIAMONDS) & 1:
            diamonds_nb(S, x)
    else:
        if (suits >> DIAMONDS) & 1:
            diamonds_nb(S, x)
        if (suits >> HEARTS) & 1:
            hearts_nb(S, x, rng)
    if spade_played:
        S[O_SPADES] += x
    # step 3: damage
    S[O_DAMAGE] += 2 * x if (suits >> CLUBS) & 1 else x
    health = enemy_health_nb(S, rules)
    if S[O_DAMAGE] >= health:
        S[O_DEFEATED] += 1
        for i in range(S[O_PLAYED_N]):
            to_discard_nb(S, S[O_PLAYED + i])
            S[O_PLAYED + i] = NONE
        S[O_PLAYED_N] = 0
        enemy = S[O_CASTLE + S[O_ENEMY]]
        if S[O_DAMAGE] == health and rules[R_EXACT_TAVERN] != 0:
            S[O_TAV + S[O_TAV_N]] = enemy
            S[O_TAV_N] += 1
            S[O_KNOWN_TOP] += 1
            S[O_EXACT] += 1
        else:
            to_discard_nb(S, enemy)
        S[O_ENEMY] += 1
        S[O_DAMAGE] = 0
        S[O_SPADES] = 0
        S[O_CANCEL] = 0
        if S[O_ENEMY] == N_CASTLE:
            S[O_STATUS] = 1
            S[O_PHASE] = PH_DONE
            return PH_DONE, 0
        return begin_turn_nb(S, rules, moves)
    return begin_step4_nb(S, rules, moves)


@nb.njit(**_JIT)
def apply_discard_nb(S, move, rules, moves):
    if move == FLIP:
        flip_nb(S)
        return begin_step4_nb(S, rules, moves)
    p = S[O_CUR]
    take_cards_nb(S, p, move, O_DISC_N, O_DISC)
    S[O_CUR] = (p + 1) % S[O_P]
    return begin_turn_nb(S, rules, moves)


@nb.njit(**_JIT)
def apply_nb(S, phase, move, rules, tables, rng, moves):
    """Apply the chosen move of a decision; run the rules to the next decision.
    Returns (next phase, number of legal moves written to ``moves``)."""
    if phase == PH_PLAY:
        return apply_play_nb(S, move, rules, rng, moves)
    if phase == PH_DISCARD:
        return apply_discard_nb(S, move, rules, moves)
    S[O_CUR] = move
    return begin_turn_nb(S, rules, moves)


@nb.njit(**_JIT)
def start_nb(S, players, rules, tables, rng, moves):
    """Set up a game in ``S`` from the game's stream; return the first decision."""
    for i in range(S_LEN):
        S[i] = NONE
    for i in range(O_CASTLE):
        S[i] = 0
    for p in range(MAX_PLAYERS):
        for i in range(MAX_HAND):
            S[O_HANDS + p * MAX_HAND + i] = NONE
    S[O_P] = players
    S[O_MAXH] = rules[R_HAND_SIZE + players - 1]
    S[O_FLIPS] = rules[R_SOLO_FLIPS] if players == 1 else 0
    S[O_PHASE] = PH_PLAY
    for g in range(3):                     # Jacks, Queens, Kings, each group shuffled
        for s in range(4):
            S[O_CASTLE + 4 * g + s] = (10 + g) * 4 + s
        shuffle_nb(S[O_CASTLE + 4 * g:O_CASTLE + 4 * g + 4], 4, rng)
    n = 0
    for c in range(40):                    # Aces and 2-10
        S[O_TAV + n] = c
        n += 1
    for j in range(rules[R_JESTERS + players - 1]):
        S[O_TAV + n] = JESTER
        n += 1
    S[O_TAV_N] = n
    S[O_DISC_N] = 0
    S[O_PLAYED_N] = 0
    shuffle_nb(S[O_TAV:O_TAV + n], n, rng)
    for p in range(players):
        refill_nb(S, p)
    return begin_turn_nb(S, rules, moves)


# ------------------------------------------------------------------ observation
@nb.njit(**_JIT)
def observe_nb(S, obs, seat, tables):
    """Copy ``S`` into ``obs`` with what ``seat`` may not see masked (NONE): other hands,
    the Tavern deck below its public top cards, the castle below the current enemy.
    (The labelled cheat sees ``S`` itself: ``simcore.driver`` copies it.)"""
    for i in range(S_LEN):
        obs[i] = S[i]
    cur = seat
    for p in range(S[O_P]):
        if p != cur:
            for i in range(MAX_HAND):
                obs[O_HANDS + p * MAX_HAND + i] = NONE
    for i in range(S[O_TAV_N] - S[O_KNOWN_TOP]):
        obs[O_TAV + i] = NONE
    for i in range(S[O_ENEMY] + 1, N_CASTLE):
        obs[O_CASTLE + i] = NONE


@nb.njit(**_JIT)
def score_nb(S, scores):
    """The lead score: enemies defeated, the same for every seat (a cooperative game has
    no leader; the lead metrics are not defined for it)."""
    for p in range(scores.shape[0]):
        scores[p] = S[O_DEFEATED]


@nb.njit(**_JIT)
def record_nb(S, out):
    """Fill one game's record (order of ``model.RECORD_FIELDS``)."""
    won = S[O_STATUS] == 1
    out[0] = 1 if won else 0
    out[1] = S[O_P]
    out[2] = S[O_DEFEATED]
    out[3] = S[O_ENEMY]
    if won:
        out[4] = 0
        out[5] = -1
    else:
        e = S[O_CASTLE + S[O_ENEMY]]
        out[4] = e // 4 + 1
        out[5] = e % 4
    out[6] = S[O_TURNS]
    out[7] = S[O_FLIPS_USED]
    out[8] = max(1, 3 - S[O_FLIPS_USED]) if (won and S[O_P] == 1) else 0
    out[9] = S[O_JESTERS]
    out[10] = S[O_YIELDS]
    out[11] = S[O_EXACT]
    out[12] = S[O_REASON]
