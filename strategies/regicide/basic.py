"""Regicide ``random`` and ``heuristic`` strategies (information-fair; see
``strategies/regicide/__init__.py`` for the interface).

The heuristic (also the search strategy's rollout policy), for the seat to act:

Step 1 (play), each legal move is scored and the best taken:
  1. A play that defeats the enemy scores highest; an exact kill (the enemy card goes on
     top of the Tavern deck) beats an overkill; among kills the one spending the fewest
     hand points wins (Diamonds draws on the way count in its favour).
  2. Otherwise a play must leave a hand that covers the damage then suffered (enemy
     attack minus all shields, this play's Spades included); plays that do not are ruled
     out unless nothing else survives (then the most damage). Survivable plays score
     damage dealt + the shield's value over the turns still needed against this enemy
     + cards drawn (Diamonds) + discard pile recycled when the Tavern runs low (Hearts)
     - hand points spent - damage suffered.
  3. A Jester is kept for emergencies (no survivable play) or to unlock an immune suit
     held in numbers; yielding only when it is the only way to survive; a solo flip
     only when nothing else survives (or the hand is empty).
Step 4 (discard): the set of cards covering the damage with the smallest total, ties
  broken towards cards of the enemy's immune suit and fewer cards; a solo flip only
  when the hand cannot cover the damage.
Jester: the next seat is the one holding the most cards (ties: the next clockwise).
"""
from __future__ import annotations

import numba as nb

from simcore.regicide.kernel import enemy_attack_nb, enemy_health_nb, immune_suit_nb, shield_nb, value_nb
from simcore.regicide.model import (CLUBS, DIAMONDS, FLIP, HEARTS, JESTER, MAX_HAND, O_CUR, O_DAMAGE,
                                    O_DISC_N, O_HAND_N, O_HANDS, O_MAXH, O_P, O_PENDING, O_TAV_N,
                                    PH_DISCARD, PH_JESTER, R_EXACT_TAVERN, SPADES, YIELD)
from simcore.rng import below_nb

_JIT = dict(cache=True, nogil=True)
DEATH = -1.0e6


@nb.njit(**_JIT)
def random_decide(phase, obs, moves, n_moves, rules, data, rng):
    return below_nb(rng, n_moves)


@nb.njit(**_JIT)
def best_discard(obs, moves, n_moves, rules):
    p = obs[O_CUR]
    base = O_HANDS + p * MAX_HAND
    h = obs[O_HAND_N + p]
    need = obs[O_PENDING]
    im = immune_suit_nb(obs, rules)
    best = 1.0e18
    bi = -1
    flip_k = -1
    for k in range(n_moves):
        mv = moves[k]
        if mv == FLIP:
            flip_k = k
            continue
        cost = 0.0
        for i in range(h):
            if (mv >> i) & 1:
                c = obs[base + i]
                v = value_nb(c, rules)
                cost += v + 0.05
                if c == JESTER:
                    cost += 30.0
                elif c % 4 == im:
                    cost -= 0.5
                elif c // 4 == 0:
                    cost += 0.6  # Aces pair with anything: keep them
        cost -= need
        if cost < best:
            best = cost
            bi = k
    if bi < 0:
        return flip_k
    return bi


@nb.njit(**_JIT)
def play_score(obs, mv, rules):
    """Heuristic score of a step-1 move (higher is better)."""
    p = obs[O_CUR]
    P = obs[O_P]
    base = O_HANDS + p * MAX_HAND
    h = obs[O_HAND_N + p]
    attack = enemy_attack_nb(obs, rules)
    health = enemy_health_nb(obs, rules)
    remaining = health - obs[O_DAMAGE]
    shield = shield_nb(obs, rules)
    im = immune_suit_nb(obs, rules)
    hand_total = 0
    for i in range(h):
        hand_total += value_nb(obs[base + i], rules)
    if mv == YIELD:
        incoming = max(0, attack - shield)
        if hand_total < incoming:
            return DEATH
        return -incoming - 4.0 - (0.0 if P > 1 else 2.0)
    if mv == FLIP:
        if h == 0:
            return 0.0  # an empty hand can do nothing else
        return DEATH / 2  # better than dying, worse than anything survivable
    x = 0
    cnt = 0
    suits = 0
    jester = False
    for i in range(h):
        if (mv >> i) & 1:
            c = obs[base + i]
            cnt += 1
            if c == JESTER:
                jester = True
            else:
                x += value_nb(c, rules)
                suits |= 1 << (c % 4)
    if jester:
        # no damage suffered this turn; unlocks the immune suit
        sc = -6.0
        if im >= 0:
            same = 0
            for i in range(h):
                c = obs[base + i]
                if c != JESTER and c % 4 == im:
                    same += value_nb(c, rules)
            sc += 0.6 * same
        return sc
    spade_played = (suits >> SPADES) & 1
    if im >= 0:
        suits &= ~(1 << im)
    dmg = 2 * x if (suits >> CLUBS) & 1 else x
    space = obs[O_MAXH] - (h - cnt)
    draws = 0
    if (suits >> DIAMONDS) & 1:
        draws = min(x, obs[O_TAV_N])
        if P == 1:
            draws = min(draws, space)
        else:
            draws = min((draws + P - 1) // P, space)
    heal = 0
    if (suits >> HEARTS) & 1:
        heal = min(x, obs[O_DISC_N])
    tav_low = 1.0 if obs[O_TAV_N] < 10 else 0.25
    if dmg >= remaining:
        sc = 1000.0 - x + 3.0 * draws + 0.3 * heal * tav_low
        if dmg == remaining and rules[R_EXACT_TAVERN] != 0:
            sc += 25.0
        return sc
    new_shield = shield
    if spade_played and ((suits >> SPADES) & 1):
        new_shield += x
    incoming = max(0, attack - new_shield)
    left = hand_total - x
    if left < incoming:
        if left + 3 * draws < incoming:
            return DEATH + dmg
        risk = 20.0
    else:
        risk = 0.0
    # shields keep working on the turns still needed against this enemy
    turns_left = (remaining - dmg + 9) // 10
    shield_gain = min(new_shield, attack) - min(shield, attack)
    sc = dmg + shield_gain * (0.5 * turns_left) + 4.0 * draws + 0.5 * heal * tav_low - x - incoming - risk
    return sc


@nb.njit(**_JIT)
def heuristic_decide(phase, obs, moves, n_moves, rules, data, rng):
    if n_moves == 1:
        return 0
    if phase == PH_DISCARD:
        return best_discard(obs, moves, n_moves, rules)
    if phase == PH_JESTER:
        P = obs[O_P]
        cur = obs[O_CUR]
        best = -1
        bi = 0
        for k in range(n_moves):
            s = moves[k]
            # most cards first; among equals the nearest clockwise
            key = obs[O_HAND_N + s] * 8 + (P - ((s - cur - 1) % P))
            if key > best:
                best = key
                bi = k
        return bi
    best = -1.0e18
    bi = 0
    for k in range(n_moves):
        sc = play_score(obs, moves[k], rules)
        if sc > best:
            best = sc
            bi = k
    return bi
