"""Dice duel tournament analysis: per-game records of a ``MatchupRun`` in, tables with
Wilson intervals out.

Input (``strategies.duel.bind.run_matchups``): ``run.heroes`` (names), ``run.pairs`` (ordered
hero index pairs ``(a, b)``, seat 0 plays ``a``), ``run.records[(a, b)]`` (per-game arrays
``winner``, ``first``, ``turns``, ``hp``, ``cp``, ``timeout``, ``abilities``, ``bought``, or
the exact ``analysis.aggregate.Aggregate`` of those games, with the duel's ``turns_fc``
histogram: the flat-memory path of ``playtest duel matchups``), ``run.games``, ``run.seed``,
``run.strategy``, ``run.rules``. Every table reads the games only through the small
functions below (``_score``, ``_first_split``, ``_turn_hist``...), each with a records
branch and an aggregate branch; the tables are equal either way
(``tests/test_duel_aggregate.py``). Runs ``(a, b)`` and ``(b, a)``
replay the same dice streams with seats swapped; a mirror ``(a, a)`` has one run.

Definitions (used by every table, the JSON and the report):

* **Score** of a side: wins + half the draws. A draw is both heroes dead at once or the
  turn cap (a *timeout*, counted as a draw).
* **Win rate of hero A vs B** (row A, column B): A's score / games over both seat orders,
  i.e. A in seat 0 of run ``(A, B)`` plus A in seat 1 of run ``(B, A)``. For a mirror the
  two seats of run ``(A, A)`` are both A, so every game is counted once from each seat:
  ``games`` is then twice the distinct games, wins = losses, and the rate is exactly 50%
  by construction (what is left of any seat bias is the first-player edge).
* **Interval**: Wilson 95% on the (fractional) score over the *distinct* games of the
  matchup (``distinct_games``: 2 x games per seat order; for a mirror, the games of its
  one run, since its two seat views are the same games).
* **First-player win rate**: the first player's score / games over all distinct games of
  a matchup (both runs), with a Wilson interval; overall = over every game of the run.
* **Hero win rate vs the field**: the mean of the hero's matchup win rates against every
  other hero (mirrors excluded, equal weight per matchup); its interval is Wilson on that
  rate over the pooled distinct games.
* **Hero turns**: the first player starts turns 1, 3, 5..., so a seat started
  ``(turns + (first == seat)) // 2`` of the game's ``turns`` player-turns.
"""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd

from simcore import __version__

from .io import ensure_dir, write_tables
from .runs import ci_decimals, fmt_rate
from .stats import wilson

CONF = 0.95


# ---------------------------------------------------------------- helpers
def hero_names(run) -> list[str]:
    return [h if isinstance(h, str) else getattr(h, "name", str(h)) for h in run.heroes]


def _is_agg(r) -> bool:
    from .aggregate import Aggregate

    return isinstance(r, Aggregate)


def _fc(r) -> np.ndarray:
    """An aggregate's games by (first mover, timeout, player-turns)."""
    h = r.hists.get("turns_fc")
    if h is None:
        from simcore.errors import PlaytestError

        raise PlaytestError("this stored duel run has no per-turn histogram (saved by an older playtest): "
                            "rerun it without --resume", field="--resume")
    return h


def _n(r) -> int:
    return r.games if _is_agg(r) else int(np.asarray(r["winner"]).size)


def _score(rec, seat: int):
    """(wins, draws, losses) of ``seat`` in one run's records (or aggregate)."""
    if _is_agg(rec):
        wins = int(rec.outcome[:, seat + 1, :].sum())
        draws = int(rec.outcome[:, 0, :].sum())
        return wins, draws, rec.games - wins - draws
    w = np.asarray(rec["winner"])
    wins = int(np.count_nonzero(w == seat))
    draws = int(np.count_nonzero(w == -1))
    return wins, draws, int(w.size) - wins - draws


def _first_split(r, seat: int) -> tuple[int, int, int]:
    """(games ``seat`` moved first and won, ... moved first and drew, ... moved first)."""
    if _is_agg(r):
        o = r.outcome[seat]
        return int(o[seat + 1].sum()), int(o[0].sum()), int(o.sum())
    win = np.asarray(r["winner"])
    first = np.asarray(r["first"]) == seat
    return (int(np.count_nonzero(first & (win == seat))), int(np.count_nonzero(first & (win == -1))),
            int(np.count_nonzero(first)))


def _timeouts(r) -> int:
    return r.capped if _is_agg(r) else int(np.count_nonzero(r["timeout"]))


def _turn_hist(recs, timeouts_only: bool = False) -> np.ndarray:
    """Games per player-turn count (index = turns) over a list of runs."""
    hs = []
    for r in recs:
        if _is_agg(r) and not timeouts_only and "turns_fc" not in r.hists:
            hs.append(r.turns)       # another game's aggregate: its exact histogram of turns
        elif _is_agg(r):
            fc = _fc(r)
            hs.append(fc[:, 1, :].sum(axis=0) if timeouts_only else fc.sum(axis=(0, 1)))
        else:
            t = np.asarray(r["turns"], np.int64)
            if timeouts_only:
                t = t[np.asarray(r["timeout"], bool)]
            hs.append(np.bincount(t, minlength=1))
    out = np.zeros(max((h.size for h in hs), default=1), np.int64)
    for h in hs:
        out[:h.size] += h
    return out


def _turn_stats(recs) -> tuple[float, float, float, float]:
    """(mean, p10, median, p90) of the player-turns of the games of ``recs``."""
    if not recs:
        return (math.nan,) * 4
    if _is_agg(recs[0]):
        from .aggregate import hist_percentile

        h = _turn_hist(recs)
        n = int(h.sum())
        if n == 0:
            return (math.nan,) * 4
        total = int((np.arange(h.size, dtype=np.int64) * h).sum())
        return (total / n, *(hist_percentile(h, q) for q in (10, 50, 90)))
    turns = np.concatenate([np.asarray(r["turns"]) for r in recs])
    if not turns.size:
        return (math.nan,) * 4
    q = np.percentile(turns, [10, 50, 90])
    return float(turns.mean()), float(q[0]), float(q[1]), float(q[2])


def _abilities(r) -> np.ndarray:
    """Activations per (seat, ability) over the games of one run."""
    if _is_agg(r):
        return np.asarray(r.counts["abilities"], np.int64)
    return np.asarray(r["abilities"], dtype=np.int64).sum(axis=0)


def _bought(r, seat: int) -> int:
    return int(r.counts["bought"][seat]) if _is_agg(r) else int(np.asarray(r["bought"])[:, seat].sum())


def _views(run, a: int, b: int) -> list[tuple[dict, int]]:
    """(records, seat) pairs in which hero ``a`` plays hero ``b``."""
    rec = run.records
    if a == b:
        return [(rec[(a, a)], 0), (rec[(a, a)], 1)] if (a, a) in rec else []
    out = []
    if (a, b) in rec:
        out.append((rec[(a, b)], 0))
    if (b, a) in rec:
        out.append((rec[(b, a)], 1))
    return out


def _runs_of(run, a: int, b: int) -> list[dict]:
    """The distinct runs (games) of the unordered matchup {a, b}."""
    keys = [(a, b)] if a == b else [(a, b), (b, a)]
    return [run.records[k] for k in keys if k in run.records]


def _matchups(run) -> list[tuple[int, int]]:
    """Unordered matchups present in the run, as (low index, high index)."""
    return sorted({(min(a, b), max(a, b)) for a, b in run.pairs})


def seat_turns(rec, seat: int) -> np.ndarray:
    turns = np.asarray(rec["turns"], dtype=np.int64)
    return (turns + (np.asarray(rec["first"]) == seat)) // 2


def _seat_turns_total(r, seat: int) -> int:
    """Player-turns ``seat`` started over the games of one run."""
    if _is_agg(r):
        fc = _fc(r).sum(axis=1)                # [first, turns]
        t = np.arange(fc.shape[1], dtype=np.int64)
        return int(sum(int((fc[f] * ((t + (f == seat)) // 2)).sum()) for f in range(2)))
    return int(seat_turns(r, seat).sum())


def _first_player(recs) -> tuple[int, int, int]:
    """(first-player wins, draws, games) over a list of runs."""
    fw = dr = n = 0
    for r in recs:
        if _is_agg(r):
            fw += sum(int(r.outcome[f, f + 1, :].sum()) for f in range(2))
            dr += int(r.outcome[:, 0, :].sum())
            n += r.games
            continue
        w = np.asarray(r["winner"])
        fw += int(np.count_nonzero(w == np.asarray(r["first"])))
        dr += int(np.count_nonzero(w == -1))
        n += int(w.size)
    return fw, dr, n


def _ci(score, n):
    lo, hi = wilson(score, n, CONF)
    return float(lo), float(hi)


def _rate(score, n) -> float:
    return float(score) / n if n else float("nan")


def edge_text(x, lo, hi, signed: bool = True) -> str:
    """A rate's distance from 50% in points as the reader computes it from the rate printed
    beside it (``fmt_rate`` with the same interval: the same decimals, the printed value
    less 50), so the two never disagree in the last digit (53.75% printed 53.8% beside +3.7)."""
    d = ci_decimals(lo, hi)
    e = round(100 * x, d) - 50
    return f"{e:+.{d}f}" if signed else f"{abs(e):.{d}f}"


# ---------------------------------------------------------------- tables
def matchup_table(run) -> pd.DataFrame:
    """One row per ordered hero pair (row hero A vs opponent B), every pair of ``run.pairs``.

    Columns: hero, opponent (names), hero_idx, opponent_idx, mirror, games (A's seat-games:
    both seat orders; 2 x distinct for a mirror), distinct_games, wins, draws, losses,
    win_rate (A's score / games), ci_low, ci_high (Wilson 95% over distinct games),
    edge_pp (win_rate - 50% in points), significant (interval excludes 50%),
    win_rate_first / win_rate_second (A's score when A took / did not take the first turn;
    games_first / games_second the games behind each, first_ci_low ... second_ci_high their
    Wilson 95% intervals),
    first_player_win_rate, fp_ci_low, fp_ci_high (the matchup's first player, both runs),
    timeouts, timeout_rate, mean_turns, median_turns, p10_turns, p90_turns (player-turns
    per distinct game).
    """
    names = hero_names(run)
    rows = []
    for a, b in sorted(set(run.pairs)):
        views = _views(run, a, b)
        recs = _runs_of(run, a, b)
        wins = draws = losses = games = 0
        s_first = n_first = 0.0
        for r, seat in views:
            w, d, l_ = _score(r, seat)
            wins, draws, losses, games = wins + w, draws + d, losses + l_, games + w + d + l_
            fwon, fdrew, fgames = _first_split(r, seat)
            s_first += fwon + 0.5 * fdrew
            n_first += fgames
        n_second = games - n_first
        s_second = wins + 0.5 * draws - s_first
        distinct = sum(_n(r) for r in recs)
        # each distinct game is counted once moving first and once moving second (a mirror's
        # two seat views split it that way too), so both rates rest on distinct games
        f_lo, f_hi = _ci(s_first, n_first) if n_first else (math.nan, math.nan)
        s_lo, s_hi = _ci(s_second, n_second) if n_second else (math.nan, math.nan)
        rate = _rate(wins + 0.5 * draws, games)
        lo, hi = _ci(rate * distinct, distinct) if distinct else (math.nan, math.nan)
        fw, fd, fn = _first_player(recs)
        fp = _rate(fw + 0.5 * fd, fn)
        flo, fhi = _ci(fw + 0.5 * fd, fn) if fn else (math.nan, math.nan)
        mean_turns, p10, p50, p90 = _turn_stats(recs)
        timeouts = sum(_timeouts(r) for r in recs)
        rows.append({
            "hero": names[a], "opponent": names[b], "hero_idx": a, "opponent_idx": b,
            "mirror": a == b, "games": games, "distinct_games": distinct,
            "wins": wins, "draws": draws, "losses": losses,
            "win_rate": rate, "ci_low": lo, "ci_high": hi, "edge_pp": 100 * (rate - 0.5),
            "significant": bool(a != b and (lo > 0.5 or hi < 0.5)),
            "win_rate_first": _rate(s_first, n_first), "games_first": int(n_first),
            "first_ci_low": f_lo, "first_ci_high": f_hi,
            "win_rate_second": _rate(s_second, n_second), "games_second": int(n_second),
            "second_ci_low": s_lo, "second_ci_high": s_hi,
            "first_player_win_rate": fp, "fp_ci_low": flo, "fp_ci_high": fhi,
            "timeouts": timeouts, "timeout_rate": _rate(timeouts, distinct),
            "mean_turns": mean_turns, "median_turns": p50, "p10_turns": p10, "p90_turns": p90,
        })
    return pd.DataFrame(rows)


def hero_table(run, matchups: pd.DataFrame | None = None) -> pd.DataFrame:
    """Per hero: win rate vs the field (mean of its non-mirror matchup win rates, equal
    weight per matchup) with a Wilson 95% interval over the pooled distinct games (``games``;
    ``timeouts``: the capped games among them, counted as draws), edge in
    points, whether the interval excludes 50%, its best and worst matchup (each with its
    matchup's interval and distinct games: ``best_ci_low``, ``best_ci_high``, ``best_games``,
    ``worst_...``), its score when moving first / second (pooled over those matchups, with
    ``games_first``/``games_second`` and Wilson intervals), attacks and bought rolls per own
    turn (non-mirror games)."""
    m = matchup_table(run) if matchups is None else matchups
    names = hero_names(run)
    rows = []
    for h, name in enumerate(names):
        sub = m[(m.hero_idx == h) & ~m.mirror]
        if sub.empty:
            continue
        rate = float(sub.win_rate.mean())
        n = int(sub.distinct_games.sum())
        lo, hi = _ci(rate * n, n)
        best = sub.loc[sub.win_rate.idxmax()]
        worst = sub.loc[sub.win_rate.idxmin()]
        attacks = bought = turns = 0
        for o in sub.opponent_idx:
            for r, seat in _views(run, h, int(o)):
                if _is_agg(r) and "abilities" not in r.counts:
                    continue     # another hero game (Dice Throne): no duel ability counts
                attacks += int(_abilities(r)[seat].sum())
                bought += _bought(r, seat)
                turns += _seat_turns_total(r, seat)
        sf = (sub.win_rate_first * sub.games_first).sum()
        nf = sub.games_first.sum()
        ss = (sub.win_rate_second * sub.games_second).sum()
        ns = sub.games_second.sum()
        f_lo, f_hi = _ci(sf, nf) if nf else (math.nan, math.nan)
        s_lo, s_hi = _ci(ss, ns) if ns else (math.nan, math.nan)
        rows.append({
            "hero": name, "hero_idx": h, "opponents": len(sub), "games": int(sub.games.sum()),
            "wins": int(sub.wins.sum()), "draws": int(sub.draws.sum()), "losses": int(sub.losses.sum()),
            "timeouts": int(sub.timeouts.sum()),
            "win_rate": rate, "ci_low": lo, "ci_high": hi, "edge_pp": 100 * (rate - 0.5),
            "significant": bool(lo > 0.5 or hi < 0.5),
            "best_vs": best.opponent, "best_win_rate": float(best.win_rate),
            "best_ci_low": float(best.ci_low), "best_ci_high": float(best.ci_high),
            "best_games": int(best.distinct_games),
            "worst_vs": worst.opponent, "worst_win_rate": float(worst.win_rate),
            "worst_ci_low": float(worst.ci_low), "worst_ci_high": float(worst.ci_high),
            "worst_games": int(worst.distinct_games),
            "win_rate_first": _rate(sf, nf), "games_first": int(nf), "first_ci_low": f_lo,
            "first_ci_high": f_hi, "win_rate_second": _rate(ss, ns), "games_second": int(ns),
            "second_ci_low": s_lo, "second_ci_high": s_hi,
            "attacks_per_turn": _rate(attacks, turns), "bought_rolls_per_turn": _rate(bought, turns),
        })
    return pd.DataFrame(rows)


def first_player_table(run) -> pd.DataFrame:
    """The first player's score rate per unordered matchup (both runs; a mirror's one run)
    and over every game of the run (row ``hero_a == "all"``), with Wilson 95% intervals and
    the edge over 50% in points; ``timeouts``: the capped games among the draws."""
    names = hero_names(run)
    rows = []

    def row(label_a, label_b, recs):
        fw, fd, n = _first_player(recs)
        lo, hi = _ci(fw + 0.5 * fd, n) if n else (math.nan, math.nan)
        rate = _rate(fw + 0.5 * fd, n)
        return {"hero_a": label_a, "hero_b": label_b, "games": n, "first_wins": fw, "draws": fd,
                "first_losses": n - fw - fd, "timeouts": sum(_timeouts(r) for r in recs),
                "first_player_win_rate": rate, "ci_low": lo,
                "ci_high": hi, "edge_pp": 100 * (rate - 0.5),
                "significant": bool(lo > 0.5 or hi < 0.5)}

    for a, b in _matchups(run):
        rows.append(row(names[a], names[b], _runs_of(run, a, b)))
    rows.append(row("all", "all", list(run.records.values())))
    return pd.DataFrame(rows)


def length_table(run) -> pd.DataFrame:
    """Game length distribution per unordered matchup (both runs): one row per observed
    number of player-turns, with the count of games, their share and the timeouts among
    them (timeouts sit at the turn cap)."""
    names = hero_names(run)
    frames = []
    for a, b in _matchups(run):
        recs = _runs_of(run, a, b)
        hist = _turn_hist(recs)
        tout = _turn_hist(recs, timeouts_only=True)
        vals = np.nonzero(hist)[0]
        counts = hist[vals]
        tcount = np.array([int(tout[v]) if v < tout.size else 0 for v in vals], dtype=np.int64)
        frames.append(pd.DataFrame({
            "hero_a": names[a], "hero_b": names[b], "turns": vals.astype(np.int64),
            "games": counts.astype(np.int64), "share": counts / int(hist.sum()), "timeouts": tcount}))
    if not frames:
        return pd.DataFrame(columns=["hero_a", "hero_b", "turns", "games", "share", "timeouts"])
    return pd.concat(frames, ignore_index=True)


def ability_names(run, setup=None) -> list[list[str]]:
    """Ability names per hero of the run, from ``setup`` (or ``run.setup``) when given and
    its heroes match the run's; otherwise ``ability 1..k`` for the slots that ever fired."""
    names = hero_names(run)
    setup = setup if setup is not None else getattr(run, "setup", None)
    if setup is not None:
        sh = [h.name for h in setup.heroes]
        if sh == names:
            return [[a.name for a in h.abilities] for h in setup.heroes]
    used = {}
    for (a, b), r in run.records.items():
        ab = _abilities(r)
        for seat, h in ((0, a), (1, b)):
            fired = np.nonzero(ab[seat])[0]
            used[h] = max(used.get(h, 0), int(fired.max()) + 1 if fired.size else 0)
    return [[f"ability {k + 1}" for k in range(used.get(h, 0))] for h in range(len(names))]


def ability_table(run, setup=None) -> pd.DataFrame:
    """Per hero and ability, over every game the hero played (each seat of a mirror counts
    as one hero-game): activations, per own turn, per game, share of that hero's attacks
    (``attacks``: its n, the hero's activations of any ability; ``share_ci_low`` /
    ``share_ci_high``: Wilson 95%, treating the attacks as independent draws).
    A last row per hero, ``(no attack)``, counts its turns without an attack (dazed turns
    included)."""
    names = hero_names(run)
    abn = ability_names(run, setup)
    H = len(names)
    act = [None] * H
    turns = np.zeros(H, np.int64)
    games = np.zeros(H, np.int64)
    for (a, b), r in run.records.items():
        ab = _abilities(r)
        for seat, h in ((0, a), (1, b)):
            s = ab[seat]
            act[h] = s if act[h] is None else act[h] + s
            turns[h] += _seat_turns_total(r, seat)
            games[h] += _n(r)
    rows = []
    for h in range(H):
        if act[h] is None:
            continue
        total = int(act[h].sum())
        for k, an in enumerate(abn[h]):
            c = int(act[h][k])
            lo, hi = _ci(c, total) if total else (math.nan, math.nan)
            rows.append({"hero": names[h], "ability": an, "ability_idx": k, "activations": c,
                         "games": int(games[h]), "hero_turns": int(turns[h]),
                         "per_turn": _rate(c, turns[h]), "per_game": _rate(c, games[h]),
                         "share_of_attacks": _rate(c, total), "share_ci_low": lo, "share_ci_high": hi,
                         "attacks": total})
        idle = int(turns[h]) - total
        rows.append({"hero": names[h], "ability": "(no attack)", "ability_idx": -1,
                     "activations": idle, "games": int(games[h]), "hero_turns": int(turns[h]),
                     "per_turn": _rate(idle, turns[h]), "per_game": _rate(idle, games[h]),
                     "share_of_attacks": math.nan, "share_ci_low": math.nan, "share_ci_high": math.nan,
                     "attacks": total})
    return pd.DataFrame(rows)


# ---------------------------------------------------------------- JSON, summary, files
def _clean(x):
    if isinstance(x, float) and not math.isfinite(x):
        return None
    return x


def run_meta(run) -> dict:
    """Provenance for the sidecar and the JSON: seed, games, strategy, rule options, version."""
    return {
        "game": "dice-duel", "seed": int(run.seed), "games_per_matchup": int(run.games),
        "strategy": str(run.strategy), "rules": dict(run.rules), "heroes": hero_names(run),
        "pairs": [[int(a), int(b)] for a, b in run.pairs], "package_version": __version__,
        "confidence": CONF,
        "definitions": {
            "win_rate": "row hero's (wins + draws/2) / games over both seat orders; "
                        "mirror: both seats of its one run (50% by construction)",
            "interval": "Wilson 95% on the fractional score over the matchup's distinct games",
            "first_player_win_rate": "first player's (wins + draws/2) / games",
            "hero_win_rate": "mean of the hero's non-mirror matchup win rates (equal weight)",
            "games_per_matchup": "games per seat order (per run); a non-mirror matchup pools "
                                 "two runs, a mirror has one",
        },
    }


def matrix_json(run, matchups: pd.DataFrame | None = None) -> dict:
    """The machine-readable result (``playtest duel matchups --json``): ``heroes`` in order;
    ``win_rate[i][j]`` hero i's win rate vs hero j (seats averaged; null if not played);
    ``win_rate_ci[i][j]`` its ``[low, high]``; ``games[i][j]`` distinct games behind it;
    ``first_player_win_rate`` (overall, with ``first_player_win_rate_ci``) and
    ``first_player_matrix``; ``hero_win_rate`` (+ ``_ci``) vs the field; ``timeouts``;
    ``seed``, ``strategy``, ``games_per_matchup`` (games per seat order), ``rules``,
    ``package_version``."""
    m = matchup_table(run) if matchups is None else matchups
    names = hero_names(run)
    H = len(names)
    wr = [[None] * H for _ in range(H)]
    ci = [[None] * H for _ in range(H)]
    games = [[0] * H for _ in range(H)]
    fpm = [[None] * H for _ in range(H)]
    for r in m.itertuples():
        i, j = int(r.hero_idx), int(r.opponent_idx)
        wr[i][j] = _clean(float(r.win_rate))
        ci[i][j] = [_clean(float(r.ci_low)), _clean(float(r.ci_high))]
        games[i][j] = int(r.distinct_games)
        fpm[i][j] = _clean(float(r.first_player_win_rate))
    fp = first_player_table(run).iloc[-1]
    ht = hero_table(run, m)
    hwr = [None] * H
    hci = [None] * H
    for r in ht.itertuples():
        hwr[int(r.hero_idx)] = _clean(float(r.win_rate))
        hci[int(r.hero_idx)] = [_clean(float(r.ci_low)), _clean(float(r.ci_high))]
    meta = run_meta(run)
    return {
        "heroes": names, "win_rate": wr, "win_rate_ci": ci, "games": games,
        "first_player_win_rate": _clean(float(fp.first_player_win_rate)),
        "first_player_win_rate_ci": [_clean(float(fp.ci_low)), _clean(float(fp.ci_high))],
        "first_player_games": int(fp.games),
        "first_player_matrix": fpm,
        "hero_win_rate": hwr, "hero_win_rate_ci": hci,
        "timeouts": int(sum(_timeouts(r) for r in run.records.values())),
        "seed": meta["seed"], "strategy": meta["strategy"],
        "games_per_matchup": meta["games_per_matchup"], "rules": meta["rules"],
        "package_version": meta["package_version"], "confidence": CONF,
    }


def _diff_ci(p1, l1, u1, p2, l2, u2) -> tuple[float, float]:
    """Newcombe's interval for p1 - p2 from the two Wilson intervals (treats them as
    independent: an approximation when both rates share games)."""
    d = p1 - p2
    return (d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2),
            d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2))


def _matchup_rate(r, which: str) -> str:
    """A hero row's best or worst matchup rate with its interval and n (distinct games)."""
    g = lambda k: getattr(r, f"{which}_{k}")  # noqa: E731
    return f"{fmt_rate(g('win_rate'), (g('ci_low'), g('ci_high')))} over {int(g('games')):,} games"


def balance_summary(run, matchups: pd.DataFrame | None = None,
                    heroes: pd.DataFrame | None = None) -> list[str]:
    """Plain sentences for a designer: which heroes and matchups are off 50% beyond noise
    (their 95% interval excludes 50%) and by how many percentage points, the spread between
    the strongest and weakest hero, the most lopsided matchup, the first-player edge and
    the timeouts."""
    m = matchup_table(run) if matchups is None else matchups
    ht = hero_table(run, m) if heroes is None else heroes
    out = []
    nm = m[~m.mirror]
    if nm.empty:
        out.append(f"Only mirror matches were played ({run.games:,} games each): a mirror is 50% "
                   f"by construction, so only the first-player edge below is informative.")
    else:
        per = int(nm.distinct_games.median())
        half = 100 * 1.96 * math.sqrt(0.25 / per)
        out.append(f"Each matchup pools {per:,} games (both seat orders, {run.games:,} each), so a "
                   f"matchup's win rate is known to about ±{half:.1f} points; heroes and matchups "
                   f"are flagged only when their 95% interval excludes 50%.")
    if not ht.empty:
        strong = ht[ht.significant & (ht.win_rate > 0.5)].sort_values("win_rate", ascending=False)
        weak = ht[ht.significant & (ht.win_rate < 0.5)].sort_values("win_rate")
        for r in strong.itertuples():
            out.append(f"{r.hero} is too strong: it wins {fmt_rate(r.win_rate, (r.ci_low, r.ci_high))} "
                       f"against the field, {edge_text(r.win_rate, r.ci_low, r.ci_high, False)} points above even "
                       f"(best vs {r.best_vs}: {_matchup_rate(r, 'best')}).")
        for r in weak.itertuples():
            out.append(f"{r.hero} is too weak: it wins {fmt_rate(r.win_rate, (r.ci_low, r.ci_high))} "
                       f"against the field, {edge_text(r.win_rate, r.ci_low, r.ci_high, False)} points below even "
                       f"(worst vs {r.worst_vs}: {_matchup_rate(r, 'worst')}).")
        even = ht[~ht.significant]
        if not even.empty:
            out.append("Within noise of even: " + "; ".join(
                f"{r.hero} {fmt_rate(r.win_rate, (r.ci_low, r.ci_high))}" for r in even.itertuples()) + ".")
        if len(ht) >= 2:
            hi_ = ht.loc[ht.win_rate.idxmax()]
            lo_ = ht.loc[ht.win_rate.idxmin()]
            dlo, dhi = _diff_ci(hi_.win_rate, hi_.ci_low, hi_.ci_high, lo_.win_rate, lo_.ci_low, lo_.ci_high)
            d = ci_decimals(dlo, dhi)      # enough decimals that the interval's ends differ
            a, b = round(100 * hi_.win_rate, d), round(100 * lo_.win_rate, d)   # the spread as printed
            out.append(f"Spread between the strongest hero ({hi_.hero}, {a:.{d}f}%) and the "
                       f"weakest ({lo_.hero}, {b:.{d}f}%): {a - b:.{d}f} "
                       f"points (about [{100 * dlo:.{d}f}, {100 * dhi:.{d}f}]).")
    if not nm.empty:
        top = nm.loc[nm.win_rate.idxmax()]  # each pair appears from both sides; take the winner's
        out.append(f"Most lopsided matchup: {top.hero} beats {top.opponent} "
                   f"{fmt_rate(top.win_rate, (top.ci_low, top.ci_high))} of the time, "
                   f"{edge_text(top.win_rate, top.ci_low, top.ci_high, False)} points above even.")
        sig = nm[nm.significant & (nm.win_rate > 0.5)].sort_values("win_rate", ascending=False)
        n_pairs = len({frozenset((int(r.hero_idx), int(r.opponent_idx))) for r in nm.itertuples()})
        if sig.empty:
            out.append(f"No matchup is off 50% beyond noise ({n_pairs} matchups).")
        else:
            out.append(f"{len(sig)} of {n_pairs} matchups are off 50% beyond noise: " + "; ".join(
                f"{r.hero} over {r.opponent} {fmt_rate(r.win_rate, (r.ci_low, r.ci_high))}"
                for r in sig.itertuples()) + ".")
    fp = first_player_table(run).iloc[-1]
    if fp.games:
        edge = fp.edge_pp
        d = ci_decimals(fp.ci_low, fp.ci_high)
        iv = f"[{100 * fp.ci_low - 50:+.{d}f}, {100 * fp.ci_high - 50:+.{d}f}]"
        fpr = fmt_rate(fp.first_player_win_rate, (fp.ci_low, fp.ci_high))
        if fp.significant:
            who = "the first player" if edge > 0 else "the second player"
            out.append(f"Turn order matters: the first player scores {fpr} over all {int(fp.games):,} "
                       f"games, an edge of {edge_text(fp.first_player_win_rate, fp.ci_low, fp.ci_high)} points {iv} "
                       f"for {who}.")
        else:
            out.append(f"No measurable first-player edge: the first player scores {fpr} "
                       f"({edge_text(fp.first_player_win_rate, fp.ci_low, fp.ci_high)} points {iv}).")
    total = sum(_n(r) for r in run.records.values())
    tout = sum(_timeouts(r) for r in run.records.values())
    cap = run.rules.get("turn_cap", "the cap") if isinstance(run.rules, dict) else "the cap"
    if tout:
        out.append(f"{tout:,} of {total:,} games ({100 * tout / total:.2f}%) hit the turn cap of {cap} "
                   f"and were counted as draws.")
    else:
        out.append(f"No game reached the turn cap of {cap}.")
    return out


TABLES = ("matchups", "heroes", "first_player", "lengths", "abilities")


# ---------------------------------------------------------------- one matchup (``playtest duel play``)
def play_matchup(setup, a: int, b: int, strategy: str, vs_strategy: str, games: int, seed: int,
                 swap: bool = True, engine: str = "kernel", execution=None, progress=False,
                 ci_width: float | None = None, max_games: int | None = None):
    """Hero ``a`` (``strategy``) against hero ``b`` (``vs_strategy``), ``games`` games from
    stream (seed, 0..games-1), and with ``swap`` the same seeds again with seats swapped
    (each hero keeps its strategy), on the shared chunked path (``analysis.runs.run``):
    every chunk is reduced to an exact aggregate where it is played, so memory does not
    grow with ``games``. Returns ``([(seat of a, Aggregate), ...], RunResult)``."""
    from simcore.duel.model import load_rules

    from .runs import run

    plan = [((a, b), (strategy, vs_strategy))]
    if swap:
        plan.append(((b, a), (vs_strategy, strategy)))
    res = run("duel", setup, [h.key for h in setup.heroes], plan, games, seed, dict(setup.rules), load_rules(),
              engine=engine, progress=progress, execution=execution, ci_width=ci_width, max_games=max_games)
    return [(seat, m.records) for seat, m in zip((0, 1), res.matchups)], res


def play_figures(runs) -> dict:
    """The figures of ``playtest duel play`` from ``[(seat of hero a, records or
    Aggregate), ...]``: games, a's wins and draws, the first player's score (wins + half
    the draws), timeouts, and the mean and median player-turns of every game (the
    median from the exact histogram of lengths)."""
    from .aggregate import hist_median

    n = wins = draws = timeouts = 0
    first_score = 0.0
    hists = []
    for seat_of_a, r in runs:
        w, d, _ = _score(r, seat_of_a)
        fw, fd, _ = _first_player([r])
        n += _n(r)
        wins += w
        draws += d
        first_score += float(fw + 0.5 * fd)
        timeouts += _timeouts(r)
        hists.append(r)
    h = _turn_hist(hists)
    total = int((np.arange(h.size, dtype=np.int64) * h).sum())
    return {"games": n, "wins": wins, "draws": draws, "first_score": first_score, "timeouts": timeouts,
            "mean_turns": total / n, "median_turns": hist_median(h)}


def all_tables(run, setup=None) -> dict[str, pd.DataFrame]:
    m = matchup_table(run)
    return {"matchups": m, "heroes": hero_table(run, m), "first_player": first_player_table(run),
            "lengths": length_table(run), "abilities": ability_table(run, setup)}


def write_results(run, out_dir, setup=None, tables: dict | None = None) -> list[Path]:
    """Write every table as CSV + Parquet (``matchups``, ``heroes``, ``first_player``,
    ``lengths``, ``abilities``), ``matrix.json`` (see :func:`matrix_json`) and the
    ``run.json`` sidecar (seed, games, strategy, rule options, package version,
    definitions, balance summary). Returns the written paths."""
    import json

    tables = all_tables(run, setup) if tables is None else tables
    meta = run_meta(run)
    meta["summary"] = balance_summary(run, tables["matchups"], tables["heroes"])
    paths = write_tables(out_dir, tables, meta)
    mj = ensure_dir(out_dir) / "matrix.json"
    mj.write_text(json.dumps(matrix_json(run, tables["matchups"]), indent=2) + "\n")
    return paths + [mj]


def skill_table(runs: dict) -> pd.DataFrame:
    """Hero win rates against the field under several strategies (``{name: MatchupRun}``):
    does a hero's strength depend on how well it is played? One row per (strategy, hero):
    the rate, its interval, ``games`` (the n it rests on: the hero's non-mirror games) and
    ``timeouts`` (the capped games among them, inside the rate as draws, i.e. half a win);
    ``tournament_games`` / ``tournament_timeouts``: every game of that strategy's run
    (mirrors included) and how many reached the turn cap."""
    cols = ["strategy", "hero", "win_rate", "ci_low", "ci_high", "edge_pp", "significant",
            "games", "timeouts", "games_per_seating", "tournament_games", "tournament_timeouts"]
    frames = []
    for name, run in runs.items():
        ht = hero_table(run)
        if ht.empty:
            continue
        frames.append(ht[["hero", "win_rate", "ci_low", "ci_high", "games", "timeouts", "edge_pp",
                          "significant"]]
                      .assign(strategy=name, games_per_seating=run.games,
                              tournament_games=sum(_n(r) for r in run.records.values()),
                              tournament_timeouts=sum(_timeouts(r) for r in run.records.values())))
    if not frames:
        return pd.DataFrame(columns=cols)
    return pd.concat(frames, ignore_index=True)[cols]


def run_matchups_flat(setup, strategy: str, games: int, seed: int, execution=None,
                      progress=False, engine: str = "kernel", ci_width: float | None = None,
                      max_games: int | None = None):
    """``run_matchups`` on the shared chunked path (``analysis.runs.run``): each chunk is
    reduced to an exact aggregate where it is played, so memory stays flat in ``games``;
    ``execution`` (``analysis.execution.Execution``) picks the backend, the store, records
    and resume. Returns ``(MatchupRun whose records are aggregates, the shared RunResult)``;
    the tables equal those of ``run_matchups`` (``tests/test_duel_aggregate.py``)."""
    from simcore.duel.model import MatchupRun, load_rules, tournament_pairs
    from simcore.game import get_game

    from .runs import run

    name = get_game("duel").check_strategy(strategy)
    pairs = tournament_pairs(len(setup.heroes), bool(setup.rules["mirror_matches"]))
    plan = [((a, b), (name, name)) for a, b in pairs]
    res = run("duel", setup, [h.key for h in setup.heroes], plan, games, seed, dict(setup.rules), load_rules(),
              engine=engine, progress=progress, execution=execution, ci_width=ci_width, max_games=max_games)
    records = {m.lineup: m.records for m in res.matchups}
    mr = MatchupRun([h.name for h in setup.heroes], pairs, records, games, seed, name, dict(setup.rules),
                    [h.key for h in setup.heroes], engine, setup)
    return mr, res
