"""Binding strategies into kernels, for every game: plug-in loading with one-line errors,
a strategy per seat, and the plug-in kernels of move-list games.

The caching pattern (``simcore/game.py``): each game's binding has ONE cached entry point
whose strategy functions are module globals and whose built-in strategies are chosen per
seat by integer id (``sids``). A user's plug-in cannot be a module global of a cached file,
so :func:`plugin_chunk` compiles, once per process and plug-in, an entry point in which
the plug-in answers for the seats whose id is :data:`PLUGIN_SID` and the built-ins for the
others. Plug-ins therefore cost one compilation per process (seconds) and are never
served a stale cache.
"""
from __future__ import annotations

import numba as nb
import numpy as np

from simcore.driver import play_one_nb
from simcore.errors import PlaytestError
from simcore.plugins import check_arity, compile_error, import_plugin_module

DECIDE_ARGS = ("phase", "obs", "moves", "n_moves", "rules", "data", "rng")

PLUGIN_SID = 99


def load_plugin(spec: str, field: str = "--strategy"):
    """Import ``package.module:function`` and return it (a numba dispatcher: a plain
    Python function is wrapped in ``numba.njit``). Every failure is one line naming the
    module and the problem."""
    mod_name, sep, fn_name = str(spec).partition(":")
    if not sep or not mod_name or not fn_name:
        raise PlaytestError(f"expected package.module:function, got {spec!r}", field=field)
    mod = import_plugin_module(mod_name, field)
    fn = getattr(mod, fn_name, None)
    if fn is None:
        raise PlaytestError(f"module {mod_name!r} has no function {fn_name!r}", field=field)
    if not callable(fn):
        raise PlaytestError(f"{spec!r} is not a function", field=field)
    check_arity(fn, f"{mod_name}.{fn_name}", DECIDE_ARGS, field)
    if not isinstance(fn, nb.core.registry.CPUDispatcher):
        fn = nb.njit(fn)
    return fn


def seat_strategies(strategy, seats: int, field: str = "--strategy") -> tuple:
    """One strategy spec per seat from a name (every seat), a comma list or a sequence."""
    if isinstance(strategy, str):
        specs = [s.strip() for s in strategy.split(",")] if "," in strategy else [strategy] * seats
    else:
        specs = list(strategy)
    if len(specs) != seats:
        raise PlaytestError(f"{len(specs)} strategies for {seats} seats (give one for every seat, "
                            "or one name for all)", field=field)
    if any(not s for s in specs):
        raise PlaytestError("empty strategy name", field=field)
    return tuple(specs)


def parse_search_params(text, fields: tuple, usage: str) -> dict:
    """The shared ``--param`` text of a game whose only tunable strategy is ``search``:
    comma-separated whole numbers, ``fields`` = ``((key, what, highest), ...)`` in order
    (at least the first; ``usage`` names them, e.g. ``BUDGET[,HORIZON]``). Checked here,
    before any game: each a whole number 1..highest. ``{}`` when not given."""
    if text is None or str(text).strip() == "":
        return {}
    parts = [x.strip() for x in str(text).split(",")]
    if len(parts) > len(fields):
        raise PlaytestError(f"give {usage}, got {text!r}", field="--param")
    try:
        vals = [float(x) for x in parts]
    except ValueError:
        raise PlaytestError(f"must be comma-separated numbers ({usage}), got {text!r}", field="--param") from None
    out = {}
    for v, (key, what, hi) in zip(vals, fields):
        if not (v == v and v == int(v) and 1 <= v <= hi):   # NaN, fractions, 0, negatives, absurd sizes
            raise PlaytestError(f"{what} must be a whole number 1..{hi}, got {v:g}", field="--param")
        out[key] = int(v)
    return out


def seat_data(rows: list) -> np.ndarray:
    """Per-seat strategy parameters as one float64 array ``[seat, k]`` (rows padded with 0)."""
    width = max(1, max(len(r) for r in rows))
    out = np.zeros((len(rows), width), np.float64)
    for i, r in enumerate(rows):
        out[i, :len(r)] = r
    return out


_PLUGIN_CHUNKS: dict = {}


def _dispatch(items):
    """A compiled ``decide(sid, ...)`` over ``items`` ((sid, decide function) pairs): a
    chain of tests on the id, so that only these functions are compiled into it."""
    (sid0, fn0), rest = items[0], items[1:]
    if not rest:
        @nb.njit(nogil=True, inline="always")
        def one(sid, phase, obs, moves, n, rules, data, rng):
            return fn0(phase, obs, moves, n, rules, data, rng)
        return one
    tail = _dispatch(rest)

    @nb.njit(nogil=True, inline="always")
    def chain(sid, phase, obs, moves, n, rules, data, rng):
        if sid == sid0:
            return fn0(phase, obs, moves, n, rules, data, rng)
        return tail(sid, phase, obs, moves, n, rules, data, rng)
    return chain


def plugin_chunk(game: str, spec: str, kernel, decide_builtin, light: dict | None = None):
    """An entry point like a game's cached ``chunk_nb`` in which seats with id
    :data:`PLUGIN_SID` are played by the plug-in ``spec``. ``kernel`` is a namespace with
    the game's contract functions and constants (``start_nb``, ``apply_nb``,
    ``observe_nb``, ``score_nb``, ``record_nb``, ``DOMAIN``, ``STRATEGY_DOMAIN``,
    ``S_LEN``, ``MAX_MOVES``, ``O_CUR``, ``O_TURN``, ``WINNER_COL``).

    ``light`` (id -> decide function) names the built-ins that are cheap to compile (all
    but the search players, whose rollouts hold a second copy of the game): when every
    other seat plays one of them, the entry dispatches over those alone instead of through
    ``decide_builtin``. One entry serves every light partner of a plug-in, so a run or a
    test that puts it against several built-ins compiles it once; it is compiled on first
    use, once per process, plug-in and kind (``args[4]``, the seats' ids, tells which)."""
    plugin = load_plugin(spec)
    k = kernel
    start, apply, observe, score, record = k.start_nb, k.apply_nb, k.observe_nb, k.score_nb, k.record_nb
    dom, sdom, s_len, max_moves = k.DOMAIN, k.STRATEGY_DOMAIN, k.S_LEN, k.MAX_MOVES
    cur_at, turn_at, win_col = k.O_CUR, k.O_TURN, k.WINNER_COL

    def build(builtin):
        @nb.njit(nogil=True)
        def decide(sid, phase, obs, moves, n, rules, data, rng):
            if sid == PLUGIN_SID:
                return plugin(phase, obs, moves, n, rules, data, rng)
            return builtin(sid, phase, obs, moves, n, rules, data, rng)

        @nb.njit(nogil=True, parallel=True)
        def chunk(first, stop, seed, seats, sids, reveal, rules, tables, data, trace_cap, out, leads, bad,
                  finals):
            for g in nb.prange(stop - first):
                bad[g] = play_one_nb(start, apply, observe, score, record, decide, dom, sdom, s_len, max_moves,
                                     cur_at, turn_at, win_col, seed, first + g, seats, sids, reveal, rules,
                                     tables, data, trace_cap, out[g], leads[g], finals[g])
        return chunk

    def run(*args):
        is_light = light is not None and all(int(s) in light for s in args[4] if s != PLUGIN_SID)
        key = (game, spec, is_light)
        chunk = _PLUGIN_CHUNKS.get(key)
        if chunk is None:
            chunk = _PLUGIN_CHUNKS[key] = build(_dispatch(sorted(light.items())) if is_light else decide_builtin)
        try:
            chunk(*args)
        except (nb.core.errors.TypingError, nb.core.errors.LoweringError) as e:
            raise compile_error(spec, "decide(phase, obs, moves, n_moves, rules, data, rng) -> int", e) from None

    return run


def check_answers(bad: np.ndarray, specs: tuple, first_game: int) -> None:
    """Raise the one-line error for the first game in which a strategy answered outside
    the legal moves (``bad[g]`` = that seat, -1 = none)."""
    hit = np.nonzero(bad >= 0)[0]
    if hit.size:
        g = int(hit[0])
        seat = int(bad[g])
        raise PlaytestError(f"strategy {specs[seat]!r} (seat {seat + 1}) answered outside the legal moves "
                            f"in game {first_game + g}; a strategy must return an index 0 <= k < n_moves",
                            field="--strategy")
