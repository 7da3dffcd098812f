"""River battle bound to its strategies: the cached kernel entry (the shared move-list
driver ``simcore.driver`` over ``simcore.river.kernel``, built-in strategies dispatched
by id per seat), the same games through the reference engine, plug-ins, and the
``GameAPI`` the shared runner, CLI and reports use (``simcore/game.py``).

Seat 0 is the attacker, seat 1 the defender; ``sids`` (int64[2]) names each seat's
strategy. Game ``i`` of seed ``s`` draws its setup from stream ``(s, i, model.DOMAIN)``
and the strategies draw from ``(s, i, model.STRATEGY_DOMAIN)`` (one stream shared by both
seats, in decision order), so records depend on nothing but (seed, i, rules, sids).

Strategy data: each seat's row of ``data`` (float64, ``strategies.bind.seat_data``) is the
game's constant table (``model.make_tables``: tiles, deck, tactic effects) followed by the
strategy's parameters (the search budget); the entries hand every strategy (a plug-in's
too, in both engines) an int64 copy.
"""
from __future__ import annotations

import numba as nb
import numpy as np

from simcore.driver import play_one_nb
from simcore.errors import PlaytestError
from simcore.river import model as M
from simcore.river.kernel import apply_nb, observe_nb, record_nb, score_nb, start_nb
from simcore.river.model import (DOMAIN, MAX_MOVES, N_FIELDS, O_CUR, O_TURN, RECORD_FIELDS, S_LEN,
                                 STRATEGY_DOMAIN)

from strategies.bind import PLUGIN_SID, check_answers, load_plugin, python_plugin, run_plugin, seat_data

from . import BUILTIN
from .basic import heuristic_decide, random_decide
from .search import DEFAULT_BUDGET, search_decide

SID_RANDOM = BUILTIN["random"][0]
SID_HEURISTIC = BUILTIN["heuristic"][0]
SID_SEARCH = BUILTIN["search"][0]
WINNER_COL = RECORD_FIELDS.index("winner")
@nb.njit(cache=True, nogil=True)
def decide_builtin_int(sid, phase, obs, moves, n, rules, tb, rng):
    """``decide_builtin`` given the seat's row already as int64 (the cached chunk converts
    the table once per chunk instead of once per decision)."""
    if sid == SID_RANDOM:
        return random_decide(phase, obs, moves, n, rules, tb, rng)
    if sid == SID_HEURISTIC:
        return heuristic_decide(phase, obs, moves, n, rules, tb, rng)
    return search_decide(phase, obs, moves, n, rules, tb, rng)


def int_row(data) -> np.ndarray:
    """A seat's data row as the built-ins read it: int64 (``np.int64`` of each entry)."""
    data = np.asarray(data)
    return np.ascontiguousarray(data if data.dtype == np.int64 else data.astype(np.int64))


def decide_builtin(sid, phase, obs, moves, n, rules, data, rng):
    """A built-in strategy's answer, from Python (the reference engine, tests): the cached
    chunk's own compiled dispatcher ``decide_builtin_int`` on the row as int64, so no
    second copy of the strategies is compiled for Python callers."""
    return decide_builtin_int(sid, phase, obs, moves, n, rules, int_row(data), rng)


@nb.njit(cache=True, nogil=True, inline="always")
def int_rows_nb(data):
    """The seats' rows as int64, once per chunk (what every strategy reads)."""
    idata = np.empty(data.shape, np.int64)
    for s in range(data.shape[0]):
        for i in range(data.shape[1]):
            idata[s, i] = np.int64(data[s, i])
    return idata


@nb.njit(cache=True, nogil=True, parallel=True)
def chunk_nb(first, stop, seed, seats, sids, reveal, rules, tables, data, trace_cap, out, leads, bad, finals):
    """Games ``first..stop-1`` with built-in strategies (``sids[seat]``) into ``out``."""
    idata = int_rows_nb(data)
    for g in nb.prange(stop - first):
        bad[g] = play_one_nb(start_nb, apply_nb, observe_nb, score_nb, record_nb, decide_builtin_int, DOMAIN,
                             STRATEGY_DOMAIN, S_LEN, MAX_MOVES, O_CUR, O_TURN, WINNER_COL, seed, first + g,
                             seats, sids, reveal, rules, tables, idata, trace_cap, out[g], leads[g], finals[g])


@nb.njit(cache=True, nogil=True, parallel=True)
def plugin_chunk_nb(first, stop, seed, seats, sids, reveal, rules, tables, data, trace_cap, out, leads, bad,
                    finals, decide):
    """``chunk_nb`` with a plug-in in a seat: ``decide`` is the first-class dispatcher of
    ``strategies.bind.run_plugin`` (every seat, the plug-in included, reads int64 rows)."""
    idata = int_rows_nb(data)
    for g in nb.prange(stop - first):
        bad[g] = play_one_nb(start_nb, apply_nb, observe_nb, score_nb, record_nb, decide, DOMAIN,
                             STRATEGY_DOMAIN, S_LEN, MAX_MOVES, O_CUR, O_TURN, WINNER_COL, seed, first + g,
                             seats, sids, reveal, rules, tables, idata, trace_cap, out[g], leads[g], finals[g])


# the built-ins by id, for runs with a plug-in (``strategies.bind.run_plugin``)
BUILTIN_DECIDE = {SID_RANDOM: random_decide, SID_HEURISTIC: heuristic_decide, SID_SEARCH: search_decide}


# ------------------------------------------------------------------ strategies
def check_strategy(spec: str, field: str = "--strategy") -> str:
    if spec in BUILTIN:
        return spec
    if ":" in str(spec):
        load_plugin(spec, field)
        return spec
    raise PlaytestError(f"unknown strategy {spec!r} (built-in: {', '.join(BUILTIN)}; or a plug-in "
                        "package.module:function)", field=field)


def parse_params(text, spec: str) -> list:
    """``--param`` for a seat: search takes ``budget[,candidates[,margin[,z]]]`` (deals per
    move; plays searched; the mean gain per deal, in thousandths of a win, and the standard
    errors, in hundredths, another move must show over the heuristic's; defaults in
    ``search.py``); other strategies take whole numbers as given (plug-ins)."""
    if text is None or text == "":
        return [DEFAULT_BUDGET] if spec == "search" else []
    try:
        vals = [float(v) for v in str(text).split(",")]
    except ValueError:
        raise PlaytestError(f"must be comma-separated numbers, got {text!r}", field="--param") from None
    if spec == "search":
        if not (1 <= vals[0] <= 100000 and vals[0] == int(vals[0])):
            raise PlaytestError(f"search budget (deals per move) must be a whole number 1..100000, got {vals[0]:g}",
                                field="--param")
        names = ("budget", "candidates", "margin (thousandths of a win per deal)", "z (hundredths)")
        limits = ((1, 100000), (1, 64), (0, 1000), (0, 1000))
        if len(vals) > len(names):
            raise PlaytestError(f"search takes at most {len(names)} numbers ({', '.join(names)}), got {text!r}",
                                field="--param")
        for v, name, (lo, hi) in zip(vals, names, limits):
            if not (lo <= v <= hi and v == int(v)):
                raise PlaytestError(f"search {name} must be a whole number {lo}..{hi}, got {v:g}", field="--param")
    elif not all(abs(v) < 2 ** 53 and v == int(v) for v in vals):   # NaN and infinities fail the first test
        raise PlaytestError(f"a river strategy's parameters are whole numbers (its data row is int64), got {text!r}",
                            field="--param")
    return vals


def seat_rows(specs, tables=None, params=None) -> np.ndarray:
    """Per-seat strategy data: the constant table then the seat's parameters."""
    t = tables if tables is not None else M.make_tables()
    return seat_data([list(t.astype(np.float64)) + parse_params(params, s) for s in specs])


def strategy_ids(specs) -> np.ndarray:
    return np.array([BUILTIN[s][0] if s in BUILTIN else PLUGIN_SID for s in specs], np.int64)


# ------------------------------------------------------------------ running games
def play_range(start: int, stop: int, seed: int, rules: dict | None = None, attacker: str = "heuristic",
               defender: str = "heuristic", engine: str = "kernel", keep_states: bool = False,
               tables=None, params=None, trace: bool = False) -> dict:
    """Games ``start..stop-1`` as a dict of record arrays (engine "kernel" or "reference").
    ``tables``: the constant table (default: the shipped data files); ``params``: the
    strategies' ``--param`` text (the search budget)."""
    rules = rules if rules is not None else M.load_rules()
    rv = M.rules_vector(rules)
    specs = (check_strategy(attacker, "--attacker"), check_strategy(defender, "--defender"))
    tables = tables if tables is not None else M.make_tables()
    data = seat_rows(specs, tables, params)
    sids = strategy_ids(specs)
    n = stop - start
    if engine == "reference":
        return _reference_range(start, stop, seed, rules, rv, specs, tables, data, keep_states)
    if engine != "kernel":
        raise PlaytestError(f"unknown engine {engine!r} (kernel, reference)", field="--engine")
    out = np.zeros((n, N_FIELDS), np.int64)
    leads = np.zeros((n, 3), np.float64)
    bad = np.full(n, -1, np.int64)
    finals = np.zeros((n, S_LEN if keep_states else 0), np.int64)
    reveal = np.zeros(2, np.int64)
    plugins = {s for s in specs if s not in BUILTIN}
    if len(plugins) > 1:
        raise PlaytestError("at most one plug-in strategy per run", field="--strategy")
    args = (start, stop, seed, 2, sids, reveal, rv, tables, data, 200 if trace else 0, out, leads, bad, finals)
    if plugins:
        run_plugin(plugins.pop(), plugin_chunk_nb, BUILTIN_DECIDE, args, np.int64)
    else:
        chunk_nb(*args)
    check_answers(bad, specs, start)
    rec = {f: out[:, i].copy() for i, f in enumerate(RECORD_FIELDS)}
    rec["game"] = np.arange(start, stop, dtype=np.int64)
    if trace:
        for i, f in enumerate(("lead_changes", "decided_at", "drama")):
            rec[f] = leads[:, i].copy()
    if keep_states:
        rec["final_state"] = finals
    return rec


def _decider(spec: str):
    """The reference engine calls the same compiled strategies (only the rule code must
    be independent of the kernel)."""
    if spec not in BUILTIN:
        plugin = python_plugin(spec, load_plugin(spec))

        def decide_plugin(phase, obs, moves, n, rules, data, rng):   # the int64 row, as in the kernel
            return plugin(phase, obs, moves, n, rules, int_row(data), rng)
        return decide_plugin
    sid = BUILTIN[spec][0]
    last = [None, None]             # the seat's row and its int64 copy (the same row all run)

    def decide(phase, obs, moves, n, rules, data, rng):
        if data is not last[0]:
            last[0], last[1] = data, int_row(data)
        return decide_builtin_int(sid, phase, obs, moves, n, rules, last[1], rng)
    return decide


def _reference_range(start, stop, seed, rules, rv, specs, tables, data, keep_states):
    from simcore.river.reference import play_game

    deciders = [_decider(s) for s in specs]
    rows, finals = [], []
    for i in range(start, stop):
        g = play_game(rules, seed, i, deciders, tables, rv, data=data)
        if g.illegal_seat >= 0:
            check_answers(np.full(1, g.illegal_seat, np.int64), specs, i)
        r = g.record()
        rows.append([r[f] for f in RECORD_FIELDS])
        if keep_states:
            finals.append(g.vector())
    rec = {f: np.array([r[i] for r in rows], np.int64) for i, f in enumerate(RECORD_FIELDS)}
    rec["game"] = np.arange(start, stop, dtype=np.int64)
    if keep_states:
        rec["final_state"] = np.array(finals, np.int64).reshape(-1, S_LEN)
    return rec


def replay(seed: int, index: int, rules: dict | None = None, attacker: str = "heuristic",
           defender: str = "heuristic", params=None) -> str:
    """The reference engine's play-by-play of one game."""
    from simcore.river.reference import play_game

    rules = rules if rules is not None else M.load_rules()
    specs = (check_strategy(attacker, "--attacker"), check_strategy(defender, "--defender"))
    tables = M.make_tables()
    g = play_game(rules, seed, index, [_decider(s) for s in specs], tables, M.rules_vector(rules),
                  log=True, data=seat_rows(specs, tables, params))
    r = g.record()
    end = (f"winner: {M.ROLES[r['winner']] if r['winner'] >= 0 else 'none'} "
           f"({M.REASON_NAMES[r['reason']]}) after {r['turns']} turns")
    return "\n".join(g.lines + [end]) + "\n"


# end reasons the per-game one-hot ``end_reason`` columns stand for (``model.END_*`` 1..5)
END_KEYS = ("fourth_dam", "destroyed_dam", "deck_out", "turn_cap", "illegal")
END_CODES = (M.END_FOURTH, M.END_DESTROY, M.END_DECKOUT, M.END_CAP, M.END_ILLEGAL)
DAM_COLS = tuple(f"dam{i}" for i in range(1, M.N_TILES + 1))


def derived(rec: dict) -> dict:
    """Per-game facts the report needs, as fields whose column sums are its tables (the
    shared aggregate, ``analysis.aggregate``, sums every integer/boolean field exactly).
    Computed from the engine's record fields (``reason``, ``turns``, ``decide_tile``,
    ``dam1..7``), which both engines produce identically (``tests/test_river_twins.py``):

    ``end_reason[g, k]``   game g ended by ``END_KEYS[k]``
    ``end_turns[g, k]``    its turns if it ended so, else 0 (sum / count = mean length)
    ``dam_hit[g, t]``      dam with tile id t+1 was damaged (or destroyed) by the end
    ``dam_destroyed[g, t]`` ... destroyed
    ``dam_decided[g, t]``  ... its damage or destruction won the game for the attacker
    """
    reason = np.asarray(rec["reason"]).astype(np.int64)
    turns = np.asarray(rec["turns"]).astype(np.int64)
    end = reason[:, None] == np.array(END_CODES, np.int64)[None, :]
    dams = np.stack([np.asarray(rec[c]).astype(np.int64) for c in DAM_COLS], axis=1) if reason.size else \
        np.zeros((0, M.N_TILES), np.int64)
    tiles = np.arange(1, M.N_TILES + 1, dtype=np.int64)
    return {"end_reason": end, "end_turns": np.where(end, turns[:, None], 0),
            "dam_hit": dams >= 1, "dam_destroyed": dams == 2,
            "dam_decided": np.asarray(rec["decide_tile"]).astype(np.int64)[:, None] == tiles[None, :]}


def typed(rec: dict) -> dict:
    """Records with the shared dtypes of the standard fields, the derived report fields
    (:func:`derived`) and, when traced, the three lead statistics as one ``leads`` column
    (what the shared aggregate reads)."""
    out = dict(rec)
    for f, dt in M.RECORD_DTYPES.items():
        out[f] = np.asarray(rec[f]).astype(dt)
    out.update(derived(rec))
    if all(f in rec for f in ("lead_changes", "decided_at", "drama")):
        out["leads"] = np.stack([np.asarray(rec[f], np.float64) for f in ("lead_changes", "decided_at", "drama")],
                                axis=1)
    return out


# ---------------------------------------------------------------- the game interface
from simcore.game import GameAPI  # noqa: E402


class RiverAPI(GameAPI):
    """The river battle as the shared runner, CLI and report see it (``simcore/game.py``):
    two roles, seat 0 = attacker, seat 1 = defender; any strategy in either role. Its own
    keys of the result document and its report sections are found by the game's name in the
    layers that make them (``analysis/river.py``, ``reports/sections.py``)."""

    end_keys = END_KEYS   # the end reasons of the ``end_reason`` columns (analysis.river.facts)

    @property
    def type(self):
        from simcore.game import game_type

        return game_type("river")

    def load_rules(self, path=None, overrides=None):
        return M.load_rules(path, overrides)

    def entrant_names(self, content):
        return list(M.ROLES)

    def strategies(self):
        return {k: d for k, (_, d) in BUILTIN.items()}

    def check_strategy(self, spec):
        return check_strategy(spec)

    def make_setup(self, rules, content, seats, params=None):
        if seats != 2:
            raise PlaytestError(f"the river battle has exactly 2 seats (attacker, defender), got {seats}",
                                field="--seats")
        return {"rules": rules, "rules_vec": M.rules_vector(rules), "params": params}

    def play(self, start, stop, seed, setup, lineup, seat_strategies, engine="kernel", trace=False):
        a, d = tuple(seat_strategies)
        rec = play_range(start, stop, seed, setup["rules"], a, d, engine, params=setup["params"],
                         trace=trace and engine == "kernel")
        return typed(rec)

    def replay(self, setup, lineup, seat_strategies, seed, index):
        a, d = tuple(seat_strategies)
        return replay(seed, index, setup["rules"], a, d, setup["params"])

    def record_bytes(self, setup):
        return 8 * (len(RECORD_FIELDS) + 4) + 10 * len(END_KEYS) + 3 * M.N_TILES

    def report_plan(self):
        # 4 matchups x 10,000 games, then the rule sweeps (reports/river.py): a few minutes
        return {"strategies": ["random", "heuristic"], "games": 10000, "seats": [2]}


API = RiverAPI()
