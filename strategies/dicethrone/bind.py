"""Binding Dice Throne strategies to seats and running games through either engine.

``decide_builtin(sid, ...)`` dispatches built-in strategies by id inside one cached
kernel; ``chunk_nb`` plays games start..stop-1 (``prange``) with ``sids[p]`` the strategy
of seat p and ``seats[p]`` its hero; ``play_range`` (module level, so joblib workers can
run it) returns a dict of record arrays from the "kernel" or the "reference" engine.
Game ``i`` of a run with seed ``s`` draws from stream ``(s, i, model.DOMAIN)`` (rules) and
``(s, i, model.STRATEGY_DOMAIN)`` (strategies) only: records do not depend on chunking.
"""
from __future__ import annotations

from functools import lru_cache

import numba as nb
import numpy as np

from simcore.dicethrone import model as M
from simcore.dicethrone.kernel import apply_nb, observe_nb, record_nb, start_nb
from simcore.errors import PlaytestError
from simcore.rng import init_state_nb

from . import BUILTIN
from .basic import greedy_decide, random_decide, strategy_data

SID_RANDOM = BUILTIN["random"][0]
SID_GREEDY = BUILTIN["greedy"][0]


@nb.njit(cache=True, nogil=True)
def decide_builtin(sid, phase, obs, moves, n_moves, rules, data, rng):
    if sid == SID_GREEDY:
        return greedy_decide(phase, obs, moves, n_moves, rules, data, rng)
    return random_decide(phase, obs, moves, n_moves, rules, data, rng)


@nb.njit(cache=True, nogil=True)
def play_game_nb(S, obs, moves, seats, sids, rules, T, data, rng, srng):
    phase, n = start_nb(S, seats, rules, T, rng, moves)
    while phase != M.PH_DONE:
        p = S[M.O_CUR]
        observe_nb(S, obs, p, T)
        k = decide_builtin(sids[p], phase, obs, moves, n, rules, data, srng)
        if k < 0 or k >= n:
            k = 0
        phase, n = apply_nb(S, phase, moves[k], rules, T, rng, moves)


@nb.njit(cache=True, nogil=True, parallel=True)
def chunk_nb(start, stop, seed, seats, sids, rules, T, data, out, finals):
    for g in nb.prange(stop - start):
        rng = np.empty(2, np.uint64)
        init_state_nb(rng, seed, start + g, M.DOMAIN)
        srng = np.empty(2, np.uint64)
        init_state_nb(srng, seed, start + g, M.STRATEGY_DOMAIN)
        S = np.empty(M.S_LEN, np.int64)
        obs = np.empty(M.S_LEN, np.int64)
        moves = np.empty(M.MAX_MOVES, np.int64)
        play_game_nb(S, obs, moves, seats, sids, rules, T, data, rng, srng)
        record_nb(S, out[g])
        if finals.shape[0] > 0:
            for i in range(M.S_LEN):
                finals[g, i] = S[i]


@lru_cache(maxsize=4)
def content_tables(heroes=M.HERO_NAMES):
    content = M.load_content(heroes)
    T = M.build_tables(content, heroes)
    return content, T, strategy_data(T)


def hero_index(name: str) -> int:
    if name not in M.HERO_NAMES:
        raise PlaytestError(f"unknown hero {name!r} (known: {', '.join(M.HERO_NAMES)})", field="--heroes")
    return M.HERO_NAMES.index(name)


def strategy_id(name: str) -> int:
    if name not in BUILTIN:
        raise PlaytestError(f"unknown strategy {name!r} (built in: {', '.join(BUILTIN)})", field="--strategy")
    return BUILTIN[name][0]


def to_records(rows: np.ndarray, start: int) -> dict:
    rec = {f: rows[:, i].copy() for i, f in enumerate(M.RECORD_FIELDS)}
    rec["game"] = np.arange(start, start + rows.shape[0], dtype=np.int64)
    return rec


def play_range(start: int, stop: int, seed: int, heroes=("pyromancer", "paladin"),
               strategies=("greedy", "greedy"), rules: dict | None = None, engine: str = "kernel",
               keep_states: bool = False) -> dict:
    """Games start..stop-1 with ``heroes[p]``/``strategies[p]`` in seat p."""
    rules = rules if rules is not None else M.load_rules()
    content, T, data = content_tables()
    seats = np.array([hero_index(h) for h in heroes], np.int64)
    sids = np.array([strategy_id(s) for s in strategies], np.int64)
    rv = M.rules_vector(rules)
    n = stop - start
    if engine == "kernel":
        out = np.zeros((n, M.N_FIELDS), np.int64)
        finals = np.zeros((n if keep_states else 0, M.S_LEN), np.int64)
        chunk_nb(start, stop, seed, seats, sids, rv, T, data, out, finals)
        rec = to_records(out, start)
        if keep_states:
            rec["final_state"] = finals
        return rec
    if engine != "reference":
        raise PlaytestError(f"engine must be kernel or reference, got {engine!r}", field="--engine")
    from simcore.dicethrone.reference import play_game

    deciders = [_decider(int(s)) for s in sids]
    rows, fins = [], []
    for i in range(start, stop):
        g = play_game(content, rules, heroes, seed, i, deciders, data, rv)
        rows.append([g.record()[f] for f in M.RECORD_FIELDS])
        if keep_states:
            fins.append(g.vector())
    rec = to_records(np.array(rows, np.int64).reshape(n, M.N_FIELDS), start)
    if keep_states:
        rec["final_state"] = np.array(fins, np.int64).reshape(n, M.S_LEN)
    return rec


def _decider(sid: int):
    def decide(phase, obs, moves, n, rules, data, rng):
        return decide_builtin(sid, phase, obs, moves, n, rules, data, rng)
    return decide
