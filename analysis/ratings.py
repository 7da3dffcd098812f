"""Ratings: a Bradley-Terry model over every entrant that played, on an Elo-like scale,
with bootstrap 95% intervals.

An *entrant* is a (hero or role or seat, strategy) pair. Each game contributes pairwise
results between the entrants that sat at the table: the winner beats every other seat's
entrant; a draw (or a game with no winner that a cap did not end) gives each pair half a
win each; capped games contribute nothing (they are reported by ``completion``).

Model: ``P(i beats j) = p_i / (p_i + p_j)``, fitted by the minorisation-maximisation
iteration of Hunter (2004), which converges to the maximum-likelihood strengths whenever
the comparison graph is connected. Rating ``= 1500 + 400 log10(p_i / geometric mean p)``,
so 400 points are 10:1 odds, as in Elo. Intervals: parametric bootstrap (each pair's wins
redrawn binomially from its observed rate, ``reps`` times, refitted).
"""
from __future__ import annotations

import numpy as np


def fit_bt(wins: np.ndarray, iters: int = 2000, tol: float = 1e-10) -> np.ndarray:
    """Strengths (geometric mean 1) from ``wins[i, j]`` = (fractional) wins of i over j.
    A prior of half a win each way in every played pair keeps unbeaten entrants finite."""
    return fit_bt_many(np.asarray(wins, float)[None], iters, tol)[0]


def fit_bt_many(wins: np.ndarray, iters: int = 2000, tol: float = 1e-10) -> np.ndarray:
    """:func:`fit_bt` of each ``wins[r]`` at once (``wins``: shape ``(R, k, k)``; returns
    ``(R, k)``). Each fit takes exactly the steps, and gives exactly the numbers, of a fit of
    its own: the same element-wise arithmetic and the same reductions along the last axis,
    and a fit leaves the batch at the step it converges. One numpy pass per step for the
    whole batch instead of one per fit (the bootstrap's 200 fits of a few hundred steps
    each took seconds per result as small numpy calls)."""
    w = np.asarray(wins, float)
    n = w + w.transpose(0, 2, 1)
    played = n > 0
    w = w + 0.5 * played
    n = w + w.transpose(0, 2, 1)
    p = np.ones(w.shape[:2])
    total = w.sum(axis=2)
    live = np.arange(w.shape[0])           # the fits still iterating
    for _ in range(iters):
        q = p[live]
        denom = np.where(played[live], n[live] / (q[:, :, None] + q[:, None, :] + 1e-300), 0.0).sum(axis=2)
        new = np.where(denom > 0, total[live] / np.where(denom > 0, denom, 1.0), q)
        new /= np.exp(np.mean(np.log(new), axis=1))[:, None]
        done = np.max(np.abs(new - q), axis=1) < tol
        p[live] = new
        live = live[~done]
        if not live.size:
            break
    return p


def elo(p: np.ndarray) -> np.ndarray:
    return 1500.0 + 400.0 * np.log10(p / np.exp(np.mean(np.log(p))))


def ratings(names: list[str], wins: np.ndarray, games: np.ndarray, reps: int = 200, seed: int = 0) -> list[dict]:
    """Ranked table: ``[{"entrant", "rating", "rating_ci", "games"}]``, best first.
    ``wins[i, j]``: wins of i over j (draws as half); ``games[i, j]``: games between them."""
    wins = np.asarray(wins, float)
    games = np.asarray(games, float)
    if len(names) < 2 or games.sum() == 0:
        return []
    r = elo(fit_bt(wins))
    rng = np.random.default_rng(seed)
    iu = np.triu_indices(len(names), 1)
    n = games[iu]
    rate = np.divide(wins[iu], n, out=np.zeros_like(n), where=n > 0)
    wb = np.zeros((reps,) + wins.shape)
    for b in range(reps):
        k = rng.binomial(n.astype(np.int64), np.clip(rate, 0, 1))
        wb[b][iu] = k
        wb[b][(iu[1], iu[0])] = n - k
    boot = np.array([elo(p) for p in fit_bt_many(wb)]).reshape(reps, len(names))
    lo, hi = np.quantile(boot, [0.025, 0.975], axis=0)
    played = games.sum(axis=1)
    order = np.argsort(-r)
    return [{"entrant": names[i], "rating": float(r[i]), "rating_ci": [float(lo[i]), float(hi[i])],
             "games": int(played[i])} for i in order]


def pairwise(entrants_per_seat: list[int], winner: np.ndarray, capped: np.ndarray, k: int):
    """``(wins[k, k], games[k, k])`` from games in which seat s was entrant
    ``entrants_per_seat[s]`` (same entrants for all these games)."""
    wins = np.zeros((k, k))
    games = np.zeros((k, k))
    winner = np.asarray(winner)
    done = ~np.asarray(capped, bool)
    seats = len(entrants_per_seat)
    for s in range(seats):
        for t in range(seats):
            if s == t:
                continue
            i, j = entrants_per_seat[s], entrants_per_seat[t]
            if i == j:
                continue
            ws = np.count_nonzero(done & (winner == s))
            nobody = np.count_nonzero(done & (winner < 0))
            other = np.count_nonzero(done & (winner >= 0) & (winner != s) & (winner != t))
            # s beats t when s wins; a draw is half each; a third seat's win says nothing of s vs t
            wins[i, j] += ws + 0.5 * nobody
            games[i, j] += np.count_nonzero(done) - other
    games = (games + games.T) / 2
    return wins, games
