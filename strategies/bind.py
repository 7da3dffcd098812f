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

import importlib
import os
import sys

import numba as nb
import numpy as np

from simcore.driver import play_one_nb
from simcore.errors import PlaytestError

PLUGIN_SID = 99


def numba_error_line(e: BaseException) -> str:
    """The first line of a numba typing/lowering error that says something useful."""
    skip = ("No implementation of function", "During:", "File ", "^", "")
    for line in str(e).splitlines():
        t = line.strip()
        if t and not any(t.startswith(s) for s in skip if s):
            return t[:200]
    return type(e).__name__


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
        raise PlaytestError(f"plug-in module {mod_name!r} has no function {fn_name!r}", field=field)
    if not callable(fn):
        raise PlaytestError(f"plug-in {spec!r} is not a function", field=field)
    if not isinstance(fn, nb.core.registry.CPUDispatcher):
        fn = nb.njit(fn)
    return fn


def import_plugin_module(mod_name: str, field: str = "--strategy"):
    """Import a user's module; a missing module, a syntax error or an exception raised on
    import is one line naming the module (with a hint for a file in the current directory
    that Python does not see)."""
    try:
        mod = importlib.import_module(mod_name)
    except ModuleNotFoundError as e:
        hint = ""
        if os.path.exists(mod_name.replace(".", os.sep) + ".py") and "" not in sys.path and "." not in sys.path:
            hint = " (it is in the current directory: run with PYTHONPATH=. or install it as a package)"
        missing = e.name or mod_name
        raise PlaytestError(f"cannot import plug-in module {mod_name!r}: no module named {missing!r}{hint}",
                            field=field) from None
    except SyntaxError as e:
        raise PlaytestError(f"plug-in module {mod_name!r} has a syntax error: {e.msg} "
                            f"({os.path.basename(e.filename or '?')}, line {e.lineno})", field=field) from None
    except Exception as e:  # noqa: BLE001 - any failure while importing a user's module
        raise PlaytestError(f"plug-in module {mod_name!r} raised on import: {type(e).__name__}: {e}",
                            field=field) from None
    return mod


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


def seat_data(rows: list) -> np.ndarray:
    """Per-seat strategy parameters as one float64 array ``[seat, k]`` (rows padded with 0)."""
    width = max(1, max(len(r) for r in rows))
    out = np.zeros((len(rows), width), np.float64)
    for i, r in enumerate(rows):
        out[i, :len(r)] = r
    return out


_PLUGIN_CHUNKS: dict = {}


def plugin_chunk(game: str, spec: str, kernel, decide_builtin):
    """An entry point like a game's cached ``chunk_nb`` in which seats with id
    :data:`PLUGIN_SID` are played by the plug-in ``spec``. ``kernel`` is a namespace with
    the game's contract functions and constants (``start_nb``, ``apply_nb``,
    ``observe_nb``, ``score_nb``, ``record_nb``, ``DOMAIN``, ``STRATEGY_DOMAIN``,
    ``S_LEN``, ``MAX_MOVES``, ``O_CUR``, ``O_TURN``, ``WINNER_COL``)."""
    key = (game, spec)
    if key in _PLUGIN_CHUNKS:
        return _PLUGIN_CHUNKS[key]
    plugin = load_plugin(spec)
    k = kernel
    start, apply, observe, score, record = k.start_nb, k.apply_nb, k.observe_nb, k.score_nb, k.record_nb
    dom, sdom, s_len, max_moves = k.DOMAIN, k.STRATEGY_DOMAIN, k.S_LEN, k.MAX_MOVES
    cur_at, turn_at, win_col = k.O_CUR, k.O_TURN, k.WINNER_COL

    @nb.njit(nogil=True)
    def decide(sid, phase, obs, moves, n, rules, data, rng):
        if sid == PLUGIN_SID:
            return plugin(phase, obs, moves, n, rules, data, rng)
        return decide_builtin(sid, phase, obs, moves, n, rules, data, rng)

    @nb.njit(nogil=True, parallel=True)
    def chunk(first, stop, seed, seats, sids, reveal, rules, tables, data, trace_cap, out, leads, bad,
              finals):
        for g in nb.prange(stop - first):
            bad[g] = play_one_nb(start, apply, observe, score, record, decide, dom, sdom, s_len, max_moves,
                                 cur_at, turn_at, win_col, seed, first + g, seats, sids, reveal, rules,
                                 tables, data, trace_cap, out[g], leads[g], finals[g])

    def run(*args):
        try:
            chunk(*args)
        except (nb.core.errors.TypingError, nb.core.errors.LoweringError) as e:
            raise PlaytestError(f"plug-in {spec!r} does not compile with the documented signature "
                                f"decide(phase, obs, moves, n_moves, rules, data, rng) -> int: "
                                f"{numba_error_line(e)}", field="--strategy") from None

    _PLUGIN_CHUNKS[key] = run
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
