"""How the team and free-for-all tables are seated and played (issue 31): one place for the
seatings the ``teams`` and ``ffa`` verbs and the report's mode section play, each seating on
the same seeds (game i of every seating from stream (seed, i)), so the seats cancel out of a
team's or a hero's score.

* :func:`team_seatings`: the 8 seatings of two teams of two in 2v2 (which team sits at seats
  0 and 2, times the order of each team's two heroes);
* :func:`play_teams`: games 0..n-1 of every seating, concatenated;
* :func:`ffa_seatings`: the rotations of a free-for-all table (each hero at every position);
* :func:`play_ffa`: games 0..n-1 of every rotation of every table, concatenated.
"""
from __future__ import annotations

import numpy as np

from .bind import play_range


def team_seatings(a: tuple, b: tuple, side: tuple):
    """The 8 seatings of teams ``a`` and ``b`` as ``(heroes by seat, strategies by seat)``;
    ``side``: the strategies of ``a`` and of ``b``."""
    for first in (0, 1):
        for ra in (a, a[::-1]):
            for rb in (b, b[::-1]):
                t0, t1 = (ra, rb) if first == 0 else (rb, ra)
                s0, s1 = (side[0], side[1]) if first == 0 else (side[1], side[0])
                yield (t0[0], t1[0], t0[1], t1[1]), (s0, s1, s0, s1)


def _concat(parts) -> dict:
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def play_teams(a, b, n, seed, side, rules, roster) -> dict:
    """Games 0..n-1 of seed ``seed`` in every seating of ``a`` against ``b`` (2v2)."""
    return _concat([play_range(0, n, seed, heroes, strats, rules=rules, roster=roster)
                    for heroes, strats in team_seatings(a, b, side)])


def ffa_seatings(table) -> list:
    """The rotations of a free-for-all ``table`` (hero keys in seat order)."""
    k = len(table)
    return [tuple(table[(i + j) % k] for j in range(k)) for i in range(k)]


def play_ffa(tables, n, seed, strategy, rules, roster) -> dict:
    """Games 0..n-1 of seed ``seed`` in every rotation of every table (``rules``' mode must
    seat that many heroes: ``ffa<k>``), ``strategy`` in every seat."""
    return _concat([play_range(0, n, seed, heroes, (strategy,) * len(heroes), rules=rules, roster=roster)
                    for tb in tables for heroes in ffa_seatings(tb)])
