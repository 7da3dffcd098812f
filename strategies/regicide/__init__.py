"""The Regicide strategy interface.

A Regicide strategy is ONE numba-compilable function::

    decide(phase, obs, moves, n_moves, rules, data, rng) -> int

called at every decision of the seats it plays (seats may mix strategies; each seat sees
only what that seat may see). It returns an index ``k`` with
``0 <= k < n_moves``; the engine applies ``moves[k]``. Any other answer stops the run with an
error naming the strategy (never a silent loss).

Arguments:
    phase    ``model.PH_PLAY`` (step 1), ``model.PH_DISCARD`` (step 4: suffer damage) or
             ``model.PH_JESTER`` (a Jester was played: choose the seat that goes next).
    obs      int64[model.S_LEN]: the state vector as the seat to act ``obs[O_CUR]`` sees it
             (layout in ``simcore.regicide.model``): its own hand, all hand sizes, the
             current enemy, damage, Spades total, immunity cancelled, discard pile, cards
             played against the enemy, Tavern size, public Tavern top cards (exact kills),
             flips left. Hidden slots (other hands, the rest of the Tavern deck, the castle
             below the current enemy) read ``model.NONE`` (-1) - unless the strategy is
             registered as perfect-information (``cheat``), which sees everything.
    moves    int64[model.MAX_MOVES], the first ``n_moves`` are the legal moves, sorted:
             PH_PLAY: ``mask`` (bit i = hand position i; singles, combos, companion pairs,
             the Jester alone), then ``model.YIELD`` (if allowed), then ``model.FLIP`` (solo,
             flips left). PH_DISCARD: every discard mask whose values cover
             ``obs[O_PENDING]`` (all of them, minimal or not; only ``0`` when the pending
             damage is 0), then ``model.FLIP`` (solo). PH_JESTER: seat numbers.
    rules    int64 rule vector (``model.R`` maps option names to indices).
    data     float64 array of the strategy's parameters (``--param``; e.g. the search
             budget), built once per run.
    rng      uint64[2]: the strategies' own random stream for this game (stream
             ``(seed, game, model.STRATEGY_DOMAIN)``), separate from the shuffles so that
             no strategy can recover the hidden deal from it; draw with
             ``simcore.rng.below_nb``/``uniform_nb``. Both engines hand over the same
             stream, so they stay in step because a strategy is a deterministic function
             of its arguments.

Plug-ins: ``--strategy package.module:function`` names such a function (an
``@numba.njit`` function, or a plain Python function that numba can compile). It gets
``data`` from ``--param v1,v2,...`` (default ``[0.0]``).
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass

import numpy as np

from simcore.errors import PlaytestError


@dataclass(frozen=True)
class RegicideStrategy:
    name: str
    sid: int                      # built-in id (kernel dispatch); -1 for a plug-in
    description: str
    perfect_information: bool = False
    default_params: tuple = (0.0,)
    plugin: str = ""              # "package.module:function" for plug-ins

    @property
    def label(self) -> str:
        return f"{self.name} (CHEAT: perfect information, a ceiling only)" if self.perfect_information else self.name


SID_RANDOM, SID_HEURISTIC, SID_SEARCH = 0, 1, 2

BUILTIN = {
    "random": RegicideStrategy("random", SID_RANDOM, "uniform over the legal moves (and discard sets)"),
    "heuristic": RegicideStrategy(
        "heuristic", SID_HEURISTIC,
        "rule-based: kill (exactly if possible) at least cost, else the play that best trades "
        "damage, shields and draws against the cards spent and the damage then suffered; "
        "cheapest discards"),
    "search": RegicideStrategy(
        "search", SID_SEARCH,
        "determinized Monte Carlo search: samples the hidden cards from the seat's information "
        "set, rolls out every candidate move with the heuristic policy; budget = --param "
        "rollouts per candidate",
        default_params=(16.0,)),
    "cheat": RegicideStrategy(
        "cheat", SID_SEARCH,
        "the search strategy given perfect information (deck order, all hands): a ceiling, "
        "not a fair player", perfect_information=True, default_params=(16.0,)),
}


def get_strategy(name: str) -> RegicideStrategy:
    if name in BUILTIN:
        return BUILTIN[name]
    if ":" in name:
        return RegicideStrategy(name, -1, f"user plug-in {name}", plugin=name)
    raise PlaytestError(f"unknown strategy {name!r} (built-in: {', '.join(BUILTIN)}; "
                        "or a plug-in package.module:function)", field="--strategy")


def load_plugin(spec: str):
    """Import ``package.module:function`` and return a numba dispatcher for it."""
    import numba

    mod_name, _, fn_name = spec.partition(":")
    if not mod_name or not fn_name:
        raise PlaytestError(f"expected package.module:function, got {spec!r}", field="--strategy")
    try:
        mod = importlib.import_module(mod_name)
    except Exception as e:  # noqa: BLE001 - any import failure is a bad option value
        raise PlaytestError(f"cannot import {mod_name!r}: {type(e).__name__}: {e}", field="--strategy") from None
    fn = getattr(mod, fn_name, None)
    if fn is None:
        raise PlaytestError(f"module {mod_name!r} has no function {fn_name!r}", field="--strategy")
    if not callable(fn):
        raise PlaytestError(f"{spec!r} is not a function", field="--strategy")
    if not isinstance(fn, numba.core.registry.CPUDispatcher):
        fn = numba.njit(fn)
    return fn


def parse_params(text: str | None, strategy: RegicideStrategy) -> np.ndarray:
    if text is None or text == "":
        return np.array(strategy.default_params, np.float64)
    try:
        vals = [float(v) for v in str(text).split(",")]
    except ValueError:
        raise PlaytestError(f"must be comma-separated numbers, got {text!r}", field="--param") from None
    if strategy.sid == SID_SEARCH and not (1 <= vals[0] <= 1_000_000):
        raise PlaytestError(f"search budget (rollouts per candidate) must be 1..1000000, got {vals[0]:g}",
                            field="--param")
    return np.array(vals, np.float64)
