"""The river battle's own report sections (``reports/sections.py``; the shared ones
are in ``reports/game.py``): the attacker's win rate for every pair of strategies, what
each rule option does to it (``analysis.runs.tune``: the same seeds for every value), the
dams (damaged, destroyed, deciding), how and when games end, and a written verdict.

Every figure is computed here from the run's exact aggregates (``analysis.aggregate``,
through ``analysis.river.facts``) or from the sweeps' runs; the verdict's sentences
are assembled from those numbers (:func:`verdict`), never written in advance.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.runs import ci_decimals, fmt_rate, tune
from analysis.stats import diff_rates, wilson
from reports.html import Page, plt
from simcore.river import model as M

WINDOW = (0.45, 0.55)      # "balanced": the attacker wins 45-55% at equal skill
SWEEP_GAMES = 4000         # games per variant of a sweep (capped by the report's -n)
END_TITLES = {"fourth_dam": "fourth dam damaged", "destroyed_dam": "damaged dam destroyed",
              "deck_out": "deck ran out (defender holds)", "turn_cap": "turn cap", "illegal": "illegal answer"}


def sweeps(rules: dict) -> list[tuple[str, list]]:
    """The options and values swept, around the run's own rules: the tie rule (its three
    readings), tile order, tactics on/off, the deck-out's trigger (the parent game's reading,
    the default, against the digest's English: ``rules.toml``), hand size 3..9 and logs 0..12."""
    out = [("tie_rule", ["first", "defender", "defender_complete"]), ("shuffle_tiles", [True, False]), ("tactics", [False, True]),
           ("deckout_trigger", ["empty_draw", "last_card"]),
           ("hand_size", list(range(3, 10))), ("logs", list(range(0, 13)))]
    return [(k, v if rules[k] in v else [rules[k]] + v) for k, v in out]


def change_size(option: str, value, base) -> float:
    """How big a change is: a number's distance from the base value (cards, logs), 1 for a
    switch or a choice; 0 = the base rules."""
    if value == base:
        return 0.0
    if isinstance(value, bool) or isinstance(value, str):
        return 1.0
    return float(abs(value - base))


def miss(x: float) -> float:
    """Points (0..1) by which a rate lies outside the window (0 inside)."""
    return max(0.0, WINDOW[0] - x, x - WINDOW[1])


def sweep_results(res, strategy: str, games: int, jobs: int = 1) -> list[dict]:
    """One row per (option, value): the attacker's win rate with interval, the mean length
    and the end reasons, ``strategy`` in both roles, the report's seed for every variant."""
    from analysis.river import facts

    def row(option, v, r):
        rates, cis, n = r.seat_rows()
        f = facts(r.pooled())
        return {"option": option, "value": v, "base": v == res.rules[option],
                "change": change_size(option, v, res.rules[option]),
                "attacker": rates[0], "ci": cis[0], "games": n, "capped": int(r.pooled().capped),
                "turns": r.metrics()["duration"]["x"],
                **{f"end_{k}": f["end_reasons"][k] for k in ("fourth_dam", "destroyed_dam", "deck_out")}}

    plan = sweeps(res.rules)
    first = plan[0][0]
    (_, base_res), = tune("river", res.rules, first, [res.rules[first]], [strategy], games, res.seed, jobs)
    rows = []
    for option, values in plan:
        others = dict(tune("river", res.rules, option, [v for v in values if v != res.rules[option]],
                           [strategy], games, res.seed, jobs))
        rows += [row(option, v, base_res if v == res.rules[option] else others[v]) for v in values]
    return rows


def smallest_fix(rows: list[dict]) -> dict:
    """The smallest change (``change_size``; ties: the rate nearest 50%) whose attacker
    win rate lies inside the window, else the variant that misses it by the least."""
    inside = [r for r in rows if not r["base"] and miss(r["attacker"]) == 0]
    if inside:
        best = min(inside, key=lambda r: (r["change"], abs(r["attacker"] - 0.5)))
        return {"found": True, **best}
    best = min((r for r in rows if not r["base"]), key=lambda r: (miss(r["attacker"]), r["change"]))
    return {"found": False, **best}


SKILL_ORDER = ("random", "heuristic", "search")   # the built-ins, least to most skilled


def equal_skill(res) -> list[dict]:
    """The role ladder: the attacker's win rate in every matchup where both roles play the
    same strategy, least skilled first (``SKILL_ORDER``; plug-ins after, in run order)."""
    out = []
    for row in res.matchup_rows():
        a, d = (s["strategy"] for s in row["seats"])
        if a == d:
            out.append({"strategy": a, "attacker": row["win_rate"], "ci": row["win_rate_ci"],
                        "games": row["games"] - row["capped"], "capped": row["capped"]})
    rank = {s: i for i, s in enumerate(SKILL_ORDER)}
    return sorted(out, key=lambda e: rank.get(e["strategy"], len(SKILL_ORDER)))


def ladder_sentences(res) -> list[str]:
    """The role ladder as the verdict's opening: the attacker's rate with its interval and
    n at each skill level measured, then which role each level favours."""
    lad = equal_skill(res)
    if not lad:
        return ["No matchup has the same strategy in both roles: the balance at equal skill is not measured "
                "by this run (add the same strategy for both roles)."]
    steps = []
    for e in lad:
        capped = f", {e['capped']:,} more capped and left out" if e["capped"] else ""
        steps.append(f"{e['strategy']}: {fmt_rate(e['attacker'], e['ci'], e['games'])}{capped}")
    out = ["Role ladder (both roles at the same skill, least to most skilled; the attacker's win rate, its 95% "
           "interval and n, the finished games): " + "; ".join(steps) + "."]
    sides = [favoured(e["attacker"], e["ci"]) for e in lad]
    levels = "the only level measured" if len(lad) == 1 else f"all {len(lad)} levels measured"
    if len(set(sides)) == 1 and sides[0] != favoured(0.5, (0.4, 0.6)):
        out.append(f"{sides[0][0].upper() + sides[0][1:]} is favoured at {levels}: the lean is the game's, "
                   "not a matter of skill.")
    else:
        out.append("The favoured role depends on skill: " + "; ".join(
            f"{e['strategy']}: {side}" for e, side in zip(lad, sides)) + ".")
    return out


def favoured(x: float, ci) -> str:
    if ci[0] > 0.5:
        return "the attacker"
    if ci[1] < 0.5:
        return "the defender"
    return "neither role (the interval holds 50%)"


def verdict(res, rows: list[dict], strategy: str) -> list[str]:
    """The written verdict, sentence by sentence, from the measured numbers."""
    out = ladder_sentences(res)
    base = next(r for r in rows if r["base"])
    fix = smallest_fix(rows)
    head = (f"Under the run's rules with {strategy} in both roles the attacker wins "
            f"{fmt_rate(base['attacker'], base['ci'], base['games'])}.")
    if miss(base["attacker"]) == 0:
        out.append(head + f" That is already inside {100 * WINDOW[0]:.0f}-{100 * WINDOW[1]:.0f}%.")
    elif fix["found"]:
        note = ("its interval lies inside the window" if WINDOW[0] <= fix["ci"][0] and fix["ci"][1] <= WINDOW[1]
                else "its interval still reaches outside the window")
        out.append(head + f" The smallest single change among the swept options that brings it inside "
                          f"{100 * WINDOW[0]:.0f}-{100 * WINDOW[1]:.0f}% is {fix['option']} = {fix['value']} "
                          f"(from {res.rules[fix['option']]}): the attacker wins "
                          f"{fmt_rate(fix['attacker'], fix['ci'], fix['games'])} ({note}).")
    else:
        out.append(head + f" No single swept change brings it inside {100 * WINDOW[0]:.0f}-"
                          f"{100 * WINDOW[1]:.0f}%; the closest is {fix['option']} = {fix['value']} (from "
                          f"{res.rules[fix['option']]}): the attacker wins "
                          f"{fmt_rate(fix['attacker'], fix['ci'], fix['games'])}, "
                          f"{100 * miss(fix['attacker']):.1f} points outside.")
    # the other levers, by how far each moves the rate from the base; each move with its
    # interval (Newcombe's, as for independent samples: the variants share their seeds,
    # which makes the true interval narrower, so this one errs wide) and the variant's rate
    by_opt = {}
    for r in rows:
        if not r["base"]:
            d = r["attacker"] - base["attacker"]
            if r["option"] not in by_opt or abs(d) > abs(by_opt[r["option"]]["attacker"] - base["attacker"]):
                by_opt[r["option"]] = r
    def move(r):
        d = diff_rates({"x": r["attacker"], "x_ci": r["ci"]}, {"x": base["attacker"], "x_ci": base["ci"]})
        lo, hi = d["x_ci"]
        return (f"{r['option']} = {r['value']}: {fmt_rate(r['attacker'], r['ci'], r['games'])}, "
                f"{100 * d['x']:+.1f} points [{100 * lo:+.1f}, {100 * hi:+.1f}]")
    moves = "; ".join(move(r) for _, r in sorted(by_opt.items(), key=lambda kv: -abs(kv[1]["attacker"] - base["attacker"])))
    out.append(f"The largest move of each option (the attacker's win rate under that value, and its change from "
               f"the base {fmt_rate(base['attacker'], base['ci'], base['games'])}, with the change's 95% interval, "
               f"computed as for independent samples: the common seeds make the true one narrower): {moves}.")
    same = [k for k in by_opt if all(r["attacker"] == base["attacker"] and r.get("end_deck_out") == base.get("end_deck_out")
                                     and r.get("turns") == base.get("turns") for r in rows if r["option"] == k)]
    if same:
        out.append(f"{', '.join(same)}: every value gave the same win rate, the same deck-outs and the same mean "
                   f"length as the base on these seeds: {strategy} does not use what the option changes, so its "
                   f"effect is not measured by this strategy.")
    return out


def _pct(k: int, n: int) -> float:
    return 100.0 * k / n if n else float("nan")


def _pct_ci(k: int, n: int) -> str:
    """``k`` of ``n`` as a percentage with its Wilson 95% interval ("41.5 [38.1, 45.0]")."""
    if not n:
        return "n/a"
    lo, hi = wilson(k, n)
    d = ci_decimals(lo, hi)       # one decimal, or more until the interval's ends differ
    return f"{100.0 * k / n:.{d}f} [{100 * lo:.{d}f}, {100 * hi:.{d}f}]"


def sections(res) -> list:
    """The river's sections for the report of ``res`` (its matchups, plus the sweeps)."""
    from analysis.river import facts

    strategies = sorted({s for m in res.matchups for s in m.strategies})
    strategy = "heuristic" if "heuristic" in strategies else strategies[0]
    state: dict = {}

    def pairs(page: Page) -> None:
        page.heading("Attacker win rate for every pair of strategies")
        rows = []
        for m, row in zip(res.matchups, res.matchup_rows()):
            agg = m.aggregate(res.seats)
            n = row["games"]
            rows.append({"attacker": m.strategies[0], "defender": m.strategies[1],
                         "attacker wins": fmt_rate(row["win_rate"], row["win_rate_ci"]),
                         "games (n of the rate)": n - row["capped"], "capped (not in the rate)": row["capped"],
                         "mean turns": float(agg.turns @ np.arange(agg.turns.size)) / n if n else float("nan")})
        page.table(pd.DataFrame(rows), float_format="{:.1f}")
        page.paragraph("Rows: the attacker's strategy against the defender's, every pair on the same seeds. "
                       "Win rates with their 95% Wilson intervals, over the games not ended by the turn cap; "
                       "mean turns over every game (a capped one at the cap). How the games ended, each way "
                       "with its interval: the next table.")

    def ends(page: Page) -> None:
        page.heading("How games end and how long they last")
        rows = []
        for m in res.matchups:
            f = facts(m.aggregate(res.seats))
            n = f["dams"]["games"]
            for k in ("fourth_dam", "destroyed_dam", "deck_out", "turn_cap"):
                share = f["end_reason_share"][k]
                rows.append({"matchup": f"{m.strategies[0]} vs {m.strategies[1]}", "end": END_TITLES[k],
                             "games": f["end_reasons"][k],
                             "share": fmt_rate(share["x"], share["x_ci"]) if n else "n/a",
                             "mean turns": f["end_turns_mean"][k] if f["end_turns_mean"][k] is not None
                             else float("nan")})
        page.table(pd.DataFrame(rows), float_format="{:.1f}")
        page.paragraph("A turn is one player's turn (attacker and defender turns both count). The defender "
                       "wins only when the deck runs out; the attacker by a fourth damaged dam or a destroyed one.")

    def dams(page: Page) -> None:
        page.heading("Dams: damaged, destroyed, deciding")
        focus = next((m for m in res.matchups if m.strategies == (strategy, strategy)), res.matchups[0])
        f = facts(focus.aggregate(res.seats))
        d = f["dams"]
        n = d["games"]
        wins = sum(d["decided"])
        tiles = M.load_tiles()
        df = pd.DataFrame({
            "tile": d["tile"],
            "intact side": [f"{t['intact'][0]} cards, {M.MODE_NAMES[t['intact'][1]]}" for t in tiles],
            "damaged side": [f"{t['damaged'][0]} cards, {M.MODE_NAMES[t['damaged'][1]]}" for t in tiles],
            f"damaged, % of the {n:,} games": [_pct_ci(x, n) for x in d["damaged"]],
            f"destroyed, % of the {n:,} games": [_pct_ci(x, n) for x in d["destroyed"]],
            f"decided, % of the attacker's {wins:,} wins": [_pct_ci(x, wins) for x in d["decided"]]})
        page.table(df, float_format="{:.1f}")
        page.paragraph("Each share with its 95% Wilson interval.")
        fig, ax = plt.subplots(figsize=(6.5, 2.8))
        x = np.arange(len(d["tile"]))
        for i, (key, label) in enumerate((("damaged", "damaged"), ("destroyed", "destroyed"),
                                          ("decided", "decided the game"))):
            ax.bar(x + (i - 1) * 0.27, [_pct(v, n) for v in d[key]], width=0.27, label=label)
        ax.set_xticks(x, [f"tile {t}" for t in d["tile"]])
        ax.set_ylabel("% of games")
        ax.legend(fontsize=8)
        page.figure(fig, "river_dams", caption=f"{strategy} vs {strategy}, {n:,} games: how often each dam "
                                               "(by tile id) ends the game damaged or destroyed, and how often its "
                                               "damage or destruction won it for the attacker (here as a share "
                                               f"of all {n:,} games; the table gives it as a share of the "
                                               f"attacker's {wins:,} wins).")

    def options(page: Page) -> None:
        from matplotlib.ticker import MaxNLocator

        page.heading("What each rule option does to the balance")
        games = max(1, min(res.games, SWEEP_GAMES))
        rows = sweep_results(res, strategy, games)
        state["rows"] = rows
        page.paragraph(f"{strategy} in both roles, {games:,} games per value, the report's seed ({res.seed}) for "
                       "every value (common random numbers: the values differ only by the rule). Reproduce one "
                       f"option with playtest river tune --option OPTION --values A,B --strategies {strategy} "
                       f"-n {games} --seed {res.seed}.")
        df = pd.DataFrame([{"option": r["option"], "value": str(r["value"]).lower() + (" (base)" if r["base"] else ""),
                            "attacker wins": fmt_rate(r["attacker"], r["ci"]), "games": r["games"],
                            "capped (not in games)": r["capped"],
                            "inside 45-55%": "yes" if miss(r["attacker"]) == 0 else "no",
                            "mean turns": r["turns"], "deck ran out (games)": r["end_deck_out"]} for r in rows])
        page.table(df, float_format="{:.1f}")
        fig, axes = plt.subplots(1, 2, figsize=(8, 2.8), sharey=True)
        for ax, opt in zip(axes, ("hand_size", "logs")):
            rr = [r for r in rows if r["option"] == opt]
            xs = [r["value"] for r in rr]
            y = np.array([100 * r["attacker"] for r in rr])
            lo = np.array([100 * r["ci"][0] for r in rr])
            hi = np.array([100 * r["ci"][1] for r in rr])
            ax.errorbar(xs, y, yerr=[y - lo, hi - y], fmt="o-", capsize=3)
            ax.axhspan(100 * WINDOW[0], 100 * WINDOW[1], color="#cde", alpha=0.6)
            ax.set_xlabel(opt.replace("_", " "))
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))   # cards and logs: whole numbers
        axes[0].set_ylabel("attacker wins, %")
        page.figure(fig, "river_options", caption="Attacker's win rate against hand size and logs (95% intervals; "
                                                  "band: 45-55%).")

    def written(page: Page) -> None:
        page.heading("Verdict")
        page.bullets(verdict(res, state["rows"], strategy), cls="summary")

    return [pairs, ends, dams, options, written]
