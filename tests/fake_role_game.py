"""A made-up two-role game with a known balance: the attacker wins a game with probability
attack / (attack + defence) (rule options), so the fix of attack=10, defence=20 is
attack=20 (50%). Used by tests/test_fix.py to
check the balance search on a role game (rule options only, the generic edit space)."""
from __future__ import annotations

import numpy as np

from simcore.errors import PlaytestError
from simcore.game import GameAPI, GameType

GAME = GameType(name="coinroles", title="Coin roles", kind="asymmetric", min_seats=2, max_seats=2,
                default_seats=2, entrants="roles", roles=("attacker", "defender"), default_strategy="plain",
                api="fake_role_game:API", package="simcore", description="test game")

DEFAULTS = {"attack": 10, "defence": 20}


def _uniform(seed: int, idx: np.ndarray) -> np.ndarray:
    """splitmix64 of (seed, game index): game i draws the same number in every variant."""
    with np.errstate(over="ignore"):
        z = (np.uint64(seed % 2**64) * np.uint64(0x9E3779B97F4A7C15) + idx.astype(np.uint64)
             * np.uint64(0xBF58476D1CE4E5B9))
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    return (z >> np.uint64(11)).astype(np.float64) / float(2**53)


class CoinAPI(GameAPI):
    type = GAME

    def load_rules(self, path=None, overrides=None):
        from simcore.toml_io import load_toml

        r = dict(DEFAULTS)
        if path is not None:
            r.update(load_toml(path))
        r.update(overrides or {})
        for k, v in r.items():
            if k not in DEFAULTS:
                raise PlaytestError(f"unknown rule option {k!r}", field=k)
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise PlaytestError(f"must be a whole number >= 1, got {v!r}", field=k)
        return r

    def strategies(self):
        return {"plain": "no choices"}

    def check_strategy(self, spec):
        if spec != "plain":
            raise PlaytestError(f"unknown strategy {spec!r}", field="--strategy")
        return spec

    def make_setup(self, rules, content, seats, params=None):
        return dict(rules)

    def play(self, start, stop, seed, setup, lineup, seat_strategies, engine="kernel", trace=False):
        idx = np.arange(start, stop)
        u = _uniform(seed, idx)
        p = setup["attack"] / (setup["attack"] + setup["defence"])
        n = stop - start
        return {"winner": np.where(u < p, 0, 1).astype(np.int8), "capped": np.zeros(n, bool),
                "turns": np.ones(n, np.int32), "first": np.zeros(n, np.int8)}


API = CoinAPI()
