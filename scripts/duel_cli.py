"""``playtest duel ...`` and ``playtest report duel``: the dice duel from the command line."""
from __future__ import annotations

import json
import shlex
import sys
import time
from pathlib import Path
from typing import List, Optional

import typer

from scripts.game_cli import (CIW, CONTENT, GAMES, JOBS, JSON, MAXG, OUT, PARAM, REPORT_OUT, RULES, SEED, SET,
                              STRATEGIES, STRATEGY, VS_STRATEGY, like)
from scripts.runs_cli import run_options
from simcore.errors import PlaytestError

duel_app = typer.Typer(help="The four-hero dice duel (rules digest: simcore/duel/RULES.md, shipped with the package).",
                       no_args_is_help=True, rich_markup_mode=None)

# the duel's own options; the shared ones (same names and meaning in every game) come
# from scripts/game_cli.py
CHUNK = typer.Option(None, "--chunk-size", help="Games per chunk (default: automatic).")
HEROES = typer.Option(None, "--heroes", hidden=True, help="Old name of --content.")
ENGINE = typer.Option("kernel", "--engine", help="kernel (compiled) or reference (pure Python, slow).")
JSON_OUT = JSON


def _content(content, heroes):
    """The folder of hero files: ``--content`` (the name every game uses), or its old name
    ``--heroes``."""
    if content is not None and heroes is not None:
        raise PlaytestError("give --content (the old name --heroes is the same option) once", field="--heroes")
    return content if content is not None else heroes


def _setup(heroes, rules, set_, param=None):
    """The setup of the data files and rule options, with the search strategy's budget
    (``--param``, checked here, before any game)."""
    from simcore.duel.model import load_setup
    from simcore.toml_io import parse_set_options
    from strategies.duel.bind import API

    setup = load_setup(heroes, rules, parse_set_options(set_))
    setup.search_budget = API.make_setup(setup.rules, setup.heroes, 2, param).search_budget
    return setup


def _progress(json_out: bool) -> bool:
    return (not json_out) and sys.stderr.isatty()


def _flat_json(res, own: dict) -> dict:
    """The shared result schema (``analysis.runs.result_json``) of a run played on the shared
    chunked path (its ``RunResult``), with this command's own fields on top (theirs win where
    both name the same thing)."""
    from analysis.runs import result_json

    doc = result_json(res, _command_line())
    own = dict(own)
    own.pop("rules", None)
    if isinstance(own.get("games"), list):
        own["games_matrix"] = own.pop("games")
    doc.update(own)
    doc["games"] = int(sum(m.games for m in res.matchups))
    return doc


def _write_flat(out: Path, doc: dict) -> None:
    """``--out`` of a run printed in the shared schema: its matchups and entrants tables
    (CSV + Parquet) and the rest of the document as run.json."""
    import pandas as pd

    from analysis.io import write_tables

    tables = {"matchups": pd.json_normalize(doc["matchups"]), "entrants": pd.DataFrame(doc["entrants"])}
    write_tables(out, {k: v for k, v in tables.items() if len(v)},
                 {k: v for k, v in doc.items() if k not in ("matchups", "entrants")})


def _command_line() -> str:
    return shlex.join(["playtest", *sys.argv[1:]])


@duel_app.command("heroes")
def heroes_cmd(content: Optional[str] = CONTENT, heroes: Optional[str] = HEROES, rules: Optional[str] = RULES,
               set_: Optional[List[str]] = SET, json_out: bool = JSON_OUT):
    """List the heroes, their dice, abilities and defence."""
    setup = _setup(_content(content, heroes), rules, set_)
    if json_out:
        out = [{"key": h.key, "name": h.name, "faces": [str(f) for f in h.die.faces],
                "abilities": [{"name": a.name, "undefendable": a.undefendable,
                               "tiers": [{"target": t.target.text, **t.effects} for t in a.tiers]}
                              for a in h.abilities],
                "defence": {"dice": h.defence_dice, "symbols": h.defence}} for h in setup.heroes]
        print(json.dumps(out))
        return
    for h in setup.heroes:
        print(f"{h.name} [{h.key}]  die: {h.die}")
        for a in h.abilities:
            tiers = "; ".join(
                f"{t.target.text} -> " + ", ".join(f"{k} {v}" for k, v in t.effects.items() if v)
                for t in a.tiers)
            print(f"  {a.name}{' (undefendable)' if a.undefendable else ''}: {tiers}")
        sym = ", ".join(f"{s}: " + ", ".join(f"{k} {v}" for k, v in e.items() if v) for s, e in h.defence.items())
        print(f"  defence {h.defence_dice} dice: {sym}")


@duel_app.command("play")
@run_options
def play_cmd(hero: str = typer.Option(..., "--hero", help="Hero A (key, name or prefix)."),
             vs: str = typer.Option(..., "--vs", help="Hero B."),
             games: int = GAMES, strategy: Optional[str] = STRATEGY, vs_strategy: Optional[str] = VS_STRATEGY,
             seed: int = SEED, jobs: int = JOBS,
             chunk_size: Optional[int] = CHUNK, content: Optional[str] = CONTENT, heroes: Optional[str] = HEROES,
             rules: Optional[str] = RULES, set_: Optional[List[str]] = SET,
             engine: str = ENGINE, both_seats: bool = typer.Option(
                 True, "--both-seats/--one-seat",
                 help="Also replay the same seeds with seats swapped (default) and pool them."),
             out: Optional[str] = OUT, ci_width: Optional[float] = CIW, max_games: Optional[int] = MAXG,
             json_out: bool = JSON_OUT, param: Optional[str] = PARAM):
    """One matchup: HERO against VS, with win rate, interval and first-player edge.
    Each chunk of games is reduced to exact counts where it is played, so memory stays
    flat whatever -n is; results are identical for any --jobs, --chunk-size and --backend.
    With --ci-width, each seat order is played in blocks of -n games until its interval is
    that narrow (or --max-games)."""
    from analysis.duel import play_figures, play_matchup
    from scripts.game_cli import check_ci_width, check_out
    from analysis.stats import wilson
    from scripts.runs_cli import cli_execution
    from simcore.duel.model import find_hero
    from strategies.duel import load_strategy
    from strategies.duel.bind import API, ENGINES

    strategy = strategy or "greedy"
    check_ci_width(ci_width)
    _check_run(max_games or games * (100 if ci_width else 1), seed, jobs, 2)
    if engine not in ENGINES:
        raise PlaytestError(f"unknown engine {engine!r} (one of {', '.join(ENGINES)})", field="--engine")
    setup = _setup(_content(content, heroes), rules, set_, param)
    outp = check_out(out)
    a, b = find_hero(setup.heroes, hero, "--hero"), find_hero(setup.heroes, vs, "--vs")
    strat = load_strategy(strategy)
    vs_strat = load_strategy(vs_strategy) if vs_strategy else strat
    if a == b and not setup.rules["mirror_matches"]:
        raise PlaytestError("mirror matches are off in the rule options (mirror_matches = false)", field="--vs")
    # the shared runner finds each seat's strategy by its spec (workers load it by name)
    spec = strat.name if strat.sid >= 0 else strategy
    vs_spec = spec if vs_strat is strat else vs_strat.name if vs_strat.sid >= 0 else vs_strategy
    for s in dict.fromkeys((spec, vs_spec)):
        API.check_strategy(s)  # a plug-in compiles now, before any game
    ex = cli_execution(jobs)
    if chunk_size is not None:
        if chunk_size < 1:
            raise PlaytestError(f"must be >= 1, got {chunk_size}", field="--chunk-size")
        from analysis.execution import CHUNK_MAX

        ex.chunk_size = min(chunk_size, CHUNK_MAX)
    t0 = time.perf_counter()
    runs, res = play_matchup(setup, a, b, spec, vs_spec, games, seed,
                             both_seats and (a != b or vs_strat is not strat), engine, ex, _progress(json_out),
                             ci_width=ci_width, max_games=max_games)
    elapsed = time.perf_counter() - t0
    f = play_figures(runs)
    n, wins, draws, first_score, timeouts = f["games"], f["wins"], f["draws"], f["first_score"], f["timeouts"]
    score = wins + 0.5 * draws
    lo, hi = wilson(score, n)
    flo, fhi = wilson(first_score, n)
    out = {
        "game": "duel", "version": __import__("simcore").__version__,
        "hero": setup.heroes[a].name, "vs": setup.heroes[b].name, "strategy": strat.name,
        "strategies": {"hero": strat.name, "vs": vs_strat.name},
        "seed": seed, "games": n, "wins": wins, "draws": draws, "losses": n - wins - draws,
        "win_rate": score / n, "win_rate_ci": [lo, hi],
        "first_player_win_rate": first_score / n, "first_player_win_rate_ci": [flo, fhi],
        "timeouts": timeouts, "mean_turns": f["mean_turns"], "median_turns": f["median_turns"],
        "seat_orders": len(runs), "engine": engine, "seconds": round(elapsed, 3),
    }
    if ci_width is not None:
        out["reached_ci_width"] = all(m.reached is not False for m in res.matchups)
    if outp is not None:
        _write_flat(outp, _flat_json(res, out))
    if json_out:
        print(json.dumps(_flat_json(res, out), default=float))
        return
    print(f"{out['hero']} ({strat.name}) vs {out['vs']} ({vs_strat.name}), seed {seed}, {n:,} games"
          f"{', both seat orders' if len(runs) == 2 else ''}")
    print(f"  {out['hero']} wins {wins:,}, draws {draws:,}, loses {n - wins - draws:,}: "
          f"win rate {100 * score / n:.2f}% [95% CI {100 * lo:.2f}, {100 * hi:.2f}] (draws count half)")
    print(f"  first player scores {100 * first_score / n:.2f}% [{100 * flo:.2f}, {100 * fhi:.2f}]")
    print(f"  turns: mean {f['mean_turns']:.1f}, median {f['median_turns']:.0f}; timeouts {timeouts}")
    comp = float(res.extra.get("compile_seconds", 0.0))
    if out.get("reached_ci_width") is False:
        print("  [did not reach --ci-width]")
    print(f"  {n / max(elapsed - comp, 1e-9):,.0f} games/s ({engine})" + (f"; tables in {outp}" if outp else ""))
    if res.extra.get("run_id"):
        print(f"stored as run {res.extra['run_id']} (playtest runs show {res.extra['run_id']})")


def _check_run(games, seed, jobs, n_matchups: int = 16, out=None, field="--games"):
    """Everything about a run's size and destination, checked before the first game. Every
    verb plays on the chunked aggregate path, whose memory does not grow with -n: the
    size check is only that the chunk list stays reasonable (``check_run_size``)."""
    from analysis.execution import check_run_size
    from analysis.runs import check_jobs, check_seed
    from scripts.game_cli import check_out
    from simcore.errors import check_games

    check_games(games, field)
    check_seed(seed)
    check_jobs(jobs)
    check_run_size(games, n_matchups, field)
    return check_out(str(out)) if out is not None else None


def _matchups(games, strategy, seed, jobs, heroes, rules, set_, engine, progress, out=None, execution=None,
              field="--games", param=None, ci_width=None, max_games=None):
    """The tournament on the shared chunked path: flat memory, the run options of
    ``scripts.runs_cli`` (backend, store, records, resume)."""
    from scripts.runs_cli import cli_execution
    from analysis.duel import run_matchups_flat

    setup = _setup(heroes, rules, set_, param)
    _check_run(max_games or games * (100 if ci_width else 1), seed, jobs, len(setup.heroes) ** 2, out, field=field)
    ex = execution if execution is not None else cli_execution(jobs)
    run, res = run_matchups_flat(setup, strategy, games, seed, ex, progress, engine, ci_width, max_games)
    return setup, run, res


@duel_app.command("matchups")
@run_options
def matchups_cmd(games: int = GAMES, strategy: Optional[str] = like(STRATEGY, None), seed: int = SEED,
                 jobs: int = JOBS, out: Optional[str] = OUT, chunk_size: Optional[int] = CHUNK,
                 content: Optional[str] = CONTENT, heroes: Optional[str] = HEROES,
                 rules: Optional[str] = RULES, set_: Optional[List[str]] = SET, engine: str = ENGINE,
                 ci_width: Optional[float] = CIW, max_games: Optional[int] = MAXG,
                 json_out: bool = JSON_OUT, param: Optional[str] = PARAM):
    """The full matrix: every ordered hero pair (mirrors too), seats swapped on the same seeds.
    Each chunk of games is reduced to exact counts where it is played, so memory stays flat
    whatever -n is; results are identical for any --jobs, --chunk-size and --backend."""
    from analysis import duel as ad
    from scripts.game_cli import check_ci_width
    from scripts.runs_cli import cli_execution

    check_ci_width(ci_width)
    out = Path(out) if out is not None else None
    t0 = time.perf_counter()
    ex = cli_execution(jobs)
    if chunk_size is not None:
        if chunk_size < 1:
            raise PlaytestError(f"must be >= 1, got {chunk_size}", field="--chunk-size")
        from analysis.execution import CHUNK_MAX

        ex.chunk_size = min(chunk_size, CHUNK_MAX)
    setup, run, res = _matchups(games, strategy or "greedy", seed, jobs, _content(content, heroes), rules, set_,
                                engine, _progress(json_out), out, execution=ex, param=param, ci_width=ci_width,
                                max_games=max_games)
    elapsed = time.perf_counter() - t0
    tables = ad.all_tables(run, setup)
    if out is not None:
        ad.write_results(run, out, setup, tables)
    if json_out:
        own = ad.matrix_json(run, tables["matchups"])
        own["seconds"] = round(elapsed, 3)
        print(json.dumps(_flat_json(res, own), default=float))
        return
    m = ad.matrix_json(run, tables["matchups"])
    names = m["heroes"]
    w = max(len(x) for x in names)
    print(f"Win rate of row hero vs column hero ({run.strategy}, seed {seed}, {games:,} games per seat order; "
          "95% Wilson interval)")
    print(" " * (w + 2) + "  ".join(f"{x[:18]:>20s}" for x in names))
    for i, row in enumerate(m["win_rate"]):
        cells = []
        for j, r in enumerate(row):
            lo, hi = m["win_rate_ci"][i][j]
            cells.append(f"{'-':>20s}" if r is None else f"{100 * r:5.1f} [{100 * lo:4.1f},{100 * hi:4.1f}]".rjust(20))
        print(f"{names[i]:<{w}s}  " + "  ".join(cells))
    print()
    for line in ad.balance_summary(run, tables["matchups"], tables["heroes"]):
        print(f"- {line}")
    total = sum(m.games for m in res.matchups)
    comp = float(res.extra.get("compile_seconds", 0.0))
    play_s = max(elapsed - comp, 1e-9)
    resumed = int(res.extra.get("resumed_chunks", 0))
    rate = (f"{total / play_s:,.0f} games/s" if not resumed else
            f"{resumed:,} chunks resumed from the store, {int(res.extra.get('played_chunks', 0)):,} played")
    print(f"\n{total:,} games in {play_s:.1f} s ({rate}"
          + (f"; plus {comp:.1f} s compiling or loading the kernels" if comp >= 0.5 else "") + ")"
          + (f"; tables in {out}" if out else ""))
    if res.extra.get("run_id"):
        print(f"stored as run {res.extra['run_id']} (playtest runs show {res.extra['run_id']})")


@duel_app.command("replay")
def replay_cmd(hero: str = typer.Option(..., "--hero", help="Hero in seat 0."),
               vs: str = typer.Option(..., "--vs", help="Hero in seat 1."),
               game: int = typer.Option(0, "--game", help="Game index within the run (0-based)."),
               strategy: Optional[str] = STRATEGY, seed: int = SEED, content: Optional[str] = CONTENT,
               heroes: Optional[str] = HEROES, rules: Optional[str] = RULES, set_: Optional[List[str]] = SET,
               param: Optional[str] = PARAM):
    """Play-by-play of one game (reference engine): game GAME of a run with SEED is the
    same game the kernel played in that run."""
    from simcore.duel.reference import DuelGame
    from simcore.duel.model import find_hero
    from strategies.duel.bind import check_seed
    from simcore.errors import PlaytestError
    from strategies.duel import load_strategy

    if not 0 <= game < 2**63:  # the kernel's game index is an int64 (the stream wraps beyond)
        raise PlaytestError(f"must be a game index 0..2**63-1, got {game}", field="--game")
    setup = _setup(_content(content, heroes), rules, set_, param)
    a, b = find_hero(setup.heroes, hero, "--hero"), find_hero(setup.heroes, vs, "--vs")
    strat = load_strategy(strategy or "greedy")
    g = DuelGame(setup, a, b, strat, strat.make_data(setup), check_seed(seed), game, log=True).play()
    print(f"{setup.heroes[a].name} vs {setup.heroes[b].name}, {strat.name}, seed {seed}, game {game}")
    print("\n".join(g.log))


@duel_app.command("tune")
@run_options
def tune_cmd(values: str = typer.Option(..., "--values", help="Comma list of values to try, e.g. 7,9,11."),
             option: Optional[str] = typer.Option(None, "--option", help="Vary this rule option ..."),
             hero: Optional[str] = typer.Option(None, "--hero", help="... or this hero's"),
             ability: Optional[str] = typer.Option(None, "--ability", help="ability's"),
             effect: Optional[str] = typer.Option(None, "--effect",
                                                  help="effect (damage, heal, cp, wounds, daze, shield, steal)."),
             tier: Optional[int] = typer.Option(None, "--tier", help="Only this tier (1-based) of a tiered ability."),
             games: int = like(GAMES, 100_000), strategies: Optional[str] = STRATEGIES,
             strategy: Optional[str] = typer.Option(None, "--strategy", "-s", hidden=True,
                                                    help="Old name of --strategies."),
             seed: int = SEED, jobs: int = JOBS, content: Optional[str] = CONTENT, heroes: Optional[str] = HEROES,
             rules: Optional[str] = RULES, set_: Optional[List[str]] = SET, out: Optional[str] = OUT,
             json_out: bool = JSON_OUT, param: Optional[str] = PARAM):
    """What small change would fix it? Replay the tournament on the same seeds for each
    value of one rule option or one ability effect, and compare hero win rates. Each
    variant's tournament is reduced to exact counts chunk by chunk (memory stays flat
    whatever -n is) and kept in the results store as a run of its own."""
    from analysis.io import write_tables
    from analysis.duel_tune import Knob, parse_values, sweep
    from simcore.errors import PlaytestError, check_games

    check_games(games)
    if (option is None) == (hero is None):
        raise PlaytestError("give either --option, or --hero with --ability and --effect", field="--option")
    if hero is not None and (ability is None or effect is None):
        raise PlaytestError("--hero needs --ability and --effect", field="--ability")
    if tier is not None and tier < 1:
        raise PlaytestError(f"tiers count from 1, got {tier}", field="--tier")
    if strategies is not None and strategy is not None:
        raise PlaytestError("give --strategies (the old name --strategy is the same option) once", field="--strategy")
    strategy = strategies if strategies is not None else strategy if strategy is not None else "optimal"
    if "," in strategy:   # the sweep compares hero win rates under one strategy
        raise PlaytestError("the duel's tune plays one strategy (both seats); give one name", field="--strategies")
    out = Path(out) if out is not None else None
    setup = _setup(_content(content, heroes), rules, set_, param)
    _check_run(games, seed, jobs, len(setup.heroes) ** 2, out)
    from scripts.runs_cli import cli_execution
    from strategies.duel import load_strategy

    load_strategy(strategy)
    knob = Knob(option, hero, ability, effect, None if tier is None else tier - 1)
    vals = parse_values(values)
    cli_execution(jobs).close()  # the backend and store options, checked before the first game
    df = sweep(setup, knob, vals, strategy, games, seed, jobs, _progress(json_out),
               execution=lambda: cli_execution(jobs))
    if out is not None:
        write_tables(out, {"sweep": df}, {"knob": knob.label(setup), "values": vals, "games": games,
                                          "seed": seed, "strategy": strategy, "rules": setup.rules},
                     stem="tune_")
    if json_out:
        print(json.dumps({"knob": knob.label(setup), "values": vals, "games_per_seating": games,
                          "strategy": strategy, "seed": seed,
                          "rows": json.loads(df.to_json(orient="records"))}))
        return
    names = list(dict.fromkeys(df.hero))
    print(f"{knob.label(setup)}: hero win rate against the field, 95% interval "
          f"({strategy}, {games:,} games per seating, seed {seed})")
    print(f"{'value':>8s}  " + "  ".join(f"{n[:19]:>19s}" for n in names) + "   spread  first player")
    best = None
    for v in vals:
        d = df[df.value == v].set_index("hero")
        cells = "  ".join(f"{100 * d.win_rate[n]:5.1f} [{100 * d.ci_low[n]:4.1f},{100 * d.ci_high[n]:4.1f}]"
                          for n in names)
        spread = float(d.spread.iloc[0])
        best = v if best is None or spread < float(df[df.value == best].spread.iloc[0]) else best
        print(f"{str(v):>8s}  {cells}   {100 * spread:5.1f}   {100 * d.first_player_win_rate.iloc[0]:5.1f}%")
    print(f"smallest spread between strongest and weakest hero: value {best}")


def register(app: typer.Typer, report_app: typer.Typer) -> None:
    app.add_typer(duel_app, name="duel")

    @report_app.command("duel")
    @run_options
    def report_duel(out: str = typer.Option("duel-report", "--out", "-o", help=REPORT_OUT),
                    games: int = like(GAMES, 1_000_000), strategies: Optional[str] = STRATEGIES,
                    strategy: Optional[str] = typer.Option(None, "--strategy", "-s", hidden=True,
                                                           help="Old name of the first of --strategies."),
                    seed: int = SEED, jobs: int = JOBS, chunk_size: Optional[int] = CHUNK,
                    content: Optional[str] = CONTENT, heroes: Optional[str] = HEROES, rules: Optional[str] = RULES,
                    set_: Optional[List[str]] = SET, engine: str = ENGINE,
                    compare: Optional[str] = typer.Option(None, "--compare", hidden=True,
                                                          help="Old name of the rest of --strategies."),
                    compare_games: int = typer.Option(
                        200_000, "--compare-games", help="Games per ordered pair for the strategies after the "
                                                         "first (the 'balance by skill level' section)."),
                    param: Optional[str] = PARAM):
        """Simulate the whole tournament with good defaults and write the designer report
        (report.html with embedded figures, PNGs, CSV/Parquet tables, JSON sidecar).
        --strategies: the first is the report's tournament (-n games per ordered pair), the
        others are played too (--compare-games) for the 'balance by skill level' section
        (default: optimal,random,greedy)."""
        from analysis import duel as ad
        from analysis.io import write_tables
        from reports.duel import build_report, skill_section
        from strategies.duel import load_strategy

        # every input checked before the first game: a typo must not cost a finished run
        if strategies is not None and (strategy is not None or compare is not None):
            raise PlaytestError("give --strategies (the old --strategy and --compare are parts of it) alone",
                                field="--strategies")
        if strategies is not None:
            first, _, compare = strategies.partition(",")
            strategy = first.strip()
        strategy = strategy or "optimal"
        compare = "random,greedy" if compare is None else compare
        heroes = _content(content, heroes)
        out = Path(out)
        setup = _setup(heroes, rules, set_, param)
        _check_run(games, seed, jobs, len(setup.heroes) ** 2, out)
        main_name = load_strategy(strategy).name
        others = []
        for c in [c.strip() for c in compare.split(",") if c.strip()]:
            try:
                name = load_strategy(c).name
            except PlaytestError as e:
                raise PlaytestError(e.reason, field="--compare") from None
            if name != main_name and name not in others:
                others.append(name)
        if others:
            _check_run(compare_games, seed, jobs, len(setup.heroes) ** 2, field="--compare-games")
        from scripts.runs_cli import cli_execution
        from analysis.duel import run_matchups_flat

        def execution():
            ex = cli_execution(jobs)
            if chunk_size is not None:
                from analysis.execution import CHUNK_MAX

                ex.chunk_size = min(max(1, chunk_size), CHUNK_MAX)
            return ex

        t0 = time.perf_counter()
        setup, run, res = _matchups(games, strategy, seed, jobs, heroes, rules, set_, engine, _progress(False),
                                    execution=execution(), param=param)
        results = {run.strategy: res}
        runs = {run.strategy: run}
        for name in others:
            runs[name], results[name] = run_matchups_flat(setup, name, compare_games, seed, execution(),
                                                          _progress(False), engine)
        compile_s = sum(float(r.extra.get("compile_seconds", 0.0)) for r in results.values())
        sim_s = time.perf_counter() - t0 - compile_s
        tables = ad.all_tables(run, setup)
        ad.write_results(run, out, setup, tables)
        extra = []
        if len(runs) > 1:
            sk = ad.skill_table(runs)
            write_tables(out, {"levels": sk}, {"seed": seed, "strategies": list(runs),
                                                     "games_per_seating": {k: r.games for k, r in runs.items()}},
                         stem="skill_")
            extra.append(skill_section(sk))
        path = build_report(run, out, extra_sections=extra, setup=setup, command=_command_line(),
                            tables=tables)
        total = sum(m.games for r in results.values() for m in r.matchups)
        print(f"{total:,} games simulated in {sim_s:.1f} s (plus {compile_s:.1f} s compiling or loading the "
              f"kernels); report: {path}")
        for line in ad.balance_summary(run, tables["matchups"], tables["heroes"]):
            print(f"- {line}")
