"""Throne Arcade: built-in strategy dispatch and the cached kernel entry that plays a
range of games with any strategy in any seat.

- ``decide_builtin(sid, ...)`` dispatches by integer id (``BUILTIN`` in ``__init__``) inside
  one cached kernel, so mixing strategies across seats costs no recompilation.
- ``chunk_nb(start, stop, seed, seats, rules, data, sids, out, finals)`` plays games
  ``start..stop-1`` (``prange``), seat ``p`` deciding with strategy ``sids[p]``.
- ``play_range(start, stop, seed, players, strategies, ...)`` (module level, picklable for
  joblib workers) returns a dict of record arrays from engine ``"kernel"`` or
  ``"reference"``; both give identical records (tests/test_arcade_twins.py).

Game ``i`` of seed ``s`` draws its shuffles from stream ``(s, i, model.DOMAIN)`` and hands
the strategies stream ``(s, i, model.STRATEGY_DOMAIN)``: records do not depend on chunking.
"""
from __future__ import annotations

import numba as nb
import numpy as np

from simcore.arcade import model as M
from simcore.arcade.kernel import apply_nb, observe_nb, record_nb, start_nb
from simcore.arcade.model import CAP_ILLEGAL, DOMAIN, MAX_MOVES, N_FIELDS, O_CAPPED, O_CUR, O_PHASE, O_WINNER, \
    PH_DONE, RECORD_DTYPES, RECORD_FIELDS, S_LEN, STRATEGY_DOMAIN
from simcore.errors import PlaytestError
from simcore.rng import init_state_nb

from . import BUILTIN
from .basic import defensive_decide, greedy_decide, random_decide

SID_RANDOM, SID_GREEDY, SID_DEFENSIVE = BUILTIN["random"][0], BUILTIN["greedy"][0], BUILTIN["defensive"][0]
_JIT = dict(cache=True, nogil=True)


@nb.njit(**_JIT)
def decide_builtin(sid, phase, obs, moves, n_moves, rules, data, rng):
    if sid == SID_GREEDY:
        return greedy_decide(phase, obs, moves, n_moves, rules, data, rng)
    if sid == SID_DEFENSIVE:
        return defensive_decide(phase, obs, moves, n_moves, rules, data, rng)
    return random_decide(phase, obs, moves, n_moves, rules, data, rng)


@nb.njit(**_JIT)
def game_streams(seed, index):
    rng = np.empty(2, np.uint64)
    init_state_nb(rng, seed, index, DOMAIN)
    srng = np.empty(2, np.uint64)
    init_state_nb(srng, seed, index, STRATEGY_DOMAIN)
    return rng, srng


@nb.njit(**_JIT)
def play_game_nb(S, obs, moves, seats, rules, data, sids, rng, srng):
    phase, n = start_nb(S, seats, rules, data, rng, moves)
    while phase != PH_DONE:
        p = S[O_CUR]
        observe_nb(S, obs, p, data)
        k = decide_builtin(sids[p], phase, obs, moves, n, rules, data, srng)
        if k < 0 or k >= n:
            S[O_WINNER] = -1
            S[O_CAPPED] = CAP_ILLEGAL
            S[O_PHASE] = PH_DONE
            S[O_CUR] = -1
            break
        phase, n = apply_nb(S, phase, moves[k], rules, data, rng, moves)


@nb.njit(cache=True, nogil=True, parallel=True)
def chunk_nb(start, stop, seed, seats, rules, data, sids, out, finals):
    """Games ``start..stop-1``: ``out[g - start]`` gets each record (int64 row of
    ``model.RECORD_FIELDS``); if ``finals`` has rows, ``finals[g - start]`` the final state."""
    for g in nb.prange(stop - start):
        rng, srng = game_streams(seed, start + g)
        S = np.empty(S_LEN, np.int64)
        obs = np.empty(S_LEN, np.int64)
        moves = np.empty(MAX_MOVES, np.int64)
        play_game_nb(S, obs, moves, seats, rules, data, sids, rng, srng)
        record_nb(S, out[g])
        if finals.shape[0] > 0:
            for i in range(S_LEN):
                finals[g, i] = S[i]


def strategy_ids(strategies, players: int) -> np.ndarray:
    """One built-in strategy name for every seat, or a list with one name per seat."""
    names = [strategies] * players if isinstance(strategies, str) else list(strategies)
    if len(names) != players:
        raise PlaytestError(f"needs one strategy per seat ({players}), got {len(names)}", field="--strategy")
    for nm in names:
        if nm not in BUILTIN:
            raise PlaytestError(f"unknown strategy {nm!r} (built-in: {', '.join(BUILTIN)})", field="--strategy")
    return np.array([BUILTIN[nm][0] for nm in names], np.int64)


def make_data(deck: M.Deck, rules: dict, params=()) -> np.ndarray:
    """The strategies' ``data``: card tables, then parameters."""
    return np.concatenate([M.build_tables(deck, rules), np.asarray(params, np.int64)]).astype(np.int64)


def _records(rows: np.ndarray, start: int, stop: int) -> dict:
    rec = {name: rows[:, i].astype(dt) for i, (name, dt) in enumerate(RECORD_DTYPES)}
    rec["game"] = np.arange(start, stop, dtype=np.int64)
    return rec


def reference_deciders(sids: np.ndarray):
    """The reference engine calls the same compiled strategy functions (only the rule
    code must be independent of the kernel)."""
    return [(lambda sid: (lambda ph, obs, mv, n, rv, data, rng: decide_builtin(sid, ph, obs, mv, n, rv, data, rng)))(int(s))
            for s in sids]


def play_range(start: int, stop: int, seed: int, players: int, strategies="greedy", rules: dict | None = None,
               deck: M.Deck | None = None, engine: str = "kernel", keep_states: bool = False, params=()) -> dict:
    """Games ``start..stop-1`` of the run with ``seed``: dict of record arrays (and
    ``final_state`` rows when ``keep_states``)."""
    rules = M.load_rules() if rules is None else rules
    deck = M.load_deck() if deck is None else deck
    players = M.check_players(players, rules, deck)
    sids = strategy_ids(strategies, players)
    rv = M.rules_vector(rules)
    data = make_data(deck, rules, params)
    if engine == "kernel":
        out = np.zeros((stop - start, N_FIELDS), np.int64)
        finals = np.zeros((stop - start if keep_states else 0, S_LEN), np.int64)
        chunk_nb(start, stop, seed, players, rv, data, sids, out, finals)
        rec = _records(out, start, stop)
        if keep_states:
            rec["final_state"] = finals
        return rec
    if engine != "reference":
        raise PlaytestError(f"unknown engine {engine!r} (kernel, reference)", field="--engine")
    from simcore.arcade.reference import play_game

    deciders = reference_deciders(sids)
    rows, finals = [], []
    for i in range(start, stop):
        g = play_game(players, rules, deck, seed, i, deciders, data, rules_vec=rv)
        r = g.record()
        rows.append([int(r[f]) for f in RECORD_FIELDS])
        if keep_states:
            finals.append(g.vector())
    rec = _records(np.array(rows, np.int64).reshape(-1, N_FIELDS), start, stop)
    if keep_states:
        rec["final_state"] = np.array(finals, np.int64).reshape(-1, S_LEN)
    return rec


def replay_log(seed: int, game: int, players: int, strategies="greedy", rules: dict | None = None,
               deck: M.Deck | None = None, params=()) -> str:
    """The reference engine's play-by-play of one game, as text."""
    from simcore.arcade.reference import play_game

    rules = M.load_rules() if rules is None else rules
    deck = M.load_deck() if deck is None else deck
    players = M.check_players(players, rules, deck)
    sids = strategy_ids(strategies, players)
    names = [strategies] * players if isinstance(strategies, str) else list(strategies)
    g = play_game(players, rules, deck, seed, game, reference_deciders(sids), make_data(deck, rules, params),
                  log=True)
    head = [f"Throne Arcade, {players} players, seed {seed}, game {game}",
            "seats: " + ", ".join(f"{p}={nm}" for p, nm in enumerate(names))]
    r = g.record()
    tail = [f"result: winner {r['winner']}, capped {r['capped']}, rounds {r['rounds']}, turns {r['turns']}, "
            f"revives {r['revives']}, losses " + " ".join(str(r[f'losses_{p}']) for p in range(players))]
    return "\n".join(head + g.log_lines() + tail) + "\n"
