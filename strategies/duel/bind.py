"""The duel bound to its strategies: running one matchup (``simulate``) or the whole
tournament (``run_matchups``), with the compiled kernel (default) or the reference engine,
a strategy per seat.

Game i of a run with seed s is played from stream (s, i) whatever the matchup, the
worker or the chunk; the tournament plays every ordered pair (A, B) and (B, A) on the
same seeds, so each pairing is replayed with seats swapped (TAG-style).

Compiled entry points (the caching pattern of ``simcore/game.py``): ``builtin_chunk`` is
cached on disk and plays any built-in strategy in any seat, dispatching by the seat's id
(``keep_builtin``/``choose_builtin``, data of every built-in in one tuple); a plug-in plays
through cached entries too, as first-class functions (``plugin_entry``).
"""
from __future__ import annotations

import numba as nb
import numpy as np

from simcore.duel.kernel import allocate_records, block_scratch, n_blocks, play_block
from simcore.duel.model import DuelSetup, MatchupRun, tournament_pairs
from simcore.errors import PlaytestError, check_games
from simcore.parallel import run_chunks

from simcore.plugins import compile_error
from strategies.bind import PLUGIN_SID, guarded, plugin_errors
from strategies.duel import greedy_choose, greedy_keep, random_choose, random_keep
from strategies.duel.optimal import choose as optimal_choose
from strategies.duel.optimal import keep as optimal_keep
from strategies.duel.search import SEARCH
from strategies.duel.search import choose as search_choose
from strategies.duel.search import keep as search_keep
from strategies.duel.search import search_params

ENGINES = ("kernel", "reference")


@nb.njit(cache=True, inline="always")
def keep_builtin(sid, faces, n_dice, rolls_done, free_left, me, st, tb, rules, datas, rng):
    if sid == 0:
        return random_keep(faces, n_dice, rolls_done, free_left, me, st, tb, rules, datas[0], rng)
    if sid == 1:
        return greedy_keep(faces, n_dice, rolls_done, free_left, me, st, tb, rules, datas[1], rng)
    return optimal_keep(faces, n_dice, rolls_done, free_left, me, st, tb, rules, datas[2], rng)


@nb.njit(cache=True, inline="always")
def choose_builtin(sid, faces, n_dice, legal, me, st, tb, rules, datas, rng):
    if sid == 0:
        return random_choose(faces, n_dice, legal, me, st, tb, rules, datas[0], rng)
    if sid == 1:
        return greedy_choose(faces, n_dice, legal, me, st, tb, rules, datas[1], rng)
    return optimal_choose(faces, n_dice, legal, me, st, tb, rules, datas[2], rng)


# The strategies' data travel as separate arguments (d0, d1, d2[, d3]) and are tupled up
# inside each block: numba's parallel loops cannot take a nested tuple (optimal's data is a
# tuple) as an argument.
@nb.njit(cache=True, nogil=True, _nrt=False)
def builtin_block(d0, d1, d2, tb, rules, seed, start, stop, blk, nblk, ha, hb, sids, work, rstate, trace,
                  w, f, t, hp, cp, to, ab, bo, il, ld):
    play_block(keep_builtin, choose_builtin, (d0, d1, d2), tb, rules, seed, start, stop, blk, nblk, ha, hb,
               sids, work, rstate, trace, w, f, t, hp, cp, to, ab, bo, il, ld)


@nb.njit(cache=True, parallel=True, nogil=True)
def builtin_chunk(d0, d1, d2, tb, rules, seed, start, stop, nblk, ha, hb, sids, trace_rows,
                  w, f, t, hp, cp, to, ab, bo, il, ld):
    work, rstate, trace = block_scratch(nblk, trace_rows)
    for blk in nb.prange(nblk):
        builtin_block(d0, d1, d2, tb, rules, seed, start, stop, blk, nblk, ha, hb, sids, work, rstate, trace,
                      w, f, t, hp, cp, to, ab, bo, il, ld)


SID_SEARCH = SEARCH.sid


# ``search`` allocates its rollout scratch, so it plays in an entry of its own (with
# reference counting); its data reaches it as ``(params, optimal's data)``, rebuilt inside
# the block from the flat arguments (a parallel loop cannot take the nested tuple).
@nb.njit(cache=True, inline="always")
def keep_search_any(sid, faces, n_dice, rolls_done, free_left, me, st, tb, rules, datas, rng):
    if sid == SID_SEARCH:
        return search_keep(faces, n_dice, rolls_done, free_left, me, st, tb, rules, datas[3], rng)
    return keep_builtin(sid, faces, n_dice, rolls_done, free_left, me, st, tb, rules, datas, rng)


@nb.njit(cache=True, inline="always")
def choose_search_any(sid, faces, n_dice, legal, me, st, tb, rules, datas, rng):
    if sid == SID_SEARCH:
        return search_choose(faces, n_dice, legal, me, st, tb, rules, datas[3], rng)
    return choose_builtin(sid, faces, n_dice, legal, me, st, tb, rules, datas, rng)


@nb.njit(cache=True, nogil=True)
def search_block(d0, d1, d2, d3, tb, rules, seed, start, stop, blk, nblk, ha, hb, sids, work, rstate, trace,
                 w, f, t, hp, cp, to, ab, bo, il, ld):
    play_block(keep_search_any, choose_search_any, (d0, d1, d2, (d3, d2)), tb, rules, seed, start, stop, blk,
               nblk, ha, hb, sids, work, rstate, trace, w, f, t, hp, cp, to, ab, bo, il, ld)


@nb.njit(cache=True, parallel=True, nogil=True)
def search_chunk(d0, d1, d2, d3, tb, rules, seed, start, stop, nblk, ha, hb, sids, trace_rows,
                 w, f, t, hp, cp, to, ab, bo, il, ld):
    work, rstate, trace = block_scratch(nblk, trace_rows)
    for blk in nb.prange(nblk):
        search_block(d0, d1, d2, d3, tb, rules, seed, start, stop, blk, nblk, ha, hb, sids, work, rstate, trace,
                     w, f, t, hp, cp, to, ab, bo, il, ld)


# A user's plug-in plays through cached entries too: its keep and choose reach them as
# first-class functions (``numba.cfunc``), inside the data tuple as ``(data, keep, choose)``.
# The entries are then compiled once per checkout (and per type of the plug-in's data),
# like the built-ins' (a plug-in costs its own compile, seconds, not the game's); a seat
# with id ``PLUGIN_SID`` calls the plug-in, any other seat a built-in. The ``light``
# entries serve plug-ins against any built-in but ``search``, whose rollouts are the
# costliest part of the game to compile.
@nb.njit(cache=True, inline="always")
def keep_plugin(faces, n_dice, rolls_done, free_left, me, st, tb, rules, datas, rng):
    u = datas[4]
    return u[1](faces, n_dice, rolls_done, free_left, me, st, tb, rules, u[0], rng)


@nb.njit(cache=True, inline="always")
def choose_plugin(faces, n_dice, legal, me, st, tb, rules, datas, rng):
    u = datas[4]
    return u[2](faces, n_dice, legal, me, st, tb, rules, u[0], rng)


@nb.njit(cache=True, inline="always")
def keep_plugin_light(sid, faces, n_dice, rolls_done, free_left, me, st, tb, rules, datas, rng):
    if sid == PLUGIN_SID:
        return keep_plugin(faces, n_dice, rolls_done, free_left, me, st, tb, rules, datas, rng)
    return keep_builtin(sid, faces, n_dice, rolls_done, free_left, me, st, tb, rules, datas, rng)


@nb.njit(cache=True, inline="always")
def choose_plugin_light(sid, faces, n_dice, legal, me, st, tb, rules, datas, rng):
    if sid == PLUGIN_SID:
        return choose_plugin(faces, n_dice, legal, me, st, tb, rules, datas, rng)
    return choose_builtin(sid, faces, n_dice, legal, me, st, tb, rules, datas, rng)


@nb.njit(cache=True, inline="always")
def keep_plugin_search(sid, faces, n_dice, rolls_done, free_left, me, st, tb, rules, datas, rng):
    if sid == PLUGIN_SID:
        return keep_plugin(faces, n_dice, rolls_done, free_left, me, st, tb, rules, datas, rng)
    return keep_search_any(sid, faces, n_dice, rolls_done, free_left, me, st, tb, rules, datas, rng)


@nb.njit(cache=True, inline="always")
def choose_plugin_search(sid, faces, n_dice, legal, me, st, tb, rules, datas, rng):
    if sid == PLUGIN_SID:
        return choose_plugin(faces, n_dice, legal, me, st, tb, rules, datas, rng)
    return choose_search_any(sid, faces, n_dice, legal, me, st, tb, rules, datas, rng)


@nb.njit(cache=True, nogil=True)
def plugin_light_block(d0, d1, d2, d3, u, tb, rules, seed, start, stop, blk, nblk, ha, hb, sids, work, rstate,
                       trace, w, f, t, hp, cp, to, ab, bo, il, ld):
    play_block(keep_plugin_light, choose_plugin_light, (d0, d1, d2, (d3, d2), u), tb, rules, seed, start, stop,
               blk, nblk, ha, hb, sids, work, rstate, trace, w, f, t, hp, cp, to, ab, bo, il, ld)


@nb.njit(cache=True, parallel=True, nogil=True)
def plugin_light_chunk(d0, d1, d2, d3, u, tb, rules, seed, start, stop, nblk, ha, hb, sids, trace_rows,
                       w, f, t, hp, cp, to, ab, bo, il, ld):
    work, rstate, trace = block_scratch(nblk, trace_rows)
    for blk in nb.prange(nblk):
        plugin_light_block(d0, d1, d2, d3, u, tb, rules, seed, start, stop, blk, nblk, ha, hb, sids, work, rstate,
                           trace, w, f, t, hp, cp, to, ab, bo, il, ld)


@nb.njit(cache=True, nogil=True)
def plugin_search_block(d0, d1, d2, d3, u, tb, rules, seed, start, stop, blk, nblk, ha, hb, sids, work, rstate,
                        trace, w, f, t, hp, cp, to, ab, bo, il, ld):
    play_block(keep_plugin_search, choose_plugin_search, (d0, d1, d2, (d3, d2), u), tb, rules, seed, start, stop,
               blk, nblk, ha, hb, sids, work, rstate, trace, w, f, t, hp, cp, to, ab, bo, il, ld)


@nb.njit(cache=True, parallel=True, nogil=True)
def plugin_search_chunk(d0, d1, d2, d3, u, tb, rules, seed, start, stop, nblk, ha, hb, sids, trace_rows,
                        w, f, t, hp, cp, to, ab, bo, il, ld):
    work, rstate, trace = block_scratch(nblk, trace_rows)
    for blk in nb.prange(nblk):
        plugin_search_block(d0, d1, d2, d3, u, tb, rules, seed, start, stop, blk, nblk, ha, hb, sids, work,
                            rstate, trace, w, f, t, hp, cp, to, ab, bo, il, ld)


_PLUGIN_FUNCTIONS: dict = {}
_PLUGIN_SIGNATURE = ("keep(faces, n_dice, rolls_done, free_left, me, st, tb, rules, data, rng) / "
                     "choose(faces, n_dice, legal, me, st, tb, rules, data, rng)")


def plugin_functions(strategy, setup: DuelSetup, data):
    """``(keep, choose)`` of a plug-in as first-class functions (``numba.cfunc``) typed for
    this setup and the plug-in's ``data``: compiled once per process, plug-in and data
    type. A function that does not compile is a one-line error."""
    from numba import types

    i64, row = types.int64, types.Array(types.int64, 1, "C")
    common = (nb.typeof(setup.tables), nb.typeof(setup.rules_vec), nb.typeof(data),
              types.Array(types.uint64, 1, "C"))
    keep_sig = i64(row, i64, i64, i64, i64, row, *common)
    choose_sig = i64(row, i64, row, i64, row, *common)
    key = (strategy.name, strategy.keep, strategy.choose, keep_sig, choose_sig)
    if key not in _PLUGIN_FUNCTIONS:
        try:
            # guarded: a plug-in that raises stops its game (strategies/bind.py)
            _PLUGIN_FUNCTIONS[key] = (nb.cfunc(keep_sig, cache=False)(guarded(strategy.keep, keep_sig)),
                                      nb.cfunc(choose_sig, cache=False)(guarded(strategy.choose, choose_sig)))
        except (nb.core.errors.TypingError, nb.core.errors.LoweringError) as e:
            raise compile_error(strategy.name, _PLUGIN_SIGNATURE, e) from None
    return _PLUGIN_FUNCTIONS[key]


def plugin_entry(strategy, with_search: bool = True):
    """The cached entry point for runs with the plug-in ``strategy`` in a seat
    (``with_search=False``: the others play any built-in but ``search``). Its data
    argument is ``(data, keep, choose)`` (:func:`plugin_functions`)."""
    entry = plugin_search_chunk if with_search else plugin_light_chunk

    def run(*args):
        try:
            with plugin_errors(strategy.name):
                entry(*args)
        except (nb.core.errors.TypingError, nb.core.errors.LoweringError) as e:
            raise compile_error(strategy.name, _PLUGIN_SIGNATURE, e) from None

    return run


def _resolve_strategy(strategy):
    if isinstance(strategy, str):
        from strategies.duel import load_strategy

        return load_strategy(strategy)
    return strategy


def python_guarded(s):
    """A strategy as the reference engine calls it: a plug-in's exception is a one-line
    error naming it (``strategies.bind.python_plugin``)."""
    if s.sid >= 0:
        return s
    from dataclasses import replace

    from strategies.bind import python_plugin

    return replace(s, keep=python_plugin(s.name, s.keep), choose=python_plugin(s.name, s.choose))


def seat_pair(strategy) -> tuple:
    """(seat 0 strategy, seat 1 strategy) from one strategy (both seats) or a pair."""
    if isinstance(strategy, (list, tuple)):
        if len(strategy) != 2:
            raise PlaytestError(f"the duel has 2 seats, got {len(strategy)} strategies", field="--strategy")
        return tuple(_resolve_strategy(s) for s in strategy)
    s = _resolve_strategy(strategy)
    return (s, s)


def strategy_datas(setup: DuelSetup, pair) -> tuple:
    """The data tuple of the compiled dispatcher: every built-in's (``search``'s holds
    optimal's: ``(params, optimal data)``), then the plug-in's."""
    from strategies.duel import builtin_strategies

    b = builtin_strategies()
    datas = tuple(b[n].make_data(setup) for n in ("random", "greedy", "optimal"))
    datas = datas + ((search_params(setup.search_budget), datas[2]),)
    plugins = {s.name: s for s in pair if s.sid < 0}
    if len(plugins) > 1:
        raise PlaytestError("at most one plug-in strategy per run", field="--strategy")
    if plugins:
        datas = datas + (next(iter(plugins.values())).make_data(setup),)
    return datas


def play_range(start: int, stop: int, setup: DuelSetup, a: int, b: int, strategy, data, seed: int,
               engine: str = "kernel", out: dict | None = None, trace: bool = False) -> dict:
    """Records of games ``start..stop-1`` of matchup (a, b), into ``out`` if given;
    ``strategy``: one for both seats or a pair; ``data`` the tuple of ``strategy_datas``.
    Module-level: it runs in workers."""
    pair = seat_pair(strategy)
    if engine == "reference":
        from simcore.duel.reference import play_games

        own = [data[s.sid] if s.sid >= 0 else data[4] for s in pair]
        rec = play_games(setup, a, b, [python_guarded(s) for s in pair], seed, start, stop, own, trace=trace)
        if out is not None:
            for k, v in rec.items():
                out[k][...] = v
        return rec
    rec = allocate_records(stop - start, trace) if out is None else out
    sids = np.array([s.sid if s.sid >= 0 else PLUGIN_SID for s in pair], np.int64)
    if all(0 <= s.sid < SID_SEARCH for s in pair):
        entry, args = builtin_chunk, data[:3]
    elif all(s.sid >= 0 for s in pair):
        entry, args = search_chunk, data[:3] + (data[3][0],)
    else:
        plug = next(s for s in pair if s.sid < 0)
        entry = plugin_entry(plug, any(s.sid == SID_SEARCH for s in pair))
        args = data[:3] + (data[3][0], (data[4],) + plugin_functions(plug, setup, data[4]))
    leads = rec["leads"] if trace else np.zeros((0, 3), np.float64)
    entry(*args, setup.tables, setup.rules_vec, seed, start, stop, n_blocks(stop - start), a, b, sids,
          setup.rules["turn_cap"] if trace else 0,
          rec["winner"], rec["first"], rec["turns"], rec["hp"], rec["cp"], rec["timeout"], rec["abilities"],
          rec["bought"], rec["illegal"], leads)
    return rec


def check_illegal(rec: dict, pair, start: int = 0) -> None:
    """One-line error naming the strategy that chose an illegal ability."""
    bad = np.nonzero(rec["illegal"] >= 0)[0]
    if bad.size:
        g = int(bad[0])
        seat = int(rec["illegal"][g])
        raise PlaytestError(f"strategy {pair[seat].name!r} (seat {seat + 1}) chose an illegal ability (one the dice "
                            f"do not allow) or keep mask in {bad.size:,} game(s), first game index {start + g}: "
                            "choose must return -1 (no attack) or an ability a with legal[a] >= 0, keep a mask "
                            "0 <= mask < 2**n_dice", field="--strategy")


def check_seed(seed) -> int:
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
        raise PlaytestError(f"must be a whole number in 0..2**63-1, got {seed!r}", field="--seed")
    return seed


def simulate(setup: DuelSetup, a: int, b: int, strategy, games: int, seed: int, jobs: int = 1,
             chunk_size: int | None = None, progress=False, engine: str = "kernel", data=None,
             threads: int | None = None, trace: bool = False) -> dict:
    """Per-game records of ``games`` games: seat 0 plays hero ``a``, seat 1 hero ``b``;
    ``strategy`` one for both seats or a pair (seat 0, seat 1)."""
    games = check_games(games)
    seed = check_seed(seed)
    if engine not in ENGINES:
        raise PlaytestError(f"unknown engine {engine!r} (one of {', '.join(ENGINES)})", field="--engine")
    pair = seat_pair(strategy)
    if a == b and not setup.rules["mirror_matches"]:
        raise PlaytestError("mirror matches are off in the rule options (mirror_matches = false)",
                            field="--vs")
    for h in (a, b):
        if not 0 <= h < len(setup.heroes):
            raise PlaytestError(f"no hero with index {h}", field="--hero")
    if data is None:
        data = strategy_datas(setup, pair)
    # pass strategies by name: a pickled numba dispatcher would be rebuilt (and
    # recompiled, uncached) in every worker process
    strat_arg = tuple(s.name for s in pair) if jobs > 1 else pair
    rec = run_chunks(play_range, games, setup, a, b, strat_arg, data, seed, engine, trace=trace,
                     jobs=jobs, chunk_size=chunk_size, threads=threads, progress=progress,
                     allocate=lambda n: allocate_records(n, trace))
    check_illegal(rec, pair)
    return rec


def run_matchups(setup: DuelSetup, strategy, games: int, seed: int, jobs: int = 1,
                 chunk_size: int | None = None, progress=False, engine: str = "kernel",
                 threads: int | None = None) -> MatchupRun:
    """Every ordered hero pair (mirrors if the rules allow them), ``games`` games each,
    all on the seeds (seed, 0..games-1)."""
    pair = seat_pair(strategy)
    data = strategy_datas(setup, pair)
    pairs = tournament_pairs(len(setup.heroes), bool(setup.rules["mirror_matches"]))
    records = {}
    for a, b in pairs:
        label = f"{setup.heroes[a].key} vs {setup.heroes[b].key}" if progress else False
        records[(a, b)] = simulate(setup, a, b, pair, games, seed, jobs, chunk_size, label,
                                   engine, data, threads)
    return MatchupRun([h.name for h in setup.heroes], pairs, records, games, seed, pair[0].name,
                      dict(setup.rules), [h.key for h in setup.heroes], engine, setup)


# ---------------------------------------------------------------- the game interface
from simcore.game import GameAPI  # noqa: E402

_DATAS: list = []  # [(weakref to a setup, strategy names, datas)], the last few setups


def _datas_for(setup: DuelSetup, pair) -> tuple:
    """``strategy_datas`` once per (setup, strategy pair) in a process: the shared runner
    calls ``play`` once per block, and building the optimal strategy's tables for each
    block cost more than playing a 1,000-game block (a balance search plays many setups)."""
    import weakref

    key = tuple(s.name for s in pair)
    for ref, k, d in _DATAS:
        if ref() is setup and k == key:
            return d
    d = strategy_datas(setup, pair)
    _DATAS[:] = [e for e in _DATAS if e[0]() is not None][-7:] + [(weakref.ref(setup), key, d)]
    return d


class DuelAPI(GameAPI):
    """The duel as the shared runner, CLI and report see it (``simcore/game.py``)."""

    @property
    def type(self):
        from simcore.game import game_type

        return game_type("duel")

    def load_rules(self, path=None, overrides=None):
        from simcore.duel.model import load_rules

        return load_rules(path, overrides)

    def load_content(self, rules, path=None):
        from simcore.duel.model import load_heroes

        return load_heroes(path, rules["dice"])

    def entrant_names(self, content):
        return [h.key for h in content]

    def entrant_titles(self, content):
        return [h.name for h in content]

    def strategies(self):
        from strategies.duel import builtin_strategies

        return {k: s.description for k, s in builtin_strategies().items()}

    def check_strategy(self, spec):
        from strategies.duel import load_strategy

        s = load_strategy(spec)
        if s.sid < 0:  # a plug-in: compile it now, before any game, so a bad one fails at once
            from simcore.duel.model import load_setup

            setup = load_setup()
            pair = (s, s)
            data = strategy_datas(setup, pair)
            play_range(0, 1, setup, 0, 1, pair, data, 0)
        return s.name

    def make_setup(self, rules, content, seats, params=None):
        """``params``: the shared ``--param`` text, ``BUDGET`` = the ``search`` strategy's
        rollouts per candidate (checked here, before any game)."""
        from strategies.bind import parse_search_params

        budget = parse_search_params(params, (("search_budget", "search budget (rollouts per candidate)",
                                               100_000),), "one number, the search budget (BUDGET)")
        return DuelSetup(content, rules, search_budget=budget.get("search_budget"))

    def play(self, start, stop, seed, setup, lineup, seat_strategies, engine="kernel", trace=False):
        pair = seat_pair(tuple(seat_strategies))
        data = _datas_for(setup, pair)
        rec = play_range(start, stop, setup, lineup[0], lineup[1], pair, data, seed, engine, trace=trace)
        check_illegal(rec, pair, start)
        rec["capped"] = rec["timeout"]
        return rec

    def reduce(self, rec):
        """Games by (first mover, timeout, player-turns): the duel's own tables (hero turns
        per seat, timeouts per game length) read it from aggregates (``analysis.duel``)."""
        t = np.asarray(rec["turns"], np.int64)
        f = np.asarray(rec["first"], np.int64)
        c = np.asarray(rec["timeout"], bool).astype(np.int64)
        n_t = int(t.max()) + 1 if t.size else 1
        h = np.bincount((f * 2 + c) * n_t + t, minlength=4 * n_t)
        return {"turns_fc": h.reshape(2, 2, n_t)}

    def replay(self, setup, lineup, seat_strategies, seed, index):
        from simcore.duel.reference import DuelGame

        pair = seat_pair(tuple(seat_strategies))
        g = DuelGame(setup, lineup[0], lineup[1], [python_guarded(s) for s in pair],
                     [s.make_data(setup) for s in pair], seed, index, log=True).play()
        return "\n".join(g.log)

    # --- editing (``playtest serve``): simcore/duel/edits.py
    content_folder = "heroes"

    def rule_bounds(self):
        from simcore.duel.edits import RULE_BOUNDS

        return RULE_BOUNDS

    def editable_numbers(self, rules, content):
        from simcore.duel.edits import editables

        return editables(rules, content)

    def apply_edits(self, rules, content, edits):
        from simcore.duel.edits import apply_edits

        return apply_edits(rules, content, edits, self)

    def edit_scope(self, edits):
        # a hero's numbers reach only its own games: the kernel and every built-in strategy
        # read the tables of the two heroes at the table (tests/test_serve_api.py checks it)
        if any(not k.startswith("hero.") for k in edits):
            return None
        return {k.split(".")[1] for k in edits}

    def dice_spec(self, rules, content, entrant):
        from simcore.odds.duel import hero_targets

        h = content[entrant]
        return {"title": h.name, "dice": [h.die] * int(rules["dice"]),
                "targets": [(label, tier.target) for _, _, _, tier, label in hero_targets(h)],
                "free_rolls": int(rules["rolls"]),
                "extra_rolls": min(4, int(rules["max_bought_rolls"]))}

    def export_files(self, rules, content, base_rules):
        from pathlib import Path

        from simcore.duel.edits import hero_toml
        from simcore.game import rules_toml

        files = {"rules.toml": rules_toml(rules, self.load_rules())}
        for h in content:
            files[f"heroes/{Path(h.source).name}"] = hero_toml(h)
        return files

    def record_bytes(self, setup):
        from simcore.duel.state import record_fields

        return sum(np.dtype(dt).itemsize * int(np.prod(shape)) for dt, shape in record_fields(8).values()) + 24


API = DuelAPI()
