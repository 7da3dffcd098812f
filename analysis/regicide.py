"""Regicide analysis: per-game records (``strategies.regicide.bind``) to tables. Every rate
carries its Wilson 95% interval and sample size; the perfect-information strategy is
labelled as a cheat in every table.

The same tables come from exact aggregates too (:func:`tables_from_aggregates`, the
flat-memory path of ``playtest regicide run``: each chunk of games is reduced to counts and
histograms by ``RegicideAPI.reduce`` where it is played). Counts, rates, intervals, means,
medians and extremes are equal to those from records; a standard deviation and the
10%/90% quantiles are equal to the last bits (pandas computes them with rounded partial
steps, the aggregate exactly): ``tests/test_regicide_aggregate.py``."""
from __future__ import annotations

import numpy as np
import pandas as pd

from simcore.regicide.model import MEDAL_NAMES, R_STALLED, R_TURN_CAP, REASON_NAMES, SUIT_NAMES

from .stats import wilson

KEYS = ["strategy", "players"]
RANKS = {11: "Jack", 12: "Queen", 13: "King"}


def _ci(df: pd.DataFrame, k: str, n: str, prefix: str = "") -> pd.DataFrame:
    lo, hi = wilson(df[k].to_numpy(float), df[n].to_numpy(float))
    df[f"{prefix}rate"] = df[k] / df[n]
    df[f"{prefix}ci_low"] = lo
    df[f"{prefix}ci_high"] = hi
    return df


def win_rates(df: pd.DataFrame) -> pd.DataFrame:
    """Win rate by strategy and player count, with the Wilson 95% interval, and the
    mean number of enemies defeated."""
    g = df.groupby(KEYS, sort=False)
    out = g.agg(games=("win", "size"), wins=("win", "sum"), mean_defeated=("defeated", "mean"),
                mean_turns=("turns", "mean")).reset_index()
    out = _ci(out, "wins", "games", "win_")
    return out[KEYS + ["games", "wins", "win_rate", "win_ci_low", "win_ci_high", "mean_defeated", "mean_turns"]]


def progress(df: pd.DataFrame) -> pd.DataFrame:
    """Share of games still alive after each enemy: ``alive_after`` k = P(defeated >= k),
    k = 0..12 (k = 12 is the win rate)."""
    rows = []
    for (s, p), part in df.groupby(KEYS, sort=False):
        n = len(part)
        d = part["defeated"].to_numpy()
        for k in range(13):
            rows.append({"strategy": s, "players": p, "enemies_defeated": k, "games": n,
                         "alive": int((d >= k).sum())})
    out = pd.DataFrame(rows)
    out = _ci(out, "alive", "games", "alive_")
    return out


def end_enemy(df: pd.DataFrame) -> pd.DataFrame:
    """Which enemy ended the run (castle position, rank and suit), share of the lost games."""
    lost = df[df["win"] == 0]
    rows = []
    for (s, p), part in lost.groupby(KEYS, sort=False):
        n = len(part)
        for (pos, r, su), cnt in part.groupby(["end_pos", "end_rank", "end_suit"]).size().items():
            rows.append({"strategy": s, "players": p, "castle_position": int(pos) + 1,
                         "rank": RANKS.get(int(r), "?"), "suit": SUIT_NAMES[int(su)],
                         "losses": int(cnt), "lost_games": n})
    out = pd.DataFrame(rows, columns=["strategy", "players", "castle_position", "rank", "suit", "losses", "lost_games"])
    if len(out):
        out = _ci(out, "losses", "lost_games", "share_")
    return out


def end_by_rank_suit(df: pd.DataFrame) -> pd.DataFrame:
    """Losses by the ending enemy's rank and suit (summed over castle positions)."""
    e = end_enemy(df)
    if not len(e):
        return e
    out = e.groupby(KEYS + ["rank", "suit"], sort=False).agg(losses=("losses", "sum"),
                                                             lost_games=("lost_games", "first")).reset_index()
    return _ci(out, "losses", "lost_games", "share_")


def lengths(df: pd.DataFrame) -> pd.DataFrame:
    """Game length (turns) by strategy and player count."""
    g = df.groupby(KEYS, sort=False)["turns"]
    out = g.agg(games="size", mean="mean", std="std", min="min", median="median", max="max").reset_index()
    out["q10"] = g.quantile(0.1).to_numpy()
    out["q90"] = g.quantile(0.9).to_numpy()
    return out


def medals(df: pd.DataFrame) -> pd.DataFrame:
    """Solo games: medal distribution (gold = won with 0 flips, silver 1, bronze 2) and
    flip use, each share with its interval."""
    solo = df[df["players"] == 1]
    rows = []
    for s, part in solo.groupby("strategy", sort=False):
        n = len(part)
        for m in (3, 2, 1, 0):
            rows.append({"strategy": s, "what": f"medal: {MEDAL_NAMES[m]}", "games": n,
                         "count": int((part["medal"] == m).sum())})
        for f in range(int(part["flips_used"].max()) + 1):
            rows.append({"strategy": s, "what": f"flips used: {f}", "games": n,
                         "count": int((part["flips_used"] == f).sum())})
    out = pd.DataFrame(rows, columns=["strategy", "what", "games", "count"])
    if len(out):
        out = _ci(out, "count", "games")
    return out


def jesters(df: pd.DataFrame) -> pd.DataFrame:
    """Jester use (3-4 players hold Jesters), yields and exact kills per game."""
    g = df.groupby(KEYS, sort=False)
    out = g.agg(games=("win", "size"), mean_jesters=("jesters", "mean"),
                games_with_jester=("jesters", lambda x: int((x > 0).sum())),
                mean_yields=("yields", "mean"), mean_exact_kills=("exact_kills", "mean")).reset_index()
    return _ci(out, "games_with_jester", "games", "jester_")


def reasons(df: pd.DataFrame) -> pd.DataFrame:
    """Games by end reason (in reason order) per strategy and player count."""
    out = df.groupby(KEYS + ["reason"], sort=False).size().rename("games").reset_index()
    first_seen = {k: i for i, k in enumerate(dict.fromkeys(zip(df["strategy"], df["players"])))}
    out["_g"] = [first_seen[k] for k in zip(out["strategy"], out["players"])]
    out = out.sort_values(["_g", "reason"], kind="stable").drop(columns="_g").reset_index(drop=True)
    out["end"] = [REASON_NAMES[int(r)] for r in out["reason"]]
    tot = out.groupby(KEYS, sort=False)["games"].transform("sum")
    out["total"] = tot
    return _ci(out, "games", "total")


def all_tables(df: pd.DataFrame) -> dict:
    return {"win_rates": win_rates(df), "progress": progress(df), "end_enemy": end_enemy(df),
            "end_by_rank_suit": end_by_rank_suit(df), "lengths": lengths(df), "medals": medals(df),
            "jesters": jesters(df), "end_reasons": reasons(df)}


def label(name: str, perfect_information: bool) -> str:
    return f"{name} [CHEAT: perfect information]" if perfect_information else name


def summary(rec: dict) -> dict:
    """The ``--json`` summary of one run."""
    n = int(len(rec["win"]))
    w = int(np.sum(rec["win"]))
    lo, hi = wilson(w, n)
    return {"games": n, "wins": w, "win_rate": w / n, "win_rate_ci": [lo, hi],
            "mean_enemies_defeated": float(np.mean(rec["defeated"])), "mean_turns": float(np.mean(rec["turns"])),
            "median_turns": float(np.median(rec["turns"])),
            # games cut off by the max_turns safety cap (counted as losses) and solo games
            # ended as stalled (empty hand, no flip, nothing to suffer: only endless yields)
            "capped": int(np.sum(rec["reason"] == R_TURN_CAP)), "stalled": int(np.sum(rec["reason"] == R_STALLED))}


def cap_line(s: dict) -> str:
    """The run summary's line about games that did not end by winning or losing a fight."""
    n = s["games"]
    return (f"  ended by the turn cap {s['capped']:,} ({s['capped'] / n:.2%}, counted as losses); "
            f"stalled {s['stalled']:,} ({s['stalled'] / n:.2%}: solo, no cards, no flip, attack shielded)")


# ------------------------------------------------------------------ the same tables from aggregates
def _agg_ci(rows: list, k: str, n: str, prefix: str = "", columns=None) -> pd.DataFrame:
    df = pd.DataFrame(rows, columns=columns)
    for c in (k, n):
        df[c] = df[c].astype(np.int64)
    return _ci(df, k, n, prefix) if len(df) else df


def _hist(agg, name: str) -> np.ndarray:
    h = agg.hists.get(name)
    if h is None:
        from simcore.errors import PlaytestError

        raise PlaytestError("this stored Regicide run has no histograms (saved by an older playtest): rerun it "
                            "without --resume", field="--resume")
    return h


def _std_exact(h: np.ndarray) -> float:
    """Sample standard deviation (ddof 1) of the values whose histogram is ``h``, exact then rounded."""
    from fractions import Fraction
    import math

    n = int(h.sum())
    if n < 2:
        return float("nan")
    t = np.arange(h.size, dtype=object)
    ho = h.astype(object)
    s1, s2 = int((t * ho).sum()), int((t * t * ho).sum())
    var = (Fraction(s2) - Fraction(s1 * s1, n)) / (n - 1)
    return math.sqrt(float(var))


def tables_from_aggregates(parts: list) -> dict:
    """``all_tables`` of the games of ``parts`` = ``[(strategy label, players, Aggregate)]``
    (one group per part, in that order), read from the aggregates only."""
    from .aggregate import hist_median, hist_percentile

    wr, pr, ee, ln, md, js, rs = [], [], [], [], [], [], []
    for strat, players, a in parts:
        n = a.games
        key = {"strategy": strat, "players": np.int64(players)}
        c = a.counts
        turns_sum = int((np.arange(a.turns.size, dtype=np.int64) * a.turns).sum())
        wr.append({**key, "games": n, "wins": int(c["win"]), "mean_defeated": int(c["defeated"]) / n,
                   "mean_turns": turns_sum / n})
        d = _hist(a, "defeated")
        for k in range(13):
            pr.append({**key, "enemies_defeated": k, "games": n, "alive": int(d[k:].sum())})
        lost = _hist(a, "lost_end")
        n_lost = int(lost.sum())
        for pos, rank, su in zip(*np.nonzero(lost)):
            ee.append({**key, "castle_position": int(pos) + 1, "rank": RANKS.get(int(rank), "?"),
                       "suit": SUIT_NAMES[int(su) - 1], "losses": int(lost[pos, rank, su]), "lost_games": n_lost})
        t = a.turns
        nz = np.nonzero(t)[0]
        ln.append({**key, "games": n, "mean": turns_sum / n,
                   "std": _std_exact(t), "min": np.int64(nz.min()), "median": hist_median(t), "max": np.int64(nz.max()),
                   "q10": hist_percentile(t, 10), "q90": hist_percentile(t, 90)})
        if players == 1:
            m = _hist(a, "medal")
            for k in (3, 2, 1, 0):
                md.append({"strategy": strat, "what": f"medal: {MEDAL_NAMES[k]}", "games": n,
                           "count": int(m[k]) if k < m.size else 0})
            fl = _hist(a, "flips_used")
            for f in range(int(np.nonzero(fl)[0].max()) + 1):
                md.append({"strategy": strat, "what": f"flips used: {f}", "games": n, "count": int(fl[f])})
        js.append({**key, "games": n, "mean_jesters": int(c["jesters"]) / n,
                   "games_with_jester": int(_hist(a, "jester_games")[0]), "mean_yields": int(c["yields"]) / n,
                   "mean_exact_kills": int(c["exact_kills"]) / n})
        r = _hist(a, "reason")
        for code in np.nonzero(r)[0]:
            rs.append({**key, "reason": np.int64(code), "games": int(r[code])})

    win = _agg_ci(wr, "wins", "games", "win_")
    win = win[KEYS + ["games", "wins", "win_rate", "win_ci_low", "win_ci_high", "mean_defeated", "mean_turns"]]
    prog = _agg_ci(pr, "alive", "games", "alive_")
    cols = ["strategy", "players", "castle_position", "rank", "suit", "losses", "lost_games"]
    end = pd.DataFrame(ee, columns=cols)
    if len(end):
        end = _agg_ci(ee, "losses", "lost_games", "share_", cols)
    by_rs = end
    if len(end):
        by_rs = end.groupby(KEYS + ["rank", "suit"], sort=False).agg(
            losses=("losses", "sum"), lost_games=("lost_games", "first")).reset_index()
        by_rs = _ci(by_rs, "losses", "lost_games", "share_")
    lens = pd.DataFrame(ln)
    med = _agg_ci(md, "count", "games", columns=["strategy", "what", "games", "count"])
    jest = _agg_ci(js, "games_with_jester", "games", "jester_")
    rea = pd.DataFrame(rs)
    rea["games"] = rea["games"].astype(np.int64)
    rea["end"] = [REASON_NAMES[int(x)] for x in rea["reason"]]
    rea["total"] = rea.groupby(KEYS, sort=False)["games"].transform("sum")
    rea = _ci(rea, "games", "total")
    return {"win_rates": win, "progress": prog, "end_enemy": end, "end_by_rank_suit": by_rs, "lengths": lens,
            "medals": med, "jesters": jest, "end_reasons": rea}


def summary_from_aggregate(a) -> dict:
    """:func:`summary` of the games of one aggregate."""
    from .aggregate import hist_median

    n = a.games
    w = int(a.counts["win"])
    lo, hi = wilson(w, n)
    r = _hist(a, "reason")
    return {"games": n, "wins": w, "win_rate": w / n, "win_rate_ci": [lo, hi],
            "mean_enemies_defeated": int(a.counts["defeated"]) / n,
            "mean_turns": int((np.arange(a.turns.size, dtype=np.int64) * a.turns).sum()) / n,
            "median_turns": hist_median(a.turns),
            "capped": int(r[R_TURN_CAP]) if r.size > R_TURN_CAP else 0,
            "stalled": int(r[R_STALLED]) if r.size > R_STALLED else 0}


def uncapped_turns(a, max_turns: int) -> np.ndarray:
    """Histogram of the turns of the games of aggregate ``a`` that ended by a rule (not by
    the turn cap). A capped game has exactly ``max_turns`` turns (the cap ends the game at
    the start of turn ``max_turns + 1``: ``simcore/regicide/kernel.py`` ``begin_turn_nb``),
    so its games come off that one bin; exact (``tests/test_flat_verbs.py``)."""
    h = np.array(a.turns, np.int64)
    r = _hist(a, "reason")
    capped = int(r[R_TURN_CAP]) if r.size > R_TURN_CAP else 0
    if capped:
        if h.size <= max_turns or h[max_turns] < capped:  # pragma: no cover - a kernel change broke the rule
            raise RuntimeError(f"{capped} capped games but {int(h[max_turns]) if h.size > max_turns else 0} "
                               f"games of {max_turns} turns")
        h[max_turns] -= capped
    return h
