"""The duel's ``search`` (shared Monte Carlo machinery, ``strategies/mcsearch.py``): at a
tiny budget it is legal, deterministic for a seed, and the kernel and the reference engine
play it identically in either seat; the shared pick rule keeps the prior's choice unless
another candidate beats it by the margin."""
import numpy as np

from simcore.duel.model import load_setup
from strategies.duel import builtin_strategies
from strategies.duel.bind import seat_pair, simulate, strategy_datas
from strategies.mcsearch import budget_of, pick_nb

SETUP = load_setup()


def tiny(pair, budget=2):
    data = strategy_datas(SETUP, seat_pair(pair))
    data[3][0][0] = budget
    return data


def test_search_is_registered_and_twinned():
    b = builtin_strategies()
    assert b["search"].sid == 3
    for pair in (("search", "optimal"), ("greedy", "search")):
        data = tiny(pair)
        for a, h in ((0, 1), (2, 3)):
            k = simulate(SETUP, a, h, pair, 6, 21, data=data)
            k2 = simulate(SETUP, a, h, pair, 6, 21, data=data)
            r = simulate(SETUP, a, h, pair, 6, 21, data=data, engine="reference")
            for f in k:
                np.testing.assert_array_equal(k[f], r[f], err_msg=f"{pair} {a}v{h} {f}")
                np.testing.assert_array_equal(k[f], k2[f], err_msg=f"{pair} {a}v{h} {f}")
            assert (k["illegal"] < 0).all() and (k["turns"] > 1).all()


def test_shared_pick_rule_and_budget():
    vals = np.array([0.50, 0.52, 0.60, 0.60])
    assert pick_nb(vals, 4, 1, 0.05) == 2          # beats the default by more than the margin; ties: lowest
    assert pick_nb(vals, 4, 1, 0.10) == 1          # within the margin: the default stands
    assert pick_nb(vals, 2, 0, 0.05) == 0
    assert budget_of(np.array([0.0]), 0, 7) == 7 and budget_of(np.array([12.0]), 0, 7) == 12
