"""Regicide bound to its strategies: the cached kernel entry (the shared move-list driver
of ``simcore.driver`` over ``simcore.regicide.kernel``, built-in strategies dispatched by
id per seat), the same games through the reference engine, and plug-ins.

Game ``i`` of a run with seed ``s`` draws from stream ``(s, i, model.DOMAIN)`` only, so
records are identical for any ``jobs``/chunk size, and identical between the kernel and
the reference engine (``tests/test_regicide_engines.py``). Seats may mix strategies
(``strategy`` a name for every seat, or one per seat).
"""
from __future__ import annotations


import numba as nb
import numpy as np
import pandas as pd

from simcore.driver import play_one_nb
from simcore.errors import PlaytestError
from simcore.parallel import run_chunks
from simcore.regicide import model as M
from simcore.regicide.kernel import TABLES, apply_nb, observe_nb, record_nb, score_nb, start_nb
from simcore.regicide.model import DOMAIN, MAX_MOVES, N_FIELDS, O_CUR, O_TURNS, RECORD_FIELDS, S_LEN, STRATEGY_DOMAIN

from strategies.bind import (PLUGIN_SID, check_answers, load_plugin, python_plugin, run_plugin, seat_data,
                             seat_strategies)
from strategies.regicide import SID_HEURISTIC, SID_RANDOM, SID_SEARCH, get_strategy, parse_params
from strategies.regicide.basic import heuristic_decide, random_decide
from strategies.regicide.search import search_decide

WINNER_COL = RECORD_FIELDS.index("win")
@nb.njit(cache=True, nogil=True)
def decide_builtin(sid, phase, obs, moves, n_moves, rules, data, rng):
    """Dispatch to a built-in strategy by id (``strategies.regicide.SID_*``)."""
    if sid == SID_RANDOM:
        return random_decide(phase, obs, moves, n_moves, rules, data, rng)
    if sid == SID_HEURISTIC:
        return heuristic_decide(phase, obs, moves, n_moves, rules, data, rng)
    return search_decide(phase, obs, moves, n_moves, rules, data, rng)


# the built-ins by id, for runs with a plug-in (``strategies.bind.run_plugin``)
BUILTIN_DECIDE = {SID_RANDOM: random_decide, SID_HEURISTIC: heuristic_decide, SID_SEARCH: search_decide}


@nb.njit(cache=True, nogil=True, parallel=True)
def chunk_nb(first, stop, seed, players, sids, reveal, rules, tables, data, trace_cap, out, leads, bad, finals):
    """Games ``first..stop-1`` with built-in strategies (``sids[seat]``) into ``out``."""
    for g in nb.prange(stop - first):
        bad[g] = play_one_nb(start_nb, apply_nb, observe_nb, score_nb, record_nb, decide_builtin, DOMAIN,
                             STRATEGY_DOMAIN, S_LEN, MAX_MOVES, O_CUR, O_TURNS, WINNER_COL, seed, first + g,
                             players, sids, reveal, rules, tables, data, trace_cap, out[g], leads[g], finals[g])


@nb.njit(cache=True, nogil=True, parallel=True)
def plugin_chunk_nb(first, stop, seed, players, sids, reveal, rules, tables, data, trace_cap, out, leads, bad,
                    finals, decide):
    """``chunk_nb`` with a plug-in in a seat: ``decide`` is the first-class dispatcher of
    ``strategies.bind.run_plugin``."""
    for g in nb.prange(stop - first):
        bad[g] = play_one_nb(start_nb, apply_nb, observe_nb, score_nb, record_nb, decide, DOMAIN,
                             STRATEGY_DOMAIN, S_LEN, MAX_MOVES, O_CUR, O_TURNS, WINNER_COL, seed, first + g,
                             players, sids, reveal, rules, tables, data, trace_cap, out[g], leads[g], finals[g])


def _seats(players: int, strategy) -> tuple:
    specs = seat_strategies(strategy, players)
    strats = [get_strategy(s) for s in specs]
    return specs, strats


def _data(strats, params) -> np.ndarray:
    return seat_data([parse_params(params, s) for s in strats])


def run_chunk(start: int, stop: int, seed: int, players: int, rules_vec: np.ndarray, specs: tuple,
              data: np.ndarray, keep_states: bool = False) -> dict:
    """One chunk through the kernel (module level: joblib workers pickle it)."""
    strats = [get_strategy(s) for s in specs]
    sids = np.array([PLUGIN_SID if s.sid < 0 else s.sid for s in strats], np.int64)
    reveal = np.array([s.perfect_information for s in strats], np.int64)
    n = stop - start
    out = np.zeros((n, N_FIELDS), np.int64)
    leads = np.zeros((n, 3), np.float64)
    bad = np.full(n, -1, np.int64)
    finals = np.zeros((n, S_LEN if keep_states else 0), np.int64)
    plugins = {s.plugin for s in strats if s.sid < 0}
    if len(plugins) > 1:
        raise PlaytestError("at most one plug-in strategy per run", field="--strategy")
    args = (start, stop, seed, players, sids, reveal, rules_vec, TABLES, data, 0, out, leads, bad, finals)
    if plugins:
        run_plugin(plugins.pop(), plugin_chunk_nb, BUILTIN_DECIDE, args)
    else:
        chunk_nb(*args)
    check_answers(bad, specs, start)
    rec = {f: out[:, i].copy() for i, f in enumerate(RECORD_FIELDS)}
    rec["game"] = np.arange(start, stop, dtype=np.int64)
    if keep_states:
        rec["final_state"] = finals
    return rec


def run_games(players: int, strategy, games: int, seed: int = 0, rules: dict | None = None,
              params: str | None = None, jobs: int = 1, chunk_size: int | None = None,
              progress: bool | str = False, keep_states: bool = False) -> dict:
    """Play ``games`` games through the kernel; returns per-game record arrays.
    ``strategy``: one name for every seat, or one per seat."""
    players = M.check_players(players)
    rules = rules if rules is not None else M.load_rules()
    specs, strats = _seats(players, strategy)
    for s in strats:
        if s.sid < 0:
            load_plugin(s.plugin)  # fail early with a one-line error
    data = _data(strats, params)
    if chunk_size is None and any(s.default_params != (0.0,) for s in strats):  # search: slow games
        chunk_size = max(1, min(64, -(-games // (4 * max(1, jobs)))))
    return run_chunks(run_chunk, games, seed, players, M.rules_vector(rules), specs, data, keep_states,
                      jobs=jobs, chunk_size=chunk_size, progress=progress)


def reference_decider(strategy: str):
    """(decide, perfect_information) for the reference engine: the same compiled function
    the kernel calls (only the rule code must be independent)."""
    strat = get_strategy(strategy)
    if strat.sid < 0:
        return python_plugin(strat.plugin, load_plugin(strat.plugin)), False
    sid = strat.sid

    def decide(phase, obs, moves, n, rules, data, rng):
        return decide_builtin(sid, phase, obs, moves, n, rules, data, rng)

    return decide, strat.perfect_information


def run_reference(players: int, strategy, games: int, seed: int = 0, rules: dict | None = None,
                  params: str | None = None, start: int = 0, keep_states: bool = False) -> dict:
    """The same games through the pure-Python reference engine."""
    from simcore.regicide.reference import play_game

    players = M.check_players(players)
    rules = rules if rules is not None else M.load_rules()
    specs, strats = _seats(players, strategy)
    data = _data(strats, params)
    deciders = [reference_decider(s) for s in specs]
    rv = M.rules_vector(rules)
    rows, finals = [], []
    for i in range(start, start + games):
        g = play_game(players, rules, seed, i, [d for d, _ in deciders], data, [r for _, r in deciders], rv)
        if g.illegal_seat >= 0:
            bad = np.full(1, g.illegal_seat, np.int64)
            check_answers(bad, specs, i)
        rows.append(g.record())
        if keep_states:
            finals.append(g.vector())
    rec = {f: np.array([r[f] for r in rows], np.int64) for f in RECORD_FIELDS}
    rec["game"] = np.arange(start, start + games, dtype=np.int64)
    if keep_states:
        rec["final_state"] = np.array(finals, np.int64)
    return rec


def records_frame(rec: dict, strategy: str = "") -> pd.DataFrame:
    df = pd.DataFrame({k: v for k, v in rec.items() if k != "final_state"})
    if strategy:
        df.insert(0, "strategy", strategy)
    return df



# ---------------------------------------------------------------- the game interface
from simcore.game import GameAPI  # noqa: E402


class RegicideAPI(GameAPI):
    """Regicide as the shared runner, CLI and report see it (``simcore/game.py``)."""

    @property
    def type(self):
        from simcore.game import game_type

        return game_type("regicide")

    def load_rules(self, path=None, overrides=None):
        return M.load_rules(path, overrides)

    def strategies(self):
        from strategies.regicide import BUILTIN

        return {k: s.description for k, s in BUILTIN.items()}

    def check_strategy(self, spec):
        s = get_strategy(spec)
        if s.sid < 0:
            load_plugin(s.plugin)
        return s.name

    def strategy_label(self, spec):
        return get_strategy(spec).label

    def make_setup(self, rules, content, seats, params=None):
        return {"players": M.check_players(seats), "rules": rules, "rules_vec": M.rules_vector(rules),
                "params": params}

    def play(self, start, stop, seed, setup, lineup, seat_strategies, engine="kernel", trace=False):
        specs = tuple(seat_strategies)
        if engine == "reference":
            rec = run_reference(setup["players"], specs, stop - start, seed, rules=setup["rules"],
                                params=setup["params"], start=start)
        else:
            data = _data([get_strategy(s) for s in specs], setup["params"])
            rec = run_chunk(start, stop, seed, setup["players"], setup["rules_vec"], specs, data)
        rec["winner"] = np.where(rec["win"] == 1, 0, -1).astype(np.int8)
        rec["capped"] = rec["reason"] == M.R_TURN_CAP
        rec["first"] = np.zeros(stop - start, np.int8)
        return rec

    def reduce(self, rec):
        """Exact histograms the Regicide tables need (``analysis.regicide``): enemies
        defeated, the enemy that ended each lost game (castle position, rank, suit + 1; a
        game ended by the turn cap is not lost: it is left out), medals, flips used, end
        reasons, games with a Jester played; and, of the games the turn cap ended, enemies
        defeated, flips used and the sums of Jesters, yields, exact kills and games with a
        Jester, so that the tables can leave those games out (they are neither won nor
        lost)."""
        reason = np.asarray(rec["reason"], np.int64)
        capped = reason == M.R_TURN_CAP
        lost = (np.asarray(rec["win"]) == 0) & ~capped
        pos = np.asarray(rec["end_pos"], np.int64)[lost]
        rank = np.asarray(rec["end_rank"], np.int64)[lost]
        suit = np.asarray(rec["end_suit"], np.int64)[lost] + 1
        defeated = np.asarray(rec["defeated"], np.int64)
        flips = np.asarray(rec["flips_used"], np.int64)
        jesters = np.asarray(rec["jesters"], np.int64)
        return {
            "defeated": np.bincount(defeated, minlength=13),
            "lost_end": np.bincount((pos * 14 + rank) * 5 + suit, minlength=13 * 14 * 5).reshape(13, 14, 5),
            "medal": np.bincount(np.asarray(rec["medal"], np.int64), minlength=4),
            "flips_used": np.bincount(flips, minlength=1),
            "reason": np.bincount(reason, minlength=len(M.REASON_NAMES)),
            "jester_games": np.array([np.count_nonzero(jesters > 0)], np.int64),
            "defeated_capped": np.bincount(defeated[capped], minlength=13),
            "flips_capped": np.bincount(flips[capped], minlength=1),
            # sums over the capped games: Jesters, yields, exact kills, games with a Jester
            "capped_sums": np.array([jesters[capped].sum(), np.asarray(rec["yields"], np.int64)[capped].sum(),
                                     np.asarray(rec["exact_kills"], np.int64)[capped].sum(),
                                     np.count_nonzero(jesters[capped] > 0)], np.int64),
        }

    def replay(self, setup, lineup, seat_strategies, seed, index):
        from simcore.regicide.reference import play_game

        specs = tuple(seat_strategies)
        deciders = [reference_decider(s) for s in specs]
        data = _data([get_strategy(s) for s in specs], setup["params"])
        moves: list = []
        g = play_game(setup["players"], setup["rules"], seed, index, [d for d, _ in deciders], data,
                      [r for _, r in deciders], setup["rules_vec"], trace=moves)
        lines = [f"decision {i + 1}: phase {M.PHASE_NAMES[ph]}, move {mv}" for i, (ph, mv) in enumerate(moves)]
        lines.append("result: " + ("won" if g.record()["win"] else f"lost ({M.REASON_NAMES[g.record()['reason']]})"))
        return "\n".join(lines)

    def rule_bounds(self):
        """Bounds of the numbered rule options for the playground (``playtest serve``),
        as ``model.validate_rules`` checks them (upper bounds are the playground's)."""
        b = {"combo_max_total": (0, 40), "solo_flips": (0, 2), "max_turns": (1, 100000)}
        for rank in ("jack", "queen", "king"):
            b.update({f"{rank}_attack": (0, 200), f"{rank}_health": (1, 500), f"{rank}_value": (0, 40)})
        for p in range(1, M.MAX_PLAYERS + 1):
            b.update({f"hand_size_{p}": (1, M.MAX_HAND), f"jesters_{p}": (0, 2)})
        return b

    def record_bytes(self, setup):
        return 8 * (len(RECORD_FIELDS) + 4)


API = RegicideAPI()
