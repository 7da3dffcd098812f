"""Lead statistics of one game from its per-turn score trace: the raw material of the
``decisiveness``, ``lead_change`` and ``drama`` metrics (``analysis/metrics.py``).

A trace is ``score[t, seat]`` after turn ``t`` (``t = 0..T-1``), in the game's own score
(``GameType.score``: HP margin, cards shed, dams held...). With the eventual ``winner``:

* **leader** after turn ``t``: the seat with the strictly highest score, or none (a tie);
* ``lead_changes``: how often the leader changes from one seat to another (ties between
  two leaders are skipped: A, tie, B is one change; A, tie, A none);
* ``decided_at``: the share of the game played before the winner took the lead for
  good, ``t* / T`` where ``t*`` is the first turn from which the winner leads after every
  turn to the end (1.0 if the winner does not lead after the last turn);
* ``drama``: the winner's mean deficit over the game, ``mean_t max(0, best other - winner)``.

A game with no winner (draw, cooperative loss, cap) has no lead statistics (NaN).
``lead_stats_nb`` is the compiled function the kernels call when asked to trace;
``lead_stats`` is its readable twin (``tests/test_metrics.py`` holds them together and
checks both on traces worked out by hand).
"""
from __future__ import annotations

import math

import numba as nb
import numpy as np


def leader(scores) -> int:
    best = max(scores)
    top = [s for s, v in enumerate(scores) if v == best]
    return top[0] if len(top) == 1 else -1


def lead_stats(trace, winner: int) -> tuple[float, float, float]:
    """Readable twin: ``trace`` is a list of per-seat score lists, one per turn."""
    if winner < 0 or len(trace) == 0:
        return math.nan, math.nan, math.nan
    leaders = [leader(row) for row in trace]
    changes, last = 0, -1
    for who in leaders:
        if who >= 0:
            if last >= 0 and who != last:
                changes += 1
            last = who
    t_star = len(trace)
    for t in range(len(trace) - 1, -1, -1):
        if leaders[t] != winner:
            break
        t_star = t
    decided = t_star / len(trace)
    deficits = [max(0, max(v for s, v in enumerate(row) if s != winner) - row[winner]) for row in trace]
    return float(changes), decided, sum(deficits) / len(trace)


@nb.njit(cache=True, nogil=True)
def lead_stats_nb(trace, n_turns, n_seats, winner, out):
    """Compiled twin: ``trace[t, s]`` for ``t < n_turns``; writes
    ``out[0..2] = lead_changes, decided_at, drama`` (NaN when ``winner < 0``)."""
    if winner < 0 or n_turns <= 0:
        out[0] = np.nan
        out[1] = np.nan
        out[2] = np.nan
        return
    changes = 0
    last = -1
    t_star = n_turns
    still = True  # scanning for t_star needs the suffix: done in a second loop below
    deficit_sum = 0.0
    for t in range(n_turns):
        best = trace[t, 0]
        who = 0
        tie = False
        for s in range(1, n_seats):
            v = trace[t, s]
            if v > best:
                best = v
                who = s
                tie = False
            elif v == best:
                tie = True
        if not tie:
            if last >= 0 and who != last:
                changes += 1
            last = who
        other = -1e300
        for s in range(n_seats):
            if s != winner and trace[t, s] > other:
                other = trace[t, s]
        d = other - trace[t, winner]
        if d > 0:
            deficit_sum += d
    for t in range(n_turns - 1, -1, -1):
        w = trace[t, winner]
        leads = True
        for s in range(n_seats):
            if s != winner and trace[t, s] >= w:
                leads = False
                break
        if not leads:
            break
        t_star = t
    out[0] = changes
    out[1] = t_star / n_turns
    out[2] = deficit_sum / n_turns
