"""``playtest dicethrone ...``: the Dice Throne verbs of its own (the shared verbs of
``scripts/game_cli.py`` fill in the rest: run, tournament, replay, tune, matchups...).

    playtest dicethrone odds --hero pyromancer [--card surprise] [--cp 3] [--json]   (--cp pays cards and Tithes)
    playtest dicethrone card-value [-n 1000] [--strategy greedy] [--hero A --vs B] [--card C] [--json]
    playtest dicethrone numbers [--match fireball]      (the names `tune --option` takes)
    playtest dicethrone teams --team pyromancer,paladin --vs barbarian,monk [-n 500] [--strategy greedy]
                                                        (2v2: the teams' and heroes' scores, the first team's edge)
    playtest dicethrone teams --all [--pool a,b,c,d,...] [-n 301]   (every composition: teams, pair synergy)
    playtest dicethrone tune --option card.surprise.cost --values 0,2,4     (shared verb)

Every verb takes ``--content DIR`` (old name ``--heroes DIR``): a designer's own heroes, one
TOML file each, with ``DIR/cards.toml`` as the generic file if the folder has one.
"""
from __future__ import annotations

import json
from typing import List, Optional

import typer

from simcore.errors import PlaytestError

dt_app = typer.Typer(help="Dice Throne Season One (ReRolled, rulebook v2.2; the heroes of simcore/dicethrone/heroes, "
                          "or of --content DIR): two heroes roll five dice up to three times, play cards and spend "
                          "tokens.", no_args_is_help=True, rich_markup_mode=None)

from scripts.game_cli import CONTENT  # noqa: E402  (the shared option: the same name and meaning everywhere)

HEROES = typer.Option(None, "--heroes", hidden=True, help="Old name of --content.")
# options the team and free-for-all verbs share
SEATING_SEED = typer.Option(1, "--seed", help="run seed: game i of every seating from stream (seed, i)")
AS_JSON = typer.Option(False, "--json", help="print one JSON object")
RULES_FILE = typer.Option(None, "--rules", help="TOML file of rule options")
TABLES_OUT = typer.Option(None, "--out", help="directory for the tables (CSV, Parquet) and run.json")


def _roster(content: Optional[str] = None, heroes: Optional[str] = None):
    """The roster of ``--content`` (or its old name ``--heroes``), default the shipped heroes:
    every hero file checked before anything is played."""
    from strategies.dicethrone.bind import default_roster

    if content is not None and heroes is not None:
        raise PlaytestError("give --content (the old name --heroes is the same option) once", field="--heroes")
    folder = content if content is not None else heroes
    return default_roster(str(folder) if folder is not None else None)


def _hero_id(roster, name: str, field: str = "--hero") -> str:
    from scripts.dicethrone_modes_cli import hero_id

    return hero_id(roster, name, field)


@dt_app.command("odds")
def odds_cmd(
    hero: str = typer.Option(..., "--hero", help="hero key, name or unambiguous prefix (`playtest dicethrone "
                                               "heroes` lists them)"),
    card: Optional[List[str]] = typer.Option(None, "--card", help="a card in hand that changes your offensive "
                                             "roll (set, move, copy or reroll dice, or an extra attempt), id or "
                                             "name (repeatable): used at the best moment of the roll phase"),
    rolls: Optional[int] = typer.Option(None, "--rolls", help="roll attempts (default: the rules' roll_attempts, 3)"),
    cp: int = typer.Option(0, "--cp", help="your CP (0..the rules' cp_cap, 15): it pays the cards' costs and the "
                                           "hero's paid rerolls (the Paladin's Tithes) together"),
    as_json: bool = AS_JSON,
    rules: Optional[str] = RULES_FILE,
    set_: Optional[List[str]] = typer.Option(None, "--set", help="rule option key=value (repeatable)"),
    content: Optional[str] = CONTENT, heroes: Optional[str] = HEROES,
) -> None:
    """Exact odds of every offensive ability tier of a hero after 1..R roll attempts (best
    keeps), with CP-bought rerolls where the hero may buy them, and with cards in hand paid
    from the same CP (and the upper bound with every card free). The opponent's roll-phase
    cards are not modelled: the figures are the best case against an opponent holding none."""
    from simcore.dicethrone.model import load_rules
    from simcore.odds.dicethrone import check_cp, odds_table
    from simcore.odds.solver import check_rolls
    from simcore.toml_io import parse_set_options

    r = load_rules(rules, parse_set_options(set_))
    R = check_rolls(rolls) if rolls is not None else int(r["roll_attempts"])
    check_cp(cp, int(r["cp_cap"]))
    roster = _roster(content, heroes)
    hid = _hero_id(roster, hero)
    doc = odds_table(roster.content((hid,)), hid, R, list(card or []), cp, cp_cap=int(r["cp_cap"]))
    if as_json:
        typer.echo(json.dumps(doc))
        return
    rows = doc["abilities"]
    typer.echo(f"{doc['hero']}: odds of being able to activate each ability tier, going for it with best keeps")
    note = f"; 'R+k' = R attempts and k {doc['bought']}" if doc["bought"] else ""
    typer.echo(f"({doc['rolls']} roll attempts{note})")
    typer.echo(f"Note: {doc['opponent_note']}.")
    keys = list(rows[0]["by_rolls"])
    w = max(len(x["label"]) for x in rows) + 2
    typer.echo("".ljust(w) + "".join(f"{k:>8}" for k in keys) + f"   with {cp} CP (exact)")
    for x in rows:
        typer.echo(x["label"].ljust(w) + "".join(f"{x['by_rolls'][k]:8.3f}" for k in keys)
                   + f"   {x['probability']:.4f} = {x['fraction']}")
    if doc["cards"]:
        names = ", ".join(f"{c['name']} ({c['action']}; {c['cost']} CP)" for c in doc["cards"])
        typer.echo(f"\nWith {names} in hand, used at the best moment, {doc['cp_note']}:")
        typer.echo("(columns 1..R: the cards alone; 'upper bound': every card free and the rerolls the whole CP "
                   "buys on top, not what the CP buys)")
        keys = list(rows[0]["with_cards"]["by_rolls"])
        typer.echo("".ljust(w) + "".join(f"{k:>8}" for k in keys) + f"   with {cp} CP (exact), gain over no card"
                   + "   upper bound")
        for x in rows:
            wc = x["with_cards"]
            typer.echo(x["label"].ljust(w) + "".join(f"{wc['by_rolls'][k]:8.3f}" for k in keys)
                       + f"   {wc['probability']:.4f} = {wc['fraction']}  (+{wc['gain']:.4f})"
                       + f"   {wc['upper_bound']['probability']:.4f}")
        for j, c in enumerate(doc["cards"]):
            if not c["other_reading"]:
                continue
            typer.echo(f"\n{c['name']} under its other reading ({c['other_reading']}; simcore/dicethrone/cards.toml):")
            typer.echo("".ljust(w) + f"   with {cp} CP (exact)   difference to the reading played   upper bound")
            for x in rows:
                o = [y for y in x["with_cards"]["other_readings"] if y["card"] == c["id"]][0]
                typer.echo(x["label"].ljust(w) + f"   {o['probability']:.4f} = {o['fraction']}"
                           + f"  ({o['probability'] - x['with_cards']['probability']:+.4f})   {o['upper_bound']:.4f}")


@dt_app.command("card-value")
def card_value_cmd(
    games: int = typer.Option(1000, "--games", "-n", help="games per seat order per card (and for the baseline)"),
    strategy: str = typer.Option("greedy", "--strategy", "-s", help="strategy of both seats (or a comma pair)"),
    hero: Optional[List[str]] = typer.Option(None, "--hero", help="the deck of this hero (repeatable: two heroes, "
                                             "each deck against the other; default: both heroes of a two-hero "
                                             "roster)"),
    vs: Optional[str] = typer.Option(None, "--vs", help="the opponent of a single --hero (default: the one other "
                                     "hero of a two-hero roster)"),
    card: Optional[List[str]] = typer.Option(None, "--card", help="only this card id or name (repeatable)"),
    seed: int = typer.Option(1, "--seed", help="run seed: game i of every version from stream (seed, i)"),
    top: int = typer.Option(0, "--top", help="print only the N most and N least valuable cards"),
    out: Optional[str] = typer.Option(None, "--out", help="directory for card_values.csv and a report page"),
    as_json: bool = AS_JSON,
    rules: Optional[str] = RULES_FILE,
    set_: Optional[List[str]] = typer.Option(None, "--set", help="rule option key=value (repeatable)"),
    param: Optional[str] = typer.Option(None, "--param", help="search's BUDGET[,HORIZON]: rollouts per move, "
                                        "turns per rollout (seats that play search)"),
    content: Optional[str] = CONTENT, heroes: Optional[str] = HEROES,
) -> None:
    """What each card is worth in one matchup: the win rate of each card's holder against
    its opponent with the card swapped for a blank, against the full deck on common seeds
    (paired interval)."""
    import time

    from analysis.dicethrone_cards import card_values, pair_of, ranked
    from analysis.runs import check_seed
    from scripts.game_cli import check_out, command_line
    from simcore.dicethrone.model import load_rules
    from simcore.errors import check_games
    from simcore.game import get_game
    from simcore.toml_io import parse_set_options
    from strategies.bind import seat_strategies
    from strategies.dicethrone.bind import parse_params

    n = check_games(games)
    search = parse_params(param)
    seed = check_seed(seed)
    r = load_rules(rules, parse_set_options(set_))
    specs = seat_strategies(strategy, 2, "--strategy")
    api = get_game("dicethrone")
    for s in set(specs):
        api.check_strategy(s)
    roster = _roster(content, heroes)
    decks, opp = pair_of(roster, [_hero_id(roster, h) for h in (hero or [])],
                         _hero_id(roster, vs, "--vs") if vs is not None else None)
    mc = roster.content(decks + ((opp,) if opp else ()))
    ids = None
    if card:
        known = {}
        for h in decks:
            for c in mc.heroes[h].cards + mc.generic:
                known[c.id] = c.id
                known[c.name.lower()] = c.id
        ids = set()
        for c in card:
            k = c.strip().lower()
            if k not in known:
                listing = ", ".join(dict.fromkeys(v for v in known.values()))
                raise PlaytestError(f"unknown card {c!r} (cards of {', '.join(decks)}: {listing})", field="--card")
            ids.add(known[k])
    outp = check_out(out)
    t0 = time.perf_counter()
    df = card_values(n, seed, specs, r, heroes=decks, cards=ids, search=search, vs=opp, roster=roster)
    secs = time.perf_counter() - t0
    d = ranked(df)
    if outp is not None:
        from reports.dicethrone_cards import card_value_section
        from reports.html import Page

        flat = d.copy()
        flat["value_lo"] = [c[0] for c in flat["value_ci"]]
        flat["value_hi"] = [c[1] for c in flat["value_ci"]]
        flat.drop(columns=["value_ci"]).to_csv(outp / "card_values.csv", index=False)
        page = Page("Dice Throne: what each card is worth", outp)
        card_value_section(n, seed, specs, r, df=d)(page)
        page.paragraph(f"Reproduce with {command_line()}", cls="meta")
        page.write("report.html")
    if as_json:
        typer.echo(json.dumps({"games_per_card": 2 * n, "seed": seed, "strategies": list(specs),
                               "param": param, **search, "seconds": round(secs, 2), "interval": "95%, paired on common seeds",
                               "cards": d.to_dict(orient="records")}, default=float))
        return
    rows = list(d.itertuples())
    if top and 2 * top < len(rows):
        rows = rows[:top] + rows[-top:]
    typer.echo(f"Card values ({specs[0]} vs {specs[1]}, {2 * n:,} games per card, both seat orders, seed {seed}; "
               f"value = holder's win rate with the card minus with a blank; 95% paired interval):")
    for x in rows:
        typer.echo(f"  {x.hero:10s} vs {x.vs:10s} {x.name:22s} {100 * x.value:+5.1f} points [{100 * x.value_ci[0]:+5.1f}, "
                   f"{100 * x.value_ci[1]:+5.1f}]  (unpaired ±{100 * x.half_width_unpaired:.1f}; "
                   f"{x.changed:,} games changed)")
    typer.echo(f"  {len(d) * 2 * n + len(decks) * 2 * n:,} games in {secs:.1f} s"
               + (f"; tables in {outp}" if outp else ""))


@dt_app.command("teams")
def teams_cmd(
    team: Optional[str] = typer.Option(None, "--team", help="the first team: its heroes, comma-separated (keys, "
                                       "names or unambiguous prefixes; two in 2v2 and 2v2v2, three in 3v3)"),
    vs: Optional[str] = typer.Option(None, "--vs", help="the other team(s), comma-separated heroes; 2v2v2: two "
                                     "teams separated by '/' (C,D/E,F)"),
    all_: bool = typer.Option(False, "--all", help="every composition of the mode's teams of different heroes of "
                              "--pool, each hero at most once at the table (8 heroes: 2v2 210, 3v3 280, "
                              "2v2v2 420 compositions)"),
    pool: Optional[str] = typer.Option(None, "--pool", help="with --all: the heroes, comma-separated (default: "
                                       "the whole roster)"),
    games: int = typer.Option(500, "--games", "-n", help="games per seating (every order of the teams times every "
                                                        "rotation of each team's heroes: 2v2 8, 3v3 18, 2v2v2 48)"),
    strategy: str = typer.Option("greedy", "--strategy", "-s", help="strategy of every seat, or a comma list, "
                                 "one per team (the first team's first; one name with --all)"),
    seed: int = SEATING_SEED,
    reps: int = typer.Option(1000, "--reps", help="with --all: bootstrap resamples of the synergy intervals"),
    as_json: bool = AS_JSON,
    out: Optional[str] = TABLES_OUT,
    rules: Optional[str] = RULES_FILE,
    set_: Optional[List[str]] = typer.Option(None, "--set", help="rule option key=value (repeatable); the mode "
                                             "(2v2, 3v3, 2v2v2) follows from the teams, or from --set mode with "
                                             "--all (default 2v2)"),
    content: Optional[str] = CONTENT, heroes: Optional[str] = HEROES,
) -> None:
    """Teams in Dice Throne 2v2, 3v3 and 2v2v2 (one health pool per team, teams alternating
    turns; simcore/dicethrone/modes/DESIGN.md). With --team and --vs: each team's score
    against the other(s), each hero's score and share of its team's damage, and the edge of
    the team that moves first. With --all: every composition of --pool; each team's score
    against the field, pair synergy (teams of two: how much better a pair does than its two
    heroes' strengths add up to, with the raw difference beside it), the heroes and the turn
    order. Every rate with its 95% interval and n; a draw counts as a share; capped games are
    counted and left out. Every seating is played on the same seeds, so the seats cancel out
    of the teams' scores. An attack goes where the targeting roll sends it (rule options
    target_faces_2/_3/_multi, target_die_cards). The same play as `run`/`matchups --set
    mode=...`."""
    from scripts.dicethrone_modes_cli import MODE_SHAPE, check_counts, check_strategies, emit, team_comps, team_result
    from scripts.game_cli import check_out
    from simcore.dicethrone.model import load_rules
    from simcore.toml_io import parse_set_options
    from strategies.bind import seat_strategies

    n, seed = check_counts(games, seed, reps)
    sets = parse_set_options(set_)
    roster = _roster(content, heroes)
    mode, comps, pool_ = team_comps(roster, team, vs, all_, pool, sets)
    r = load_rules(rules, {**sets, "mode": mode})
    T = MODE_SHAPE[mode][0]
    side = seat_strategies(strategy, T, "--strategy")
    if all_ and len(set(side)) != 1:
        raise PlaytestError("--all plays one strategy in every seat", field="--strategy")
    check_strategies(side)
    outp = check_out(out)
    emit(team_result(comps, n, seed, side, r, roster, reps=reps, pool=pool_), as_json, outp)


@dt_app.command("ffa")
def ffa_cmd(
    table_: Optional[str] = typer.Option(None, "--table", help="the 3 to 6 heroes at the table, comma-separated "
                                         "(keys, names or unambiguous prefixes; a hero may sit twice)"),
    all_: Optional[int] = typer.Option(None, "--all", help="instead of --table: every table of this many (3-6) "
                                       "different heroes of the roster (8 heroes, 4 a table: 70 tables)"),
    games: int = typer.Option(500, "--games", "-n", help="games per seating (one seating per rotation of the "
                                                        "table: N heroes, N seatings)"),
    strategy: str = typer.Option("greedy", "--strategy", "-s", help="strategy of every seat"),
    seed: int = SEATING_SEED,
    reps: int = typer.Option(1000, "--reps", help="bootstrap resamples of the mean-place intervals"),
    as_json: bool = AS_JSON,
    out: Optional[str] = TABLES_OUT,
    rules: Optional[str] = RULES_FILE,
    set_: Optional[List[str]] = typer.Option(None, "--set", help="rule option key=value (repeatable); the mode "
                                             "is ffaN for N heroes (ffa_targeting, koth_leader_card, ffa_start_hp...)"),
    content: Optional[str] = CONTENT, heroes: Optional[str] = HEROES,
) -> None:
    """Dice Throne free-for-all, 3 to 6 players (each its own health, 35 by default; King of
    the Hill: an attacker picks any opponent and draws a card when it targets a leader; or
    the neighbour roll under --set ffa_targeting=roll; simcore/dicethrone/modes/DESIGN.md
    1.5). Every rotation of the table is played on the same seeds, so each hero sits at every
    position. Per hero: its share of 1st places (the win rate; seats out together split
    the places they span), each place's share, and its mean place, against an even share of
    1/N; then the edge of each position in the turn order. With --all K: every table of K
    different heroes, each hero's places over all its tables (a free-for-all tier list). Every
    rate with its 95% interval and n; capped games are counted and left out. The same play
    as `run`/`matchups --set mode=ffaN`."""
    from scripts.dicethrone_modes_cli import check_counts, check_strategies, emit, ffa_result, ffa_tables
    from scripts.game_cli import check_out
    from simcore.dicethrone.model import load_rules
    from simcore.toml_io import parse_set_options
    from strategies.bind import seat_strategies

    n, seed = check_counts(games, seed, reps)
    roster = _roster(content, heroes)
    tables = ffa_tables(roster, table_, all_)
    mode = f"ffa{len(tables[0])}"
    sets = parse_set_options(set_)
    if sets.get("mode", mode) != mode:
        raise PlaytestError(f"{len(tables[0])} heroes play mode {mode}, not {sets['mode']}", field="--set")
    r = load_rules(rules, {**sets, "mode": mode})
    side = seat_strategies(strategy, 1, "--strategy")
    check_strategies(side)
    outp = check_out(out)
    emit(ffa_result(tables, n, seed, side[0], r, roster, reps=reps, every=all_ is not None), as_json, outp)


@dt_app.command("numbers")
def numbers_cmd(
    match: Optional[str] = typer.Option(None, "--match", help="only names containing this text"),
    as_json: bool = typer.Option(False, "--json", help="print one JSON list"),
    content: Optional[str] = CONTENT, heroes: Optional[str] = HEROES,
) -> None:
    """Every number of the data by the name `tune --option` takes (simcore/dicethrone/edits.py),
    with its value and bounds."""
    from simcore.game import get_game

    api = get_game("dicethrone")
    rules = api.load_rules()
    rows = [e for e in api.editable_numbers(rules, list(_roster(content, heroes).heroes))
            if match is None or match.lower() in e.key.lower()]
    if as_json:
        typer.echo(json.dumps([{"name": e.key, "value": e.value, "lo": e.lo, "hi": e.hi, "file": e.file}
                               for e in rows]))
        return
    for e in rows:
        typer.echo(f"{e.key:58s} {e.value:>4}   [{e.lo:g}, {e.hi:g}]  {e.file}")


@dt_app.command("heroes")
def heroes_cmd(content: Optional[str] = CONTENT, heroes: Optional[str] = HEROES,
               as_json: bool = typer.Option(False, "--json", help="print one JSON list")) -> None:
    """The roster: every hero file of the heroes folder in file-name order (its index is its
    number in records, hero0 and hero1), with its abilities, defences, tokens and cards."""
    roster = _roster(content, heroes)
    rows = []
    for i, h in enumerate(roster.heroes):
        c = roster.content((h.key,))
        rows.append({"index": i, "key": h.key, "name": h.name, "file": str(roster.hero_file(h.key)),
                     "abilities": [a.name for a in h.abilities], "defences": [d.name for d in h.defences],
                     "tokens": [t.name for t in c.tokens if t.owner == h.key], "cards": len(h.cards)})
    if as_json:
        typer.echo(json.dumps({"generic": str(roster.cards_file), "heroes": rows}))
        return
    typer.echo(f"{len(rows)} heroes (generic cards and statuses: {roster.cards_file}):")
    for r in rows:
        typer.echo(f"  {r['index']}  {r['key']:14s} {r['name']}: {len(r['abilities'])} abilities, "
                   f"defence {', '.join(r['defences'])}; tokens: {', '.join(r['tokens']) or 'none'}; "
                   f"{r['cards']} hero cards")


def register(app, report_app) -> None:
    from scripts.game_cli import MODE_VERBS

    def mode_verb(verb, ctx, opts):      # imported when run/matchups play: the CLI starts without the engine
        from scripts.dicethrone_modes_cli import mode_verb as play

        return play(verb, ctx, opts)

    MODE_VERBS["dicethrone"] = mode_verb
    app.add_typer(dt_app, name="dicethrone")
