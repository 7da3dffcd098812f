"""Where chunks of games are played: this process, local worker processes (joblib/loky),
or the workers of a Dask cluster. Every backend runs the same module-level chunk function
on the same ``(start, stop)`` chunks and hands back each chunk's result as it completes
(in any order: the callers merge exact aggregates, so the order never matters).

Worker processes persist for the whole run (loky's reusable executor, Dask's workers), so
each compiles or loads the numba kernels once, on its first chunk, never once per chunk.

Memory stays flat: at most ``window`` chunks are in flight at a time, and a chunk's
result is released as soon as the caller has consumed it.
"""
from __future__ import annotations

import importlib
import os
from typing import Callable, Iterable, Iterator

from .errors import PlaytestError

RETRIES = 2   # a chunk whose worker died is played again (Dask), at most this many times
SHARE_BYTES = 256 * 1024   # a task argument at least this large is sent to the workers once (scatter)


def cpu_count() -> int:
    return max(1, os.cpu_count() or 1)


class LocalBackend:
    """``jobs == 1``: this process; else ``jobs`` loky worker processes."""

    name = "local"

    def __init__(self, jobs: int = 1):
        self.jobs = int(jobs)
        self.threads = max(1, cpu_count() // self.jobs)   # numba threads per chunk

    def map(self, fn: Callable, bounds: Iterable[tuple[int, int]], *args, **kwargs) -> Iterator:
        bounds = list(bounds)
        if self.jobs == 1 or len(bounds) <= 1:
            for a, b in bounds:
                yield fn(a, b, *args, threads=self.threads, **kwargs)
            return
        from joblib import Parallel, delayed

        yield from Parallel(n_jobs=self.jobs, backend="loky", return_as="generator_unordered",
                            pre_dispatch="2*n_jobs")(
            delayed(fn)(a, b, *args, threads=self.threads, **kwargs) for a, b in bounds)

    def check_plugins(self, specs) -> None:
        pass

    def describe(self) -> str:
        return f"local, {self.jobs} process(es)"

    def close(self) -> None:
        pass


class DaskBackend:
    """A running ``dask.distributed`` scheduler (``address``), or a LocalCluster of
    ``workers`` single-threaded worker processes started (and stopped) here."""

    name = "dask"

    def __init__(self, address: str | None = None, workers: int = 2, threads: int | None = None):
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise PlaytestError("needs dask.distributed, which is not installed: pip install -e '.[cluster]'",
                                field="--backend") from None
        import logging

        self.cluster = None
        self.address = address
        try:
            if address:
                self.client = Client(address, timeout="15s")
            else:
                self.cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                            dashboard_address=":0", silence_logs=logging.ERROR)
                self.client = Client(self.cluster)
        except (OSError, TimeoutError, ValueError, TypeError) as e:
            self.close()
            raise PlaytestError(f"cannot reach a Dask scheduler at {address}: {e}".replace("\n", " "),
                                field="--scheduler") from None
        n = sum(self.client.nthreads().values()) or 1
        self.window = 2 * n
        self._shared: dict = {}
        # numba threads per chunk: a local cluster shares this machine's cores; on a
        # remote cluster each worker thread plays one chunk on one core
        self.threads = threads or (max(1, cpu_count() // workers) if self.cluster is not None else 1)

    def describe(self) -> str:
        info = self.client.scheduler_info()
        w = info.get("workers", {})
        where = self.address or "a local cluster"
        return f"dask at {where}, {len(w)} worker(s), {sum(v.get('nthreads', 1) for v in w.values())} thread(s)"

    def check_plugins(self, specs) -> None:
        """Every plug-in strategy module must import on every worker: a single-file module
        found here is uploaded to the workers; else one line saying why it cannot run."""
        mods = sorted({s.split(":", 1)[0] for s in specs if ":" in s})
        for mod in mods:
            try:
                self.client.run(importlib.import_module, mod)
                continue
            except Exception as first:  # noqa: BLE001 - reported below
                err = first
            path = getattr(importlib.import_module(mod), "__file__", None)
            if path and path.endswith(".py") and "." not in mod:
                try:
                    self.client.upload_file(path)
                    self.client.run(importlib.import_module, mod)
                    continue
                except Exception as e:  # noqa: BLE001
                    err = e
            raise PlaytestError(f"plug-in module {mod!r} cannot be imported on the cluster's workers "
                                f"({type(err).__name__}: {err}); install it on every worker or put it on their "
                                "PYTHONPATH (a single-file top-level module is uploaded automatically)".replace("\n", " "),
                                field="--strategy")

    def shared(self, obj):
        """``obj`` on every worker once, as a future a task may take for an argument: a large
        argument (Dice Throne's setup holds 24 MiB of tables) is sent once per run, not
        pickled into every task's graph (distributed warned of a 24 MiB graph per chunk).
        Small values are passed as they are."""
        if obj is None or isinstance(obj, (bool, int, float, str, bytes)) or (
                isinstance(obj, tuple) and all(isinstance(x, (bool, int, float, str)) for x in obj)):
            return obj
        hit = self._shared.get(id(obj))
        if hit is None:
            import pickle

            try:
                size = len(pickle.dumps(obj, protocol=5))
            except Exception:  # noqa: BLE001 - let the task pickle it (and say why) as before
                return obj
            if size < SHARE_BYTES:
                return obj
            hit = (obj, self.client.scatter(obj, broadcast=True, hash=False))   # obj kept: its id stays unique
            self._shared[id(obj)] = hit
        return hit[1]

    def map(self, fn: Callable, bounds: Iterable[tuple[int, int]], *args, **kwargs) -> Iterator:
        from distributed import as_completed
        from distributed.scheduler import KilledWorker

        pending = iter(list(bounds))
        args = tuple(self.shared(a) for a in args)

        def submit(ab):
            return self.client.submit(fn, ab[0], ab[1], *args, threads=self.threads, retries=RETRIES, pure=False,
                                      **kwargs)

        first = [submit(ab) for _, ab in zip(range(self.window), pending)]
        ac = as_completed(first)
        try:
            for fut in ac:
                try:
                    res = fut.result()
                except KilledWorker as e:
                    raise PlaytestError(f"a chunk's worker died {RETRIES + 1} times ({e}); the finished chunks are "
                                        "kept: rerun the same command with --resume".replace("\n", " "),
                                        field="--backend") from None
                except PlaytestError:
                    raise
                except Exception as e:  # noqa: BLE001 - e.g. the cluster lacks this version of playtest
                    first_line = str(e).strip().splitlines()[0] if str(e).strip() else ""
                    raise PlaytestError(f"the cluster could not play a chunk ({type(e).__name__}: {first_line}); the "
                                        "scheduler and every worker need this same version of playtest installed",
                                        field="--backend") from None
                fut.release()
                nxt = next(pending, None)
                if nxt is not None:
                    ac.add(submit(nxt))
                yield res
        finally:
            for f in list(ac.futures):
                f.cancel()

    def close(self) -> None:
        self._shared = {}
        try:
            if getattr(self, "client", None) is not None:
                self.client.close()
        finally:
            if self.cluster is not None:
                self.cluster.close()
                self.cluster = None


SCHEMES = ("tcp", "tls", "ws", "wss", "ucx")


def check_scheduler(address) -> str | None:
    """A Dask scheduler address, checked before any work: ``tcp://HOST:PORT`` (or tls, ws,
    wss, ucx), or ``HOST:PORT`` (tcp). Anything else is one line saying what was expected
    (distributed itself raised a traceback for ``notaurl``, a missing or non-numeric port,
    or an ``http://`` address, which is the scheduler's dashboard, not the scheduler)."""
    if address is None:
        return None
    text = str(address).strip()
    usage = "give the scheduler's address as tcp://HOST:PORT (its port is 8786 unless set otherwise)"
    if not text:
        raise PlaytestError(f"is empty: {usage}", field="--scheduler")
    scheme, sep, rest = text.partition("://")
    if not sep:
        scheme, rest = "tcp", text
    scheme = scheme.lower()
    if scheme in ("http", "https"):
        raise PlaytestError(f"{text!r} is a web address (the dashboard's, port 8787?), not a Dask scheduler's: "
                            f"{usage}", field="--scheduler")
    if scheme not in SCHEMES:
        raise PlaytestError(f"{text!r}: unknown protocol {scheme!r} (one of {', '.join(SCHEMES)}): {usage}",
                            field="--scheduler")
    host, colon, port = rest.rstrip("/").rpartition(":")
    if not colon:
        raise PlaytestError(f"{text!r} has no port: {usage}", field="--scheduler")
    if not host or host in ("[]",) or "/" in host or any(c.isspace() for c in host):
        raise PlaytestError(f"{text!r} has no host name: {usage}", field="--scheduler")
    if not (port.isdigit() and 1 <= int(port) <= 65535):
        raise PlaytestError(f"{text!r}: the port must be a number 1..65535, got {port!r}: {usage}",
                            field="--scheduler")
    return f"{scheme}://{host}:{int(port)}"


def make_backend(name: str, jobs: int = 1, scheduler: str | None = None):
    if name == "local":
        if scheduler:
            raise PlaytestError("--scheduler is for --backend dask", field="--scheduler")
        return LocalBackend(jobs)
    if name == "dask":
        return DaskBackend(check_scheduler(scheduler), workers=jobs if jobs > 1 else cpu_count())
    raise PlaytestError(f"must be local or dask, got {name!r}", field="--backend")
