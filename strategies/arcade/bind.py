"""Throne Arcade bound to its strategies: the cached kernel entry (the shared move-list
driver of ``simcore.driver`` over ``simcore.arcade.kernel``, built-in strategies
dispatched by id per seat), the same games through the reference engine, plug-ins, and
the game interface object ``API`` (``simcore/game.py``).

- ``decide_builtin(sid, ...)`` dispatches by integer id (``SID_*`` in ``__init__``) inside
  one cached kernel, so any strategy sits in any seat without recompiling.
- ``play_range(start, stop, seed, players, strategies, ...)`` (module level, picklable for
  joblib workers) returns the record arrays of games ``start..stop-1`` from engine
  ``"kernel"`` or ``"reference"``; both give identical records (tests/test_arcade_twins.py).

Game ``i`` of seed ``s`` draws its shuffles from stream ``(s, i, model.DOMAIN)`` and hands
the strategies stream ``(s, i, model.STRATEGY_DOMAIN)``: records do not depend on chunking.
"""
from __future__ import annotations

import numba as nb
import numpy as np

from simcore.arcade import model as M
from simcore.arcade.kernel import (apply_nb, legal_moves_nb, observe_nb, record_nb, score_nb, start_game_nb, start_nb,
                                   step_nb)
from simcore.arcade.model import DOMAIN, MAX_MOVES, MAX_PLAYERS, N_FIELDS, O_CUR, O_HAND, O_TURN, PH_DONE, \
    RECORD_DTYPES, RECORD_FIELDS, S_LEN, STRATEGY_DOMAIN
from simcore.driver import play_one_nb as driver_play_one_nb
from simcore.leads import lead_stats_nb
from simcore.rng import init_state_nb
from simcore.errors import PlaytestError
from strategies.bind import (PLUGIN_SID, check_answers, load_plugin, python_plugin, run_plugin, seat_data,
                             seat_strategies)

from . import SID_DEFENSIVE, SID_GREEDY, SID_RANDOM, SID_SEARCH, get_strategy, parse_params
from .basic import defensive_decide, greedy_decide, greedy_move_nb, greedy_view_nb, greedy_view_start_nb, random_decide
from .search import search_decide

WINNER_COL = RECORD_FIELDS.index("winner")
# turns of the per-turn score trace kept for the lead statistics (a greedy 6-player game
# is ~2,200 turns; the random player's longest games are cut here)
TRACE_TURNS = 8192
GAMES_PER_BLOCK = 32    # chunk_nb: games played one after another with the same work arrays


@nb.njit(cache=True, nogil=True, inline="always")   # inlined into the chunk: one call fewer a turn
def decide_basic(sid, phase, obs, moves, n_moves, rules, data, rng):
    """The built-ins that allocate no memory (every one but ``search``)."""
    if sid == SID_GREEDY:
        return greedy_decide(phase, obs, moves, n_moves, rules, data, rng)
    if sid == SID_DEFENSIVE:
        return defensive_decide(phase, obs, moves, n_moves, rules, data, rng)
    return random_decide(phase, obs, moves, n_moves, rules, data, rng)


@nb.njit(cache=True, nogil=True, inline="always")
def decide_builtin(sid, phase, obs, moves, n_moves, rules, data, rng):
    if sid == SID_SEARCH:
        return search_decide(phase, obs, moves, n_moves, rules, data, rng)
    return decide_basic(sid, phase, obs, moves, n_moves, rules, data, rng)


# ---------------------------------------------------------------- one game in the chunk
# ``simcore.driver.play_one_nb`` over this game's kernel and built-in strategies, with two
# differences that change nothing played (``tests/test_arcade_twins.py`` holds the chunk
# to the reference engine, which lists every move and calls ``greedy_decide``):
# - a ``greedy`` seat's move comes from ``greedy_move_nb``: the move ``greedy_decide``
#   picks from the sorted list, found without the list, on ``view`` (the part of the
#   observation greedy reads); the kernel advances with ``step_nb`` and lists the legal
#   moves only for the other seats;
# - the turns run in ``play_turns_nb``, compiled without numba's reference counting
#   (``_nrt=False``): with it, every inlined kernel function incremented and decremented
#   the count of each array it was handed, atomic operations that cost more than the
#   rules (measured: 66 -> 47 ns a turn). Such a function must allocate nothing, so a
#   ``search`` seat (which allocates) decides in the caller, ``play_one_nb``.
_BAD, _N_TRACE, _LAST_TURN = 0, 1, 2        # ctl: the illegal answer's seat, trace rows, last traced turn


@nb.njit(cache=True, nogil=True, inline="always")
def listed_turn_nb(decide, S, phase, obs, moves, rng, srng, sids, reveal, rules, tables, data, ctl):
    """One turn of a seat whose strategy reads the legal-move list; returns the phase
    (an answer outside the list stops the game: ``ctl[_BAD]`` = that seat)."""
    seat = S[O_CUR]
    n = legal_moves_nb(S, rules, tables, moves)
    if reveal[seat] != 0:
        for i in range(S_LEN):
            obs[i] = S[i]
    else:
        observe_nb(S, obs, seat, tables)
    k = decide(sids[seat], phase, obs, moves, n, rules, data[seat], srng)
    if k < 0 or k >= n:
        ctl[_BAD] = seat
        return phase
    return step_nb(S, moves[k], rules, tables, rng)


@nb.njit(cache=True, nogil=True, inline="always")
def trace_turn_nb(S, trace, ctl):
    """The score after a turn into the next ``trace`` row (when tracing, once per turn)."""
    if trace.shape[0] > 0 and S[O_TURN] != ctl[_LAST_TURN]:
        ctl[_LAST_TURN] = S[O_TURN]
        if ctl[_N_TRACE] < trace.shape[0]:
            score_nb(S, trace[ctl[_N_TRACE]])
            ctl[_N_TRACE] += 1


@nb.njit(cache=True, nogil=True, _nrt=False)
def play_turns_nb(S, phase, obs, view, moves, rng, srng, sids, reveal, rules, tables, data, trace, ctl):
    """Turns until the game ends, an answer is illegal, or a ``search`` seat is to act;
    returns the phase."""
    while phase != PH_DONE:
        seat = S[O_CUR]
        sid = sids[seat]
        if sid == SID_GREEDY:
            greedy_view_nb(S, view, seat)
            move = greedy_move_nb(view, rules, tables)
            view[O_HAND + seat] = 0
            phase = step_nb(S, move, rules, tables, rng)
        elif sid == SID_SEARCH:
            return phase
        else:
            phase = listed_turn_nb(decide_basic, S, phase, obs, moves, rng, srng, sids, reveal, rules, tables,
                                   data, ctl)
            if ctl[_BAD] >= 0:
                return phase
        trace_turn_nb(S, trace, ctl)
    return phase


@nb.njit(cache=True, nogil=True, inline="always")
def play_one_nb(seed, index, seats, sids, reveal, rules, tables, data, out_row, lead_row, final_row,
                S, obs, view, moves, rng, srng, trace, ctl):
    """Game ``index`` from its own streams, as ``simcore.driver.play_one_nb``: the record
    into ``out_row``, the lead statistics into ``lead_row`` when ``trace`` has rows, the
    final state into ``final_row`` (if not empty); returns the seat of an illegal answer
    (-1 if none). The work arrays (``S`` .. ``ctl``) are reused from game to game: each
    is rewritten before it is read (``S`` and the streams at the start, ``obs`` and
    ``moves`` at each listed turn, ``trace`` row by row, ``view`` holds only the game's
    constants and the seat to act's part of the observation, its hand wiped after use)."""
    trace_cap = trace.shape[0]
    init_state_nb(rng, seed, index, DOMAIN)
    init_state_nb(srng, seed, index, STRATEGY_DOMAIN)
    ctl[_BAD] = -1
    ctl[_N_TRACE] = 0
    phase = start_game_nb(S, seats, rules, tables, rng)
    greedy_view_start_nb(S, view)
    ctl[_LAST_TURN] = S[O_TURN]
    while True:
        phase = play_turns_nb(S, phase, obs, view, moves, rng, srng, sids, reveal, rules, tables, data, trace, ctl)
        if phase == PH_DONE or ctl[_BAD] >= 0:
            break
        phase = listed_turn_nb(decide_builtin, S, phase, obs, moves, rng, srng, sids, reveal, rules, tables, data,
                               ctl)                     # a search seat
        if ctl[_BAD] >= 0:
            break
        trace_turn_nb(S, trace, ctl)
    b = ctl[_BAD]
    nt = ctl[_N_TRACE]
    if b < 0 and trace_cap > 0 and nt < trace_cap:
        score_nb(S, trace[nt])  # the final position
        nt += 1
    record_nb(S, out_row)
    for i in range(final_row.shape[0]):
        final_row[i] = S[i]
    if trace_cap > 0:
        lead_stats_nb(trace, nt, seats, out_row[WINNER_COL] if b < 0 else -1, lead_row)
    return b


# the built-ins by id, for runs with a plug-in (``strategies.bind.run_plugin``)
BUILTIN_DECIDE = {SID_RANDOM: random_decide, SID_GREEDY: greedy_decide, SID_DEFENSIVE: defensive_decide,
                  SID_SEARCH: search_decide}


@nb.njit(cache=True, nogil=True, parallel=True)
def plugin_chunk_nb(first, stop, seed, players, sids, reveal, rules, tables, data, trace_cap, out, leads, bad,
                    finals, decide):
    """Games with a plug-in in a seat, through the shared driver (``simcore.driver``: every
    seat gets the legal-move list): ``decide`` is the first-class dispatcher of
    ``strategies.bind.run_plugin``."""
    for g in nb.prange(stop - first):
        bad[g] = driver_play_one_nb(start_nb, apply_nb, observe_nb, score_nb, record_nb, decide, DOMAIN,
                                    STRATEGY_DOMAIN, S_LEN, MAX_MOVES, O_CUR, O_TURN, WINNER_COL, seed, first + g,
                                    players, sids, reveal, rules, tables, data, trace_cap, out[g], leads[g],
                                    finals[g])


@nb.njit(cache=True, nogil=True, parallel=True)
def chunk_nb(first, stop, seed, players, sids, reveal, rules, tables, data, trace_cap, out, leads, bad, finals):
    """Games ``first..stop-1``, seat ``p`` played by built-in ``sids[p]``, records into ``out``."""
    n = stop - first
    blocks = (n + GAMES_PER_BLOCK - 1) // GAMES_PER_BLOCK   # work arrays allocated once per block
    for b in nb.prange(blocks):
        S = np.zeros(S_LEN, np.int64)
        obs = np.zeros(S_LEN, np.int64)
        view = np.zeros(S_LEN, np.int64)       # greedy's part of the observation only
        moves = np.zeros(MAX_MOVES, np.int64)
        rng = np.empty(2, np.uint64)
        srng = np.empty(2, np.uint64)
        trace = np.zeros((trace_cap, players), np.float64)
        ctl = np.zeros(3, np.int64)
        for g in range(n * b // blocks, n * (b + 1) // blocks):
            bad[g] = play_one_nb(seed, first + g, players, sids, reveal, rules, tables, data, out[g], leads[g],
                                 finals[g], S, obs, view, moves, rng, srng, trace, ctl)


def _records(rows: np.ndarray, start: int, stop: int, players: int) -> dict:
    """The record table of both engines, plus the per-game facts of the arcade tables
    (``simcore.arcade.derived.DERIVED``), derived here from the record fields for either engine."""
    from simcore.arcade.derived import derived_fields

    rec = {name: rows[:, i].astype(dt) for i, (name, dt) in enumerate(RECORD_DTYPES)}
    rec["game"] = np.arange(start, stop, dtype=np.int64)
    rec.update(derived_fields(rec, players))
    return rec


def seat_specs(strategies, players: int):
    specs = seat_strategies(strategies, players)
    strats = [get_strategy(s) for s in specs]
    for s in strats:
        if s.sid < 0:
            load_plugin(s.plugin)     # fail early with a one-line error
    return specs, strats


def reference_deciders(strats):
    """The reference engine calls the same compiled strategy functions (only the rule
    code must be independent of the kernel)."""
    out = []
    for s in strats:
        if s.sid < 0:
            out.append(python_plugin(s.plugin, load_plugin(s.plugin)))
        else:
            out.append((lambda sid: (lambda ph, obs, mv, n, rv, d, rng:
                                     decide_builtin(sid, ph, obs, mv, n, rv, d, rng)))(s.sid))
    return out


def play_range(start: int, stop: int, seed: int, players: int, strategies="greedy", rules: dict | None = None,
               deck: M.Deck | None = None, engine: str = "kernel", keep_states: bool = False, params=None,
               trace: bool = False) -> dict:
    """Games ``start..stop-1`` of the run with ``seed``: dict of record arrays (plus
    ``final_state`` rows when ``keep_states``; lead statistics when ``trace``, kernel only)."""
    rules = M.load_rules() if rules is None else rules
    deck = M.load_deck() if deck is None else deck
    players = M.check_players(players, rules, deck)
    specs, strats = seat_specs(strategies, players)
    rv = M.rules_vector(rules)
    tables = M.build_tables(deck, rules)
    data = seat_data([parse_params(params, s) for s in strats])
    n = stop - start
    if engine == "kernel":
        sids = np.array([PLUGIN_SID if s.sid < 0 else s.sid for s in strats], np.int64)
        reveal = np.zeros(players, np.int64)
        out = np.zeros((n, N_FIELDS), np.int64)
        leads = np.zeros((n, 3), np.float64)
        bad = np.full(n, -1, np.int64)
        finals = np.zeros((n, S_LEN if keep_states else 0), np.int64)
        trace_cap = TRACE_TURNS if trace else 0
        args = (start, stop, seed, players, sids, reveal, rv, tables, data, trace_cap, out, leads, bad, finals)
        plugins = {s.plugin for s in strats if s.sid < 0}
        if len(plugins) > 1:
            raise PlaytestError("at most one plug-in strategy per run", field="--strategy")
        if plugins:
            run_plugin(plugins.pop(), plugin_chunk_nb, BUILTIN_DECIDE, args)
        else:
            chunk_nb(*args)
        check_answers(bad, specs, start)
        rec = _records(out, start, stop, players)
        if trace:
            rec["leads"] = leads
            for i, f in enumerate(("lead_changes", "decided_at", "drama")):
                rec[f] = leads[:, i].copy()
        if keep_states:
            rec["final_state"] = finals
        return rec
    if engine != "reference":
        raise PlaytestError(f"unknown engine {engine!r} (kernel, reference)", field="--engine")
    from simcore.arcade.reference import play_game

    deciders = reference_deciders(strats)
    rows, finals = [], []
    for i in range(start, stop):
        g = play_game(players, rules, deck, seed, i, deciders, data, rules_vec=rv)
        if g.illegal_seat >= 0:
            check_answers(np.array([g.illegal_seat], np.int64), specs, i)
        r = g.record()
        rows.append([int(r[f]) for f in RECORD_FIELDS])
        if keep_states:
            finals.append(g.vector())
    rec = _records(np.array(rows, np.int64).reshape(-1, N_FIELDS), start, stop, players)
    if keep_states:
        rec["final_state"] = np.array(finals, np.int64).reshape(-1, S_LEN)
    return rec


def replay_log(seed: int, game: int, players: int, strategies="greedy", rules: dict | None = None,
               deck: M.Deck | None = None, params=None) -> str:
    """The reference engine's play-by-play of one game, as text."""
    from simcore.arcade.reference import play_game

    rules = M.load_rules() if rules is None else rules
    deck = M.load_deck() if deck is None else deck
    players = M.check_players(players, rules, deck)
    specs, strats = seat_specs(strategies, players)
    data = seat_data([parse_params(params, s) for s in strats])
    g = play_game(players, rules, deck, seed, game, reference_deciders(strats), data, log=True)
    head = [f"Throne Arcade, {players} players, seed {seed}, game {game}",
            "seats: " + ", ".join(f"{p}={nm}" for p, nm in enumerate(specs))]
    r = g.record()
    tail = [f"result: winner {r['winner']}, capped {r['capped']}, rounds {r['rounds']}, turns {r['turns']}, "
            f"revives {r['revives']}, losses " + " ".join(str(r[f'losses_{p}']) for p in range(players))]
    return "\n".join(head + g.log_lines() + tail) + "\n"


# ---------------------------------------------------------------- the game interface
from simcore.game import GameAPI  # noqa: E402


class ArcadeAPI(GameAPI):
    """Throne Arcade as the shared runner, CLI and report see it (``simcore/game.py``)."""

    @property
    def type(self):
        from simcore.game import game_type

        return game_type("arcade")

    def load_rules(self, path=None, overrides=None):
        return M.load_rules(path, overrides)

    def load_content(self, rules, path=None):
        return M.load_deck(path)

    def strategies(self):
        from . import BUILTIN

        return {k: s.description for k, s in BUILTIN.items()}

    def check_strategy(self, spec):
        s = get_strategy(spec)
        if s.sid < 0:
            load_plugin(s.plugin)
        return s.name

    def make_setup(self, rules, content, seats, params=None):
        deck = content if content is not None else M.load_deck()
        return {"players": M.check_players(seats, rules, deck), "rules": rules, "deck": deck, "params": params}

    def play(self, start, stop, seed, setup, lineup, seat_strategies, engine="kernel", trace=False):
        rec = play_range(start, stop, seed, setup["players"], tuple(seat_strategies), rules=setup["rules"],
                         deck=setup["deck"], engine=engine, params=setup["params"],
                         trace=trace and engine == "kernel")
        rec["capped"] = rec["capped"].astype(bool)
        return rec

    def reduce(self, rec):
        """The histogram of the turns of the finished games (``turns_finished``; a capped
        game stops at the cap): the median and percentiles of ``analysis.arcade.lengths``
        (the shared histogram of turns counts every game)."""
        turns = np.asarray(rec["turns"], np.int64)
        return {"turns_finished": np.bincount(turns[~np.asarray(rec["capped"], bool)], minlength=1)}

    def replay(self, setup, lineup, seat_strategies, seed, index):
        return replay_log(seed, index, setup["players"], tuple(seat_strategies), rules=setup["rules"],
                          deck=setup["deck"], params=setup["params"]).rstrip("\n")

    def report_plan(self):
        # the three fast strategies, every one in every seat at 4 players (24 lineups): a
        # minute or two on two cores; the arcade sections add 2-6 players (reports/arcade.py)
        return {"strategies": ["random", "greedy", "defensive"], "games": 1000, "seats": [4]}

    def record_bytes(self, setup):
        # + simcore.arcade.derived.DERIVED: each field at most 8 bytes (int64 or bool), but the int8
        # place grid (counted from the list, so a field added there is counted here)
        from simcore.arcade.derived import DERIVED

        return 8 * (N_FIELDS + 4) + 8 * (len(DERIVED) - 1) + MAX_PLAYERS * MAX_PLAYERS


API = ArcadeAPI()
