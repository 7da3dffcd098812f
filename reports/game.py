"""The designer report every registered game gets, and the sections every game's report
shares (balance metrics, ratings, seat or role balance, game length), all from one
``analysis.runs.RunResult`` and its result document (``analysis.runs.result_json``).

A game adds its own sections through ``reports/sections.py`` (found by the game's name: a
list of ``section(page)`` callables); everything else is written once, here.
"""
from __future__ import annotations

import html

import numpy as np
import pandas as pd

from analysis.metrics import __doc__ as METRICS_DOC
from analysis.metrics import rate
from analysis.runs import fmt_rate
from simcore import __version__
from simcore.game import game_type

from .html import Page, plt

METRIC_TITLES = {
    "balance": "Balance (spread of win rates)",
    "advantage_p1": "First-mover score",
    "drawishness": "Draws",
    "completion": "Games ended by a cap",
    "duration": "Duration (turns)",
    "decisiveness": "Decided at (share of the game)",
    "lead_change": "Lead changes per game",
    "drama": "Drama (winner's mean deficit)",
}


def _ci(ci, pct=True) -> str:
    if ci is None:
        return "–"
    return f"{100 * ci[0]:.1f} – {100 * ci[1]:.1f}" if pct else f"{ci[0]:.2f} – {ci[1]:.2f}"


def metrics_table(doc: dict) -> pd.DataFrame:
    rows = []
    for k, v in doc["metrics"].items():
        pct = k not in ("duration", "lead_change", "drama")
        if v.get("x") is None:
            val, ci = "n/a", v.get("note", "")
        elif pct:
            val, ci = f"{100 * v['x']:.1f}%", _ci(v["x_ci"])
        else:
            val, ci = f"{v['x']:.2f}", _ci(v["x_ci"], pct=False)
        extra = ""
        if k == "duration" and v.get("x") is not None:
            extra = f"median {v['median']:.0f}, 5th–95th percentile {v['p5']:.0f}–{v['p95']:.0f}"
        if k == "completion" and v.get("x") is not None:
            extra = f"{v['capped_games']:,} games"
        rows.append({"metric": METRIC_TITLES.get(k, k), "value": val, "95% interval": ci,
                     "games": f"{v.get('n', 0):,}", "note": extra})
    return pd.DataFrame(rows)


def metrics_section(doc: dict):
    def section(page: Page) -> None:
        page.heading("Balance metrics")
        page.paragraph("Every figure with its 95% interval and the games it rests on. Games ended by a cap are "
                       "counted in their own row and never as wins or losses.")
        page.table(metrics_table(doc))
        defs = [line.strip() for line in METRICS_DOC.split("\n") if line.startswith("``")]
        page.raw("<details><summary>Definitions</summary><pre>" + html.escape(
            METRICS_DOC.split("``balance``", 1)[1].split("The last three", 1)[0]).replace("``", "")
            + "</pre></details>" if defs else "")
    return section


def ratings_section(doc: dict):
    def section(page: Page) -> None:
        page.heading("Ratings")
        if not doc["ratings"]:
            page.paragraph("Not defined here (a cooperative game, or a single entrant).")
            return
        page.paragraph("Bradley-Terry strengths of every (entrant / strategy) that played, on an Elo-like scale "
                       "(400 points = 10:1 odds; mean 1500), with 95% bootstrap intervals. Draws count half. A "
                       "model fitted on pairwise results, not a win rate: 'games' counts those results (two "
                       "different entrants in one game; a mirror never counts; with more than two seats, only "
                       "the pairs where one of the two won or nobody did), so it differs from the games behind "
                       "the win rates above, which are the strength measured against named opponents.")
        page.table(pd.DataFrame([{"rank": i + 1, "entrant / strategy": r["entrant"], "rating": f"{r['rating']:.0f}",
                                  "95% interval": f"{r['rating_ci'][0]:.0f} – {r['rating_ci'][1]:.0f}",
                                  "games": f"{r['games']:,}"} for i, r in enumerate(doc["ratings"])]))
    return section


def seat_figure(gt, rates, cis):
    """Each seat's (role's) win rate as a dot with its interval, on an axis zoomed to the
    data, with the even share marked."""
    n = len(rates)
    fig, ax = plt.subplots(figsize=(6.5, 0.5 + 0.45 * n))
    labels = [gt.seat_label(s) for s in range(n)]
    y = 100 * np.array(rates, float)
    lo = 100 * np.array([c[0] for c in cis])
    hi = 100 * np.array([c[1] for c in cis])
    pos = np.arange(n)
    ax.errorbar(y, pos, xerr=[y - lo, hi - y], fmt="o", color="#4c78a8", ecolor="black", capsize=3)
    fair = 100.0 / n
    ax.axvline(fair, color="#888", ls="--", lw=1)
    span = max(2.0, float(np.max(np.abs(np.r_[lo, hi] - fair))) * 1.25)
    ax.set_xlim(fair - span, fair + span)
    ax.set_yticks(pos, labels)
    ax.set_ylim(n - 0.5, -0.5)
    ax.set_xlabel(f"win rate, % (95% interval; dashed: an even share, {fair:.1f}%)")
    return fig


def pooled_scores(doc: dict) -> dict:
    """Hero games: ``{(row, column): [score, games]}``, the row entrant's score (win 1, draw
    1/2) against the column entrant over both seat orders, games ended by a cap left out
    (entrant = hero and strategy)."""
    acc: dict = {}
    for m in doc["matchups"]:
        a, b = m["seats"]
        ka, kb = f"{a['entrant']} ({a['strategy']})", f"{b['entrant']} ({b['strategy']})"
        done = m["games"] - m["capped"]
        for me, other, wins in ((ka, kb, m["wins"][0]), (kb, ka, m["wins"][1])):
            c = acc.setdefault((me, other), [0.0, 0])
            c[0] += wins + 0.5 * m["draws"]
            c[1] += done
    return acc


def pooled_table(doc: dict) -> pd.DataFrame:
    """The heatmap's cells with their intervals: each pair of different entrants once, the
    first (in the table's order) as the row; a mirror is one half by construction and left
    out. A game of one seat order and a game of the other are different games (the seeds
    deal each seat its own dice), so the Wilson interval counts each game once."""
    acc = pooled_scores(doc)
    names = list(dict.fromkeys(k for k, _ in acc))
    rows = []
    for i, me in enumerate(names):
        for other in names[i + 1:]:
            if (me, other) in acc:
                k, n = acc[(me, other)]
                r = rate(k, n)
                rows.append({"row": me, "column": other, "games (both seat orders, capped left out)": f"{n:,}",
                             "row's score": fmt_rate(r["x"], r["x_ci"], n) if n else "n/a"})
    return pd.DataFrame(rows)


def heatmap_figure(doc: dict):
    """Hero games: the row entrant's score against the column entrant, both seat orders
    pooled (entrant = hero and strategy): ``pooled_scores``."""
    acc = pooled_scores(doc)
    names = list(dict.fromkeys(k for k, _ in acc))
    grid = np.full((len(names), len(names)), np.nan)
    for (me, other), (k, n) in acc.items():
        if n:
            grid[names.index(me), names.index(other)] = 100 * k / n
    size = 1.2 + 0.55 * len(names)
    fig, ax = plt.subplots(figsize=(size + 2, size))
    im = ax.imshow(grid, cmap="RdBu", vmin=0, vmax=100)
    ax.set_xticks(range(len(names)), names, rotation=45, ha="right")
    ax.set_yticks(range(len(names)), names)
    if len(names) <= 12:
        for i in range(len(names)):
            for j in range(len(names)):
                if not np.isnan(grid[i, j]):
                    ax.text(j, i, f"{grid[i, j]:.0f}", ha="center", va="center", fontsize=8,
                            color="white" if abs(grid[i, j] - 50) > 30 else "black")
    fig.colorbar(im, ax=ax, label="row's score, % (win 1, draw 1/2)")
    return fig


def length_figure(hist, capped: int):
    """Games by length from the run's turn histogram (``hist[t]`` = games of ``t`` turns).
    The axis stops at the 99.5th percentile, so a few very long or capped games do not
    squeeze the rest; the caption counts what is cut."""
    h = np.asarray(hist, float)
    cum = np.cumsum(h)
    hi = int(np.searchsorted(cum, 0.995 * cum[-1])) + 1 if cum[-1] else 1
    fig, ax = plt.subplots(figsize=(6.5, 2.6))
    t = np.arange(h.size)
    if hi <= 80:
        ax.bar(t[:hi + 1], h[:hi + 1], width=1.0, color="#4c78a8")
    else:
        edges = np.linspace(0, hi + 1, 61)
        ax.hist(t[:hi + 1], bins=edges, weights=h[:hi + 1], color="#4c78a8")
    ax.set_xlim(-0.5, hi + 0.5)
    cut = int(h[hi + 1:].sum())
    ax.set_xlabel("turns" + (f" (axis cut at {hi}: {cut:,} longer games not drawn" if cut else "")
                  + (f"; {capped:,} games ended by a cap" if capped else "") + (")" if cut else ""))
    ax.set_ylabel("games")
    return fig


def matchup_table(doc: dict) -> pd.DataFrame:
    """One row per matchup: its games, draws and capped games, and the win rate of seat 1
    (two seats) or of every seat (more: each seat's strategy may differ, so seat 1's rate
    alone would hide the others'); each rate over the games not ended by a cap, draws as an
    even share, with its interval and n."""
    rows = []
    for m in doc["matchups"]:
        seats = len(m["seats"])
        row = {f"{'role' if game_type(doc['game']).roles else 'seat'} {i + 1}": f"{s['entrant']} ({s['strategy']})"
               for i, s in enumerate(m["seats"])}
        done = m["games"] - m["capped"]
        row["games"] = f"{m['games']:,}"
        if seats == 2:
            # the rate's own n: the games not ended by a cap
            row["seat 1 win rate"] = fmt_rate(m["win_rate"], m["win_rate_ci"], done)
        else:
            for i in range(seats):
                r = rate(m["wins"][i] + m["draws"] / seats, done)
                row[f"seat {i + 1} wins"] = fmt_rate(r["x"], r["x_ci"], done) if done else "n/a"
        row.update({"draws": f"{m['draws']:,}", "capped": f"{m['capped']:,}"})
        if "reached_ci_width" in m:
            row["reached --ci-width"] = "yes" if m["reached_ci_width"] else "no"
        rows.append(row)
    return pd.DataFrame(rows)


def shared_sections(res, doc: dict) -> list:
    """Sections every game's report carries (its own report may add more)."""
    gt = game_type(res.game)
    key = "role_win_rate" if gt.roles else "seat_win_rate"

    def seats(page: Page) -> None:
        if res.cooperative:
            return
        page.heading("By role" if gt.roles else "By seat")
        page.figure(seat_figure(gt, doc[key], doc[key + "_ci"]), "seat_win_rates",
                    caption=("Win rate of each role" if gt.roles else
                             "Win rate of each seat (its place in the lineup; who moves first is the game's "
                             "rule: the first mover's score is under Balance metrics)")
                    + ", over every matchup of this run, games ended by a cap left out; draws count as an "
                      "even share.")

    def length(page: Page) -> None:
        page.heading("Game length")
        pooled = res.pooled()
        page.figure(length_figure(pooled.turns, pooled.capped), "game_lengths",
                    caption=f"Turns per game ({gt.title}'s own notion of a turn).")

    return [seats, length, metrics_section(doc), ratings_section(doc)]


def _levels_have_heatmaps(doc: dict, extra_sections) -> bool:
    """True when the game's own sections draw a heatmap per skill level (a section function
    marked ``draws = "level_heatmap"``) and every matchup of the run has one strategy in both
    seats: the shared heatmap would then repeat one of theirs cell for cell."""
    own = any(getattr(s, "draws", None) == "level_heatmap" for s in extra_sections)
    same = all(len({s["strategy"] for s in m["seats"]}) == 1 for m in doc["matchups"])
    return own and same


def build_game_report(res, doc: dict, out_dir, command: str, extra_sections=()):
    gt = game_type(res.game)
    page = Page(f"{gt.title}: balance report", out_dir)
    page.paragraph(f"{doc['games']:,} games over {len(doc['matchups'])} matchups, seed {doc['seed']}; "
                   f"playtest {__version__}.", cls="meta")
    page.heading("Summary")
    bullets = []
    key = "role_win_rate" if gt.roles else "seat_win_rate"
    if not res.cooperative:
        n_seat = res.seat_rows()[2]
        bullets.append("; ".join(f"{gt.seat_label(s)} wins {fmt_rate(x, ci, n_seat)}"
                                 for s, (x, ci) in enumerate(zip(doc[key], doc[key + "_ci"]))))
    ents = doc["entrants"]
    if ents:
        best, worst = ents[0], ents[-1]

        def who(e):
            return f"{e['entrant']} ({e['strategy']})"

        def field(e):   # the opponents it met: every other entrant it shared a matchup with
            met = sorted({f"{s['entrant']} ({s['strategy']})" for m in doc["matchups"]
                          if any(f"{t['entrant']} ({t['strategy']})" == who(e) for t in m["seats"])
                          for s in m["seats"]} - {who(e)})
            if not met:
                return "itself only"
            if len(met) > 3 and len(met) == len(ents) - 1:   # every other entrant: name the count
                return f"the field (the other {len(met)} entrants)"
            return ", ".join(met)

        bullets.append(f"strongest: {who(best)} {fmt_rate(best['win_rate'], best['win_rate_ci'], best['games'])} "
                       f"against {field(best)}; weakest: {who(worst)} "
                       f"{fmt_rate(worst['win_rate'], worst['win_rate_ci'], worst['games'])} against {field(worst)} "
                       f"(each game it played counted once, a mirror at one half; each pairing's rate is in the "
                       f"table below)")
    bullets.append(f"{doc['capped_games']:,} games ended by a cap (counted apart, never as wins or losses)")
    page.bullets(bullets, cls="summary")
    extra_sections = list(extra_sections)
    levels_first = gt.entrants == "heroes" and _levels_have_heatmaps(doc, extra_sections)
    if levels_first:
        # the game's own heatmap and tier list per skill level, and its verdict between the
        # levels, are what a designer reads first: they come before the long tables of every
        # pair and every seat order
        lead = ("level_heatmap", "level_verdict")
        for section in [s for s in extra_sections if getattr(s, "draws", None) in lead]:
            section(page)
        extra_sections = [s for s in extra_sections if getattr(s, "draws", None) not in lead]
    page.heading("Matchups")
    if gt.entrants == "heroes":
        if levels_first:
            page.paragraph("Each skill level's heatmap and tier list are in their own section above (every "
                           "matchup of this run has one strategy in both seats). The first table gives each "
                           "pair's score with its interval and n, capped games left out; the second each seat "
                           "order's rate.")
        else:
            page.figure(heatmap_figure(doc), "matchup_heatmap",
                        caption="The row entrant's score against the column entrant, both seat orders pooled on "
                                "the same seeds; each cell's interval and n are in the first table below, each seat "
                                "order's rate in the second.")
        page.table(pooled_table(doc))
    page.table(matchup_table(doc))
    for section in list(shared_sections(res, doc)) + extra_sections:
        section(page)
    page.heading("How this was made")
    page.raw(f"<p class=\"meta\">Reproduce with <code>{html.escape(command)}</code>. Rules: "
             f"{html.escape(str(doc['rules']) if doc['rules'] else 'the defaults')}.</p>")
    return page.write("report.html")
