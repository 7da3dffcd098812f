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
    players: int = typer.Option(1, "--players", "-p", help="number of players, 1-4 (1 = solo with 2 flips)"),
    strategy: str = typer.Option("heuristic", "--strategy", "-s",
                                 help="random, heuristic, search, cheat (perfect information, a ceiling), "
                                      "or a plug-in package.module:function"),
    games: int = typer.Option(10000, "--games", "-n", help="number of games"),
    seed: int = typer.Option(1, "--seed", help="run seed: game i uses random stream (seed, i)"),
    jobs: int = typer.Option(1, "--jobs", "-j", help="worker processes (results are identical for any value)"),
    param: Optional[str] = typer.Option(None, "--param",
                                        help="strategy parameters, comma-separated (search/cheat: rollouts "
                                             "per candidate move, default 16)"),
    rules_file: Optional[str] = typer.Option(None, "--rules", help="TOML file of rule options"),
    set_: Optional[List[str]] = typer.Option(None, "--set", help="rule option key=value (repeatable)"),
    out: Optional[str] = typer.Option(None, "--out", help="also write the tables here (per-game records: "
                                                          "--records, kept in the store)"),
    as_json: bool = typer.Option(False, "--json", help="print one JSON object (win rate over the finished "
                                                       "games, interval, games, finished_games, capped, mean "
                                                       "enemies defeated)"),
) -> None:
    """Simulate GAMES games of Regicide and print the win rate with its Wilson 95% interval.
    Each chunk of games is reduced to exact counts where it is played (memory stays flat
    whatever -n is); results are identical for any --jobs and --backend."""
    from analysis.execution import check_run_size
    from analysis.io import write_tables
    from analysis.regicide import cap_line, finished_hists, label, summary_from_aggregate, tables_from_aggregates
    from analysis.runs import check_jobs as check_jobs_cap
    from analysis.runs import changed_rules, result_json, run
    from scripts.game_cli import check_out, command_line
    from scripts.runs_cli import cli_execution
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
    rules = _rules(rules_file, set_)
    strat = get_strategy(strategy)
    if strat.sid < 0:
        load_plugin(strat.plugin)
    parse_params(param, strat)  # a bad --param fails now, not in a worker
    check_out(out)
    check_run_size(games, 1)
    execution = cli_execution(jobs)
    api = get_game("regicide")
    setup = api.make_setup(rules, None, players, params=param)
    t0 = time.perf_counter()
    res = run("regicide", setup, [], [(tuple(range(players)), (strategy,) * players)], games, seed, rules,
              defaults(), jobs, progress=not as_json and sys.stderr.isatty(), execution=execution)
    dt = time.perf_counter() - t0 - float(res.extra.get("compile_seconds", 0.0))
    agg = res.matchups[0].records
    s = summary_from_aggregate(agg)
    name = label(strat.name, strat.perfect_information)
    res.matchups[0].strategies = (name,) * players
    tables = tables_from_aggregates([(name, players, agg)])
    meta = {"game": "regicide", "seed": seed, "games": games, "players": players, "strategy": name,
            "params": param, "rules": rules, "jobs": jobs, "seconds": dt}
    if res.extra.get("run_id"):
        meta["run_id"] = res.extra["run_id"]
    if out:
        write_tables(out, tables, meta)  # same names as the report's tables: win_rates.csv, run.json...
    if as_json:
        res.rules_changed = changed_rules(rules, defaults())
        doc = result_json(res, command_line(), strategies_per_seat=[name] * players)
        doc.update({"players": players, "strategy": name, "perfect_information": strat.perfect_information,
                    **s, "seconds": round(dt, 3)})
        typer.echo(json.dumps(doc, default=float))
        return
    row = tables["win_rates"].iloc[0]
    typer.echo(f"regicide, {players} player(s), strategy {name}, {games} games, seed {seed}")
    def num(x, fmt):    # no finished game (every one capped): no rate, no mean
        return "n/a" if x is None or not np.isfinite(x) else format(x, fmt)

    rate_txt = (f"{row.win_rate:.4f}  (95% CI {row.win_ci_low:.4f}-{row.win_ci_high:.4f}, "
                if int(row.finished_games) else "n/a  (")
    typer.echo(f"  win rate        {rate_txt}n={int(row.finished_games)} finished games; "
               f"{int(row.capped)} capped apart)")
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
    typer.echo(f"  {games / max(dt, 1e-9):,.0f} games/s ({dt:.2f} s)" + (f"; tables in {out}" if out else ""))
    if res.extra.get("run_id"):
        typer.echo(f"  stored as run {res.extra['run_id']} (playtest runs show {res.extra['run_id']})")


@regicide_app.command("rules")
def rules_cmd(
    rules_file: Optional[str] = typer.Option(None, "--rules", help="TOML file of rule options"),
    set_: Optional[List[str]] = typer.Option(None, "--set", help="rule option key=value (repeatable)"),
    as_json: bool = typer.Option(False, "--json", help="print one JSON object"),
) -> None:
    """Print every rule option (defaults from simcore/regicide/rules.toml, then overrides)."""
    r = _rules(rules_file, set_)
    if as_json:
        typer.echo(json.dumps(r))
        return
    for k, v in r.items():
        typer.echo(f"{k:26s} {str(v).lower() if isinstance(v, bool) else v}")


@regicide_app.command("strategies")
def strategies_cmd() -> None:
    """List the built-in strategies (plug-ins: --strategy package.module:function)."""
    from strategies.regicide import BUILTIN

    for s in BUILTIN.values():
        typer.echo(f"{s.label:52s} {s.description}")


def register(app, report_app) -> None:
    app.add_typer(regicide_app, name="regicide")

    @report_app.command("regicide")
    @run_options
    def report_regicide(
        out: str = typer.Option("regicide-report", "--out", help="output directory (report.html, PNGs, tables)"),
        games: int = typer.Option(20000, "--games", help="games per player count for random and heuristic"),
        search_games: int = typer.Option(100, "--search-games",
                                         help="search games per player count (cheat, solo only: half as many)"),
        budget: int = typer.Option(16, "--budget", help="search/cheat rollouts per candidate move"),
        seed: int = typer.Option(1, "--seed", help="run seed"),
        jobs: int = typer.Option(1, "--jobs", "-j", help="worker processes"),
        rules_file: Optional[str] = typer.Option(None, "--rules", help="TOML file of rule options"),
        set_: Optional[List[str]] = typer.Option(None, "--set", help="rule option key=value (repeatable)"),
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

        check_games(games)
        check_games(search_games, "--search-games")
        if budget < 1:
            raise PlaytestError(f"must be >= 1, got {budget}", field="--budget")
        seed = _check_seed(seed)
        jobs = check_jobs(jobs)
        rules = _rules(rules_file, set_)
        check_out(out)
        check_run_size(games, 1)
        check_run_size(search_games, 1, "--search-games")
        cli_execution(jobs).close()  # the backend and store options, checked before the first game
        path = build_report(out, games=games, search_games=search_games, budget=budget, seed=seed, jobs=jobs,
                            rules=rules, execution=lambda: cli_execution(jobs))
        from reports.regicide import summary_lines

        typer.echo("\n".join(summary_lines(path.parent)))
        typer.echo(f"report: {path}")
