"""The balance playground's engine room, without the web: validating a request, playing
it in the background with progress and cancellation, caching results, comparing an
edited run with its baseline on the same seeds, exporting the edited data files.

Everything game-specific goes through ``simcore.game.GameAPI`` (rules, content, editable
numbers, ``apply_edits``, ``export_files``, ``dice_spec``, ``replay``); this module
knows no game.

Concurrency: each run plays in its own thread, chunk by chunk; one process-wide lock
lets one chunk at a time into the engines (the machine has few cores, numba's parallel
kernels already use them all, and a threading layer need not be re-entrant), so two
tabs' runs interleave chunk by chunk and never mix: every run owns its records, and
game ``i`` of seed ``s`` is the same game whoever plays it and in whatever chunk.
"""
from __future__ import annotations

import hashlib
import io
import json
import re
import shlex
import threading
import time
import traceback
import uuid
import zipfile
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from simcore.errors import PlaytestError

ENGINE_LOCK = threading.Lock()
DEFAULT_MAX_GAMES = 2_000_000     # games per request, all matchups (and the baseline) together
MAX_GAMES_PER_MATCHUP = 1_000_000
MAX_RUNNING = 4                   # runs in progress at once (all tabs)
CHUNK = 20_000
STANDARD = ("winner", "capped", "turns", "first")
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


class FieldErrors(Exception):
    """Bad inputs: field -> message (shown next to the field)."""

    def __init__(self, errors: dict):
        self.errors = errors
        super().__init__("; ".join(f"{k}: {v}" for k, v in errors.items()))


class Cancelled(Exception):
    pass


def _whole(payload: dict, name: str, lo: int, hi: int, default=None) -> int:
    v = payload.get(name, default)
    if isinstance(v, str):
        v = v.strip().replace(",", "").replace("_", "")
        try:
            v = int(v)
        except ValueError:
            raise PlaytestError(f"must be a whole number, got {payload.get(name)!r}", field=name) from None
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    if isinstance(v, bool) or not isinstance(v, int):
        raise PlaytestError(f"must be a whole number, got {v!r}", field=name)
    if not lo <= v <= hi:
        raise PlaytestError(f"must be between {lo:,} and {hi:,}, got {v:,}", field=name)
    return v


@dataclass
class Prepared:
    game: str
    api: object
    gt: object
    dataset: str
    seats: int
    entrant_keys: list       # the chosen entrants (hero keys), in the content's order
    strategies: list
    games: int
    seed: int
    edits: dict
    base_rules: dict
    base_content: object
    rules: dict
    content: object
    plan: list
    lineup: list | None = None    # "one lineup" mode: [(entrant key or None, strategy) per seat]

    def key(self, edited: bool) -> str:
        doc = [self.game, self.dataset, self.seats, self.entrant_keys, self.strategies, self.games, self.seed,
               self.lineup, sorted(self.edits.items()) if edited else []]
        return hashlib.sha256(json.dumps(doc, default=str).encode()).hexdigest()[:20]

    @property
    def total_games(self) -> int:
        return self.games * len(self.plan)


@dataclass
class Job:
    id: str
    prep: Prepared
    state: str = "queued"      # queued, running, done, cancelled, error
    phase: str = ""
    done: int = 0
    total: int = 0
    started: float = field(default_factory=time.perf_counter)
    finished: float | None = None
    cancel: threading.Event = field(default_factory=threading.Event)
    result: dict | None = None
    error: dict | None = None
    kind: str = "run"          # "run" or "fix" (analysis.fix.suggest)
    ratings: list | None = None   # computed after the result (a bootstrap: seconds)


class Service:
    def __init__(self, data_dir=None, max_games: int = DEFAULT_MAX_GAMES, cache_size: int = 24):
        self.data_dir = Path(data_dir).resolve() if data_dir else None
        self.max_games = int(max_games)
        self.cache: OrderedDict = OrderedDict()
        self.cache_size = cache_size
        self.ratings_cache: dict = {}
        self.jobs: dict[str, Job] = {}
        self.lock = threading.Lock()

    # ------------------------------------------------------------ games and data
    def games(self) -> list[dict]:
        from simcore.game import game_names, game_type

        out = []
        for n in game_names():
            g = game_type(n)
            out.append({"name": n, "title": g.title, "kind": g.kind, "entrants": g.entrants,
                        "seats": [g.min_seats, g.max_seats], "default_seats": g.default_seats,
                        "description": g.description})
        return out

    def _game(self, name):
        from simcore.game import game_names, game_type, get_game

        if not isinstance(name, str) or name not in game_names():
            raise PlaytestError(f"unknown game {name!r}", field="game")
        return get_game(name), game_type(name)

    def datasets(self) -> list[str]:
        if self.data_dir is None or not self.data_dir.is_dir():
            return []
        return sorted(p.name for p in self.data_dir.iterdir() if p.is_dir() and NAME_RE.match(p.name))

    def _dataset_paths(self, api, dataset: str):
        """(rules file or None, content folder or None) of a data set: a sub-folder of the
        data folder chosen on the command line, named by the browser, never a path."""
        if not dataset:
            return None, None
        if not isinstance(dataset, str) or dataset not in self.datasets():
            raise PlaytestError(f"no data set {dataset!r} in the data folder", field="dataset")
        root = (self.data_dir / dataset).resolve()
        if root.parent != self.data_dir:
            raise PlaytestError("outside the data folder", field="dataset")
        rules = root / "rules.toml"
        content = root / api.content_folder if api.content_folder else None
        return (rules if rules.is_file() else None), (content if content and content.is_dir() else None)

    def base_data(self, game: str, dataset: str = ""):
        api, gt = self._game(game)
        rpath, cpath = self._dataset_paths(api, dataset)
        try:
            rules = api.load_rules(rpath)
            content = api.load_content(rules, cpath)
        except PlaytestError as e:
            raise PlaytestError(e.one_line(), field="dataset") from None
        return api, gt, rules, content

    def game_info(self, game: str, dataset: str = "") -> dict:
        api, gt, rules, content = self.base_data(game, dataset)
        keys = api.entrant_names(content) if gt.entrants == "heroes" else []
        titles = api.entrant_titles(content) if gt.entrants == "heroes" else []
        groups: OrderedDict = OrderedDict()
        for e in api.editable_numbers(rules, content):
            groups.setdefault(e.group, []).append(
                {"key": e.key, "label": e.label, "value": e.value, "kind": e.kind, "lo": e.lo, "hi": e.hi,
                 "choices": list(e.choices), "file": e.file})
        has_dice = gt.entrants == "heroes" and bool(content) and api.dice_spec(rules, content, 0) is not None
        return {"name": game, "title": gt.title, "kind": gt.kind, "entrants_kind": gt.entrants, "score": gt.score,
                "seats": [gt.min_seats, gt.max_seats], "default_seats": gt.default_seats,
                "seat_labels": [gt.seat_label(s) for s in range(gt.max_seats)],
                "entrants": [{"key": k, "title": t} for k, t in zip(keys, titles)],
                "strategies": [{"name": k, "description": v} for k, v in api.strategies().items()],
                "default_strategy": gt.default_strategy, "dataset": dataset, "datasets": self.datasets(),
                "editables": [{"group": g, "items": items} for g, items in groups.items()],
                "has_dice": has_dice, "has_fix": self.fix_available(), "max_games": self.max_games, "max_games_per_matchup": MAX_GAMES_PER_MATCHUP}

    # ------------------------------------------------------------ validation
    def prepare(self, payload) -> Prepared:
        """Every field checked; all the problems at once, each under its field."""
        from analysis.runs import lineups_for

        if not isinstance(payload, dict):
            raise FieldErrors({"form": "expected a JSON object"})
        errors: dict = {}

        def attempt(fn):
            try:
                return fn()
            except PlaytestError as e:
                errors[e.field or "form"] = e.reason if e.field else e.one_line()
                return None

        try:
            api, gt, rules, content = self.base_data(payload.get("game"), payload.get("dataset") or "")
        except PlaytestError as e:
            raise FieldErrors({e.field or "game": e.reason}) from None
        games = attempt(lambda: _whole(payload, "games", 1, MAX_GAMES_PER_MATCHUP, 2000))
        seed = attempt(lambda: _whole(payload, "seed", 0, 2**63 - 1, 1))
        seats = attempt(lambda: _whole(payload, "players", gt.min_seats, gt.max_seats, gt.default_seats))
        # strategies: built-in names only (never a module path from the browser)
        known = api.strategies()
        strats = payload.get("strategies") or [gt.default_strategy]
        if not isinstance(strats, list) or not all(isinstance(s, str) for s in strats):
            errors["strategies"] = "expected a list of strategy names"
            strats = []
        else:
            bad = [s for s in strats if s not in known]
            if bad:
                errors["strategies"] = f"unknown strategy {bad[0]!r} (built-in: {', '.join(known)})"
            elif len(set(strats)) != len(strats):
                errors["strategies"] = "a strategy is chosen twice"
        edits = payload.get("edits") or {}
        if not isinstance(edits, dict):
            errors["edits"] = "expected an object of key: value"
            edits = {}
        new_rules, new_content = rules, content
        if edits:
            # each edit alone first, so that every bad field gets its own message
            for k, v in edits.items():
                attempt(lambda k=k, v=v: api.apply_edits(rules, content, {k: v}))
            if not errors.keys() & set(edits):
                r = attempt(lambda: api.apply_edits(rules, content, edits))
                if r is not None:
                    new_rules, new_content = r
        keys = []
        if gt.entrants == "heroes":
            all_keys = api.entrant_names(content)
            keys = payload.get("entrants") or all_keys
            if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
                errors["entrants"] = "expected a list of names"
                keys = all_keys
            bad = [k for k in keys if k not in all_keys]
            if bad:
                errors["entrants"] = f"unknown {bad[0]!r} (known: {', '.join(all_keys)})"
            elif len(keys) < 2 and not (keys and bool(new_rules.get("mirror_matches", True))):
                errors["entrants"] = "choose at least two (or one, with mirror matches on)"
            keys = [k for k in all_keys if k in keys]
        lineup = None
        if payload.get("mode") == "lineup" and seats is not None:
            lineup = self._lineup(payload, api, gt, content, seats, known, errors)
        if errors:
            raise FieldErrors(errors)
        if gt.entrants == "heroes":
            pick = [api.entrant_names(content).index(k) for k in keys]
            if lineup is not None:  # the content keeps every hero; the lineup names two
                pick = list(range(len(content)))
                keys = api.entrant_names(content)
            base_content = [content[i] for i in pick]
            new_content = [new_content[i] for i in pick]
        else:
            base_content = content
        if lineup is not None:
            # as ``playtest GAME run``: the lineup, and for hero games the same with the seats
            # swapped (each hero keeps its strategy)
            specs = tuple(st for _, st in lineup)
            if gt.entrants == "heroes":
                ab = tuple(keys.index(k) for k, _ in lineup)
                plan = [(ab, specs), (ab[::-1], specs[::-1])]
            else:
                plan = [(tuple(range(seats)), specs)]
            strats = list(dict.fromkeys(specs))
        else:
            plan = lineups_for(payload["game"], len(keys), seats, strats, bool(new_rules.get("mirror_matches", True)))
        prep = Prepared(payload["game"], api, gt, payload.get("dataset") or "", seats, keys, list(strats), games, seed,
                        dict(edits), rules, base_content, new_rules, new_content, plan,
                        [list(x) for x in lineup] if lineup is not None else None)
        runs = 2 if edits else 1
        if bool(rules.get("mirror_matches", True)) != bool(new_rules.get("mirror_matches", True)):
            raise FieldErrors({"rules.mirror_matches": "changes which matchups are played, so it cannot be "
                                                       "compared on the same seeds: change it in the data set"})
        if prep.total_games * runs > self.max_games:
            per = self.max_games // max(1, len(plan) * runs)
            raise FieldErrors({"games": f"{games:,} games x {len(plan)} matchups"
                                        f"{' x 2 (baseline and edited)' if runs == 2 else ''} is over this "
                                        f"server's cap of {self.max_games:,} games per run: use at most {per:,} "
                                        "(playtest serve --max-games raises the cap)"})
        return prep

    @staticmethod
    def _lineup(payload, api, gt, content, seats, known, errors):
        """One lineup: a built-in strategy (and, in hero games, a hero) per seat."""
        specs = payload.get("seat_strategies")
        if not isinstance(specs, list) or len(specs) != seats or any(s not in known for s in specs):
            errors["seat_strategies"] = f"one built-in strategy per seat ({', '.join(known)})"
            return None
        ents = [None] * seats
        if gt.entrants == "heroes":
            names = api.entrant_names(content)
            ents = payload.get("seat_entrants")
            if not isinstance(ents, list) or len(ents) != seats or any(e not in names for e in ents):
                errors["seat_entrants"] = f"one hero per seat ({', '.join(names)})"
                return None
        return list(zip(ents, specs))

    # ------------------------------------------------------------ running
    def start(self, payload) -> Job:
        prep = self.prepare(payload)
        with self.lock:
            running = sum(1 for j in self.jobs.values() if j.state in ("queued", "running"))
            if running >= MAX_RUNNING:
                raise FieldErrors({"form": f"{running} runs are in progress already: wait or cancel one"})
            job = Job(uuid.uuid4().hex[:12], prep)
            self.jobs[job.id] = job
            for old in [k for k, j in self.jobs.items() if j.state not in ("queued", "running")][:-50]:
                del self.jobs[old]
        threading.Thread(target=self._run, args=(job,), daemon=True, name=f"run-{job.id}").start()
        return job

    def cancel(self, job_id: str) -> bool:
        job = self.jobs.get(job_id)
        if job is None:
            return False
        job.cancel.set()
        return True

    def _cached(self, key):
        with self.lock:
            res = self.cache.get(key)
            if res is not None:
                self.cache.move_to_end(key)
            return res

    def _store(self, key, res) -> None:
        with self.lock:
            self.cache[key] = res
            while len(self.cache) > self.cache_size:
                self.cache.popitem(last=False)

    def _run(self, job: Job) -> None:
        p = job.prep
        try:
            job.state = "running"
            todo = []
            base = self._cached(p.key(False))
            new = self._cached(p.key(True)) if p.edits else base
            if base is None:
                todo.append(("baseline", p.base_rules, p.base_content, p.key(False)))
            if p.edits and new is None:
                todo.append(("edited", p.rules, p.content, p.key(True)))
            scope = p.api.edit_scope(p.edits) if p.edits and p.gt.entrants == "heroes" else None
            names = p.api.entrant_names(p.content) if scope is not None else []
            plays = {id(x): (lambda lu: scope is None or any(names[e] in scope for e in lu)) for x in todo}
            job.total = sum(p.games * sum(1 for lu, _ in p.plan if label == "baseline" or plays[id(t)](lu))
                            for t in todo for label in [t[0]])
            for t in todo:
                label, rules, content, key = t
                job.phase = f"playing the {label} data" if p.edits else "playing"
                reuse = (base, plays[id(t)]) if label == "edited" and scope is not None else None
                res = self._play(job, rules, content, reuse)
                self._store(key, res)
                if label == "baseline":
                    base = res
                else:
                    new = res
            if not p.edits:
                new = base
            job.phase = "summarising"
            from .views import run_view

            job.result = run_view(p, new, base if p.edits else None, command_for(p))
            job.result["seconds"] = round(time.perf_counter() - job.started, 3)
            job.result["played_games"] = job.total
            job.state = "done"
            if not new.cooperative:
                key = p.key(bool(p.edits))
                with self.lock:
                    ratings = self.ratings_cache.get(key)
                if ratings is None:
                    ratings = new.ratings_table()
                    with self.lock:
                        self.ratings_cache[key] = ratings
                        while len(self.ratings_cache) > self.cache_size:
                            self.ratings_cache.pop(next(iter(self.ratings_cache)))
                job.ratings = ratings
        except Cancelled:
            job.state = "cancelled"
        except PlaytestError as e:
            job.state, job.error = "error", {"field": e.field or "form", "message": e.reason}
        except Exception as e:  # noqa: BLE001 - reported to the page, the server stays up
            traceback.print_exc()
            job.state, job.error = "error", {"field": "form", "message": f"{type(e).__name__}: {e}"}
        finally:
            job.finished = time.perf_counter()

    def _play(self, job: Job, rules, content, reuse=None):
        """Play every matchup of the plan; ``reuse = (baseline, plays)``: a matchup whose
        lineup ``plays(lineup)`` rejects keeps the baseline's records (``GameAPI.edit_scope``)."""
        from analysis.aggregate import lead_matrix
        from analysis.runs import Matchup, RunResult, changed_rules, play_chunk

        p = job.prep
        setup = p.api.make_setup(rules, content, p.seats)
        ms = []
        for i, (lineup, strats) in enumerate(p.plan):
            if reuse is not None and not reuse[1](lineup):
                ms.append(reuse[0].matchups[i])
                continue
            parts = []
            for a in range(0, p.games, CHUNK):
                b = min(p.games, a + CHUNK)
                if job.cancel.is_set():
                    raise Cancelled()
                with ENGINE_LOCK:
                    if job.cancel.is_set():
                        raise Cancelled()
                    rec = play_chunk(a, b, p.game, setup, lineup, strats, p.seed, trace=True)
                part = {k: np.array(rec[k]) for k in STANDARD}
                leads = lead_matrix(rec)   # traced: lead changes, decided-at, drama (simcore/leads.py)
                if leads is not None:
                    part["leads"] = leads
                parts.append(part)
                job.done += b - a
            keys = list(STANDARD) + (["leads"] if all("leads" in x for x in parts) else [])
            ms.append(Matchup(tuple(lineup), tuple(strats), {k: np.concatenate([x[k] for x in parts]) for k in keys}))
        names = p.api.entrant_names(content) if p.gt.entrants == "heroes" else []
        return RunResult(p.game, p.seed, p.games, p.seats, ms, names, rules,
                         changed_rules(rules, p.api.load_rules()), cooperative=p.gt.kind == "cooperative")

    def status(self, job_id: str) -> dict | None:
        job = self.jobs.get(job_id)
        if job is None:
            return None
        out = {"id": job.id, "kind": job.kind, "state": job.state, "phase": job.phase, "done": job.done,
               "total": job.total, "elapsed": round((job.finished or time.perf_counter()) - job.started, 2)}
        if job.kind == "fix":
            if job.result is not None:
                out["result"] = job.result
            if job.error:
                out["error"] = job.error
            return out
        if job.state == "done":
            out["result"] = job.result
            out["ratings"] = job.ratings
        if job.error:
            out["error"] = job.error
        if job.state == "running" and job.done == 0:
            out["phase"] = (job.phase + " (loading the compiled kernels; the first run after an install "
                            "compiles them for a minute or two)")
        return out

    # ------------------------------------------------------------ export
    def export(self, payload) -> tuple[bytes, str]:
        """A zip of the edited data files (TOML) and the command that reproduces the view."""
        p = self.prepare(payload)
        files = p.api.export_files(p.rules, p.content, p.base_rules)
        if p.gt.entrants != "heroes" or not p.api.content_folder:
            files = {k: v for k, v in files.items() if k == "rules.toml"}
        cmd = command_for(p)
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
            for name, text in files.items():
                z.writestr(name, text)
            z.writestr("command.txt", cmd + "\n")
        return buf.getvalue(), cmd

    # ------------------------------------------------------------ the fix search
    @staticmethod
    def fix_available() -> bool:
        """True when ``analysis.fix`` offers ``suggest(prepared)`` (the page's button)."""
        import importlib

        try:
            return hasattr(importlib.import_module("analysis.fix"), "suggest")
        except ImportError:
            return False

    def start_fix(self, payload) -> Job:
        """The fix search (``analysis.fix.suggest``) on the page's request, in the
        background like a run: progress in games of its budget, cancel, and its answer
        (the proposal as edits) in the job's result. Fields: ``band`` ("45,55"), and
        ``fix_games`` (the search's budget in games, at most the server's cap)."""
        if not self.fix_available():
            raise PlaytestError("the fix search is not installed here (analysis.fix)", field="fix")
        from analysis.fix import parse_band

        prep = self.prepare(payload)
        errors = {}
        band = None
        try:
            raw = payload.get("band") or "45,55"
            band = parse_band(",".join(map(str, raw)) if isinstance(raw, list) else raw)
        except PlaytestError as e:
            errors["band"] = e.reason
        budget = None
        try:
            budget = _whole(payload, "fix_games", 1000, self.max_games, min(200_000, self.max_games))
        except PlaytestError as e:
            errors["fix_games"] = e.reason
        if prep.lineup is not None:
            errors["mode"] = "the fix search balances a tournament: choose the tournament mode"
        if prep.gt.entrants == "seats":
            errors["fix"] = f"{prep.gt.title} has neither heroes nor roles: there is no matchup to balance"
        if errors:
            raise FieldErrors(errors)
        with self.lock:
            running = sum(1 for j in self.jobs.values() if j.state in ("queued", "running"))
            if running >= MAX_RUNNING:
                raise FieldErrors({"form": f"{running} runs are in progress already: wait or cancel one"})
            job = Job(uuid.uuid4().hex[:12], prep)
            job.kind = "fix"
            job.total = budget
            self.jobs[job.id] = job
        threading.Thread(target=self._fix, args=(job, band, budget), daemon=True, name=f"fix-{job.id}").start()
        return job

    def _fix(self, job: Job, band, budget: int) -> None:
        from analysis import fix

        best = {}

        def progress(c, n, _feasible):
            job.done = min(job.total, job.done + c.games)
            key = (not c.feasible, c.cost if c.feasible else c.miss)
            if not best or key < best["key"]:
                best.update(key=key, text=(f"meets the band at cost {c.cost:.2f}" if c.feasible else
                                           f"worst matchup {100 * c.miss:.1f} points outside"))
            job.phase = f"fix search: {n} candidates; best so far {best['text']}"

        try:
            job.state, job.phase = "running", "fix search: the baseline"
            job.result = fix.suggest(job.prep, band, budget, on_progress=progress, should_stop=job.cancel.is_set,
                                     lock=ENGINE_LOCK)
            job.result["seconds"] = round(time.perf_counter() - job.started, 3)
            job.state = "cancelled" if job.cancel.is_set() else "done"
            if job.state == "cancelled":  # the best found until the cancel stays readable
                job.result["cancelled"] = True
        except PlaytestError as e:
            job.state, job.error = "error", {"field": e.field or "fix", "message": e.reason}
        except Exception as e:  # noqa: BLE001 - reported to the page, the server stays up
            traceback.print_exc()
            job.state, job.error = "error", {"field": "fix", "message": f"{type(e).__name__}: {e}"}
        finally:
            job.finished = time.perf_counter()

    # ------------------------------------------------------------ odds and replays
    def _edited(self, payload):
        """(api, gt, rules, content) with the payload's edits (the replay and odds see the
        edited game)."""
        api, gt, rules, content = self.base_data(payload.get("game"), payload.get("dataset") or "")
        edits = payload.get("edits") or {}
        if not isinstance(edits, dict):
            raise PlaytestError("expected an object of key: value", field="edits")
        if edits:
            rules, content = api.apply_edits(rules, content, edits)
        return api, gt, rules, content

    def replay(self, payload) -> dict:
        api, gt, rules, content = self._edited(payload)
        seats = _whole(payload, "players", gt.min_seats, gt.max_seats, gt.default_seats)
        seed = _whole(payload, "seed", 0, 2**63 - 1, 1)
        index = _whole(payload, "index", 0, 2**63 - 1, 0)
        known = api.strategies()
        specs = payload.get("strategies") or [gt.default_strategy] * seats
        if not isinstance(specs, list) or len(specs) != seats or any(s not in known for s in specs):
            raise PlaytestError(f"one built-in strategy per seat ({', '.join(known)})", field="replay_strategies")
        lineup = tuple(range(seats))
        if gt.entrants == "heroes":
            names = api.entrant_names(content)
            ents = payload.get("entrants") or [names[0], names[-1]]
            if not isinstance(ents, list) or len(ents) != seats or any(e not in names for e in ents):
                raise PlaytestError(f"one hero per seat ({', '.join(names)})", field="replay_entrants")
            lineup = tuple(names.index(e) for e in ents)
        with ENGINE_LOCK:
            text = api.replay(api.make_setup(rules, content, seats), lineup, tuple(specs), seed, index)
        return {"text": text, "steps": replay_steps(text)}

    def dice_odds(self, payload) -> dict:
        from simcore.odds import view

        spec = self._dice(payload)
        if spec is None:
            raise PlaytestError("this game has no dice", field="odds_entrant")
        extra = _whole(payload, "extra", 0, 8, spec.get("extra_rolls", 0))
        out = view.rolls_table(spec["dice"], spec["targets"], spec["free_rolls"], extra)
        out["title"] = spec["title"]
        out["faces"] = sorted({str(f) for d in spec["dice"] for f in d.faces}, key=lambda s: (len(s), s))
        out["dice"] = len(spec["dice"])
        return out

    def advise(self, payload) -> dict:
        from simcore.odds import view

        spec = self._dice(payload)
        if spec is None:
            raise PlaytestError("this game has no dice", field="odds_entrant")
        named = {label.lower(): t for label, t in spec["targets"]}
        target = view.target_of(spec["dice"], payload.get("target", ""), named)
        return view.advise(spec["dice"], payload.get("roll", ""), payload.get("rolls_left", 1), target)

    def _dice(self, payload) -> dict | None:
        from simcore.odds import view

        if payload.get("custom"):
            dice = view.custom_dice(payload.get("faces", ""), payload.get("dice", 5))
            text = payload.get("target") or "kind:5"
            free = _whole(payload, "rolls", 1, 12, 3)
            return {"title": "custom dice", "dice": dice, "targets": [(str(text), view.target_of(dice, text))],
                    "free_rolls": free, "extra_rolls": 0}
        api, gt, rules, content = self._edited(payload)
        if gt.entrants != "heroes":
            return None
        names = api.entrant_names(content)
        who = payload.get("entrant") or names[0]
        if who not in names:
            raise PlaytestError(f"unknown {who!r} (known: {', '.join(names)})", field="odds_entrant")
        return api.dice_spec(rules, content, names.index(who))


def replay_steps(text: str) -> list[str]:
    """A play-by-play cut into steps: a line that is not indented starts a step."""
    steps: list[list[str]] = []
    for line in text.splitlines():
        if not steps or (line and not line[0].isspace() and steps[-1]):
            steps.append([])
        steps[-1].append(line)
    return ["\n".join(s) for s in steps]


def command_for(p: Prepared) -> str:
    """The CLI command that plays exactly this view's (edited) run; with ``--rules`` or
    ``--content`` it reads the files of the export, unzipped in the current folder."""
    from analysis.runs import changed_rules

    if p.lineup is not None:
        args = ["playtest", p.game, "run", "--strategy", ",".join(st for _, st in p.lineup), "-n", str(p.games),
                "--seed", str(p.seed)]
        if p.gt.entrants == "heroes":
            args += ["--hero", p.lineup[0][0], "--vs", p.lineup[1][0]]
    else:
        args = ["playtest", p.game, "tournament", "--strategies", ",".join(p.strategies), "-n", str(p.games),
                "--seed", str(p.seed)]
    if p.seats != p.gt.default_seats:
        args += ["--players", str(p.seats)]
    if changed_rules(p.rules, p.api.load_rules()):
        args += ["--rules", "rules.toml"]
    if p.gt.entrants == "heroes" and p.api.content_folder:
        default = p.api.entrant_names(p.api.load_content(p.api.load_rules()))
        if p.edits or p.dataset or p.entrant_keys != default:
            args += ["--content", p.api.content_folder]
    return shlex.join(args)
