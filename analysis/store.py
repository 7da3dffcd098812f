"""The results store: every run saved as a Parquet dataset plus one catalogue row, kept
chunk by chunk as the run goes, so an interrupted run loses no finished chunk and
``--resume`` plays only the missing ones.

Layout (``--store DIR``; default ``$PLAYTEST_STORE``, else ``$XDG_DATA_HOME/playtest/runs``,
else ``~/.local/share/playtest/runs``)::

    catalogue/<run>.parquet            one row per run (see CATALOGUE_COLUMNS)
    runs/<run>/manifest.json           the run's plan: game, seed, lineups, rules, chunk size
    runs/<run>/chunks/m0003_s000000000000_e000000200000.parquet
                                       one row: the exact aggregate of games [s, e) of
                                       matchup 3 (analysis/aggregate.py) + flat columns
    runs/<run>/records/m0003/s000000000000.parquet
                                       per-game records of that chunk (only with --records)
    runs/<run>/candidates/c000012.parquet
                                       a fix run (``playtest GAME fix``): one row per candidate
                                       the search evaluated (edits, cost, win rates with
                                       intervals); its manifest names the proof run

Every file is written to a temporary name and renamed into place, so a file is either
complete or absent: a run killed at any moment leaves only whole chunks. A chunk is
identified by (matchup, start, stop), so a run never counts a chunk twice. A damaged chunk
file is played again on ``--resume``; nothing stored is ever deleted by playtest.
"""
from __future__ import annotations

import errno
import hashlib
import json
import os
import platform
import re
import secrets
import socket
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from simcore.errors import PlaytestError

CATALOGUE_COLUMNS = ("run_id", "status", "game", "command", "seed", "games", "games_played", "matchups",
                     "strategies", "rules", "content_hash", "version", "git_commit", "started", "ended",
                     "seconds", "machine", "backend", "key", "resumed_from", "host", "pid", "heartbeat")
# A run under way rewrites its catalogue row and touches its lock every HEARTBEAT seconds;
# a "running" run is stale (killed by SIGKILL, a power cut...) when its process is gone
# (same host) or its heartbeat is older than STALE seconds (any host).
HEARTBEAT = 30.0
STALE = 180.0
_CHUNK_RE = re.compile(r"^m(\d{4})_s(\d{12})_e(\d{12})\.parquet$")


def default_store() -> Path:
    env = os.environ.get("PLAYTEST_STORE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "playtest" / "runs"


def _os_error(e: OSError, where: str, done: str = "") -> PlaytestError:
    keep = f"; {done}" if done else ""
    if e.errno in (errno.ENOSPC, errno.EDQUOT):
        return PlaytestError(f"the store is full ({e.strerror}){keep}", where=where, field="--store")
    if e.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return PlaytestError(f"cannot write in the store ({e.strerror}){keep}", where=where, field="--store")
    return PlaytestError(f"{e.strerror or e}{keep}", where=where, field="--store")


def _atomic_write(path: Path, write) -> None:
    """``write(tmp_path)`` then rename into place (a file is whole or absent)."""
    tmp = path.with_name(f".tmp-{secrets.token_hex(4)}-{path.name}")
    try:
        write(tmp)
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        try:
            tmp.unlink()
        except OSError:
            pass
        raise


def _write_table(path: Path, columns: dict) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.table(columns)
    _atomic_write(path, lambda tmp: pq.write_table(table, tmp))


def _read_table(path: Path):
    import pyarrow.parquet as pq

    return pq.read_table(path)


def git_commit() -> str:
    root = Path(__file__).resolve().parent.parent
    try:
        p = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=5)
        return p.stdout.strip() if p.returncode == 0 else ""
    except (OSError, subprocess.SubprocessError):
        return ""


def run_key(plan_doc: dict) -> str:
    """What makes two runs the same run (for --resume): everything that decides a game."""
    return hashlib.sha256(json.dumps(plan_doc, sort_keys=True, default=str).encode()).hexdigest()[:24]


def content_hash(setup) -> str:
    """A hash of what decides the games (rules, heroes, decks...), not of caches a binding
    keeps on the setup (attributes starting with '_', e.g. the duel's strategy tables)."""
    import pickle

    state = {k: v for k, v in vars(setup).items() if not k.startswith("_")} if hasattr(setup, "__dict__") else setup
    try:
        return hashlib.sha256(pickle.dumps(state, protocol=4)).hexdigest()[:16]
    except Exception:  # noqa: BLE001 - unpicklable setups are hashed by their repr
        return hashlib.sha256(repr(setup).encode()).hexdigest()[:16]


def flatten_records(rec: dict, start: int) -> dict:
    """Parquet columns of per-game records: an (n, a, b) field becomes a*b columns."""
    n = int(np.asarray(rec["winner"]).shape[0])
    cols = {"game_index": np.arange(start, start + n, dtype=np.int64)}
    for k, v in rec.items():
        a = np.asarray(v)
        if a.ndim == 1:
            cols[k] = a
        elif a.ndim >= 2 and a.shape[0] == n:
            flat = a.reshape(n, -1)
            idx = list(np.ndindex(*a.shape[1:]))
            for j, ix in enumerate(idx):
                cols[f"{k}_{'_'.join(map(str, ix))}"] = flat[:, j]
    return cols


class Store:
    def __init__(self, root: Path | str | None = None):
        self.root = Path(root) if root is not None else default_store()

    # --- checks
    def check_writable(self) -> "Store":
        """Before the first game: the store exists (or can be made) and takes a file."""
        try:
            for d in (self.root / "catalogue", self.root / "runs"):
                d.mkdir(parents=True, exist_ok=True)
            probe = self.root / "runs" / f".probe-{secrets.token_hex(4)}"
            probe.write_bytes(b"x")
            probe.unlink()
        except OSError as e:
            raise _os_error(e, str(self.root)) from None
        return self

    # --- catalogue
    def catalogue(self, warn=None) -> list[dict]:
        """Every readable catalogue row, newest first; ``warn(msg)`` for unreadable ones."""
        rows, bad = [], []
        d = self.root / "catalogue"
        if not d.is_dir():
            return []
        for f in sorted(d.glob("*.parquet")):
            try:
                rows.append(_read_table(f).to_pylist()[0])
            except Exception:  # noqa: BLE001 - a damaged row never hides the others
                bad.append(f.name)
        if bad and warn:
            warn(f"{len(bad)} unreadable catalogue file(s) skipped in {d}: {', '.join(bad[:3])}"
                 + (" ..." if len(bad) > 3 else ""))
        rows.sort(key=lambda r: (r.get("started") or "", r.get("run_id") or ""), reverse=True)
        return rows

    def resolve(self, run: str) -> str:
        """A run id or a unique prefix of one (or 'last')."""
        runs_dir = self.root / "runs"
        ids = sorted(p.name for p in runs_dir.iterdir() if p.is_dir()) if runs_dir.is_dir() else []
        if run == "last":
            rows = self.catalogue()
            if not rows:
                raise PlaytestError("no runs in the store", where=str(self.root), field="RUN")
            return rows[0]["run_id"]
        hits = [i for i in ids if i == run] or [i for i in ids if i.startswith(run)]
        if not hits:
            raise PlaytestError(f"no run {run!r} in the store (playtest runs list)", where=str(self.root), field="RUN")
        if len(hits) > 1:
            raise PlaytestError(f"{run!r} matches {len(hits)} runs: give more of the id", where=str(self.root),
                                field="RUN")
        return hits[0]

    def find_resumable(self, key: str) -> str | None:
        """The newest unfinished run with this key, if any."""
        for r in self.catalogue():
            if r.get("key") == key and r.get("status") != "complete":
                return r["run_id"]
        return None

    def find_complete(self, key: str) -> str | None:
        for r in self.catalogue():
            if r.get("key") == key and r.get("status") == "complete":
                return r["run_id"]
        return None

    def open(self, run_id: str) -> "StoredRun":
        return StoredRun(self, run_id)

    def new_run(self, game: str) -> "StoredRun":
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
        return StoredRun(self, f"{stamp}-{game}-{secrets.token_hex(3)}")


class StoredRun:
    def __init__(self, store: Store, run_id: str):
        self.store = store
        self.run_id = run_id
        self.dir = store.root / "runs" / run_id
        self.chunks_written = 0

    # --- manifest and catalogue
    def manifest(self) -> dict:
        p = self.dir / "manifest.json"
        try:
            return json.loads(p.read_text())
        except FileNotFoundError:
            raise PlaytestError("the run has no manifest (it did not start)", where=str(p), field="RUN") from None
        except (OSError, ValueError) as e:
            raise PlaytestError(f"unreadable manifest ({e})", where=str(p), field="RUN") from None

    def write_manifest(self, doc: dict) -> None:
        try:
            (self.dir / "chunks").mkdir(parents=True, exist_ok=True)
            data = json.dumps(doc, indent=1, default=str).encode()
            _atomic_write(self.dir / "manifest.json", lambda tmp: Path(tmp).write_bytes(data))
        except OSError as e:
            raise _os_error(e, str(self.dir)) from None

    def write_catalogue(self, row: dict) -> None:
        cols = {k: [row.get(k)] for k in CATALOGUE_COLUMNS}
        for k in ("strategies", "rules"):
            if not isinstance(cols[k][0], str):
                cols[k] = [json.dumps(cols[k][0], default=str)]
        try:
            _write_table(self.store.root / "catalogue" / f"{self.run_id}.parquet", cols)
        except OSError as e:
            raise _os_error(e, str(self.store.root), self._kept()) from None

    def _kept(self) -> str:
        return (f"the chunks already finished are kept in {self.dir}: free some space or fix the permissions "
                "and rerun the same command with --resume")

    # --- chunks
    def chunk_path(self, mi: int, start: int, stop: int) -> Path:
        return self.dir / "chunks" / f"m{mi:04d}_s{start:012d}_e{stop:012d}.parquet"

    def write_chunk(self, mi: int, start: int, stop: int, agg_json: str, records: dict | None = None) -> None:
        from .aggregate import Aggregate

        agg = Aggregate.from_json(agg_json)
        wins, draws, capped, n = agg.seat_scores()
        cols = {"matchup": [mi], "start": [start], "stop": [stop], "games": [n], "capped": [capped],
                "no_winner": [draws], "turns_sum": [int((np.arange(agg.turns.size) * agg.turns).sum())],
                "aggregate": [agg_json]}
        for s, w in enumerate(wins):
            cols[f"wins_seat{s}"] = [int(w)]
        try:
            if records is not None:  # records first: a stored chunk always has its records
                d = self.dir / "records" / f"m{mi:04d}"
                d.mkdir(parents=True, exist_ok=True)
                _write_table(d / f"s{start:012d}.parquet", flatten_records(records, start))
            _write_table(self.chunk_path(mi, start, stop), cols)
        except OSError as e:
            raise _os_error(e, str(self.store.root), self._kept()) from None
        self.chunks_written += 1

    def stored_games(self) -> int:
        """Games of the whole chunk files stored so far (from their names: no file is read)."""
        d = self.dir / "chunks"
        if not d.is_dir():
            return 0
        total = 0
        for f in d.iterdir():
            m = _CHUNK_RE.match(f.name)
            if m:
                total += int(m.group(3)) - int(m.group(2))
        return total

    # --- the lock: one process plays a run at a time
    def lock(self) -> None:
        """Take the run's lock (``runs/<run>/lock``: host, pid, time), or one line naming the
        process that holds it; a stale lock (its process is gone) is taken over. Two
        ``--resume`` of the same run would otherwise both replay its missing chunks."""
        path = self.dir / "lock"
        me = {"host": socket.gethostname(), "pid": os.getpid(), "since": now_iso()}
        for _ in range(3):
            try:
                self.dir.mkdir(parents=True, exist_ok=True)
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                try:
                    held = json.loads(path.read_text() or "{}")
                    beat = path.stat().st_mtime
                except (OSError, ValueError):
                    held, beat = {}, 0.0    # unreadable: a lock cut by a crash
                if held.get("host") == me["host"] and held.get("pid") == me["pid"]:
                    return
                if held and not stale_reason(held.get("host"), held.get("pid"), beat):
                    raise PlaytestError(f"run {self.run_id} is being played right now by process {held.get('pid')} "
                                        f"on {held.get('host')} (since {held.get('since')}): wait for it to finish "
                                        "or stop it, then rerun with --resume", field="--resume")
                try:
                    path.unlink()           # stale: take it over
                except FileNotFoundError:
                    pass
                continue
            except OSError as e:
                raise _os_error(e, str(self.dir)) from None
            with os.fdopen(fd, "w") as f:
                json.dump(me, f)
            return
        raise PlaytestError(f"could not take the lock of run {self.run_id}", where=str(path), field="--resume")

    def touch_lock(self) -> None:
        try:
            os.utime(self.dir / "lock")
        except OSError:
            pass

    def unlock(self) -> None:
        path = self.dir / "lock"
        try:
            held = json.loads(path.read_text() or "{}")
            if held.get("host") == socket.gethostname() and held.get("pid") == os.getpid():
                path.unlink()
        except (OSError, ValueError):
            pass

    def stored_chunks(self, warn=None) -> dict:
        """``{(matchup, start, stop): Aggregate}`` of every readable chunk file; damaged
        ones are reported through ``warn`` and left in place (they are played again)."""
        from .aggregate import Aggregate

        out, bad = {}, []
        d = self.dir / "chunks"
        if not d.is_dir():
            return out
        for f in sorted(d.iterdir()):
            m = _CHUNK_RE.match(f.name)
            if not m:
                continue
            key = (int(m.group(1)), int(m.group(2)), int(m.group(3)))
            try:
                t = _read_table(f).to_pylist()[0]
                agg = Aggregate.from_json(t["aggregate"])
                if (t["matchup"], t["start"], t["stop"]) != key or agg.games != key[2] - key[1]:
                    raise ValueError("contents do not match the file name")
            except Exception:  # noqa: BLE001
                bad.append(f.name)
                continue
            out[key] = agg
        if bad and warn:
            warn(f"{len(bad)} damaged chunk file(s) in {d} will be played again: {', '.join(bad[:3])}"
                 + (" ..." if len(bad) > 3 else ""))
        return out


    # --- the balance search (``playtest GAME fix``): a fix run keeps every candidate
    def write_candidate(self, row: dict) -> None:
        """One evaluated candidate of a fix run (``runs/<run>/candidates/c000012.parquet``):
        written as soon as it is evaluated, so an interrupted search keeps what it tried.
        Dicts and lists (the edited values, the win rates with intervals) are JSON text."""
        cols = {k: [json.dumps(v, default=float) if isinstance(v, (dict, list)) else v] for k, v in row.items()}
        try:
            d = self.dir / "candidates"
            d.mkdir(parents=True, exist_ok=True)
            _write_table(d / f"c{int(row['id']):06d}.parquet", cols)
        except OSError as e:
            raise _os_error(e, str(self.store.root)) from None

    def candidates(self, warn=None) -> list[dict]:
        """Every readable candidate of a fix run, by id (JSON columns decoded)."""
        out, bad = [], []
        d = self.dir / "candidates"
        if not d.is_dir():
            return out
        for f in sorted(d.glob("c*.parquet")):
            try:
                row = _read_table(f).to_pylist()[0]
            except Exception:  # noqa: BLE001 - a damaged file never hides the others
                bad.append(f.name)
                continue
            for k in CANDIDATE_JSON:
                if isinstance(row.get(k), str):
                    row[k] = json.loads(row[k])
            out.append(row)
        if bad and warn:
            warn(f"{len(bad)} unreadable candidate file(s) skipped in {d}: {', '.join(bad[:3])}")
        return sorted(out, key=lambda r: r["id"])


CANDIDATE_JSON = ("values", "rates")


def pid_alive(pid) -> bool:
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError, TypeError):
        return True
    return True


def stale_reason(host, pid, heartbeat: float | None, now: float | None = None) -> str | None:
    """Why a run that says it is running is not (None: it may well be running): its
    process is gone from this host, or it has not given a sign of life for STALE s."""
    now = time.time() if now is None else now
    if host == socket.gethostname() and pid is not None and not pid_alive(pid):
        return f"its process {pid} on {host} is gone"
    if heartbeat is not None and now - float(heartbeat) > STALE:
        return f"no sign of life from process {pid} on {host} for {(now - float(heartbeat)) / 60:.0f} min"
    return None


def row_status(row: dict, store: "Store | None" = None) -> dict:
    """A catalogue row as ``runs list`` shows it: a ``running`` run whose process is gone
    is ``stale``; an unfinished run's ``games_played`` are its stored chunks' games."""
    row = dict(row)
    if row.get("status") == "running":
        why = stale_reason(row.get("host"), row.get("pid"), row.get("heartbeat"))
        if why:
            row["status"], row["stale_reason"] = "stale", why + ": rerun its command with --resume to finish it"
    if row.get("status") != "complete" and store is not None and row.get("run_id"):
        row["games_played"] = store.open(row["run_id"]).stored_games()
    return row


def machine() -> str:
    return f"{socket.gethostname()} ({platform.system()} {platform.machine()}, {os.cpu_count()} cores, " \
           f"Python {sys.version.split()[0]})"


def now_iso() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
