"""Dice Throne with three to six seats (issue 31, simcore/dicethrone/modes/DESIGN.md 1.3-1.6,
plan steps 6-7): 3v3 (A B A B A B, the three-opponent face table), 2v2v2 (A B C A B C, the
four-opponent table, then the two-opponent one once a team is out), free-for-all (each seat
its own team: King of the Hill's free pick and its leader card, or the neighbour roll), and
elimination with places: the teams out at once share the place after the ones still in, the
game goes on until one team is left, and an active seat whose team goes out ends its turn.
Forced-dice positions played through both engines (``dicethrone_helpers.play_both``)."""
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from dicethrone_helpers import (FIRE, MAGMA, PAL, PRAY, PYRO, SOUL, play_both, scenario_rules, seat,  # noqa: E402
                                team_position)

from simcore.dicethrone import model as M  # noqa: E402
from strategies.dicethrone.bind import play_range  # noqa: E402

FIREBALL = (FIRE, FIRE, FIRE, MAGMA, MAGMA)        # 4 damage (normal), needs a target
BURNING_SOUL = (SOUL, SOUL, FIRE, MAGMA, MAGMA)     # no target: 2 collateral to every opponent
HOLD = ("double",)      # a card in the attacker's hand stops the scenario at its main phase 2
DEFENCE = (PRAY, PRAY, PRAY)
SIX = (PYRO, PAL, PAL, PYRO, PYRO, PAL)


def rules_for(mode, **kw):
    return scenario_rules(mode=mode, target_die_cards=False, **kw)


@pytest.mark.parametrize("die,target", [(0, 1), (1, 1), (2, 3), (3, 3), (4, 5), (5, 5)])
def test_3v3_faces_give_left_middle_and_right(die, target):
    """3v3, seat 0 attacking: its opponents in seat order from its left are 1, 3, 5; faces 1-2
    the left (1), 3-4 the middle (3), 5-6 the right (5) (target_faces_3, [TK])."""
    rules = rules_for("3v3")
    S0 = team_position(heroes=SIX, rules=rules, adice=FIREBALL, hands=(HOLD,) + ((),) * 5)
    g, S, seen = play_both(S0, dice=(die,) + DEFENCE, rules=rules)
    assert S[M.O_TTAB] == M.R_TFACES3 and S[M.O_TARGET] == target
    assert [seat(S, p, M.P_HP) for p in range(6)] == [50, 46] * 3


def test_2v2v2_uses_the_four_opponent_table_then_the_two_opponent_one():
    """2v2v2 (teams A B C A B C): seat 0 faces four opponents (1, 2, 4, 5): a 5 is "pick"
    (target_faces_multi), the attacker's choice among them. With team B out, two opponents
    are left (2 and 5, team C): target_faces_2 applies and a 5 is "their_pick", seat 2's."""
    rules = rules_for("2v2v2")
    S0 = team_position(heroes=SIX, rules=rules, adice=FIREBALL, hands=(HOLD,) + ((),) * 5, hp=(50, 50, 50))
    g, S, seen = play_both(S0, dice=(4,), rules=rules)
    assert S[M.O_TTAB] == M.R_TFACESM and S[M.O_PHASE] == M.PH_TARGET and S[M.O_CUR] == 0
    assert list(g.moves) == [M.MV_TARGET + q for q in (1, 2, 4, 5)]
    S0 = team_position(heroes=SIX, rules=rules, adice=FIREBALL, hands=(HOLD,) + ((),) * 5, hp=(50, 0, 50))
    S0[M.O_ALIVE] = 0b101                       # team B (seats 1 and 4) out
    for p in (1, 4):
        S0[M.seat_base(p) + M.P_PLACE] = 3
    g, S, seen = play_both(S0, dice=(4,), rules=rules)
    assert S[M.O_TTAB] == M.R_TFACES2 and S[M.O_PHASE] == M.PH_TARGET and S[M.O_CUR] == 2
    assert list(g.moves) == [M.MV_TARGET + q for q in (5, 2)]


@pytest.mark.parametrize("pick,hp,cards", [(1, 35, 1), (2, 20, 0)])
def test_king_of_the_hill_picks_freely_and_a_leader_draws_a_card(pick, hp, cards):
    """ffa4, ffa_targeting = "free": the attacker picks any living opponent, no die. Seat 1
    has 35 health, the most of the living seats (a leader, with seats 0 and 3): attacking it
    draws the attacker one card before the ability's effects; seat 2 (20) is not a leader."""
    rules = rules_for("ffa4")
    S0 = team_position(heroes=(PYRO, PAL, PAL, PAL), rules=rules, adice=FIREBALL, hands=(HOLD, (), (), ()),
                       hp=(35, 35, 20, 35))
    hand0 = seat(S0, 0, M.P_HAND_N)
    g, S, seen = play_both(S0, dice=DEFENCE, script=[M.MV_TARGET + pick], rules=rules)
    assert seen == [(M.PH_TARGET, 0, [M.MV_TARGET + q for q in (1, 2, 3)])]
    assert S[M.O_TARGET] == pick and seat(S, pick, M.P_HP) == hp - 4
    assert seat(S, 0, M.P_HAND_N) == hand0 + cards


def test_free_for_all_roll_lets_the_attacker_pick_between_its_neighbours():
    """ffa_targeting = "roll": a 5 or 6 is pick_lr (target_faces_ffa): seat 0 picks its left
    neighbour (1) or its right one (3); seat 2, across the table, is not offered."""
    rules = rules_for("ffa4", ffa_targeting="roll", koth_leader_card=False)
    S0 = team_position(heroes=(PYRO, PAL, PAL, PAL), rules=rules, adice=FIREBALL, hands=(HOLD, (), (), ()),
                       hp=(35, 35, 35, 35))
    g, S, seen = play_both(S0, dice=(5,), rules=rules)
    assert S[M.O_TTAB] == M.R_TFACESF and S[M.O_PHASE] == M.PH_TARGET and list(g.moves) == [M.MV_TARGET + 1,
                                                                                              M.MV_TARGET + 3]


def test_a_player_out_leaves_the_game_and_the_turn_order():
    """ffa4: seat 1 at 3 health takes Fireball's 4 and goes out, 4th; the game goes on, and
    after seat 0's turn the next turn is seat 2's."""
    rules = rules_for("ffa4")
    S0 = team_position(heroes=(PYRO, PAL, PAL, PAL), rules=rules, adice=FIREBALL, hands=(HOLD, (), (), ()),
                       hp=(35, 3, 35, 35))
    g, S, seen = play_both(S0, dice=DEFENCE, script=[M.MV_TARGET + 1], rules=rules)
    assert S[M.O_OVER] == 0 and S[M.O_ALIVE] == 0b1101 and S[M.O_STEP] == M.ST_MAIN2
    assert seat(S, 1, M.P_PLACE) == 4 and seat(S, 1, M.P_OUT) == S[M.O_TURN] + 1
    g, S, seen = play_both(S, script=[M.MV_PASS], rules=rules)       # seat 0 ends its main phase 2
    assert S[M.O_ACTIVE] == 2


@pytest.mark.parametrize("hp,over,places", [
    ((35, 2, 2, 2), 1, [0, 2, 2, 2]),      # all three out at once: seat 0 wins (P_PLACE 0, recorded 1st), the others share 2nd
    ((35, 2, 2, 35), 0, [0, 3, 3, 0]),     # two of three out: they share 3rd, the game goes on
])
def test_seats_out_at_once_share_a_place(hp, over, places):
    """Burning Soul I's 2 collateral to every opponent (no target, no die) in ffa4."""
    rules = rules_for("ffa4")
    S0 = team_position(heroes=(PYRO, PAL, PAL, PAL), rules=rules, adice=BURNING_SOUL, hands=(HOLD, (), (), ()),
                       hp=hp)
    g, S, seen = play_both(S0, rules=rules)
    assert S[M.O_OVER] == over and [seat(S, p, M.P_PLACE) for p in range(4)] == places
    if over:
        assert S[M.O_WINNER] == 0 and g.record()["place0"] == 1


def test_the_active_player_out_in_its_upkeep_ends_its_turn():
    """ffa3: seat 0 starts its turn burning at 2 health: Burn knocks it out in its upkeep; it
    takes 3rd, and the turn passes to seat 1 at once."""
    rules = rules_for("ffa3")
    S0 = team_position(heroes=(PYRO, PAL, PAL), rules=rules, hands=((), (), ()), hp=(2, 35, 35),
                       step=M.ST_UPKEEP, tokens=({"burn": 1}, {}, {}))
    g, S, seen = play_both(S0, rules=rules)
    assert S[M.O_ACTIVE] == 1 and S[M.O_OVER] == 0 and seat(S, 0, M.P_PLACE) == 3 and S[M.O_ALIVE] == 0b110


@pytest.mark.parametrize("mode", ["3v3", "2v2v2", "ffa3", "ffa5", "ffa6"])
def test_both_engines_play_the_same_games_in_every_mode(mode):
    """Whole games, greedy: the kernel and the reference engine give identical records,
    places included; every game ranks its seats 1.. with a winner's seats 1st."""
    k = M.MODE_SEATS[mode]
    heroes = tuple(M.roster()[(3 * i) % 8] for i in range(k))
    rules = M.load_rules(overrides={"mode": mode})
    a = play_range(0, 12, 3, heroes, ("greedy",) * k, rules=rules)
    b = play_range(0, 12, 3, heroes, ("greedy",) * k, rules=rules, engine="reference")
    assert set(a) == set(b)
    for f in a:
        assert np.array_equal(a[f], b[f]), f
    places = np.stack([a[f"place{p}"] for p in range(k)], 1)
    won = a["winner"] >= 0
    assert (places[won].min(axis=1) == 1).all() and (places >= 1).all()
    for p in range(k):
        assert ((places[:, p] == 1) == (a["winner"] == a[f"team{p}"]))[won].all()


def test_a_mode_with_the_wrong_seat_count_is_one_line():
    from simcore.errors import PlaytestError
    with pytest.raises(PlaytestError, match="mode ffa5 seats 5 heroes, got 4"):
        play_range(0, 1, 1, (PYRO, PAL, PYRO, PAL), rules=M.load_rules(overrides={"mode": "ffa5"}))
    with pytest.raises(PlaytestError, match="ffa_targeting: must be one of roll, free"):
        M.load_rules(overrides={"mode": "ffa4", "ffa_targeting": "vote"})


def test_search_plays_a_free_for_all_and_both_engines_agree():
    """search in ffa3 (its rollouts score a placed seat by its place, a running one by its
    health against the mean of the others still in): kernel and reference records agree."""
    heroes = ("pyromancer", "paladin", "monk")
    rules = M.load_rules(overrides={"mode": "ffa3"})
    a = play_range(0, 2, 4, heroes, ("search",) * 3, rules=rules)
    b = play_range(0, 2, 4, heroes, ("search",) * 3, rules=rules, engine="reference")
    for f in a:
        assert np.array_equal(a[f], b[f]), f
    assert sorted(a["place0"].tolist() + a["place1"].tolist() + a["place2"].tolist())[:2] == [1, 1]


def test_search_scores_a_placed_seat_by_its_place():
    """position_value: in ffa4, a seat out 3rd is worth (4 - 3) / 3; the winner 1; a running
    seat at the mean health of the others 0.5."""
    from strategies.dicethrone.search import position_value
    rules = rules_for("ffa4")
    S = np.array(team_position(heroes=(PYRO, PAL, PAL, PAL), rules=rules, hp=(20, 20, 20, 20)), np.int64)
    assert position_value(S, 0) == pytest.approx(0.5)
    S[M.seat_base(2) + M.P_PLACE] = 3
    S[M.O_ALIVE] = 0b1011
    assert position_value(S, 2) == pytest.approx(1 / 3)
    S[M.O_OVER], S[M.O_WINNER] = 1, 0
    assert position_value(S, 0) == 1.0


def test_ffa_verb_prints_each_hero_place_with_its_interval(capsys):
    """`playtest dicethrone ffa --table A,B,C`: every rotation of the table (3 seatings) on
    common seeds; each hero's place shares sum to 1 and the 1st places to the finished games."""
    import json

    from dicethrone_helpers import run_cli
    code, out, err = run_cli(capsys, "dicethrone", "ffa", "--table", "pyromancer,paladin,monk", "-n", "4",
                             "--seed", "2", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["mode"] == "ffa3" and doc["games"] == 12 and doc["targeting"] == "free"
    rows = doc["placement"]
    assert {r["hero"] for r in rows} == {"pyromancer", "paladin", "monk"}
    for r in rows:
        assert r["n"] == 12 - doc["capped"] and sum(r[f"place{k}"] for k in (1, 2, 3)) == pytest.approx(1.0)
        assert r["place1_low"] <= r["place1"] <= r["place1_high"]
    assert sum(t["score"] for t in doc["turn_order"]) == pytest.approx(1.0)


@pytest.mark.parametrize("argv,message", [
    (["--table", "pyromancer,paladin"], "--table: free-for-all seats 3 to 6 heroes, got 2"),
    (["--table", "pyromancer,paladin,monk", "--set", "mode=2v2"], "--set: 3 heroes play mode ffa3, not 2v2"),
    (["--table", "pyromancer,paladin,nobody"], "--table"),
    (["--table", "pyromancer,paladin,monk", "--set", "ffa_start_hp=0"], "ffa_start_hp: must be >= 1"),
])
def test_ffa_verb_refuses_bad_input_in_one_line(capsys, argv, message):
    from dicethrone_helpers import run_cli
    code, out, err = run_cli(capsys, "dicethrone", "ffa", *argv, "-n", "2")
    assert code != 0 and message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_ffa_all_plays_every_table_of_k_heroes(capsys):
    """--all 3: the 56 tables of 3 of the 8 heroes, 3 rotations each; a hero sits at 21 of
    them, so its n is 21 x 3 x n games less its capped ones."""
    import json

    from dicethrone_helpers import run_cli
    code, out, err = run_cli(capsys, "dicethrone", "ffa", "--all", "3", "-n", "1", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["tables"] == 56 and doc["games"] == 168 and len(doc["placement"]) == 8
    assert all(r["n"] + r["capped"] == 63 for r in doc["placement"])
