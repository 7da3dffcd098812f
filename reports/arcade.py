"""Throne Arcade's own report sections (``reports/sections.py``), by player count 2-6:

- win rate by starting seat, seats rotated so every strategy sits in every seat
  (``analysis.runs.lineups_for``: each ordered pair of strategies, one in a seat and the
  other in the rest, the first moved through every seat);
- how long games and rounds last, elimination order (finishing place by seat), the
  catch-up question and how often the skull VII revives (``analysis.arcade``);
- what each special card does: the game replayed on the same seeds with one special card
  switched off or one of its numbers changed (``VARIANTS``; each row is what
  ``playtest arcade tune --option O --values BASE,V`` plays), the change in seat 1's win
  rate and in game length against the rules of the report, with intervals.

Every table is built from exact aggregates, so the game counts can be raised freely: the
sections play as many games a lineup as the report's run (``playtest report arcade -n N``,
default 1,000: ``GameAPI.report_plan``), at most ``GAMES``, and twice that a variant (call
``collect`` for more), which keeps the default
report to a few minutes on two cores (about 24,000 games of the main run, 40,000 of the
tournaments and 100,000 of the variants).
"""
from __future__ import annotations

import pandas as pd

from analysis import arcade as A
from analysis.runs import fmt_rate

PLAYERS = (2, 3, 4, 5, 6)
STRATEGIES = ("greedy", "defensive")   # fast enough for every player count; random in the main run
GAMES = 1000                            # games per matchup of the tournaments (when collect() is called alone)
ABLATION_GAMES = 2000                   # games per variant and player count (greedy in every seat)
# (option, value, what it means); the baseline is the report's rules
VARIANTS = (
    ("special_vii", False, "VII draws nothing"),
    ("special_green_lord", False, "green Lord draws nothing"),
    ("special_other_lords", True, "other Lords draw too"),
    ("draw_per_card", 2, "draw 2 per card instead of 3"),
    ("special_ace", False, "Ace skips nobody"),
    ("skip_per_card", 2, "each Ace skips 2"),
    ("special_hand", False, "Hand names no suit"),
    ("special_skull", False, "skull VII revives nobody"),
    ("revive_draw", 2, "revived player draws 2"),
)


def _run(rules, players, plan, games, seed):
    from analysis.runs import run
    from simcore.game import get_game

    api = get_game("arcade")
    content = api.load_content(rules)
    setup = api.make_setup(rules, content, players)
    return run("arcade", setup, api.entrant_names(content), plan, games, seed, rules, api.load_rules())


def collect(rules: dict, seed: int, players=PLAYERS, games: int = GAMES, ablation_games: int = ABLATION_GAMES,
            strategies=STRATEGIES, variants=VARIANTS) -> dict:
    """Play everything the sections show: per player count, the rotated tournament's
    pooled aggregate, and the greedy baseline and each variant's aggregate."""
    from analysis.runs import lineups_for
    from simcore.game import get_game

    api = get_game("arcade")
    out = {"tournament": {}, "ablation": {}, "seed": seed, "games": games, "ablation_games": ablation_games,
           "strategies": list(strategies), "variants": list(variants)}
    for P in players:
        plan = lineups_for("arcade", 0, P, list(strategies))
        out["tournament"][P] = _run(rules, P, plan, games, seed).pooled()
        mirror = [(tuple(range(P)), ("greedy",) * P)]
        base = _run(rules, P, mirror, ablation_games, seed).pooled()
        rows = {}
        for opt, val, _ in variants:
            if rules.get(opt) == val:
                continue
            vr = api.load_rules(None, {**{k: v for k, v in rules.items() if api.load_rules().get(k) != v}, opt: val})
            rows[(opt, val)] = _run(vr, P, mirror, ablation_games, seed).pooled()
        out["ablation"][P] = (base, rows)
    return out


def _r(m, pct=True):
    if m.get("x") is None:
        return "n/a"
    if pct:
        return fmt_rate(m["x"], m["x_ci"])
    return f"{m['x']:.2f} [{m['x_ci'][0]:.2f}, {m['x_ci'][1]:.2f}]"


def _pts(m):
    if m.get("x") is None:
        return "n/a"
    return f"{100 * m['x']:+.1f} [{100 * m['x_ci'][0]:+.1f}, {100 * m['x_ci'][1]:+.1f}]"


def _num(m, digits=1):
    if m.get("x") is None:
        return "n/a"
    f = f"{{:+.{digits}f}}"
    return f"{f.format(m['x'])} [{f.format(m['x_ci'][0])}, {f.format(m['x_ci'][1])}]"


def _x(m, digits=1):
    return "n/a" if m.get("x") is None else f"{m['x']:.{digits}f}"


def seat_table(data) -> pd.DataFrame:
    rows = []
    for P, agg in data["tournament"].items():
        row = {"players": P, "games": f"{agg.games:,}", "even share": f"{100 / P:.1f}%"}
        for s, r in enumerate(A.seat_rates(agg)):
            row[f"seat {s + 1}"] = _r(r)
        row["capped"] = f"{agg.capped:,}"
        rows.append(row)
    df = pd.DataFrame(rows).fillna("")
    seats = [c for c in df.columns if c.startswith("seat ")]
    return df[["players", "games", "even share"] + seats + ["capped"]]


def length_table(data) -> pd.DataFrame:
    """Over the finished games (their n beside, the capped games apart): means, the median
    and the 5th-95th percentiles of turns."""
    rows = []
    for P, agg in data["tournament"].items():
        L = A.lengths(agg)
        a = L["turns"]
        rows.append({"players": P, "finished games (n)": f"{L['finished']:,}", "capped": f"{L['capped']:,}",
                     "turns per game": _r(L["turns"], pct=False),
                     "rounds per game": _r(L["rounds"], pct=False),
                     "turns per round": "n/a" if L["turns_per_round"] is None else f"{L['turns_per_round']:.1f}",
                     "turns of the last round": ("n/a" if L["last_round_turns"] is None
                                                 else f"{L['last_round_turns']:.1f}"),
                     "median turns": "n/a" if a.get("median") is None else f"{a['median']:.0f}",
                     "5th-95th percentile of turns": ("n/a" if a.get("p5") is None
                                                      else f"{a['p5']:.0f}-{a['p95']:.0f}")})
    return pd.DataFrame(rows)


def place_table(data) -> pd.DataFrame:
    rows = []
    for P, agg in data["tournament"].items():
        for r in A.places(agg):
            row = {"players": P, "seat": r["seat"] + 1, "finished games (n)": f"{r['games']:,}",
                   "mean place": _r(r["mean_place"], pct=False)}
            for k, (x, ci) in enumerate(zip(r["share"], r["share_ci"])):
                label = "winner" if k == 0 else ("out first" if k == P - 1 else f"place {k + 1}")
                row[label] = "n/a" if x is None else fmt_rate(x, ci)
            rows.append(row)
    cols = (["players", "seat", "finished games (n)", "winner"] + [f"place {k}" for k in range(2, 6)]
            + ["out first", "mean place"])
    df = pd.DataFrame(rows)
    return df[[c for c in cols if c in df.columns]].fillna("")


def catch_up_table(data) -> pd.DataFrame:
    rows = []
    for P, agg in data["tournament"].items():
        c = A.catch_up(agg)
        rows.append({"players": P, "finished games": f"{c['games']:,}", "even share": f"{100 * c['even']:.1f}%",
                     "loser of round 1 wins": _r(c["loser"]), "each other player wins": _r(c["others"]),
                     "difference, points": _pts(c["edge"]), "first out of round 1 wins": _r(c["first_out"])})
    return pd.DataFrame(rows)


def revive_table(data) -> pd.DataFrame:
    rows = []
    for P, agg in data["tournament"].items():
        r = A.revives(agg)
        rows.append({"players": P, "finished games (n)": f"{r['finished']:,}", "capped (not in n)": f"{r['capped']:,}",
                     "games with a revival": _r(r["games_with_revive"]),
                     "revivals per game": _r(r["per_game"], pct=False),
                     "revivals per round": f"{r['per_round']:.3f}" if r["per_round"] is not None else "n/a"})
    return pd.DataFrame(rows)


def ablation_table(data) -> pd.DataFrame:
    labels = {(o, v): what for o, v, what in data["variants"]}
    rows = []
    for P, (base, variants) in data["ablation"].items():
        b = A.variant_change(base, base)
        rows.append({"players": P, "variant": "baseline (the report's rules)", "seat 1 wins": _r(b["seat1"]),
                     "change, points": "", "turns per game": _x(b["turns"]), "change in turns": "",
                     "rounds per game": _x(b["rounds"], 2), "change in rounds": "", "capped": f"{b['capped']:,}"})
        for key, agg in variants.items():
            c = A.variant_change(agg, base)
            # lengths are of the finished games: a change where either run had capped games
            # compares games that finished under both rules, which the cap may have sorted
            cut = " (finished games only)" if c["capped"] or b["capped"] else ""
            rows.append({"players": P, "variant": f"{labels[key]} ({key[0]} = {str(key[1]).lower()})",
                         "seat 1 wins": _r(c["seat1"]), "change, points": _pts(c["seat1_change"]),
                         "turns per game": _x(c["turns"]), "change in turns": _num(c["turns_change"]) + cut,
                         "rounds per game": _x(c["rounds"], 2),
                         "change in rounds": _num(c["rounds_change"], 2) + cut, "capped": f"{c['capped']:,}"})
    return pd.DataFrame(rows)


def sections(res, data: dict | None = None) -> list:
    """The report's arcade sections for the run ``res`` (its rules and seed)."""
    box = {"data": data}

    def get():
        if box["data"] is None:
            n = min(res.games, GAMES)   # a big run (a fix proof, -n 20000) does not multiply 140-fold here
            box["data"] = collect(res.rules, res.seed, games=n, ablation_games=2 * n)
        return box["data"]

    def by_players(page) -> None:
        d = get()
        strat = " and ".join(d["strategies"])
        page.heading("By player count: seats")
        page.paragraph(f"Win rate by seat (seat 1 starts round 1) for 2 to 6 players: {strat}, each in one seat "
                       f"against the other in the rest, moved through every seat ({d['games']:,} games a "
                       "lineup, seed {0}); Wilson 95% intervals. Games ended by a cap are counted apart.".format(d["seed"]))
        page.table(seat_table(d))
        page.heading("By player count: how long games and rounds last")
        page.paragraph("Turns (one seat's lay or draw) and rounds per game with 95% intervals, turns per round "
                       "(all turns over all rounds), turns of the last round and the median and 5th-95th "
                       "percentiles of turns, over the finished games of the same lineups (n beside): a game "
                       "ended by a cap stops at the cap, so it is left out and counted in the 'capped' column.")
        page.table(length_table(d))
        page.heading("Elimination order")
        page.paragraph("Each seat's finishing place over the finished games (n beside; capped games have no "
                       "places): the winner, then the seats in reverse order of elimination (the last column is "
                       "the first seat eliminated), each share with its Wilson 95% interval; mean place with its "
                       "95% interval (1 = winner).")
        page.table(place_table(d))
        page.heading("Catch-up: does losing round 1 help or hurt?")
        page.paragraph("The loser of round 1 is dealt one card fewer, deals and starts round 2. Its win rate "
                       "against that of each player who did not lose round 1 (one winner per finished game, "
                       "so theirs is (1 - loser's) / (P - 1), with the image of the loser's interval), and the "
                       "first player out of round 1's win rate. Wilson 95% intervals.")
        page.table(catch_up_table(d))
        page.heading("The skull VII")
        page.paragraph("How often the skull VII brings back the player who went out on the previous turn: "
                       "share of games with at least one revival (Wilson), revivals per game (t interval), "
                       "revivals per round; over the finished games (a capped game stops at the cap).")
        page.table(revive_table(d))

    def ablation(page) -> None:
        d = get()
        page.heading("What each special card does")
        page.paragraph(f"Greedy in every seat, {d['ablation_games']:,} games per row on the same seeds "
                       f"(seed {d['seed']}): the report's rules, then each special card switched off or one of its "
                       "numbers changed. Seat 1 starts round 1; its win rate above the even share is the seat "
                       "advantage. Changes are against the baseline of the same player count, with 95% "
                       "intervals that treat the two runs as independent (Newcombe for rates, normal for "
                       "means): the common seeds make them conservative. Turns and rounds are of the finished "
                       "games (a capped game stops at the cap; 'capped' counts them), and a change where either "
                       "run had capped games says so. One row: "
                       "playtest arcade tune --option draw_per_card --values 3,2 -p 4 -n "
                       f"{d['ablation_games']} --seed {d['seed']}.")
        page.table(ablation_table(d))

    return [by_players, ablation]
