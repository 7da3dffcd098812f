"""The Dice Throne report's mode section (issue 31): the roster in 2v2 (every composition of
two teams of two: each team against the field, pair synergy, the heroes, the turn order) and
in four-player free-for-all (every table of four: each hero's places), ``greedy`` in every
seat, in the report's seed and rules (the mode's own options at their defaults unless the
report's ``--set`` changed them). The same plays as ``playtest dicethrone teams --all`` and
``playtest dicethrone ffa --all 4`` (``strategies/dicethrone/seatings.py``), at smaller counts."""
from __future__ import annotations

DEFAULT_TEAM_GAMES = 40     # per seating of a 2v2 composition (8 seatings): 67,200 games over 8 heroes
DEFAULT_FFA_GAMES = 60      # per rotation of a four-player table (4 rotations): 16,800 games over 8 heroes


def mode_results(names, seed: int, rules: dict, roster, team_games: int = DEFAULT_TEAM_GAMES,
                 ffa_games: int = DEFAULT_FFA_GAMES, reps: int = 300) -> dict:
    """The section's tables (pandas DataFrames) and counts."""
    import itertools
    import time

    import numpy as np

    from analysis.modes import hero_table, order_table, placement_table, synergy_table, team_table
    from simcore.dicethrone import model as M
    from strategies.dicethrone.seatings import compositions, play_ffa, play_teams

    out = {"team_games": team_games, "ffa_games": ffa_games}
    r2 = dict(rules, mode="2v2")
    M.validate_rules(r2, "the report's rules (mode 2v2)")
    t0 = time.perf_counter()
    comps = compositions(sorted(names), 2, 2)
    parts = [play_teams(c, team_games, seed, ("greedy", "greedy"), r2, roster) for c in comps]
    rec = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    tt = team_table(rec, names)
    out["field"] = tt[tt["opponents"] == "field"].sort_values("score", ascending=False).reset_index(drop=True)
    out["synergy"] = synergy_table(rec, names, reps=reps, seed=seed)
    out["heroes"] = hero_table(rec, names)
    out["order"], out["order_test"] = order_table(rec)
    out["team_total"], out["team_capped"] = len(rec["winner"]), int(rec["capped"].sum())
    out["compositions"] = len(comps)
    out["team_seconds"] = time.perf_counter() - t0
    r4 = dict(rules, mode="ffa4")
    M.validate_rules(r4, "the report's rules (mode ffa4)")
    t0 = time.perf_counter()
    tables = [list(c) for c in itertools.combinations(names, 4)]
    rec = play_ffa(tables, ffa_games, seed, "greedy", r4, roster)
    out["placement"] = placement_table(rec, names, reps=reps, seed=seed)
    out["ffa_order"], out["ffa_order_test"] = order_table(rec)
    out["ffa_total"], out["ffa_capped"] = len(rec["winner"]), int(rec["capped"].sum())
    out["ffa_tables"] = len(tables)
    out["ffa_seconds"] = time.perf_counter() - t0
    return out


def mode_figure(res):
    """Each hero's 2v2 score (over its teams) and its share of free-for-all wins, against the
    even shares (50%, 25%), with 95% intervals."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    h = res["heroes"].set_index("hero")
    p = res["placement"].set_index("hero")
    order = list(h.sort_values("score").index)
    fig, axes = plt.subplots(1, 2, figsize=(8, 0.35 * len(order) + 1.4), sharey=True)
    for ax, col, lo, hi, even, title in ((axes[0], h["score"], h["ci_low"], h["ci_high"], 0.5, "2v2: team score"),
                                         (axes[1], p["place1"], p["place1_low"], p["place1_high"], 0.25,
                                          "free-for-all (4): 1st place")):
        y = range(len(order))
        v = [100 * col[k] for k in order]
        err = [[100 * (col[k] - lo[k]) for k in order], [100 * (hi[k] - col[k]) for k in order]]
        ax.barh(list(y), v, xerr=err, color="#4C72B0", capsize=2)
        ax.axvline(100 * even, color="grey", lw=0.8, ls="--")
        ax.set_title(title, fontsize=9)
        ax.set_xlabel("% (95% interval; dashed: even share)", fontsize=8)
    axes[0].set_yticks(list(range(len(order))))
    axes[0].set_yticklabels(order, fontsize=8)
    fig.tight_layout()
    return fig


def modes_section(seed: int, rules: dict, roster, names, team_games: int = DEFAULT_TEAM_GAMES,
                  ffa_games: int = DEFAULT_FFA_GAMES, res=None):
    """A report section (played when the page is built unless ``res`` is given)."""

    def section(page) -> None:
        d = res if res is not None else mode_results(names, seed, rules, roster, team_games, ffa_games)
        page.heading("Team games and free-for-all")
        page.paragraph(
            f"The roster in 2v2 (one health pool of {rules['team_start_hp']} a team, the targeting roll, collateral to "
            f"every opposing hero) and in four-player free-for-all ({rules['ffa_start_hp']} health each, "
            f"{'King of the Hill: the attacker picks its target and draws a card for a leader' if rules['ffa_targeting'] == 'free' else 'the neighbour roll'}"
            f"), greedy in every seat (simcore/dicethrone/modes/DESIGN.md gives each rule's source). 2v2: every "
            f"composition of two teams of two different heroes ({d['compositions']}), each in its 8 seatings "
            f"({d['team_games']} a seating) on common seeds ({d['team_total']:,} games, {d['team_capped']} capped "
            f"and left out; {d['team_seconds']:.0f} s). Free-for-all: every table of four ({d['ffa_tables']}), each "
            f"rotation ({d['ffa_games']} a rotation) on common seeds ({d['ffa_total']:,} games, {d['ffa_capped']} capped; "
            f"{d['ffa_seconds']:.0f} s). A draw counts half (2v2); seats out together split the places they span "
            f"(free-for-all). playtest dicethrone teams --all and ffa --all 4 play the same at any count.")
        page.figure(mode_figure(d), "modes",
                    caption="Each hero's 2v2 score over its teams and its share of free-for-all wins, 95% intervals.")
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
        page.paragraph("Free-for-all (four players), each hero by its mean place (1st = its win rate; even share 25%):")
        cols = ["hero", "place1", "place1_low", "place1_high", "place2", "place3", "place4", "mean_place",
                "mean_place_low", "mean_place_high", "n"]
        page.table(d["placement"][cols])
        o = d["ffa_order"]
        page.paragraph("Free-for-all turn order, the share of wins of the seat moving 1st..4th: " + ", ".join(
            f"{100 * s:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]" for s, lo, hi in zip(o["score"], o["ci_low"], o["ci_high"]))
            + f" (chi-square {d['ffa_order_test']['chi2']:.1f}, p = {d['ffa_order_test']['p_value']:.2g}).")

    return section
