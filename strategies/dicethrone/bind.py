"""Dice Throne bound to its strategies: the cached kernel entry (the shared move-list
driver of ``simcore.driver`` over ``simcore.dicethrone.kernel``, built-in strategies
dispatched by id per seat), the same games through the reference engine, plug-ins, and
the game interface object ``API`` (``simcore/game.py``).

Game ``i`` of a run with seed ``s`` draws from stream ``(s, i, model.DOMAIN)`` (rules) and
``(s, i, model.STRATEGY_DOMAIN)`` (strategies) only: records do not depend on chunking or
jobs, and the kernel and the reference engine play the same game
(``tests/test_dicethrone_twins.py``).
"""
from __future__ import annotations

from functools import lru_cache

import numba as nb
import numpy as np

from simcore.dicethrone import model as M
from simcore.dicethrone.borrow import borrow, keep_alive_nb, table_ptrs
from simcore.dicethrone.kernel import OBS_LITE, OBS_NONE, apply_tp_nb, observe_nb, record_nb, score_nb, start_nb
from simcore.driver import play_one_nb
from simcore.errors import PlaytestError
from simcore.game import GameAPI, LEAD_FIELDS

from strategies.bind import PLUGIN_SID, check_answers, load_plugin, python_plugin, run_plugin, seat_strategies

from . import BUILTIN
from .basic import greedy_decide, random_decide, strategy_data
from .optimal import D_BUDGET, D_EXT, D_HORIZON, D_OPT, D_TABLES, optimal_block, optimal_decide
from .search import pack_tables, search_decide

SID_RANDOM = BUILTIN["random"][0]
SID_GREEDY = BUILTIN["greedy"][0]
SID_OPTIMAL = BUILTIN["optimal"][0]
SID_SEARCH = BUILTIN["search"][0]
WINNER_COL = M.RECORD_FIELDS.index("winner")



# compiled without reference counting (greedy and random allocate nothing: the counts it
# kept on obs, moves, rules, data and the stream at every decision were a twentieth of
# the time); optimal and search ask for theirs explicitly (a callee inherits the setting)
@nb.njit(cache=True, nogil=True, _nrt=False)
def decide_builtin(sid, phase, obs, moves, n_moves, rules, data, rng):
    if sid == SID_GREEDY:
        return greedy_decide(phase, obs, moves, n_moves, rules, data, rng)
    if sid == SID_OPTIMAL:
        return optimal_decide(phase, obs, moves, n_moves, rules, data, rng)
    if sid == SID_SEARCH:
        return search_decide(phase, obs, moves, n_moves, rules, data, rng)
    return random_decide(phase, obs, moves, n_moves, rules, data, rng)


# the built-ins by id, for runs with a plug-in (``strategies.bind.run_plugin``)
BUILTIN_DECIDE = {SID_RANDOM: random_decide, SID_GREEDY: greedy_decide, SID_OPTIMAL: optimal_decide,
                  SID_SEARCH: search_decide}


BLOCKS = 64   # fixed (not the thread count: numba cannot cache a function that asks for it)


@nb.njit(cache=True, nogil=True, parallel=True)
def chunk_nb(first, stop, seed, seats, sids, reveal, rules, tables, data, trace_cap, out, leads, bad, finals):
    """Games ``first..stop-1`` (heroes: ``T.lineup``; strategies: ``sids[seat]``);
    ``tables``: the address table of the content tables ``T`` (``borrow.table_ptrs``).

    The games are cut into up to ``BLOCKS`` blocks, shared out among the threads; each
    block plays on its own copy of the address table, rules and strategy ids: numba
    updates the reference count of every array a compiled call receives, and two cores
    updating the same counts made the second core nearly useless. Game ``g`` still draws
    only from its own streams, so the records do not depend on the blocks. The games play
    on borrowed views of those copies (``simcore.dicethrone.borrow``): the same numbers,
    without numba's reference counting at every call."""
    n = stop - first
    nblocks = min(n, BLOCKS)
    for blk in nb.prange(nblocks):
        # the address table, with a flag per seat past its fields: that seat's built-in
        # (greedy, random) reads only the lite observation (kernel.observe_nb); when every
        # seat plays random, no seat reads one (OBS_NONE: none is copied)
        tp0 = np.zeros(max(tables.shape[0], OBS_LITE + M.MAX_SEATS), np.int64)
        tp0[:tables.shape[0]] = tables
        blind = True
        for s in range(seats):
            if sids[s] != SID_RANDOM:
                blind = False
        for s in range(seats):
            tp0[OBS_LITE + s] = OBS_NONE if blind else 1 if sids[s] == SID_GREEDY or sids[s] == SID_RANDOM else 0
        tp = borrow(tp0)
        rv0 = rules.copy()
        rv = borrow(rv0)
        # the strategies' data (4.5 MB a seat: optimal's tables) is only read: every block
        # borrows the caller's array (a copy per block cost 64 copies of 9 MB a call)
        dat = borrow(data)
        sd = sids.copy()
        rev = reveal.copy()
        for g in range(blk * n // nblocks, (blk + 1) * n // nblocks):
            bad[g] = play_one_nb(start_nb, apply_tp_nb, observe_nb, score_nb, record_nb, decide_builtin, M.DOMAIN,
                                 M.STRATEGY_DOMAIN, M.O_SEATS + seats * M.P_LEN, M.MAX_MOVES, M.O_CUR, M.O_TURN,
                                 WINNER_COL, seed, first + g, seats, sd, rev, rv, tp, dat, trace_cap, out[g], leads[g],
                                 finals[g])
        keep_alive_nb(tp0, rv0, rv0)   # the borrowed views point into these: they outlive the games


@nb.njit(cache=True, nogil=True, parallel=True)
def plugin_chunk_nb(first, stop, seed, seats, sids, reveal, rules, tables, data, trace_cap, out, leads, bad,
                    finals, decide):
    """Games with a plug-in in a seat: ``decide`` is the first-class dispatcher of
    ``strategies.bind.run_plugin``; every seat gets the full observation (``tables`` has
    no lite flags)."""
    for g in nb.prange(stop - first):
        bad[g] = play_one_nb(start_nb, apply_tp_nb, observe_nb, score_nb, record_nb, decide, M.DOMAIN,
                             M.STRATEGY_DOMAIN, M.O_SEATS + seats * M.P_LEN, M.MAX_MOVES, M.O_CUR, M.O_TURN,
                             WINNER_COL, seed, first + g, seats, sids, reveal, rules, tables, data, trace_cap, out[g],
                             leads[g], finals[g])


@lru_cache(maxsize=4)
def default_roster(heroes_dir=None):
    """The roster of a heroes folder (default: the shipped one), made and checked once."""
    from simcore.dicethrone.roster import Roster

    return Roster(heroes_dir)


_MATCHUPS: dict = {}
MATCHUPS_KEPT = 4     # matchups whose strategy data is kept (optimal's tables: ~10 MB each)


def matchup_tables(roster, heroes) -> tuple:
    """``(content, tables, strategy data)`` of the matchup of ``heroes`` (names or roster
    indices, any seat order): content per matchup (``simcore.dicethrone.roster``), kept
    for the last few matchups, by the roster's key (its files' text)."""
    key = (roster.key, roster.matchup(heroes))
    hit = _MATCHUPS.get(key)
    if hit is None:
        content = roster.content(heroes)
        T = M.build_tables(content)
        hit = (content, T, full_data(content, T))
        if len(_MATCHUPS) >= MATCHUPS_KEPT:
            _MATCHUPS.pop(next(iter(_MATCHUPS)))
        _MATCHUPS[key] = hit
    return hit


def content_tables(heroes, heroes_dir=None) -> tuple:
    """``matchup_tables`` of the shipped heroes folder (or ``heroes_dir``)."""
    return matchup_tables(default_roster(str(heroes_dir) if heroes_dir else None), heroes)


def full_data(content, T) -> np.ndarray:
    """The strategies' data: ``basic.strategy_data`` (greedy), then a small header
    (``optimal.D_*``: where the blocks start, the search budget and horizon, 0 = default)
    and the blocks of ``optimal`` (its DP tables) and ``search`` (the packed content tables)."""
    base = strategy_data(T, content)
    head = np.zeros(D_EXT - base.size, np.float64)
    opt = optimal_block(content, T, D_EXT)
    tab = pack_tables(T, D_EXT + opt.size)
    head[D_OPT - base.size] = D_EXT
    head[D_TABLES - base.size] = D_EXT + opt.size
    return np.concatenate([base, head, opt, tab])


def parse_params(text) -> dict:
    """The shared ``--param`` text (as the river's and the arcade's: comma-separated numbers,
    given to every seat that plays ``search``) for Dice Throne: ``BUDGET[,HORIZON]``, the
    search's rollouts per move and, optionally, how many turns a rollout plays. Checked
    here, before any game: a whole number 1..100000 (1..1000 turns). ``{}`` when not given."""
    from strategies.bind import parse_search_params

    return parse_search_params(text, (("search_budget", "search budget (rollouts per move)", 100_000),
                                      ("search_horizon", "search horizon (turns per rollout)", 1000)),
                               "the search budget and at most a horizon (BUDGET[,HORIZON])")


_SEAT_DATA: dict = {}


def _default_seat_data(data1, seats=2) -> np.ndarray:
    """``seat_data(data1)``, kept for the last few ``data1`` (stacking two rows of 25 MB
    took ~7 ms a call: as long as 200 greedy games). Only for the built-in strategies,
    which never write to it (a plug-in gets a fresh copy)."""
    hit = _SEAT_DATA.get((id(data1), seats))
    if hit is not None and hit[0] is data1:
        return hit[1]
    if len(_SEAT_DATA) >= 4:
        _SEAT_DATA.clear()
    data = seat_data(data1, seats=seats)
    _SEAT_DATA[(id(data1), seats)] = (data1, data)
    return data


_LINEUP_PTRS: dict = {}


def _lineup_ptrs(T, lineup):
    """``(with_lineup(T, lineup), its address table)``, kept for the last few ``(T, lineup)``
    (the address table is read, never written; building it in Python took a twentieth of a
    200-game run). The cache holds the tables alive while their addresses are in use."""
    key = (id(T), tuple(int(h) for h in lineup))
    hit = _LINEUP_PTRS.get(key)
    if hit is not None and hit[0] is T:
        return hit[1], hit[2]
    if len(_LINEUP_PTRS) >= 8:
        _LINEUP_PTRS.clear()
    Tl = M.with_lineup(T, lineup)
    tp = table_ptrs(Tl)
    _LINEUP_PTRS[key] = (T, Tl, tp)
    return Tl, tp


def seat_data(data1, search_budget=None, search_horizon=None, seats=2) -> np.ndarray:
    """One row of strategy data per seat (the search budget and horizon set when given)."""
    data = np.stack([data1] * seats)
    if search_budget is not None:
        if not 1 <= int(search_budget) <= 100_000:
            raise PlaytestError(f"search budget (rollouts per move) must be 1..100000, got {search_budget}",
                                field="--param")
        data[:, D_BUDGET] = int(search_budget)
    if search_horizon is not None:
        if not 1 <= int(search_horizon) <= 1000:
            raise PlaytestError(f"search horizon (turns) must be 1..1000, got {search_horizon}", field="--param")
        data[:, D_HORIZON] = int(search_horizon)
    return data


def roster_of(heroes):
    """The roster a hero list was loaded with (``DiceThroneAPI.load_content``; edited or
    from another folder), or the shipped one for an empty list."""
    return getattr(heroes[0], "_roster", None) if heroes else default_roster()


def tables_tuple(content, T) -> tuple:
    """``(content, tables, strategy data)`` as ``play_range(tables=...)`` takes them, for
    tables changed in memory (``analysis/dicethrone_cards.py`` blanks one card in a deck)."""
    return content, T, full_data(content, T)


def hero_index(name, roster=None) -> int:
    """The roster index of a hero (id or index)."""
    return (roster or default_roster()).index(name)


def strategy_id(spec: str) -> int:
    if spec in BUILTIN:
        return BUILTIN[spec][0]
    if ":" in str(spec):
        return PLUGIN_SID
    raise PlaytestError(f"unknown strategy {spec!r} (built in: {', '.join(BUILTIN)}; or package.module:function)",
                        field="--strategy")


USE0 = M.RECORD_FIELDS.index(M.USE_FIELDS[0])
assert M.RECORD_FIELDS[USE0:] == M.USE_FIELDS    # the per-token and per-card counts close the row
RECORD_CHUNK = 4096   # games a kernel call writes into one reused row buffer (6 MB)


def _use0(fields) -> int:
    """The first per-token or per-card count of ``fields`` (they close the row)."""
    return next(i for i, f in enumerate(fields) if f.startswith(("tok", "card")) and f[-2] == "_")


def _record_columns(n, fields=M.RECORD_FIELDS):
    """The record columns of ``n`` games: the first fields as int64 (one row each) and the
    per-token and per-card counts as ``USE_DTYPE``."""
    u = _use0(fields)
    return np.empty((u, n), np.int64), np.empty((len(fields) - u, n), M.USE_DTYPE)


def _store_rows(out, core, use, at):
    """Rows ``out`` (one a game, ``model.record_fields``) into the columns from game ``at``."""
    m = out.shape[0]
    u = core.shape[0]
    core[:, at:at + m] = out[:, :u].T
    use[:, at:at + m] = out[:, u:].T


def _records(core, use, leads, start, trace, fields=M.RECORD_FIELDS):
    """The record arrays of a run from its columns (``_record_columns``): each field one
    contiguous row."""
    u = core.shape[0]
    rec = {f: core[i] for i, f in enumerate(fields[:u])}
    rec["winner"] = rec["winner"].astype(np.int8)
    rec["capped"] = rec["capped"].astype(bool)
    rec["turns"] = rec["turns"].astype(np.int32)
    rec["first"] = rec["first"].astype(np.int8)
    for k, f in enumerate(fields[u:]):
        rec[f] = use[k]
    rec["game"] = np.arange(start, start + core.shape[1], dtype=np.int64)
    if trace:
        for i, f in enumerate(LEAD_FIELDS):
            rec[f] = leads[:, i].copy()
    return rec


def _lineup_of(roster, heroes, content) -> tuple[list, list]:
    """(the seats' roster indices, the seats' hero indices in ``content``)."""
    ids = [roster.index(h) for h in heroes]
    order = list(content.heroes)
    names = [roster.names[i] for i in ids]
    for n in names:
        if n not in order:
            raise PlaytestError(f"the tables given hold {', '.join(order)}, not {n}", field="--hero")
    return ids, [order.index(n) for n in names]


def _roster_records(rec: dict, ids) -> dict:
    """The engines write the content's hero index; records hold the roster's. (With more than
    two seats the engines also write each seat's ``place<p>``, 1 = won, places shared by the
    teams out at once and by a capped game's survivors, and ``out<p>``: modes/DESIGN.md 1.6.)"""
    for p in range(len(ids)):
        rec[f"hero{p}"] = np.full_like(rec[f"hero{p}"], ids[p])
    return rec


def play_range(start: int, stop: int, seed: int, heroes=None, strategies=("greedy", "greedy"),
               rules: dict | None = None, engine: str = "kernel", keep_states: bool = False, trace: bool = False,
               tables=None, search_budget=None, search_horizon=None, roster=None) -> dict:
    """Games start..stop-1 with ``heroes[p]`` (id or roster index; default the roster's
    first and last) and ``strategies[p]`` in seat p; ``roster``: the heroes
    (``simcore.dicethrone.roster``; default the shipped folder); ``tables``: ``(content,
    tables, strategy data)`` of a matchup changed in memory (default: the roster's matchup);
    ``search_budget``/``search_horizon``: the ``search`` strategy's rollouts per move and
    rollout length in turns (default: ``search.DEFAULT_BUDGET`` / ``DEFAULT_HORIZON``).
    Records' ``hero<p>`` are the heroes' roster indices. The rule option ``mode`` sets the
    seats (1v1 2, 2v2 4: one hero and one strategy each) and the records' fields
    (``model.record_fields``)."""
    rules = rules if rules is not None else M.load_rules()
    roster = roster or default_roster()
    seats = M.MODE_SEATS[rules["mode"]]
    heroes = tuple(heroes) if heroes is not None else (0, len(roster.names) - 1)
    if len(heroes) != seats:
        raise PlaytestError(f"mode {rules['mode']} seats {seats} heroes, got {len(heroes)}"
                            + (" (a team or free-for-all table: `playtest dicethrone run --set mode=...`, `teams`, `ffa`)"
                               if len(heroes) == 2 else ""), field="--hero")
    if trace and seats != 2:
        raise PlaytestError("lead statistics (trace) are for 1v1 games only", field="trace")
    content, T, data1 = tables if tables is not None else matchup_tables(roster, heroes)
    ids, lineup = _lineup_of(roster, heroes, content)
    specs = seat_strategies(tuple(strategies), seats)
    fields = M.record_fields(seats)
    sids = np.array([strategy_id(s) for s in specs], np.int64)
    if search_budget is None and search_horizon is None and all(s in BUILTIN for s in specs):
        data = _default_seat_data(data1, seats)   # the built-ins only read it
    else:
        data = seat_data(data1, search_budget, search_horizon, seats)
    rv = M.rules_vector(rules)
    n = stop - start
    if engine == "reference":
        return _roster_records(_reference(start, stop, seed, content, rules, lineup, specs, sids, data, rv,
                                          keep_states, trace, fields), ids)
    if engine != "kernel":
        raise PlaytestError(f"engine must be kernel or reference, got {engine!r}", field="--engine")
    plugins = {s for s in specs if s not in BUILTIN}
    if len(plugins) > 1:
        raise PlaytestError("at most one plug-in strategy per run", field="--strategy")
    plugin = plugins.pop() if plugins else None
    # the games play RECORD_CHUNK at a time into one row buffer, whose rows go straight
    # into the columns: a row buffer for the whole run (1.5 KB a game) and its transposed
    # copy were fresh memory the system had to clear, a fifth of a 100,000-game run
    core, use = _record_columns(n, fields)
    out = np.zeros((min(n, RECORD_CHUNK), len(fields)), np.int64)
    leads = np.zeros((n, len(LEAD_FIELDS)), np.float64)
    bad = np.full(n, -1, np.int64)
    finals = np.zeros((n, M.s_len(seats) if keep_states else 0), np.int64)
    reveal = np.zeros(seats, np.int64)
    cap = rules["max_turns"] + 2 if trace else 0
    Tl, tp = _lineup_ptrs(T, lineup)     # Tl alive (kept in the cache) while tp points into it
    for a in range(0, n, RECORD_CHUNK):
        b = min(n, a + RECORD_CHUNK)
        args = (start + a, start + b, seed, seats, sids, reveal, rv, tp, data, cap, out[:b - a], leads[a:b],
                bad[a:b], finals[a:b])
        if plugin is not None:
            run_plugin(plugin, plugin_chunk_nb, BUILTIN_DECIDE, args)
        else:
            chunk_nb(*args)
        check_answers(bad[a:b], specs, start + a)
        _store_rows(out[:b - a], core, use, a)
    rec = _roster_records(_records(core, use, leads, start, trace, fields), ids)
    if keep_states:
        rec["final_state"] = finals
    return rec


def _reference(start, stop, seed, content, rules, lineup, specs, sids, data, rv, keep_states, trace,
               fields=M.RECORD_FIELDS):
    from simcore.dicethrone.reference import play_game
    from simcore.leads import lead_stats_nb

    deciders = [_decider(s, int(sid)) for s, sid in zip(specs, sids)]
    heroes = tuple(list(content.heroes)[h] for h in lineup)
    n = stop - start
    out = np.zeros((n, len(fields)), np.int64)
    leads = np.zeros((n, len(LEAD_FIELDS)), np.float64)
    fins = []
    for i in range(start, stop):
        g = play_game(content, rules, heroes, seed, i, deciders, data, rv, trace=trace)
        r = g.record()
        out[i - start] = [r[f] for f in fields]
        if trace:
            tr = np.array(g.trace, np.float64).reshape(-1, 2)
            lead_stats_nb(tr, tr.shape[0], 2, r["winner"], leads[i - start])
        if keep_states:
            fins.append(g.vector())
    core, use = _record_columns(n, fields)
    _store_rows(out, core, use, 0)
    rec = _records(core, use, leads, start, trace, fields)
    if keep_states:
        rec["final_state"] = np.array(fins, np.int64).reshape(n, M.s_len(len(lineup)))
    return rec


def _decider(spec, sid: int):
    """The compiled strategy the reference engine asks for a seat's moves: the built-in's
    own function (the ``decide_builtin`` dispatcher would compile every built-in, search's
    rollouts included, once more for a run that needs only one of them), or the plug-in."""
    if sid == PLUGIN_SID:
        return python_plugin(spec, load_plugin(spec))
    return {SID_GREEDY: greedy_decide, SID_OPTIMAL: optimal_decide, SID_SEARCH: search_decide}.get(sid, random_decide)


# ---------------------------------------------------------------- the game interface
class DiceThroneAPI(GameAPI):
    """Dice Throne as the shared runner, CLI and report see it (``simcore/game.py``)."""

    @property
    def type(self):
        from simcore.game import game_type

        return game_type("dicethrone")

    def load_rules(self, path=None, overrides=None):
        return M.load_rules(path, overrides)

    def load_content(self, rules, path=None):
        """The roster's heroes in file-name order (``Hero`` objects with ``key`` and ``name``,
        as the shared CLI matches heroes; each knows its roster); ``path``: another heroes
        folder (with its own ``cards.toml`` if it has one)."""
        return list(default_roster(str(path) if path else None).heroes)

    def entrant_names(self, content):
        return [h.key for h in content]

    def entrant_titles(self, content):
        return [h.name for h in content]

    def strategies(self):
        return {k: v[1] for k, v in BUILTIN.items()}

    # the report's default run: every ordered hero pair (mirrors too), ``optimal`` against
    # itself, 5,000 games per seat order: a pair pools 10,000 games, a 95% interval of at
    # most +-0.98 points (Wilson at 50%); each strategy of --strategies plays itself (a tier
    # list per skill level), not every strategy pair (that is ``tournament``)
    REPORT_GAMES = 5000

    def report_plan(self) -> dict:
        return {"strategies": ["optimal"], "games": self.REPORT_GAMES, "seats": [2], "self_play": True}

    def check_strategy(self, spec):
        if strategy_id(spec) == PLUGIN_SID:
            play_range(0, 1, 0, strategies=(spec, spec))   # compile now: a bad plug-in fails at once
        return spec

    def make_setup(self, rules, content, seats, params=None):
        """``{"rules"}``, ``"tables"`` when ``content`` was edited (``apply_edits``), and the
        ``--param`` text parsed (``parse_params``: the search budget and horizon), also under
        ``"json"`` for the run's JSON output."""
        if rules["mode"] != "1v1":
            raise PlaytestError(f"mode {rules['mode']} is played by `playtest dicethrone run`, `matchups`, `teams` "
                                "and `ffa` (this verb plays 1v1)", field="--set")
        if seats != 2:
            raise PlaytestError(f"1v1 seats 2 players, got {seats} (more players: --set mode=2v2, 3v3, 2v2v2, "
                                "ffa3..ffa6)", field="--players")
        search = parse_params(params)
        return {"rules": rules, "roster": roster_of(content),
                "entrants": [h.key for h in content] if content else None, **search, "json": dict(search)}

    # --- team and free-for-all tables (issue 31): what ``fix`` holds to a band per mode
    @staticmethod
    def table_mode(rules):
        """The rules' team or free-for-all mode, or None for 1v1 (the shared runner's games)."""
        return None if rules["mode"] == "1v1" else rules["mode"]

    @staticmethod
    def table_plan(rules, content, params=None) -> tuple:
        """``(tables, seatings a table, names, play)`` of the rules' mode over ``content``'s
        heroes: every composition or free-for-all table (``seatings.mode_tables``), and
        ``play(table, start, n, seed, strategy)``: games start..start+n-1 of its every
        seating (``seatings.play_table``); ``params``: the ``--param`` text (search)."""
        from .seatings import mode_tables, play_table, seatings_of

        mode = rules["mode"]
        roster = roster_of(content)
        names = list(roster.names)
        search = parse_params(params)

        def play(table, start, n, seed, strategy):
            return play_table(table, mode, start, n, seed, strategy, rules, roster, **search)

        return mode_tables(mode, names), seatings_of(mode), names, play

    @staticmethod
    def _heroes(setup, lineup) -> tuple:
        """The lineup (indices into the setup's entrants: the heroes ``make_setup`` was given,
        maybe a few of the roster's) as hero ids."""
        ents = setup.get("entrants")
        return tuple(ents[int(i)] for i in lineup) if ents else tuple(lineup)

    def play(self, start, stop, seed, setup, lineup, seat_strategies, engine="kernel", trace=False):
        return play_range(start, stop, seed, self._heroes(setup, lineup), tuple(seat_strategies), setup["rules"],
                          engine, trace=trace, tables=setup.get("tables"), search_budget=setup.get("search_budget"),
                          search_horizon=setup.get("search_horizon"), roster=setup.get("roster"))

    def replay(self, setup, lineup, seat_strategies, seed, index):
        return replay_text(setup["rules"], self._heroes(setup, lineup), tuple(seat_strategies), seed, index,
                           setup.get("tables"), setup.get("search_budget"), setup.get("search_horizon"),
                           roster=setup.get("roster"))

    # --- editing (``playtest serve``, ``playtest dicethrone fix``): simcore/dicethrone/edits.py
    content_folder = "heroes"

    def editable_numbers(self, rules, content):
        from simcore.dicethrone.edits import editables

        return editables(rules, content)

    def apply_edits(self, rules, content, edits):
        from simcore.dicethrone.edits import apply_edits

        return apply_edits(rules, content, edits, self)

    def renamed_number(self, key, keys):
        from simcore.dicethrone.edits import renamed

        return renamed(key, keys)

    def export_files(self, rules, content, base_rules):
        from simcore.dicethrone.edits import export_files

        return export_files(rules, content, self.load_rules())

    def reduce(self, rec):
        """``dmg_moments[seat, row, 3]``: over the chunk's games, each damage source's
        ``(sum of x*x, sum of x*t, sum of x)`` (rows in ``M.SOURCES`` order; ``x`` the damage
        that seat dealt from that source, ``t`` its total damage) and, in the last row,
        ``(sum of t*t, the same, sum of t)``: the damage shares' intervals in the report
        (``analysis.stats.ratio_interval``) treat the games, not the points, as the
        units; the plain sums let the report check that the moments cover every game of the
        run's sums (a resumed run may mix chunks saved before they existed)."""
        out = np.zeros((2, len(M.SOURCES) + 1, 3), np.int64)
        for s in range(2):
            xs = [np.asarray(rec[f"dmg_{src}{s}"], np.int64) for src in M.SOURCES]
            t = np.sum(xs, axis=0)
            for i, x in enumerate(xs):
                out[s, i] = (x @ x, x @ t, x.sum())
            out[s, -1] = (t @ t, t @ t, t.sum())
        return {"dmg_moments": out}

    def record_bytes(self, setup):
        return 8 * (M.N_FIELDS - len(M.USE_FIELDS) + 4) + np.dtype(M.USE_DTYPE).itemsize * len(M.USE_FIELDS)

    def tables(self, content=None, T=None, roster=None, heroes=None) -> tuple:
        """``(content, tables, strategy data)`` as ``play_range(tables=...)`` takes them: the
        matchup ``heroes`` of ``roster`` (cached), or those of tables ``T`` of ``content``
        changed in memory (the analysis reaches them through the registry:
        ``analysis/dicethrone_cards.py`` blanks one card in a deck)."""
        return matchup_tables(roster or default_roster(), heroes) if T is None else tables_tuple(content, T)

    def roster(self, heroes=None):
        """The roster of a hero list from ``load_content`` (default: the shipped heroes)."""
        return roster_of(heroes) if heroes else default_roster()


def replay_text(rules, lineup, strategies, seed, index, tables=None, search_budget=None,
                search_horizon=None, roster=None) -> str:
    """The reference engine's play-by-play of one game, ending with a ``result:`` line;
    ``lineup``: the seats' heroes (ids or roster indices)."""
    from simcore.dicethrone.reference import play_game

    roster = roster or default_roster()
    content, T, data1 = tables if tables is not None else matchup_tables(roster, lineup)
    seats = M.MODE_SEATS[rules["mode"]]
    specs = seat_strategies(tuple(strategies), seats)
    deciders = [_decider(s, strategy_id(s)) for s in specs]
    heroes = tuple(roster.names[roster.index(h)] for h in lineup)
    g = play_game(content, rules, heroes, seed, index, deciders,
                  seat_data(data1, search_budget, search_horizon, seats), M.rules_vector(rules), log=True)
    r = g.record()
    side = "seat" if seats == 2 else "team"
    res = "draw" if r["winner"] < 0 and not r["capped"] else ("capped" if r["capped"] else f"{side} {r['winner']} wins")
    hp = " / ".join(str(r[f"hp{p}"]) for p in range(seats))
    return "\n".join(g.log + [f"result: {res} after {r['turns']} turns; health {hp}"])


API = DiceThroneAPI()
