"""What the playground page draws, computed from a run's records (``analysis.runs.RunResult``)
and, for an edited run, the paired comparison with its baseline.

Cells. Hero games: a cell is (row entrant, column entrant), an entrant being a hero (and
its strategy when several play), both seat orders pooled: every game of matchup (A, B)
counts for A's row from seat 1 and for B's row from seat 2. Other games: a cell is
(matchup, seat). Each game gives the row a score: win 1, draw 1/2, loss 0; a game ended
by a cap gives none (it is counted apart, never as a win or a loss).

Paired comparison (common random numbers). The edited run replays the baseline's games
on the same seeds, so game ``i`` of a cell is the same dice in both; the change of a
cell is the mean of the per-game differences over the games that ended by the rules in
both runs, with a 95% interval from their standard deviation (a paired t interval: much
narrower than comparing two independent rates). "Beyond noise" = the interval excludes 0.
"""
from __future__ import annotations

import math

import numpy as np

from analysis.metrics import rate
from analysis.runs import result_json

Z = 1.959963984540054


def _scores(rec: dict, seat: int, seats: int, cooperative: bool) -> np.ndarray:
    w = np.asarray(rec["winner"])
    capped = np.asarray(rec["capped"], bool)
    if cooperative:
        s = (w == 0).astype(float)
    else:
        s = np.where(w == seat, 1.0, np.where(w < 0, 1.0 / seats, 0.0))
    s[capped] = np.nan
    return s


def cells(res, titles: dict) -> tuple[list, list, dict]:
    """(row labels, column labels, {(row, col): (scores, row moved first)}) in a fixed order.
    A mirror's cell (row = column) holds each game twice, once from each seat; its games
    once each, at the entrant's one-half score (nan: ended by a cap), are under the key
    ``(row, None)`` (read by ``run_view`` for the entrants' rates)."""
    from simcore.game import game_type

    gt = game_type(res.game)
    out: dict = {}
    rows: list = []
    cols: list = []
    multi = len({s for m in res.matchups for s in m.strategies}) > 1

    def add(r, c, s, first):
        if r not in rows:
            rows.append(r)
        if c not in cols:
            cols.append(c)
        acc = out.setdefault((r, c), ([], []))
        acc[0].append(s)
        acc[1].append(first)

    for m in res.matchups:
        rec = m.records
        first = np.asarray(rec["first"])
        if gt.entrants == "heroes":
            labels = [titles.get(res.entrant_names[e], res.entrant_names[e]) + (f" ({st})" if multi else "")
                      for e, st in zip(m.lineup, m.strategies)]
            for seat in range(res.seats):
                other = labels[1 - seat]
                add(labels[seat], other, _scores(rec, seat, res.seats, res.cooperative), first == seat)
            if labels[0] == labels[1]:
                once = np.where(np.asarray(rec["capped"], bool), np.nan, 0.5)
                acc = out.setdefault((labels[0], None), ([], []))
                acc[0].append(once)
                acc[1].append(first == 0)
        else:
            label = " / ".join(m.strategies) if len(set(m.strategies)) > 1 else f"{m.strategies[0]}"
            if res.cooperative:
                add(label, "team", _scores(rec, 0, res.seats, True), first == 0)
            else:
                for seat in range(res.seats):
                    add(label, gt.seat_label(seat), _scores(rec, seat, res.seats, False), first == seat)
    if gt.entrants == "heroes":  # square, rows in the same order as the columns
        cols = list(rows)
    return rows, cols, {k: (np.concatenate(v[0]), np.concatenate(v[1])) for k, v in out.items()}


def cell_stats(s: np.ndarray, first: np.ndarray) -> dict:
    done = ~np.isnan(s)
    n = int(done.sum())
    wins = int(np.count_nonzero(s[done] == 1.0))
    losses = int(np.count_nonzero(s[done] == 0.0))
    r = rate(float(np.nansum(s)), n)
    out = {"x": r["x"], "ci": r["x_ci"], "n": n, "wins": wins, "draws": n - wins - losses, "losses": losses,
           "capped": int((~done).sum())}
    for name, mask in (("first", first & done), ("second", ~first & done)):
        k = int(mask.sum())
        out[f"x_{name}"] = float(s[mask].mean()) if k else None
        out[f"n_{name}"] = k
    return out


def paired(new: np.ndarray, base: np.ndarray) -> dict:
    both = ~np.isnan(new) & ~np.isnan(base)
    d = new[both] - base[both]
    n = int(d.size)
    if n == 0:
        return {"delta": None, "ci": None, "n": 0, "beyond": False, "changed_games": 0}
    m = float(d.mean())
    se = float(d.std(ddof=1)) / math.sqrt(n) if n > 1 else 0.0
    lo, hi = m - Z * se, m + Z * se
    beyond = bool((lo > 0 or hi < 0) if se > 0 else m != 0)
    return {"delta": m, "ci": [lo, hi], "n": n, "beyond": beyond, "changed_games": int(np.count_nonzero(d))}


def histogram(res) -> dict:
    """Games by length (turns), from the run's pooled turn histogram; the axis stops at the
    99.5th percentile (``last_is_more``: the last bar also holds the longer games)."""
    pooled = res.pooled()
    h = np.asarray(pooled.turns, np.int64)
    capped = int(pooled.capped)
    total = int(h.sum())
    if total == 0:
        return {"x": [], "y": [], "capped": capped}
    cum = np.cumsum(h)
    hi = int(np.searchsorted(cum, 0.995 * total))
    lo = int(np.nonzero(h)[0][0])
    counts = np.concatenate([h[:hi + 1], [h[hi + 1:].sum()]])
    return {"x": list(range(lo, hi + 2)), "y": counts[lo:hi + 2].tolist(), "capped": capped,
            "last_is_more": bool(counts[hi + 1] > 0)}


def quick_doc(res, command: str) -> dict:
    """The shared result document without its ratings: their bootstrap takes seconds, so
    the service adds them after the page has its heatmap (``ratings_pending``)."""
    import copy

    quick = copy.copy(res)
    quick.ratings_table = lambda reps=200: []
    doc = result_json(quick, command)
    doc["ratings_pending"] = not res.cooperative
    return doc


def run_view(p, new, base, command: str) -> dict:
    """Everything the page draws for one run (and its comparison with the baseline)."""
    titles = {}
    if p.gt.entrants == "heroes":
        titles = dict(zip(p.api.entrant_names(p.content), p.api.entrant_titles(p.content)))
    doc = quick_doc(new, command)
    rows, cols, cm = cells(new, titles)
    grid = [[cell_stats(*cm[(r, c)]) if (r, c) in cm else None for c in cols] for r in rows]
    entrants = []
    for r in rows:
        # each game once, as the shared entrant_rows: a mirror's games at one half
        parts = [cm[(r, c)] if c != r else cm[(r, None)] for c in cols if (r, c) in cm]
        s = np.concatenate([p[0] for p in parts])
        f = np.concatenate([p[1] for p in parts])
        entrants.append({"label": r, **cell_stats(s, f)})
    view = {"game": p.game, "title": p.gt.title, "kind": p.gt.kind, "entrants_kind": p.gt.entrants,
            "rows": rows, "cols": cols, "grid": grid, "entrant_rates": entrants,
            "games_per_matchup": p.games, "matchups": len(p.plan), "seed": p.seed, "strategies": p.strategies,
            "edits": p.edits, "command": command, "doc": doc, "histogram": histogram(new),
            "row_axis": "hero" if p.gt.entrants == "heroes" else "matchup (strategies)",
            "col_axis": "opponent" if p.gt.entrants == "heroes" else ("role" if p.gt.roles else "seat"),
            "compare": None}
    if base is not None:
        brows, bcols, bm = cells(base, titles)
        bdoc = quick_doc(base, command)
        cgrid = [[paired(cm[(r, c)][0], bm[(r, c)][0]) if (r, c) in cm and (r, c) in bm else None for c in cols]
                 for r in rows]
        cent = []
        for r in rows:
            keys = [(r, c) if c != r else (r, None) for c in cols if (r, c) in cm and (r, c) in bm]
            if not keys:
                cent.append(None)
                continue
            cent.append({"label": r, **paired(np.concatenate([cm[k][0] for k in keys]),
                                             np.concatenate([bm[k][0] for k in keys])),
                         "base": cell_stats(np.concatenate([bm[k][0] for k in keys]),
                                            np.concatenate([bm[k][1] for k in keys]))})
        view["compare"] = {"grid": cgrid, "entrants": cent, "base_metrics": bdoc["metrics"],
                           "base_histogram": histogram(base),
                           "base_grid": [[cell_stats(*bm[(r, c)]) if (r, c) in bm else None for c in cols]
                                         for r in rows]}
    return view
