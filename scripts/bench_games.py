"""Benchmark figures of the move-list games, from the registry (printed by
``python scripts/bench.py``, never asserted): for each game, its default strategy in every
seat at its benchmark player count,

- ``<game>_kernel_games_per_s``: the kernel on all cores (numba threads), wall time;
- ``<game>_kernel_1thread_games_per_s``: the kernel on one thread (and
  ``..._per_cpu_s``: the same games per CPU-second of that thread, which load from other
  jobs on a shared machine hardly moves);
- ``<game>_reference_games_per_s`` and ``<game>_kernel_over_reference``: the pure-Python
  reference engine on the same games, against the one-thread kernel on those games;
- ``<game>_turns_per_game``: the mean game length behind those figures.
"""
from __future__ import annotations

import time

# game -> (seats, strategy, kernel games, reference games)
PLAN = {
    "dicethrone": (2, "greedy", 40_000, 200),
    "arcade": (4, "greedy", 20_000, 60),
    "river": (2, "heuristic", 40_000, 200),
}


def _timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


def run(quick: bool = False) -> dict:
    import numba
    import numpy as np

    from simcore.game import game_names, get_game

    out = {}
    cores = numba.config.NUMBA_NUM_THREADS
    for name, (seats, strat, n_k, n_r) in PLAN.items():
        if name not in game_names():
            continue
        if quick:
            n_k, n_r = n_k // 10, max(10, n_r // 10)
        api = get_game(name)
        rules = api.load_rules()
        content = api.load_content(rules)
        setup = api.make_setup(rules, content, seats)
        lineup = (0, 1) if api.type.entrants == "heroes" else tuple(range(seats))
        specs = (strat,) * seats

        def play(a, b, engine="kernel"):
            return api.play(a, b, 1, setup, lineup, specs, engine)

        numba.set_num_threads(cores)
        play(0, 200)  # compile / load the cache
        rec, wall = _timed(lambda: play(0, n_k))
        out[f"{name}_kernel_games_per_s"] = n_k / wall
        out[f"{name}_turns_per_game"] = float(np.mean(rec["turns"]))
        numba.set_num_threads(1)
        c0 = time.process_time()
        _, wall1 = _timed(lambda: play(0, n_k // 2))
        out[f"{name}_kernel_1thread_games_per_s"] = (n_k // 2) / wall1
        # the same games per CPU-second of that one thread: what the machine would give
        # a core of its own (on a shared machine the wall-time figures are floors)
        out[f"{name}_kernel_1thread_games_per_cpu_s"] = (n_k // 2) / (time.process_time() - c0)
        ref, wr = _timed(lambda: play(0, n_r, "reference"))
        ker, wk = min((_timed(lambda: play(0, n_r)) for _ in range(5)), key=lambda x: x[1])
        assert all(np.array_equal(ker[f], ref[f]) for f in ker if f in ref), f"{name}: kernel and reference disagree"
        out[f"{name}_reference_games_per_s"] = n_r / wr
        out[f"{name}_kernel_over_reference"] = wr / wk
        numba.set_num_threads(cores)
    return out
