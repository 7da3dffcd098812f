"""Dice Throne's own report sections (``reports/sections.py``): the roster at each skill
level (the N x N table with intervals, the tier list with ratings, each hero's first-player
edge, and whether the order of heroes holds from one strategy to the next:
``analysis/roster.py``), where each hero's damage comes from (ability, card, token,
status) and how often each of its abilities, tokens and cards is used, per strategy.

Token and card ids belong to a matchup (``simcore.dicethrone.roster``): a record's
``tok<t>``/``card<c>`` fields are read through that matchup's content and summed by the
token's and the card's id, never by their number.

Both tables are built from per-seat sums of the records (``simcore.dicethrone.model``
``RECORD_FIELDS``: ``dmg_<source><seat>``, ``uses<a>_<seat>``, ``tok<t>_<seat>``,
``card<c>_<seat>``), read through each matchup's ``Aggregate`` (``analysis.aggregate``:
the integer record fields are summed exactly per chunk), so a run kept as aggregates and
a run kept as records give the same tables (``tests/test_aggregate.py``). A seat's sums
are credited to the hero and strategy that sat there (``Matchup.lineup`` /
``Matchup.strategies``); figures are per game that hero played.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from analysis.runs import fmt_rate
from analysis.stats import ratio_interval
from simcore.dicethrone import model as M


def hero_sums(matchups, seats: int = 2, contents=None) -> dict:
    """``{(hero index, strategy): {"games": n, field base: sum}}`` where a field base is
    ``dmg_<source>``, ``uses<a>``, ``tok:<token id>`` or ``card:<card id>``; ``"capped"``: its
    games ended by the cap; ``"moments"``: ``DiceThroneAPI.reduce``'s ``dmg_moments`` of that
    seat (rows per source, then the total: the sums of x*x, x*t and x), when they cover every
    game of the sums. ``contents(lineup)``: the matchup's ``Content`` (token and card ids
    belong to it)."""
    from analysis.aggregate import Aggregate
    from strategies.dicethrone.bind import API

    out: dict = {}
    for m in matchups:
        agg = m.aggregate(seats)
        content = contents(m.lineup)
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
            for i in range(M.MAX_AB):
                acc[f"uses{i}"] = acc.get(f"uses{i}", 0) + int(agg.counts.get(f"uses{i}_{s}", 0))
            for base, items in (("tok", content.tokens), ("card", content.cards)):
                for i, x in enumerate(items):
                    k = f"{base}:{x.id}"
                    acc[k] = acc.get(k, 0) + int(agg.counts.get(f"{base}{i}_{s}", 0))
                    acc.setdefault("names", {})[k] = x.name
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


def usage_table(sums: dict, hero: int, hero_id: str, content) -> pd.DataFrame:
    """Uses per game of every ability, token and card the hero can use, one column per
    strategy (abilities: activations; tokens: spent or triggered; cards: played);
    ``content``: a content holding the hero (its names and deck)."""
    h = content.heroes[hero_id]
    strats = sorted(s for (hh, s) in sums if hh == hero)
    items = [("ability", a.name, f"uses{i}") for i, a in enumerate(h.abilities)]
    items += [("token", t.name, f"tok:{t.id}") for t in content.tokens]
    # and the tokens of its opponents it came to hold (an opponent's own status, inflicted)
    others = {k: v for s in strats for k, v in sums[(hero, s)].get("names", {}).items()
              if k.startswith("tok:") and k[4:] not in content.token_ids}
    items += [("token", name, k) for k, name in others.items()]
    deck = set(M.deck_list(content, hero_id))
    items += [("card", c.name, f"card:{c.id}") for i, c in enumerate(content.cards) if i in deck]
    rows = []
    for kind, name, key in items:
        row = {"kind": kind, "name": name}
        for s in strats:
            acc = sums[(hero, s)]
            row[s] = acc.get(key, 0) / acc["games"] if acc["games"] else np.nan
        rows.append(row)
    df = pd.DataFrame(rows)
    if strats:   # tokens this hero never used (the other hero's, statuses) are left out
        used = df[strats].sum(axis=1) > 0
        df = df[(df["kind"] != "token") | used]
    return df


def _roster(result):
    """``(roster, hero id per entrant index)`` of the report's run (its setup, or the shipped
    heroes)."""
    from strategies.dicethrone.bind import default_roster

    setup = getattr(result, "setup", None) or {}
    roster = setup.get("roster") or default_roster()
    return roster, list(setup.get("entrants") or getattr(result, "entrant_names", None) or roster.names)


def sections(result) -> list:
    """The two Dice Throne sections of ``playtest report dicethrone`` on damage and use."""
    roster, keys = _roster(result)
    sums = hero_sums(result.matchups, result.seats, lambda lineup: roster.content([keys[i] for i in lineup]))
    titles = [roster.heroes[roster.index(k)].name for k in keys]

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
        for h, hid in enumerate(keys):
            if any(hh == h for hh, _ in sums):
                page.heading(titles[h], level=3)
                page.table(usage_table(sums, h, hid, roster.content((hid,))), float_format="{:.3f}")

    return [damage, usage]


def roster_sections(result) -> list:
    """The roster at each skill level (``analysis/roster.py``): for each strategy that played
    itself, the N x N heatmap with intervals and the tier list; then the verdict between
    levels."""
    from analysis import duel as ad
    from analysis.roster import level_runs, tier_rows, tier_table, verdict_pairs, order_verdict, verdict_text
    from reports.duel import first_player_figure, heatmap_figure, hero_figure, skill_order

    roster, keys = _roster(result)
    titles = [roster.heroes[roster.index(k)].name for k in keys]
    levels = level_runs(result, titles)
    order = skill_order(list(levels))
    tiers = {}

    def level(s):
        def section(page) -> None:
            run = levels[s]
            m = ad.matchup_table(run)
            tt = tiers[s] = tier_table(run, m)
            n_pairs = int((~m.mirror).sum()) // 2
            page.heading(f"The roster at {s}: {len(titles)} heroes, both seats playing {s}")
            per = int(m[~m.mirror].distinct_games.median()) if n_pairs else 0
            page.paragraph(f"Every ordered pair of heroes, mirrors too, {run.games:,} games per seat order on common "
                           f"seeds: a pair pools {per:,} games (both seat orders), so each cell's 95% interval is "
                           f"at most about ±{100 * 1.96 * math.sqrt(0.25 / per) if per else float('nan'):.1f} points. "
                           "Games ended by the turn cap count as draws (half a win) in these tables; each hero's "
                           "count is in the tier list.")
            page.figure(heatmap_figure(run, m), f"heatmap_{s}",
                        caption=f"{s}: the row hero's win rate against the column hero, both seat orders pooled, "
                                "95% Wilson interval (bold, *: the interval excludes 50%).")
            if tt.empty:
                return
            page.heading(f"Tier list at {s}", level=3)
            page.paragraph("Each hero's score against the field (the mean of its matchups' rates, mirrors left out; "
                           "interval over its games, n), best first. Tier 1: its interval lies above 50%; 2: it "
                           "holds 50%; 3: below. Rating: Bradley-Terry over the same matchups (Elo scale, bootstrap "
                           "95% interval). First-player edge: its score moving first minus moving second, in points.")
            page.table(tier_rows(tt))
            page.figure(hero_figure(tt), f"tiers_{s}", caption=f"{s}: score against the field, 95% intervals.")
            fp = ad.first_player_table(run)
            page.figure(first_player_figure(fp), f"first_player_{s}",
                        caption=f"{s}: the first player's score per pair of heroes and over all games, "
                                "95% intervals.")

        section.draws = "level_heatmap"   # the shared report leaves its own heatmap out (reports/game.py)
        return section

    def verdict(page) -> None:
        page.heading("Does the order of heroes hold from one skill level to the next?")
        if len(order) < 2:
            page.paragraph(f"One skill level was played ({', '.join(order)}): play more to compare, e.g. "
                           "playtest report dicethrone --strategies greedy,optimal,search.")
            return
        lines = [verdict_text(a, b, order_verdict(tiers[a], tiers[b])) for a, b in verdict_pairs(order)
                 if a in tiers and b in tiers]
        page.paragraph("Kendall's tau of the heroes' scores against the field between two levels (1: the same "
                       "order; 95% interval by a parametric bootstrap of each score), and the hero pairs whose "
                       "difference is beyond noise at both levels (Newcombe interval): do they keep their order?")
        page.bullets(lines)

    verdict.draws = "level_verdict"   # read with the levels: the shared report puts it right after them
    return [level(s) for s in order] + [verdict]


def report_sections(result) -> list:
    """The roster at each skill level (:func:`roster_sections`), damage by source and what gets
    used (:func:`sections`, from the run's aggregates), then what each card is worth (``reports/dicethrone_cards.py``), in the report's seed and
    rules, greedy against greedy; ``result.extra["section_games"]`` games per seat order per
    card (``playtest report dicethrone --section-games N``), else as many as the report plays
    per matchup, at most ``DEFAULT_CARD_GAMES``. Found by ``reports/sections.py``."""
    from reports.dicethrone_cards import DEFAULT_CARD_GAMES, card_value_section

    from reports.dicethrone_modes import DEFAULT_FFA_GAMES, DEFAULT_SIX_GAMES, DEFAULT_TEAM_GAMES, modes_section

    roster, keys = _roster(result)
    n = int(result.extra.get("section_games") or min(DEFAULT_CARD_GAMES, int(result.games)))
    out = list(roster_sections(result)) + list(sections(result))
    # the mode section (2v2 compositions need four heroes, 3v3 and 2v2v2 six): --section-games N
    # games a seating (0: none), else the report's games per pair / 125 (the default 5,000: 40),
    # at most each mode's default
    sg = result.extra.get("section_games")
    m = int(sg) if sg is not None else max(1, int(result.games) // 125)
    if len(keys) >= 4 and m > 0:
        out.append(modes_section(result.seed, result.rules, roster, list(keys), min(m, DEFAULT_TEAM_GAMES),
                                 min(m, DEFAULT_FFA_GAMES),
                                 six_games={k: min(m, v) for k, v in DEFAULT_SIX_GAMES.items()}))
    if len(keys) == 2:
        return out + [card_value_section(n, result.seed, ("greedy", "greedy"), result.rules, roster=roster,
                                         heroes=tuple(keys))]

    def cards_note(page) -> None:
        page.heading("What each card is worth")
        page.paragraph(f"Card values are per matchup ({len(keys)} heroes here): playtest dicethrone card-value "
                       "--hero A --vs B plays one pair.")
    return out + [cards_note]
