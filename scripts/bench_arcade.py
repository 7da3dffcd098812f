"""Throne Arcade benchmark figures (printed, never asserted): 4-player greedy games
through the numba kernel (one thread, CPU time of this process, so that other jobs on a
shared machine count less; and two threads, wall time) and the same games through the
pure-Python reference engine, with their ratio.

    python -m scripts.bench_arcade
"""
from __future__ import annotations

import time

import numpy as np


def _cpu(fn):
    t = time.process_time()
    w = time.perf_counter()
    out = fn()
    return out, time.process_time() - t, time.perf_counter() - w


def run(games: int = 5000, ref_games: int = 60) -> dict:
    import numba

    from strategies.arcade.bind import play_range

    numba.set_num_threads(1)
    play_range(0, 50, 1, 4, "greedy")
    play_range(0, 2, 1, 4, "greedy", engine="reference")
    k, cpu, _ = min((_cpu(lambda: play_range(0, games, 1, 4, "greedy")) for _ in range(3)), key=lambda x: x[1])
    out = {"kernel_games_per_cpu_s": games / cpu, "turns_per_game": float(k["turns"].mean()),
           "kernel_turns_per_cpu_s": float(k["turns"].sum()) / cpu}
    numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
    _, _, wall = _cpu(lambda: play_range(0, games, 1, 4, "greedy"))
    out["kernel_games_per_s_2_threads_wall"] = games / wall
    numba.set_num_threads(1)
    r, cr, _ = _cpu(lambda: play_range(0, ref_games, 1, 4, "greedy", engine="reference"))
    kk, ck, _ = min((_cpu(lambda: play_range(0, ref_games, 1, 4, "greedy")) for _ in range(5)), key=lambda x: x[1])
    assert all(np.array_equal(kk[f], r[f]) for f in kk), "kernel and reference disagree"
    out.update(reference_games_per_cpu_s=ref_games / cr, kernel_over_reference=cr / ck)
    return out


if __name__ == "__main__":
    for key, v in run().items():
        print(f"{key:36s} {v:,.1f}")
