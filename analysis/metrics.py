"""Balance metrics for every game, each with its 95% interval and its sample size.

Input: the standard record fields of ``simcore/game.py`` (``winner``, ``capped``, ``turns``,
``first``; ``leads`` = lead_changes, decided_at, drama when the run was traced) and the
entrants' win rates. The project's definitions (after the Ludii project's metrics, adapted
to Monte Carlo records; README "Balance metrics"):

``balance``        spread of the win rates across entrants (heroes, roles or seats): max -
                   min. 0 is perfectly balanced. Interval: parametric bootstrap of the
                   entrants' rates (each from its Jeffreys Beta posterior), widened to
                   hold the estimate.
``advantage_p1``   the first mover's score (win 1, draw 1/2) over the games not ended by a
                   cap; 0.5 is no edge. Wilson interval.
``drawishness``    share of games that ended in a draw by the rules (not by a cap). Wilson.
``completion``     share of games ended by a cap (turn or round cap): they are counted
                   here and never as wins or losses. Wilson.
``duration``       turns of every game, a capped one at the cap (``completion`` counts
                   those): mean (t interval), median, 5th and 95th percentiles.
``decisiveness``   mean share of the game played before the eventual winner took the lead
                   for good (``simcore.leads``); lower = decided earlier. Games with a winner.
``lead_change``    mean number of lead changes per game. Games with a winner.
``drama``          mean deficit of the eventual winner over the game, in score units
                   (``GameType.score``). Games with a winner.

The last three need the per-turn score trace (``--trace``/reports); without it they are
reported as not measured. In a cooperative game (one team against the game) the seat
metrics (``balance`` across seats excepted), ``advantage_p1`` and the lead metrics are not
defined and say so.
"""
from __future__ import annotations

import math

import numpy as np
from scipy import stats as st

from simcore.game import LEAD_FIELDS

from .stats import wilson

CONF = 0.95


def _na(reason: str, n: int = 0) -> dict:
    return {"x": None, "x_ci": None, "n": int(n), "note": reason}


def rate(k: float, n: int) -> dict:
    """A rate with its Wilson interval: ``{"x", "x_ci", "n"}``."""
    if n <= 0:
        return _na("no games", 0)
    lo, hi = wilson(k, n, CONF)
    return {"x": float(k) / n, "x_ci": [float(lo), float(hi)], "n": int(n)}


def mean_ci(values) -> dict:
    v = np.asarray(values, dtype=float)
    v = v[~np.isnan(v)]
    n = v.size
    if n == 0:
        return _na("no games with a winner", 0)
    m = float(v.mean())
    if n == 1:
        return {"x": m, "x_ci": [m, m], "n": 1}
    half = float(st.t.ppf(0.5 + CONF / 2, n - 1) * v.std(ddof=1) / math.sqrt(n))
    return {"x": m, "x_ci": [m - half, m + half], "n": int(n)}


def spread(rates, ns, seed: int = 0, reps: int = 4000, games: int | None = None) -> dict:
    """Max - min of entrant win rates, with a parametric bootstrap interval; ``games``: the
    distinct games behind them (an entrant's games overlap with its opponents')."""
    r = np.asarray(rates, float)
    n = np.asarray(ns, float)
    ok = n > 0
    r, n = r[ok], n[ok]
    if r.size < 2:
        return _na("needs two entrants or more", int(n.sum()))
    # each entrant's rate drawn from its Jeffreys posterior, Beta(wins + 1/2, losses + 1/2):
    # about normal with the rate's standard error in mid range, and still as wide as the
    # rate's own interval at 0% or 100% (a normal with the plug-in error r(1 - r)/n had
    # none there: 0 of 40 against 40 of 40 gave the spread the interval [1.0, 1.0])
    wins = r * n
    rng = np.random.default_rng(seed)
    draws = rng.beta(wins + 0.5, n - wins + 0.5, size=(reps, r.size))
    sp = draws.max(axis=1) - draws.min(axis=1)
    lo, hi = np.quantile(sp, [(1 - CONF) / 2, 1 - (1 - CONF) / 2])
    x = float(r.max() - r.min())
    return {"x": x, "x_ci": [min(float(lo), x), max(float(hi), x)],
            "n": int(games if games is not None else n.sum())}


def duration(turns) -> dict:
    t = np.asarray(turns, float)
    if t.size == 0:
        return _na("no games")
    out = mean_ci(t)
    out.update({"median": float(np.median(t)), "p5": float(np.percentile(t, 5)),
                "p95": float(np.percentile(t, 95))})
    return out


def metrics(records: dict, entrant_rates=None, entrant_games=None, cooperative: bool = False) -> dict:
    """Every metric of the module docstring from one run's records (all matchups pooled).
    ``entrant_rates``/``entrant_games``: the win rate and games of each entrant, for
    ``balance``."""
    winner = np.asarray(records["winner"])
    capped = np.asarray(records["capped"], bool)
    n = int(winner.size)
    out = {}
    if entrant_rates is not None and len(entrant_rates) >= 2:
        out["balance"] = spread(entrant_rates, entrant_games, games=n)
    else:
        out["balance"] = _na("one entrant: nothing to compare", n)
    done = ~capped
    if cooperative:
        out["advantage_p1"] = _na("cooperative game: no first-player edge", n)
        out["drawishness"] = _na("cooperative game: no draws", n)
    else:
        first = np.asarray(records["first"])
        w, f = winner[done], first[done]
        score = np.count_nonzero(w == f) + 0.5 * np.count_nonzero(w < 0)
        out["advantage_p1"] = rate(score, int(done.sum()))
        out["drawishness"] = rate(int(np.count_nonzero(w < 0)), n)
    out["completion"] = rate(int(capped.sum()), n)
    out["completion"]["capped_games"] = int(capped.sum())
    out["duration"] = duration(records["turns"])
    leads = lead_matrix(records)
    if cooperative:
        for k in ("decisiveness", "lead_change", "drama"):
            out[k] = _na("cooperative game: no leader", n)
    elif leads is None:
        for k in ("decisiveness", "lead_change", "drama"):
            out[k] = _na("not measured (run with --trace)", n)
    else:
        leads = np.asarray(leads, float).reshape(-1, 3)
        out["lead_change"] = mean_ci(leads[:, 0])
        out["decisiveness"] = mean_ci(leads[:, 1])
        out["drama"] = mean_ci(leads[:, 2])
    return out


def lead_matrix(rec: dict):
    """A traced run's lead statistics as one (games, 3) array in ``LEAD_FIELDS`` order:
    ``rec["leads"]`` (the duel), or the three fields ``lead_changes``, ``decided_at``,
    ``drama`` (the contract's other games); None when the run was not traced."""
    if "leads" in rec:
        return np.asarray(rec["leads"], np.float64).reshape(-1, 3)
    if all(f in rec for f in LEAD_FIELDS):
        return np.column_stack([np.asarray(rec[f], np.float64) for f in LEAD_FIELDS]).reshape(-1, 3)
    return None
