"""Dice Throne's "a chosen player" effects (issue 31, simcore/dicethrone/modes/DESIGN.md 2.3,
"Chosen players outside attacks"): "a chosen player gains X" (``target = "chosen"``: the
Paladin's Retaliate, the Ninja's Smoke Screen, the Treant's Tend...) goes to any member of the
owner's team, the owner included; "you and a chosen teammate" (``target = "teammate"``: the
Treant's Wake the Forest!) to a teammate only. One candidate is taken at once (1v1 and
free-for-all: the owner; "teammate" in 1v1: nobody); several queue a pick, ``PH_TARGET`` with
``MV_TARGET + seat`` in seat order from the owner, when the effect list is done. Forced-dice
positions through both engines (``dicethrone_helpers.play_both`` checks that the kernel and
the reference engine offer the same moves and hold the same state after every step).

Seats in 2v2: 0 and 2 are team 0, 1 and 3 team 1."""
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from dicethrone_helpers import (HELM, PAL, PRAY, PYRO, play_both, position, scenario_rules, seat,  # noqa: E402
                                tables_in_order, team_position, tok)

from simcore.dicethrone import model as M  # noqa: E402
from simcore.errors import PlaytestError  # noqa: E402

R2 = scenario_rules(mode="2v2", target_die_cards=False)
RETALIATE = (HELM, HELM, HELM, PRAY, HELM)      # 3 helm + 1 pray: Retaliate I (Retribution to a chosen player, 2 CP)
HOLD = ("double",)    # a card in the active seat's hand stops the scenario at its main phase 2


@pytest.mark.parametrize("pick,gainer", [(2, 2), (0, 0)])
def test_retaliate_in_2v2_lets_the_paladin_give_retribution_to_itself_or_its_teammate(pick, gainer):
    """The Paladin at seat 2 rolls Retaliate: when its list is done it picks the seat, itself
    first, then its teammate at seat 0; the picked seat gains Retribution, the Paladin its
    2 CP either way, and nobody else gains anything."""
    S0 = team_position(rules=R2, active=2, adice=RETALIATE, hands=((), (), HOLD, ()))
    g, S, seen = play_both(S0, script=[M.MV_TARGET + pick], rules=R2)
    assert seen == [(M.PH_TARGET, 2, [M.MV_TARGET + 2, M.MV_TARGET + 0])]
    assert [tok(S, p, "retribution") for p in range(4)] == [int(p == gainer) for p in range(4)]
    assert seat(S, 2, M.P_CP) == 2 and S[M.O_CHOOSE_N] == 0 and S[M.O_STEP] == M.ST_MAIN2


def test_retaliate_in_1v1_gives_the_paladin_retribution_without_a_decision():
    """1v1: the only member of the Paladin's team is the Paladin: no pick is asked (the 1v1
    games stay as they were)."""
    R1 = scenario_rules()
    S0 = position(heroes=(PYRO, PAL), rules=R1, active=1, adice=RETALIATE, hands=((), HOLD))
    g, S, seen = play_both(S0, rules=R1)
    assert g.phase == M.PH_MAIN and S[M.O_STEP] == M.ST_MAIN2
    assert tok(S, 1, "retribution") == 1 and tok(S, 0, "retribution") == 0 and seat(S, 1, M.P_CP) == 2


TREANT_CONTENT, TREANT_TABLES, _ = tables_in_order((PYRO, "treant"))
TREANT = TREANT_CONTENT.heroes["treant"]
SPIRIT = [f for f in range(6) if TREANT.symbols[TREANT.face_sym[f]] == "spirit"][0]
WELL = TREANT_CONTENT.token_ids["wellspring"]
WAKE = M.MV_ABILITY + 16 * [a.id for a in TREANT.abilities].index("wake_the_forest")   # its one tier


def _wells(S, n):
    return [int(S[M.seat_base(p) + M.P_TOK + WELL]) for p in range(n)]


def test_wake_the_forest_gives_wellspring_to_the_treant_and_its_teammate_in_2v2():
    """Wake the Forest! (5 spirit): "you and a chosen teammate gain Wellspring". In 2v2 the
    Treant at seat 0 has one teammate (seat 2): both gain one at once, no pick asked; the
    opponents gain none."""
    S0 = team_position(heroes=("treant", PYRO, PYRO, PYRO), rules=R2, active=0, adice=(SPIRIT,) * 5,
                       content=TREANT_CONTENT)
    g, S, seen = play_both(S0, script=[WAKE], rules=R2, content=TREANT_CONTENT, tables=TREANT_TABLES)
    assert seen == [(M.PH_ABILITY, 0, [M.MV_ABILITY + 16 * 4, WAKE])]      # Nature's Grasp or the ultimate
    assert g.phase != M.PH_TARGET and S[M.O_CHOOSE_N] == 0      # the next decision: no pick
    assert _wells(S, 4) == [1, 0, 1, 0]


def test_wake_the_forest_in_1v1_gives_wellspring_to_the_treant_only():
    """1v1: no teammate, so the teammate's Wellspring goes to nobody (the 1v1 reading the
    hero file had before the teammate part was written). The Treant's Wellspring limit is
    raised to 5 here, so a second Wellspring would show."""
    R1 = scenario_rules()
    S0 = position(heroes=("treant", PYRO), rules=R1, active=0, adice=(SPIRIT,) * 5, content=TREANT_CONTENT)
    S0[M.seat_base(0) + M.P_LIM + WELL] = 5
    g, S, seen = play_both(S0, script=[WAKE], rules=R1, content=TREANT_CONTENT, tables=TREANT_TABLES)
    assert g.phase != M.PH_TARGET and S[M.O_CHOOSE_N] == 0 and _wells(S, 2) == [1, 0]


def test_in_3v3_a_teammate_gain_asks_which_teammate():
    """3v3: the Treant at seat 0 has two teammates (seats 2 and 4): the teammate's Wellspring
    waits for its pick, among those two in seat order (never itself)."""
    R3 = scenario_rules(mode="3v3", target_die_cards=False)
    heroes = ("treant", PYRO, PYRO, PYRO, PYRO, PYRO)
    S0 = team_position(heroes=heroes, rules=R3, active=0, adice=(SPIRIT,) * 5, content=TREANT_CONTENT)
    g, S, seen = play_both(S0, script=[WAKE, M.MV_TARGET + 4], rules=R3, content=TREANT_CONTENT,
                           tables=TREANT_TABLES)
    assert seen[1] == (M.PH_TARGET, 0, [M.MV_TARGET + 2, M.MV_TARGET + 4])
    assert _wells(S, 6) == [1, 0, 0, 0, 1, 0]


@pytest.mark.parametrize("effect", ['{ damage = 2, target = "chosen" }',
                                    '{ gain = "squire_retribution", per = 1, of = "helm", target = "chosen" }',
                                    '{ heal = 2, target = "teammate" }'])
def test_the_loader_refuses_a_chosen_target_on_anything_but_a_plain_gain(tmp_path, effect):
    """A chosen player's effect may wait for a pick after its list: only a gain of a plain N
    can (its amount read then, its conditions when the list ran). Anything else is refused
    in one line naming the file and the field."""
    from dicethrone_helpers import fixture_roster

    old = '{ gain = "squire_retribution", n = 1, target = "chosen" }, { cp = 2 }'
    folder = fixture_roster(tmp_path / "h", copies=(("squire", "paladin", "Squire", (old, f"{effect}, {{ cp = 2 }}")),))
    with pytest.raises(PlaytestError) as e:
        M.load_content(("squire", PYRO), heroes_dir=folder)
    assert "squire.toml" in str(e.value) and ".target" in str(e.value) and "plain n" in str(e.value)


def test_greedy_gives_a_chosen_gain_to_the_member_with_the_weaker_defence():
    """greedy's rule (modes/DESIGN.md 2.9): the member whose defences deal back and prevent
    the least at their levels (``D_DEF``'s mean) takes the token; here the Paladin (Holy
    Defense) against its Pyromancer teammate: whichever is weaker by the tables is picked."""
    from dicethrone_helpers import DATA as data
    from strategies.dicethrone.basic import D_DEF, greedy_decide

    S0 = team_position(rules=R2, active=2, adice=RETALIATE, hands=((), (), HOLD, ()))
    g, S, seen = play_both(S0, rules=R2)
    moves = np.array(g.moves, np.int64)

    def strength(p):
        h = int(S[M.seat_base(p) + M.P_HERO])
        return max(data[D_DEF + ((h * M.MAX_DEF + d) * M.MAX_TIERS + S[M.seat_base(p) + M.P_DLVL + d] - 1) * 2 + 1]
                   for d in range(M.MAX_DEF) if 1 <= S[M.seat_base(p) + M.P_DLVL + d] <= M.MAX_TIERS)

    want = 0 if strength(0) < strength(2) else 2
    k = greedy_decide(M.PH_TARGET, S, moves, len(moves), M.rules_vector(R2), data, g.rng.copy())
    assert moves[k] == M.MV_TARGET + want and strength(0) != strength(2)


# ------------------------------------------------------------------ "up to two chosen players" (Harvest!)
HARVEST = {c.id: i for i, c in enumerate(TREANT_CONTENT.cards)}["harvest"]


def _harvest_position(mode, heroes):
    """The Treant at seat 0 in its main phase 1, holding Harvest! and two Seedlings."""
    rules = scenario_rules(mode=mode, target_die_cards=False)
    S0 = team_position(heroes=heroes, rules=rules, active=0, step=M.ST_MAIN1, content=TREANT_CONTENT,
                       tokens=({"seedling": 2},) + ({},) * (len(heroes) - 1))
    S0[M.seat_base(0) + M.P_HAND] = HARVEST
    S0[M.seat_base(0) + M.P_HAND_N] = 1
    return rules, S0


def test_harvest_in_2v2_gives_wellspring_to_the_treant_and_its_teammate_without_a_pick():
    """Harvest! removes the two Spirits (2 CP) and "up to two chosen players gain Wellspring":
    the Treant's team is two players, so both gain one at once and no pick is asked."""
    rules, S0 = _harvest_position("2v2", ("treant", PYRO, PYRO, PYRO))
    g, S, seen = play_both(S0, script=[M.MV_PLAY + 0], rules=rules, content=TREANT_CONTENT, tables=TREANT_TABLES)
    assert g.phase == M.PH_MAIN and S[M.O_CHOOSE_N] == 0
    assert _wells(S, 4) == [1, 0, 1, 0] and seat(S, 0, M.P_CP) == 2


@pytest.mark.parametrize("first,second,gainers", [(0, 4, (0, 4)), (2, 0, (0, 2))])
def test_harvest_in_3v3_asks_for_two_different_players(first, second, gainers):
    """3v3: three candidates (seats 0, 2, 4), so two picks wait: the first among all three,
    the second among the two the first did not take; the two picked gain Wellspring."""
    heroes = ("treant", PYRO, PYRO, PYRO, PYRO, PYRO)
    rules, S0 = _harvest_position("3v3", heroes)
    g, S, seen = play_both(S0, script=[M.MV_PLAY + 0, M.MV_TARGET + first, M.MV_TARGET + second], rules=rules,
                           content=TREANT_CONTENT, tables=TREANT_TABLES)
    assert seen[1] == (M.PH_TARGET, 0, [M.MV_TARGET + q for q in (0, 2, 4)])
    assert seen[2] == (M.PH_TARGET, 0, [M.MV_TARGET + q for q in (0, 2, 4) if q != first])
    assert _wells(S, 6) == [int(p in gainers) for p in range(6)]
    assert S[M.O_CHOOSE_N] == 0 and S[M.O_PICKED] == 0


def test_harvest_in_1v1_gives_the_treant_wellspring():
    """1v1: the Treant's team is itself: it gains Wellspring, nobody else does."""
    rules = scenario_rules()
    S0 = position(heroes=("treant", PYRO), rules=rules, active=0, step=M.ST_MAIN1, content=TREANT_CONTENT)
    S0[M.seat_base(0) + M.P_TOK + TREANT_CONTENT.token_ids["seedling"]] = 2
    S0[M.seat_base(0) + M.P_HAND] = HARVEST
    S0[M.seat_base(0) + M.P_HAND_N] = 1
    g, S, seen = play_both(S0, script=[M.MV_PLAY + 0], rules=rules, content=TREANT_CONTENT, tables=TREANT_TABLES)
    assert _wells(S, 2) == [1, 0] and S[M.O_CHOOSE_N] == 0
