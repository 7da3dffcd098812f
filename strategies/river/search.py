"""River battle ``search``: determinized Monte Carlo with kernel rollouts (either role).

At a decision with a choice, for each of ``budget`` rounds (``data[model.TB_LEN]``,
default 4): deal the cards the deciding seat has not seen (the battle cards missing from
its hand, the board and the discards; unseen tactic cards likewise) at random, from the
strategies' own stream, into the opponent's hand and the piles (sizes as observed); then
for every legal move play the game out from that same deal with the compiled rules
(``kernel.apply_nb``) and ``heuristic`` for both seats, counting wins of the deciding
seat. The move with the most wins is taken; ties go to the heuristic's own choice, then
to the first move. It sees only its observation (information-fair): the deals are
guesses, never the true hidden cards. Claims are taken at once without search (a claim
is proven and never hurts the attacker).
"""
from __future__ import annotations

import numba as nb
import numpy as np

from simcore.river.kernel import apply_nb, observe_nb, unseen_nb
from simcore.river.model import (MAX_HAND, MAX_MOVES, MV_RETREAT, NONE, O_CUR, O_DECK, O_DECK_N, O_DISC,
                                 O_DISC_N, O_HAND, O_HAND_N, O_TDECK, O_TDECK_N, O_WINNER, PH_A_END,
                                 PH_A_PLAY, PH_A_PREP, PH_DONE, R_TACTICS, S_LEN, TACTIC0, TB_LEN, TB_TACT_N)
from simcore.rng import below_nb

from .basic import heuristic_decide

_JIT = dict(cache=True, nogil=True)
DEFAULT_BUDGET = 4


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
def search_decide(phase, obs, moves, n_moves, rules, data, rng):
    if n_moves == 1:
        return 0
    if phase == PH_A_PREP or phase == PH_A_PLAY or phase == PH_A_END:
        if moves[0] < MV_RETREAT:
            return 0
    seat = obs[O_CUR]
    budget = data[TB_LEN] if data.shape[0] > TB_LEN else DEFAULT_BUDGET
    hk = heuristic_decide(phase, obs, moves, n_moves, rules, data, rng)
    wins = np.zeros(n_moves, np.float64)
    wins[hk] = 0.5
    base = np.empty(S_LEN, np.int64)
    S = np.empty(S_LEN, np.int64)
    o2 = np.empty(S_LEN, np.int64)
    mv2 = np.empty(MAX_MOVES, np.int64)
    pool = np.empty(96, np.int64)
    for _ in range(budget):
        determinize_nb(obs, base, seat, data, rng, pool, rules[R_TACTICS])
        for k in range(n_moves):
            for i in range(S_LEN):
                S[i] = base[i]
            ph, n = apply_nb(S, phase, moves[k], rules, data, rng, mv2)
            while ph != PH_DONE:
                observe_nb(S, o2, S[O_CUR], data)
                kk = heuristic_decide(ph, o2, mv2, n, rules, data, rng)
                ph, n = apply_nb(S, ph, mv2[kk], rules, data, rng, mv2)
            if S[O_WINNER] == seat:
                wins[k] += 1.0
    best = 0
    for k in range(1, n_moves):
        if wins[k] > wins[best]:
            best = k
    return best
