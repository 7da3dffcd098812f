"""Dice Throne ``search``: determinized Monte Carlo search with kernel rollouts.

At a decision with a choice, the candidates are every legal move, except that in the roll
phase the dice keeps are narrowed to ``optimal``'s keep, ``greedy``'s keep and stopping
(card plays stay candidates), a Tithes reroll is a candidate only when ``optimal`` takes
it, and the die decision after a card is ``optimal``'s (a ``choose``'s picks, ``PH_CHOOSE``,
are all candidates). For each of ``budget`` samples (``data[D_BUDGET]``, default
``DEFAULT_BUDGET``; ``play_range(..., search_budget=N)``), shared by every candidate
(common random numbers, ``strategies/mcsearch.py``):

  1. determinize: the cards the seat cannot see are dealt at random from what it can: its
     own draw pile = its deck list less its hand and discards, shuffled; the opponent's
     hand and draw pile = the opponent's deck list less its discards, shuffled and dealt by
     the public counts;
  2. play the candidate with the kernel's ``apply_nb`` and roll out with ``optimal`` in
     both seats (reading the sampled state) for ``horizon`` turns (``data[D_HORIZON]``,
     default ``DEFAULT_HORIZON``) or to the end of the game;
  3. score it: 1 a win, 0 a loss, 0.5 a draw; a position still running scores
     ``0.5 + 0.5 * tanh((own health - opponent's health) / HP_SCALE)``.

``optimal``'s move is played unless another candidate's mean beats it by ``MARGIN``. The
content tables the rollouts need travel packed in the strategy data (``pack_tables``) and
are unpacked per decision. Only ``obs`` is read; the samples come from private streams keyed
by one draw of the strategies' stream (the game's stream is never touched), so both
engines see the same choices.

Measured (2026-11-30, this 2-core machine under load; ``playtest dicethrone run --hero H
--vs H --strategy search --vs-strategy T -n N --seed 1 --jobs 2 --json``, both seat orders,
draws half): Pyromancer mirror vs optimal 61.3% [54.3, 67.7] (N=100, 0.61 s a game), vs
greedy 90.5% [83.2, 94.8] (N=50), vs random 100% [96.3, 100] (N=50); Paladin mirror vs
optimal 63.7% [56.9, 70.1] (N=100, 0.26 s a game), vs greedy 93.5% [86.9, 96.9], vs random
100% [96.3, 100] (N=50). At budget 6 it was 50.8% (Pyromancer) and 43.3% (Paladin) against
optimal: the budget matters more than the rollout length (horizon 6 was worse than 3).
"""
from __future__ import annotations

import numba as nb
import numpy as np

from simcore.dicethrone.borrow import table_ptrs_nb
from simcore.dicethrone.kernel import apply_tp_nb, sees_hand_nb, shuffle_nb
from simcore.dicethrone.model import O_ALIVE, O_NSEATS, P_PLACE, P_TEAM
from simcore.dicethrone.model import (MAX_CARDS, MAX_MOVES, MV_PLAY, MV_TITHE_DRAW, MV_TITHE_REROLL, NONE, O_CUR, O_OVER,
                                      O_SEATS, O_TURN, O_WINNER, P_DECK, P_DECK_N, P_DISC, P_DISC_N,
                                      P_HAND, P_HAND_N, P_HERO, P_HP, P_LEN, PH_DIE, PH_ROLL, S_LEN,
                                      Tables)
from strategies.mcsearch import add_candidate, budget_of, playout_nb, search_nb

from .basic import greedy_decide
from .optimal import D_BUDGET, D_HORIZON, D_TABLES, optimal_decide

_JIT = dict(cache=True, nogil=True, error_model="numpy")
DEFAULT_BUDGET = 16
DEFAULT_HORIZON = 3
MARGIN = 0.02
HP_SCALE = 20.0
MAX_STEPS = 4000
FIELD_W = 8      # per packed field: offset, ndim, shape[5]


def pack_tables(T: Tables, start: int) -> np.ndarray:
    """The content tables as a float64 block that will sit at ``data[start:]``: a header of
    ``FIELD_W`` floats per field (offset, ndim, shape), then the values (exact: small ints)."""
    names = Tables._fields
    head = np.zeros(len(names) * FIELD_W, np.float64)
    parts = []
    pos = start + head.size
    for i, name in enumerate(names):
        v = np.asarray(getattr(T, name))
        head[i * FIELD_W] = pos
        head[i * FIELD_W + 1] = v.ndim
        head[i * FIELD_W + 2:i * FIELD_W + 2 + v.ndim] = v.shape
        a = v.astype(np.float64).ravel()
        parts.append(a)
        pos += a.size
    return np.concatenate([head] + parts)


@nb.njit(**_JIT)
def _flat(data, p, i):
    h = p + i * FIELD_W
    off = int(data[h])
    nd = int(data[h + 1])
    size = 1
    for d in range(nd):
        size *= int(data[h + 2 + d])
    a = np.empty(size, np.int64)
    for j in range(size):
        a[j] = int(data[off + j])
    return a


@nb.njit(**_JIT)
def _dim(data, p, i, d):
    return int(data[p + i * FIELD_W + 2 + d])


@nb.njit(**_JIT)
def _a1(data, p, i):
    return _flat(data, p, i)


@nb.njit(**_JIT)
def _a2(data, p, i):
    return _flat(data, p, i).reshape((_dim(data, p, i, 0), _dim(data, p, i, 1)))


@nb.njit(**_JIT)
def _a3(data, p, i):
    return _flat(data, p, i).reshape((_dim(data, p, i, 0), _dim(data, p, i, 1), _dim(data, p, i, 2)))


@nb.njit(**_JIT)
def _a4(data, p, i):
    return _flat(data, p, i).reshape((_dim(data, p, i, 0), _dim(data, p, i, 1), _dim(data, p, i, 2),
                                      _dim(data, p, i, 3)))


@nb.njit(**_JIT)
def _a5(data, p, i):
    return _flat(data, p, i).reshape((_dim(data, p, i, 0), _dim(data, p, i, 1), _dim(data, p, i, 2),
                                      _dim(data, p, i, 3), _dim(data, p, i, 4)))


@nb.njit(**_JIT)
def unpack_tables(data):
    """``Tables`` rebuilt from the packed block (field order of ``model.Tables``)."""
    p = int(data[D_TABLES])
    # the field numbers below go through an array: a bare constant is typed Literal, and
    # numba compiled _flat/_dim/_a* once per field and dimension number (29 + 58 copies)
    f = np.arange(35)
    tv = _a3(data, p, f[12]).astype(np.float64)
    n_tok = int(data[int(data[p + 25 * FIELD_W])])
    return Tables(_a2(data, p, f[0]), _a2(data, p, f[1]), _a2(data, p, f[2]), _a2(data, p, f[3]), _a1(data, p, f[4]),
                  _a1(data, p, f[5]), _a2(data, p, f[6]), _a2(data, p, f[7]), _a3(data, p, f[8]), _a3(data, p, f[9]),
                  _a3(data, p, f[10]), _a3(data, p, f[11]), tv, _a4(data, p, f[13]), _a5(data, p, f[14]), _a4(data, p, f[15]),
                  _a3(data, p, f[16]), _a1(data, p, f[17]), _a3(data, p, f[18]), _a3(data, p, f[19]), _a3(data, p, f[20]),
                  _a2(data, p, f[21]), _a2(data, p, f[22]), _a2(data, p, f[23]), _a1(data, p, f[24]), n_tok,
                  _a2(data, p, f[26]), _a2(data, p, f[27]), _a1(data, p, f[28]), _a1(data, p, f[29]),
                  _a2(data, p, f[30]), _a3(data, p, f[31]), _a2(data, p, f[32]), _a3(data, p, f[33]), _a1(data, p, f[34]))


@nb.njit(**_JIT)
def deal_nb(obs, S, q, own, T, rng, pool, cnt):
    """Seat ``q``'s hidden cards dealt at random into ``S``: its draw pile, and its hand
    unless ``own`` (a hand the deciding seat sees: its own, a teammate's under
    ``team_sees_hands``)."""
    b = O_SEATS + q * P_LEN
    h = obs[b + P_HERO]
    cnt[:] = 0
    for i in range(T.deck_n[h]):
        cnt[T.deck[h, i]] += 1
    for i in range(obs[b + P_DISC_N]):
        cnt[obs[b + P_DISC + i]] -= 1
    if own:
        for i in range(obs[b + P_HAND_N]):
            cnt[obs[b + P_HAND + i]] -= 1
    n = 0
    for c in range(MAX_CARDS):
        for _ in range(cnt[c]):
            pool[n] = c
            n += 1
    shuffle_nb(pool, 0, n, rng)
    k = 0
    if not own:
        for i in range(obs[b + P_HAND_N]):
            S[b + P_HAND + i] = pool[k] if k < n else NONE
            k += 1
    for i in range(obs[b + P_DECK_N]):
        S[b + P_DECK + i] = pool[k] if k < n else NONE
        k += 1


@nb.njit(**_JIT)
def position_value(S, seat):
    """``seat``'s team: 1 won, 0.5 a draw it is in (or a capped game it survived); placed but
    not first (out, the game over or going on): ``(teams - place) / (teams - 1)`` (two
    teams: 0); a running game by the health lead of its team over the mean of the other
    teams still in (1v1: the other seat's health; modes/DESIGN.md 2.9)."""
    n = S[O_NSEATS]
    bs = O_SEATS + seat * P_LEN
    team = S[bs + P_TEAM]
    teams = 0
    for q in range(n):
        if S[O_SEATS + q * P_LEN + P_TEAM] + 1 > teams:
            teams = S[O_SEATS + q * P_LEN + P_TEAM] + 1
    place = S[bs + P_PLACE]
    if S[O_OVER] != 0:
        w = S[O_WINNER]
        if w == team:
            return 1.0
        if w < 0 and place <= 1:
            return 0.5
    if place > 0:
        return (teams - place) / (teams - 1.0)
    tot = 0.0
    k = 0
    seen = 0
    for q in range(n):
        bq = O_SEATS + q * P_LEN
        tq = S[bq + P_TEAM]
        if tq != team and (S[O_ALIVE] >> tq) & 1 and not (seen >> tq) & 1:
            seen |= 1 << tq
            tot += S[bq + P_HP]
            k += 1
    d = S[bs + P_HP] - (tot / k if k > 0 else 0.0)
    return 0.5 + 0.5 * np.tanh(d / HP_SCALE)


@nb.njit(**_JIT)
def evaluate(ctx, c, rng):
    obs, moves, cand, phase, rules, T, tp, data, S, buf, pool, cnt, seat, stop_turn = ctx
    for i in range(S.shape[0]):
        S[i] = obs[i]
    deal_nb(obs, S, seat, True, T, rng, pool, cnt)
    for q in range(obs[O_NSEATS]):       # every other seat's hidden hand (a teammate's is seen
        if q != seat:                    # under team_sees_hands) and draw pile
            deal_nb(obs, S, q, sees_hand_nb(obs, seat, q), T, rng, pool, cnt)
    ph, n = apply_tp_nb(S, phase, moves[cand[c]], rules, tp, rng, buf)
    playout_nb(apply_tp_nb, optimal_decide, S, ph, n, rules, tp, data, rng, buf, O_TURN, stop_turn, MAX_STEPS)
    return position_value(S, seat)


# reference counting on: decide_builtin (compiled without it) would hand its setting down
@nb.njit(_nrt=True, **_JIT)
def search_decide(phase, obs, moves, n_moves, rules, data, rng):
    if n_moves <= 1:
        return 0
    k0 = optimal_decide(phase, obs, moves, n_moves, rules, data, rng)
    if phase == PH_DIE:
        return k0
    cand = np.empty(n_moves, np.int64)
    nc = 0
    default = 0
    kg = greedy_decide(phase, obs, moves, n_moves, rules, data, rng) if phase == PH_ROLL else k0
    for k in range(n_moves):
        mv = moves[k]
        if k != k0:
            if phase == PH_ROLL and k != 0 and k != kg and mv < MV_PLAY:
                continue        # keeps: optimal's, greedy's and stopping only
            if mv >= MV_TITHE_REROLL and mv < MV_TITHE_DRAW:
                continue        # Tithes rerolls: only when optimal takes one
        nc, default = add_candidate(cand, nc, k, default, k == k0)
    if nc <= 1:
        return k0
    budget = budget_of(data, D_BUDGET, DEFAULT_BUDGET)
    horizon = budget_of(data, D_HORIZON, DEFAULT_HORIZON)
    T = unpack_tables(data)
    seat = obs[O_CUR]
    tp = table_ptrs_nb(T)   # the kernel takes the tables by address; ctx keeps T alive
    ctx = (obs, moves, cand, phase, rules, T, tp, data, np.empty(obs.shape[0], np.int64), np.empty(MAX_MOVES, np.int64),
           np.empty(128, np.int64), np.zeros(MAX_CARDS, np.int64), seat, obs[O_TURN] + horizon)
    vals = np.empty(nc, np.float64)
    return cand[search_nb(evaluate, ctx, nc, default, budget, MARGIN, rng, vals)]
