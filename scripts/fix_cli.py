"""``playtest <game> fix``: the balance search of ``analysis/fix.py`` from the command line,
for every registered game with heroes or roles (``scripts/cli.py`` attaches it)."""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import List, Optional

import typer

from simcore.errors import PlaytestError


def run_fix(game: str, band: Optional[str], spread: Optional[float], strategy: Optional[str], vary: list,
            cost: str = "relative", budget: str = "120s", seed: int = 1, search_seed: int = 0,
            proof_seed: Optional[int] = None, screen_games: int = 1000, refine_width: float = 0.01,
            refine_games: Optional[int] = None, proof_width: float = 0.5, heroes=None, rules=None, sets=None,
            players: Optional[int] = None, out=None, jobs: int = 1, progress: bool = False,
            command: str = "", focus: int = 12, store=None, no_store: bool = False,
            margin: Optional[float] = None, stages: int = 2, param: Optional[str] = None) -> dict:
    """Validate everything, search, prove; returns the result document (shared schema +
    the fix's fields). Writes candidates, patched files and the report under ``out``; keeps
    the fix run in the results store (``store``; none with ``no_store``): every candidate as
    it is evaluated, the proof as its own stored run, the summary in the fix run's manifest
    (``playtest runs show FIX_RUN``).

    ``stages``: when the proof misses, search again from the proposal (at most this many
    searches, each with its own budget, fresh common seeds, a fresh proof seed and a margin
    one proof half-width deeper); the result is the last stage's, every stage is listed."""
    from analysis import fix as F
    from analysis.runs import check_jobs, check_seed, result_json
    from scripts.game_cli import check_out
    from simcore.errors import check_games

    # ---- every input, before any game
    if band is not None and spread is not None:
        raise PlaytestError("give --band or --spread, not both", field="--band")
    space = F.space_for(game, rules, sets, heroes, players)
    mode = F.table_mode(space)
    if band is None and spread is None:     # the even share +- 5 points: 45-55 for a matchup or two teams
        e = F.even_share(space)
        band = f"{100 * e - 5:.1f},{100 * e + 5:.1f}"
    target = F.Target(spread=F.parse_spread(spread)) if spread is not None else F.Target(band=F.parse_band(band))
    kind, amount = F.parse_budget(budget)
    if cost not in F.COST_MODES:
        raise PlaytestError(f"must be one of {', '.join(F.COST_MODES)}, got {cost!r}", field="--cost")
    seed, jobs = check_seed(seed), check_jobs(jobs)
    try:
        search_seed = check_seed(search_seed)
    except PlaytestError as e:
        raise PlaytestError(e.reason, field="--search-seed") from None
    if proof_seed is None:
        proof_seed = F.derive_proof_seed(seed)
    else:
        try:
            proof_seed = check_seed(proof_seed)
        except PlaytestError as e:
            raise PlaytestError(e.reason, field="--proof-seed") from None
    if proof_seed == seed:
        raise PlaytestError("the proof must be a fresh run: use a seed other than --seed", field="--proof-seed")
    screen_games = check_games(screen_games, "--screen-games")
    if refine_games is not None:
        refine_games = check_games(refine_games, "--refine-games")
        if refine_games < screen_games:
            raise PlaytestError(f"must be at least --screen-games ({screen_games})", field="--refine-games")
    if not 0.0005 <= refine_width <= 0.5:
        raise PlaytestError(f"must be between 0.0005 and 0.5 (a half-width, 0.01 = 1 point), got {refine_width}",
                            field="--refine-width")
    if isinstance(focus, bool) or not isinstance(focus, int) or focus < 0:
        raise PlaytestError(f"must be a whole number >= 0, got {focus!r}", field="--focus")
    if not 0.05 <= proof_width <= 10:
        raise PlaytestError(f"must be between 0.05 and 10 points, got {proof_width}", field="--proof-width")
    if margin is None:  # the proof's half-width, but never more than a quarter of the band
        margin = min(proof_width, 100 * (target.band[1] - target.band[0]) / 4 if target.band else 100 * target.spread / 4)
    elif isinstance(margin, bool) or not 0 <= margin <= 10:
        raise PlaytestError(f"must be between 0 and 10 points, got {margin}", field="--margin")
    target.shrunk(margin / 100)  # a margin that leaves no band fails here, before any game
    if isinstance(stages, bool) or not isinstance(stages, int) or not 1 <= stages <= 5:
        raise PlaytestError(f"must be a whole number 1..5, got {stages!r}", field="--stages")
    if mode is None:
        space.api.make_setup(space.rules, space.content, space.seats, param)   # --param checked before any game
    else:     # a team or free-for-all mode: its tables (enough heroes) and --param, before any game
        space.api.table_plan(space.rules, space.content, param)
    space.params = param
    params = F.build_params(space, list(vary or []))
    space.check_values(params)
    specs = [s.strip() for s in (strategy or space.type.default_strategy).split(",") if s.strip()]
    if not specs or len(set(specs)) != len(specs):
        raise PlaytestError(f"give distinct strategies, comma-separated, got {strategy!r}", field="--strategy")
    strategies = []
    for s in specs:
        try:
            strategies.append(space.api.check_strategy(s))
        except PlaytestError as e:
            raise PlaytestError(e.reason, e.where, "--strategy") from None
    outp = check_out(str(out)) if out is not None else None
    if no_store and store:
        raise PlaytestError("needs the store: drop --no-store", field="--store")
    kept = FixRecord(store, game, command, target, strategies, params, seed, search_seed, proof_seed, cost,
                     (kind, amount)) if not no_store else None

    # ---- search, then proof; a proof that misses starts another stage (at most ``stages``)
    # from the proposal, on fresh common seeds, aiming one proof half-width deeper
    cap = max(margin, 100 * (target.band[1] - target.band[0]) / 4 if target.band else 100 * target.spread / 4)
    plan = F.stage_seeds(seed, proof_seed, stages)
    t0 = time.perf_counter()
    stage_docs, results, start, total_games = [], [], None, 0
    try:
        for k, (s_seed, p_seed) in enumerate(plan, start=1):
            m_k = min(margin + (k - 1) * proof_width, cap)
            s_target = target.shrunk(m_k / 100)
            if kept:
                kept.begin_stage(k)
            ts = time.perf_counter()
            res = F.search(space, params, s_target, strategies, (kind, amount), s_seed, search_seed + k - 1,
                           screen_games, refine_width, refine_games, cost, jobs, progress=progress,
                           focus=focus or None, on_candidate=kept.candidate if kept else None, start=start)
            t1 = time.perf_counter()
            proof = F.prove(space, res.best.values, target, strategies, p_seed, proof_width / 100, jobs,
                            execution_factory=kept.proof_execution if kept else None)
            t2 = time.perf_counter()
            total_games += res.games + proof.evaluation.games
            results.append(res)
            stage_docs.append(_stage_doc(k, res, proof, s_seed, search_seed + k - 1, s_target, m_k, t1 - ts,
                                         t2 - t1, start is not None, target))
            if proof.meets or k == len(plan):
                break
            start = {n: int(v) for n, v in res.best.values.items()}
    except BaseException:
        if kept:
            kept.interrupted()
        raise
    margin, search_target, s_seed = stage_docs[-1]["margin_points"], target.shrunk(stage_docs[-1]["margin_points"] / 100), plan[len(stage_docs) - 1][0]
    search_seed_k = search_seed + len(stage_docs) - 1
    edits = res.edits()
    files = space.patched_files(res.best.values)
    diff = F.unified_diff(files, space)
    doc = result_json(proof.evaluation.result, command) if mode is None else _table_doc(space, proof, command)
    doc.update({
        "target": target.as_json(),
        "strategies": strategies,
        "meets_band": bool(proof.meets),
        "edits": edits,
        "cost": round(sum(e["cost"] for e in edits), 6),
        "cost_mode": cost,
        "miss": {"intervals_points": round(100 * proof.miss_intervals, 4),
                 "point_estimates_points": round(100 * proof.miss_points, 4)},
        "proof": {"seed": proof.seed, "games_per_seat_order": proof.games_per_seat_order,
                  "half_width_target_points": proof_width, "half_width_max_points": round(100 * proof.max_half_width, 4),
                  "games": proof.evaluation.games, "seconds": stage_docs[-1]["proof"]["seconds"],
                  "rows": [_row_json(r) for r in proof.evaluation.rows],
                  "field": [_row_json(r) for r in proof.evaluation.field_rows]
                  if proof.evaluation.field_rows is not proof.evaluation.rows else []},
        "baseline": {"seed": plan[0][0], "cost": 0.0,
                     "miss_points": round(100 * target.miss(results[0].baseline.evaluation), 4),
                     "rows": [_row_json(r) for r in results[0].baseline.evaluation.rows]},
        "search": {"optimiser": res.optimiser, "seed": s_seed, "search_seed": search_seed_k,
                   "target": search_target.as_json(), "margin_points": margin,
                   "budget": {"kind": kind, "amount": amount, "per": "stage"}, "games": res.games,
                   "seconds": stage_docs[-1]["search"]["seconds"], "candidates": len(res.candidates),
                   "distinct_candidates": sum(1 for c in res.candidates if c.repeat_of is None),
                   "best_candidate": res.best.id, "stopped_by": res.stopped_by,
                   "focus": res.focus, "focus_rounds": res.focus_rounds, "sensitivity_candidates": sum(1 for c in res.candidates
                                                                     if c.phase == "sensitivity"),
                   "screen_games": screen_games, "refine_width": refine_width,
                   "refine_games": refine_games or 16 * screen_games,
                   "params": [{"name": p.name, "from": p.base, "lo": p.lo, "hi": p.hi, "step": p.step,
                               "weight": p.weight} for p in params]},
        "stages": stage_docs,
        "stages_allowed": stages,
        "strategy_param": param,
        "games_total": int(total_games),
        "diff": diff,
        "seconds": round(time.perf_counter() - t0, 3),
    })
    if kept:
        kept.done(doc, total_games, time.perf_counter() - t0)
    if outp is not None:
        doc["files"] = [str(p) for p in _write_out(outp, space, results, proof, doc, command)]
    return doc


def _table_doc(space, proof, command: str) -> dict:
    """The shared schema's head for a fix in a team or free-for-all mode (its proof is not a
    stored run of the shared runner): the game, the mode, the proof's games and capped games,
    the rules changed."""
    from simcore import __version__

    r = proof.evaluation.result
    return {"game": space.game, "command": command, "version": __version__, "mode": r["mode"], "seed": proof.seed,
            "games": int(r["games"]), "capped_games": int(r["capped"]), "tables": r["tables"],
            "seatings": r["seatings"], "games_per_seating": r["games_per_seating"],
            "rules": {k: v for k, v in space.rules.items() if space.defaults.get(k) != v}}


def _stage_doc(k, res, proof, seed, search_seed, target, margin, search_s, proof_s, from_previous,
               final_target) -> dict:
    """One stage of a fix run: its search (seeds, aim, games, time), its proposal and the
    proof of that proposal on the stage's own fresh seed."""
    edits = res.edits()
    return {"stage": k, "start": "the previous stage's proposal" if from_previous else "the current files",
            "search": {"seed": seed, "search_seed": search_seed, "target": target.as_json(),
                       "games": res.games, "seconds": round(search_s, 3), "candidates": len(res.candidates),
                       "distinct_candidates": sum(1 for c in res.candidates if c.repeat_of is None),
                       "stopped_by": res.stopped_by},
            "margin_points": margin, "edits": edits, "cost": round(sum(e["cost"] for e in edits), 6),
            "proof": {"seed": proof.seed, "meets_band": bool(proof.meets), "games": proof.evaluation.games,
                      "seconds": round(proof_s, 3), "games_per_seat_order": proof.games_per_seat_order,
                      "miss_intervals_points": round(100 * proof.miss_intervals, 4),
                      "miss_point_estimates_points": round(100 * proof.miss_points, 4),
                      "worst": _worst_row(proof, final_target)}}


def _worst_row(proof, target) -> dict | None:
    """The proof's row whose interval reaches furthest out of (or nearest the edge of)
    the band; none for a spread target."""
    if not target.band:
        return None
    lo, hi = target.band
    return _row_json(max(proof.evaluation.rows, key=lambda r: max(lo - r["x_ci"][0], r["x_ci"][1] - hi)))


class FixRecord:
    """A fix run in the results store (``analysis/store.py``): its catalogue row and
    manifest (``kind = "fix"``) from the start, every candidate as soon as it is evaluated
    (``candidates/c000012.parquet``: edits, cost, miss, win rates with intervals), the
    proof as an ordinary stored run named in the manifest, and at the end the summary."""

    def __init__(self, store, game, command, target, strategies, params, seed, search_seed, proof_seed, cost_mode,
                 budget):
        from analysis.store import Store, git_commit, machine, now_iso
        from simcore import __version__

        self.store = Store(store).check_writable()
        self.run = self.store.new_run(game)
        self.command = command
        self.params, self.cost_mode = params, cost_mode
        self.t0 = time.perf_counter()
        self.n = 0
        self.stage, self.offset = 1, 0
        self.manifest = {"run_id": self.run.run_id, "kind": "fix", "game": game, "command": command,
                         "started": now_iso(), "proof_run_id": None,
                         "fix": {"status": "searching", "target": target.as_json(), "strategies": strategies,
                                 "seed": seed, "search_seed": search_seed, "proof_seed": proof_seed,
                                 "cost_mode": cost_mode, "budget": {"kind": budget[0], "amount": budget[1]},
                                 "params": [{"name": p.name, "from": p.base, "lo": p.lo, "hi": p.hi,
                                             "step": p.step, "weight": p.weight} for p in params]}}
        self.run.write_manifest(self.manifest)
        self.row = {"run_id": self.run.run_id, "status": "running", "game": game, "command": command, "seed": seed,
                    "games": None, "games_played": 0, "matchups": None, "strategies": strategies, "rules": {},
                    "content_hash": "", "version": __version__, "git_commit": git_commit(),
                    "started": self.manifest["started"], "ended": None, "seconds": None, "machine": machine(),
                    "backend": "local", "key": f"fix-{self.run.run_id}", "resumed_from": None}
        self.run.write_catalogue(self.row)

    def begin_stage(self, k: int) -> None:
        """Candidates of stage ``k`` are numbered after every earlier stage's."""
        self.stage, self.offset = k, self.n

    def candidate(self, c) -> None:
        from analysis.fix import candidate_row

        row = candidate_row(c, self.params, self.cost_mode)
        row["id"] += self.offset
        if row["repeat_of"] >= 0:
            row["repeat_of"] += self.offset
        row["stage"] = self.stage
        self.run.write_candidate(row)
        self.n += 1

    def proof_execution(self):
        from analysis.execution import Execution

        return Execution(store=self.store, command=f"{self.command}  # proof of fix run {self.run.run_id}")

    def interrupted(self) -> None:
        from analysis.store import now_iso

        try:
            self.row.update({"status": "interrupted", "ended": now_iso(),
                             "seconds": round(time.perf_counter() - self.t0, 3)})
            self.run.write_catalogue(self.row)
        except (OSError, PlaytestError):
            pass

    def done(self, doc: dict, games: int, seconds: float) -> None:
        from analysis.store import now_iso

        proof_id = doc.get("run_id")
        doc["proof_run_id"] = proof_id
        doc["fix_run_id"] = self.run.run_id
        self.manifest["proof_run_id"] = proof_id
        self.manifest["fix"].update({
            "status": "complete", "meets_band": doc["meets_band"], "edits": doc["edits"], "cost": doc["cost"],
            "miss": doc["miss"], "candidates": self.n, "search": {k: v for k, v in doc["search"].items()
                                                                 if k != "params"},
            "proof": doc["proof"], "diff": doc["diff"], "stages": doc["stages"]})
        self.manifest["ended"] = now_iso()
        self.run.write_manifest(self.manifest)
        self.row.update({"status": "complete", "ended": now_iso(), "seconds": round(seconds, 3),
                         "games_played": int(games), "matchups": len(doc["proof"]["rows"])})
        self.run.write_catalogue(self.row)


def _row_json(r: dict) -> dict:
    return {"matchup": r["label"], "entrants": r["entrants"], "strategy": r["strategy"], "win_rate": r["x"],
            "win_rate_ci": r["x_ci"], "games": r["n"]}


def _write_out(out: Path, space, results: list, proof, doc: dict, command: str) -> list:
    import pandas as pd

    from analysis.fix import candidates_table
    from analysis.io import write_tables
    from analysis.runs import result_json
    from reports.fix import fix_section
    from reports.game import build_game_report
    from reports.sections import report_sections

    meta = {k: v for k, v in doc.items() if k not in ("matchups", "entrants", "ratings")}
    res = results[-1]
    tables, offset = [], 0
    for k, r in enumerate(results, start=1):  # one table, every stage's candidates numbered on
        t = candidates_table(r)
        t.insert(0, "stage", k)
        t["id"] += offset
        t.loc[t.repeat_of >= 0, "repeat_of"] += offset
        offset += len(t)
        tables.append(t)
    written = write_tables(out, {"candidates": pd.concat(tables, ignore_index=True),
                                 "proof": pd.DataFrame(doc["proof"]["rows"]).assign(
                                     win_rate_ci_low=lambda d: [c[0] for c in d.win_rate_ci],
                                     win_rate_ci_high=lambda d: [c[1] for c in d.win_rate_ci]).drop(
                                     columns=["win_rate_ci", "entrants"])},
                           meta, stem="fix_")
    written += space.write_patched(res.best.values, out / "patched")
    (out / "fix.diff").write_text(doc["diff"])
    written.append(out / "fix.diff")
    if isinstance(proof.evaluation.result, dict):    # a team or free-for-all mode: the fix section alone
        from reports.html import Page

        page = Page(f"{doc['game']} fix in {doc['mode']}", out)
        page.paragraph(f"{command}")
        fix_section(doc)(page)
        written.append(page.write())
        return written
    before = result_json(results[0].baseline.evaluation.result, command)
    section = fix_section(doc, before, doc)
    written.append(build_game_report(proof.evaluation.result, doc, out, command,
                                     report_sections(space.game, proof.evaluation.result) + [section]))
    return written


def print_fix(doc: dict) -> None:
    from analysis.runs import fmt_rate

    t = doc["target"]
    rows = ("every hero's share of 1st places" if str(doc.get("mode", "")).startswith("ffa") else
            "every team's score in every composition" if doc.get("mode") else "every matchup")
    what = (f"{rows} inside {t['band'][0]:g}-{t['band'][1]:g}%" if t["band"] else
            f"spread at most {t['spread']:g} points")
    s = doc["search"]
    typer.echo(f"{doc['game']} fix{' in ' + doc['mode'] if doc.get('mode') else ''}: {what} under "
               f"{', '.join(doc['strategies'])}; {len(s['params'])} number(s) may change ({doc['cost_mode']} cost)")
    st = s["target"]
    aim = (f"{st['band'][0]:g}-{st['band'][1]:g}%" if st["band"] else f"a spread of at most {st['spread']:g} points")
    typer.echo(f"the search aims at {aim} ({s['margin_points']:g} points inside, room for the proof's intervals)")
    typer.echo(f"baseline (seed {s['seed']}): misses by {doc['baseline']['miss_points']:.1f} points")
    typer.echo(f"search: {s['distinct_candidates']} distinct candidates ({s['candidates']} proposals), "
               f"{s['games']:,} games, {s['seconds']:.0f} s; {s['optimiser']}; stopped: {s['stopped_by']}")
    if s["focus"]:
        typer.echo(f"focus: one-at-a-time screening of every number ({s['sensitivity_candidates']} candidates over "
                   f"{len(s['focus_rounds'])} round(s)); first round kept the {len(s['focus'])} that helped most "
                   f"alone: {', '.join(s['focus'])}")
    if doc["edits"]:
        typer.echo(f"proposal: {len(doc['edits'])} edit(s), cost {doc['cost']:.3f}")
        for e in doc["edits"]:
            typer.echo(f"  {e['name']}: {e['from']} -> {e['to']}  (cost {e['cost']:.3f})")
    else:
        typer.echo("proposal: no edit (the current values are the best found)")
    if len(doc.get("stages", [])) > 1:
        typer.echo(f"stages: {len(doc['stages'])} (a proof that missed started another search from its proposal, on "
                   "fresh common seeds, aiming deeper inside; the result below is the last stage's)")
        for st in doc["stages"]:
            pr, w = st["proof"], st["proof"]["worst"]
            worst = (f"; worst {w['matchup']} {100 * w['win_rate']:.1f}% [{100 * w['win_rate_ci'][0]:.1f}, "
                     f"{100 * w['win_rate_ci'][1]:.1f}]" if w else "")
            typer.echo(f"  stage {st['stage']}: from {st['start']}, seed {st['search']['seed']}, aim "
                       f"{st['margin_points']:g} points inside; {st['search']['games']:,} games, "
                       f"{st['search']['seconds']:.0f} s; {len(st['edits'])} edit(s), cost {st['cost']:.3f}; proof "
                       f"(seed {pr['seed']}) " + ("meets" if pr["meets_band"] else
                                                  f"misses by {pr['miss_intervals_points']:.2f} points") + worst)
    p = doc["proof"]
    per = "table" if doc.get("mode") else "seat order"
    typer.echo(f"proof (fresh seed {p['seed']}, {p['games_per_seat_order']:,} games per {per}, "
               f"largest half-width {p['half_width_max_points']:.2f} points, {p['games']:,} games, {p['seconds']:.0f} s):")
    if "capped_games" in doc:
        typer.echo(f"  games ended by a cap: {doc['capped_games']:,} (left out of every rate)")
    for r in p["rows"]:
        typer.echo(f"  {r['matchup']} ({r['strategy']}): {fmt_rate(r['win_rate'], r['win_rate_ci'], r['games'])}")
    for r in (p["field"] if doc["target"]["spread"] is not None else []):
        typer.echo(f"  {r['matchup']} ({r['strategy']}): {fmt_rate(r['win_rate'], r['win_rate_ci'], r['games'])}")
    if doc["meets_band"]:
        typer.echo("MEETS THE TARGET: every interval of the proof run lies inside it")
    else:
        m = doc["miss"]
        typer.echo(f"DOES NOT MEET THE TARGET: the worst interval lies {m['intervals_points']:.2f} points outside "
                   f"(its point estimate {m['point_estimates_points']:.2f} points)")
    if doc["diff"]:
        typer.echo("diff of the data files:")
        typer.echo(doc["diff"].rstrip("\n"))
    if doc.get("files"):
        typer.echo(f"candidates, patched files and report.html in "
                   f"{Path(doc['files'][0]).parent}")
    if doc.get("fix_run_id"):
        typer.echo(f"stored as fix run {doc['fix_run_id']} with its {s['candidates']} candidates "
                   f"(playtest runs show {doc['fix_run_id']}); "
                   + (f"proof run {doc['proof_run_id']}" if doc.get("proof_run_id") else
                      "the proof's rows are in its manifest"))


def add_fix_verb(app: typer.Typer, game: str) -> None:
    """Attach ``fix`` to a game's sub-command (games with heroes or roles)."""
    from scripts.game_cli import CONTENT, JOBS, PARAM, PLAYERS, RULES, SEED, SET, absent_options, without
    from scripts.runs_cli import STORE_HELP, _PARAMS
    from scripts.verbs import missing_reason
    from simcore.game import game_type

    if missing_reason(game_type(game), "fix"):   # identical seats: nothing to balance
        return
    no_store_opt = dict((n, d) for n, _, d in _PARAMS)["no_store"]

    def fix_cmd(vary: List[str] = typer.Option(..., "--vary", help="What may change (repeatable): "
                                                 "NAME=LO..HI[:STEP][@WEIGHT], e.g. \"light.Holy Attack.damage=5..14\", "
                                                 "\"fire.Flame.tier1.damage=2..6\", rules.start_hp=25..40; or auto "
                                                 "(auto=HERO,HERO): every number of those heroes within +-50%."),
                band: Optional[str] = typer.Option(None, "--band", help="Every matchup's (role's) win rate inside "
                                                   "LOW,HIGH percent (default 45,55)."),
                spread: Optional[float] = typer.Option(None, "--spread", help="... or: the spread between the "
                                                       "strongest and weakest hero vs the field at most S points."),
                strategy: Optional[str] = typer.Option(None, "--strategy", "-s", help="Strategy (self-play); a comma "
                                                       "list must be balanced under each at once."),
                cost: str = typer.Option("relative", "--cost", help="relative: weight x |change| / |value| "
                                         "(default); units: weight x |change|."),
                budget: str = typer.Option("120s", "--budget", help="Search budget of each stage: games "
                                           "(2000000) or time (300s, 5m); the proof runs come on top."),
                seed: int = SEED,
                search_seed: int = typer.Option(0, "--search-seed", help="Seed of the optimiser."),
                proof_seed: Optional[int] = typer.Option(None, "--proof-seed", help="Fresh seed of the proof "
                                                         "(default: derived from --seed, never equal)."),
                screen_games: int = typer.Option(1000, "--screen-games", help="Screening games per matchup and "
                                                 "seat order."),
                refine_width: float = typer.Option(0.01, "--refine-width", help="Candidates whose screening "
                                                   "intervals reach the band are replayed until each matchup's "
                                                   "half-width is at most this (0.01 = 1 point) ..."),
                refine_games: Optional[int] = typer.Option(None, "--refine-games", help="... or this many games "
                                                           "(default 16 x --screen-games)."),
                proof_width: float = typer.Option(0.5, "--proof-width", help="Proof: every interval's half-width "
                                                  "at most this many points."),
                margin: Optional[float] = typer.Option(None, "--margin", help="The search aims this many points "
                                                       "inside the band, so that the proof's intervals fit "
                                                       "(default: --proof-width, at most a quarter of the band)."),
                stages: int = typer.Option(2, "--stages", help="If the proof misses, search again from the "
                                           "proposal on fresh seeds, aiming one proof half-width deeper inside, "
                                           "and prove again: at most this many searches (1-5), each with --budget."),
                focus: int = typer.Option(12, "--focus", help="With more numbers than this, screen each alone "
                                          "first and search only the this-many that help most (0: search all)."),
                content: Optional[str] = CONTENT,
                heroes: Optional[str] = typer.Option(None, "--heroes", hidden=True, help="Old name of --content."),
                players: Optional[int] = PLAYERS, rules: Optional[str] = RULES, set_: Optional[List[str]] = SET,
                out: Optional[str] = typer.Option(None, "--out", "-o", help="Directory: candidates table, "
                                                  "patched data files, fix.diff, report.html."),
                jobs: int = JOBS, store: Optional[str] = typer.Option(None, "--store", help=STORE_HELP),
                no_store: bool = no_store_opt,
                param: Optional[str] = PARAM,
                json_out: bool = typer.Option(False, "--json", help="Print one JSON object (shared schema).")):
        """What small change would fix it? Search the cheapest edits that bring every
        matchup (role) inside the band, then prove them on a fresh seed."""
        from scripts.game_cli import command_line

        if content is not None and heroes is not None:
            raise PlaytestError("give --content (the old name --heroes is the same option) once", field="--heroes")
        doc = run_fix(game, band, spread, strategy, vary, cost, budget, seed, search_seed, proof_seed,
                      screen_games, refine_width, refine_games, proof_width, content or heroes, rules, set_, players, out,
                      jobs, progress=not json_out and sys.stderr.isatty(), command=command_line(), focus=focus,
                      store=store, no_store=no_store, margin=margin, stages=stages, param=param)
        if json_out:
            typer.echo(json.dumps(doc, default=float))
        else:
            print_fix(doc)

    gone = absent_options(game)
    if "content" in gone:
        gone.add("heroes")
    app.command("fix")(without(fix_cmd, gone))
