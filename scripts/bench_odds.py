"""Odds benchmarks (figures printed by ``scripts/bench.py``, never asserted).

- ``odds_table_seconds``: the whole odds table of every duel hero (every ability and tier,
  1..3 rolls and 1..4 bought rolls) plus the optimal strategy's ending-ability
  distributions, after a warm-up run (spaces cached, as in a session);
- ``odds_table_cold_seconds``: the same from nothing (state spaces built);
- ``roll_phase_sims_per_s``: roll phases simulated per second by the Monte Carlo kernel
  under the solver's policy (five d6, large straight, three rolls) on every core.
"""
from __future__ import annotations

import time


def _table(setup):
    from simcore.odds.duel import end_ability_table, odds_table
    from strategies.duel.optimal import plans

    df = odds_table(setup, bought=4)
    ends = [end_ability_table(p) for p in plans(setup)]
    return df, ends


def run(quick: bool = False) -> dict:
    import numba

    from simcore.dice import parse_die
    from simcore.duel.model import load_setup
    from simcore.odds.mc import RollPhaseSim, simulate
    from simcore.odds.solver import cached_space, make_query, solve_exact

    setup = load_setup()
    cached_space.cache_clear()
    t0 = time.perf_counter()
    _table(setup)
    cold = time.perf_counter() - t0
    reps = 2 if quick else 5
    t0 = time.perf_counter()
    for _ in range(reps):
        df, _ = _table(setup)
    warm = (time.perf_counter() - t0) / reps

    q = make_query([parse_die("1,2,3,4,5,6")] * 5, "large-straight", 3)
    t0 = time.perf_counter()
    sol = solve_exact(q.space, q.target, 3)
    exact_s = time.perf_counter() - t0
    sim = RollPhaseSim(q.space, sol.met, sol.policy(), 3)
    sim.chunk(0, 1000, 1)  # compile / load the cache
    n = 2_000_000 if quick else 30_000_000
    t0 = time.perf_counter()
    rec = simulate(sim, n, seed=2024)
    dt = time.perf_counter() - t0
    return {
        "odds_table_rows": int(len(df)),
        "odds_table_seconds": warm,
        "odds_table_cold_seconds": cold,
        "odds_exact_large_straight_seconds": exact_s,
        "roll_phase_sims": n,
        "roll_phase_threads": numba.get_num_threads(),
        "roll_phase_sims_per_s": n / dt,
        "roll_phase_large_straight_rate": float(rec["success"].mean()),
        "roll_phase_large_straight_exact": float(sol.probability()),
    }


if __name__ == "__main__":
    for k, v in run().items():
        print(f"{k:40s} {v}")
