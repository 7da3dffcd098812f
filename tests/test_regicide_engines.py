"""The numba kernel against the pure-Python reference engine: identical records and
final states game for game, over player counts, strategies and rule options; records
independent of jobs and chunking."""
import numpy as np
import pytest

from simcore.errors import PlaytestError
from simcore.regicide import model as M
from strategies.regicide import bind as sim

RULES = M.load_rules()


def assert_same(a, b):
    for k in list(M.RECORD_FIELDS) + ["game", "final_state"]:
        if k in a or k in b:
            assert np.array_equal(a[k], b[k]), (k, np.nonzero(a[k] != b[k])[0][:5])


@pytest.mark.parametrize("strategy", ["random", "heuristic"])
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_kernel_matches_reference(players, strategy):
    n = 150
    k = sim.run_games(players, strategy, n, seed=20240 + players, keep_states=True)
    r = sim.run_reference(players, strategy, n, seed=20240 + players, keep_states=True)
    assert_same(k, r)
    # the games are real games: they end by a rule, not a cap, and vary
    assert (k["players"] == players).all()
    assert k["reason"].max() <= M.R_TURN_CAP and len(np.unique(k["turns"])) > 5
    won = k["win"] == 1
    assert (k["defeated"][won] == 12).all() and (k["defeated"][~won] == k["end_pos"][~won]).all()
    if players == 1:
        assert (k["medal"][won] == 3 - k["flips_used"][won]).all() and (k["medal"][~won] == 0).all()
        assert (k["jesters"] == 0).all() and (k["flips_used"] <= 2).all()
    else:
        assert (k["flips_used"] == 0).all()


@pytest.mark.parametrize("overrides", [
    {"hearts_before_diamonds": False, "exact_kill_to_tavern": False},
    {"immunity": False, "companions": False, "combo_max_total": 12},
    {"solo_yield_allowed": False, "solo_flips": 0, "hand_size_1": 6},
    {"jester_cancels_immunity": False, "jester_choose_self": False, "yield_restriction": False},
    {"max_turns": 12},
])
def test_kernel_matches_reference_under_rule_options(overrides):
    rules = M.load_rules(overrides=overrides)
    for players in (1, 3):
        k = sim.run_games(players, "random", 60, seed=5, rules=rules, keep_states=True)
        r = sim.run_reference(players, "random", 60, seed=5, rules=rules, keep_states=True)
        assert_same(k, r)
    if "max_turns" in overrides:
        assert (k["turns"] <= 12).all() and (k["reason"] == M.R_TURN_CAP).any()


def test_search_and_cheat_match_reference():
    for strategy, players in (("search", 1), ("search", 3), ("cheat", 1)):
        k = sim.run_games(players, strategy, 3, seed=9, params="2", keep_states=True)
        r = sim.run_reference(players, strategy, 3, seed=9, params="2", keep_states=True)
        assert_same(k, r)


def test_same_records_for_any_jobs_and_chunks():
    a = sim.run_games(2, "heuristic", 300, seed=3)
    b = sim.run_games(2, "heuristic", 300, seed=3, chunk_size=37)
    c = sim.run_games(2, "heuristic", 300, seed=3, jobs=2, chunk_size=100)
    assert_same(a, b)
    assert_same(a, c)
    d = sim.run_games(2, "heuristic", 300, seed=4)
    assert not np.array_equal(a["turns"], d["turns"])


def test_plugin_strategy_runs_in_both_engines():
    spec = "strategies.regicide_example_plugin:decide"
    k = sim.run_games(2, spec, 40, seed=1, keep_states=True)
    r = sim.run_reference(2, spec, 40, seed=1, keep_states=True)
    assert_same(k, r)
    with pytest.raises(PlaytestError, match="cannot import"):
        sim.run_games(1, "no_such_pkg.mod:fn", 5)
    with pytest.raises(PlaytestError, match="has no function"):
        sim.run_games(1, "strategies.regicide_example_plugin:nope", 5)
    with pytest.raises(PlaytestError, match="unknown strategy"):
        sim.run_games(1, "best", 5)
    with pytest.raises(PlaytestError, match="--players"):
        sim.run_games(5, "random", 5)


def test_strength_order():
    """Sanity of the strategies, not a benchmark: the heuristic goes further than random."""
    rnd = sim.run_games(1, "random", 400, seed=2)
    heu = sim.run_games(1, "heuristic", 400, seed=2)
    assert heu["defeated"].mean() > rnd["defeated"].mean() + 3


def test_strategies_never_get_the_game_stream():
    """The stream handed to a strategy is its own (the game's key would let it replay the
    shuffles, i.e. see the hidden deal)."""
    from simcore.regicide import model as Mo
    from simcore.regicide import reference as rf
    from simcore.rng import stream_key

    seen = []

    def spy(phase, obs, moves, n, rules, data, rng):
        seen.append(int(rng[0]))
        return 0

    rules = Mo.load_rules()
    g = rf.play_game(1, rules, 5, 3, spy, np.zeros(1))
    assert seen and set(seen) == {stream_key(5, 3, Mo.STRATEGY_DOMAIN)}
    assert int(g.rng[0]) == stream_key(5, 3, Mo.DOMAIN) != seen[0]
