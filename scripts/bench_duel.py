"""Duel benchmark: kernel vs reference engine on the same games, and parallel scaling.

Figures (printed by ``scripts/bench.py``):
- ``duel_kernel_games_per_s``: greedy strategy, all cores (one process, numba threads);
- ``duel_reference_games_per_s``: the pure-Python reference engine, same strategy and seeds;
- ``duel_kernel_over_reference``: their ratio;
- ``duel_jobs2_over_jobs1``: 2 worker processes (1 numba thread each) over 1;
- ``duel_threads2_over_threads1``: one process, 2 numba threads (prange) over 1;
- per-strategy kernel speeds.
"""
from __future__ import annotations

import time

import numba


def _rate(fn, games: int) -> float:
    t0 = time.perf_counter()
    fn()
    return games / (time.perf_counter() - t0)


def run(quick: bool = False) -> dict:
    from simcore.duel.model import load_setup
    from strategies.duel.bind import simulate, strategy_datas
    from strategies.duel import builtin_strategies

    setup = load_setup()
    strategies = builtin_strategies()
    greedy = strategies["greedy"]
    data = strategy_datas(setup, (greedy, greedy))
    n_kernel = 200_000 if quick else 4_000_000
    n_ref = 300 if quick else 3_000
    cores = numba.config.NUMBA_NUM_THREADS
    a, b = 0, 1

    def kernel(n, jobs=1, threads=None, strat=greedy, d=data):
        return simulate(setup, a, b, strat, n, 1, jobs=jobs, threads=threads, data=d,
                        chunk_size=max(1, n // (8 * jobs)))

    kernel(20_000)  # compile / load the cache
    kernel(20_000, jobs=2, threads=1)  # start the worker processes
    out = {}
    k_rate = _rate(lambda: kernel(n_kernel, threads=cores), n_kernel)
    ref_rate = _rate(lambda: simulate(setup, a, b, greedy, n_ref, 1, engine="reference", data=data), n_ref)
    out["duel_kernel_games_per_s"] = k_rate
    out["duel_reference_games_per_s"] = ref_rate
    out["duel_kernel_over_reference"] = k_rate / ref_rate
    t1 = _rate(lambda: kernel(n_kernel // 2, jobs=1, threads=1), n_kernel // 2)
    j2 = _rate(lambda: kernel(n_kernel // 2, jobs=2, threads=1), n_kernel // 2)
    t2 = _rate(lambda: kernel(n_kernel // 2, jobs=1, threads=2), n_kernel // 2)
    out["duel_kernel_1thread_games_per_s"] = t1
    out["duel_jobs2_over_jobs1"] = j2 / t1
    out["duel_threads2_over_threads1"] = t2 / t1
    for name, strat in strategies.items():
        if name == "greedy":
            continue
        d = data
        # search plays ~0.1 s a game: a few hundred games, its figure in seconds a game
        # (the count of the other strategies, a million games, would run for days)
        few = name == "search"
        kernel(2 if few else 10_000, strat=strat, d=d)
        n = (20 if quick else 200) if few else n_kernel // 4
        rate = _rate(lambda: kernel(n, threads=cores, strat=strat, d=d), n)
        if few:
            out[f"duel_{name}_s_per_game"] = 1.0 / rate
        else:
            out[f"duel_kernel_{name}_games_per_s"] = rate
    return out
