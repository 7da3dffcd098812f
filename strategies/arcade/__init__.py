"""Throne Arcade strategies. The interface (one numba function per strategy)::

    decide(phase, obs, moves, n_moves, rules, data, rng) -> int

is documented in ``strategies/arcade/basic.py``; any strategy may sit in any seat.

Built-ins:
- ``random``: a uniformly random legal move (drawing included when a lay is possible).
- ``greedy``: shed the most cards now; hold specials (VII/Lord, Ace, Hand) unless they
  empty the hand or hurt the next player most (that player holds at most 2 cards);
  choose the last card / named suit that leaves the most own cards able to follow.
- ``defensive``: one card at a time (a set only to go out), plain cards first, keep the
  hand flexible (most suits and types still covered, most cards able to follow); Aces
  and VIIs are held as defence, laid only when the next player is down to one card or
  when nothing else can be laid.
- ``search``: determinized Monte Carlo (``strategies/arcade/search.py``): every legal move
  is tried on ``budget`` sampled deals of the hidden cards and rolled out to the end of
  the round with ``greedy`` in every seat; budget = ``--param`` (default 8). Gain over
  ``greedy`` from one seat against three ``greedy`` players, 4 players, budget 8, the
  search seat moved through all four seats (500 games each, seed 41): 32.95% [30.9, 35.0]
  of 2,000 games against 25.0% for ``greedy`` in the same seats on the same seeds
  (greedy everywhere: seats 24.4/27.0/23.0/25.6%), a gain of +8.0 points [+5.9, +10.0];
  per seat 32.8/32.6/32.8/33.6%. Command, for seat k: ``playtest arcade run -p 4 -s
  search,greedy,greedy,greedy -n 500 --seed 41 --json`` (search moved to seat k).
  Earlier measurements, seat 1 only: budget 8: 28.0%
  [22.2, 34.6] (200 games, seed 21); budget 24, seat 1: 50.0% [43.1, 56.9] (200 games,
  seed 21), seat 3: 51.9% [44.2, 59.5] (160 games, seed 22). Roughly 0.2-0.5 s per 4-player
  game with one search seat (wall time on a shared 2-core machine).
A plug-in ``package.module:function`` with the same signature may sit in any seat.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simcore.errors import PlaytestError


@dataclass(frozen=True)
class ArcadeStrategy:
    name: str
    sid: int                  # built-in id (kernel dispatch); -1 for a plug-in
    description: str
    default_params: tuple = (0.0,)
    plugin: str = ""

    @property
    def label(self) -> str:
        return self.name


SID_RANDOM, SID_GREEDY, SID_DEFENSIVE, SID_SEARCH = 0, 1, 2, 3

BUILTIN = {
    "random": ArcadeStrategy("random", SID_RANDOM, "uniformly random legal move (drawing included)"),
    "greedy": ArcadeStrategy("greedy", SID_GREEDY, "shed the most cards; keep specials for when they hurt the "
                             "next player most; leave a top card the hand can follow"),
    "defensive": ArcadeStrategy("defensive", SID_DEFENSIVE, "one card at a time, keep the hand flexible, hold "
                                "Aces and VIIs as defence against a player about to go out"),
    "search": ArcadeStrategy("search", SID_SEARCH, "determinized Monte Carlo: each move rolled out to the end of "
                             "the round on sampled deals with greedy play; budget = --param rollouts per move",
                             default_params=(8.0,)),
}


def get_strategy(name: str) -> ArcadeStrategy:
    if name in BUILTIN:
        return BUILTIN[name]
    if ":" in name:
        return ArcadeStrategy(name, -1, f"user plug-in {name}", plugin=name)
    raise PlaytestError(f"unknown strategy {name!r} (built-in: {', '.join(BUILTIN)}; "
                        "or a plug-in package.module:function)", field="--strategy")


def parse_params(text, strategy: ArcadeStrategy) -> np.ndarray:
    if text is None or text == "" or isinstance(text, dict):
        return np.array(strategy.default_params, np.float64)
    if isinstance(text, (list, tuple, np.ndarray)):
        text = ",".join(str(float(v)) for v in text)
    try:
        vals = [float(v) for v in str(text).split(",")]
    except ValueError:
        raise PlaytestError(f"must be comma-separated numbers, got {text!r}", field="--param") from None
    if strategy.sid == SID_SEARCH and not (1 <= vals[0] <= 100_000):
        raise PlaytestError(f"search budget (rollouts per move) must be 1..100000, got {vals[0]:g}", field="--param")
    return np.array(vals, np.float64)
