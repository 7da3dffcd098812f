"""Running river battle games: built-in strategies dispatched by integer id inside one
cached kernel (``decide_builtin``), a chunk of games through the kernel (``prange`` over
games), the same games through the pure-Python reference engine, and ``play_range``
(module level, for joblib workers).

Seat 0 is the attacker, seat 1 the defender; ``sids`` (int64[2]) names the strategy of
each seat. Game ``i`` of seed ``s`` draws its setup from stream ``(s, i, model.DOMAIN)``
and the strategies draw from ``(s, i, model.STRATEGY_DOMAIN)`` (one stream shared by both
seats, in decision order), so records depend on nothing but (seed, i, rules, sids).
"""
from __future__ import annotations

import numba as nb
import numpy as np

from simcore.errors import PlaytestError
from simcore.rng import init_state_nb
from simcore.river import model as M
from simcore.river.kernel import apply_nb, observe_nb, record_nb, start_nb
from simcore.river.model import (DOMAIN, END_ILLEGAL, MAX_MOVES, N_FIELDS, O_DECIDE, O_PHASE, O_REASON,
                                 O_WINNER, PH_DONE, RECORD_FIELDS, S_LEN, STRATEGY_DOMAIN)

from . import BUILTIN
from .basic import heuristic_decide, random_decide
from .search import search_decide

SID_RANDOM = BUILTIN["random"][0]
SID_HEURISTIC = BUILTIN["heuristic"][0]
SID_SEARCH = BUILTIN["search"][0]


@nb.njit(cache=True, nogil=True)
def decide_builtin(sid, phase, obs, moves, n, rules, data, rng):
    if sid == SID_RANDOM:
        return random_decide(phase, obs, moves, n, rules, data, rng)
    if sid == SID_HEURISTIC:
        return heuristic_decide(phase, obs, moves, n, rules, data, rng)
    return search_decide(phase, obs, moves, n, rules, data, rng)


@nb.njit(cache=True, nogil=True)
def play_game_nb(S, obs, moves, sids, rules, data, rng, srng):
    phase, n = start_nb(S, 2, rules, data, rng, moves)
    while phase != PH_DONE:
        seat = S[M.O_CUR]
        observe_nb(S, obs, seat, data)
        k = decide_builtin(sids[seat], phase, obs, moves, n, rules, data, srng)
        if k < 0 or k >= n:
            S[O_WINNER] = -1
            S[O_REASON] = END_ILLEGAL
            S[O_DECIDE] = -1
            S[O_PHASE] = PH_DONE
            break
        phase, n = apply_nb(S, phase, moves[k], rules, data, rng, moves)


@nb.njit(cache=True, nogil=True, parallel=True)
def chunk_nb(start, stop, seed, sids, rules, data, out, finals):
    """Play games ``start..stop-1``; row ``g - start`` of ``out`` gets each record and, if
    ``finals`` has rows, of ``finals`` the final state vector."""
    for g in nb.prange(stop - start):
        rng = np.empty(2, np.uint64)
        init_state_nb(rng, seed, start + g, DOMAIN)
        srng = np.empty(2, np.uint64)
        init_state_nb(srng, seed, start + g, STRATEGY_DOMAIN)
        S = np.empty(S_LEN, np.int64)
        obs = np.empty(S_LEN, np.int64)
        moves = np.empty(MAX_MOVES, np.int64)
        play_game_nb(S, obs, moves, sids, rules, data, rng, srng)
        record_nb(S, out[g])
        if finals.shape[0] > 0:
            for i in range(S_LEN):
                finals[g, i] = S[i]


def strategy_ids(attacker: str, defender: str) -> np.ndarray:
    out = []
    for role, name in (("attacker", attacker), ("defender", defender)):
        if name not in BUILTIN:
            raise PlaytestError(f"unknown strategy {name!r} (built-in: {', '.join(BUILTIN)})", field=f"--{role}")
        out.append(BUILTIN[name][0])
    return np.array(out, np.int64)


def make_data(tables=None, params=()) -> np.ndarray:
    t = tables if tables is not None else M.make_tables()
    return np.concatenate([t, np.array(params, np.int64)]).astype(np.int64)


def _frame(out, start, stop):
    rec = {f: out[:, i].copy() for i, f in enumerate(RECORD_FIELDS)}
    rec["game"] = np.arange(start, stop, dtype=np.int64)
    return rec


def play_range(start: int, stop: int, seed: int, rules: dict | None = None, attacker: str = "heuristic",
               defender: str = "heuristic", engine: str = "kernel", keep_states: bool = False,
               data=None, params=()) -> dict:
    """Games ``start..stop-1`` as a dict of record arrays (engine "kernel" or "reference");
    ``params``: the strategies' integer parameters (the search budget)."""
    rules = rules if rules is not None else M.load_rules()
    rv = M.rules_vector(rules)
    sids = strategy_ids(attacker, defender)
    data = data if data is not None else make_data(params=params)
    if engine == "kernel":
        out = np.zeros((stop - start, N_FIELDS), np.int64)
        finals = np.zeros((stop - start if keep_states else 0, S_LEN), np.int64)
        chunk_nb(start, stop, seed, sids, rv, data, out, finals)
        rec = _frame(out, start, stop)
        if keep_states:
            rec["final_state"] = finals
        return rec
    if engine != "reference":
        raise PlaytestError(f"unknown engine {engine!r} (kernel, reference)", field="--engine")
    from simcore.river.reference import play_game

    deciders = [_ref_decider(int(s)) for s in sids]
    rows, finals = [], []
    for i in range(start, stop):
        g = play_game(rules, seed, i, deciders, data, rv)
        r = g.record()
        rows.append([r[f] for f in RECORD_FIELDS])
        if keep_states:
            finals.append(g.vector())
    rec = _frame(np.array(rows, np.int64).reshape(-1, N_FIELDS), start, stop)
    if keep_states:
        rec["final_state"] = np.array(finals, np.int64).reshape(-1, S_LEN)
    return rec


def _ref_decider(sid: int):
    """The reference engine calls the same compiled strategies (only rule code must be
    independent)."""
    def decide(phase, obs, moves, n, rules, data, rng):
        return decide_builtin(sid, phase, obs, moves, n, rules, data, rng)
    return decide


def replay(seed: int, index: int, rules: dict | None = None, attacker: str = "heuristic",
           defender: str = "heuristic") -> str:
    """The reference engine's play-by-play of one game."""
    from simcore.river.reference import play_game

    rules = rules if rules is not None else M.load_rules()
    sids = strategy_ids(attacker, defender)
    g = play_game(rules, seed, index, [_ref_decider(int(s)) for s in sids], make_data(), log=True)
    r = g.record()
    end = (f"winner: {M.ROLES[r['winner']] if r['winner'] >= 0 else 'none'} "
           f"({M.REASON_NAMES[r['reason']]}) after {r['turns']} turns")
    return "\n".join(g.lines + [end]) + "\n"
