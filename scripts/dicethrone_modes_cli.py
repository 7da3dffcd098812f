"""The Dice Throne team and free-for-all tables as the CLI plays them (issue 31): one place
for what ``playtest dicethrone teams``, ``ffa``, and the shared ``run`` and ``matchups``
under ``--set mode=...`` (``mode_verb``) play and print.

* :func:`team_result`: team tables (2v2, 3v3, 2v2v2), one or every composition of a pool,
  every seating on common seeds (``strategies/dicethrone/seatings.py``): each team's score
  against the other(s) and against the field, pair synergy (teams of two), the heroes and
  the turn order, every rate with its 95% interval and n;
* :func:`ffa_result`: free-for-all tables, one or every table of K heroes: each hero's
  places and the turn order;
* :func:`emit`: the document as JSON or text, and ``--out DIR`` as tables (CSV, Parquet and
  ``run.json``, as a shared run writes them).
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Optional

import typer

from simcore.errors import PlaytestError

from strategies.dicethrone.seatings import MODE_SHAPE, seatings_of  # noqa: E402  ((teams, heroes a team) per team mode)

TEAM_MODE_NAMES = tuple(MODE_SHAPE)


def hero_id(roster, name: str, field: str) -> str:
    from simcore.duel.model import find_hero  # the one hero-name matcher

    return roster.names[find_hero(roster.heroes, name, field)]


def parse_teams(roster, team: str, vs: str) -> list:
    """``--team A,B`` and ``--vs C,D`` (several opposing teams separated by ``/``: ``C,D/E,F``)
    as hero-key tuples, the first team first."""
    out = []
    for field, text in (("--team", team), ("--vs", vs)):
        for part in text.split("/"):
            names = [x.strip() for x in part.split(",") if x.strip()]
            if not names:
                raise PlaytestError(f"a team is heroes separated by commas (teams by '/'), got {text!r}", field=field)
            out.append(tuple(hero_id(roster, x, field) for x in names))
    return out


def mode_of_teams(teams: list, sets: dict) -> str:
    """The team mode the teams make, checked against ``--set mode`` if given."""
    from strategies.dicethrone.seatings import team_mode

    mode = team_mode(teams)
    if sets.get("mode", mode) != mode:
        raise PlaytestError(f"these teams play mode {mode}, not {sets['mode']}", field="--set")
    return mode


def team_result(comps: list, n: int, seed: int, side: tuple, rules: dict, roster, reps: int = 1000,
                pool: Optional[list] = None, search: Optional[dict] = None) -> dict:
    """Play every seating of every composition of ``comps`` (tuples of teams; one, or
    ``pool``'s every composition) ``n`` games each and return the document (tables as
    DataFrames under ``_frames``)."""
    import numpy as np

    from analysis.modes import hero_table, order_table, synergy_table, team_table
    from strategies.dicethrone.seatings import play_teams

    mode = rules["mode"]
    T, k = MODE_SHAPE[mode]
    names = list(roster.names)
    t0 = time.perf_counter()
    parts = []
    for i, comp in enumerate(comps):
        parts.append(play_teams(comp, n, seed, side, rules, roster, **(search or {})))
        if len(comps) > 1 and (i + 1) % max(1, len(comps) // 10) == 0 and sys.stderr.isatty():
            print(f"  {i + 1}/{len(comps)} compositions played ({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
    rec = {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}
    secs = time.perf_counter() - t0
    tt = team_table(rec, names)       # empty for a mirror (the same team on every side)
    ht = hero_table(rec, names)
    ot, test = order_table(rec)
    total = len(rec["winner"])
    draws = int(((rec["winner"] < 0) & ~rec["capped"].astype(bool)).sum())
    capped = int(rec["capped"].sum())
    field = tt[tt["opponents"] == "field"].reset_index(drop=True) if len(tt) else tt
    pairs = tt[tt["opponents"] != "field"].reset_index(drop=True) if len(tt) else tt
    # pair synergy needs teams of two (in 3v3 a team is three heroes: no pair plays alone)
    syn = synergy_table(rec, names, reps=reps, seed=seed) if pool is not None and k == 2 else None
    doc = {"mode": mode, "strategies": list(side), "seed": seed, "games": total, "games_per_seating": n,
           "seatings": seatings_of(mode), "compositions": len(comps), "draws": draws, "capped": capped,
           "seconds": round(secs, 2),
           "interval": "95% Wilson; a team's score is its share of 1st place (a draw splits it among the teams that went out together last: half each in 2v2 and 3v3); synergy: cluster "
                       "bootstrap over compositions",
           "teams": pairs.to_dict(orient="records"), "heroes": ht.to_dict(orient="records"),
           "turn_order": ot.to_dict(orient="records"), "turn_order_test": test}
    frames = {"teams": pairs, "heroes": ht, "turn_order": ot}
    if pool is not None:
        doc.update({"pool": list(pool), "team_vs_field": field.to_dict(orient="records"),
                    "widest_half_width": float(((pairs["ci_high"] - pairs["ci_low"]) / 2).max())})
        frames["team_vs_field"] = field
        if syn is not None:
            doc["synergy"] = syn.to_dict(orient="records")
            frames["synergy"] = syn
    else:
        doc.update({"team": list(comps[0][0]), "vs": [list(t) for t in comps[0][1:]]})
    if search:
        doc["param"] = dict(search)
    doc["_frames"] = frames
    doc["_text"] = _team_text(doc, field, pairs, syn, ht, ot, test, pool is not None)
    return doc


def _team_text(doc, field, pairs, syn, ht, ot, test, all_) -> list:
    side = doc["strategies"]
    mode = doc["mode"]
    T = len(ot)
    label = (side[0] if len(set(side)) == 1 else
             f"{side[0]} (first team) vs {side[1]}" if T == 2 else " vs ".join(side) + " (by team, first team first)")
    what = f"{doc['compositions']} compositions, " if all_ else ""
    # a team label's width: the longest label (28 for the eight heroes in pairs)
    w = max([28] + [len(x) for x in list(pairs.get("team", [])) + list(pairs.get("opponents", []))])
    L = [f"{mode} ({label}; {what}{doc['games']:,} games: {doc['games_per_seating']:,} in each of "
         f"{doc['seatings']} seatings, seed {doc['seed']}; {doc['draws']} draws, counted "
         f"{'half' if T == 2 else f'1/{T} to each team'}; {doc['capped']} capped, left out):"]
    if all_:
        L.append(f"Teams against the field (each composition {'both ways' if T == 2 else 'from every side'}; "
                 f"widest interval of a composition ±{100 * doc['widest_half_width']:.1f} points):")
        for x in field.sort_values("score", ascending=False).itertuples():
            L.append(f"  {x.team:{w}s} {100 * x.score:5.1f}% [{100 * x.ci_low:5.1f}, {100 * x.ci_high:5.1f}]  n={x.n:,}")
        if syn is not None:
            L.append("Pair synergy (the pair's score against what its heroes' strengths add up to, additive logit "
                     "model; raw: against its heroes' scores with other partners; points, 95%):")
            for x in syn.itertuples():
                L.append(f"  {x.pair:28s} {100 * x.synergy:+5.1f} [{100 * x.ci_low:+5.1f}, {100 * x.ci_high:+5.1f}]"
                         f"   raw {100 * x.raw:+5.1f} [{100 * x.raw_low:+5.1f}, {100 * x.raw_high:+5.1f}]  n={x.n:,}")
        else:
            L.append("Pair synergy: not measured in 3v3 (a team is three heroes: no pair plays without a third)")
    else:
        if not len(pairs):
            L.append("  the same team on every side: no team score (see the turn-order edge)")
        for x in (pairs.sort_values("score", ascending=False) if len(pairs) else pairs).itertuples():
            L.append(f"  {x.team:{w}s} vs {x.opponents:{w}s} {100 * x.score:5.1f}% [{100 * x.ci_low:5.1f}, "
                     f"{100 * x.ci_high:5.1f}]  n={x.n:,}")
    L.append("Heroes (their team's score over their games; share of the team's damage, mean [95%]):")
    if not (ht["n"] > 0).any():
        L.append("  every hero on more than one team: no hero score")
    for x in ht[ht["n"] > 0].itertuples():
        L.append(f"  {x.hero:28s} {100 * x.score:5.1f}% [{100 * x.ci_low:5.1f}, {100 * x.ci_high:5.1f}]  "
                 f"damage share {100 * x.damage_share:4.1f}% [{100 * x.damage_share_low:4.1f}, "
                 f"{100 * x.damage_share_high:4.1f}]")
    L.append("Turn order (the team that moves first or second, over both teams):" if T == 2 else
             "Turn order (the team that moves 1st, 2nd or 3rd, over every team):")
    for x in ot.itertuples():
        L.append(f"  moves {x.order}: {100 * x.score:5.1f}% [{100 * x.ci_low:5.1f}, {100 * x.ci_high:5.1f}]  "
                 f"n={x.n:,} (even share {100 * x.even_share:.0f}%)")
    L.append(f"  chi-square test of no turn-order edge: {test['chi2']:.2f}, p = {test['p_value']:.3g}")
    L.append(f"  {doc['games']:,} games in {doc['seconds']:.1f} s")
    return L


def ffa_result(tables: list, n: int, seed: int, strategy: str, rules: dict, roster, reps: int = 1000,
               every: bool = False, search: Optional[dict] = None) -> dict:
    """Play every rotation of every free-for-all table of ``tables`` ``n`` games each and
    return the document (``every``: the tables are every table of K heroes)."""
    from analysis.modes import order_table, placement_table
    from strategies.dicethrone.seatings import play_ffa

    names = list(roster.names)
    k = len(tables[0])
    mode = rules["mode"]
    t0 = time.perf_counter()
    rec = play_ffa(tables, n, seed, strategy, rules, roster, **(search or {}))
    secs = time.perf_counter() - t0
    pt = placement_table(rec, names, reps=reps, seed=seed)
    ot, test = order_table(rec)
    total = len(rec["winner"])
    capped = int(rec["capped"].sum())
    draws = int(((rec["winner"] < 0) & ~rec["capped"].astype(bool)).sum())
    doc = {"mode": mode, "heroes": names if every else list(tables[0]), "tables": len(tables), "strategy": strategy,
           "seed": seed, "games": total, "games_per_seating": n, "seatings": k, "draws": draws, "capped": capped,
           "seconds": round(secs, 2), "targeting": rules["ffa_targeting"], "leader_card": rules["koth_leader_card"],
           "start_hp": rules["ffa_start_hp"],
           "interval": "95% Wilson (place shares; a tie splits the places it spans); mean place: bootstrap over games",
           "placement": pt.to_dict(orient="records"), "turn_order": ot.to_dict(orient="records"),
           "turn_order_test": test}
    if search:
        doc["param"] = dict(search)
    doc["_frames"] = {"placement": pt, "turn_order": ot}
    what = f"{len(tables)} tables of {k} heroes, " if every else ""
    L = [f"{mode} ({strategy}; targeting {rules['ffa_targeting']}, leader card "
         f"{'on' if rules['koth_leader_card'] else 'off'}, {rules['ffa_start_hp']} health; {what}{total:,} games: "
         f"{n:,} in each of {k} seatings, seed {seed}; {draws} draws; {capped} capped, left out):",
         f"Heroes by mean place (1st = the win rate; even share {100 / k:.1f}%):"]
    for x in pt.itertuples():
        d = x._asdict()
        places = "  ".join(f"{j + 1}: {100 * d[f'place{j + 1}']:4.1f}%" for j in range(1, k))
        L.append(f"  {x.hero:14s} 1st {100 * x.place1:5.1f}% [{100 * x.place1_low:5.1f}, {100 * x.place1_high:5.1f}]  "
                 f"mean place {x.mean_place:.2f} [{x.mean_place_low:.2f}, {x.mean_place_high:.2f}]  n={x.n:,}  "
                 f"({places})")
    L.append("Turn order (the seat that moves 1st, 2nd, ...: its share of wins):")
    for x in ot.itertuples():
        L.append(f"  moves {x.order}: {100 * x.score:5.1f}% [{100 * x.ci_low:5.1f}, {100 * x.ci_high:5.1f}]  "
                 f"n={x.n:,} (even share {100 * x.even_share:.1f}%)")
    L.append(f"  chi-square test of no turn-order edge: {test['chi2']:.2f}, p = {test['p_value']:.3g}")
    L.append(f"  {total:,} games in {secs:.1f} s")
    doc["_text"] = L
    return doc


def emit(doc: dict, as_json: bool, out: Optional[Path] = None, command: Optional[str] = None) -> None:
    """Print the document (JSON, or its text lines) and, with ``out``, write its tables
    (``<name>.csv``/``.parquet``) and ``run.json`` (the rest of the document, the command)."""
    frames = doc.pop("_frames")
    text = doc.pop("_text")
    if out is not None:
        from analysis.io import write_tables

        meta = {k: v for k, v in doc.items() if k not in frames}
        meta["command"] = command or " ".join(["playtest"] + sys.argv[1:])
        write_tables(out, {k: v for k, v in frames.items() if len(v)}, json.loads(json.dumps(meta, default=float)))
    if as_json:
        typer.echo(json.dumps(doc, default=float))
        return
    for line in text:
        typer.echo(line)
    if out is not None:
        typer.echo(f"  tables in {out}")


def ffa_tables(roster, table: Optional[str], every: Optional[int]) -> list:
    """``--table A,B,C`` (one table; a hero may sit twice) or ``--all K`` (every table of K
    different heroes of the roster), checked: 3 to 6 heroes, each table's content loads."""
    import itertools

    names = list(roster.names)
    if (table is None) == (every is None):
        raise PlaytestError("give --table A,B,C... or --all K (not both)", field="--table")
    if every is not None:
        if not 3 <= every <= min(6, len(names)):
            raise PlaytestError(f"must be 3..{min(6, len(names))}, got {every}", field="--all")
        tables = [list(c) for c in itertools.combinations(names, every)]
    else:
        tables = [[hero_id(roster, x.strip(), "--table") for x in table.replace("/", ",").split(",") if x.strip()]]
    if not 3 <= len(tables[0]) <= 6:
        raise PlaytestError(f"free-for-all seats 3 to 6 heroes, got {len(tables[0])}", field="--table")
    for tb in tables:                                 # every table fits: checked before any game
        roster.content(tuple(dict.fromkeys(tb)))
    return tables


def team_comps(roster, team: Optional[str], vs: Optional[str], every: bool, pool: Optional[str], sets: dict,
               side_count_check=None) -> tuple[str, list, Optional[list]]:
    """``(mode, compositions, pool or None)`` of ``--team/--vs`` or ``--all [--pool]``,
    checked (each table's content loads) before any game."""
    from strategies.dicethrone.seatings import compositions

    names = list(roster.names)
    if every:
        if team is not None or vs is not None:
            raise PlaytestError("give --all or --team and --vs, not both", field="--all")
        mode = sets.get("mode", "2v2")
        if mode not in MODE_SHAPE:
            raise PlaytestError(f"--all plays a team mode ({', '.join(TEAM_MODE_NAMES)}), not {mode}", field="--set")
        T, k = MODE_SHAPE[mode]
        heroes_of = sorted(set(hero_id(roster, x.strip(), "--pool") for x in pool.split(",") if x.strip())
                           if pool else names)
        if len(heroes_of) < T * k:
            raise PlaytestError(f"{mode} needs at least {T * k} different heroes, got {len(heroes_of)}", field="--pool")
        comps = compositions(heroes_of, k, T)
        for c in comps:     # every table's content checked before any game
            roster.content(tuple(h for t in c for h in t))
        return mode, comps, heroes_of
    if team is None or vs is None:
        raise PlaytestError("give --team and --vs (teams of heroes), or --all", field="--team")
    if pool is not None:
        raise PlaytestError("--pool goes with --all", field="--pool")
    teams = parse_teams(roster, team, vs)
    mode = mode_of_teams(teams, sets)
    roster.content(tuple(dict.fromkeys(h for t in teams for h in t)))   # the table fits: checked first
    return mode, [tuple(teams)], None


def check_counts(games: int, seed: int, reps: int) -> tuple[int, int]:
    """``(games, seed)`` of the team and free-for-all verbs, checked with ``--reps``."""
    from analysis.runs import check_seed
    from simcore.errors import check_games

    if not 10 <= reps <= 100_000:
        raise PlaytestError(f"must be 10..100000, got {reps}", field="--reps")
    return check_games(games), check_seed(seed)


def check_strategies(side) -> None:
    """Every strategy of ``side`` exists (a plug-in compiles), before any game."""
    from simcore.game import get_game

    api = get_game("dicethrone")
    for s in dict.fromkeys(side):
        api.check_strategy(s)


# ------------------------------------------------------------------ run / matchups under a mode
def mode_verb(verb: str, ctx, opts: dict) -> bool:
    """``run`` and ``matchups`` of the shared CLI when the rules' mode is not 1v1 (called by
    ``scripts.game_cli`` before anything is played): ``run`` plays one table (``--hero``
    and ``--vs``: team modes, the first team and the others separated by '/'; free-for-all,
    the heroes at the table) in every seating, ``matchups`` every composition (team modes)
    or every table (free-for-all) of the roster. ``-n`` is the games of the whole table
    (spread evenly over its seatings). Returns False for 1v1 (the shared verb goes on)."""
    from simcore.dicethrone import model as M
    from strategies.bind import seat_strategies
    from strategies.dicethrone.bind import parse_params

    mode = ctx.rules["mode"]
    seats = M.MODE_SEATS[mode]
    players = opts.get("players")
    if mode == "1v1":
        if players is not None and players != 2:
            fits = [m for m, s in M.MODE_SEATS.items() if s == players]
            raise PlaytestError(f"mode 1v1 seats 2 players, got {players}; {players} players: "
                                + ", ".join(f"--set mode={m}" for m in fits), field="--players")
        return False
    if players is not None and players != seats:
        raise PlaytestError(f"mode {mode} seats {seats} players, got {players}", field="--players")
    for key, field in (("ci_width", "--ci-width"), ("max_games", "--max-games")):
        if opts.get(key) is not None:
            raise PlaytestError(f"{field} is for 1v1 runs (mode {mode} plays a fixed count per seating)", field=field)
    if opts.get("trace"):
        raise PlaytestError("lead statistics (trace) are for 1v1 games only", field="--trace")
    search = parse_params(opts.get("param"))
    roster = ctx.api.roster(ctx.content)
    from scripts.game_cli import check_out

    out = check_out(opts.get("out"))
    strategy = opts.get("strategy") or ctx.type.default_strategy
    vs_strategy = opts.get("vs_strategy")
    if mode.startswith("ffa"):
        k = seats
        if verb == "run":
            if opts.get("hero") is None:
                raise PlaytestError(f"name the {k} heroes at the table: --hero A,B,C... (or --hero A --vs B,C...)",
                                    field="--hero")
            text = opts["hero"] + ("," + opts["vs"] if opts.get("vs") else "")
            tables = ffa_tables(roster, text, None)
            if len(tables[0]) != k:
                raise PlaytestError(f"mode {mode} seats {k} heroes, got {len(tables[0])}", field="--hero")
        else:
            tables = ffa_tables(roster, None, k)
        if vs_strategy is not None and vs_strategy != strategy:
            raise PlaytestError("free-for-all plays one strategy in every seat", field="--vs-strategy")
        side = seat_strategies(strategy, 1, "--strategy")
        check_strategies(side)
        n = max(1, opts["games"] // k)
        doc = ffa_result(tables, n, opts["seed"], side[0], ctx.rules, roster, every=verb == "matchups",
                         search=search)
        emit(doc, opts.get("json_out", False), out)
        return True
    T, k = MODE_SHAPE[mode]
    sets = {"mode": mode}
    if verb == "run":
        if opts.get("hero") is None or opts.get("vs") is None:
            raise PlaytestError(f"name the teams: --hero A,B --vs C,D (2v2; 3v3: three each; 2v2v2: --vs C,D/E,F)",
                                field="--hero")
        mode_, comps, pool = team_comps(roster, opts["hero"], opts["vs"], False, None, sets)
        side = seat_strategies(strategy if vs_strategy is None else f"{strategy},{vs_strategy}",
                               2 if vs_strategy is not None else 1, "--strategy")
        side = (side[0],) + (side[-1],) * (T - 1)
    else:
        mode_, comps, pool = team_comps(roster, None, None, True, None, sets)
        side = seat_strategies(strategy, 1, "--strategy") * T
    check_strategies(side)
    n = max(1, opts["games"] // seatings_of(mode))
    doc = team_result(comps, n, opts["seed"], side, ctx.rules, roster, pool=pool, search=search)
    emit(doc, opts.get("json_out", False), out)
    return True
