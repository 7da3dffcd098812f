"""Dice Throne's own report sections (``reports/sections.py``): where each hero's
damage comes from (ability, card, token, status) and how often each of its abilities,
tokens and cards is used, per strategy.

Both tables are built from per-seat sums of the records (``simcore.dicethrone.model``
``RECORD_FIELDS``: ``dmg_<source><seat>``, ``uses<a>_<seat>``, ``tok<t>_<seat>``,
``card<c>_<seat>``), read through each matchup's ``Aggregate`` (``analysis.aggregate``:
the integer record fields are summed exactly per chunk), so a run kept as aggregates and
a run kept as records give the same tables (``tests/test_aggregate.py``). A seat's sums
are credited to the hero and strategy that sat there (``Matchup.lineup`` /
``Matchup.strategies``); figures are per game that hero played.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.runs import fmt_rate
from analysis.stats import ratio_interval
from simcore.dicethrone import model as M


def hero_sums(matchups, seats: int = 2) -> dict:
    """``{(hero index, strategy): {"games": n, field base: sum}}`` where a field base is
    ``dmg_<source>``, ``uses<a>``, ``tok<t>`` or ``card<c>``; ``"capped"``: its games ended by
    the cap; ``"moments"``: ``DiceThroneAPI.reduce``'s ``dmg_moments`` of that seat (rows per
    source, then the total: the sums of x*x, x*t and x), when they cover every game of the sums."""
    from analysis.aggregate import Aggregate
    from strategies.dicethrone.bind import API

    out: dict = {}
    for m in matchups:
        agg = m.aggregate(seats)
        moments = agg.hists.get("dmg_moments")
        if moments is None and not isinstance(m.records, Aggregate):    # per-game records at hand
            moments = API.reduce(m.records)["dmg_moments"]
        for s in range(seats):
            key = (int(m.lineup[s]), str(m.strategies[s]))
            acc = out.setdefault(key, {"games": 0, "capped": 0})
            acc["games"] += agg.games
            acc["capped"] += int(agg.capped)
            for src in M.SOURCES:
                f = f"dmg_{src}{s}"
                acc[f"dmg_{src}"] = acc.get(f"dmg_{src}", 0) + int(agg.counts.get(f, 0))
            # absent from runs stored before it was reduced, or covering only part of a
            # resumed run's games (their sums differ from the run's): no interval then
            mom = moments if moments is not None and all(
                int(moments[s][i][2]) == int(agg.counts.get(f"dmg_{src}{s}", 0))
                for i, src in enumerate(M.SOURCES)) else None
            if mom is not None:
                m_s = np.asarray(mom[s], np.int64) + np.asarray(acc.get("moments", 0), np.int64)
                acc["moments"] = tuple(tuple(int(v) for v in r) for r in m_s)
            else:
                acc["no_moments"] = True
            for base, n in (("uses", M.MAX_AB), ("tok", M.MAX_TOKENS), ("card", M.MAX_CARDS)):
                for i in range(n):
                    f = f"{base}{i}_{s}"
                    acc[f"{base}{i}"] = acc.get(f"{base}{i}", 0) + int(agg.counts.get(f, 0))
    return out


def damage_table(sums: dict, hero_names) -> pd.DataFrame:
    """Damage dealt per game by source, per hero and strategy, with each source's share of
    the damage and its 95% interval (``analysis.stats.ratio_interval``: the games are the
    units, so a game's points are not taken as independent)."""
    rows = []
    for (h, strat), acc in sorted(sums.items()):
        n = acc["games"]
        total = sum(acc[f"dmg_{s}"] for s in M.SOURCES)
        row = {"hero": hero_names[h], "strategy": strat, "games": n, "capped (in games)": acc["capped"]}
        for s in M.SOURCES:
            row[s] = acc[f"dmg_{s}"] / n if n else np.nan
        row["total"] = total / n if n else np.nan
        mom = None if acc.get("no_moments") else acc.get("moments")
        for i, s in enumerate(M.SOURCES):
            if not total:
                row[f"{s} share"] = "–"
                continue
            x = acc[f"dmg_{s}"]
            if mom is None:
                row[f"{s} share"] = f"{100 * x / total:.1f}% (no interval: stored without its moments for every game)"
                continue
            if x in (0, total):    # no spread to measure: the delta method's interval has no width
                row[f"{s} share"] = f"{100 * x / total:.1f}% ({'none' if x == 0 else 'all of it'})"
                continue
            lo, hi = ratio_interval(x, total, mom[i][0], mom[i][1], mom[-1][0], n)
            row[f"{s} share"] = fmt_rate(x / total, (lo, hi))     # the decimals its interval needs
        rows.append(row)
    return pd.DataFrame(rows)


def usage_table(sums: dict, hero: int, content) -> pd.DataFrame:
    """Uses per game of every ability, token and card the hero can use, one column per
    strategy (abilities: activations; tokens: spent or triggered; cards: played)."""
    hid = M.HERO_NAMES[hero]
    h = content.heroes[hid]
    strats = sorted(s for (hh, s) in sums if hh == hero)
    items = [("ability", a.name, f"uses{i}") for i, a in enumerate(h.abilities)]
    items += [("token", t.name, f"tok{i}") for i, t in enumerate(content.tokens)]
    deck = set(M.deck_list(content, hid))
    items += [("card", c.name, f"card{i}") for i, c in enumerate(content.cards) if i in deck]
    rows = []
    for kind, name, key in items:
        row = {"kind": kind, "name": name}
        for s in strats:
            acc = sums[(hero, s)]
            row[s] = acc[key] / acc["games"] if acc["games"] else np.nan
        rows.append(row)
    df = pd.DataFrame(rows)
    if strats:   # tokens this hero never used (the other hero's, statuses) are left out
        used = df[strats].sum(axis=1) > 0
        df = df[(df["kind"] != "token") | used]
    return df


def sections(result) -> list:
    """The two Dice Throne sections of ``playtest report dicethrone``."""
    from strategies.dicethrone.bind import content_tables

    content = content_tables()[0]
    sums = hero_sums(result.matchups, result.seats)
    titles = [content.heroes[h].name for h in M.HERO_NAMES]

    def damage(page) -> None:
        page.heading("Damage by source")
        page.paragraph("Damage each hero dealt per game it played, by source: its abilities (offensive, "
                       "collateral and the defence's counter damage), cards (their damage and attack "
                       "modifiers), tokens (Crit's bonus, Retribution) and statuses (Burn on the opponent). "
                       "When prevention cuts an attack, the ability's part is cut first, then the cards', "
                       "then the token's. Games: each game the hero played, a mirror game once for each seat; "
                       "games ended by the turn cap are in them with their damage up to the cap, and counted "
                       "in the capped column.")
        table = damage_table(sums, titles)
        shares = [f"{s} share" for s in M.SOURCES]
        page.table(table.drop(columns=shares), float_format="{:.2f}")
        page.paragraph("Each source's share of the hero's damage, with its 95% interval, the games as the "
                       "units (n: the games above). 'none': the source dealt no damage in those games.")
        page.table(table[["hero", "strategy"] + shares])

    def usage(page) -> None:
        page.heading("What gets used")
        page.paragraph("Times per game each ability is activated, each token is used (spent by a decision, "
                       "triggered, or spent by an effect; tokens it never used are left out) and each card "
                       "of its deck is played, by the hero's strategy.")
        for h, hid in enumerate(M.HERO_NAMES):
            if any(hh == h for hh, _ in sums):
                page.heading(titles[h], level=3)
                page.table(usage_table(sums, h, content), float_format="{:.3f}")

    return [damage, usage]


def report_sections(result) -> list:
    """Damage by source and what gets used (:func:`sections`, from the run's aggregates),
    then what each card is worth (``reports/dicethrone_cards.py``), in the report's seed and
    rules, greedy against greedy; ``result.extra["section_games"]`` games per seat order per
    card (``playtest report dicethrone --section-games N``), else as many as the report plays
    per matchup, at most ``DEFAULT_CARD_GAMES``. Found by ``reports/sections.py``."""
    from reports.dicethrone_cards import DEFAULT_CARD_GAMES, card_value_section

    n = int(result.extra.get("section_games") or min(DEFAULT_CARD_GAMES, int(result.games)))
    return list(sections(result)) + [card_value_section(n, result.seed, ("greedy", "greedy"), result.rules)]
