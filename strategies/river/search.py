"""River battle ``search``: determinized Monte Carlo with kernel rollouts (either role).

At a decision with a choice, for each of ``budget`` rounds (default 32): deal the cards
the deciding seat has not seen (the battle cards missing from its hand, the board and
the discards; unseen tactic cards likewise) at random, from the strategies' own stream,
into the opponent's hand and the piles (sizes as observed); then for every candidate
move play the game out from that same deal with the compiled rules (``kernel.apply_nb``)
and ``heuristic`` for both seats, scoring each rollout with ``outcome_value_nb`` (1 for
a win, plus at most ``SHAPE`` for the margin). The candidates are the heuristic's
``candidates`` best plays in a play phase (its own choice among them), every move in the
other phases. Another move replaces the heuristic's only if its mean gain over the same
deals exceeds ``margin`` per deal and ``z`` standard errors of that paired mean (with few
deals the best of several noisy estimates is mostly noise: the test keeps the
heuristic's move unless the evidence is clear). Claims
are taken at once without search (a claim is proven and never hurts the attacker). It
sees only its observation (information-fair): the deals are guesses, never the true
hidden cards.

Parameters (``--param`` / ``play_range(params=...)``, ``bind.parse_params``):
``budget[,candidates[,margin_milli[,z_centi]]]``, defaults 32, 5, 50 (0.05 a deal), 100
(one standard error). The budget is what made it gain (8 deals: nothing measurable), the
z test added a little in every role measured; the figures, paired game by game against
the heuristic on the same deals (``python -m scripts.bench_river paired 300 SEED``), are
in ``strategies/river/__init__.py``.
"""
from __future__ import annotations

import numba as nb
import numpy as np

from simcore.river.kernel import apply_nb, observe_nb, unseen_nb
from simcore.river.model import (MAX_HAND, MAX_MOVES, MV_RETREAT, NONE, O_CUR, O_DAMAGED, O_DAMS, O_DECK,
                                 O_DECK0, O_DECK_N, O_DISC, O_DISC_N, O_HAND, O_HAND_N, O_TDECK, O_TDECK_N,
                                 O_WINNER, PH_A_END, PH_A_PLAY, PH_A_PREP, PH_D_PLAY, PH_DONE, R_TACTICS, S_LEN,
                                 TACTIC0, TB_LEN, TB_TACT_N)
from simcore.rng import below_nb

from .basic import heuristic_decide, heuristic_scored

_JIT = dict(cache=True, nogil=True)
DEFAULT_BUDGET = 32     # deals per decision
CANDIDATES = 5          # moves searched in a play phase: the heuristic's best CANDIDATES
SHAPE = 0.1             # weight of the margin in a rollout's value (outcome_value_nb)
MARGIN_MILLI = 50       # another move must beat the heuristic's by this much per deal (thousandths) ...
Z_CENTI = 100           # ... and by this many standard errors of the paired mean gain (hundredths)


@nb.njit(**_JIT)
def determinize_nb(obs, S, seat, data, rng, pool, tactics=0):
    """Copy ``obs`` into ``S`` with the opponent's hand and both piles dealt at random
    from the cards ``seat`` has not seen (tactic cards only when ``tactics`` is on)."""
    for i in range(S_LEN):
        S[i] = obs[i]
    unseen = unseen_nb(obs, seat, data)
    n = 0
    for b in range(60):
        if (unseen >> b) & 1:
            pool[n] = b
            n += 1
    nb_battle = n
    # unseen tactic cards: not in the own hand, not discarded
    for t in range(data[TB_TACT_N] if tactics != 0 else 0):
        c = TACTIC0 + t
        seen = False
        base = O_HAND + seat * MAX_HAND
        for i in range(obs[O_HAND_N + seat]):
            if obs[base + i] == c:
                seen = True
        for i in range(obs[O_DISC_N]):
            if obs[O_DISC + i] == c:
                seen = True
        if not seen:
            pool[n] = c
            n += 1
    # Fisher-Yates on the battle cards and the tactic cards separately
    for i in range(nb_battle - 1, 0, -1):
        j = below_nb(rng, i + 1)
        x = pool[i]
        pool[i] = pool[j]
        pool[j] = x
    for i in range(n - nb_battle - 1, 0, -1):
        j = nb_battle + below_nb(rng, i + 1)
        x = pool[nb_battle + i]
        pool[nb_battle + i] = pool[j]
        pool[j] = x
    opp = 1 - seat
    bi = 0
    ti = nb_battle
    # the opponent's hand: as many tactic cards as can be missing from the tactic pile
    h = obs[O_HAND_N + opp]
    t_in_hand = (n - nb_battle) - obs[O_TDECK_N]
    if t_in_hand < 0:
        t_in_hand = 0
    base = O_HAND + opp * MAX_HAND
    for i in range(h):
        if i < t_in_hand and ti < n:
            S[base + i] = pool[ti]
            ti += 1
        elif bi < nb_battle:
            S[base + i] = pool[bi]
            bi += 1
        else:
            S[base + i] = NONE
    for i in range(obs[O_DECK_N]):
        S[O_DECK + i] = pool[bi] if bi < nb_battle else NONE
        bi += 1
    for i in range(obs[O_TDECK_N]):
        S[O_TDECK + i] = pool[ti] if ti < n else NONE
        ti += 1


@nb.njit(**_JIT)
def outcome_value_nb(S, seat):
    """A finished rollout's value for ``seat``: 1 for a win, 0 for a loss, plus at most
    ``SHAPE`` for how the game was won or lost, so that moves which all win (or all lose)
    in every deal are still told apart: the attacker prefers to win with more of the pile
    left and to lose with more dams damaged; the defender prefers to win with fewer dams
    damaged and to lose with less of the pile left (holding longer)."""
    deck0 = S[O_DECK0] if S[O_DECK0] > 0 else 1
    left = S[O_DECK_N] / deck0
    dmg = S[O_DAMAGED] / S[O_DAMS] if S[O_DAMS] > 0 else 0.0
    if dmg > 1.0:
        dmg = 1.0
    won = S[O_WINNER] == seat
    if seat == 0:
        return (1.0 + SHAPE * left) if won else SHAPE * dmg
    return (1.0 + SHAPE * (1.0 - dmg)) if won else SHAPE * (1.0 - left)


@nb.njit(**_JIT)
def search_decide(phase, obs, moves, n_moves, rules, data, rng):
    if n_moves == 1:
        return 0
    if phase == PH_A_PREP or phase == PH_A_PLAY or phase == PH_A_END:
        if moves[0] < MV_RETREAT:
            return 0
    seat = obs[O_CUR]
    budget = data[TB_LEN] if data.shape[0] > TB_LEN else DEFAULT_BUDGET
    ncand = data[TB_LEN + 1] if data.shape[0] > TB_LEN + 1 else CANDIDATES
    margin = (data[TB_LEN + 2] if data.shape[0] > TB_LEN + 2 else MARGIN_MILLI) / 1000.0
    z = (data[TB_LEN + 3] if data.shape[0] > TB_LEN + 3 else Z_CENTI) / 100.0
    # the heuristic's scores rank the moves: only the best CANDIDATES are searched (the
    # heuristic's own choice always among them), so the budget goes to real alternatives
    sc = np.full(n_moves, -1.0e18)
    hk = heuristic_scored(phase, obs, moves, n_moves, rules, data, rng, sc)
    cand = np.empty(n_moves, np.int64)
    nc = 0
    if phase == PH_A_PLAY or phase == PH_D_PLAY:
        used = np.zeros(n_moves, np.bool_)
        cand[0] = hk
        used[hk] = True
        nc = 1
        while nc < ncand and nc < n_moves:
            b = -1
            for k in range(n_moves):
                if not used[k] and sc[k] > -1.0e17 and (b < 0 or sc[k] > sc[b]):
                    b = k
            if b < 0:
                break
            used[b] = True
            cand[nc] = b
            nc += 1
    else:
        for k in range(n_moves):
            cand[k] = k
        nc = n_moves
    if nc == 1:
        return hk
    h = 0
    for j in range(nc):
        if cand[j] == hk:
            h = j
    val = np.zeros(nc, np.float64)
    dv = np.zeros(nc, np.float64)      # this deal's values
    s1 = np.zeros(nc, np.float64)      # sum over deals of (value - the heuristic move's value)
    s2 = np.zeros(nc, np.float64)      # ... of its square
    base = np.empty(S_LEN, np.int64)
    S = np.empty(S_LEN, np.int64)
    o2 = np.empty(S_LEN, np.int64)
    mv2 = np.empty(MAX_MOVES, np.int64)
    pool = np.empty(96, np.int64)
    for _ in range(budget):
        determinize_nb(obs, base, seat, data, rng, pool, rules[R_TACTICS])
        for j in range(nc):
            for i in range(S_LEN):
                S[i] = base[i]
            ph, n = apply_nb(S, phase, moves[cand[j]], rules, data, rng, mv2)
            while ph != PH_DONE:
                observe_nb(S, o2, S[O_CUR], data)
                kk = heuristic_decide(ph, o2, mv2, n, rules, data, rng)
                ph, n = apply_nb(S, ph, mv2[kk], rules, data, rng, mv2)
            dv[j] = outcome_value_nb(S, seat)
            val[j] += dv[j]
        for j in range(nc):
            d = dv[j] - dv[h]
            s1[j] += d
            s2[j] += d * d
    # another move replaces the heuristic's only if its mean gain per deal over the same
    # deals exceeds ``margin`` and ``z`` standard errors of that paired mean
    best = h
    for j in range(nc):
        if j == h:
            continue
        m = s1[j] / budget
        var = s2[j] / budget - m * m
        se = np.sqrt(var / budget) if var > 0.0 and budget > 1 else 0.0
        if m > margin and m > z * se and val[j] > val[best]:
            best = j
    return cand[best]
