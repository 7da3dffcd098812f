"""One driver for every move-list game: deal, ask the seat to act for a move, apply it,
until the game is over; strategy per seat; the per-turn score trace when asked.

A move-list game's kernel (``simcore/<game>/kernel.py``) is a state machine over an int64
state vector ``S`` (see ``simcore/game.py``)::

    phase, n = start(S, seats, rules, tables, rng, moves)
    while phase != 0:                       # phase 0 = the game is over
        seat = S[cur_at]
        observe(S, obs, seat, tables)       # what that seat may see
        k = decide(sids[seat], phase, obs, moves, n, rules, data[seat], srng)
        phase, n = apply(S, phase, moves[k], rules, tables, rng, moves)

``decide`` is the binding's dispatcher over strategy ids (``strategies/<game>/bind.py``):
the driver itself knows no strategy. An answer outside ``0..n-1`` stops the game and is
reported (``play_game_nb`` returns the seat that gave it) so that the Python layer can
raise an error naming the strategy: it is never played as a move or a silent loss.

Random streams: ``rng`` is the game's stream ``(seed, index, DOMAIN)`` (shuffles, dice),
``srng`` the strategies' own ``(seed, index, STRATEGY_DOMAIN)``; the reference engines
hand over the same two streams, so both engines play the same game.

All functions here are ``inline="always"``: each game's cached entry point
(``chunk_nb`` in its binding) inlines them with its own kernel functions as globals,
which is what lets numba cache it (see ``simcore/game.py``). The ``prange`` loop over
games stays in that entry point.
"""
from __future__ import annotations

import numba as nb
import numpy as np

from .leads import lead_stats_nb
from .rng import init_state_nb


@nb.njit(cache=True, nogil=True, inline="always")
def sort_moves_nb(moves, n):
    """Sort ``moves[:n]`` in place, ascending (the contract's order of a legal-move list):
    an insertion sort, for the short lists the kernels sort (a few dozen at most)."""
    for i in range(1, n):
        x = moves[i]
        j = i - 1
        while j >= 0 and moves[j] > x:
            moves[j + 1] = moves[j]
            j -= 1
        moves[j + 1] = x


@nb.njit(cache=True, nogil=True, inline="always")
def play_game_nb(start, apply, observe, score, decide, S, obs, moves, seats, rules, tables,
                 sids, reveal, data, rng, srng, cur_at, turn_at, trace, trace_on):
    """Play one game into ``S``. Returns ``(bad_seat, n_trace)``: the seat whose strategy
    answered outside the legal moves (-1 if none) and the rows of ``trace`` filled (the
    score after each turn, when ``trace_on``)."""
    phase, n = start(S, seats, rules, tables, rng, moves)
    n_trace = 0
    last_turn = S[turn_at]
    while phase != 0:
        seat = S[cur_at]
        if reveal[seat] != 0:
            for i in range(S.shape[0]):
                obs[i] = S[i]
        else:
            observe(S, obs, seat, tables)
        k = decide(sids[seat], phase, obs, moves, n, rules, data[seat], srng)
        if k < 0 or k >= n:
            return seat, n_trace
        phase, n = apply(S, phase, moves[k], rules, tables, rng, moves)
        if trace_on and S[turn_at] != last_turn:
            last_turn = S[turn_at]
            if n_trace < trace.shape[0]:
                score(S, trace[n_trace])
                n_trace += 1
    if trace_on and n_trace < trace.shape[0]:
        score(S, trace[n_trace])  # the final position
        n_trace += 1
    return -1, n_trace


@nb.njit(cache=True, nogil=True, inline="always")
def play_one_nb(start, apply, observe, score, record, decide, domain, sdomain, s_len, max_moves,
                cur_at, turn_at, winner_col, seed, index, seats, sids, reveal, rules, tables, data,
                trace_cap, out_row, lead_row, final_row):
    """Game ``index`` from its own streams: ``record(S, out_row)`` at the end; returns the
    seat of an illegal answer (-1 if none); ``lead_row`` gets the lead statistics when
    ``trace_cap > 0``; ``final_row`` (if not empty) the final state vector. Called once per game from a game's cached, ``prange``-parallel
    entry point (``strategies/<game>/bind.py``)."""
    rng = np.empty(2, np.uint64)
    srng = np.empty(2, np.uint64)
    init_state_nb(rng, seed, index, domain)
    init_state_nb(srng, seed, index, sdomain)
    S = np.zeros(s_len, np.int64)
    obs = np.zeros(s_len, np.int64)
    moves = np.zeros(max_moves, np.int64)
    trace = np.zeros((trace_cap, seats), np.float64)
    b, nt = play_game_nb(start, apply, observe, score, decide, S, obs, moves, seats, rules,
                         tables, sids, reveal, data, rng, srng, cur_at, turn_at, trace,
                         trace_cap > 0)
    record(S, out_row)
    for i in range(final_row.shape[0]):
        final_row[i] = S[i]
    if trace_cap > 0:
        lead_stats_nb(trace, nt, seats, out_row[winner_col] if b < 0 else -1, lead_row)
    return b
