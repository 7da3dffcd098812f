"""Binding strategies into kernels, for every game: plug-in loading with one-line errors,
a strategy per seat, and the plug-in kernels of move-list games.

The caching pattern (``simcore/game.py``): each game's binding has ONE cached entry point
whose strategy functions are module globals and whose built-in strategies are chosen per
seat by integer id (``sids``). A user's plug-in cannot be a module global of a cached file,
so it reaches a second cached entry per game (``plugin_chunk_nb``) as a first-class
function (:func:`run_plugin`): a ``numba.cfunc`` that answers for the seats whose id is
:data:`PLUGIN_SID` with the plug-in and for the others with the built-ins' own cached
cfuncs. A plug-in then costs its own compilation (seconds), never the game's, and is never
served a stale cache (it is compiled in each process).

A plug-in that raises: numba's ``cfunc`` cannot pass an exception on to its caller (it
prints "Exception ignored" and returns 0, which the game would play as a move). Every
plug-in is therefore called through :func:`guarded`: its own ``cfunc`` returns the answer
shifted by ``_OFFSET`` (never 0 for an answer in range), 0 when the plug-in raised, which
the guard turns into :data:`RAISED`, an answer outside every game's legal range, so the
game stops there; the exception itself reaches :func:`plugin_errors` (a
``sys.unraisablehook``), which raises ONE line naming the plug-in and the exception
after the chunk, instead of a result.
"""
from __future__ import annotations

import contextlib
import sys
import threading

import numba as nb
import numpy as np

from simcore.errors import PlaytestError
from simcore.plugins import check_arity, compile_error, import_plugin_module

DECIDE_ARGS = ("phase", "obs", "moves", "n_moves", "rules", "data", "rng")

PLUGIN_SID = 99

# a plug-in's answer when it raised: outside every game's legal range (a move index, a
# keep mask, an ability), so the kernel stops that game as it stops any illegal answer
RAISED = -(1 << 62)
_OFFSET = 1 << 40

_CAPTURES: list = []         # the exceptions' boxes of the plug-in runs under way
_HOOKS: list = []            # the hook that was installed before ours
_HOOK_LOCK = threading.Lock()


def _unraisable(args) -> None:
    """``sys.unraisablehook`` while a plug-in runs: the first exception goes to every run
    under way (their games stop at it, see :data:`RAISED`), nothing is printed; any other
    unraisable exception goes to the previous hook."""
    if _CAPTURES and args.exc_type is not None:
        for box in list(_CAPTURES):
            if not box:
                box.append((args.exc_type, args.exc_value))
        return
    (_HOOKS[0] if _HOOKS else sys.__unraisablehook__)(args)


@contextlib.contextmanager
def plugin_errors(spec: str, field: str = "--strategy"):
    """Run a chunk with the plug-in ``spec``: if the plug-in raised in any game, raise the
    one-line error naming it and its exception (the chunk's records are not returned, so
    nothing is kept as a result). The hook is ours only while some plug-in runs."""
    box: list = []
    with _HOOK_LOCK:
        if sys.unraisablehook is not _unraisable:
            _HOOKS[:] = [sys.unraisablehook]
            sys.unraisablehook = _unraisable
        _CAPTURES.append(box)
    try:
        yield box
    finally:
        with _HOOK_LOCK:
            _CAPTURES.remove(box)
            if not _CAPTURES and sys.unraisablehook is _unraisable and _HOOKS:
                sys.unraisablehook = _HOOKS[0]
    if box:
        raise plugin_raised(spec, *box[0], field=field)


def plugin_raised(spec: str, exc_type, exc_value, field: str = "--strategy") -> PlaytestError:
    name = getattr(exc_type, "__name__", str(exc_type))
    text = str(exc_value) if exc_value is not None else ""
    return PlaytestError(f"plug-in {spec!r} raised {name}" + (f": {text}" if text else "")
                         + "; the run is stopped and nothing is kept as a result", field=field)


def guarded(fn, sig):
    """``fn`` (a plug-in's numba function) as a jitted function of signature ``sig`` that
    returns :data:`RAISED` if ``fn`` raised (see the module's docstring)."""
    names = ", ".join(f"a{i}" for i in range(len(sig.args)))   # numba's cfunc takes no *args
    env = {"fn": fn, "OFFSET": _OFFSET, "RAISED": RAISED}
    exec(f"def shifted({names}):\n    return fn({names}) + OFFSET", env)
    env["inner"] = nb.cfunc(sig)(env["shifted"])
    exec(f"def guard({names}):\n    r = inner({names})\n    return RAISED if r == 0 else r - OFFSET", env)
    return nb.njit(nogil=True)(env["guard"])


def python_plugin(spec: str, fn, field: str = "--strategy"):
    """A plug-in as the reference engines call it (from Python): an exception it raises is
    the one-line error naming it, not a traceback."""
    def call(*a):
        try:
            return fn(*a)
        except Exception as e:  # noqa: BLE001 - the user's code raised
            raise plugin_raised(spec, type(e), e, field) from None
    return call


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


_BUILTIN_FUNCTIONS: dict = {}
_PLUGIN_DECIDERS: dict = {}
PLUGIN_SIGNATURE = "decide(phase, obs, moves, n_moves, rules, data, rng) -> int"


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


def decide_types(rules, row_dtype) -> tuple:
    """numba types of ``decide(phase, obs, moves, n_moves, rules, data, rng)`` as the
    shared driver calls it: ``data`` is a seat's row of ``row_dtype``."""
    from numba import types

    row = types.Array(types.int64, 1, "C")
    return (types.int64, row, row, types.int64, nb.typeof(rules),
            types.Array(nb.from_dtype(np.dtype(row_dtype)), 1, "C"), types.Array(types.uint64, 1, "C"))


def builtin_function(fn, args: tuple):
    """A built-in strategy as a first-class function (``numba.cfunc``, cached on disk like
    the games' entries): compiled once per checkout, then loaded in seconds."""
    from numba import types

    key = (fn, args)
    if key not in _BUILTIN_FUNCTIONS:
        _BUILTIN_FUNCTIONS[key] = nb.cfunc(types.int64(*args), cache=True)(fn.py_func)
    return _BUILTIN_FUNCTIONS[key]


def plugin_decider(spec: str, sids, builtins: dict, args: tuple):
    """``decide(sid, phase, ...)`` as a first-class function for a run with the plug-in
    ``spec`` in the seats of id :data:`PLUGIN_SID` and the built-ins ``builtins[sid]`` in
    the others (only those of ``sids`` are linked in). The plug-in is compiled here, once
    per process (seconds); the built-ins come from their cached functions."""
    from numba import types

    present = tuple((s, builtins[s]) for s in sorted({int(s) for s in sids if int(s) != PLUGIN_SID}))
    key = (spec, present, args)     # the built-ins' functions, not only their ids: games share ids
    if key not in _PLUGIN_DECIDERS:
        items = [(PLUGIN_SID, guarded(load_plugin(spec), types.int64(*args)))] + [(s, builtin_function(fn, args)) for s, fn in present]
        chain = _dispatch(items)

        def decide(sid, phase, obs, moves, n, rules, data, rng):
            return chain(sid, phase, obs, moves, n, rules, data, rng)

        _PLUGIN_DECIDERS[key] = nb.cfunc(types.int64(types.int64, *args))(decide)
    return _PLUGIN_DECIDERS[key]


def run_plugin(spec: str, entry, builtins: dict, args: tuple, row_dtype=np.float64) -> None:
    """Play ``entry(*args, decide)``: a game's cached plug-in entry (``plugin_chunk_nb`` in
    its binding, the arguments of its ``chunk_nb`` plus a first-class ``decide``), with
    :func:`plugin_decider`. ``args[4]`` are the seats' strategy ids, ``args[6]`` the rules
    vector; the driver hands each seat its row of the data as ``row_dtype``. A plug-in
    that does not compile for these types is a one-line error naming it.

    The game's entry is compiled once per checkout and cached (minutes for the largest
    games, the first time only); before, a plug-in compiled the whole game in every
    process."""
    try:
        decide = plugin_decider(spec, args[4], builtins, decide_types(args[6], row_dtype))
    except (nb.core.errors.TypingError, nb.core.errors.LoweringError) as e:
        raise compile_error(spec, PLUGIN_SIGNATURE, e) from None
    with plugin_errors(spec):
        entry(*args, decide)


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
