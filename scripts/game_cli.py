"""The verbs every registered game gets, with the same option names everywhere:

    playtest games
    playtest <game> rules | strategies | run | tournament | replay | tune | fix
    playtest <game> play | matchups     (games with heroes or roles)
    playtest report <game>              (the shared designer report)

Which verbs every game has and which options every verb that plays games takes (the same
names, the same meaning): ``scripts/verbs.py``, held by ``tests/test_verbs_conformance.py``.
An option a game does not have (``--hero`` without heroes, ``--content`` without content
files, ``--players`` with a fixed seat count) is not offered (:func:`absent_options`), so
it is refused in one line instead of ignored.

A game with its own CLI module (``scripts/duel_cli.py``, ``scripts/regicide_cli.py``)
keeps its commands; the verbs it does not define come from here. Every input is checked
before the first game is played (rules, strategies, seats, --out, game counts, memory).
"""
from __future__ import annotations

import json
import shlex
import sys
import time
from pathlib import Path
from typing import List, Optional

import typer

from analysis.execution import check_run_size
from scripts.runs_cli import cli_execution, run_options
from simcore.errors import PlaytestError

DEFAULT_SEED = 1

GAMES = typer.Option(10000, "--games", "-n", help="Games per matchup (the first block with --ci-width).")
SEED = typer.Option(DEFAULT_SEED, "--seed", help="Run seed: game i is played from stream (seed, i).")
PARAM = typer.Option(None, "--param", help="Strategy parameters for every seat that plays search, comma-separated "
                     "numbers, checked before the first game (the search budget first; Dice Throne: "
                     "BUDGET[,HORIZON] = rollouts per move, turns per rollout).")
JOBS = typer.Option(1, "--jobs", "-j", help="Worker processes (results are identical for any value).")
RULES = typer.Option(None, "--rules", help="TOML file of rule options (see `playtest GAME rules`).")
SET = typer.Option(None, "--set", help="Rule option key=value (repeatable).")
JSON = typer.Option(False, "--json", help="Print one JSON object in the shared result schema.")
OUT = typer.Option(None, "--out", "-o", help="Directory for tables (CSV + Parquet + run.json).")
CIW = typer.Option(None, "--ci-width", help="Play each matchup in blocks of -n games until every win rate's "
                                            "95% half-width is at most this (e.g. 0.01), or --max-games.")
CONTENT = typer.Option(None, "--content", help="Folder of the game's content files (the duel: hero TOML "
                                                "files), e.g. a playground export (playtest serve).")
MAXG = typer.Option(None, "--max-games", help="Cap on games per matchup with --ci-width (default 100 x -n).")
TRACE = typer.Option(False, "--trace/--no-trace", help="Trace the per-turn score for the lead metrics "
                                                      "(decisiveness, lead_change, drama).")


PLAYERS = typer.Option(None, "--players", "-p", help="Number of players (games whose seat count varies).")
STRATEGY = typer.Option(None, "--strategy", "-s", help="One strategy for every seat, or a comma list, one per seat "
                        "(built-in name, or package.module:function).")
VS_STRATEGY = typer.Option(None, "--vs-strategy", help="Two-seat games: the second seat's strategy (hero and "
                           "role games: B's, which B keeps when the seats swap).")
STRATEGIES = typer.Option(None, "--strategies", help="Comma list of strategies, each played in every seat "
                          "(default: the game's).")
REPORT_OUT = "Output directory (report.html, its figures and tables)."


# a game's own handling of ``run``/``matchups`` under some rule options (Dice Throne's team and
# free-for-all modes: scripts/dicethrone_modes_cli.mode_verb): ``hook(verb, ctx, options) ->
# bool``, called once the Context is checked; True: done (nothing else runs)
MODE_VERBS: dict = {}


def like(option, default):
    """``option`` (a shared ``typer.Option``) with another default: the same names and help,
    so a verb whose default differs still means the same thing."""
    import copy

    o = copy.copy(option)
    o.default = default
    return o


def without(fn, names):
    """``fn`` without the parameters ``names`` (each passed its default): an option a game
    does not have is not offered, so it is refused in one line, not ignored
    (``scripts/verbs.py``)."""
    import functools
    import inspect

    sig = inspect.signature(fn)
    gone = {n: sig.parameters[n].default for n in names if n in sig.parameters}
    if not gone:
        return fn
    gone = {n: getattr(d, "default", d) for n, d in gone.items()}

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **{**gone, **kwargs})

    wrapper.__signature__ = sig.replace(parameters=[q for n, q in sig.parameters.items() if n not in gone])
    return wrapper


def heroes_alias(fn):
    """``fn`` with ``--heroes``, the old name of ``--content`` (hidden, as the duel's and
    ``fix``'s): a verb that takes ``--content`` takes it under either name, once."""
    import functools
    import inspect

    sig = inspect.signature(fn)
    if "content" not in sig.parameters or "heroes" in sig.parameters:
        return fn

    @functools.wraps(fn)
    def wrapper(*args, heroes=None, **kwargs):
        if heroes is not None:
            if kwargs.get("content") is not None:
                raise PlaytestError("give --content (the old name --heroes is the same option) once", field="--heroes")
            kwargs["content"] = heroes
        return fn(*args, **kwargs)

    alias = inspect.Parameter("heroes", inspect.Parameter.KEYWORD_ONLY,
                              default=typer.Option(None, "--heroes", hidden=True, help="Old name of --content."))
    wrapper.__signature__ = sig.replace(parameters=list(sig.parameters.values()) + [alias])
    return wrapper


def absent_options(game: str) -> set:
    """The parameter names of the shared options this game does not have: ``hero``/``vs``
    without heroes, ``content`` without content files, ``players`` with a fixed seat count."""
    from simcore.game import game_type, get_game

    gt = game_type(game)
    gone = set()
    if gt.entrants != "heroes":
        gone |= {"hero", "vs"}
    if not get_game(game).content_folder:
        gone.add("content")
    if gt.min_seats == gt.max_seats:
        gone.add("players")
    return gone


def command_line() -> str:
    return shlex.join(["playtest", *sys.argv[1:]])


def check_out(out: Optional[str]) -> Optional[Path]:
    """--out must be a directory we can write: checked before any game is played."""
    if out is None:
        return None
    import os
    import tempfile

    p = Path(out)
    if p.exists() and not p.is_dir():
        raise PlaytestError("exists and is not a directory", where=str(p), field="--out")
    probe = p
    while not probe.exists():
        probe = probe.parent
    if not os.access(probe, os.W_OK):
        raise PlaytestError(f"cannot write in {probe}", where=str(p), field="--out")
    try:
        p.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=p):
            pass
    except OSError as e:
        raise PlaytestError(f"cannot write: {e.strerror}", where=str(p), field="--out") from None
    return p


def check_ci_width(w: Optional[float]) -> Optional[float]:
    if w is not None and not 0.0005 <= w <= 0.5:
        raise PlaytestError(f"must be between 0.0005 and 0.5 (a half-width, 0.01 = 1 point), got {w}",
                            field="--ci-width")
    return w


class Context:
    """Everything a verb needs, validated before the first game."""

    def __init__(self, game: str, rules_file, sets, players: Optional[int] = None, content=None):
        from simcore.game import game_type, get_game
        from simcore.toml_io import parse_set_options

        self.name = game
        self.type = game_type(game)
        self.api = get_game(game)
        self.rules = self.api.load_rules(rules_file, parse_set_options(sets))
        self.defaults = self.api.load_rules()
        if content is not None and not self.api.content_folder:
            raise PlaytestError(f"{self.type.title} has no content files", field="--content")
        self.content = self.api.load_content(self.rules, content)
        self.entrants = self.api.entrant_names(self.content)
        seats = players if players is not None else self.type.default_seats
        if not self.type.min_seats <= seats <= self.type.max_seats:
            raise PlaytestError(f"{self.type.title} seats {self.type.min_seats}-{self.type.max_seats} players, "
                                f"got {seats}", field="--players")
        self.seats = seats

    def strategies(self, spec: str, field: str = "--strategy") -> tuple:
        from strategies.bind import seat_strategies

        specs = seat_strategies(spec, self.seats, field)
        for s in set(specs):
            try:
                self.api.check_strategy(s)
            except PlaytestError as e:
                raise PlaytestError(e.reason, e.where, field) from None
        return specs

    def strategy_list(self, text: str, field: str = "--strategies") -> list[str]:
        items = [s.strip() for s in text.split(",") if s.strip()]
        if not items:
            raise PlaytestError("give at least one strategy", field=field)
        if len(set(items)) != len(items):
            raise PlaytestError(f"a strategy is named twice in {text!r}", field=field)
        for s in items:
            try:
                self.api.check_strategy(s)
            except PlaytestError as e:
                raise PlaytestError(e.reason, e.where, field) from None
        return items

    def hero(self, name: str, field: str) -> int:
        from simcore.duel.model import find_hero  # the one hero-name matcher

        if self.type.entrants != "heroes":
            raise PlaytestError(f"{self.type.title} has no heroes", field=field)
        return find_hero(self.content, name, field)

    def setup(self, params=None):
        return self.api.make_setup(self.rules, self.content, self.seats, params)


def _emit(ctx: Context, res, json_out: bool, out: Optional[Path], started: float, extra: dict | None = None,
          command: Optional[str] = None):
    from analysis.io import write_tables
    from analysis.runs import fmt_rate, result_json

    import pandas as pd

    doc = result_json(res, command or command_line(), extra=extra)
    doc["seconds"] = round(time.perf_counter() - started, 3)
    if out is not None:
        tables = {"matchups": pd.json_normalize(doc["matchups"]), "entrants": pd.DataFrame(doc["entrants"]),
                  "ratings": pd.DataFrame(doc["ratings"])}
        write_tables(out, {k: v for k, v in tables.items() if len(v)}, {k: v for k, v in doc.items()
                                                                      if k not in ("matchups", "entrants")})
    if json_out:
        typer.echo(json.dumps(doc, default=float))
        return doc
    gt = ctx.type
    typer.echo(f"{gt.title}: {doc['games']:,} games, seed {res.seed}, {len(res.matchups)} matchup(s)"
               + (f", rules changed: {doc['rules']}" if doc["rules"] else ""))
    for row in doc["matchups"][:40]:
        who = " vs ".join(f"{s['entrant']} ({s['strategy']})" for s in row["seats"])
        note = "" if row.get("reached_ci_width", True) else "  [did not reach --ci-width]"
        typer.echo(f"  {who}: seat 1 {fmt_rate(row['win_rate'], row['win_rate_ci'], row['games'])}, "
                   f"capped {row['capped']:,}{note}")
    if len(doc["matchups"]) > 40:
        typer.echo(f"  ... {len(doc['matchups']) - 40} more matchups (--json or --out for all)")
    key = "role_win_rate" if gt.roles else "seat_win_rate"
    if not res.cooperative:
        for s, (x, ci) in enumerate(zip(doc[key], doc[key + "_ci"])):
            typer.echo(f"  {gt.seat_label(s)}: {fmt_rate(x, ci)}")
    m = doc["metrics"]
    for k, v in m.items():
        if v.get("x") is None:
            typer.echo(f"  {k}: n/a ({v.get('note', '')})")
        elif k == "duration":
            typer.echo(f"  duration: mean {v['x']:.1f} turns [{v['x_ci'][0]:.1f}, {v['x_ci'][1]:.1f}], "
                       f"median {v['median']:.0f}, 5-95% {v['p5']:.0f}-{v['p95']:.0f}")
        elif k in ("lead_change", "drama"):
            typer.echo(f"  {k}: {v['x']:.2f} [{v['x_ci'][0]:.2f}, {v['x_ci'][1]:.2f}] (n={v['n']:,})")
        else:
            typer.echo(f"  {k}: {fmt_rate(v['x'], v['x_ci'], v['n'])}")
    typer.echo(f"  games ended by a cap: {doc['capped_games']:,}")
    if doc["ratings"]:
        typer.echo("  ratings (Bradley-Terry, Elo scale):")
        for r in doc["ratings"][:12]:
            typer.echo(f"    {r['rating']:7.0f} [{r['rating_ci'][0]:.0f}, {r['rating_ci'][1]:.0f}]  {r['entrant']}")
    comp = doc.get("compile_seconds", 0.0)
    typer.echo(f"  {doc['games']:,} games in {doc['seconds'] - comp:.1f} s"
               + (f" (plus {comp:.1f} s compiling or loading the kernels)" if comp >= 0.5 else "")
               + (f"; tables in {out}" if out else ""))
    if doc.get("run_id"):
        typer.echo(f"  stored as run {doc['run_id']} (playtest runs show {doc['run_id']})")
    return doc


def _play_plan(ctx: Context, plan, games, seed, jobs, out, ci_width, max_games, trace, json_out,
               param: Optional[str] = None, summary=None) -> dict:
    """Check the destination, the run's size, the strategies' ``--param``, the backend and
    the store, play every matchup of ``plan``, print or write the result (``run`` and
    ``tournament``); the parameters the game read from ``--param`` go in the JSON.
    ``summary(res) -> (json keys, text lines)``: a verb's own figures (``play``: the first
    hero's side), added to the JSON and printed first."""
    from analysis.runs import run

    setup = ctx.setup(param)   # the game checks --param here, before any game or file
    outp = check_out(out)
    check_run_size(max_games or games * (100 if ci_width else 1), len(plan))
    execution = cli_execution(jobs)  # the backend and the store, checked before any game
    t0 = time.perf_counter()
    res = run(ctx.name, setup, ctx.entrants, plan, games, seed, ctx.rules, ctx.defaults, jobs,
              trace=trace, ci_width=ci_width, max_games=max_games, progress=not json_out and sys.stderr.isatty(),
              execution=execution)
    extra, lines = summary(res) if summary is not None else ({}, [])
    if not json_out:
        for line in lines:
            typer.echo(line)
    return _emit(ctx, res, json_out, outp, t0, {**extra, **(_param_json(param, setup) or {})})


def _lineup_plan(ctx: Context, strategy, vs_strategy, hero, vs) -> list:
    """One lineup of ``run``/``play``: a strategy per seat; hero games: A against B, then
    the same seeds with seats swapped (each hero keeps its strategy)."""
    spec = strategy or ctx.type.default_strategy
    if vs_strategy is not None:
        if ctx.seats != 2:
            raise PlaytestError("--vs-strategy is for two-seat games; give a comma list to --strategy",
                                field="--vs-strategy")
        spec = f"{spec},{vs_strategy}"
    specs = ctx.strategies(spec)
    if ctx.type.entrants == "heroes":
        if hero is None or vs is None:
            raise PlaytestError("name both heroes: --hero A --vs B", field="--hero")
        lineup = (ctx.hero(hero, "--hero"), ctx.hero(vs, "--vs"))
        return [(lineup, specs), ((lineup[1], lineup[0]), specs[::-1])]
    return [(tuple(range(ctx.seats)), specs)]


def _role_plan(ctx: Context, strategy, vs_strategy) -> list:
    """``play`` in a role game: strategy A (``--strategy``) against strategy B
    (``--vs-strategy``, default A's), A in the first role, then the same seeds with the
    roles swapped (only once when A is B)."""
    a = strategy or ctx.type.default_strategy
    specs = ctx.strategies(f"{a},{vs_strategy or a}", "--strategy")
    seats = tuple(range(ctx.seats))
    return [(seats, specs)] + ([(seats, specs[::-1])] if specs[0] != specs[1] else [])


def _pooled(rows) -> tuple:
    """One side's totals over the two seat orders of ``play`` (it sits in seat 1 of the first
    matchup and seat 2 of the second): wins, draws, capped games, finished games, and its
    score (wins + half the draws)."""
    k = n = wins = draws = capped = 0
    for row, seat in zip(rows, (0, 1)):
        wins += row["wins"][seat]
        draws += row["draws"]
        capped += row["capped"]
        n += row["games"] - row["capped"]
        k += row["wins"][seat] + 0.5 * row["draws"]
    return wins, draws, capped, n, k


def _strategy_side(ctx: Context, res, plan) -> tuple[dict, list]:
    """``play``'s own figures in a role game: strategy A's score over both role orders
    (draws half; games ended by a cap counted apart), and each role's."""
    from analysis.runs import fmt_rate, rate

    wins, draws, capped, n, k = _pooled(res.matchup_rows())
    r = rate(k, n)
    sa, sb = plan[0][1]
    extra = {"strategy": sa, "vs_strategy": sb, "wins": int(wins), "draws": int(draws),
             "losses": int(n - wins - draws), "capped": int(capped), "win_rate": r["x"], "win_rate_ci": r["x_ci"],
             "win_rate_games": int(n)}
    roles = " and ".join(ctx.type.roles)
    line = (f"{sa} against {sb}, as {roles} in turn: {sa} wins {wins:,}, draws {draws:,}, loses "
            f"{n - wins - draws:,}: scores {fmt_rate(r['x'], r['x_ci'], n)} (draws half"
            + (f"; {capped:,} game{'' if capped == 1 else 's'} ended by the cap, counted apart" if capped else "") + ")")
    return extra, [line]


def _write_tune(out: Path, game: str, option: str, seed: int, docs: list, key: str) -> None:
    """``tune --out``: one row per value and seat (role), its win rate with interval and n,
    the mean turns and the capped games; the variants' documents as the JSON sidecar."""
    import pandas as pd

    from analysis.io import write_tables

    rows = []
    for d in docs:
        for s, (x, ci) in enumerate(zip(d[key], d[key + "_ci"])):
            rows.append({"option": option, "value": d["value"], "seat": s, "win_rate": x,
                         "ci_low": ci[0] if ci else None, "ci_high": ci[1] if ci else None, "games": d["games"],
                         "capped": d["capped_games"], "mean_turns": d["metrics"]["duration"]["x"]})
    write_tables(out, {"tune": pd.DataFrame(rows)}, {"game": game, "option": option, "seed": seed,
                                                    "variants": docs})


def _a_side(ctx: Context, res, plan) -> tuple[dict, list]:
    """``play``'s own figures: hero A's score over both seat orders (A sits in seat 1 of the
    first lineup and seat 2 of the second; draws count half; games ended by a cap are
    counted apart), and the first player's score."""
    from analysis.runs import fmt_rate, rate

    wins, draws, capped, n, k = _pooled(res.matchup_rows())
    r = rate(k, n)
    (a, b), (sa, sb) = plan[0]
    a_name, b_name = ctx.entrants[a], ctx.entrants[b]
    extra = {"hero": a_name, "vs": b_name, "hero_strategy": sa, "vs_strategy": sb,
             "wins": int(wins), "draws": int(draws), "losses": int(n - wins - draws), "capped": int(capped),
             "win_rate": r["x"], "win_rate_ci": r["x_ci"], "win_rate_games": int(n)}
    line = (f"{a_name} ({sa}) against {b_name} ({sb}), both seat orders: {a_name} wins {wins:,}, draws {draws:,}, "
            f"loses {n - wins - draws:,}: scores {fmt_rate(r['x'], r['x_ci'], n)} (draws half"
            + (f"; {capped:,} game{'' if capped == 1 else 's'} ended by the cap, counted apart" if capped else "") + ")")
    return extra, [line]


def _hero_matrix(ctx: Context, res) -> tuple[dict, list]:
    """``matchups``' own figures: the row hero's score against the column hero, both seat
    orders pooled (draws half), as a matrix with intervals."""
    from analysis.runs import rate

    names = list(ctx.entrants)
    acc = {}
    for row in res.matchup_rows():
        a, b = (names.index(s["entrant"]) if s["entrant"] in names else None for s in row["seats"])
        done = row["games"] - row["capped"]
        for i, j, seat in ((a, b, 0), (b, a, 1)):
            c = acc.setdefault((i, j), [0.0, 0])
            c[0] += row["wins"][seat] + 0.5 * row["draws"]
            c[1] += done
    win = [[None] * len(names) for _ in names]
    ci = [[None] * len(names) for _ in names]
    games = [[0] * len(names) for _ in names]
    for (i, j), (k, n) in acc.items():
        if i == j:
            continue  # a mirror scores 50% by construction: the first-player edge shows it
        r = rate(k, n)
        win[i][j], ci[i][j], games[i][j] = r["x"], r["x_ci"], int(n)
    w = max(len(x) for x in names)
    who, orders = ("hero", "both seat orders, ") if ctx.type.entrants == "heroes" else ("role", "")
    lines = [f"row {who}'s score against the column {who} ({orders}draws half, 95% Wilson interval):",
             " " * (w + 2) + "  ".join(f"{x[:18]:>20s}" for x in names)]
    for i, name in enumerate(names):
        cells = [f"{'-':>20s}" if win[i][j] is None else
                 f"{100 * win[i][j]:5.1f} [{100 * ci[i][j][0]:4.1f},{100 * ci[i][j][1]:4.1f}]".rjust(20)
                 for j in range(len(names))]
        lines.append(f"{name:<{w}s}  " + "  ".join(cells))
    return {"heroes": names, "win_rate": win, "win_rate_ci": ci, "win_rate_games": games}, lines


def _roster_summary(ctx: Context, res, matrix: bool = False) -> tuple[dict, list]:
    """Hero games over the whole roster (``analysis/roster.py``): for each strategy that played
    itself, the tier list (each hero's score against the field with its interval and n, its
    rating); between strategies, whether the order of heroes holds; with ``matrix``, the
    N x N table first and the tables under ``roster`` in the JSON (``matchups``; a
    tournament's JSON stays the shared schema a stored run gives back)."""
    from analysis.roster import level_runs, roster_json, verdict_pairs
    from analysis.runs import fmt_rate
    from reports.duel import skill_order

    extra, lines = _hero_matrix(ctx, res) if matrix else ({}, [])
    if ctx.type.entrants != "heroes":
        return extra, lines
    levels = level_runs(res, ctx.api.entrant_titles(ctx.content))
    order = skill_order(list(levels))
    doc = roster_json(levels, order)
    if matrix:
        extra = {**extra, "roster": doc}
    for s in order:
        tiers = doc["levels"][s]["tiers"]
        if not tiers:
            continue
        lines.append(f"tier list at {s} (score against the field, mirrors left out, capped games as draws; "
                     "rating: Bradley-Terry, Elo scale):")
        for t in tiers:
            rating = "" if t["rating"] is None else f"  rating {t['rating']:.0f} [{t['rating_low']:.0f}, " \
                                                    f"{t['rating_high']:.0f}]"
            lines.append(f"  {t['rank']}. {t['hero']:<18s} tier {t['tier']}  "
                         f"{fmt_rate(t['win_rate'], (t['ci_low'], t['ci_high']), t['games'])}{rating}"
                         f"  (capped {t['timeouts']:,})")
    lines += [v["text"] for v in doc["verdicts"]]
    return extra, lines


def _param_json(param: Optional[str], setup) -> Optional[dict]:
    """``{"param": text, ...what the game read from it}`` for the JSON output (None: no --param)."""
    if param is None:
        return None
    shown = setup.get("json", {}) if isinstance(setup, dict) else {}
    return {"param": param, **shown}


def add_game_verbs(app: typer.Typer, game: str, skip: frozenset = frozenset()) -> None:
    """Attach the shared verbs to ``app`` (the game's sub-command), except ``skip``."""

    gone = absent_options(game)

    def verb(name):
        def deco(fn):
            if name not in skip:
                f = without(fn, gone)
                app.command(name)(f if "content" in gone else heroes_alias(f))
            return fn
        return deco

    @verb("rules")
    def rules_cmd(rules: Optional[str] = RULES, set_: Optional[List[str]] = SET, json_out: bool = JSON):
        """Every rule option and its value (defaults, then --rules, then --set)."""
        ctx = Context(game, rules, set_)
        if json_out:
            typer.echo(json.dumps(ctx.rules))
            return
        for k, v in ctx.rules.items():
            mark = "" if ctx.defaults.get(k) == v else "   (changed)"
            typer.echo(f"{k:28s} {str(v).lower() if isinstance(v, bool) else v}{mark}")
        typer.echo(f"(the rules: {ctx.type.digest})")

    @verb("strategies")
    def strategies_cmd(json_out: bool = JSON):
        """The built-in strategies (plug-ins: --strategy package.module:function)."""
        from simcore.game import get_game

        s = get_game(game).strategies()
        if json_out:
            typer.echo(json.dumps(s))
            return
        for k, v in s.items():
            typer.echo(f"{k:12s} {v}")

    @verb("run")
    @run_options
    def run_cmd(players: Optional[int] = PLAYERS, strategy: Optional[str] = STRATEGY,
                vs_strategy: Optional[str] = VS_STRATEGY,
                hero: Optional[str] = typer.Option(None, "--hero", help="Hero of seat 1 (hero games)."),
                vs: Optional[str] = typer.Option(None, "--vs", help="Hero of seat 2 (hero games)."),
                games: int = GAMES, seed: int = SEED, jobs: int = JOBS, rules: Optional[str] = RULES,
                set_: Optional[List[str]] = SET, out: Optional[str] = OUT, ci_width: Optional[float] = CIW,
                max_games: Optional[int] = MAXG, trace: bool = TRACE, json_out: bool = JSON,
                content: Optional[str] = CONTENT, param: Optional[str] = PARAM):
        """Play one lineup (a strategy per seat) and print win rates, metrics and ratings."""
        from analysis.runs import check_jobs, check_seed
        from simcore.errors import check_games

        games = check_games(games)
        seed, jobs = check_seed(seed), check_jobs(jobs)
        check_ci_width(ci_width)
        ctx = Context(game, rules, set_, players, content)
        if game in MODE_VERBS and MODE_VERBS[game]("run", ctx, dict(
                players=players, strategy=strategy, vs_strategy=vs_strategy, hero=hero, vs=vs, games=games,
                seed=seed, out=out, ci_width=ci_width, max_games=max_games, trace=trace, json_out=json_out,
                param=param)):
            return
        plan = _lineup_plan(ctx, strategy, vs_strategy, hero, vs)
        _play_plan(ctx, plan, games, seed, jobs, out, ci_width, max_games, trace, json_out, param)

    from simcore.game import game_type

    if game_type(game).entrants in ("heroes", "roles"):
        @verb("play")
        @run_options
        def play_cmd(hero: str = typer.Option(..., "--hero", help="Hero A (key, name or prefix)."),
                     vs: str = typer.Option(..., "--vs", help="Hero B."),
                     strategy: Optional[str] = STRATEGY, vs_strategy: Optional[str] = VS_STRATEGY,
                     games: int = GAMES, seed: int = SEED, jobs: int = JOBS, rules: Optional[str] = RULES,
                     set_: Optional[List[str]] = SET, out: Optional[str] = OUT, ci_width: Optional[float] = CIW,
                     max_games: Optional[int] = MAXG, trace: bool = TRACE, json_out: bool = JSON,
                     content: Optional[str] = CONTENT, param: Optional[str] = PARAM):
            """One matchup, A against B, both seat orders on common seeds: A's win rate (draws
            half) with its interval, the first player's edge, and the shared metrics. Hero
            games: hero A (--strategy) against hero B (--vs-strategy); role games: strategy A
            (--strategy) against strategy B (--vs-strategy), each in every role."""
            from analysis.runs import check_jobs, check_seed
            from simcore.errors import check_games

            games = check_games(games)
            seed, jobs = check_seed(seed), check_jobs(jobs)
            check_ci_width(ci_width)
            ctx = Context(game, rules, set_, None, content)
            if ctx.type.entrants == "roles":
                plan = _role_plan(ctx, strategy, vs_strategy)
                _play_plan(ctx, plan, games, seed, jobs, out, ci_width, max_games, trace, json_out, param,
                           summary=lambda res: _strategy_side(ctx, res, plan))
                return
            plan = _lineup_plan(ctx, strategy, vs_strategy, hero, vs)
            _play_plan(ctx, plan, games, seed, jobs, out, ci_width, max_games, trace, json_out, param,
                       summary=lambda res: _a_side(ctx, res, plan))

        @verb("matchups")
        @run_options
        def matchups_cmd(strategy: Optional[str] = like(STRATEGY, None),
                         games: int = GAMES, seed: int = SEED, jobs: int = JOBS, rules: Optional[str] = RULES,
                         set_: Optional[List[str]] = SET, out: Optional[str] = OUT,
                         ci_width: Optional[float] = CIW, max_games: Optional[int] = MAXG, trace: bool = TRACE,
                         json_out: bool = JSON, content: Optional[str] = CONTENT, param: Optional[str] = PARAM):
            """Every ordered pair of entrants (heroes, mirrors too; roles) under one strategy,
            seats swapped on the same seeds: the row entrant's win rate against each column
            entrant, with intervals."""
            from analysis.runs import check_jobs, check_seed, lineups_for
            from simcore.errors import check_games

            games = check_games(games)
            seed, jobs = check_seed(seed), check_jobs(jobs)
            check_ci_width(ci_width)
            ctx = Context(game, rules, set_, None, content)
            if game in MODE_VERBS and MODE_VERBS[game]("matchups", ctx, dict(
                    strategy=strategy, games=games, seed=seed, out=out, ci_width=ci_width, max_games=max_games,
                    trace=trace, json_out=json_out, param=param)):
                return
            strat = ctx.strategies(strategy or ctx.type.default_strategy)
            if len(set(strat)) != 1:
                raise PlaytestError("one strategy for every entrant (tournament plays several)", field="--strategy")
            plan = lineups_for(game, len(ctx.entrants), ctx.seats, [strat[0]],
                               bool(ctx.rules.get("mirror_matches", True)))
            _play_plan(ctx, plan, games, seed, jobs, out, ci_width, max_games, trace, json_out, param,
                       summary=lambda res: _roster_summary(ctx, res, matrix=True))

    @verb("tournament")
    @run_options
    def tournament_cmd(strategies: Optional[str] = STRATEGIES, players: Optional[int] = PLAYERS,
                       games: int = GAMES, seed: int = SEED, jobs: int = JOBS, rules: Optional[str] = RULES,
                       set_: Optional[List[str]] = SET, out: Optional[str] = OUT,
                       ci_width: Optional[float] = CIW, max_games: Optional[int] = MAXG, trace: bool = TRACE,
                       json_out: bool = JSON, content: Optional[str] = CONTENT, param: Optional[str] = PARAM):
        """Every strategy against every strategy, over every hero pair / role / seat and both
        seat orders, on common seeds; ratings over every (entrant, strategy)."""
        from analysis.runs import check_jobs, check_seed, lineups_for
        from simcore.errors import check_games

        games = check_games(games)
        seed, jobs = check_seed(seed), check_jobs(jobs)
        check_ci_width(ci_width)
        ctx = Context(game, rules, set_, players, content)
        strats = ctx.strategy_list(strategies or ",".join(ctx.api.report_plan()["strategies"]))
        plan = lineups_for(game, len(ctx.entrants), ctx.seats, strats, bool(ctx.rules.get("mirror_matches", True)))
        doc = _play_plan(ctx, plan, games, seed, jobs, out, ci_width, max_games, trace, json_out, param,
                         summary=lambda res: _roster_summary(ctx, res))
        if not json_out and ctx.type.entrants == "heroes":
            _skill_vs_hero(doc)

    @verb("replay")
    def replay_cmd(players: Optional[int] = PLAYERS, strategy: Optional[str] = STRATEGY,
                   hero: Optional[str] = typer.Option(None, "--hero", help="Hero of seat 1 (hero games)."),
                   vs: Optional[str] = typer.Option(None, "--vs", help="Hero of seat 2 (hero games)."),
                   seed: int = SEED, game_index: str = typer.Option("0", "--game", help="Game index in the run."),
                   rules: Optional[str] = RULES, set_: Optional[List[str]] = SET, param: Optional[str] = PARAM,
                   content: Optional[str] = CONTENT):
        """The reference engine's play-by-play of one game of a run."""
        from analysis.runs import check_seed

        seed = check_seed(seed)
        try:
            index = int(game_index)
        except ValueError:
            raise PlaytestError(f"must be a whole number, got {game_index!r}", field="--game") from None
        if not 0 <= index < 2**63:
            raise PlaytestError(f"must be 0..2**63-1, got {index}", field="--game")
        ctx = Context(game, rules, set_, players, content)
        specs = ctx.strategies(strategy or ctx.type.default_strategy)
        lineup = tuple(range(ctx.seats))
        if ctx.type.entrants == "heroes":
            lineup = (ctx.hero(hero or ctx.entrants[0], "--hero"), ctx.hero(vs or ctx.entrants[-1], "--vs"))
        typer.echo(ctx.api.replay(ctx.setup(param), lineup, specs, seed, index))

    @verb("tune")
    @run_options
    def tune_cmd(option: str = typer.Option(..., "--option", help="Rule option to vary, or a number of the game's "
                                            "data by name (Dice Throne: e.g. hero.pyromancer.fireball.1.damage, "
                                            "card.surprise.cost, token.fire_mastery.limit)."),
                 values: str = typer.Option(..., "--values", help="Comma list of values to try."),
                 strategies: Optional[str] = STRATEGIES, players: Optional[int] = PLAYERS,
                 games: int = GAMES, seed: int = SEED, jobs: int = JOBS, rules: Optional[str] = RULES,
                 set_: Optional[List[str]] = SET, out: Optional[str] = OUT, json_out: bool = JSON,
                 param: Optional[str] = PARAM, content: Optional[str] = CONTENT):
        """Replay the same tournament on the same seeds for each value of one rule option:
        how much each value moves the seat/role balance and the game length."""
        from analysis.runs import check_jobs, check_seed, result_json, tune
        from simcore.errors import check_games
        from simcore.toml_io import parse_value

        games = check_games(games)
        seed, jobs = check_seed(seed), check_jobs(jobs)
        base = Context(game, rules, set_, players, content)
        if option.startswith("rules.") and option[len("rules."):] in base.rules:
            option = option[len("rules."):]
        _data_number(base, option)   # a rule option or a number of the game's data, else close names
        # typed values (true/false, numbers, words), each variant validated before any game
        vals = [parse_value(v.strip()) for v in values.split(",") if v.strip()]
        if not vals:
            raise PlaytestError("give at least one value", field="--values")
        strats = base.strategy_list(strategies or base.type.default_strategy)
        shown = _param_json(param, base.setup(param))   # the game checks --param here, before any game
        outp = check_out(out)
        cli_execution(jobs).close()   # the backend and store options, checked before the first game
        docs = []
        for v, res in tune(game, base.rules, option, vals, strats, games, seed, jobs, base.seats,
                          content=base.content, params=param, execution=lambda: cli_execution(jobs)):
            doc = result_json(res, command_line())
            doc["value"] = v
            doc.update(shown or {})
            docs.append(doc)
        key = "role_win_rate" if base.type.roles else "seat_win_rate"
        for d in docs:   # the change against the first value, same seeds (intervals: analysis.stats)
            d["change"] = _tune_change(d, docs[0], key)
        if outp is not None:
            _write_tune(outp, game, option, seed, docs, key)
        if json_out:
            typer.echo(json.dumps({"game": game, "option": option, "seed": seed, "variants": docs}, default=float))
            return
        from analysis.runs import fmt_rate

        for d in docs:
            rates = ", ".join(fmt_rate(x, ci) for x, ci in zip(d[key], d[key + "_ci"]))
            dur = d["metrics"]["duration"]
            typer.echo(f"{option} = {d['value']}: {key.replace('_', ' ')} {rates}; turns {dur['x']:.1f} mean; "
                       f"capped {d['capped_games']:,} of {d['games']:,}")
            if base.type.entrants == "heroes":   # the hero matchups themselves (seat 1's side)
                rows = [m for m in d["matchups"] if m["seats"][0]["entrant"] != m["seats"][1]["entrant"]]
                for m in rows[:6]:
                    who = " vs ".join(f"{x['entrant']} ({x['strategy']})" for x in m["seats"])
                    typer.echo(f"    {who}: {fmt_rate(m['win_rate'], m['win_rate_ci'], m['games'])}")

            if d is not docs[0]:
                c = d["change"]
                s1, tc = c["first_rate"], c["turns"]
                if s1["x"] is not None and tc["x"] is not None:
                    typer.echo(f"    against {option} = {docs[0]['value']}: {gt_first(base.type)} "
                               f"{100 * s1['x']:+.1f} points [{100 * s1['x_ci'][0]:+.1f}, {100 * s1['x_ci'][1]:+.1f}]; "
                               f"turns {tc['x']:+.1f} [{tc['x_ci'][0]:+.1f}, {tc['x_ci'][1]:+.1f}]")


def gt_first(gt) -> str:
    return f"{gt.seat_label(0)}'s win rate"


def _tune_change(doc: dict, base: dict, key: str) -> dict:
    """``doc`` against ``base`` (the first value of a tune, same seeds): the first seat's
    (role's) win rate and the mean turns, differences with 95% intervals that treat the two
    runs as independent (``analysis.stats.diff_rates``/``diff_means``; common seeds make
    them conservative)."""
    from analysis.stats import diff_means, diff_rates

    def r(d):
        x, ci = d[key][0], d[key + "_ci"][0]
        return {"x": x, "x_ci": ci}

    return {"first_rate": diff_rates(r(doc), r(base)),
            "turns": diff_means(doc["metrics"]["duration"], base["metrics"]["duration"])}


def _data_number(ctx: Context, option: str) -> bool:
    """False for a rule option, True for a number of the game's data (``editable_numbers``
    beyond the rules); anything else: one line naming the closest names."""
    import difflib

    if option in ctx.rules:
        return False
    names = [e.key for e in ctx.api.editable_numbers(ctx.rules, ctx.content) if not e.key.startswith("rules.")]
    if option in names:
        return True
    if not names:
        raise PlaytestError(f"unknown rule option (known: {', '.join(ctx.rules)})", field="--option")
    pool = list(ctx.rules) + names
    near = difflib.get_close_matches(option, pool, n=5, cutoff=0.5)
    stem = option.rsplit(".", 1)[0]
    near += [k for k in names if k.startswith(stem + ".") and k not in near][: 5 - len(near)]
    raise PlaytestError(f"unknown rule option or data number {option!r} (close: "
                        f"{', '.join(near[:5]) if near else ', '.join(list(ctx.rules)[:8]) + ', ...'})", field="--option")


def _skill_vs_hero(doc: dict) -> None:
    """Hero games: does one strategy beat another with every hero (the same hero on both
    sides, both seat orders pooled), and how much does skill move a matchup compared with
    hero choice?"""
    from analysis.runs import fmt_rate
    from analysis.stats import wilson

    acc: dict = {}
    for m in doc["matchups"]:
        (a, b), done = m["seats"], m["games"] - m["capped"]
        if a["entrant"] != b["entrant"] or a["strategy"] == b["strategy"]:
            continue
        s, t = sorted((a["strategy"], b["strategy"]))
        s_seat = 0 if a["strategy"] == s else 1
        c = acc.setdefault((a["entrant"], s, t), [0.0, 0])
        c[0] += m["wins"][s_seat] + 0.5 * m["draws"]
        c[1] += done
    if not acc:
        return
    typer.echo("  strategy against strategy with the same hero (both seat orders):")
    for (hero, s, t), (k, n) in sorted(acc.items()):
        lo, hi = wilson(k, n)
        typer.echo(f"    {hero}: {s} vs {t}: {s} scores {fmt_rate(k / n, (lo, hi), n)}")
    import pandas as pd

    rows = pd.DataFrame([{"h0": m["seats"][0]["entrant"], "h1": m["seats"][1]["entrant"],
                          "s0": m["seats"][0]["strategy"], "s1": m["seats"][1]["strategy"], "x": m["win_rate"]}
                         for m in doc["matchups"]])
    skill = rows[rows.h0 == rows.h1].groupby(["s0", "s1"]).x.mean()
    hero = rows[rows.s0 == rows.s1].groupby(["h0", "h1"]).x.mean()
    typer.echo(f"  skill vs hero: with the same hero on both sides, the strategy pairing moves seat 1's win rate "
               f"over {100 * (skill.max() - skill.min()):.1f} points; with the same strategy on both sides, the "
               f"hero pairing moves it over {100 * (hero.max() - hero.min()):.1f} points")


def add_report_verb(report_app: typer.Typer, game: str) -> None:
    """``playtest report GAME``: a tournament of the game's built-in strategies at every
    default player count, with the lead trace on, written as one HTML page and tables."""

    @run_options
    def report_cmd(out: str = typer.Option(f"{game}-report", "--out", "-o", help=REPORT_OUT),
                   games: Optional[int] = like(GAMES, None), strategies: Optional[str] = STRATEGIES,
                   players: Optional[int] = PLAYERS, seed: int = SEED, jobs: int = JOBS,
                   rules: Optional[str] = RULES, set_: Optional[List[str]] = SET, content: Optional[str] = CONTENT,
                   section_games: Optional[int] = typer.Option(
                       None, "--section-games", help="Games for the game's own sections that play games of "
                       "their own (Dice Throne: per seat order per card of 'what each card is worth')"),
                   param: Optional[str] = PARAM):
        from analysis.runs import check_jobs, check_seed, lineups_for, result_json, run
        from reports.game import build_game_report
        from reports.sections import report_sections
        from simcore.errors import check_games

        seed, jobs = check_seed(seed), check_jobs(jobs)
        if section_games is not None:
            section_games = check_games(section_games, "--section-games")
        ctx = Context(game, rules, set_, players, content)
        plan_spec = ctx.api.report_plan()
        n = check_games(games if games is not None else plan_spec["games"])
        strats = ctx.strategy_list(strategies) if strategies else plan_spec["strategies"]
        plan = lineups_for(game, len(ctx.entrants), ctx.seats, strats, bool(ctx.rules.get("mirror_matches", True)))
        if plan_spec.get("self_play"):   # the game's report: each strategy against itself (a table per level)
            plan = [p for p in plan if len(set(p[1])) == 1]
        setup = ctx.setup(param)   # the game checks --param here, before any game or file
        outp = check_out(out)
        check_run_size(n, len(plan))  # flat memory: each chunk is reduced where it is played
        execution = cli_execution(jobs)  # the backend and the store, checked before any game
        t0 = time.perf_counter()
        res = run(game, setup, ctx.entrants, plan, n, seed, ctx.rules, ctx.defaults, jobs, trace=True,
                  progress=sys.stderr.isatty(), execution=execution)
        res.setup = setup     # the game's own sections may read its content (Dice Throne: the roster)
        if section_games is not None:
            res.extra["section_games"] = section_games
        res.extra.update(_param_json(param, setup) or {})
        doc = result_json(res, command_line())
        doc["seconds"] = round(time.perf_counter() - t0, 3)
        from analysis.io import write_tables
        import pandas as pd

        write_tables(outp, {"matchups": pd.json_normalize(doc["matchups"]), "entrants": pd.DataFrame(doc["entrants"]),
                            "ratings": pd.DataFrame(doc["ratings"] or [{}])},
                     {k: v for k, v in doc.items() if k not in ("matchups", "entrants")})
        path = build_game_report(res, doc, outp, command_line(), report_sections(game, res))
        sim = doc["seconds"] - doc.get("compile_seconds", 0.0)
        typer.echo(f"{doc['games']:,} games simulated in {sim:.1f} s (plus {doc.get('compile_seconds', 0.0):.1f} s "
                   f"compiling or loading the kernels); report: {path}")
        gt = ctx.type
        key = "role_win_rate" if gt.roles else "seat_win_rate"
        if not res.cooperative:
            from analysis.runs import fmt_rate

            typer.echo("- " + "; ".join(f"{gt.seat_label(i)} {fmt_rate(x, ci)}"
                                        for i, (x, ci) in enumerate(zip(doc[key], doc[key + "_ci"]))))
        typer.echo(f"- games ended by a cap: {doc['capped_games']:,}")
        if doc.get("run_id"):
            typer.echo(f"- stored as run {doc['run_id']} (playtest runs show {doc['run_id']})")

    gone = absent_options(game)
    f = without(report_cmd, gone)
    report_app.command(game)(f if "content" in gone else heroes_alias(f))


def games_cmd(json_out: bool = JSON):
    """List the games playtest knows."""
    from simcore.game import game_names, game_type

    rows = [game_type(n) for n in game_names()]
    if json_out:
        typer.echo(json.dumps([{"name": g.name, "title": g.title, "kind": g.kind, "seats": [g.min_seats, g.max_seats],
                                "entrants": g.entrants, "roles": list(g.roles), "information": g.information,
                                "score": g.score} for g in rows]))
        return
    for g in rows:
        seats = f"{g.min_seats}" if g.min_seats == g.max_seats else f"{g.min_seats}-{g.max_seats}"
        typer.echo(f"{g.name:11s} {g.title} ({g.kind}, {seats} seats{', roles ' + '/'.join(g.roles) if g.roles else ''})")
