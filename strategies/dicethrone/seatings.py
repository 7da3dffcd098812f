"""How the team and free-for-all tables are seated and played (issue 31): one place for the
seatings the ``teams`` and ``ffa`` verbs (and ``run``/``matchups`` under a mode) and the
report's mode section play, each seating on the same seeds (game i of every seating from
stream (seed, i)), so the seats cancel out of a team's or a hero's score.

* :func:`team_seatings`: the seatings of a team table: every order of the teams times every
  rotation of each team's heroes (2v2: 8, 2v2v2: 48, 3v3: 18);
* :func:`play_teams`: games 0..n-1 of every seating, concatenated;
* :func:`ffa_seatings`: the rotations of a free-for-all table (each hero at every position);
* :func:`play_ffa`: games 0..n-1 of every rotation of every table, concatenated.
"""
from __future__ import annotations

import itertools

import numpy as np

from simcore.errors import PlaytestError

from .bind import play_range

# (teams, heroes a team) -> the mode that seats them (simcore/dicethrone/modes/DESIGN.md 2.2)
TEAM_MODES = {(2, 2): "2v2", (2, 3): "3v3", (3, 2): "2v2v2"}


def team_mode(teams) -> str:
    """The mode of a team table (``teams``: tuples of hero keys), or a PlaytestError."""
    sizes = {len(t) for t in teams}
    key = (len(teams), sizes.pop() if len(sizes) == 1 else -1)
    if key not in TEAM_MODES:
        raise PlaytestError(f"teams of {'/'.join(str(len(t)) for t in teams)} heroes are no mode (2v2: two teams of "
                            "two, 3v3: two of three, 2v2v2: three of two)", field="--team")
    return TEAM_MODES[key]


def team_seatings(teams: tuple, side: tuple):
    """The seatings of ``teams`` (each a tuple of hero keys, all of one size k) as ``(heroes
    by seat, strategies by seat)``; ``side``: each team's strategy. Seats alternate teams
    (seat s: the (s mod T)-th team of the order, its (s div T)-th hero): every order of the
    T teams, times every rotation of each team's heroes (each hero at each of its team's
    positions once; 2v2: both orders of a pair, so 8 seatings)."""
    T, k = len(teams), len(teams[0])
    for order in itertools.permutations(range(T)):
        for rots in itertools.product(range(k), repeat=T):
            rot = [teams[t][rots[t]:] + teams[t][:rots[t]] for t in range(T)]
            yield (tuple(rot[order[s % T]][s // T] for s in range(T * k)),
                   tuple(side[order[s % T]] for s in range(T * k)))


def _concat(parts) -> dict:
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def play_teams(teams, n, seed, side, rules, roster, search_budget=None, search_horizon=None, start=0) -> dict:
    """Games start..start+n-1 of seed ``seed`` in every seating of ``teams`` (``rules``' mode
    must seat them: :func:`team_mode`); ``side``: each team's strategy; ``search_*``:
    ``play_range``'s."""
    return _concat([play_range(start, start + n, seed, heroes, strats, rules=rules, roster=roster,
                               search_budget=search_budget, search_horizon=search_horizon)
                    for heroes, strats in team_seatings(tuple(teams), side)])


def ffa_seatings(table) -> list:
    """The rotations of a free-for-all ``table`` (hero keys in seat order)."""
    k = len(table)
    return [tuple(table[(i + j) % k] for j in range(k)) for i in range(k)]


def play_ffa(tables, n, seed, strategy, rules, roster, search_budget=None, search_horizon=None, start=0) -> dict:
    """Games 0..n-1 of seed ``seed`` in every rotation of every table (``rules``' mode must
    seat that many heroes: ``ffa<k>``), ``strategy`` in every seat."""
    return _concat([play_range(start, start + n, seed, heroes, (strategy,) * len(heroes), rules=rules, roster=roster,
                               search_budget=search_budget, search_horizon=search_horizon)
                    for tb in tables for heroes in ffa_seatings(tb)])


def compositions(heroes: list, team_size: int, teams: int = 2, disjoint: bool = True) -> list:
    """The compositions a team tournament plays (modes/DESIGN.md 5.6): every set of ``teams``
    teams of ``team_size`` distinct heroes, each hero at most once over the table when
    ``disjoint`` (one box per hero), else any different teams."""
    team_list = list(itertools.combinations(sorted(heroes), team_size))
    out = []
    for combo in itertools.combinations(team_list, teams):
        flat = [h for t in combo for h in t]
        if disjoint and len(set(flat)) != len(flat):
            continue
        out.append(combo)
    return out


# (teams, heroes a team) of each team mode
MODE_SHAPE = {m: k for k, m in TEAM_MODES.items()}


def seatings_of(mode: str) -> int:
    """How many seatings a table of ``mode`` is played in (2v2 8, 3v3 18, 2v2v2 48, ffaK K)."""
    import math

    if mode in MODE_SHAPE:
        T, k = MODE_SHAPE[mode]
        return math.factorial(T) * k ** T
    return int(mode[3:])


def mode_tables(mode: str, names) -> list:
    """Every table of ``mode`` over the heroes ``names``: the compositions of a team mode
    (teams of different heroes, each hero once at the table), or every free-for-all table of
    K different heroes; a PlaytestError when there are too few heroes."""
    names = sorted(names)
    need = MODE_SHAPE[mode][0] * MODE_SHAPE[mode][1] if mode in MODE_SHAPE else int(mode[3:])
    if len(names) < need:
        raise PlaytestError(f"mode {mode} needs at least {need} different heroes, got {len(names)}",
                            field="--content")
    if mode in MODE_SHAPE:
        T, k = MODE_SHAPE[mode]
        # the compositions of one set of heroes one after the other: they share one matchup's
        # tables (bind.matchup_tables keeps the last few), built once instead of once each
        return sorted(compositions(names, k, T), key=lambda c: sorted(h for t in c for h in t))
    return [tuple(c) for c in itertools.combinations(names, need)]


def play_table(table, mode: str, start: int, n: int, seed: int, strategy: str, rules, roster, **search) -> dict:
    """Games start..start+n-1 of every seating of one table of ``mode`` (a composition of
    teams, or the heroes of a free-for-all table), ``strategy`` in every seat."""
    if mode in MODE_SHAPE:
        return play_teams(table, n, seed, (strategy,) * len(table), rules, roster, start=start, **search)
    return play_ffa([list(table)], n, seed, strategy, rules, roster, start=start, **search)
