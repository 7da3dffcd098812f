"""The numba kernel against the pure-Python reference engine: identical records and
identical final state vectors game for game (shuffles, dice, decisions), for every
built-in strategy in every seat and both hero seat orders, and under rule options."""
import numpy as np
import pytest

from simcore.dicethrone import model as M
from strategies.dicethrone.bind import play_range

HEROES = [("pyromancer", "paladin"), ("paladin", "pyromancer")]


def assert_same(k, r):
    for f in M.RECORD_FIELDS:
        assert np.array_equal(k[f], r[f]), (f, np.nonzero(k[f] != r[f])[0][:5])
    diff = np.nonzero((k["final_state"] != r["final_state"]).any(axis=1))[0]
    assert len(diff) == 0, f"final states differ in games {diff[:5]}"


@pytest.mark.parametrize("heroes", HEROES)
@pytest.mark.parametrize("strategies", [("random", "random"), ("greedy", "greedy"), ("random", "greedy"),
                                        ("optimal", "optimal"), ("greedy", "optimal")])
def test_kernel_matches_reference(heroes, strategies):
    n = 150 if "random" in strategies else (80 if "optimal" in strategies else 200)
    k = play_range(0, n, 101, heroes, strategies, keep_states=True)
    r = play_range(0, n, 101, heroes, strategies, engine="reference", keep_states=True)
    assert_same(k, r)
    # real games: decided by knock-outs, varied lengths, both seats win some
    assert k["capped"].sum() == 0 and len(np.unique(k["turns"])) > 5
    assert (k["winner"] >= 0).any()
    over = k["winner"] >= 0
    loser_hp = np.where(k["winner"] == 0, k["hp1"], k["hp0"])
    assert (loser_hp[over] <= 0).all()


@pytest.mark.parametrize("heroes", [("pyromancer", "pyromancer"), ("paladin", "pyromancer")])
def test_search_kernel_matches_reference(heroes):
    """``search`` at a tiny budget (1 rollout a candidate, 2-turn rollouts), a few games,
    either seat: the rollouts draw the same private streams in both engines."""
    for strategies in (("search", "optimal"), ("random", "search")):
        k = play_range(0, 3, 17, heroes, strategies, keep_states=True, search_budget=1, search_horizon=2)
        r = play_range(0, 3, 17, heroes, strategies, engine="reference", keep_states=True, search_budget=1,
                       search_horizon=2)
        assert_same(k, r)


# Season One heroes moved into heroes/ (plan step 10): 20 games each way against the Paladin
SEASON1 = ["moon_elf", "shadow_thief", "barbarian", "monk", "ninja", "treant"]


@pytest.mark.parametrize("hero", SEASON1)
@pytest.mark.parametrize("strategies", [("greedy", "greedy"), ("random", "random"), ("optimal", "greedy")])
def test_season1_hero_kernel_matches_reference(hero, strategies):
    for heroes in ((hero, "paladin"), ("paladin", hero)):
        k = play_range(0, 20, 31, heroes, strategies, keep_states=True)
        r = play_range(0, 20, 31, heroes, strategies, engine="reference", keep_states=True)
        assert_same(k, r)
        assert "random" in strategies or k["capped"].sum() == 0


@pytest.mark.parametrize("overrides", [
    {"first_player": "seat0", "first_player_skips_income": False, "decay_before_burn": True},
    {"stun_extra_attack": False, "crit_needs_threshold": False, "blessing_vs_ultimate": False,
     "may_skip_ability": True},
    {"simultaneous_ko_draw": False, "reshuffle_discard": False, "hand_limit": 3, "sell_cp": 2},
    {"max_turns": 8, "start_hp": 30, "roll_attempts": 2, "cp_cap": 6, "income_cards": 2},
])
def test_kernel_matches_reference_under_rule_options(overrides):
    rules = M.load_rules(overrides=overrides)
    for strategies in (("random", "random"), ("greedy", "random")):
        k = play_range(0, 60, 5, HEROES[0], strategies, rules, keep_states=True)
        r = play_range(0, 60, 5, HEROES[0], strategies, rules, engine="reference", keep_states=True)
        assert_same(k, r)
    if "max_turns" in overrides:
        assert k["capped"].any() and (k["turns"] <= 8).all() and (k["winner"][k["capped"] == 1] == -1).all()
    if overrides.get("first_player") == "seat0":
        assert (k["first"] == 0).all()


def test_records_do_not_depend_on_chunking():
    whole = play_range(0, 40, 3, strategies=("greedy", "random"))
    parts = [play_range(a, a + 10, 3, strategies=("greedy", "random")) for a in range(0, 40, 10)]
    for f in M.RECORD_FIELDS:
        assert np.array_equal(whole[f], np.concatenate([p[f] for p in parts])), f


def test_lead_trace_matches_reference():
    """With the per-turn health trace on, both engines give the same lead statistics."""
    from simcore.game import LEAD_FIELDS

    k = play_range(0, 60, 9, strategies=("greedy", "random"), trace=True)
    r = play_range(0, 60, 9, strategies=("greedy", "random"), engine="reference", trace=True)
    for f in LEAD_FIELDS:
        assert np.allclose(k[f], r[f], equal_nan=True), f
    assert (k["lead_changes"] >= 0).all() and np.isfinite(k["drama"]).any()


def test_records_do_not_depend_on_the_record_chunk(monkeypatch):
    """A run played 7 games at a time into the reused row buffer (``bind.RECORD_CHUNK``)
    gives the same records, field for field and dtype for dtype, as one chunk."""
    from strategies.dicethrone import bind

    whole = bind.play_range(5, 35, 9, strategies=("greedy", "random"), trace=True)
    monkeypatch.setattr(bind, "RECORD_CHUNK", 7)
    parts = bind.play_range(5, 35, 9, strategies=("greedy", "random"), trace=True)
    assert whole.keys() == parts.keys()
    for f in whole:
        assert whole[f].dtype == parts[f].dtype, f
        assert np.array_equal(whole[f], parts[f]), f
