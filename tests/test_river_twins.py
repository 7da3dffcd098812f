"""The numba kernel against the pure-Python reference engine: identical records and final
state vectors game for game, for every (attacker strategy, defender strategy) pairing of
the built-ins and under rule options; records independent of chunking."""
import numpy as np
import pytest

from simcore.river import model as M
from strategies.river import BUILTIN
from strategies.river.bind import play_range

PAIRS = [(a, d) for a in BUILTIN for d in BUILTIN]


def assert_same(k, r):
    for f in list(M.RECORD_FIELDS) + ["game", "final_state"]:
        assert np.array_equal(k[f], r[f]), (f, np.nonzero(k[f] != r[f])[0][:5])


@pytest.mark.parametrize("attacker,defender", PAIRS)
def test_kernel_matches_reference_for_every_pairing(attacker, defender):
    # the search strategy plays thousands of rollouts a move in both engines: fewer games,
    # and 8 deals a move instead of the default 32 (the engines' agreement does not depend on it)
    n = 12 if "search" in (attacker, defender) else 200
    params = "8" if "search" in (attacker, defender) else None
    k = play_range(0, n, 31, attacker=attacker, defender=defender, keep_states=True, params=params)
    r = play_range(0, n, 31, attacker=attacker, defender=defender, engine="reference", keep_states=True,
                   params=params)
    assert_same(k, r)
    # real games: they end by a rule, never the cap, and the records are consistent
    assert (k["capped"] == 0).all() and set(np.unique(k["reason"])) <= {M.END_FOURTH, M.END_DESTROY, M.END_DECKOUT}
    att = k["winner"] == 0
    assert ((k["reason"] == M.END_DECKOUT) == ~att).all()
    assert (k["decide_tile"][att] >= 1).all() and (k["decide_tile"][~att] == 0).all()
    dams = np.stack([k[f"dam{i}"] for i in range(1, 8)], 1)
    assert ((dams >= 1).sum(1) == k["damaged"]).all()
    assert ((dams == 2).sum(1) == (k["reason"] == M.END_DESTROY)).all()
    assert (k["logs_used"] <= 3).all() and (k["first"] == 0).all()
    assert (k["deck_left"][~att] == 0).all()
    if attacker == "heuristic" and n == 200:     # games won early vary in length
        assert len(np.unique(k["turns"])) > 3


@pytest.mark.parametrize("overrides", [
    {"tie_rule": "defender", "shuffle_tiles": False},
    {"claim_by_proof": False, "duck_beaver": False, "logs": 5},
    {"dams_to_win": 3, "destroy_wins": False, "hand_size": 5},
    {"deckout_trigger": "last_card", "attacker_last_turn": False},
    {"deckout_trigger": "empty_draw", "tie_rule": "defender_complete"},
    {"tactics": True},
    {"max_turns": 20},
])
def test_kernel_matches_reference_under_rule_options(overrides):
    rules = M.load_rules(overrides=overrides)
    for a, d in (("heuristic", "heuristic"), ("random", "heuristic")):
        k = play_range(0, 60, 5, rules=rules, attacker=a, defender=d, keep_states=True)
        r = play_range(0, 60, 5, rules=rules, attacker=a, defender=d, engine="reference", keep_states=True)
        assert_same(k, r)
    if overrides.get("max_turns") == 20:
        assert (k["capped"] == 1).any() and (k["winner"][k["capped"] == 1] == -1).all()
    if not overrides.get("destroy_wins", True):
        assert (k["reason"] != M.END_DESTROY).all()


def test_tactics_are_played_when_on():
    """With a larger tactic pile (a designer's file), steals happen in both engines alike
    (random play also fills whole sides, so hands grow past the hand size: a player who
    cannot play still draws)."""
    tactics = [("Treason", M.EF_STEAL)] * 6
    tables = M.make_tables(tactics=tactics)
    rules = M.load_rules(overrides={"tactics": True})
    k = play_range(0, 80, 8, rules=rules, attacker="random", defender="random", keep_states=True, tables=tables)
    r = play_range(0, 80, 8, rules=rules, attacker="random", defender="random", keep_states=True, tables=tables,
                   engine="reference")
    assert_same(k, r)
    assert k["steals"].sum() > 0


def test_records_do_not_depend_on_chunking():
    whole = play_range(0, 120, 3)
    parts = [play_range(a, b, 3) for a, b in ((0, 50), (50, 51), (51, 120))]
    for f in M.RECORD_FIELDS:
        assert np.array_equal(whole[f], np.concatenate([p[f] for p in parts]))
