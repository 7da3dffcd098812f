"""Regicide analysis: per-game records (``strategies.regicide.bind``) to tables. Every rate
carries its Wilson 95% interval and sample size; the perfect-information strategy is
labelled as a cheat in every table.

Games ended by the turn cap (a safety net, reason "turn cap") are neither won nor lost: a
win rate is wins / finished games (games - capped), with the capped count beside it, and
every other figure is over the finished games too (turns, enemies defeated, the progress
curve, the enemy that ended each lost game, medals, flips, Jesters, yields and exact kills),
the capped count beside it; only the end-reason table counts every game (the cap is one of
its reasons). Solo games ended as "stalled" (a rule of play) are losses. For the run's
aggregate to leave the capped games out, ``RegicideAPI.reduce`` (``strategies.regicide.bind``)
keeps the ending enemy of the lost games only, and histograms of the capped games' enemies
defeated and flips and sums of their Jesters, yields and exact kills
(:func:`finished_hists`). A run stored before those (``analysis.store``) is read as before
when none of its games was capped, and refused with a one-line error when some were.

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


WIN_COLUMNS = KEYS + ["games", "capped", "finished_games", "wins", "win_rate", "win_ci_low", "win_ci_high",
                      "mean_defeated", "mean_turns"]


def _capped(df: pd.DataFrame) -> pd.Series:
    return df["reason"] == R_TURN_CAP


def win_rates(df: pd.DataFrame) -> pd.DataFrame:
    """Win rate by strategy and player count over the finished games (games - capped: a
    game ended by the turn cap is neither a win nor a loss), with the Wilson 95% interval
    and the capped count; mean enemies defeated and mean turns (finished games)."""
    cap = _capped(df)
    df = df.assign(_capped=cap.astype(np.int64), _fin_turns=df["turns"].where(~cap),
                   _fin_defeated=df["defeated"].where(~cap))
    g = df.groupby(KEYS, sort=False)
    out = g.agg(games=("win", "size"), capped=("_capped", "sum"), wins=("win", "sum"),
                mean_defeated=("_fin_defeated", "mean"), mean_turns=("_fin_turns", "mean")).reset_index()
    out["finished_games"] = out["games"] - out["capped"]
    out = _ci(out, "wins", "finished_games", "win_")
    return out[WIN_COLUMNS]


PROGRESS_COLUMNS = KEYS + ["enemies_defeated", "finished_games", "capped", "alive"]


def progress(df: pd.DataFrame) -> pd.DataFrame:
    """Share of the finished games still alive after each enemy: ``alive`` k = P(defeated
    >= k), k = 0..12, over ``finished_games`` (games - capped: a capped game stopped at the
    cap, not at an enemy), the capped count beside. k = 12 is the win rate."""
    rows = []
    for (s, p), part in df.groupby(KEYS, sort=False):
        cap = _capped(part)
        d = part.loc[~cap, "defeated"].to_numpy()
        for k in range(13):
            rows.append({"strategy": s, "players": p, "enemies_defeated": k, "finished_games": d.size,
                         "capped": int(cap.sum()), "alive": int((d >= k).sum())})
    out = pd.DataFrame(rows, columns=PROGRESS_COLUMNS)
    out = _ci(out, "alive", "finished_games", "alive_")
    return out


END_COLUMNS = ["strategy", "players", "castle_position", "rank", "suit", "losses", "lost_games", "capped"]


def end_enemy(df: pd.DataFrame) -> pd.DataFrame:
    """Which enemy ended the run (castle position, rank and suit), share of the lost games
    (``lost_games``; a game ended by the turn cap is not lost: it is left out, and counted
    in ``capped``)."""
    capped = df.assign(_c=_capped(df)).groupby(KEYS, sort=False)["_c"].sum()
    lost = df[(df["win"] == 0) & ~_capped(df)]
    rows = []
    for (s, p), part in lost.groupby(KEYS, sort=False):
        n = len(part)
        for (pos, r, su), cnt in part.groupby(["end_pos", "end_rank", "end_suit"]).size().items():
            rows.append({"strategy": s, "players": p, "castle_position": int(pos) + 1,
                         "rank": RANKS.get(int(r), "?"), "suit": SUIT_NAMES[int(su)],
                         "losses": int(cnt), "lost_games": n, "capped": int(capped[(s, p)])})
    out = pd.DataFrame(rows, columns=END_COLUMNS)
    if len(out):
        out = _ci(out, "losses", "lost_games", "share_")
    return out


def end_by_rank_suit(df: pd.DataFrame) -> pd.DataFrame:
    """Losses by the ending enemy's rank and suit (summed over castle positions)."""
    e = end_enemy(df)
    if not len(e):
        return e
    out = e.groupby(KEYS + ["rank", "suit"], sort=False).agg(
        losses=("losses", "sum"), lost_games=("lost_games", "first"), capped=("capped", "first")).reset_index()
    return _ci(out, "losses", "lost_games", "share_")


LENGTH_COLUMNS = KEYS + ["finished_games", "capped", "mean", "std", "min", "median", "max", "q10", "q90"]


def lengths(df: pd.DataFrame) -> pd.DataFrame:
    """Game length (turns) by strategy and player count, over the finished games (a capped
    game stops at the cap: it would only say how long the cap is); the capped count beside."""
    rows = []
    for (s, p), part in df.groupby(KEYS, sort=False):
        cap = _capped(part)
        t = part.loc[~cap, "turns"]
        row = {"strategy": s, "players": p, "finished_games": len(t), "capped": int(cap.sum())}
        if len(t):
            row.update({"mean": t.mean(), "std": t.std(), "min": t.min(), "median": t.median(), "max": t.max(),
                        "q10": t.quantile(0.1), "q90": t.quantile(0.9)})
        rows.append(row)
    return pd.DataFrame(rows, columns=LENGTH_COLUMNS)


MEDAL_COLUMNS = ["strategy", "what", "games", "capped", "count"]


def medals(df: pd.DataFrame) -> pd.DataFrame:
    """Solo games: medal distribution (gold = won with 0 flips, silver 1, bronze 2) and flip
    use over the finished games (``games``; a capped game has no medal and its flips stopped
    at the cap: it is left out, and counted in ``capped``), each share with its interval."""
    solo = df[df["players"] == 1]
    rows = []
    for s, part in solo.groupby("strategy", sort=False):
        cap = _capped(part)
        fin = part[~cap]
        c = int(cap.sum())
        for m in (3, 2, 1, 0):
            rows.append({"strategy": s, "what": f"medal: {MEDAL_NAMES[m]}", "games": len(fin), "capped": c,
                         "count": int((fin["medal"] == m).sum())})
        for f in range(int(fin["flips_used"].max()) + 1 if len(fin) else 0):
            rows.append({"strategy": s, "what": f"flips used: {f}", "games": len(fin), "capped": c,
                         "count": int((fin["flips_used"] == f).sum())})
    out = pd.DataFrame(rows, columns=MEDAL_COLUMNS)
    if len(out):
        out = _ci(out, "count", "games")
    return out


JESTER_COLUMNS = KEYS + ["finished_games", "capped", "mean_jesters", "games_with_jester", "mean_yields",
                         "mean_exact_kills"]


def jesters(df: pd.DataFrame) -> pd.DataFrame:
    """Jester use (3-4 players hold Jesters), yields and exact kills per game, over the
    finished games (a capped game stopped at the cap), the capped count beside."""
    rows = []
    for (s, p), part in df.groupby(KEYS, sort=False):
        cap = _capped(part)
        fin = part[~cap]
        rows.append({"strategy": s, "players": p, "finished_games": len(fin), "capped": int(cap.sum()),
                     "mean_jesters": fin["jesters"].mean(), "games_with_jester": int((fin["jesters"] > 0).sum()),
                     "mean_yields": fin["yields"].mean(), "mean_exact_kills": fin["exact_kills"].mean()})
    out = pd.DataFrame(rows, columns=JESTER_COLUMNS)
    return _ci(out, "games_with_jester", "finished_games", "jester_")


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


def _summary(n: int, w: int, capped: int, stalled: int, mean_defeated: float, turns_sum: int,
             median_turns) -> dict:
    done = n - capped
    if done:
        lo, hi = wilson(w, done)
        wr, ci, mean_turns = w / done, [lo, hi], turns_sum / done
    else:
        wr = ci = mean_turns = None
    # win rate, mean and median turns: the finished games (games - capped; a game cut off by
    # the max_turns safety cap is neither a win nor a loss), enemies defeated too.
    # Stalled: solo games ended by rule (empty hand, no flip, nothing to suffer: only
    # endless yields), losses.
    return {"games": n, "capped": capped, "finished_games": done, "wins": w, "win_rate": wr, "win_rate_ci": ci,
            "mean_enemies_defeated": mean_defeated, "mean_turns": mean_turns, "median_turns": median_turns,
            "stalled": stalled}


def summary(rec: dict) -> dict:
    """The ``--json`` summary of one run."""
    n = int(len(rec["win"]))
    cap = np.asarray(rec["reason"]) == R_TURN_CAP
    t = np.asarray(rec["turns"], np.int64)[~cap]
    d = np.asarray(rec["defeated"], np.int64)[~cap]
    return _summary(n, int(np.sum(rec["win"])), int(cap.sum()), int(np.sum(rec["reason"] == R_STALLED)),
                    float(np.mean(d)) if d.size else None, int(t.sum()), float(np.median(t)) if t.size else None)


def cap_line(s: dict) -> str:
    """The run summary's line about games that did not end by winning or losing a fight."""
    n = s["games"]
    return (f"  ended by the turn cap {s['capped']:,} ({s['capped'] / n:.2%}: neither won nor lost, left out of "
            f"the win rate, the turns and enemies defeated); stalled {s['stalled']:,} ({s['stalled'] / n:.2%}: "
            f"solo, no cards, no flip, attack shielded; losses)")


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


def finished_hists(a) -> dict:
    """What aggregate ``a`` holds of its finished games (the games not ended by the turn
    cap): ``defeated`` and ``flips_used`` (histograms), ``sums`` (Jesters, yields, exact
    kills, games with a Jester), from every game's less the capped games' (``RegicideAPI.reduce``).

    A run stored before the capped games' histograms (``analysis.store``) has none: with no
    capped game its figures are the finished games' already; with some, or when a resumed
    run mixes chunks saved before and after them (the capped games' histograms then cover
    fewer games than the cap ended, or the ending enemy counts capped games), a one-line
    error instead of figures that count the capped games silently."""
    from simcore.errors import PlaytestError

    n, capped, wins = a.games, _capped_count(a), int(a.counts["win"])
    c = a.counts
    every = np.array([int(c["jesters"]), int(c["yields"]), int(c["exact_kills"]), int(_hist(a, "jester_games")[0])],
                     dtype=np.int64)
    d, f = np.array(_hist(a, "defeated"), np.int64), np.array(_hist(a, "flips_used"), np.int64)
    hc = [a.hists.get(k) for k in ("defeated_capped", "flips_capped", "capped_sums")]
    lost = int(_hist(a, "lost_end").sum())
    if not capped and lost == n - wins:
        dc, fc, sc = [np.zeros_like(x) if h is None else np.asarray(h, np.int64)
                      for h, x in zip(hc, (d, f, every))]
    elif (capped and all(h is not None for h in hc) and int(hc[0].sum()) == capped == int(hc[1].sum())
          and lost == n - wins - capped):
        dc, fc, sc = (np.asarray(h, np.int64) for h in hc)
    else:
        raise PlaytestError(f"this stored Regicide run has {capped:,} games ended by the turn cap but not their "
                            "enemies defeated, flips and ending enemies apart (chunks saved by an older playtest): "
                            "rerun it without --resume", field="--resume")
    return {"defeated": _padded_diff(d, dc), "flips_used": _padded_diff(f, fc), "sums": every - sc}


def _padded_diff(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    out = np.zeros(max(a.size, b.size), np.int64)
    out[:a.size] += a
    out[:b.size] -= b
    if (out < 0).any():  # pragma: no cover - a reduce bug, never a user error
        raise RuntimeError("more capped games than games in a histogram")
    return out


def tables_from_aggregates(parts: list) -> dict:
    """``all_tables`` of the games of ``parts`` = ``[(strategy label, players, Aggregate)]``
    (one group per part, in that order), read from the aggregates only."""
    from .aggregate import hist_median, hist_percentile

    wr, pr, ee, ln, md, js, rs = [], [], [], [], [], [], []
    for strat, players, a in parts:
        n = a.games
        key = {"strategy": strat, "players": np.int64(players)}
        c = a.counts
        capped = _capped_count(a)
        t = _finished_turns(a)
        done = n - capped
        fin = finished_hists(a)
        turns_sum = int((np.arange(t.size, dtype=np.int64) * t).sum())
        d = fin["defeated"]
        defeated_sum = int((np.arange(d.size, dtype=np.int64) * d).sum())
        wr.append({**key, "games": n, "capped": capped, "finished_games": done, "wins": int(c["win"]),
                   "mean_defeated": defeated_sum / done if done else np.nan,
                   "mean_turns": turns_sum / done if done else np.nan})
        for k in range(13):
            pr.append({**key, "enemies_defeated": k, "finished_games": done, "capped": capped,
                       "alive": int(d[k:].sum())})
        lost = _hist(a, "lost_end")      # the lost games only (finished_hists checks it)
        n_lost = int(lost.sum())
        for pos, rank, su in zip(*np.nonzero(lost)):
            ee.append({**key, "castle_position": int(pos) + 1, "rank": RANKS.get(int(rank), "?"),
                       "suit": SUIT_NAMES[int(su) - 1], "losses": int(lost[pos, rank, su]), "lost_games": n_lost,
                       "capped": capped})
        nz = np.nonzero(t)[0]
        row = {**key, "finished_games": done, "capped": capped}
        if done:
            row.update({"mean": turns_sum / done, "std": _std_exact(t), "min": np.int64(nz.min()),
                        "median": hist_median(t), "max": np.int64(nz.max()), "q10": hist_percentile(t, 10),
                        "q90": hist_percentile(t, 90)})
        ln.append(row)
        if players == 1:
            m = np.array(_hist(a, "medal"), np.int64)
            m[0] -= capped   # a capped game has no medal (medal 0, "none"): medals are of the finished games
            for k in (3, 2, 1, 0):
                md.append({"strategy": strat, "what": f"medal: {MEDAL_NAMES[k]}", "games": done, "capped": capped,
                           "count": int(m[k]) if k < m.size else 0})
            fl = fin["flips_used"]
            for f in range(int(np.nonzero(fl)[0].max()) + 1 if done else 0):
                md.append({"strategy": strat, "what": f"flips used: {f}", "games": done, "capped": capped,
                           "count": int(fl[f])})
        sj, sy, sk, sg = (int(x) for x in fin["sums"])
        js.append({**key, "finished_games": done, "capped": capped, "mean_jesters": sj / done if done else np.nan,
                   "games_with_jester": sg, "mean_yields": sy / done if done else np.nan,
                   "mean_exact_kills": sk / done if done else np.nan})
        r = _hist(a, "reason")
        for code in np.nonzero(r)[0]:
            rs.append({**key, "reason": np.int64(code), "games": int(r[code])})

    win = _agg_ci(wr, "wins", "finished_games", "win_")
    win = win[WIN_COLUMNS]
    prog = _agg_ci(pr, "alive", "finished_games", "alive_", PROGRESS_COLUMNS)
    end = pd.DataFrame(ee, columns=END_COLUMNS)
    if len(end):
        end = _agg_ci(ee, "losses", "lost_games", "share_", END_COLUMNS)
    by_rs = end
    if len(end):
        by_rs = end.groupby(KEYS + ["rank", "suit"], sort=False).agg(
            losses=("losses", "sum"), lost_games=("lost_games", "first"), capped=("capped", "first")).reset_index()
        by_rs = _ci(by_rs, "losses", "lost_games", "share_")
    lens = pd.DataFrame(ln, columns=LENGTH_COLUMNS)
    med = _agg_ci(md, "count", "games", columns=MEDAL_COLUMNS)
    jest = _agg_ci(js, "games_with_jester", "finished_games", "jester_", JESTER_COLUMNS)
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
    r = _hist(a, "reason")
    t = _finished_turns(a)
    d = finished_hists(a)["defeated"]
    done = int(d.sum())
    return _summary(n, int(a.counts["win"]), _capped_count(a), int(r[R_STALLED]) if r.size > R_STALLED else 0,
                    int((np.arange(d.size, dtype=np.int64) * d).sum()) / done if done else None,
                    int((np.arange(t.size, dtype=np.int64) * t).sum()), float(hist_median(t)) if t.sum() else None)


def _capped_count(a) -> int:
    r = _hist(a, "reason")
    return int(r[R_TURN_CAP]) if r.size > R_TURN_CAP else 0


def _finished_turns(a) -> np.ndarray:
    """Histogram of the turns of the finished games of aggregate ``a``: :func:`uncapped_turns`
    at the cap the histogram shows (no game runs past ``max_turns`` turns and a capped game
    has exactly that many, so with capped games the last bin is ``max_turns``)."""
    if not _capped_count(a):
        return np.array(a.turns, np.int64)
    return uncapped_turns(a, int(np.nonzero(a.turns)[0].max()))


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
