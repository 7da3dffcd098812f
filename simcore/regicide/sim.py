"""Running Regicide games: the compiled kernel (``prange`` over the games of a chunk),
the same games through the pure-Python reference engine, and user plug-in strategies.

Game ``i`` of a run with seed ``s`` draws from stream ``(s, i, model.DOMAIN)`` only, so
records are identical for any ``jobs``/chunk size, and identical between the kernel and
the reference engine (``tests/test_regicide_engines.py``).
"""
from __future__ import annotations

import numba as nb
import numpy as np
import pandas as pd

from ..errors import PlaytestError
from ..parallel import run_chunks
from ..rng import init_state_nb
from . import model as M
from .engine import apply_nb, observe_nb, record_nb, start_nb
from .model import DOMAIN, MAX_MOVES, STRATEGY_DOMAIN, N_FIELDS, PH_DONE, R_ILLEGAL, RECORD_FIELDS, S_LEN

from strategies.regicide_base import SID_HEURISTIC, SID_RANDOM, SID_SEARCH, get_strategy, load_plugin, parse_params
from strategies.regicide_basic import heuristic_decide, random_decide
from strategies.regicide_search import search_decide


@nb.njit(cache=True, nogil=True)
def decide_builtin(sid, phase, obs, moves, n_moves, rules, data, rng):
    """Dispatch to a built-in strategy by id (``strategies.regicide_base.SID_*``)."""
    if sid == SID_RANDOM:
        return random_decide(phase, obs, moves, n_moves, rules, data, rng)
    if sid == SID_HEURISTIC:
        return heuristic_decide(phase, obs, moves, n_moves, rules, data, rng)
    return search_decide(phase, obs, moves, n_moves, rules, data, rng)


@nb.njit(cache=True, nogil=True)
def game_streams(seed, index):
    """The game's stream (shuffles) and the strategies' own stream for game ``index``."""
    rng = np.empty(2, np.uint64)
    init_state_nb(rng, seed, index, DOMAIN)
    srng = np.empty(2, np.uint64)
    init_state_nb(srng, seed, index, STRATEGY_DOMAIN)
    return rng, srng


@nb.njit(cache=True, nogil=True)
def play_game_nb(S, obs, moves, players, rules, sid, data, reveal, rng, srng):
    phase, n = start_nb(S, players, rules, rng, moves)
    while phase != PH_DONE:
        observe_nb(S, obs, reveal)
        k = decide_builtin(sid, phase, obs, moves, n, rules, data, srng)
        if k < 0 or k >= n:
            S[M.O_STATUS] = 2
            S[M.O_REASON] = R_ILLEGAL
            break
        phase, n = apply_nb(S, phase, moves[k], rules, rng, moves)


@nb.njit(cache=True, nogil=True, parallel=True)
def chunk_nb(start, stop, seed, players, rules, sid, data, reveal, out, finals):
    """Play games ``start..stop-1``; ``out[g - start]`` gets each record and, if
    ``finals`` has rows, ``finals[g - start]`` the final state vector."""
    for g in nb.prange(stop - start):
        rng, srng = game_streams(seed, start + g)
        S = np.empty(S_LEN, np.int64)
        obs = np.empty(S_LEN, np.int64)
        moves = np.empty(MAX_MOVES, np.int64)
        play_game_nb(S, obs, moves, players, rules, sid, data, reveal, rng, srng)
        record_nb(S, out[g])
        if finals.shape[0] > 0:
            for i in range(S_LEN):
                finals[g, i] = S[i]


def run_chunk(start: int, stop: int, seed: int, players: int, rules_vec: np.ndarray, strategy_name: str,
              data: np.ndarray, keep_states: bool = False) -> dict:
    """One chunk through the kernel (module level: joblib workers pickle it)."""
    strat = get_strategy(strategy_name)
    out = np.zeros((stop - start, N_FIELDS), np.int64)
    finals = np.zeros((stop - start if keep_states else 0, S_LEN), np.int64)
    if strat.sid >= 0:
        chunk_nb(start, stop, seed, players, rules_vec, strat.sid, data, strat.perfect_information, out, finals)
    else:
        plugin_chunk(strat.plugin)(start, stop, seed, players, rules_vec, data, out, finals)
    rec = {f: out[:, i].copy() for i, f in enumerate(RECORD_FIELDS)}
    rec["game"] = np.arange(start, stop, dtype=np.int64)
    if keep_states:
        rec["final_state"] = finals
    return rec


_PLUGINS: dict = {}


def plugin_chunk(spec: str):
    """A kernel compiled around a user ``decide`` function (not cached on disk: numba
    cannot cache a function that closes over another dispatcher)."""
    if spec in _PLUGINS:
        return _PLUGINS[spec]
    decide = load_plugin(spec)

    @nb.njit(nogil=True, parallel=True)
    def chunk(start, stop, seed, players, rules, data, out, finals):
        for g in nb.prange(stop - start):
            rng, srng = game_streams(seed, start + g)
            S = np.empty(S_LEN, np.int64)
            obs = np.empty(S_LEN, np.int64)
            moves = np.empty(MAX_MOVES, np.int64)
            phase, n = start_nb(S, players, rules, rng, moves)
            while phase != PH_DONE:
                observe_nb(S, obs, False)
                k = decide(phase, obs, moves, n, rules, data, srng)
                if k < 0 or k >= n:
                    S[M.O_STATUS] = 2
                    S[M.O_REASON] = R_ILLEGAL
                    break
                phase, n = apply_nb(S, phase, moves[k], rules, rng, moves)
            record_nb(S, out[g])
            if finals.shape[0] > 0:
                for i in range(S_LEN):
                    finals[g, i] = S[i]

    def run(*args):
        try:
            chunk(*args)
        except (nb.core.errors.TypingError, nb.core.errors.LoweringError) as e:
            from ..plugins import compile_error

            raise compile_error(spec, "decide(phase, obs, moves, n_moves, rules, data, rng) -> int", e) from None

    _PLUGINS[spec] = run
    return run


def run_games(players: int, strategy: str, games: int, seed: int = 0, rules: dict | None = None,
              params: str | None = None, jobs: int = 1, chunk_size: int | None = None,
              progress: bool | str = False, keep_states: bool = False) -> dict:
    """Play ``games`` games through the kernel; returns per-game record arrays."""
    players = M.check_players(players)
    rules = rules if rules is not None else M.load_rules()
    strat = get_strategy(strategy)
    if strat.sid < 0:
        load_plugin(strat.plugin)  # fail early with a one-line error
    data = parse_params(params, strat)
    if chunk_size is None and strat.sid == SID_SEARCH:
        chunk_size = max(1, min(64, -(-games // (4 * max(1, jobs)))))
    rec = run_chunks(run_chunk, games, seed, players, M.rules_vector(rules), strategy, data, keep_states,
                     jobs=jobs, chunk_size=chunk_size, progress=progress)
    return check_legal(rec, strategy)


def check_legal(rec: dict, strategy: str) -> dict:
    """A strategy that answered an index outside the legal moves ends its game with
    ``R_ILLEGAL``; a run holding one is an error naming the strategy, not a loss."""
    bad = np.flatnonzero(rec["reason"] == R_ILLEGAL)
    if bad.size:
        raise PlaytestError(f"strategy {strategy!r} answered a move index outside the legal moves "
                            f"0..n_moves-1 ({bad.size:,} game(s), first game index {int(rec['game'][bad[0]])})",
                            field="--strategy")
    return rec


def reference_decider(strategy: str):
    """(decide, perfect_information) for the reference engine: the same compiled function
    the kernel calls (only the rule code must be independent)."""
    strat = get_strategy(strategy)
    if strat.sid < 0:
        return load_plugin(strat.plugin), False
    sid = strat.sid

    def decide(phase, obs, moves, n, rules, data, rng):
        return decide_builtin(sid, phase, obs, moves, n, rules, data, rng)

    return decide, strat.perfect_information


def run_reference(players: int, strategy: str, games: int, seed: int = 0, rules: dict | None = None,
                  params: str | None = None, start: int = 0, keep_states: bool = False) -> dict:
    """The same games through the pure-Python reference engine."""
    from .reference import play_game

    players = M.check_players(players)
    rules = rules if rules is not None else M.load_rules()
    strat = get_strategy(strategy)
    data = parse_params(params, strat)
    decide, reveal = reference_decider(strategy)
    rv = M.rules_vector(rules)
    rows, finals = [], []
    for i in range(start, start + games):
        g = play_game(players, rules, seed, i, decide, data, reveal, rv)
        rows.append(g.record())
        if keep_states:
            finals.append(g.vector())
    rec = {f: np.array([r[f] for r in rows], np.int64) for f in RECORD_FIELDS}
    rec["game"] = np.arange(start, start + games, dtype=np.int64)
    if keep_states:
        rec["final_state"] = np.array(finals, np.int64)
    return check_legal(rec, strategy)


def records_frame(rec: dict, strategy: str = "") -> pd.DataFrame:
    df = pd.DataFrame({k: v for k, v in rec.items() if k != "final_state"})
    if strategy:
        df.insert(0, "strategy", strategy)
    return df

