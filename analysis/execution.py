"""How a run is executed: the backend that plays its chunks (``simcore.backends``), the
store that keeps them (``analysis.store``), per-game records on request, and resuming.

A matchup's games are cut into chunks of at most :data:`CHUNK_MAX` games; each chunk is
played and reduced to an exact aggregate where it runs (``analysis.aggregate``), so the
memory of a run is bounded by ``CHUNK_MAX`` x (chunks in flight), whatever ``-n`` is.
Each finished chunk is written to the store before it is counted; ``--resume`` finds the
newest run of the same plan (same game, seed, games, lineups, rules, content, engine) in
the store, keeps its stored chunks (it uses that run's chunk size, so the chunks line up)
and plays only the missing ones. A chunk is counted once: results are keyed by
(matchup, start, stop) and a chunk seen twice (a retried task that had in fact finished)
is ignored.
"""
from __future__ import annotations

import os
import socket
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Callable

from simcore.errors import PlaytestError
from simcore.parallel import chunk_bounds, default_chunk_size

from .aggregate import Aggregate, aggregate_chunk
from .store import HEARTBEAT, Store, StoredRun, content_hash, git_commit, machine, now_iso, run_key

CHUNK_MAX = 200_000          # games per chunk at most: the memory bound of one chunk
MAX_CHUNKS = 1_000_000       # chunks per matchup at most (the chunk list and store index)


def _stderr(msg: str) -> None:
    print(f"playtest: {msg}", file=sys.stderr, flush=True)


def check_run_size(games: int, matchups: int, field: str = "--games") -> None:
    """Flat memory: any game count whose chunk list is reasonable is fine."""
    chunks = -(-games // CHUNK_MAX)
    if chunks > MAX_CHUNKS:
        fit = CHUNK_MAX * MAX_CHUNKS
        raise PlaytestError(f"{games:,} games per matchup need {chunks:,} chunks of {CHUNK_MAX:,}: more than the "
                            f"{MAX_CHUNKS:,} a run keeps in memory and in its store index: use at most -n {fit:,}",
                            field=field)


@dataclass
class Execution:
    backend_name: str = "local"
    jobs: int = 1
    scheduler: str | None = None
    store: Store | None = None
    keep_records: bool = False
    resume: bool = False
    chunk_size: int | None = None
    command: str = ""
    warn: Callable = _stderr
    # state
    backend: object = None
    run: StoredRun | None = None
    stored: dict = field(default_factory=dict)
    seen: set = field(default_factory=set)
    resumed_chunks: int = 0
    played_chunks: int = 0
    _t0: float = 0.0
    _row: dict = field(default_factory=dict)
    _manifest: dict = field(default_factory=dict)
    _beat: object = None          # the heartbeat thread's stop event
    ticker: object = None         # the run's progress (analysis.runs.RunProgress), told of every chunk
    _row_lock: object = field(default_factory=threading.Lock)

    def __post_init__(self):
        from simcore.backends import check_scheduler

        self.scheduler = check_scheduler(self.scheduler)   # before any work
        if self.keep_records and self.store is None:
            raise PlaytestError("per-game records are written into the store: drop --no-store", field="--records")

    # --- lifecycle
    def get_backend(self):
        if self.backend is None:
            from simcore.backends import make_backend

            self.backend = make_backend(self.backend_name, self.jobs, self.scheduler)
        return self.backend

    def begin(self, game: str, setup, plan: list, games: int, seed: int, rules: dict, rules_changed: dict,
              engine: str, trace: bool, ci_width, max_games, entrant_names: list, seats: int) -> None:
        """Before the first game: the store (new run, or the run to resume) and the backend."""
        from simcore import __version__

        self._t0 = time.perf_counter()
        if self.chunk_size is None:
            self.chunk_size = min(CHUNK_MAX, default_chunk_size(games, self.jobs))
        plan_doc = {"game": game, "seed": seed, "games": games, "plan": [[list(lu), list(st)] for lu, st in plan],
                    "rules": rules, "content": content_hash(setup), "engine": engine, "trace": bool(trace),
                    "ci_width": ci_width, "max_games": max_games}
        key = run_key(plan_doc)
        resumed_from = None
        if self.store is not None:
            self.store.check_writable()
            if self.resume:
                rid = self.store.find_resumable(key) or self.store.find_complete(key)
                if rid:
                    self.run = self.store.open(rid)
                    self.run.lock()     # before reading its chunks: a second --resume stops here
                    man = self.run.manifest()
                    self.chunk_size = int(man["chunk_size"])
                    self.stored = self.run.stored_chunks(warn=self.warn)
                    resumed_from = rid
                    self._manifest = man
                else:
                    self.warn(f"--resume: no earlier run of this command in {self.store.root}: playing it all")
            if self.run is None:
                self.run = self.store.new_run(game)
                self.run.lock()
                self._manifest = {"run_id": self.run.run_id, "key": key, **plan_doc, "seats": seats,
                                  "entrant_names": list(entrant_names), "rules_changed": rules_changed,
                                  "chunk_size": self.chunk_size, "command": self.command,
                                  "keep_records": self.keep_records, "started": now_iso()}
                self.run.write_manifest(self._manifest)
            strategies = sorted({s for _, st in plan for s in st})
            self._row = {"run_id": self.run.run_id, "status": "running", "game": game, "command": self.command,
                         "seed": seed, "games": games, "games_played": 0, "matchups": len(plan),
                         "strategies": strategies, "rules": rules_changed, "content_hash": plan_doc["content"],
                         "version": __version__, "git_commit": git_commit(),
                         "started": self._manifest.get("started") or now_iso(), "ended": None, "seconds": None,
                         "machine": machine(), "backend": self.backend_name, "key": key,
                         "resumed_from": resumed_from, "host": socket.gethostname(), "pid": os.getpid(),
                         "heartbeat": time.time()}
            self._write_row(games_played=self.run.stored_games())
            self._start_heartbeat()
        be = self.get_backend()
        be.check_plugins([s for _, st in plan for s in st])

    def warm_workers(self, game, setup, plan, seed, engine, trace, seats) -> None:
        """A Dask cluster: every worker compiles or loads the kernels now (once each).

        One task pinned to each worker, not ``Client.run``: ``run`` executes on the worker's
        event loop, which then sends no heartbeat while numba compiles, and a plug-in's
        uncached kernel can take longer than the scheduler's worker TTL (5 minutes) on a
        busy machine, so the scheduler restarted the workers mid-compile. A task runs in
        the worker's thread pool and the worker stays reachable."""
        be = self.get_backend()
        if be.name != "dask":
            return
        workers = list(be.client.scheduler_info().get("workers", {}))
        for strats in dict.fromkeys(st for _, st in plan):
            lineup = next(lu for lu, st in plan if st == strats)
            try:
                futs = [be.client.submit(aggregate_chunk, 0, 1, game, be.shared(setup), lineup, strats, seed, engine,
                                         trace, seats, be.threads, False, workers=[w], allow_other_workers=False,
                                         pure=False, retries=0) for w in workers]
                be.client.gather(futs)
            except PlaytestError:
                raise
            except Exception as e:  # noqa: BLE001 - the workers' environment, in one line
                raise PlaytestError(f"the cluster's workers cannot play {game} ({type(e).__name__}: {e}); every "
                                    "worker needs this same version of playtest installed (pip install "
                                    "'playtest[cluster]', or PYTHONPATH pointing at this checkout)".replace("\n", " "),
                                    field="--backend") from None

    def play(self, mi: int, game: str, setup, lineup: tuple, strategies: tuple, a: int, b: int, seed: int,
             engine: str, trace: bool, seats: int, progress=False) -> Aggregate:
        """Games ``a..b-1`` of matchup ``mi``: stored chunks are reused, the others played."""
        cs = self.chunk_size or min(CHUNK_MAX, default_chunk_size(b - a, self.jobs))
        bounds = [(x + a, y + a) for x, y in chunk_bounds(b - a, cs)]
        total = Aggregate(seats)
        todo = []
        for s, e in bounds:
            got = self.stored.get((mi, s, e))
            if got is not None and (mi, s, e) not in self.seen:
                self.seen.add((mi, s, e))
                total.merge(got)
                self.resumed_chunks += 1
            else:
                todo.append((s, e))
        bar = None
        if progress and todo:
            from tqdm import tqdm

            bar = tqdm(total=sum(e - s for s, e in todo), unit="game", unit_scale=True, leave=False,
                       desc=progress if isinstance(progress, str) else None, disable=None)
        try:
            if todo:
                for s, e, js, rec in self.get_backend().map(aggregate_chunk, todo, game, setup, lineup, strategies,
                                                            seed, engine, trace, seats,
                                                            keep_records=self.keep_records):
                    if (mi, s, e) in self.seen:
                        continue  # never count a chunk twice
                    if self.run is not None:
                        self.run.write_chunk(mi, s, e, js, rec)
                    self.seen.add((mi, s, e))
                    total.merge(Aggregate.from_json(js))
                    self.played_chunks += 1
                    if bar is not None:
                        bar.update(e - s)
                    if self.ticker is not None:
                        self.ticker.update(e - s)
        finally:
            if bar is not None:
                bar.close()
        if total.games != b - a:  # pragma: no cover - a bookkeeping bug, never a user error
            raise RuntimeError(f"matchup {mi}: {total.games} games counted for {b - a} played")
        return total

    # --- the catalogue row while the run is under way
    def _write_row(self, **changes) -> None:
        with self._row_lock:
            self._row.update(changes)
            self.run.write_catalogue(self._row)

    def _start_heartbeat(self) -> None:
        """Every HEARTBEAT s: the games stored so far and a sign of life in the catalogue, and
        the run's lock touched, so that ``runs list`` shows an unfinished run's progress and
        a run whose process died is seen to be stale (``analysis.store.row_status``)."""
        stop = threading.Event()
        run = self.run

        def beat():
            while not stop.wait(HEARTBEAT):
                try:
                    run.touch_lock()
                    if self._row.get("status") == "running":
                        self._write_row(games_played=run.stored_games(), heartbeat=time.time())
                except Exception:  # noqa: BLE001 - a missed beat is not worth stopping the run for
                    pass

        threading.Thread(target=beat, name="playtest-heartbeat", daemon=True).start()
        self._beat = stop

    def interrupt_note(self) -> str:
        """What an interrupted run keeps, and how to finish it."""
        if self.run is None:
            return "interrupted (nothing was stored: --no-store)"
        games = self.run.stored_games()
        chunks = self.run.chunks_written + self.resumed_chunks
        return (f"interrupted: the {chunks:,} finished chunk(s) ({games:,} games) are kept in run "
                f"{self.run.run_id}; rerun the same command with --resume to play only the rest")

    def end(self, res, seconds: float) -> None:
        """The run is complete: its summary in the manifest and the catalogue."""
        if self.run is None:
            return
        self._manifest.update({"final": {"reached": [m.reached for m in res.matchups],
                                         "games": [m.games for m in res.matchups],
                                         "extra": {k: v for k, v in res.extra.items()},
                                         "seconds": round(seconds, 3)}})
        self.run.write_manifest(self._manifest)
        self._write_row(status="complete", ended=now_iso(), seconds=round(seconds, 3), heartbeat=time.time(),
                        games_played=int(sum(m.games for m in res.matchups)))

    def close(self) -> None:
        if self._beat is not None:
            self._beat.set()
            self._beat = None
        if self.run is not None and self._row.get("status") == "running":  # stopped by an error or Ctrl-C
            try:
                self._write_row(status="interrupted", ended=now_iso(), heartbeat=time.time(),
                                games_played=self.run.stored_games())
            except (OSError, PlaytestError):
                pass  # the run stays listed as running until it is seen to be stale; --resume finds it
        if self.run is not None:
            self.run.unlock()
        if self.backend is not None:
            self.backend.close()
            self.backend = None
