"""The Regicide designer report: simulate a study (every player count x strategies), write
tables (CSV + Parquet + JSON sidecar) and one self-contained HTML page with PNGs."""
from __future__ import annotations

import time

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from analysis.io import write_tables
from analysis.regicide import all_tables, label
from reports.html import Page
from simcore.regicide.model import RULE_KEYS
from strategies.regicide.bind import records_frame, run_games
from strategies.regicide import get_strategy

COLORS = {"random": "#999999", "heuristic": "#1f77b4", "search": "#2ca02c", "cheat": "#d62728"}


def _color(name: str) -> str:
    return COLORS.get(name.split(" ")[0], "#9467bd")


def study_plan(games: int, search_games: int, budget: int) -> list[tuple]:
    """(players, strategy, games, params) of the default study."""
    plan = []
    for p in (1, 2, 3, 4):
        plan.append((p, "random", games, None))
        plan.append((p, "heuristic", games, None))
    plan.append((1, "search", search_games, str(budget)))
    for p in (2, 3, 4):
        plan.append((p, "search", search_games, str(budget)))
    plan.append((1, "cheat", max(1, search_games // 2), str(budget)))
    return plan


def simulate(plan, seed: int, jobs: int, rules: dict):
    frames, timing = [], []
    for players, strat_name, n, params in plan:
        strat = get_strategy(strat_name)
        t0 = time.perf_counter()
        rec = run_games(players, strat_name, n, seed=seed, rules=rules, params=params, jobs=jobs,
                        progress=f"regicide {strat_name} {players}p")
        dt = time.perf_counter() - t0
        frames.append(records_frame(rec, label(strat.name, strat.perfect_information)))
        timing.append({"strategy": label(strat.name, strat.perfect_information), "players": players,
                       "games": n, "params": params or "", "seconds": dt, "games_per_s": n / dt})
    return pd.concat(frames, ignore_index=True), pd.DataFrame(timing)


def fig_win_rates(wr: pd.DataFrame):
    fig, ax = plt.subplots(figsize=(8, 4))
    strategies = list(dict.fromkeys(wr["strategy"]))
    width = 0.8 / len(strategies)
    for i, s in enumerate(strategies):
        part = wr[wr["strategy"] == s]
        x = part["players"].to_numpy() + (i - (len(strategies) - 1) / 2) * width
        y = part["win_rate"].to_numpy()
        err = np.clip(np.vstack([y - part["win_ci_low"].to_numpy(), part["win_ci_high"].to_numpy() - y]), 0, None)
        ax.bar(x, y, width, yerr=err, capsize=3, label=s, color=_color(s))
    ax.set_xticks([1, 2, 3, 4])
    ax.set_xlabel("players")
    ax.set_ylabel("win rate (Wilson 95% interval)")
    ax.set_ylim(0, 1)
    ax.legend(fontsize=8)
    ax.set_title("Regicide win rate by player count and strategy")
    return fig


def fig_progress(pr: pd.DataFrame):
    fig, axes = plt.subplots(1, 4, figsize=(13, 3.6), sharey=True)
    for p, ax in zip((1, 2, 3, 4), axes):
        part = pr[pr["players"] == p]
        for s in dict.fromkeys(part["strategy"]):
            q = part[part["strategy"] == s]
            k = q["enemies_defeated"].to_numpy()
            ax.plot(k, q["alive_rate"], marker=".", label=s, color=_color(s))
            ax.fill_between(k, q["alive_ci_low"], q["alive_ci_high"], alpha=0.2, color=_color(s))
        ax.axvspan(4, 8, color="#eeeeee", zorder=0)
        ax.set_title(f"{p} player{'s' if p > 1 else ''}")
        ax.set_xlabel("enemies defeated")
        ax.set_xticks(range(0, 13, 2))
    axes[0].set_ylabel("share of games still alive")
    axes[0].legend(fontsize=7)
    fig.suptitle("Progress: Jacks 1-4, Queens 5-8 (shaded), Kings 9-12", fontsize=10)
    fig.tight_layout()
    return fig


def fig_lengths(df: pd.DataFrame):
    fig, axes = plt.subplots(1, 4, figsize=(13, 3.4), sharey=False)
    for p, ax in zip((1, 2, 3, 4), axes):
        part = df[df["players"] == p]
        hi = int(np.percentile(part["turns"], 99.5)) + 2
        bins = np.arange(0, hi + 2)
        for s in dict.fromkeys(part["strategy"]):
            t = part.loc[part["strategy"] == s, "turns"]
            ax.hist(t, bins=bins, density=True, histtype="step", label=s, color=_color(s))
        ax.set_title(f"{p} player{'s' if p > 1 else ''}")
        ax.set_xlabel("turns per game")
    axes[0].set_ylabel("share of games")
    axes[0].legend(fontsize=7)
    return fig


def fig_end_enemy(ee: pd.DataFrame):
    solo = ee[(ee["players"] == 1)]
    fig, ax = plt.subplots(figsize=(8, 3.4))
    for s in dict.fromkeys(solo["strategy"]):
        q = solo[solo["strategy"] == s].groupby("castle_position")["losses"].sum()
        tot = q.sum()
        ax.plot(q.index, q.to_numpy() / tot, marker="o", label=s, color=_color(s))
    ax.set_xticks(range(1, 13))
    ax.set_xlabel("castle position of the enemy that ended the run (1-4 Jacks, 5-8 Queens, 9-12 Kings)")
    ax.set_ylabel("share of lost games")
    ax.set_title("Solo: where runs end")
    ax.legend(fontsize=8)
    return fig


def build_report(out, games: int = 20000, search_games: int = 100, budget: int = 16, seed: int = 0,
                 jobs: int = 1, rules: dict | None = None):
    from simcore.regicide.model import load_rules

    rules = rules if rules is not None else load_rules()
    t0 = time.perf_counter()
    plan = study_plan(games, search_games, budget)
    df, timing = simulate(plan, seed, jobs, rules)
    tables = all_tables(df)
    tables["timing"] = timing
    meta = {"game": "regicide", "seed": seed, "plan": [list(map(str, p)) for p in plan], "budget": budget,
            "rules": rules, "jobs": jobs}
    write_tables(out, tables, meta, stem="regicide_")
    write_tables(out, {"games": df}, meta, stem="regicide_records_")

    page = Page("Regicide: win rates, progress and game length", out)
    wr = tables["win_rates"]
    page.paragraph(
        f"Seed {seed}; random and heuristic: {games:,} games per player count; search "
        f"(determinized Monte Carlo, {budget} rollouts per candidate move): {search_games} games per player "
        f"count; cheat (the same search with perfect information "
        f"- a ceiling, not a fair player): {max(1, search_games // 2)} solo games. "
        "Every rate is shown with its Wilson 95% interval and sample size.", cls="summary")
    solo = wr[wr["players"] == 1]
    page.bullets([f"{r.strategy}, solo: win rate {r.win_rate:.3f} (95% CI {r.win_ci_low:.3f}-{r.win_ci_high:.3f}, "
                  f"n={r.games}), {r.mean_defeated:.2f} enemies defeated on average" for r in solo.itertuples()])

    page.heading("Win rate by player count and strategy")
    page.figure(fig_win_rates(wr), "regicide_win_rates",
                caption="Bars: win rate; whiskers: Wilson 95% interval. 'cheat' sees the deck order.")
    page.table(wr, caption="Win rates (Wilson 95% intervals), mean enemies defeated and mean turns")

    page.heading("How far parties get")
    page.figure(fig_progress(tables["progress"]), "regicide_progress",
                caption="Share of games still alive after each enemy (k = 12 is the win rate); bands: Wilson 95%.")
    page.figure(fig_end_enemy(tables["end_enemy"]), "regicide_end_enemy",
                caption="Solo: which castle position ends the lost runs.")
    rs = tables["end_by_rank_suit"]
    if len(rs):
        piv = rs.pivot_table(index=["strategy", "players", "rank"], columns="suit", values="share_rate",
                             aggfunc="sum").reset_index()
        page.table(piv, caption="Share of lost games ended by each enemy rank and suit")

    page.heading("Game length")
    page.figure(fig_lengths(df), "regicide_lengths", caption="Turns per game (plays, Jesters and yields).")
    page.table(tables["lengths"], caption="Turns per game")

    page.heading("Solo medals and flips; Jesters, yields, exact kills")
    page.table(tables["medals"], caption="Solo: medal (gold = no flip used) and flip use, with Wilson 95% intervals")
    page.table(tables["jesters"], caption="Jester use (3-4 players), yields and exact kills per game")
    page.table(tables["end_reasons"], caption="How games end")

    page.heading("Run")
    page.table(timing, caption="Simulation time per batch")
    page.paragraph("Rule options: " + ", ".join(f"{k}={str(rules[k]).lower()}" for k in RULE_KEYS), cls="meta")
    page.paragraph(f"Total time {time.perf_counter() - t0:.1f} s; tables: regicide_*.csv/.parquet with "
                   "regicide_run.json (seed, games, strategies, rule options, version).", cls="meta")
    return page.write("regicide_report.html")
