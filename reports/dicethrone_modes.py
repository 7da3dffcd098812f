"""The Dice Throne report's mode section (issue 31): the roster in 2v2 (every composition of
two teams of two: each team against the field, pair synergy, the heroes, the turn order), in
3v3 and in three teams of two (2v2v2: every composition; the heroes, the best and worst teams,
the turn order; with six heroes or more) and in four-player free-for-all (every table of four:
each hero's places), ``greedy`` in every seat, in the report's seed and rules (the mode's own
options at their defaults unless the report's ``--set`` changed them). The same plays as
``playtest dicethrone teams --all`` (with ``--set mode=3v3`` / ``mode=2v2v2``) and ``playtest
dicethrone ffa --all 4`` (``strategies/dicethrone/seatings.py``), at smaller counts."""
from __future__ import annotations

DEFAULT_TEAM_GAMES = 40     # per seating of a 2v2 composition (8 seatings): 67,200 games over 8 heroes
DEFAULT_FFA_GAMES = 60      # per rotation of a four-player table (4 rotations): 16,800 games over 8 heroes
# per seating of a composition of the six-seat team modes, over 8 heroes: 3v3 280 compositions x 18
# seatings x 4 = 20,160 games; 2v2v2 420 compositions x 48 seatings x 2 = 40,320 games
DEFAULT_SIX_GAMES = {"3v3": 4, "2v2v2": 2}
SIX_MODES = ("3v3", "2v2v2")


def _team_mode(mode: str, comps, seed: int, rules: dict, roster, games: int) -> tuple[dict, dict]:
    """Every composition of ``comps`` in every seating of ``mode``, ``games`` games a seating,
    greedy in every seat: ``(records, tables)``, the tables those of every team mode (the
    heroes, the teams against the field, the turn order) and the counts."""
    import time

    import numpy as np

    from analysis.modes import hero_table, order_table, team_table
    from simcore.dicethrone import model as M
    from strategies.dicethrone.seatings import MODE_SHAPE, play_teams, seatings_of

    r = dict(rules, mode=mode)
    M.validate_rules(r, f"the report's rules (mode {mode})")
    T, k = MODE_SHAPE[mode]
    t0 = time.perf_counter()
    parts = [play_teams(c, games, seed, ("greedy",) * T, r, roster) for c in comps]
    rec = {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}
    labels = list(roster.names)       # the records hold roster indices
    tt = team_table(rec, labels)
    field = tt[tt["opponents"] == "field"].sort_values("score", ascending=False).reset_index(drop=True)
    order, test = order_table(rec)
    return rec, {"mode": mode, "teams": T, "size": k, "games": games, "seatings": seatings_of(mode),
                 "compositions": len(comps), "total": len(rec["winner"]), "capped": int(rec["capped"].sum()),
                 "heroes": hero_table(rec, labels), "field": field, "order": order, "order_test": test,
                 "seconds": time.perf_counter() - t0}


def mode_results(names, seed: int, rules: dict, roster, team_games: int = DEFAULT_TEAM_GAMES,
                 ffa_games: int = DEFAULT_FFA_GAMES, reps: int = 300, six_games: dict | None = None) -> dict:
    """The section's tables (pandas DataFrames) and counts; ``six_games``: games a seating of
    each six-seat mode (default ``DEFAULT_SIX_GAMES``; 0 leaves a mode out), played with six
    heroes or more."""
    import itertools
    import time

    from analysis.modes import order_table, placement_table, synergy_table
    from simcore.dicethrone import model as M
    from strategies.dicethrone.seatings import compositions, mode_tables, play_ffa

    out = {"team_games": team_games, "ffa_games": ffa_games}
    labels = list(roster.names)       # the records hold roster indices; ``names``: the heroes played
    rec, two = _team_mode("2v2", compositions(sorted(names), 2, 2), seed, rules, roster, team_games)
    out.update({"field": two["field"], "heroes": two["heroes"], "order": two["order"],
                "order_test": two["order_test"], "team_total": two["total"], "team_capped": two["capped"],
                "compositions": two["compositions"], "team_seconds": two["seconds"]})
    out["synergy"] = synergy_table(rec, labels, reps=reps, seed=seed)
    six_games = dict(DEFAULT_SIX_GAMES) if six_games is None else six_games
    # a six-seat mode's compositions grouped by hero set: each set's matchup tables built once
    out["six"] = [_team_mode(m, mode_tables(m, names), seed, rules, roster, six_games[m])[1] for m in SIX_MODES
                  if len(names) >= 6 and six_games.get(m, 0) > 0]
    r4 = dict(rules, mode="ffa4")
    M.validate_rules(r4, "the report's rules (mode ffa4)")
    t0 = time.perf_counter()
    tables = [list(c) for c in itertools.combinations(names, 4)]
    rec = play_ffa(tables, ffa_games, seed, "greedy", r4, roster)
    out["placement"] = placement_table(rec, labels, reps=reps, seed=seed)
    out["ffa_order"], out["ffa_order_test"] = order_table(rec)
    out["ffa_total"], out["ffa_capped"] = len(rec["winner"]), int(rec["capped"].sum())
    out["ffa_tables"] = len(tables)
    out["ffa_seconds"] = time.perf_counter() - t0
    return out


def mode_figure(res):
    """Each hero's team score in 2v2 (and in 3v3 and 2v2v2 when played, over its teams) and its
    share of free-for-all wins, against the even shares (50%, 50%, 33.3%, 25%), with 95%
    intervals."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    h = res["heroes"].set_index("hero")
    p = res["placement"].set_index("hero")
    order = list(h.sort_values("score").index)
    panels = [(h["score"], h["ci_low"], h["ci_high"], 0.5, "2v2: team score")]
    for six in res.get("six", []):
        s = six["heroes"].set_index("hero")
        panels.append((s["score"], s["ci_low"], s["ci_high"], 1 / six["teams"], f"{six['mode']}: team score"))
    panels.append((p["place1"], p["place1_low"], p["place1_high"], 0.25, "free-for-all (4): 1st place"))
    fig, axes = plt.subplots(1, len(panels), figsize=(3.3 * len(panels) + 1.2, 0.35 * len(order) + 1.4), sharey=True)
    for ax, (col, lo, hi, even, title) in zip(axes, panels):
        y = range(len(order))
        v = [100 * col[k] for k in order]
        err = [[100 * (col[k] - lo[k]) for k in order], [100 * (hi[k] - col[k]) for k in order]]
        ax.barh(list(y), v, xerr=err, color="#4C72B0", capsize=2)
        ax.axvline(100 * even, color="grey", lw=0.8, ls="--")
        ax.set_title(title, fontsize=9)
        ax.set_xlabel("% (95% interval;\ndashed: even share)", fontsize=8)
    axes[0].set_yticks(list(range(len(order))))
    axes[0].set_yticklabels(order, fontsize=8)
    fig.tight_layout()
    return fig


def _ordinal(k: int) -> str:
    return f"{k}{'th' if 10 <= k % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(k % 10, 'th')}"


def _ordered_rates(order) -> str:
    """``1st 52.9% [52.3, 53.6], 2nd ...``: an ``order_table``'s scores by turn position."""
    return ", ".join(f"{_ordinal(k)} {100 * s:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"
                     for k, s, lo, hi in zip(order["order"], order["score"], order["ci_low"], order["ci_high"]))


def _order_line(order, test, what: str) -> str:
    """Each team's score by when its first seat moves (``analysis.modes.order_table``)."""
    return (f"{what} turn order, each team's score by when its first seat moves: {_ordered_rates(order)} "
            f"(even share {100 / len(order):.1f}%; chi-square {test['chi2']:.1f}, p = {test['p_value']:.2g}).")


def modes_section(seed: int, rules: dict, roster, names, team_games: int = DEFAULT_TEAM_GAMES,
                  ffa_games: int = DEFAULT_FFA_GAMES, res=None, six_games: dict | None = None):
    """A report section (played when the page is built unless ``res`` is given)."""

    def section(page) -> None:
        d = res if res is not None else mode_results(names, seed, rules, roster, team_games, ffa_games,
                                                     six_games=six_games)
        six = d.get("six", [])
        six_text = "".join(
            f" {s['mode']}: every composition of {s['teams']} teams of {s['size']} different heroes "
            f"({s['compositions']}), each in its {s['seatings']} seatings ({s['games']} a seating; {s['total']:,} "
            f"games, {s['capped']} capped and left out; {s['seconds']:.0f} s)." for s in six)
        page.heading("Team games and free-for-all")
        page.paragraph(
            f"The roster in 2v2{', 3v3, 2v2v2' if six else ''} (one health pool of {rules['team_start_hp']} a team, "
            f"the targeting roll, collateral to every opposing hero, each of whom may prevent its portion"
            f"{'' if rules['collateral_preventable'] else ' (here not: collateral_preventable = false)'}) and in "
            f"four-player free-for-all ({rules['ffa_start_hp']} health each, "
            f"{'King of the Hill: the attacker picks its target and draws a card for a leader' if rules['ffa_targeting'] == 'free' else 'the neighbour roll'}"
            f"), greedy in every seat (simcore/dicethrone/modes/DESIGN.md gives each rule's source). 2v2: every "
            f"composition of two teams of two different heroes ({d['compositions']}), each in its 8 seatings "
            f"({d['team_games']} a seating) on common seeds ({d['team_total']:,} games, {d['team_capped']} capped "
            f"and left out; {d['team_seconds']:.0f} s).{six_text} Free-for-all: every table of four "
            f"({d['ffa_tables']}), each rotation ({d['ffa_games']} a rotation) on common seeds ({d['ffa_total']:,} "
            f"games, {d['ffa_capped']} capped; {d['ffa_seconds']:.0f} s). A draw splits 1st place among the teams that "
            f"went out together last; seats out together split the places they span (free-for-all). playtest dicethrone teams --all "
            f"(--set mode=3v3, mode=2v2v2) and ffa --all 4 play the same at any count.")
        page.figure(mode_figure(d), "modes",
                    caption="Each hero's team score over its teams in each team mode and its share of "
                            "free-for-all wins, 95% intervals.")
        page.paragraph("2v2 teams against the field (each composition both ways):")
        page.table(d["field"][["team", "score", "ci_low", "ci_high", "n"]])
        page.paragraph("Pair synergy: the pair's score against what its heroes' strengths add up to (the residual "
                       "of an additive logit model; raw: against its heroes' scores with other partners), "
                       "cluster-bootstrap intervals over compositions:")
        page.table(d["synergy"][["pair", "synergy", "ci_low", "ci_high", "raw", "raw_low", "raw_high", "n"]])
        page.paragraph("2v2 heroes (their team's score over their games; their share of the team's damage):")
        page.table(d["heroes"][["hero", "score", "ci_low", "ci_high", "n", "damage_share"]])
        t = d["order_test"]
        page.paragraph(f"2v2 turn order: the team moving first scores {100 * d['order']['score'][0]:.1f}% "
                       f"[{100 * d['order']['ci_low'][0]:.1f}, {100 * d['order']['ci_high'][0]:.1f}] "
                       f"(chi-square {t['chi2']:.1f}, p = {t['p_value']:.2g}).")
        for s in six:
            even = 100 / s["teams"]
            page.paragraph(f"{s['mode']} heroes (their team's score over their games, even share {even:.1f}%; "
                           f"their share of the team's damage):")
            page.table(s["heroes"][["hero", "score", "ci_low", "ci_high", "n", "damage_share"]])
            f = s["field"]
            best = f.head(5)
            worst = f.tail(5).iloc[::-1]
            page.paragraph(f"{s['mode']}: the five best and the five worst of its {len(f)} teams against the field:")
            page.table(best[["team", "score", "ci_low", "ci_high", "n"]])
            page.table(worst[["team", "score", "ci_low", "ci_high", "n"]])
            page.paragraph(_order_line(s["order"], s["order_test"], s["mode"]))
        page.paragraph("Free-for-all (four players), each hero by its mean place (1st = its win rate; even share 25%):")
        cols = ["hero", "place1", "place1_low", "place1_high", "place2", "place3", "place4", "mean_place",
                "mean_place_low", "mean_place_high", "n"]
        page.table(d["placement"][cols])
        o = d["ffa_order"]
        page.paragraph(f"Free-for-all turn order, the share of wins of the seat moving: {_ordered_rates(o)} "
                       f"(chi-square {d['ffa_order_test']['chi2']:.1f}, p = {d['ffa_order_test']['p_value']:.2g}).")

    return section
