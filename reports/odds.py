"""The odds section of the duel report: exact odds per hero and opening keep advice.

``add_odds_section(page, setup)`` adds, for every hero, a chart of the probability of
being able to activate each ability (each tier) after 1..R free rolls and with 1..4
rolls bought with CP (going for that ability with best keeps, exact DP); the table of
those odds; the distribution of the ability the roll phase ends with under the
``optimal`` strategy; and the keep advice for the most common opening rolls.
"""
from __future__ import annotations

import numpy as np

TOP_OPENINGS = 8


def _odds_figure(df, hero_name, R):
    import matplotlib.pyplot as plt

    sub = df[df.hero == hero_name]
    cols = [c for c in df.columns if c.startswith("p_")]
    fig, ax = plt.subplots(figsize=(7.5, 3.8))
    x = np.arange(1, len(cols) + 1)
    for _, row in sub.iterrows():
        style = "--" if row["tiers"] > 1 and row["tier"] > 1 else "-"
        ax.plot(x, [row[c] for c in cols], style, marker="o", ms=3, label=row["label"])
    ax.axvline(R + 0.5, color="#999", lw=0.8, ls=":")
    ax.text(R + 0.6, 0.02, "bought with CP →", fontsize=8, color="#666")
    ax.set_xticks(x, [c[2:] for c in cols])
    ax.set_xlabel("rolls (free + bought)")
    ax.set_ylabel("P(can activate)")
    ax.set_ylim(0, 1.02)
    ax.grid(alpha=0.3)
    ax.set_title(f"{hero_name}: odds by rolls, going for each ability")
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
    return fig


def opening_advice(setup, plan, b: int, top: int = TOP_OPENINGS):
    """The ``top`` most likely opening rolls of a hero (as multisets) with the optimal
    strategy's keep, the expected value it leads to and the most likely final ability."""
    import pandas as pd

    from simcore.odds.solver import describe_keep
    from simcore.odds.value import end_distribution

    space = plan.space
    p_open = space.matrix[space.empty_keep]
    order = np.argsort(-p_open, kind="stable")[:top]
    f = plan.rolls - 1
    rows = []
    for h in order:
        k = plan.best[f, b, h]
        p0 = np.zeros(space.n_hands)
        p0[h] = 1.0
        end, _ = end_distribution(space, plan.best, plan.rolls, b, p0=p0, free_left=f)
        per_ab = [end[plan.choice == a].sum() for a in range(len(plan.hero.abilities))]
        a = int(np.argmax(per_ab))
        roll = ", ".join(str(x) for x in sorted(space.hand_faces(int(h)), key=lambda x: x.number))
        rows.append({"hero": plan.hero.name, "opening roll": roll, "chance": float(p_open[h]),
                     "keep": "all (stop)" if k == space.full_keep[h] else describe_keep(space, int(k)),
                     "expected value": float(plan.V[f, b, h]),
                     "most likely ends with": f"{plan.hero.abilities[a].name} ({per_ab[a]:.2f})"})
    return pd.DataFrame(rows)


def add_odds_section(page, setup) -> None:
    import pandas as pd

    from simcore.odds.duel import end_ability_table, odds_table
    from strategies.duel.optimal import plans

    R = int(setup.rules["rolls"])
    cost = int(setup.rules["roll_cost"])
    df = odds_table(setup, bought=4)
    ps = plans(setup)
    page.heading("Exact dice odds")
    page.paragraph(
        f"Probability of being able to activate each ability (each tier of a tiered one) when "
        f"going for it with the best keeps, after 1..{R} free rolls and with 1..4 extra rolls "
        f"bought at {cost} CP each. Exact dynamic programming over the multisets of dice "
        "outcomes (no sampling error); tests hold a Monte Carlo simulation of the same policy "
        "within its 99.9% interval of every value.")
    for hero in setup.heroes:
        page.figure(_odds_figure(df, hero.name, R), f"odds_{hero.key}",
                    caption=f"{hero.name}: P(can activate) by rolls; dashed = higher tiers; "
                            f"right of the dotted line: rolls bought with CP.")
    cols = [c for c in df.columns if c.startswith("p_")]
    page.table(df[["hero", "label", "target"] + cols].rename(columns={"label": "ability"}),
               caption="Exact odds by rolls (p_3+k: k rolls bought with CP)")
    ends = []
    for p in ps:
        t = end_ability_table(p)
        t.insert(0, "hero", p.hero.name)
        ends.append(t)
    page.heading("Which ability the roll phase ends with (optimal strategy)", level=3)
    page.paragraph(
        "Under the value-maximising policy of the 'optimal' strategy (default effect weights), "
        "the exact distribution of the ability taken at the end of the roll phase, by the number "
        "of extra rolls the player's CP can buy; the strategy buys only when the expected gain "
        "pays for the CP.")
    for t in ends:
        page.table(t.drop(columns=["hero"]), caption=f"{t['hero'].iloc[0]}: ending ability by affordable bought rolls")
    b0 = min(int(setup.rules["start_cp"]) // cost, ps[0].best.shape[1] - 1)
    page.heading("Opening roll: keep advice", level=3)
    page.paragraph(
        f"The most likely opening rolls of each hero (as sets of faces) and the optimal "
        f"strategy's keep with {R - 1} free rerolls left and {b0} bought roll(s) affordable "
        f"(the starting {setup.rules['start_cp']} CP).")
    adv = pd.concat([opening_advice(setup, p, b0) for p in ps], ignore_index=True)
    page.table(adv, caption="Keep advice for the most common opening rolls")
