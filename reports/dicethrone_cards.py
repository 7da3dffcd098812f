"""Dice Throne's own report sections (``reports/sections.py``): what each card is worth
(``analysis/dicethrone_cards.py``), as a ranked table with paired intervals and a chart.
The section plays its own games (common seeds, one blanked card at a time), so its size is
a parameter: ``playtest report dicethrone --section-games N`` (games per seat order per
card), or ``playtest dicethrone card-value`` alone."""
from __future__ import annotations

from analysis.dicethrone_cards import ranked

DEFAULT_CARD_GAMES = 1000


def card_table(df):
    """The ranked table; with the games of each version (both seat orders, column
    ``games``), the pairs left out because a game of the pair ended by a cap."""
    import pandas as pd

    rows = []
    for _, r in ranked(df).iterrows():
        rows.append({"hero": r["hero"], **({"vs": r["vs"]} if "vs" in r else {}), "card": r["name"], "deck": r["deck"], "cost": r["cost"], "phase": r["phase"],
                     "value (points)": f"{100 * r['value']:+.1f}",
                     "95% paired interval": f"{100 * r['value_ci'][0]:+.1f} – {100 * r['value_ci'][1]:+.1f}",
                     "unpaired ±": f"{100 * r['half_width_unpaired']:.1f}",
                     "games changed": f"{r['changed']:,} of {r['pairs']:,}"})
        if "games" in r:
            rows[-1]["pairs left out (a cap)"] = f"{int(r['games']) - int(r['pairs']):,}"
    return pd.DataFrame(rows)


def card_value_figure(df):
    from .html import plt

    d = ranked(df)
    fig, ax = plt.subplots(figsize=(7.5, 0.22 * len(d) + 1.2))
    y = range(len(d))[::-1]
    lo = [100 * (v - c[0]) for v, c in zip(d["value"], d["value_ci"])]
    hi = [100 * (c[1] - v) for v, c in zip(d["value"], d["value_ci"])]
    ax.errorbar(100 * d["value"], list(y), xerr=[lo, hi], fmt="o", ms=3, capsize=2)
    ax.set_yticks(list(y))
    ax.set_yticklabels([f"{h[:4]}: {n}" for h, n in zip(d["hero"], d["name"])], fontsize=7)
    ax.axvline(0, color="grey", lw=0.8)
    ax.set_xlabel("win-rate change when the card is blanked (points; 95% paired interval)")
    fig.tight_layout()
    return fig


def card_value_section(n: int = DEFAULT_CARD_GAMES, seed: int = 1, strategies=("greedy", "greedy"),
                       rules: dict | None = None, df=None, roster=None, heroes=None):
    """A report section; ``df``: values already computed (else computed when the page is built,
    for the matchup ``heroes`` of ``roster``: ``analysis.dicethrone_cards.card_values``)."""

    def section(page) -> None:
        from analysis.dicethrone_cards import card_values

        data = df if df is not None else card_values(n, seed, strategies, rules, heroes=heroes, roster=roster)
        page.heading("What each card is worth")
        page.paragraph(
            f"For every card of each hero's deck (its own cards and the generic ones), the hero's win rate against "
            f"the other hero with the full deck minus the win rate with that card swapped for a blank card "
            f"(never playable, still sold for CP like any card), {strategies[0]} against {strategies[1]}, "
            f"{n:,} games in each seat order, draws counted half. Both versions are played on common seeds (game i "
            f"from the same stream, same shuffles and dice until the card matters), so the interval is the paired "
            f"one: the mean and standard error of the per-game differences. It is much tighter than the interval of "
            f"two independent win rates (the 'unpaired ±' column). A positive value: the card helps its holder; "
            f"a card the strategy never plays is worth 0 exactly (no game changes). A pair of games where "
            f"either game ended by the turn cap is left out, and counted in the last column.")
        page.table(card_table(data))
        page.figure(card_value_figure(data), "card_values",
                    caption="Win-rate change when the card is blanked, by hero and card, with 95% paired intervals.")

    return section
