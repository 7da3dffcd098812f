"""The compiled kernel against the reference engine, game for game; reproducibility
across workers and chunks; the user plug-in path."""
import numpy as np
import pytest

from simcore.duel.model import load_setup
from strategies.duel.bind import run_matchups, simulate, strategy_datas
from strategies.duel import builtin_strategies, load_strategy

SETUP = load_setup()
PAIRS = [(a, b) for a in range(4) for b in range(4)]


def assert_same(r1, r2, label=""):
    assert r1.keys() == r2.keys()
    for k in r1:
        assert r1[k].dtype == r2[k].dtype, (label, k)
        np.testing.assert_array_equal(r1[k], r2[k], err_msg=f"{label} {k}")


@pytest.mark.parametrize("name", ["random", "greedy", "optimal"])
def test_kernel_equals_reference_every_pair(name):
    strat = builtin_strategies()[name]
    data = strategy_datas(SETUP, (strat, strat))
    for a, b in PAIRS:
        n = 200
        k = simulate(SETUP, a, b, strat, n, 11, data=data)
        r = simulate(SETUP, a, b, strat, n, 11, data=data, engine="reference")
        assert_same(k, r, f"{name} {a}v{b}")


@pytest.mark.parametrize("s0,s1", [(x, y) for x in ("random", "greedy", "optimal")
                                   for y in ("random", "greedy", "optimal") if x != y])
def test_kernel_equals_reference_with_a_strategy_per_seat(s0, s1):
    """Mixed seats, with the HP lead trace on: records and lead statistics agree."""
    for a, b in PAIRS:
        k = simulate(SETUP, a, b, (s0, s1), 40, 12, trace=True)
        r = simulate(SETUP, a, b, (s0, s1), 40, 12, engine="reference", trace=True)
        assert_same(k, r, f"{s0}/{s1} {a}v{b}")
        assert np.isnan(k["leads"][k["winner"] < 0]).all()
        assert not np.isnan(k["leads"][k["winner"] >= 0]).any()


def test_kernel_equals_reference_under_other_rule_options():
    setup = load_setup(overrides={"first_player": "seat0", "shield_vs_strike_back": False,
                                  "dazed_skips_upkeep": True, "shield_vs_wounds": True,
                                  "turn_cap": 30, "start_hp": 20, "hp_cap": 25, "rolls": 2,
                                  "roll_cost": 1, "max_shield_tokens": 2, "wound_cap": 5})
    for name in ("greedy", "optimal", "random"):
        k = simulate(setup, 1, 3, name, 200, 5)
        r = simulate(setup, 1, 3, name, 200, 5, engine="reference")
        assert_same(k, r, name)
        assert (k["first"] == 0).all()


def test_user_plugin_strategy_kernel_equals_reference():
    strat = load_strategy("strategies.example_user:ultimate_hunter")
    assert not strat.builtin
    k = simulate(SETUP, 1, 2, strat, 200, 3)
    r = simulate(SETUP, 1, 2, strat, 200, 3, engine="reference")
    assert_same(k, r, "plugin")
    assert k["bought"].sum() > 0  # it does buy rolls


def test_same_tables_for_any_jobs_and_chunks():
    base = simulate(SETUP, 0, 2, "greedy", 3000, 99, jobs=1)
    for jobs, chunk in ((1, 70), (1, 1000), (2, 500), (2, 3000)):
        assert_same(base, simulate(SETUP, 0, 2, "greedy", 3000, 99, jobs=jobs, chunk_size=chunk),
                    f"jobs={jobs} chunk={chunk}")
    # a game's record depends only on (seed, index): a later window is the same games
    tail = simulate(SETUP, 0, 2, "greedy", 3000, 99, chunk_size=1000)
    assert_same({k: v[1000:] for k, v in base.items()}, {k: v[1000:] for k, v in tail.items()})


def test_same_matchup_tables_for_1_and_2_jobs():
    from analysis.duel import all_tables

    t1 = all_tables(run_matchups(SETUP, "greedy", 400, 8, jobs=1), SETUP)
    t2 = all_tables(run_matchups(SETUP, "greedy", 400, 8, jobs=2, chunk_size=150), SETUP)
    for name in t1:
        assert t1[name].equals(t2[name]), name


def test_seat_swap_replays_the_same_streams():
    # with the first player drawn by lot, swapping seats on the same seeds makes the other
    # hero go first in every game
    r_ab = simulate(SETUP, 0, 1, "greedy", 500, 4)
    r_ba = simulate(SETUP, 1, 0, "greedy", 500, 4)
    np.testing.assert_array_equal(r_ab["first"], r_ba["first"])


def test_records_are_consistent():
    r = simulate(SETUP, 2, 3, "optimal", 2000, 6)
    w = r["winner"]
    assert set(np.unique(w)) <= {-1, 0, 1}
    dead = r["hp"] <= 0
    # a winner's opponent is dead and the winner alive; a draw is both dead or a timeout
    assert (dead[w == 0, 1]).all() and (~dead[w == 0, 0]).all()
    assert (dead[w == 1, 0]).all() and (~dead[w == 1, 1]).all()
    draws = w == -1
    assert (r["timeout"][draws] | dead[draws].all(axis=1)).all()
    assert (r["hp"] <= 30).all() and (r["cp"] <= 15).all() and (r["cp"] >= 0).all()
    assert (r["turns"] >= 1).all() and (r["turns"] <= 200).all()


def test_strategies_never_get_the_dice_stream():
    """Strategies draw from their own stream: with the dice stream's key a strategy could
    compute every roll still to come."""
    from simcore.duel.reference import DuelGame
    from simcore.duel.state import DOMAIN, STRATEGY_DOMAIN
    from simcore.rng import stream_key

    from duel_helpers import Scripted

    keys = set()

    class Spy(Scripted):
        def keep(self, faces, n, rolls_done, free_left, me, st, tb, rules, data, rng):
            keys.add(int(rng[0]))
            return (1 << n) - 1

    g = DuelGame(SETUP, 0, 1, Spy(choice=0), None, 9, 4)
    g.first = g.current = 0
    g.turn = 1
    g.play_turn(0)
    assert keys == {stream_key(9, 4, STRATEGY_DOMAIN)} != {stream_key(9, 4, DOMAIN)}
    assert int(g.stream[0]) == stream_key(9, 4, DOMAIN)
