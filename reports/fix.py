"""The "Proposed fix" report section (``playtest GAME fix``): the target and the verdict of
the proof run, each edit and its cost, before/after heatmaps (hero games) or role rates,
and the diff of the data files. Usable by ``reports.game.build_game_report`` (and any
game's own report) as one of its ``extra_sections``."""
from __future__ import annotations

import html

import pandas as pd

from analysis.runs import fmt_rate

from .html import Page


def _rows_table(rows: list) -> pd.DataFrame:
    return pd.DataFrame([{"matchup": r["matchup"], "strategy": r["strategy"],
                          "win rate": fmt_rate(r["win_rate"], r["win_rate_ci"]), "games": f"{r['games']:,}"}
                         for r in rows])


def _stage_lines(fix_doc: dict) -> list:
    """One line per stage when a proof that missed started another search."""
    stages = fix_doc.get("stages", [])
    if len(stages) < 2:
        return []
    out = []
    for st in stages:
        pr = st["proof"]
        out.append(f"Stage {st['stage']} (from {st['start']}): common seed {st['search']['seed']}, aiming "
                   f"{st['margin_points']:g} points inside; {st['search']['games']:,} games in "
                   f"{st['search']['seconds']:.0f} s; {len(st['edits'])} edit(s), cost {st['cost']:.3f}; its proof "
                   f"on seed {pr['seed']} " + ("meets the target." if pr["meets_band"] else
                                               f"misses by {pr['miss_intervals_points']:.2f} points."))
    return out


def fix_section(fix_doc: dict, before_doc: dict | None = None, after_doc: dict | None = None):
    """``section(page)`` for a fix document (``scripts/fix_cli.run_fix``); ``before_doc``
    and ``after_doc`` are result documents (``analysis.runs.result_json``) of the
    baseline and of the proof run, for the heatmaps."""

    def section(page: Page) -> None:
        from simcore.game import game_type

        from .game import heatmap_figure

        gt = game_type(fix_doc["game"])
        t = fix_doc["target"]
        mode = fix_doc.get("mode")       # a team or free-for-all mode (its rows are not matchups)
        rows = ("every hero's share of 1st places" if str(mode).startswith("ffa") else
                "every team's score in every composition" if mode else "every matchup's win rate")
        what = (f"{rows} inside {t['band'][0]:g}–{t['band'][1]:g}%" if t["band"] else
                f"a spread of at most {t['spread']:g} points between the strongest and the weakest hero")
        per = "table (spread over its seatings)" if mode else "matchup and seat order"
        page.heading(f"Proposed fix in {mode}" if mode else "Proposed fix")
        p, s = fix_doc["proof"], fix_doc["search"]
        verdict = ("Meets the target: every interval of the proof run lies inside it." if fix_doc["meets_band"] else
                   f"Does not meet the target: the worst interval of the proof run lies "
                   f"{fix_doc['miss']['intervals_points']:.2f} points outside (its point estimate "
                   f"{fix_doc['miss']['point_estimates_points']:.2f} points).")
        page.bullets([
            f"Target: {what}, under {', '.join(fix_doc['strategies'])} (self-play).",
            verdict,
            f"Proof: a fresh seed ({p['seed']}), {p['games']:,} games, {p['games_per_seat_order']:,} per {per}; "
            f"largest 95% half-width {p['half_width_max_points']:.2f} points"
            + (f"; {fix_doc['capped_games']:,} games ended by a cap, left out of every rate." if "capped_games" in fix_doc
               else "."),
            f"Search: {s['distinct_candidates']} distinct candidates, {s['games']:,} games in {s['seconds']:.0f} s, "
            f"common seed {s['seed']}; {s['optimiser']}; stopped: {s['stopped_by']}.",
            f"Baseline (the current files) misses by {fix_doc['baseline']['miss_points']:.1f} points "
            f"(search seed, screening games).",
        ] + _stage_lines(fix_doc), cls="summary")
        if fix_doc["edits"]:
            page.table(pd.DataFrame([{"number": e["name"], "from": e["from"], "to": e["to"],
                                      "cost": f"{e['cost']:.3f}"} for e in fix_doc["edits"]]),
                       caption=f"Each edit and its cost ({fix_doc['cost_mode']}); total {fix_doc['cost']:.3f}.")
        else:
            page.paragraph("No edit proposed: the current values are the best candidate found.")
        if gt.entrants == "heroes" and before_doc is not None and after_doc is not None:
            page.figure(heatmap_figure(before_doc), "fix_before",
                        caption="Before: the current files on the search's seed (screening games).")
            page.figure(heatmap_figure(after_doc), "fix_after",
                        caption="After: the proposal, proof run on a fresh seed.")
        page.table(_rows_table(fix_doc["baseline"]["rows"]), caption="Before (search seed).")
        page.table(_rows_table(p["rows"]), caption="After (proof run, fresh seed).")
        if fix_doc.get("diff"):
            page.raw("<details open><summary>Diff of the data files</summary><pre>"
                     + html.escape(fix_doc["diff"]) + "</pre></details>")

    return section
