"""Dice Throne's targeting roll (issue 31, simcore/dicethrone/modes/DESIGN.md 1.7 and 2.3, plan
step 3): in 2v2 an ability that names "the opponent" rolls one die after it is chosen: faces
1-2 the opponent on the left, 3-4 on the right, 5 the opponents pick, 6 the attacker picks
(``target_faces_2``); cards may change the die in a window (``target_die_cards``), except an
ultimate's opponents. Forced-dice positions played through both engines
(``dicethrone_helpers.play_both`` checks that the kernel and the reference engine offer the
same moves and hold the same state after every step).

Seats: 0 and 2 are team 0, 1 and 3 team 1; seat 0 attacks, so its left opponent is seat 1 and
its right opponent seat 3."""
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from dicethrone_helpers import (AB, DATA, FIRE, MAGMA, METEOR, PRAY, SOUL, play_both,  # noqa: E402
                                scenario_rules, seat, team_position)

from simcore import rng as R  # noqa: E402
from simcore.dicethrone import model as M  # noqa: E402
from simcore.errors import PlaytestError  # noqa: E402

NO_CARDS = scenario_rules(mode="2v2", target_die_cards=False)
CARDS = scenario_rules(mode="2v2")
FIREBALL = (FIRE, FIRE, FIRE, MAGMA, MAGMA)        # Fireball's 3-fire tier: 4 damage (normal)
SCORCH = (METEOR,) * 5                              # Scorch the Earth: the ultimate
BURNING_SOUL = (SOUL, SOUL, FIRE, MAGMA, MAGMA)     # Burning Soul I: self and collateral effects only
HOLD = ("double",)      # a card in the attacker's hand stops the scenario at its main phase 2
DEFENCE = (PRAY, PRAY, PRAY)    # the defender's roll: nothing prevented, nothing dealt back


def target_moves(*seats):
    return [M.MV_TARGET + q for q in seats]


@pytest.mark.parametrize("die,target", [(0, 1), (1, 1), (2, 3), (3, 3)])
def test_faces_one_to_four_send_the_attack_left_or_right(die, target):
    """A 1 or 2 on the targeting die: the opponent on the left (seat 1); 3 or 4: on the right
    (seat 3). Fireball's 4 damage lands on that seat: team 1's pool falls to 46."""
    S0 = team_position(rules=NO_CARDS, adice=FIREBALL, hands=(HOLD, (), (), ()))
    g, S, seen = play_both(S0, dice=(die,) + DEFENCE, rules=NO_CARDS)
    assert S[M.O_TDIE] == die and S[M.O_TARGET] == target and S[M.O_STEP] == M.ST_MAIN2
    assert [seat(S, p, M.P_HP) for p in range(4)] == [50, 46, 50, 46]


def test_a_five_lets_the_left_opponent_pick_among_its_team():
    """A 5: the opponent on the left (seat 1) picks which member of its team is attacked,
    from the seats after it (3, then itself); it picks seat 3, who then defends."""
    S0 = team_position(rules=NO_CARDS, adice=FIREBALL, hands=(HOLD, (), (), ()))
    g, S, seen = play_both(S0, dice=(4,) + DEFENCE, script=[M.MV_TARGET + 3], rules=NO_CARDS)
    assert seen == [(M.PH_TARGET, 1, target_moves(3, 1))]
    assert S[M.O_TARGET] == 3 and seat(S, 3, M.P_HP) == 46 and S[M.O_STEP] == M.ST_MAIN2


def test_a_six_lets_the_attacker_pick():
    """A 6: the attacker picks among the living opponents (1, then 3)."""
    S0 = team_position(rules=NO_CARDS, adice=FIREBALL, hands=(HOLD, (), (), ()))
    g, S, seen = play_both(S0, dice=(5,) + DEFENCE, script=[M.MV_TARGET + 3], rules=NO_CARDS)
    assert seen == [(M.PH_TARGET, 0, target_moves(1, 3))]
    assert S[M.O_TARGET] == 3 and seat(S, 1, M.P_HP) == 46


def test_the_attacker_turns_a_one_into_a_six_with_a_card():
    """target_die_cards: the window on the targeting die opens with the attacker. Its Surprise
    ("set one die to any face") turns the 1 into a 6; the window closes after every seat
    passes, and the 6 lets the attacker pick."""
    S0 = team_position(rules=CARDS, adice=FIREBALL, hands=(("surprise",), (), (), ()), cp=(2, 0, 0, 0))
    script = [M.MV_PASS,                  # its roll decision (no attempt left; Surprise unplayed): stop
              M.MV_PLAY + 0,              # the targeting die's window: Surprise
              M.MV_DIE + 0 * 8 + 6]       # the die (the only one) to face 6
    g, S, seen = play_both(S0, dice=(0,), script=script, rules=CARDS)
    assert [(ph, who) for ph, who, _ in seen] == [(M.PH_ROLL, 0), (M.PH_WINDOW, 0), (M.PH_DIE, 0)]
    assert S[M.O_TDIE] == 5 and S[M.O_PHASE] == M.PH_TARGET and S[M.O_CUR] == 0
    assert list(g.moves) == target_moves(1, 3)


@pytest.mark.parametrize("adice,asked", [(FIREBALL, 2), (SCORCH, 1)])
def test_an_opponent_may_change_the_die_except_against_an_ultimate(adice, asked):
    """Seat 1 holds Surprise ("any die"). After a normal attack is chosen it is asked on the
    targeting die's window (after the roll window); against Scorch the Earth, an ultimate, its
    opponents take no action: it is asked in the roll window only."""
    S0 = team_position(rules=CARDS, adice=adice, hands=(HOLD, ("surprise",), (), ()), cp=(0, 2, 0, 0))
    g, S, seen = play_both(S0, dice=(0,) + DEFENCE, script=[M.MV_PASS] * asked, rules=CARDS)
    assert [(ph, who) for ph, who, _ in seen] == [(M.PH_WINDOW, 1)] * asked
    assert S[M.O_TARGET] == 1


def test_a_tier_without_an_opponent_effect_rolls_no_targeting_die():
    """Burning Soul I (Fire Mastery for the attacker, collateral to all opponents) names no
    single opponent: no targeting die is rolled (O_TDIE keeps its value) and no defence; its
    collateral (one a fiery soul: 2) reaches both opponents, 4 off their pool."""
    S0 = team_position(rules=NO_CARDS, adice=BURNING_SOUL, hands=(HOLD, (), (), ()))
    S0[M.O_TDIE] = 3
    g, S, seen = play_both(S0, dice=(0,), rules=NO_CARDS)
    assert S[M.O_TDIE] == 3 and S[M.O_TARGET] == 1 and S[M.O_STEP] == M.ST_MAIN2
    assert seat(S, 1, M.P_HP) == 46 and S[M.O_ROLL_WHO] == 0


@pytest.mark.parametrize("extra,target", [(0, 1), (1, 3)])
def test_a_stun_extra_phase_keeps_its_target(extra, target):
    """At ST_TARGET with Fireball chosen and seat 3 the target: in a Stun's extra offensive roll
    phase (O_STUNNED_ATK > 0) the target stays seat 3 with no roll; in the turn's first phase
    the die (a 1) sends the attack left, to seat 1."""
    S0 = team_position(rules=NO_CARDS, adice=FIREBALL, hands=(HOLD, (), (), ()), step=M.ST_TARGET)
    S0[M.O_AB], S0[M.O_TIER], S0[M.O_ATK_KIND] = AB["pyromancer"]["fireball"], 0, M.K_NORMAL
    S0[M.O_TARGET], S0[M.O_STUNNED_ATK] = 3, extra
    g, S, seen = play_both(S0, dice=(0,) + DEFENCE, rules=NO_CARDS)
    assert S[M.O_TARGET] == target and seat(S, target, M.P_HP) == 46


def test_two_seats_roll_no_targeting_die():
    """1v1: the same Fireball draws the defender's dice first (the targeting die is skipped,
    the seed's "Pomiń tę fazę w rozgrywce 2-osobowej"), so the 1v1 stream is unchanged."""
    from dicethrone_helpers import PAL, PYRO, position
    S0 = position(heroes=(PYRO, PAL), adice=FIREBALL, hands=(HOLD, ()))
    g, S, seen = play_both(S0, dice=DEFENCE)
    assert S[M.O_TDIE] == 0 and seat(S, 1, M.P_HP) == 46 and list(S[M.O_DDICE:M.O_DDICE + 3]) == list(DEFENCE)


@pytest.mark.parametrize("faces,message", [
    (["left"] * 5, "target_faces_2: must be a list of 6 outcomes"),
    (["left", "left", "middle", "right", "pick", "pick"], "target_faces_2: 'middle' is not an outcome"),
    ("left", "target_faces_2: must be list"),
])
def test_a_bad_face_table_is_one_line_before_any_game(faces, message):
    with pytest.raises(PlaytestError, match=message):
        M.load_rules(overrides={"mode": "2v2", "target_faces_2": faces})


def test_the_face_table_is_data():
    """All six faces "pick": the attacker picks whatever the die shows."""
    rules = scenario_rules(mode="2v2", target_die_cards=False, target_faces_2=["pick"] * 6)
    S0 = team_position(rules=rules, adice=FIREBALL, hands=(HOLD, (), (), ()))
    g, S, seen = play_both(S0, dice=(0,), rules=rules)
    assert S[M.O_PHASE] == M.PH_TARGET and S[M.O_CUR] == 0


def _greedy_target(S):
    from strategies.dicethrone.basic import greedy_decide
    moves = np.zeros(M.MAX_MOVES, np.int64)
    n = 2
    moves[:n] = [M.MV_TARGET + q for q in (1, 3)] if S[M.O_CUR] == 0 else [M.MV_TARGET + q for q in (3, 1)]
    rv = M.rules_vector(NO_CARDS)
    return moves[greedy_decide(M.PH_TARGET, S, moves, n, rv, DATA, R.new_state(1, 0, M.STRATEGY_DOMAIN))] - M.MV_TARGET


@pytest.mark.parametrize("stunned,attacker_picks,defender_picks", [(3, 3, 1), (1, 1, 3)])
def test_greedy_targets_the_weaker_defence_and_defends_with_the_stronger(stunned, attacker_picks, defender_picks):
    """greedy's target rule (basic.target_pick): both opponents share one health pool, so the
    attacker takes the one whose defence deals back less against Fireball: the stunned one (a
    stunned player does not defend: counter_risk's 0), even listed second; the defending team
    (their_pick) offers the member whose defence deals back more: the one not stunned."""
    from strategies.dicethrone.basic import counter_risk
    toks = [{}, {}, {}, {}]
    toks[stunned] = {"stun": 1}
    S = np.array(team_position(rules=NO_CARDS, adice=FIREBALL, tokens=tuple(toks)), np.int64)
    S[M.O_AB], S[M.O_TIER], S[M.O_ATK_KIND] = AB["pyromancer"]["fireball"], 0, M.K_NORMAL
    S[M.O_STEP], S[M.O_PHASE], S[M.O_CUR] = M.ST_TREAD, M.PH_TARGET, 0
    other = 4 - stunned
    assert counter_risk(S, 0, DATA, M.K_NORMAL, 4.0, stunned)[1] == 0.0
    assert counter_risk(S, 0, DATA, M.K_NORMAL, 4.0, other)[1] > 0.0
    assert _greedy_target(S) == attacker_picks
    S[M.O_CUR] = 1
    assert _greedy_target(S) == defender_picks
