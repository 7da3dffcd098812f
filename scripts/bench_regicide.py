"""Regicide benchmark figures (printed by ``python scripts/bench.py``, never asserted):
random play through the numba kernel and through the pure-Python reference engine
(games per second, solo and 4 players), their ratio, and the search strategy's speed."""
from __future__ import annotations

import time


def _rate(fn, n):
    t0 = time.perf_counter()
    fn(n)
    return n / (time.perf_counter() - t0)


def run(quick: bool = False) -> dict:
    from strategies.regicide.bind import run_games, run_reference

    n_kernel = 20_000 if quick else 200_000
    n_ref = 100 if quick else 1_000
    out = {}
    run_games(1, "random", 2_000, seed=1)          # compile / load the cache
    run_reference(1, "random", 20, seed=1)
    k = _rate(lambda n: run_games(1, "random", n, seed=1), n_kernel)
    r = _rate(lambda n: run_reference(1, "random", n, seed=1), n_ref)
    out["regicide_kernel_games_per_s"] = k
    out["regicide_reference_games_per_s"] = r
    out["regicide_kernel_over_reference"] = k / r
    k4 = _rate(lambda n: run_games(4, "random", n, seed=1), n_kernel)
    r4 = _rate(lambda n: run_reference(4, "random", n, seed=1), n_ref)
    out["regicide_kernel_games_per_s_4p"] = k4
    out["regicide_reference_games_per_s_4p"] = r4
    out["regicide_kernel_over_reference_4p"] = k4 / r4
    run_games(1, "heuristic", 1_000, seed=1)
    out["regicide_heuristic_games_per_s"] = _rate(lambda n: run_games(1, "heuristic", n, seed=1), n_kernel // 2)
    n_search = 4 if quick else 20
    run_games(1, "search", 1, seed=1, params="2")
    out["regicide_search16_seconds_per_game"] = 1.0 / _rate(
        lambda n: run_games(1, "search", n, seed=1, params="16"), n_search)
    return out


if __name__ == "__main__":
    import json
    import sys

    print(json.dumps(run(quick="--quick" in sys.argv), indent=1))
