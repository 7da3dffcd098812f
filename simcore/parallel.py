"""Chunked, reproducible parallel runs shared by every game.

A run of ``n_games`` is cut into chunks of game indices ``[start, stop)``. Every game
draws from the stream fixed by ``(seed, game_index)`` (see ``simcore.rng``), so a
chunk's result does not depend on which worker plays it or how the run was cut, and
the concatenated records are bit-identical for any ``jobs`` and any ``chunk_size``.

``jobs`` worker processes (joblib/loky) take chunks; inside a chunk the compiled
kernels use ``numba.prange`` over games on ``threads`` numba threads (default: the
cores left per worker, so ``jobs=1`` still uses every core).
"""
from __future__ import annotations

import os
from typing import Callable

import numpy as np

from .errors import PlaytestError


def cpu_count() -> int:
    return max(1, os.cpu_count() or 1)


def check_jobs(jobs: int) -> int:
    if not isinstance(jobs, (int, np.integer)) or jobs < 1:
        raise PlaytestError(f"must be a whole number >= 1, got {jobs!r}", field="--jobs")
    return int(jobs)


def chunk_bounds(n_games: int, chunk_size: int) -> list[tuple[int, int]]:
    if chunk_size < 1:
        raise PlaytestError(f"must be >= 1, got {chunk_size}", field="--chunk-size")
    return [(a, min(a + chunk_size, n_games)) for a in range(0, n_games, chunk_size)]


def default_chunk_size(n_games: int, jobs: int) -> int:
    # several chunks per worker for load balance and progress, none tiny
    return max(1000, -(-n_games // (jobs * 8)))


def _set_threads(threads: int) -> None:
    import numba

    numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))


def _run_chunk(fn: Callable, start: int, stop: int, threads: int, args: tuple, kwargs: dict,
               shared: dict | None = None, offset: int = 0):
    """Run one chunk. With ``shared`` (record name -> (file, dtype, shape) of a memory-mapped
    array of the whole run) the chunk writes its slice in place and returns nothing, so
    worker processes send no records back through pipes."""
    _set_threads(threads)
    if shared is None:
        return fn(start, stop, *args, **kwargs)
    out = {k: np.memmap(path, dtype=dt, mode="r+", shape=shape)[start - offset:stop - offset]
           for k, (path, dt, shape) in shared.items()}
    fn(start, stop, *args, out=out, **kwargs)
    for v in out.values():
        v.flush()
    return None


def _shm_dir(nbytes: int) -> str | None:
    """/dev/shm when it exists and has room to spare (it may be small in containers: a
    full tmpfs would crash a worker writing its slice), else the default temp dir."""
    import shutil

    d = "/dev/shm"
    try:
        if os.path.isdir(d) and os.access(d, os.W_OK) and shutil.disk_usage(d).free > 2 * nbytes + (64 << 20):
            return d
    except OSError:
        pass
    return None


def _shared_records(example: dict, directory: str) -> dict:
    """Memory-mapped files shaped like ``example`` (the run's records), in ``directory``."""
    spec = {}
    for k, v in example.items():
        path = os.path.join(directory, f"{k}.bin")
        np.memmap(path, dtype=v.dtype, mode="w+", shape=v.shape).flush()
        spec[k] = (path, v.dtype.str, v.shape)
    return spec


def concat_records(parts: list[dict]) -> dict:
    if not parts:
        return {}
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def run_chunks(
    fn: Callable,
    n_games: int,
    *args,
    jobs: int = 1,
    chunk_size: int | None = None,
    threads: int | None = None,
    progress: bool | str = False,
    allocate: Callable | None = None,
    offset: int = 0,
    **kwargs,
) -> dict:
    """Call ``fn(start, stop, *args, **kwargs) -> dict[str, ndarray]`` over all chunks
    and concatenate the per-game records in game order.

    ``fn`` must be a module-level function (it is pickled to worker processes). With
    ``allocate(n) -> dict[str, ndarray]`` the records of the whole run are allocated
    once: in-process chunks write straight into their slice (``fn`` gets ``out=``, a
    dict of views) and workers' chunks are copied into it, with no final concatenation.
    ``offset``: play games ``offset .. offset + n_games - 1`` (adaptive sampling plays a
    matchup in blocks; each game keeps its own stream whatever the block).
    """
    jobs = check_jobs(jobs)
    if n_games <= 0:
        raise PlaytestError(f"must be positive, got {n_games}", field="--games")
    if chunk_size is None:
        chunk_size = default_chunk_size(n_games, jobs)
    bounds = [(a + offset, b + offset) for a, b in chunk_bounds(n_games, chunk_size)]
    if threads is None:
        threads = max(1, cpu_count() // jobs)
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=n_games, unit="game", unit_scale=True, leave=False,
                   desc=progress if isinstance(progress, str) else None, disable=None)
    parts = []
    out = allocate(n_games) if allocate is not None else None

    def keep(a, b, part):
        if out is None:
            parts.append(part)
        elif part is not None:
            for k, v in part.items():
                out[k][a - offset:b - offset] = v
        if bar is not None:
            bar.update(b - a)

    try:
        if jobs == 1 or len(bounds) == 1:
            for a, b in bounds:
                kw = kwargs if out is None else {**kwargs, "out": {k: v[a - offset:b - offset] for k, v in out.items()}}
                part = _run_chunk(fn, a, b, threads, args, kw)
                keep(a, b, None if out is not None else part)
        elif out is None:
            from joblib import Parallel, delayed

            gen = Parallel(n_jobs=jobs, backend="loky", return_as="generator")(
                delayed(_run_chunk)(fn, a, b, threads, args, kwargs) for a, b in bounds
            )
            for (a, b), part in zip(bounds, gen):
                keep(a, b, part)
        else:
            import tempfile

            from joblib import Parallel, delayed

            shm = _shm_dir(sum(v.nbytes for v in out.values()))
            with tempfile.TemporaryDirectory(prefix="playtest-", dir=shm) as tmp:
                shared = _shared_records(out, tmp)
                gen = Parallel(n_jobs=jobs, backend="loky", return_as="generator")(
                    delayed(_run_chunk)(fn, a, b, threads, args, kwargs, shared, offset) for a, b in bounds
                )
                for a, b in bounds:
                    next(gen)
                    keep(a, b, None)
                for k, (path, dt, shape) in shared.items():
                    out[k][...] = np.memmap(path, dtype=dt, mode="r", shape=shape)
    finally:
        if bar is not None:
            bar.close()
    return out if out is not None else concat_records(parts)
