"""Benchmark figures of the move-list games, from the registry (printed by
``python scripts/bench.py``, never asserted): for each game, its default strategy in every
seat at its benchmark player count,

- ``<game>_kernel_games_per_s``: the kernel on all cores (numba threads), wall time;
- ``<game>_kernel_1thread_games_per_s``: the kernel on one thread (and
  ``..._per_cpu_s``: the same games per CPU-second of that thread, which load from other
  jobs on a shared machine hardly moves);
- ``<game>_reference_games_per_s`` and ``<game>_kernel_over_reference``: the pure-Python
  reference engine on the same games, against the one-thread kernel on those games;
- ``<game>_turns_per_game``: the mean game length behind those figures;
- where the reference engine asks the same compiled strategy for its moves as the
  kernel does (``SHARED``), what of the kernel's time is that strategy: the reference's
  games (times ``SHARED``'s factor) played again by the kernel on one thread through its
  plug-in entry, once with the strategy as a plug-in and once with a plug-in that only
  reads the answers the strategy gave in the reference run (``oracle_decide``), both
  alternately with the built-in kernel, best of 9 each (the three must play the same
  games). ``<game>_kernel_strategy_share`` is the difference over the built-in kernel's
  time, and ``<game>_kernel_over_reference_ceiling`` the reference's time over that
  difference (per game): the most ``kernel_over_reference`` could show while both
  engines share the strategy, were the kernel's own rule code to take no time at all.
"""
from __future__ import annotations

import time

import numba as nb

from strategies.dicethrone.basic import greedy_decide
from strategies.river.basic import heuristic_decide

# game -> (seats, strategy, kernel games, reference games)
PLAN = {
    "dicethrone": (2, "greedy", 40_000, 200),
    "arcade": (4, "greedy", 20_000, 60),
    "river": (2, "heuristic", 40_000, 200),
}


# game -> (its binding, the function that makes a run's seat data there, the benchmark
# strategy as a plug-in in this module, how many times the reference's games it plays)
SHARED = {
    "dicethrone": ("strategies.dicethrone.bind", "seat_data", "scripts.bench_games:dicethrone_greedy", 5),
    "river": ("strategies.river.bind", "seat_rows", "scripts.bench_games:river_heuristic", 2),
}


# compiled here without reference counting, as the built-ins are called in the games
# (a plain function would be compiled with it: ~10 counts updated per call, which the
# built-in does not pay; ~4 us a Dice Throne game)
@nb.njit(_nrt=False, nogil=True)
def dicethrone_greedy(phase, obs, moves, n, rules, data, rng):
    return greedy_decide(phase, obs, moves, n, rules, data, rng)


@nb.njit(_nrt=False, nogil=True)
def river_heuristic(phase, obs, moves, n, rules, data, rng):
    return heuristic_decide(phase, obs, moves, n, rules, data, rng)


@nb.njit(_nrt=False, nogil=True)
def oracle_decide(phase, obs, moves, n, rules, data, rng):
    """The seat's answers of a recorded run, in order: ``data[0]`` counts the answers
    given, ``data[1:]`` are the answers."""
    i = int(data[0])
    data[0] = i + 1
    return int(data[1 + i])


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
        if name in SHARED:
            # more games than the reference's timing (the difference of two short
            # times is noisy): the same per-game figures, on games 0..n_s-1
            n_s = n_r * SHARED[name][3] if not quick else n_r
            spent, whole = _strategy_seconds(SHARED[name], lambda specs, engine: api.play(
                0, n_s, 1, setup, lineup, specs, engine), strat, seats)
            out[f"{name}_kernel_strategy_share"] = spent / whole
            out[f"{name}_kernel_over_reference_ceiling"] = wr / (spent * n_r / n_s)
        numba.set_num_threads(cores)
        if name == "dicethrone":
            out.update(_dicethrone_2v2(n_k, out[f"{name}_kernel_games_per_s"], rules, specs[0], setup))
    return out


def _dicethrone_2v2(n_k, games_per_s_1v1, rules, strat, setup) -> dict:
    """Dice Throne 2v2 (issue 31's target: a 2v2 game at most 3x the time of a 1v1 game): the
    same two heroes as the 1v1 figure, one of each on each team, the same strategy, half the
    games (a 2v2 game is longer)."""
    import numpy as np

    from strategies.dicethrone.bind import play_range

    heroes = setup["roster"].names[:2]
    lineup = (heroes[0], heroes[1], heroes[1], heroes[0])
    r2 = {**rules, "mode": "2v2"}
    n = max(200, n_k // 2)
    play_range(0, 200, 1, lineup, (strat,) * 4, rules=r2, roster=setup["roster"])   # compile / load the cache
    rec, wall = _timed(lambda: play_range(0, n, 1, lineup, (strat,) * 4, rules=r2, roster=setup["roster"]))
    gps = n / wall
    return {"dicethrone_2v2_kernel_games_per_s": gps, "dicethrone_2v2_turns_per_game": float(np.mean(rec["turns"])),
            "dicethrone_2v2_game_time_over_1v1": games_per_s_1v1 / gps}


def _strategy_seconds(shared, play, strat, seats):
    """(the seconds of the kernel's one-thread time on ``play``'s games that are the
    strategy ``strat`` in every seat, the built-in kernel's time on them): see the
    module's docstring."""
    import importlib

    import numpy as np

    binding, data_fn, plug, _ = shared
    mod = importlib.import_module(binding)
    answers = [[] for _ in range(seats)]
    orig_decider, orig_data = mod._decider, getattr(mod, data_fn)

    def decider(*args):          # the reference's decider, recording each seat's answers
        fn = orig_decider(*args)

        def decide(phase, obs, moves, n, rules, data, rng):
            k = fn(phase, obs, moves, n, rules, data, rng)
            answers[int(obs[mod.M.O_CUR])].append(int(k))
            return k
        return decide

    mod._decider = decider
    try:
        play((strat,) * seats, "reference")
    finally:
        mod._decider = orig_decider
    rows = np.zeros((seats, 1 + max(len(a) for a in answers)))
    for s, a in enumerate(answers):
        rows[s, 1:1 + len(a)] = a
    oracle = "scripts.bench_games:oracle_decide"
    times = {}
    recs = {}
    made = {}              # each run's seat data, made once: only the games are timed

    def data(*args, **kw):
        if spec[0] == oracle:
            return rows.copy()
        if spec[0] not in made:
            made[spec[0]] = orig_data(*args, **kw)
        return made[spec[0]]

    spec = [None]
    setattr(mod, data_fn, data)
    try:                   # the three alternately, so that all see the same machine
        for r in range(10):
            for sp in (strat, plug, oracle):
                spec[0] = sp
                rec, t = _timed(lambda: play((sp,) * seats, "kernel"))
                if r == 0:           # the first run compiles the plug-ins
                    recs[sp] = rec
                else:
                    times[sp] = min(times.get(sp, t), t)
    finally:
        setattr(mod, data_fn, orig_data)
    for sp in (plug, oracle):
        same = all(np.array_equal(recs[strat][f], recs[sp][f]) for f in recs[strat])
        assert same, f"{sp} did not play the games of the built-in {strat}"
    return max(times[plug] - times[oracle], 1e-9), times[strat]
