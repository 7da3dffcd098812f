"""Regicide ``search`` strategy: determinized Monte Carlo search with numba rollouts.

At a decision with more than one candidate move the seat:
  1. samples a *determinization* of its information set: the hidden cards (the Tavern
     deck below its public top cards, the other seats' hands, the castle order below the
     current enemy) are dealt at random from the cards it cannot see - the cards not in
     its hand, the discard pile, the played pile, the castle or the public Tavern top;
  2. plays each candidate move in that sampled world and continues the game to its end
     with the ``heuristic`` policy for every seat (``strategies/regicide/basic.py``);
  3. scores the end: enemies defeated + the fraction of the last enemy's health dealt,
     +3 for a win (+0.01 per unused solo flip);
  4. allocates rollouts by successive halving: all candidates get rollouts over shared
     determinizations, the worse half is dropped, and so on until one is left; the total
     budget is ``data[0]`` rollouts per candidate (``--param``, default 16).
Step-4 candidates are the *minimal* discard sets (and a solo flip); a larger discard set
is never better than one of its minimal subsets in this scoring.

The search draws one number from the game's stream per decision to seed its private
rollout stream (``model.SEARCH_DOMAIN``), so kernel and reference engine stay in step.
With ``reveal`` (the ``cheat`` strategy) nothing is hidden and the same code searches the
true deck order: a perfect-information ceiling.
"""
from __future__ import annotations

import numba as nb
import numpy as np

from simcore.regicide.kernel import TABLES, apply_nb, enemy_health_nb, shuffle_nb, value_nb
from simcore.regicide.model import (FLIP, JESTER, MAX_HAND, MAX_MOVES, N_CASTLE, NONE, O_CASTLE, O_CUR,
                                    O_DAMAGE, O_DISC, O_DISC_N, O_ENEMY, O_FLIPS, O_HAND_N, O_HANDS, O_P,
                                    O_PENDING, O_PLAYED, O_PLAYED_N, O_STATUS, O_TAV, O_TAV_N, PH_DISCARD,
                                    PH_DONE, R_JESTERS, S_LEN, SEARCH_DOMAIN)
from simcore.rng import mix64_nb, next_u64_nb
from strategies.regicide.basic import heuristic_decide

_JIT = dict(cache=True, nogil=True)
WIN_BONUS = 3.0


@nb.njit(**_JIT)
def determinize_nb(obs, D, rules, ps, seen, pool):
    """Copy ``obs`` into ``D`` and fill every hidden (NONE) slot with a card sampled from
    the cards the observer cannot see. ``seen`` int64[53], ``pool`` int64[64] scratch."""
    for i in range(S_LEN):
        D[i] = obs[i]
    enemy = obs[O_ENEMY]
    # castle: hidden positions get the unseen suits of their rank group, shuffled
    for g in range(3):
        have = 0
        nh = 0
        for s in range(4):
            c = obs[O_CASTLE + 4 * g + s]
            if c != NONE:
                have |= 1 << (c % 4)
            else:
                nh += 1
        if nh > 0:
            m = 0
            for s in range(4):
                if not (have >> s) & 1:
                    pool[m] = (10 + g) * 4 + s
                    m += 1
            shuffle_nb(pool, m, ps)
            m = 0
            for s in range(4):
                if obs[O_CASTLE + 4 * g + s] == NONE:
                    D[O_CASTLE + 4 * g + s] = pool[m]
                    m += 1
    # the cards whose place is known
    for c in range(53):
        seen[c] = 0
    P = obs[O_P]
    for p in range(P):
        for i in range(obs[O_HAND_N + p]):
            c = obs[O_HANDS + p * MAX_HAND + i]
            if c != NONE:
                seen[c] += 1
    for i in range(obs[O_DISC_N]):
        seen[obs[O_DISC + i]] += 1
    for i in range(obs[O_PLAYED_N]):
        seen[obs[O_PLAYED + i]] += 1
    for i in range(obs[O_TAV_N]):
        c = obs[O_TAV + i]
        if c != NONE:
            seen[c] += 1
    for i in range(enemy, N_CASTLE):
        seen[D[O_CASTLE + i]] += 1
    m = 0
    for c in range(52):
        if seen[c] == 0:
            pool[m] = c
            m += 1
    for j in range(rules[R_JESTERS + P - 1] - seen[JESTER]):
        pool[m] = JESTER
        m += 1
    shuffle_nb(pool, m, ps)
    k = 0
    for p in range(P):
        for i in range(obs[O_HAND_N + p]):
            if D[O_HANDS + p * MAX_HAND + i] == NONE and k < m:
                D[O_HANDS + p * MAX_HAND + i] = pool[k]
                k += 1
    for i in range(obs[O_TAV_N]):
        if D[O_TAV + i] == NONE and k < m:
            D[O_TAV + i] = pool[k]
            k += 1


@nb.njit(**_JIT)
def end_score(S, rules):
    if S[O_STATUS] == 1:
        return N_CASTLE + WIN_BONUS + 0.01 * S[O_FLIPS]
    return S[O_ENEMY] + S[O_DAMAGE] / enemy_health_nb(S, rules)


@nb.njit(**_JIT)
def rollout_nb(S, phase, n, rules, moves, data, ps):
    """Finish the game in ``S`` with the heuristic for every seat; return its score."""
    while phase != PH_DONE:
        if S[O_P] == 1 and S[O_HAND_N] == 0 and S[O_FLIPS] == 0:
            break  # solo, no cards and no flips: nothing can ever be played again (a loss)
        k = heuristic_decide(phase, S, moves, n, rules, data, ps)
        phase, n = apply_nb(S, phase, moves[k], rules, TABLES, ps, moves)
    return end_score(S, rules)


@nb.njit(**_JIT)
def candidates_nb(phase, obs, moves, n_moves, rules, cand):
    """Indices of the moves worth searching (all, except non-minimal discard sets)."""
    m = 0
    if phase != PH_DISCARD:
        for k in range(n_moves):
            cand[m] = k
            m += 1
        return m
    p = obs[O_CUR]
    base = O_HANDS + p * MAX_HAND
    need = obs[O_PENDING]
    for k in range(n_moves):
        mv = moves[k]
        if mv == FLIP or mv == 0:
            cand[m] = k
            m += 1
            continue
        tot = 0
        for i in range(obs[O_HAND_N + p]):
            if (mv >> i) & 1:
                tot += value_nb(obs[base + i], rules)
        minimal = True
        for i in range(obs[O_HAND_N + p]):
            if (mv >> i) & 1 and tot - value_nb(obs[base + i], rules) >= need:
                minimal = False
                break
        if minimal:
            cand[m] = k
            m += 1
    return m


@nb.njit(**_JIT)
def search_decide(phase, obs, moves, n_moves, rules, data, rng):
    if n_moves == 1:
        return 0
    seed = next_u64_nb(rng)
    ps = np.empty(2, np.uint64)
    ps[0] = mix64_nb(seed ^ np.uint64(SEARCH_DOMAIN))
    ps[1] = np.uint64(0)
    cand = np.empty(MAX_MOVES, np.int64)
    m = candidates_nb(phase, obs, moves, n_moves, rules, cand)
    if m == 1:
        return cand[0]
    per = max(1, int(data[0]))
    total = per * m
    rounds = 0
    t = m
    while t > 1:
        t = (t + 1) // 2
        rounds += 1
    D = np.empty(S_LEN, np.int64)
    S2 = np.empty(S_LEN, np.int64)
    mv2 = np.empty(MAX_MOVES, np.int64)
    seen = np.empty(53, np.int64)
    pool = np.empty(64, np.int64)
    sums = np.zeros(m)
    cnts = np.zeros(m)
    alive = m
    for r in range(rounds):
        iters = max(1, total // (rounds * alive))
        for it in range(iters):
            determinize_nb(obs, D, rules, ps, seen, pool)
            for ci in range(alive):
                for i in range(S_LEN):
                    S2[i] = D[i]
                ph, n2 = apply_nb(S2, phase, moves[cand[ci]], rules, TABLES, ps, mv2)
                sums[ci] += rollout_nb(S2, ph, n2, rules, mv2, data, ps)
                cnts[ci] += 1.0
        if alive <= 1:
            break
        # keep the better half (stable: ties keep the earlier move)
        keep = (alive + 1) // 2
        for a in range(keep):
            b = a
            for c in range(a + 1, alive):
                if sums[c] / cnts[c] > sums[b] / cnts[b]:
                    b = c
            if b != a:
                tc = cand[a]
                cand[a] = cand[b]
                cand[b] = tc
                ts = sums[a]
                sums[a] = sums[b]
                sums[b] = ts
                tn = cnts[a]
                cnts[a] = cnts[b]
                cnts[b] = tn
        alive = keep
    best = 0
    for c in range(1, alive):
        if sums[c] / cnts[c] > sums[best] / cnts[best]:
            best = c
    return cand[best]
