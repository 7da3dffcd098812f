"""The Regicide designer report: simulate a study (every player count x strategies), write
tables (CSV + Parquet + JSON sidecar) and one self-contained HTML page with PNGs.

Every batch plays on the shared chunked path and is kept only as its exact aggregate
(``analysis.regicide.tables_from_aggregates``), so the report's memory does not grow with
the game counts; the per-game table (``games.csv``) of earlier versions is gone: per-game
records are kept in the results store with ``--records``."""
from __future__ import annotations

import sys
import time

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from analysis.io import write_tables
from analysis.regicide import label, tables_from_aggregates
from reports.html import Page
from simcore.regicide.model import R_STALLED, R_TURN_CAP, RULE_KEYS, SUIT_NAMES
from strategies.regicide import get_strategy

COLORS = {"random": "#999999", "heuristic": "#1f77b4", "search": "#2ca02c", "cheat": "#d62728"}


def _color(name: str) -> str:
    return COLORS.get(name.split(" ")[0], "#9467bd")


def study_plan(games: int, search_games: int, budget: int, strategies=None, players=None) -> list[tuple]:
    """(players, strategy, games, params) of the default study; ``strategies``/``players``:
    only those (``playtest report regicide --strategies ... --players ...``)."""
    plan = []
    for p in (1, 2, 3, 4):
        plan.append((p, "random", games, None))
        plan.append((p, "heuristic", games, None))
    plan.append((1, "search", search_games, str(budget)))
    for p in (2, 3, 4):
        plan.append((p, "search", search_games, str(budget)))
    plan.append((1, "cheat", max(1, search_games // 2), str(budget)))
    return [x for x in plan if (strategies is None or x[1] in strategies) and (players is None or x[0] == players)]


def simulate(plan, seed: int, jobs: int, rules: dict, execution=None):
    """Play every batch of ``plan`` on the shared chunked path (``analysis.runs.run``):
    each chunk is reduced to Regicide's exact aggregate where it is played, so memory does
    not grow with the game counts. ``execution()``: a fresh ``analysis.execution.Execution``
    per batch (default: local processes, ``jobs``, no store). Returns ``([(strategy label,
    players, Aggregate)], timing table)``."""
    from analysis.execution import Execution
    from analysis.runs import run
    from simcore.game import get_game

    api = get_game("regicide")
    defaults = api.load_rules()
    parts, timing = [], []
    for players, strat_name, n, params in plan:
        strat = get_strategy(strat_name)
        name = label(strat.name, strat.perfect_information)
        setup = api.make_setup(rules, None, players, params=params)
        ex = execution() if execution is not None else Execution(jobs=jobs)
        t0 = time.perf_counter()
        res = run("regicide", setup, [], [(tuple(range(players)), (strat_name,) * players)], n, seed, rules,
                  defaults, jobs, progress=sys.stderr.isatty(), execution=ex)
        dt = time.perf_counter() - t0
        parts.append((name, players, res.matchups[0].records))
        timing.append({"strategy": name, "players": players,
                       "games": n, "params": params or "", "seconds": dt, "games_per_s": n / dt})
    return parts, pd.DataFrame(timing)


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
    if ax.get_legend_handles_labels()[0]:   # a study filtered to some batches may leave none
        ax.legend(fontsize=8)
    ax.set_title("Regicide win rate by player count and strategy")
    return fig


def fig_progress(pr: pd.DataFrame):
    """Share of the finished games alive after each enemy; a panel's title counts the games
    of its strategies that the turn cap ended (left out)."""
    fig, axes = plt.subplots(1, 4, figsize=(13, 3.6), sharey=True)
    for p, ax in zip((1, 2, 3, 4), axes):
        part = pr[pr["players"] == p]
        capped = 0
        for s in dict.fromkeys(part["strategy"]):
            q = part[part["strategy"] == s]
            capped += int(q["capped"].iloc[0])
            k = q["enemies_defeated"].to_numpy()
            ax.plot(k, q["alive_rate"], marker=".", label=s, color=_color(s))
            ax.fill_between(k, q["alive_ci_low"], q["alive_ci_high"], alpha=0.2, color=_color(s))
        ax.axvspan(4, 8, color="#eeeeee", zorder=0)
        note = f" ({capped:,} capped, left out)" if capped else ""
        ax.set_title(f"{p} player{'s' if p > 1 else ''}{note}", fontsize=9 if capped else None)
        ax.set_xlabel("enemies defeated")
        ax.set_xticks(range(0, 13, 2))
    axes[0].set_ylabel("share of finished games still alive")
    handles, labels = [], []
    for ax in axes:  # one legend for all panels, below them, clear of the curves
        for h, lab in zip(*ax.get_legend_handles_labels()):
            if lab not in labels:
                handles.append(h)
                labels.append(lab)
    fig.suptitle("Progress: Jacks 1-4, Queens 5-8 (shaded), Kings 9-12", fontsize=10)
    fig.tight_layout(rect=(0, 0.1, 1, 1))
    fig.legend(handles, labels, loc="lower center", ncol=len(labels), fontsize=8, frameon=False)
    return fig


def fig_lengths(parts, max_turns: int):
    """Turns per game by player count, one step curve per strategy, from the exact
    histograms of lengths of ``parts`` (``[(strategy label, players, Aggregate)]``)."""
    from analysis.aggregate import hist_percentile
    from analysis.regicide import uncapped_turns

    fig, axes = plt.subplots(1, 4, figsize=(13, 3.4), sharey=False)
    for p, ax in zip((1, 2, 3, 4), axes):
        part = [(s, a) for s, pl, a in parts if pl == p]
        # the axis covers the games that ended by a rule; games cut off by the turn cap
        # (a safety net) would stretch it to max_turns, so they are counted in the title
        ok = {s: uncapped_turns(a, max_turns) for s, a in part}
        capped = sum(a.games - int(ok[s].sum()) for s, a in part)
        pooled = np.zeros(max((h.size for h in ok.values()), default=1), np.int64)
        for h in ok.values():
            pooled[:h.size] += h
        hi = int(hist_percentile(pooled, 99.5)) + 2 if pooled.sum() else 10
        bins = np.arange(0, hi + 2)
        for s, h in ok.items():
            if not h.sum():
                continue    # every game of it capped: nothing to draw (counted in the title)
            ax.hist(np.arange(h.size), bins=bins, weights=h, density=True, histtype="step", label=s,
                    color=_color(s))
        ax.set_xlim(0, hi + 1)
        note = f" ({capped:,} at the turn cap, not shown)" if capped else ""
        ax.set_title(f"{p} player{'s' if p > 1 else ''}{note}", fontsize=9)
        ax.set_xlabel("turns per game")
    axes[0].set_ylabel("share of games")
    if axes[0].get_legend_handles_labels()[0]:
        axes[0].legend(fontsize=7)
    fig.tight_layout()
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
    if ax.get_legend_handles_labels()[0]:   # a study filtered to some batches may leave none
        ax.legend(fontsize=8)
    return fig


RANK_ORDER = ("Jack", "Queen", "King")


def rank_suit_table(rs: pd.DataFrame, reasons: pd.DataFrame | None = None) -> pd.DataFrame:
    """Losses by ending enemy: one row per strategy, player count and rank (Castle order),
    one column per suit, plus the rank's total share; each cell the share of the lost games
    with its Wilson 95% interval ('18.5% [14.0, 24.0]'), their n in a column of its own.
    Beside n, the games the turn cap ended (neither won nor lost: not in n), from the
    table's own ``capped`` column or else from the end-reason table ``reasons``."""
    from analysis.runs import fmt_rate
    from analysis.stats import wilson

    piv = rs.pivot_table(index=["strategy", "players", "rank"], columns="suit", values="losses",
                         aggfunc="sum", fill_value=0)
    suits = [s for s in SUIT_NAMES if s in piv.columns]
    piv = piv.reindex(columns=suits)
    piv["all suits"] = piv.sum(axis=1)
    piv = piv.reset_index()
    piv.columns.name = None
    # the shares' n: the lost games of that strategy and player count
    n = rs.groupby(["strategy", "players"], sort=False)["lost_games"].first()
    nn = np.array([int(n[(s, p)]) for s, p in zip(piv["strategy"], piv["players"])], np.int64)
    for c in suits + ["all suits"]:
        k = piv[c].to_numpy(np.int64)
        lo, hi = wilson(k, nn)
        piv[c] = [fmt_rate(x / m, (a, b)) for x, m, a, b in zip(k, nn, lo, hi)]
    piv["lost games (n)"] = nn
    if "capped" in rs.columns:
        cap = rs.groupby(["strategy", "players"], sort=False)["capped"].first()
    elif reasons is not None:
        cap = reasons[reasons["reason"] == R_TURN_CAP].groupby(["strategy", "players"])["games"].sum()
    else:
        cap = None
    if cap is not None:
        piv["capped (not in n)"] = [int(cap.get((s, p), 0)) for s, p in zip(piv["strategy"], piv["players"])]
    order = {s: i for i, s in enumerate(dict.fromkeys(rs["strategy"]))}
    piv["_s"] = piv["strategy"].map(order)
    piv["_r"] = piv["rank"].map({r: i for i, r in enumerate(RANK_ORDER)}).fillna(9)
    return piv.sort_values(["_s", "players", "_r"]).drop(columns=["_s", "_r"]).reset_index(drop=True)


def summary_lines(out) -> list[str]:
    """A few lines for the terminal after ``report regicide``: win rates per strategy and
    player count (with intervals) and how many games ended at the turn cap."""
    from pathlib import Path

    wr = pd.read_csv(Path(out) / "win_rates.csv")
    er = pd.read_csv(Path(out) / "end_reasons.csv")
    lines = ["win rate by strategy and player count (95% interval, finished games n, capped games apart):"]
    for s in dict.fromkeys(wr["strategy"]):
        part = wr[wr["strategy"] == s]
        cells = [f"{int(r.players)}p " + (f"{100 * r.win_rate:.1f}% [{100 * r.win_ci_low:.1f}, "
                                          f"{100 * r.win_ci_high:.1f}] " if r.finished_games else "n/a ")
                 + f"n={int(r.finished_games):,}" + (f", {int(r.capped):,} capped" if r.capped else "")
                 for r in part.itertuples()]
        lines.append(f"  {s:45s} " + "; ".join(cells))
    lines.append(cap_sentence(er, wr))
    return lines


def cap_sentence(er: pd.DataFrame, wr: pd.DataFrame) -> str:
    """How many games the turn cap ended (neither won nor lost: left out of the win rates
    and every other figure but the end reasons) and how many stalled, from the end-reason and win-rate tables: on
    the page and on the terminal."""
    capped = int(er.loc[er["reason"] == R_TURN_CAP, "games"].sum())
    stalled = int(er.loc[er["reason"] == R_STALLED, "games"].sum())
    return (f"games ended by the turn cap: {capped:,} of {int(wr['games'].sum()):,} (neither won nor lost: left out "
            f"of the win rates, whose n is the finished games, and of every figure but the end reasons); stalled "
            f"(solo, no cards, no flip, attack shielded; a loss): {stalled:,}")


def build_report(out, games: int = 20000, search_games: int = 100, budget: int = 16, seed: int = 0,
                 jobs: int = 1, rules: dict | None = None, execution=None, strategies=None, players=None):
    """Simulate the study (flat memory: every table and figure comes from the batches'
    exact aggregates; per-game records are kept only in the results store, with
    ``--records``) and write the page and its tables under ``out``."""
    from simcore.regicide.model import load_rules

    rules = rules if rules is not None else load_rules()
    t0 = time.perf_counter()
    plan = study_plan(games, search_games, budget, strategies, players)
    if not plan:
        from simcore.errors import PlaytestError

        raise PlaytestError("the study has no batch for these strategies and this player count (cheat: solo "
                            "only)", field="--strategies")
    parts, timing = simulate(plan, seed, jobs, rules, execution)
    tables = tables_from_aggregates(parts)
    tables["timing"] = timing
    meta = {"game": "regicide", "seed": seed, "plan": [list(map(str, p)) for p in plan], "budget": budget,
            "rules": rules, "jobs": jobs}
    write_tables(out, tables, meta)  # <out>/report.html with the tables beside it

    page = Page("Regicide: win rates, progress and game length", out)
    wr = tables["win_rates"]
    page.paragraph(
        f"Seed {seed}; random and heuristic: {games:,} games per player count; search "
        f"(determinized Monte Carlo, {budget} rollouts per candidate move): {search_games} games per player "
        f"count; cheat (the same search with perfect information "
        f"- a ceiling, not a fair player): {max(1, search_games // 2)} solo games. "
        "Every rate is shown with its Wilson 95% interval and sample size. A game ended by the turn cap (a "
        "safety net) is neither won nor lost: win rates are wins / finished games (games - capped), the capped "
        "count beside them.", cls="summary")
    solo = wr[wr["players"] == 1]
    page.bullets([f"{r.strategy}, solo: win rate "
                  + (f"{r.win_rate:.3f} (95% CI {r.win_ci_low:.3f}-{r.win_ci_high:.3f}, " if r.finished_games
                     else "n/a (")
                  + f"n={r.finished_games:,} finished games; {r.capped:,} capped), "
                  + ("n/a" if r.finished_games == 0 else f"{r.mean_defeated:.2f}")
                  + " enemies defeated on average (finished games)" for r in solo.itertuples()]
                 + [cap_sentence(tables["end_reasons"], wr)])

    page.heading("Win rate by player count and strategy")
    page.figure(fig_win_rates(wr), "win_rates",
                caption="Bars: win rate; whiskers: Wilson 95% interval. 'cheat' sees the deck order.")
    page.table(wr, caption="Win rates: wins / finished games (games - capped), Wilson 95% intervals; mean "
                           "enemies defeated and mean turns over the finished games too (the capped games "
                           "beside)")

    page.heading("How far parties get")
    page.figure(fig_progress(tables["progress"]), "progress",
                caption="Share of the finished games still alive after each enemy (n: the 'finished_games' "
                        "of the win-rate table; a game ended by the turn cap stopped at the cap, not at an "
                        "enemy: left out, counted in each panel's title); k = 12 is the win rate; bands: "
                        "Wilson 95%.")
    solo_capped = int(wr.loc[wr["players"] == 1, "capped"].sum())
    page.figure(fig_end_enemy(tables["end_enemy"]), "end_enemy",
                caption="Solo: which castle position ends the lost runs (games ended by the turn cap are not "
                        f"lost: left out, {solo_capped:,} of them).")
    rs = tables["end_by_rank_suit"]
    if len(rs):
        page.table(rank_suit_table(rs, tables["end_reasons"]),
                   caption="Share of lost games ended by each enemy rank (Jack, Queen, King) and suit, with its "
                           "Wilson 95% interval; each row's suits add up to that rank's share; n: the lost games "
                           "of that strategy and player count. A game ended by the turn cap is not lost: it is "
                           "not in n (column 'capped (not in n)')")

    page.heading("Game length")
    page.figure(fig_lengths(parts, int(rules["max_turns"])), "lengths", caption="Turns per game (plays, Jesters and yields).")
    page.table(tables["lengths"], caption="Turns per game over the finished games (a game ended by the turn "
                                          "cap stops at the cap; the capped count beside)")

    page.heading("Solo medals and flips; Jesters, yields, exact kills")
    page.table(tables["medals"], caption="Solo: medal (gold = no flip used) and flip use over the finished games "
                                         "(a capped game has no medal and its flips stopped at the cap: left out, "
                                         "counted in 'capped'), with Wilson 95% intervals")
    page.table(tables["jesters"], caption="Jester use (3-4 players), yields and exact kills per game, over the "
                                          "finished games (the capped games beside)")
    page.table(tables["end_reasons"], caption="How games end (every game: the turn cap is one of the reasons)")

    page.heading("Run")
    page.table(timing, caption="Simulation time per batch")
    page.paragraph("Rule options: " + ", ".join(f"{k}={str(rules[k]).lower()}" for k in RULE_KEYS), cls="meta")
    page.paragraph(f"Total time {time.perf_counter() - t0:.1f} s; tables: *.csv/.parquet beside this page, with "
                   "run.json (seed, games, strategies, rule options, version).", cls="meta")
    return page.write("report.html")
