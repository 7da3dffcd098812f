"""One runner for every registered game: matchups, TAG-style tournaments (every strategy
in every seat, the same seeds replayed with seats swapped), adaptive sampling, and one
result schema.

A *matchup* is a lineup (the entrant of each seat: a hero index for hero games, else the
seat/role itself) and a strategy per seat, played on games ``0..n-1`` of a seed; every
matchup of a run uses the same seeds (common random numbers), so two matchups differ only
by who sits where.

Adaptive sampling (``ci_width``): a matchup is played in fixed blocks of ``block`` games
(``[0, b)``, ``[b, 2b)``...) until the 95% half-width of its reported win rate is at most
``ci_width`` or ``max_games`` is reached. The blocks are the same for any ``--jobs`` and
the decision reads only the records, so results stay bit-identical. A data-dependent stop
makes the nominal interval slightly optimistic (stopping when the interval happens to be
narrow); the project checks at most every ``block`` games (few looks) and reports each
matchup's games and whether it reached the width, so a reader sees where it did not.

Result schema (every ``--json``): see :func:`result_json` and README "Result schema".
"""
from __future__ import annotations

import itertools
import os
import time
from dataclasses import dataclass, field

import numpy as np

from simcore import __version__
from simcore.errors import PlaytestError, check_games
from simcore.game import get_game, game_type


from .aggregate import Aggregate, metrics as agg_metrics, play_chunk  # noqa: F401 (play_chunk: its old home)
from .metrics import rate
from .ratings import ratings
from .stats import wilson

MAX_JOBS_HELPFUL = max(1, os.cpu_count() or 1)


# ------------------------------------------------------------------ playing
def check_seed(seed) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2**63:
        raise PlaytestError(f"must be a whole number in 0..2**63-1, got {seed!r}", field="--seed")
    return int(seed)


def check_jobs(jobs) -> int:
    if isinstance(jobs, bool) or not isinstance(jobs, (int, np.integer)) or jobs < 1:
        raise PlaytestError(f"must be a whole number >= 1, got {jobs!r}", field="--jobs")
    if jobs > MAX_JOBS_HELPFUL:
        raise PlaytestError(f"{jobs} worker processes on a machine with {MAX_JOBS_HELPFUL} cores would only "
                            f"slow the run down: use at most {MAX_JOBS_HELPFUL}", field="--jobs")
    return int(jobs)


# A first compile's rough length on a 2-core machine (CPU minutes, measured on this
# project's machine; a busier machine takes longer). Said when a warm-up is slow.
COMPILE_TIME = {"duel": "about 1 min (2 with search)", "regicide": "about 1-2 min", "arcade": "about 2 min",
                "river": "about 2 min (more with search)", "dicethrone": "about 5 min"}
NOTICE_AFTER = 5.0     # seconds of warm-up after which it is said to be a compile


def notices_on() -> bool:
    """Compile notices and a pipe's progress lines are on unless ``PLAYTEST_NOTICES=0``
    (the test suite's setting: its one-line-error checks read stderr whole)."""
    return os.environ.get("PLAYTEST_NOTICES", "1") != "0"


def warm_up(play, label: str, quiet: bool = False, what: str = "", wants_event: bool = False) -> float:
    """Compile (or load from the cache) before the timed run; returns the seconds it took,
    so games/s never count compilation. A warm-up still going after NOTICE_AFTER s is a
    compile (loading from the cache takes a second or two): that is said on stderr, in a
    terminal or a pipe, with what is compiled and roughly for how long, once per game and
    strategies, whatever else is in the cache (the notice used to need an empty cache).
    ``wants_event``: ``play`` takes the event set once the notice is out (for the tests)."""
    import sys
    import threading
    import time

    def notice():
        print(f"playtest: compiling the {label} kernels{' for ' + what if what else ''} (the first run after an "
              f"install or an upgrade: {COMPILE_TIME.get(label, 'a minute or more')} on 2 cores; cached "
              "afterwards)...", file=sys.stderr, flush=True)
        said.set()

    said = threading.Event()
    timer = None if quiet or not notices_on() else threading.Timer(NOTICE_AFTER, notice)
    if timer is not None:
        timer.daemon = True
        timer.start()
    t0 = time.perf_counter()
    try:
        play(said) if wants_event else play()
    finally:
        if timer is not None:
            timer.cancel()
    return time.perf_counter() - t0


class RunProgress:
    """Games played over a whole run, for a run whose stderr is not a terminal (a log, CI,
    ``--json``; a terminal gets tqdm's bars): a plain line at most every ``every`` seconds,
    once the run has lasted that long, with the games played, the rate and the time left."""

    def __init__(self, total: int, label: str = "", every: float = 30.0, out=None):
        import sys

        self.total, self.label, self.every = int(total), label, every
        self.out = out or sys.stderr
        self.done = 0
        self.t0 = time.perf_counter()
        self.last = self.t0

    def update(self, n: int) -> None:
        self.done += int(n)
        now = time.perf_counter()
        if now - self.last >= self.every:
            self.last = now
            print(f"playtest: {self.line(now)}", file=self.out, flush=True)

    def line(self, now: float | None = None) -> str:
        el = (now or time.perf_counter()) - self.t0
        rate = self.done / el if el > 0 else 0.0
        left = (self.total - self.done) / rate if rate > 0 else float("nan")
        what = f"{self.label}: " if self.label else ""
        return (f"{what}{self.done:,} of {self.total:,} games played ({self.done / max(1, self.total):.0%}), "
                f"{rate:,.0f} games/s, about {_duration(left)} left")

    def close(self) -> None:
        pass


def _duration(sec: float) -> str:
    if sec != sec:
        return "? min"
    if sec < 90:
        return f"{sec:.0f} s"
    if sec < 5400:
        return f"{sec / 60:.0f} min"
    return f"{sec / 3600:.1f} h"


@dataclass
class Matchup:
    lineup: tuple
    strategies: tuple
    records: dict   # per-game record arrays, or an analysis.aggregate.Aggregate of them
    reached: bool | None = None   # adaptive sampling: did it reach the target width

    @property
    def games(self) -> int:
        if isinstance(self.records, Aggregate):
            return self.records.games
        return int(np.asarray(self.records["winner"]).shape[0])

    def aggregate(self, seats: int) -> Aggregate:
        return self.records if isinstance(self.records, Aggregate) else Aggregate.of_records(self.records, seats)


def _half_width(rec: dict) -> float:
    if isinstance(rec, Aggregate):
        return rec.half_width()
    w = np.asarray(rec["winner"])
    done = ~np.asarray(rec["capped"], bool)
    n = int(done.sum())
    if n == 0:
        return 1.0
    k = np.count_nonzero(w[done] == 0) + 0.5 * np.count_nonzero(w[done] < 0)
    lo, hi = wilson(k, n)
    return (hi - lo) / 2


def _concat(parts: list[dict]) -> dict:
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def play_matchup(game: str, setup, lineup: tuple, strategies: tuple, games: int, seed: int, jobs: int = 1,
                 chunk_size: int | None = None, engine: str = "kernel", trace: bool = False,
                 ci_width: float | None = None, max_games: int | None = None, progress=False,
                 execution=None, index: int = 0) -> Matchup:
    """Play one matchup (``games`` games, or adaptively, see the module docstring). Each
    chunk is reduced to an exact aggregate where it is played (flat memory); ``execution``
    (``analysis.execution``) picks the backend and the store, ``index`` is the matchup's
    place in its run (the store's key of its chunks)."""
    from .execution import Execution

    ex = execution if execution is not None else Execution(jobs=jobs, chunk_size=chunk_size)

    def block(a: int, b: int) -> Aggregate:
        try:
            return ex.play(index, game, setup, lineup, strategies, a, b, seed, engine, trace, len(lineup), progress)
        finally:
            if execution is None:
                ex.close()

    if ci_width is None:
        return Matchup(lineup, strategies, block(0, games))
    parts, done = [], 0
    cap = max_games or games * 100
    while True:
        step = min(games, cap - done)
        parts.append(block(done, done + step))
        done += step
        rec = Aggregate.total(parts, len(lineup))
        if _half_width(rec) <= ci_width:
            return Matchup(lineup, strategies, rec, True)
        if done >= cap:
            return Matchup(lineup, strategies, rec, False)


# ------------------------------------------------------------------ lineups
def lineups_for(game: str, n_entrants: int, seats: int, strategy_list: list[str], mirrors: bool = True,
                fixed: tuple | None = None) -> list[tuple[tuple, tuple]]:
    """Every (lineup, strategies) of a tournament, TAG-style: every strategy in every seat.

    heroes: every ordered hero pair x every ordered strategy pair (a hero keeps its
    strategy when seats swap, so (A:S, B:T) and (B:T, A:S) are both played);
    roles: every strategy in every role; seats: each ordered strategy pair (S, T) with S in
    one seat and T in the others, S moved through every seat (cooperative games: every
    strategy alone, at every seat).
    """
    gt = game_type(game)
    out = []
    if gt.entrants == "heroes":
        heroes = [fixed] if fixed else [(a, b) for a in range(n_entrants) for b in range(n_entrants)
                                        if a != b or mirrors]
        for (a, b) in heroes:
            for s, t in itertools.product(strategy_list, repeat=2):
                out.append(((a, b), (s, t)))
    elif gt.entrants == "roles":
        for combo in itertools.product(strategy_list, repeat=seats):
            out.append((tuple(range(seats)), combo))
    elif gt.kind == "cooperative" or len(strategy_list) == 1:
        for s in strategy_list:
            out.append((tuple(range(seats)), (s,) * seats))
    else:
        for s, t in itertools.permutations(strategy_list, 2):
            for seat in range(seats):
                combo = tuple(s if i == seat else t for i in range(seats))
                out.append((tuple(range(seats)), combo))
    return out


# ------------------------------------------------------------------ tables
def seat_scores(rec: dict, seats: int) -> tuple[np.ndarray, int, int, int]:
    """(wins per seat, no-winner games not capped, capped games, games)."""
    if isinstance(rec, Aggregate):
        return rec.seat_scores()
    w = np.asarray(rec["winner"])
    capped = np.asarray(rec["capped"], bool)
    wins = np.array([np.count_nonzero((w == s) & ~capped) for s in range(seats)])
    return wins, int(np.count_nonzero((w < 0) & ~capped)), int(capped.sum()), int(w.size)


def ci_decimals(lo, hi, most: int = 3) -> int:
    """Decimals for a percentage and its interval ``lo..hi`` (fractions): one, or more until
    the two ends differ as printed (16 million games give an interval ~0.05 points wide,
    which one decimal printed as '[54.7, 54.7]')."""
    if not hi > lo:      # no interval to show (no games, or equal ends)
        return 1
    for d in range(1, most + 1):
        if f"{100 * lo:.{d}f}" != f"{100 * hi:.{d}f}":
            return d
    return most


def fmt_rate(x, ci=None, n=None) -> str:
    """'54.7% [54.5, 54.9] (n=16,000)': percent with one decimal (more when the interval is
    narrower than that: ``ci_decimals``), counts with separators."""
    if x is None:
        return "n/a"
    d = ci_decimals(*ci) if ci is not None else 1
    s = f"{100 * x:.{d}f}%"
    if ci is not None:
        s += f" [{100 * ci[0]:.{d}f}, {100 * ci[1]:.{d}f}]"
    if n is not None:
        s += f" (n={n:,})"
    return s


@dataclass
class RunResult:
    game: str
    seed: int
    games: int
    seats: int
    matchups: list
    entrant_names: list
    rules: dict
    rules_changed: dict
    cooperative: bool = False
    extra: dict = field(default_factory=dict)

    def entrant_label(self, m: Matchup, seat: int) -> str:
        gt = game_type(self.game)
        base = self.entrant_names[m.lineup[seat]] if gt.entrants == "heroes" else gt.seat_label(seat)
        return base

    def matchup_rows(self) -> list[dict]:
        rows = []
        for m in self.matchups:
            wins, draws, capped, n = seat_scores(m.records, self.seats)
            done = n - capped
            row = {"seats": [{"entrant": self.entrant_label(m, s), "strategy": m.strategies[s]}
                             for s in range(self.seats)],
                   "games": n, "wins": [int(x) for x in wins], "draws": draws, "capped": capped}
            if self.cooperative:
                r = rate(int(wins[0]), done)     # a capped game is neither a win nor a loss
            else:   # a draw: an even share (one half of two seats, a third of three...), as seat_rows
                r = rate(float(wins[0]) + draws / self.seats, done)
            row["win_rate"], row["win_rate_ci"] = r["x"], r["x_ci"]
            if m.reached is not None:
                row["reached_ci_width"] = m.reached
            rows.append(row)
        return rows

    def entrant_rows(self) -> list[dict]:
        """Score of each (entrant, strategy) over every game it played, any seat, each game
        counted once; games ended by a cap left out (counted apart). In a mirror (the same
        entrant and strategy in two seats) the entrant's score is one half by construction:
        such a game counts once, at one half (counting it from both seats doubled its n and
        narrowed the interval)."""
        acc: dict = {}
        for m in self.matchups:
            wins, draws, capped, n = seat_scores(m.records, self.seats)
            done = n - capped
            keys = [(self.entrant_label(m, s), m.strategies[s]) for s in range(self.seats)]
            for s, key in enumerate(keys):
                a = acc.setdefault(key, [0.0, 0])
                if self.cooperative:
                    a[0] += wins[0] / self.seats
                    a[1] += done / self.seats
                elif keys.count(key) > 1:
                    if keys.index(key) == s:       # once per game, at its one-half score
                        a[0] += 0.5 * done
                        a[1] += done
                else:
                    a[0] += wins[s] + draws / self.seats
                    a[1] += done
        rows = []
        for (ent, strat), (k, n) in acc.items():
            r = rate(k, int(round(n)))
            rows.append({"entrant": ent, "strategy": strat, "win_rate": r["x"], "win_rate_ci": r["x_ci"],
                         "games": int(round(n))})
        rows.sort(key=lambda r: -(r["win_rate"] or 0))
        return rows

    def seat_rows(self) -> tuple[list, list, int]:
        wins = np.zeros(self.seats)
        draws = games = 0
        for m in self.matchups:
            w, d, c, n = seat_scores(m.records, self.seats)
            wins += w
            draws += d
            games += n - c
        share = 0.5 if self.seats == 2 else 1.0 / self.seats
        rates, cis = [], []
        for s in range(self.seats):
            r = rate(wins[s] + share * draws, games) if not self.cooperative else rate(wins[0], games)
            rates.append(r["x"])
            cis.append(r["x_ci"])
        return rates, cis, games

    def pooled(self) -> Aggregate:
        """Every matchup's games pooled, as one aggregate (exact: see analysis/aggregate.py)."""
        return Aggregate.total((m.aggregate(self.seats) for m in self.matchups), self.seats)

    def ratings_table(self, reps: int = 200) -> list[dict]:
        if self.cooperative:
            return []
        names: list = []
        index: dict = {}
        for m in self.matchups:
            for s in range(self.seats):
                key = f"{self.entrant_label(m, s)} / {m.strategies[s]}"
                if key not in index:
                    index[key] = len(names)
                    names.append(key)
        k = len(names)
        wins = np.zeros((k, k))
        games = np.zeros((k, k))
        for m in self.matchups:
            ids = [index[f"{self.entrant_label(m, s)} / {m.strategies[s]}"] for s in range(self.seats)]
            w, g = m.aggregate(self.seats).pairwise(ids, k)
            wins += w
            games += g
        return ratings(names, wins, games, reps=reps, seed=self.seed)

    def metrics(self) -> dict:
        ents = self.entrant_rows()
        return agg_metrics(self.pooled(), [e["win_rate"] for e in ents], [e["games"] for e in ents],
                           cooperative=self.cooperative)


# a game's own keys of the result document, found by the game's name in this layer (the
# game's binding, in the layer below, never imports the analysis): game -> module whose
# ``result_fields(result)`` returns them
RESULT_FIELDS = {"river": "analysis.river"}


def game_result_fields(res: RunResult) -> dict:
    """The game's own keys of ``res``'s result document (:data:`RESULT_FIELDS`), or {}."""
    import importlib

    mod = RESULT_FIELDS.get(res.game)
    return importlib.import_module(mod).result_fields(res) if mod else {}


def result_json(res: RunResult, command: str, strategies_per_seat=None, extra: dict | None = None) -> dict:
    """The shared schema: game, seed, games, strategies, rules (changed), version, every
    rate as ``x`` + ``x_ci``; metrics, ratings, capped games."""
    rates, cis, n_done = res.seat_rows()
    pooled = res.pooled()
    gt = game_type(res.game)
    out = {
        "game": res.game,
        "command": command,
        "version": __version__,
        "seed": res.seed,
        "games": int(sum(m.games for m in res.matchups)),
        "games_per_matchup": res.games,
        "strategies": strategies_per_seat if strategies_per_seat is not None else
        sorted({s for m in res.matchups for s in m.strategies}),
        "rules": res.rules_changed,
        "capped_games": pooled.capped,
        "matchups": res.matchup_rows(),
        "entrants": res.entrant_rows(),
        ("role_win_rate" if gt.roles else "seat_win_rate"): rates,
        ("role_win_rate_ci" if gt.roles else "seat_win_rate_ci"): cis,
        "metrics": res.metrics(),
        "ratings": res.ratings_table(),
    }
    for k, v in game_result_fields(res).items():
        out.setdefault(k, v)   # a game's own keys (e.g. the river's attacker_win_rate); shared keys win
    out.update(res.extra)
    if extra:
        out.update(extra)
    return out


def changed_rules(rules: dict, defaults: dict) -> dict:
    return {k: v for k, v in rules.items() if defaults.get(k) != v}


def run(game: str, setup, entrant_names: list, plan: list, games: int, seed: int, rules: dict,
        defaults: dict, jobs: int = 1, engine: str = "kernel", trace: bool = False,
        ci_width: float | None = None, max_games: int | None = None, progress: bool = False,
        chunk_size: int | None = None, execution=None) -> RunResult:
    """Play every (lineup, strategies) of ``plan`` on the same seeds. ``execution``
    (``analysis.execution.Execution``): backend, store, records, resume (default: local
    processes, no store); the run owns it from here and closes it."""
    import time

    from .execution import Execution

    games = check_games(games)
    seed = check_seed(seed)
    gt = game_type(game)
    seats = len(plan[0][0])
    ex = execution if execution is not None else Execution(jobs=jobs, chunk_size=chunk_size)
    try:
        t_start = time.perf_counter()
        ex.begin(game, setup, plan, games, seed, rules, changed_rules(rules, defaults), engine, trace, ci_width,
                 max_games, entrant_names, seats)
        res = _run_plan(ex, game, setup, entrant_names, plan, games, seed, rules, defaults, engine, trace,
                        ci_width, max_games, progress, gt, seats)
        ex.end(res, time.perf_counter() - t_start)
        return res
    except KeyboardInterrupt:   # Ctrl-C or SIGTERM: say what is kept and how to finish
        # said here, on stderr: typer turns the interrupt into a silent exit status 130
        import sys

        note = ex.interrupt_note()
        print(f"playtest: {note}", file=sys.stderr, flush=True)
        raise Interrupted(note) from None
    finally:
        ex.close()


class Interrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM) during a run; its message says what the store keeps."""


def _run_plan(ex, game, setup, entrant_names, plan, games, seed, rules, defaults, engine, trace, ci_width,
              max_games, progress, gt, seats) -> RunResult:
    compile_s = 0.0
    for strats in dict.fromkeys(st for _, st in plan):  # each strategy combination once
        lineup = next(lu for lu, st in plan if st == strats)
        compile_s += warm_up(lambda: play_chunk(0, 1, game, setup, lineup, strats, seed, engine), game,
                             what=", ".join(dict.fromkeys(strats)))
    t0 = time.perf_counter()
    ex.warm_workers(game, setup, plan, seed, engine, trace, seats)
    compile_s += time.perf_counter() - t0
    out = []
    total = len(plan) * (games if ci_width is None else (max_games or games * 100))
    if not progress and notices_on():   # a terminal has the matchups' bars (Execution.play)
        names = ", ".join(dict.fromkeys(s for _, st in plan for s in st))
        ex.ticker = RunProgress(total, f"{game} ({names})")
    for index, (lineup, strats) in enumerate(plan):
        label = False
        if progress:
            ents = [entrant_names[e] if gt.entrants == "heroes" else gt.seat_label(i) for i, e in enumerate(lineup)]
            label = " vs ".join(f"{e}:{s}" for e, s in zip(ents, strats))
        out.append(play_matchup(game, setup, lineup, strats, games, seed, ex.jobs, ex.chunk_size, engine, trace,
                                ci_width, max_games, label, execution=ex, index=index))
    ex.ticker = None
    extra = {"compile_seconds": round(compile_s, 3)}
    if ex.run is not None:
        extra.update({"run_id": ex.run.run_id, "resumed_chunks": ex.resumed_chunks, "played_chunks": ex.played_chunks})
    return RunResult(game, seed, games, seats, out, entrant_names, rules, changed_rules(rules, defaults),
                     cooperative=gt.kind == "cooperative", extra=extra)


def tune(game: str, rules: dict, option: str, values: list, strategies: list, games: int, seed: int,
         jobs: int = 1, seats: int | None = None, content_path=None, trace: bool = False, content=None,
         params: str | None = None, execution=None) -> list:
    """The same tournament of ``strategies`` on the same seeds (common random numbers) for
    each value of one rule option or one number of the game's data (``editable_numbers``
    beyond ``rules.``), everything else as in ``rules``/``content``, the strategies'
    ``params`` (the shared ``--param`` text) in every variant: ``[(value, RunResult)]``. Every variant is validated (the game's own loader, any option type:
    numbers, switches, choices) before the first game is played. ``execution()``: a fresh
    ``analysis.execution.Execution`` per variant (backend, store; default: local, no store)."""
    from simcore.game import validated_rules

    api = get_game(game)
    gt = game_type(game)
    seats = seats if seats is not None else gt.default_seats
    defaults = api.load_rules()
    content = content if content is not None else api.load_content(rules, content_path)
    if option not in rules and option not in {e.key for e in api.editable_numbers(rules, content)}:
        raise PlaytestError(f"unknown rule option or data number (rule options: {', '.join(rules)})",
                            field="--option")
    variants = []
    for v in values:
        if option in rules:
            rv = validated_rules(api, rules, {option: v})
            cv = api.load_content(rv, content_path)
        else:
            rv, cv = api.apply_edits(rules, content, {option: v})
        variants.append((v, rv, cv, api.make_setup(rv, cv, seats, params)))
    out = []
    for v, rv, cv, setup in variants:
        names = api.entrant_names(cv)
        plan = lineups_for(game, len(names), seats, list(strategies), bool(rv.get("mirror_matches", True)))
        out.append((v, run(game, setup, names, plan, games, seed, rv, defaults, jobs, trace=trace,
                           execution=execution() if execution is not None else None)))
    return out

