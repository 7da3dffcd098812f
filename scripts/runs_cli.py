"""Execution options shared by every run verb (backend, cluster, store, records, resume)
and the ``playtest runs`` commands over the results store:

    playtest runs list [--store DIR]
    playtest runs show RUN            the tables again from the store, no simulation
    playtest runs compare RUN RUN     side by side: each difference with its interval
"""
from __future__ import annotations

import contextvars
import functools
import inspect
import json
import math
import sys
import time
from typing import Optional

import typer

from simcore.errors import PlaytestError

_OPTS: contextvars.ContextVar = contextvars.ContextVar("playtest_run_options", default=None)

STORE_HELP = "Results store directory (default: $PLAYTEST_STORE or ~/.local/share/playtest/runs)."
_PARAMS = [
    ("backend", str, typer.Option("local", "--backend", help="Where chunks are played: local (this machine's "
                                                             "processes, --jobs) or dask (a Dask cluster).")),
    ("scheduler", Optional[str], typer.Option(None, "--scheduler", help="--backend dask: address of a running "
                                                                          "scheduler, e.g. tcp://10.0.0.5:8786 "
                                                                          "(default: start a local cluster of "
                                                                          "--jobs workers).")),
    ("store", Optional[str], typer.Option(None, "--store", help=STORE_HELP)),
    ("no_store", bool, typer.Option(False, "--no-store", help="Do not save this run in the store.")),
    ("records", bool, typer.Option(False, "--records", help="Also keep every game's record (Parquet, chunk by "
                                                           "chunk, in the store).")),
    ("resume", bool, typer.Option(False, "--resume", help="Finish the newest interrupted run of this same "
                                                         "command from the store: play only its missing chunks.")),
]


def run_options(fn):
    """Add the execution options to a verb; the verb reads them with :func:`cli_execution`."""
    sig = inspect.signature(fn)
    names = [n for n, _, _ in _PARAMS]
    extra = [inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=d, annotation=a)
             for n, a, d in _PARAMS]

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        opts = {n: kwargs.pop(n) for n in names if n in kwargs}
        token = _OPTS.set(opts)
        try:
            return fn(*args, **kwargs)
        finally:
            _OPTS.reset(token)

    wrapper.__signature__ = sig.replace(parameters=list(sig.parameters.values()) + extra)
    wrapper.__annotations__ = {**getattr(fn, "__annotations__", {}), **{n: a for n, a, _ in _PARAMS}}
    return wrapper


def cli_execution(jobs: int = 1):
    """The :class:`analysis.execution.Execution` the current verb's options ask for."""
    from analysis.execution import Execution
    from analysis.store import Store
    from scripts.game_cli import command_line

    o = {n: (d.default if hasattr(d, "default") else d) for n, _, d in _PARAMS}
    o.update(_OPTS.get() or {})
    if o["no_store"] and (o["resume"] or o["records"] or o["store"]):
        bad = "--resume" if o["resume"] else "--records" if o["records"] else "--store"
        raise PlaytestError("needs the store: drop --no-store", field=bad)
    if o["backend"] not in ("local", "dask"):
        raise PlaytestError(f"must be local or dask, got {o['backend']!r}", field="--backend")
    if o["scheduler"] and o["backend"] != "dask":
        raise PlaytestError("is for --backend dask", field="--scheduler")
    from simcore.backends import check_scheduler

    o["scheduler"] = check_scheduler(o["scheduler"])
    store = None if o["no_store"] else Store(o["store"]).check_writable()
    return Execution(backend_name=o["backend"], jobs=jobs, scheduler=o["scheduler"], store=store,
                     keep_records=o["records"], resume=o["resume"], command=command_line())


# ------------------------------------------------------------------ playtest runs
runs_app = typer.Typer(help="The results store: list, show and compare saved runs (no simulation).",
                       no_args_is_help=True, rich_markup_mode=None)
STORE = typer.Option(None, "--store", help=STORE_HELP)
JSON = typer.Option(False, "--json", help="Print JSON.")


def _warn(msg: str) -> None:
    print(f"playtest: warning: {msg}", file=sys.stderr)


def _store(store):
    from analysis.store import Store

    s = Store(store)
    if not s.root.is_dir():
        raise PlaytestError("no store here (no run saved yet)", where=str(s.root), field="--store")
    return s


def load_result(store, run: str):
    """(RunResult, manifest) of a stored run, rebuilt from its chunk aggregates."""
    from analysis.aggregate import Aggregate
    from analysis.runs import Matchup, RunResult
    from simcore.game import game_type

    s = _store(store)
    rid = s.resolve(run)
    sr = s.open(rid)
    man = sr.manifest()
    if man.get("kind") == "fix":  # a fix run's tables are its proof run's
        if not man.get("proof_run_id"):
            raise PlaytestError("this fix run has no proof run yet (the search did not finish): "
                                "playtest runs show lists its candidates", where=str(sr.dir), field="RUN")
        return load_result(store, man["proof_run_id"])
    bad = []
    chunks = sr.stored_chunks(warn=bad.append)
    if bad:
        raise PlaytestError(bad[0] + ": rerun its command with --resume to play them again", where=str(sr.dir),
                            field="RUN")
    seats = int(man["seats"])
    final = man.get("final") or {}
    reached = final.get("reached") or [None] * len(man["plan"])
    matchups = []
    for mi, (lu, st) in enumerate(man["plan"]):
        agg = Aggregate.total((a for k, a in sorted(chunks.items()) if k[0] == mi), seats)
        matchups.append(Matchup(tuple(lu), tuple(st), agg, reached[mi]))
    gt = game_type(man["game"])
    extra = dict(final.get("extra") or {})
    extra["run_id"] = rid
    if not final:
        extra["incomplete"] = True
    res = RunResult(man["game"], int(man["seed"]), int(man["games"]), seats, matchups, man["entrant_names"],
                    man["rules"], man["rules_changed"], cooperative=gt.kind == "cooperative", extra=extra)
    return res, man


class _Ctx:
    def __init__(self, game):
        from simcore.game import game_type

        self.type = game_type(game)


@runs_app.command("list")
def list_cmd(store: Optional[str] = STORE, json_out: bool = JSON,
             game: Optional[str] = typer.Option(None, "--game", help="Only this game's runs.")):
    """Every saved run, newest first."""
    from analysis.store import row_status

    st = _store(store)
    rows = [row_status(r, st) for r in st.catalogue(warn=_warn) if game is None or r.get("game") == game]
    if json_out:
        typer.echo(json.dumps(rows, default=str))
        return
    if not rows:
        typer.echo("no runs saved")
        return
    for r in rows:
        secs = f"{r['seconds']:.1f} s" if r.get("seconds") is not None else "-"
        typer.echo(f"{r['run_id']:34s} {r.get('status', ''):9s} {r.get('game', ''):10s} "
                   f"{r.get('games_played') or 0:>14,} games {secs:>9s}  {r.get('command', '')}")


@runs_app.command("show")
def show_cmd(run: str = typer.Argument(..., help="Run id (or a unique prefix, or 'last')."),
             store: Optional[str] = STORE, json_out: bool = JSON,
             out: Optional[str] = typer.Option(None, "--out", help="Directory for tables (CSV + Parquet + run.json).")):
    """A saved run's tables and metrics, from the store (no simulation)."""
    from scripts.game_cli import _emit, check_out

    s = _store(store)
    sr = s.open(s.resolve(run))
    if sr.manifest().get("kind") == "fix":
        return show_fix(sr, store, json_out, out)
    res, man = load_result(store, run)
    if res.extra.get("incomplete") and not json_out:
        _warn(f"run {res.extra['run_id']} did not finish: showing its stored chunks only "
              "(rerun its command with --resume to finish it)")
    secs = float((man.get("final") or {}).get("seconds") or 0.0)
    _emit(_Ctx(res.game), res, json_out, check_out(out), time.perf_counter() - secs, command=man.get("command"))


def show_fix(sr, store, json_out: bool, out) -> None:
    """A fix run (``playtest GAME fix``): its summary, every candidate it evaluated (edits,
    cost, miss, win rates with intervals) and its proof run's tables."""
    from scripts.game_cli import _emit, check_out

    man = sr.manifest()
    fx = man.get("fix") or {}
    cands = sr.candidates(warn=_warn)
    proof_id = man.get("proof_run_id")
    if json_out:
        doc = {"run_id": sr.run_id, "kind": "fix", "game": man.get("game"), "command": man.get("command"),
               "fix": fx, "candidates": cands, "proof_run_id": proof_id}
        typer.echo(json.dumps(doc, default=float))
        return
    t = fx.get("target") or {}
    what = (f"every matchup inside {t['band'][0]:g}-{t['band'][1]:g}%" if t.get("band") else
            f"spread at most {t.get('spread')} points")
    typer.echo(f"fix run {sr.run_id} ({fx.get('status', '?')}): {man.get('command', '')}")
    typer.echo(f"  target: {what} under {', '.join(fx.get('strategies') or [])}; "
               f"{len(fx.get('params') or [])} number(s) may change; {len(cands)} candidate(s) stored")
    if fx.get("status") == "complete":
        verdict = "MEETS THE TARGET" if fx.get("meets_band") else \
            f"does not meet the target (worst interval {fx['miss']['intervals_points']:.2f} points outside)"
        typer.echo(f"  proposal: {len(fx.get('edits') or [])} edit(s), cost {fx.get('cost', 0):.3f}; proof: {verdict}")
        for e in fx.get("edits") or []:
            typer.echo(f"    {e['name']}: {e['from']} -> {e['to']}  (cost {e['cost']:.3f})")
    names = [p["name"] for p in fx.get("params") or []]
    base = {p["name"]: p["from"] for p in fx.get("params") or []}
    typer.echo("candidates (id, phase, cost, miss in points, games; edits; worst matchup, win rates [95% CI]):")
    for c in cands:
        ed = ", ".join(f"{n}={c['values'][n]}" for n in names if n in c["values"] and c["values"][n] != base[n])
        rep = f" (repeat of {c['repeat_of']})" if c.get("repeat_of", -1) >= 0 else ""
        ok = " meets" if c.get("feasible") else ""
        typer.echo(f"  {c['id']:4d} {c['phase']:11s} cost {c['cost']:7.3f} miss {c['miss_points']:6.2f}{ok} "
                   f"{c['games']:>9,} games{rep}: {ed or 'no edit'}")
        rates = "; ".join(f"{r['matchup']} {100 * r['win_rate']:.1f} [{100 * r['win_rate_ci'][0]:.1f}, "
                          f"{100 * r['win_rate_ci'][1]:.1f}]" for r in c.get("rates") or [])
        if rates:
            typer.echo(f"       {rates}")
    if proof_id:
        typer.echo(f"proof run {proof_id}:")
        res, pman = load_result(store, proof_id)
        secs = float((pman.get("final") or {}).get("seconds") or 0.0)
        _emit(_Ctx(res.game), res, False, check_out(out), time.perf_counter() - secs, command=pman.get("command"))


def _diff(a, a_ci, b, b_ci):
    """Difference a - b with a MOVER interval from each side's own interval (Newcombe's
    method for two rates); beyond noise when the interval excludes 0."""
    if a is None or b is None or a_ci is None or b_ci is None:
        return None
    d = a - b
    lo = d - math.hypot(a - a_ci[0], b_ci[1] - b)
    hi = d + math.hypot(a_ci[1] - a, b - b_ci[0])
    return {"a": a, "b": b, "diff": d, "diff_ci": [lo, hi], "beyond_noise": not lo <= 0 <= hi}


def compare_docs(da: dict, db: dict) -> dict:
    rows = []
    key = "role_win_rate" if "role_win_rate" in da else "seat_win_rate"
    for s, (x, ci, y, cj) in enumerate(zip(da.get(key, []), da.get(key + "_ci", []), db.get(key, []),
                                           db.get(key + "_ci", []))):
        d = _diff(x, ci, y, cj)
        if d:
            rows.append({"what": f"{key.split('_')[0]} {s + 1} win rate", **d})
    mb = {tuple((x["entrant"], x["strategy"]) for x in m["seats"]): m for m in db["matchups"]}
    for m in da["matchups"]:
        k = tuple((x["entrant"], x["strategy"]) for x in m["seats"])
        if k in mb:
            d = _diff(m["win_rate"], m["win_rate_ci"], mb[k]["win_rate"], mb[k]["win_rate_ci"])
            if d:
                rows.append({"what": "matchup " + " vs ".join(f"{e} ({s})" for e, s in k), **d})
    for name, v in da["metrics"].items():
        w = db["metrics"].get(name) or {}
        d = _diff(v.get("x"), v.get("x_ci"), w.get("x"), w.get("x_ci"))
        if d:
            rows.append({"what": f"metric {name}", **d})
    return {"a": da.get("run_id"), "b": db.get("run_id"), "rows": rows,
            "same_seed": da.get("seed") == db.get("seed"),
            "differences_beyond_noise": sum(r["beyond_noise"] for r in rows)}


@runs_app.command("compare")
def compare_cmd(run_a: str = typer.Argument(..., help="First run."), run_b: str = typer.Argument(..., help="Second run."),
                store: Optional[str] = STORE, json_out: bool = JSON):
    """Two saved runs side by side: every shared rate and metric, its difference with a 95%
    interval, and whether the difference is beyond noise (the interval excludes 0)."""
    from analysis.runs import result_json

    docs = []
    for r in (run_a, run_b):
        res, man = load_result(store, r)
        d = result_json(res, man.get("command", ""))
        d["run_id"] = res.extra["run_id"]
        docs.append(d)
    if docs[0]["game"] != docs[1]["game"]:
        raise PlaytestError(f"runs of different games ({docs[0]['game']}, {docs[1]['game']})", field="RUN")
    cmp = compare_docs(*docs)
    if json_out:
        typer.echo(json.dumps(cmp, default=float))
        return
    typer.echo(f"A = {cmp['a']}: {docs[0]['command']}")
    typer.echo(f"B = {cmp['b']}: {docs[1]['command']}")
    typer.echo(f"{'':44s} {'A':>9s} {'B':>9s} {'A - B':>9s}  95% interval")
    for r in cmp["rows"]:
        scale = 1 if r["what"].split()[-1] in ("duration", "lead_change", "drama") else 100
        unit = "" if scale == 1 else " pts"
        flag = "  beyond noise" if r["beyond_noise"] else ""
        typer.echo(f"{r['what'][:44]:44s} {r['a'] * scale:9.2f} {r['b'] * scale:9.2f} {r['diff'] * scale:+9.2f}  "
                   f"[{r['diff_ci'][0] * scale:+.2f}, {r['diff_ci'][1] * scale:+.2f}]{unit}{flag}")
    typer.echo(f"{cmp['differences_beyond_noise']} of {len(cmp['rows'])} differences beyond noise"
               + (" (same seed: common random numbers make these intervals conservative)" if cmp["same_seed"] else ""))


def register(app: typer.Typer, report_app: typer.Typer) -> None:
    app.add_typer(runs_app, name="runs")
