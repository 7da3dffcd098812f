"""``playtest regicide ...`` and ``playtest report regicide``.

    playtest regicide run --players 1 --strategy search --games 200 --seed 1 --jobs 2 [--json]
    playtest regicide rules                       # every rule option and its value
    playtest regicide strategies                  # built-in strategies
    playtest report regicide --out regicide-report   # simulate a study, write the HTML report
"""
from __future__ import annotations

import json
import sys
import time
from typing import List, Optional

import numpy as np
import typer

from scripts.game_cli import (CIW, GAMES, JOBS, JSON, MAXG, OUT, PARAM, PLAYERS, REPORT_OUT, RULES, SEED, SET,
                              STRATEGIES, STRATEGY, VS_STRATEGY, like)
from scripts.runs_cli import run_options
from simcore.errors import PlaytestError

regicide_app = typer.Typer(help="Regicide (cooperative card game): simulate parties, compare strategies "
                                "(rules digest: simcore/regicide/RULES.md, shipped with the package).",
                           no_args_is_help=True, rich_markup_mode=None)


def _rules(rules_file: Optional[str], sets: Optional[List[str]]) -> dict:
    from simcore.regicide.model import load_rules
    from simcore.toml_io import parse_set_options

    return load_rules(rules_file, parse_set_options(sets))


def _check_seed(seed: int) -> int:
    if seed < 0 or seed >= 2 ** 63:
        raise PlaytestError(f"must be 0..2**63-1, got {seed}", field="--seed")
    return seed


@regicide_app.command("run")
@run_options
def run_cmd(
    players: int = like(PLAYERS, 1), strategy: Optional[str] = STRATEGY, vs_strategy: Optional[str] = VS_STRATEGY,
    games: int = GAMES, seed: int = SEED, jobs: int = JOBS, param: Optional[str] = PARAM,
    rules_file: Optional[str] = RULES, set_: Optional[List[str]] = SET, out: Optional[str] = OUT,
    ci_width: Optional[float] = CIW, max_games: Optional[int] = MAXG, as_json: bool = JSON,
) -> None:
    """Simulate GAMES games of Regicide and print the win rate with its Wilson 95% interval
    and n (strategies: random, heuristic, search, cheat = perfect information, a ceiling;
    --vs-strategy: the second seat's, two players). Each chunk of games is reduced to exact counts where it is played (memory stays flat
    whatever -n is); results are identical for any --jobs and --backend."""
    from analysis.execution import check_run_size
    from analysis.io import write_tables
    from analysis.regicide import cap_line, finished_hists, label, summary_from_aggregate, tables_from_aggregates
    from analysis.runs import check_jobs as check_jobs_cap
    from analysis.runs import changed_rules, result_json, run
    from analysis.runs import fmt_rate
    from scripts.game_cli import check_ci_width, check_out, command_line
    from scripts.runs_cli import cli_execution
    from strategies.bind import seat_strategies
    from simcore.errors import check_games
    from simcore.game import get_game
    from simcore.parallel import check_jobs
    from simcore.regicide.model import check_players
    from simcore.regicide.model import load_rules as defaults
    from strategies.bind import load_plugin
    from strategies.regicide import get_strategy, parse_params

    games = check_games(games)
    jobs = check_jobs_cap(check_jobs(jobs))
    players = check_players(players)
    seed = _check_seed(seed)
    check_ci_width(ci_width)
    rules = _rules(rules_file, set_)
    strategy = strategy or "heuristic"
    if vs_strategy is not None:
        if players != 2:
            raise PlaytestError("--vs-strategy is for two-seat games; give a comma list to --strategy",
                                field="--vs-strategy")
        strategy = f"{strategy},{vs_strategy}"
    specs = seat_strategies(strategy, players)
    for spec in dict.fromkeys(specs):
        strat = get_strategy(spec)
        if strat.sid < 0:
            load_plugin(strat.plugin)
        parse_params(param, strat)  # a bad --param fails now, not in a worker
    strats = [get_strategy(s) for s in specs]
    check_out(out)
    check_run_size(max_games or games * (100 if ci_width else 1), 1)
    execution = cli_execution(jobs)
    api = get_game("regicide")
    setup = api.make_setup(rules, None, players, params=param)
    t0 = time.perf_counter()
    res = run("regicide", setup, [], [(tuple(range(players)), specs)], games, seed, rules,
              defaults(), jobs, progress=not as_json and sys.stderr.isatty(), execution=execution,
              ci_width=ci_width, max_games=max_games)
    dt = time.perf_counter() - t0 - float(res.extra.get("compile_seconds", 0.0))
    agg = res.matchups[0].records
    played = int(agg.games)
    s = summary_from_aggregate(agg)
    # the strategies by their names (as every run's JSON and ``runs show`` list them); the
    # label, which marks the perfect-information ceiling, is for the tables and the text
    names = [st.name for st in strats]
    name = ",".join(dict.fromkeys(label(st.name, st.perfect_information) for st in strats))
    perfect = any(st.perfect_information for st in strats)
    tables = tables_from_aggregates([(name, players, agg)])
    meta = {"game": "regicide", "seed": seed, "games": played, "players": players, "strategy": name,
            "params": param, "rules": rules, "jobs": jobs, "seconds": dt}
    if res.extra.get("run_id"):
        meta["run_id"] = res.extra["run_id"]
    if out:
        write_tables(out, tables, meta)  # same names as the report's tables: win_rates.csv, run.json...
    if as_json:
        res.rules_changed = changed_rules(rules, defaults())
        doc = result_json(res, command_line())
        doc.update({"players": players, "strategy": ",".join(dict.fromkeys(names)), "strategy_label": name,
                    "perfect_information": perfect, **s, "seconds": round(dt, 3)})
        typer.echo(json.dumps(doc, default=float))
        return
    row = tables["win_rates"].iloc[0]
    typer.echo(f"regicide, {players} player(s), strategy {name}, {played:,} games, seed {seed}")
    def num(x, fmt):    # no finished game (every one capped): no rate, no mean
        return "n/a" if x is None or not np.isfinite(x) else format(x, fmt)

    done = int(row.finished_games)
    rate_txt = fmt_rate(row.win_rate, (row.win_ci_low, row.win_ci_high)) + "  (" if done else "n/a  ("
    typer.echo(f"  win rate        {rate_txt}n={done:,} finished games; {int(row.capped):,} capped apart)")
    if ci_width is not None and res.matchups[0].reached is False:
        typer.echo("  [did not reach --ci-width]")
    median = "n/a" if s["median_turns"] is None else f"{s['median_turns']:.0f}"
    typer.echo(f"  enemies defeated {num(row.mean_defeated, '.2f')} (mean of 12)   turns {num(row.mean_turns, '.1f')} "
               f"(mean), {median} (median): the finished games")
    typer.echo(cap_line(s))
    if players == 1:
        m = agg.hists["medal"]
        fl = finished_hists(agg)["flips_used"]      # a capped game's flips stopped at the cap
        done = int(fl.sum())
        flips_mean = f"{float((np.arange(fl.size) * fl).sum()) / done:.2f}" if done else "n/a"
        typer.echo(f"  medals          gold {m[3]}  silver {m[2]}  bronze {m[1]}   flips used "
                   f"{flips_mean} (mean, finished games)")
    typer.echo(f"  {played / max(dt, 1e-9):,.0f} games/s ({dt:.2f} s)" + (f"; tables in {out}" if out else ""))
    if res.extra.get("run_id"):
        typer.echo(f"  stored as run {res.extra['run_id']} (playtest runs show {res.extra['run_id']})")


@regicide_app.command("strategies")
def strategies_cmd(as_json: bool = JSON) -> None:
    """List the built-in strategies (plug-ins: --strategy package.module:function)."""
    from strategies.regicide import BUILTIN

    if as_json:
        typer.echo(json.dumps({s.name: s.description for s in BUILTIN.values()}))
        return
    for s in BUILTIN.values():
        typer.echo(f"{s.label:52s} {s.description}")


STUDY = ("random", "heuristic", "search", "cheat")   # what ``playtest report regicide`` plays


def register(app, report_app) -> None:
    app.add_typer(regicide_app, name="regicide")

    @report_app.command("regicide")
    @run_options
    def report_regicide(
        out: str = typer.Option("regicide-report", "--out", "-o", help=REPORT_OUT),
        games: Optional[int] = like(GAMES, None),
        strategies: Optional[str] = STRATEGIES, players: Optional[int] = PLAYERS,
        search_games: int = typer.Option(100, "--search-games",
                                         help="search games per player count (cheat, solo only: half as many)"),
        param: Optional[str] = PARAM,
        budget: Optional[int] = typer.Option(None, "--budget", hidden=True, help="Old name of --param."),
        seed: int = SEED, jobs: int = JOBS, rules_file: Optional[str] = RULES, set_: Optional[List[str]] = SET,
    ) -> None:
        """Simulate a study (all player counts x random/heuristic/search, cheat as a ceiling)
        and write one self-contained HTML page with PNGs and CSV/Parquet tables. Each batch
        is reduced to exact counts chunk by chunk (memory stays flat whatever the game
        counts) and kept in the results store as a run of its own (per-game records there
        only with --records)."""
        from analysis.execution import check_run_size
        from reports.regicide import build_report
        from scripts.game_cli import check_out
        from scripts.runs_cli import cli_execution
        from simcore.errors import check_games
        from simcore.parallel import check_jobs

        from simcore.regicide.model import check_players
        from strategies.regicide import get_strategy, parse_params

        games = check_games(games if games is not None else 20000)
        check_games(search_games, "--search-games")
        if param is not None and budget is not None:
            raise PlaytestError("give --param (the old name --budget is the same option) once", field="--budget")
        if budget is not None:
            param = str(budget)
        budget = 16
        if param is not None:   # search's rollouts per candidate move (checked like run's --param)
            v = float(parse_params(param, get_strategy("search"))[0])
            if v != int(v):
                raise PlaytestError(f"must be a whole number, got {param!r}", field="--param")
            budget = int(v)
        names = None
        if strategies is not None:
            names = [s.strip() for s in strategies.split(",") if s.strip()]
            for s in names:
                if s not in STUDY:
                    raise PlaytestError(f"the report's study plays {', '.join(STUDY)}, got {s!r}", field="--strategies")
        if players is not None:
            players = check_players(players)
        seed = _check_seed(seed)
        jobs = check_jobs(jobs)
        rules = _rules(rules_file, set_)
        check_out(out)
        check_run_size(games, 1)
        check_run_size(search_games, 1, "--search-games")
        cli_execution(jobs).close()  # the backend and store options, checked before the first game
        path = build_report(out, games=games, search_games=search_games, budget=budget, seed=seed, jobs=jobs,
                            rules=rules, execution=lambda: cli_execution(jobs), strategies=names, players=players)
        from reports.regicide import summary_lines

        typer.echo("\n".join(summary_lines(path.parent)))
        typer.echo(f"report: {path}")
