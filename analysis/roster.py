"""A hero game's whole roster at each skill level, from one shared run
(``analysis.runs.RunResult``): the N x N table, a tier list with ratings, each hero's
first-player edge, and whether the order of heroes holds from one skill level to the next.

The tables are the duel's (``analysis/duel.py``: ``matchup_table``, ``hero_table``,
``first_player_table``), read from the run's aggregates: :func:`level_runs` cuts a run into
one ``run`` per strategy (the matchups where both seats play it), in the shape those tables
read. Their definitions hold here: a hero's score against the field is the mean of its
non-mirror matchup rates, with a Wilson 95% interval over its distinct games; a game ended
by the turn cap counts as a draw (half a win) in these tables, and every table shows how
many there were (``timeouts``). The shared ``matchups``/``tournament`` output leaves capped
games out instead; with a cap that few games reach, the two agree to the last digit shown.

Added here:

* **tier list** (:func:`tier_table`): heroes sorted by their score against the field, each
  with its interval and n, a tier (1: the interval lies above 50%, 2: it holds 50%, 3: below)
  and its Bradley-Terry rating (``analysis.ratings``: Elo scale, bootstrap 95% interval) over
  the matchups of that level;
* **first-player edge per hero**: its score when it moved first minus when it moved second,
  pooled over its non-mirror matchups, with Newcombe's interval (``duel._diff_ci``);
* **order verdict** (:func:`order_verdict`): between two skill levels, Kendall's tau of the
  heroes' scores, with a parametric bootstrap 95% interval (each hero's score redrawn from a
  normal with its interval's standard error, independently at both levels), and the pairwise
  orders: a pair of heroes is *ordered* at a level when the interval of their difference
  excludes 0; over the pairs ordered at both levels, how many keep their order and which flip.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from . import duel as ad
from .ratings import ratings
from .runs import fmt_rate

Z95 = 1.959963984540054


@dataclass
class LevelRun:
    """One skill level of a run, as ``analysis.duel``'s tables read a run."""
    heroes: list
    strategy: str
    games: int
    seed: int
    rules: dict
    pairs: list = field(default_factory=list)
    records: dict = field(default_factory=dict)


def level_runs(res, titles=None) -> dict:
    """``{strategy: LevelRun}`` of the matchups of ``res`` where both seats play that strategy,
    in the run's order; ``titles``: the heroes' display names (default the entrant names)."""
    names = list(titles) if titles is not None else list(res.entrant_names)
    out: dict = {}
    for m in res.matchups:
        s0, s1 = m.strategies
        if s0 != s1:
            continue
        run = out.setdefault(s0, LevelRun(names, s0, res.games, res.seed, dict(res.rules)))
        key = (int(m.lineup[0]), int(m.lineup[1]))
        run.pairs.append(key)
        run.records[key] = m.aggregate(2)
    return out


def _hero_ratings(run, m: pd.DataFrame) -> dict:
    """Bradley-Terry ratings of the heroes over the level's non-mirror matchups (scores over
    distinct games): ``{hero index: (rating, [lo, hi])}``."""
    H = len(run.heroes)
    wins = np.zeros((H, H))
    games = np.zeros((H, H))
    for r in m[~m.mirror].itertuples():
        i, j = int(r.hero_idx), int(r.opponent_idx)
        wins[i, j] = r.win_rate * r.distinct_games
        games[i, j] = r.distinct_games
    table = ratings([str(i) for i in range(H)], wins, games, seed=int(run.seed))
    return {int(r["entrant"]): (r["rating"], r["rating_ci"]) for r in table}


def tier_table(run, m: pd.DataFrame | None = None) -> pd.DataFrame:
    """The tier list of one level: ``analysis.duel.hero_table``'s columns, sorted by the score
    against the field, with ``tier``, ``rating``/``rating_low``/``rating_high`` and the
    first-player edge (``fp_edge`` = score moving first - moving second, ``fp_edge_low``,
    ``fp_edge_high``)."""
    m = ad.matchup_table(run) if m is None else m
    ht = ad.hero_table(run, m)
    if ht.empty:
        return ht
    rt = _hero_ratings(run, m)
    ht = ht.sort_values("win_rate", ascending=False).reset_index(drop=True)
    ht.insert(0, "rank", np.arange(1, len(ht) + 1))
    ht["tier"] = [1 if lo > 0.5 else 3 if hi < 0.5 else 2 for lo, hi in zip(ht.ci_low, ht.ci_high)]
    ht["rating"] = [rt.get(int(h), (math.nan, [math.nan, math.nan]))[0] for h in ht.hero_idx]
    ht["rating_low"] = [rt.get(int(h), (math.nan, [math.nan, math.nan]))[1][0] for h in ht.hero_idx]
    ht["rating_high"] = [rt.get(int(h), (math.nan, [math.nan, math.nan]))[1][1] for h in ht.hero_idx]
    edges = [ad._diff_ci(r.win_rate_first, r.first_ci_low, r.first_ci_high,
                         r.win_rate_second, r.second_ci_low, r.second_ci_high)
             if r.games_first and r.games_second else (math.nan, math.nan) for r in ht.itertuples()]
    ht["fp_edge"] = ht.win_rate_first - ht.win_rate_second
    ht["fp_edge_low"] = [e[0] for e in edges]
    ht["fp_edge_high"] = [e[1] for e in edges]
    return ht


def _se(lo, hi) -> float:
    return max((hi - lo) / (2 * Z95), 1e-12)


def order_verdict(a: pd.DataFrame, b: pd.DataFrame, reps: int = 2000, seed: int = 0) -> dict:
    """Does the order of heroes of tier table ``a`` (one skill level) hold in ``b`` (another)?
    Kendall's tau-b of their scores with a parametric bootstrap 95% interval, and the pairs
    ordered at both levels (the interval of their difference excludes 0): how many agree,
    and the flips. Heroes in both tables only."""
    from scipy.stats import kendalltau

    heroes = [h for h in a.hero if h in set(b.hero)]
    out = {"heroes": len(heroes), "tau": math.nan, "tau_ci": [math.nan, math.nan], "ordered_both": 0,
           "agree": 0, "flips": [], "ordered_a": 0, "ordered_b": 0, "pairs": len(heroes) * (len(heroes) - 1) // 2}
    if len(heroes) < 2:
        return out
    ra = a.set_index("hero").loc[heroes]
    rb = b.set_index("hero").loc[heroes]
    xa, xb = ra.win_rate.to_numpy(float), rb.win_rate.to_numpy(float)
    sa = np.array([_se(lo, hi) for lo, hi in zip(ra.ci_low, ra.ci_high)])
    sb = np.array([_se(lo, hi) for lo, hi in zip(rb.ci_low, rb.ci_high)])
    tau = kendalltau(xa, xb).statistic
    rng = np.random.default_rng(seed)
    boot = np.array([kendalltau(xa + sa * rng.standard_normal(len(xa)), xb + sb * rng.standard_normal(len(xb))).statistic
                     for _ in range(reps)])
    boot = boot[np.isfinite(boot)]
    out["tau"] = float(tau) if np.isfinite(tau) else math.nan
    if boot.size:
        out["tau_ci"] = [float(np.quantile(boot, 0.025)), float(np.quantile(boot, 0.975))]

    def ordered(r, i, j):   # +1: i above j beyond noise, -1: below, 0: within noise
        lo, hi = ad._diff_ci(r.win_rate.iloc[i], r.ci_low.iloc[i], r.ci_high.iloc[i],
                             r.win_rate.iloc[j], r.ci_low.iloc[j], r.ci_high.iloc[j])
        return 1 if lo > 0 else -1 if hi < 0 else 0

    for i in range(len(heroes)):
        for j in range(i + 1, len(heroes)):
            oa, ob = ordered(ra, i, j), ordered(rb, i, j)
            out["ordered_a"] += oa != 0
            out["ordered_b"] += ob != 0
            if oa and ob:
                out["ordered_both"] += 1
                if oa == ob:
                    out["agree"] += 1
                else:
                    hi_a, lo_a = (heroes[i], heroes[j]) if oa > 0 else (heroes[j], heroes[i])
                    out["flips"].append((hi_a, lo_a))
    return out


def verdict_text(name_a: str, name_b: str, v: dict) -> str:
    """One sentence: does the order hold from level ``name_a`` to ``name_b``?"""
    if v["heroes"] < 2:
        return f"{name_a} to {name_b}: fewer than two heroes at both levels, no order to compare."
    tau = "n/a" if math.isnan(v["tau"]) else (
        f"{v['tau']:+.2f} [{v['tau_ci'][0]:+.2f}, {v['tau_ci'][1]:+.2f}]")
    verdict = ("does not hold" if v["flips"] else "holds" if v["ordered_both"] else
               "cannot be told from noise")   # no pair ordered at both levels: nothing to hold
    flips = "; ".join(f"{a} above {b} at {name_a}, below at {name_b}" for a, b in v["flips"])
    where = (f"{v['agree']} of the {v['ordered_both']} hero pairs ordered beyond noise at both levels keep their "
             f"order" if v["ordered_both"] else "no hero pair is ordered beyond noise at both levels")
    return (f"From {name_a} to {name_b} the order of heroes {verdict}: "
            f"Kendall's tau {tau} over {v['heroes']} heroes; {where} ({v['ordered_a']} of {v['pairs']} pairs ordered at "
            f"{name_a}, {v['ordered_b']} at {name_b})" + (f"; flips: {flips}." if flips else "."))


def tier_rows(tt: pd.DataFrame) -> pd.DataFrame:
    """The tier list as printed: every rate with its interval and n, the capped games shown."""
    rows = []
    for r in tt.itertuples():
        rows.append({
            "rank": int(r.rank), "tier": int(r.tier), "hero": r.hero,
            "score vs the field": fmt_rate(r.win_rate, (r.ci_low, r.ci_high), int(r.games)),
            "rating (Elo scale)": (f"{r.rating:.0f} [{r.rating_low:.0f}, {r.rating_high:.0f}]"
                                   if np.isfinite(r.rating) else "–"),
            "best vs": f"{r.best_vs} {fmt_rate(r.best_win_rate, (r.best_ci_low, r.best_ci_high), int(r.best_games))}",
            "worst vs": f"{r.worst_vs} {fmt_rate(r.worst_win_rate, (r.worst_ci_low, r.worst_ci_high), int(r.worst_games))}",
            "moving first": fmt_rate(r.win_rate_first, (r.first_ci_low, r.first_ci_high), int(r.games_first)),
            "moving second": fmt_rate(r.win_rate_second, (r.second_ci_low, r.second_ci_high), int(r.games_second)),
            "first-player edge (points)": (f"{100 * r.fp_edge:+.1f} [{100 * r.fp_edge_low:+.1f}, "
                                           f"{100 * r.fp_edge_high:+.1f}]" if np.isfinite(r.fp_edge_low) else "–"),
            "capped (as draws)": f"{int(r.timeouts):,}",
        })
    return pd.DataFrame(rows)


def roster_json(levels: dict, order: list) -> dict:
    """The machine-readable tables: per level, the N x N matrix (``analysis.duel.matrix_json``)
    and the tier list; the verdicts between consecutive levels and first to last."""
    out = {"levels": {}, "verdicts": []}
    for s in order:
        run = levels[s]
        m = ad.matchup_table(run)
        tt = tier_table(run, m)
        out["levels"][s] = {"matrix": ad.matrix_json(run, m),
                            "tiers": [{k: (None if isinstance(v, float) and not math.isfinite(v) else v)
                                       for k, v in row.items()} for row in tt.to_dict(orient="records")]}
    for a, b in verdict_pairs(order):
        ta = pd.DataFrame(out["levels"][a]["tiers"])
        tb = pd.DataFrame(out["levels"][b]["tiers"])
        v = order_verdict(ta, tb)
        out["verdicts"].append({"from": a, "to": b, **v, "text": verdict_text(a, b, v)})
    return out


def verdict_pairs(order: list) -> list:
    """The level pairs a verdict compares: each level with the next, and the first with the last."""
    pairs = list(zip(order, order[1:]))
    if len(order) > 2:
        pairs.append((order[0], order[-1]))
    return pairs
