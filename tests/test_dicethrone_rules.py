"""Forced-dice / hand-made-position scenario tests of every rule, status, token and card
effect, each played through both engines (``dicethrone_helpers.play_both`` checks the
kernel and the reference engine agree on every legal-move list and state vector)."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from dicethrone_helpers import (AB, CARD, CONTENT, FIRE, HEART, HELM, MAGMA, METEOR, PAL, PRAY, PYRO, SOUL,  # noqa: E402
                                SPEND, SWORD, TOK, play_both, position, scenario_rules, seat, tok)

import numpy as np  # noqa: E402

from simcore.dicethrone import model as M  # noqa: E402
from strategies.dicethrone.bind import play_range  # noqa: E402
from simcore.dicethrone.model import (MV_ABILITY, MV_DIE, MV_PASS, MV_PLAY, MV_REROLL, MV_SELL,  # noqa: E402
                                      MV_TITHE_DRAW, MV_TITHE_REROLL, P_CP, P_DMG, P_HAND_N, P_HP,
                                      P_LIM, P_SOLD, P_SPENDS)

HOLD = ("double",)   # a card in the attacker's hand makes main phase 2 a decision (stop there)


def fb(t):
    return MV_ABILITY + AB[PYRO]["fireball"] * 16 + t


def test_fireball_against_divine_defense():
    """3 fire: +1 Fire Mastery, 4 damage; the defence (sword, helm, heart) deals 1 back and
    prevents 1 + 2: 1 damage lands. Stops at the attacker's main phase 2."""
    S0 = position(adice=(FIRE, FIRE, FIRE, MAGMA, SOUL), hands=(HOLD, ()))
    g, S, seen = play_both(S0, dice=(SWORD, HELM, HEART))
    assert S[M.O_STEP] == M.ST_MAIN2 and S[M.O_PHASE] == M.PH_MAIN
    assert seat(S, 1, P_HP) == 49 and seat(S, 0, P_HP) == 49
    assert tok(S, 0, "fire_mastery") == 1
    assert seat(S, 0, P_DMG + M.SRC_ABILITY) == 1 and seat(S, 1, P_DMG + M.SRC_ABILITY) == 1
    assert S[M.seat_base(0) + M.P_USES + AB[PYRO]["fireball"]] == 1


def test_ability_choice_lists_every_satisfied_tier():
    """5 fire satisfies Fireball's 3-, 4- and 5-fire tiers: the player picks one."""
    S0 = position(adice=(FIRE,) * 5, hands=(HOLD, ()))
    g, S, seen = play_both(S0, dice=(PRAY, PRAY, PRAY), script=[fb(1)])
    assert seen[0][2] == [fb(0), fb(1), fb(2)]
    assert seat(S, 1, P_HP) == 44      # 6 damage, no prevention; 3 pray: +3 CP
    assert seat(S, 1, P_CP) == 3


def test_protect_halves_rounded_up():
    S0 = position(adice=(FIRE,) * 5, hands=(HOLD, ()), tokens=({}, {"protect": 1}))
    g, S, seen = play_both(S0, dice=(PRAY, PRAY, PRAY), script=[fb(2), SPEND["protect"]])
    assert seen[1][0] == M.PH_TOKEN and seen[1][1] == 1
    assert seat(S, 1, P_HP) == 46 and tok(S, 1, "protect") == 0 and seat(S, 1, P_SPENDS) == 1


def test_protect_not_offered_when_nothing_gets_through():
    S0 = position(adice=(FIRE, FIRE, FIRE, MAGMA, MAGMA), hands=(HOLD, ()), tokens=({}, {"protect": 1}))
    g, S, seen = play_both(S0, dice=(HEART, HEART, SWORD))
    assert seat(S, 1, P_HP) == 50 and tok(S, 1, "protect") == 1


def test_crit_adds_four_at_five_or_more():
    """Righteous Prayer (4 pray: 8, Crit, 2 CP) with Crit held: +4 -> 12."""
    rp = MV_ABILITY + AB[PAL]["righteous_prayer"] * 16
    S0 = position(heroes=(PAL, PYRO), adice=(PRAY, PRAY, PRAY, PRAY, SWORD), hands=(HOLD, ()),
                  tokens=({"crit": 1}, {}))
    g, S, seen = play_both(S0, dice=(MAGMA,) * 5, script=[SPEND["crit"]])
    assert rp and seen[0][0] == M.PH_TOKEN
    assert seat(S, 1, P_HP) == 38
    assert seat(S, 0, P_DMG + M.SRC_TOKEN) == 4 and seat(S, 0, P_DMG + M.SRC_ABILITY) == 8
    # the Crit held is spent on the 8; the prayer's own Crit comes after them ("then")
    assert tok(S, 0, "crit") == 1 and seat(S, 0, P_CP) == 2 and seat(S, 0, P_SPENDS) == 1


def test_crit_gained_by_the_attack_is_not_spent_on_it():
    """Righteous Prayer "deal 8, then gain Crit and 2 CP" without a Crit held: no Crit
    decision, 8 land, and the Crit and the CP are the Paladin's afterwards."""
    S0 = position(heroes=(PAL, PYRO), adice=(PRAY, PRAY, PRAY, PRAY, SWORD), hands=(HOLD, ()))
    g, S, seen = play_both(S0, dice=(MAGMA,) * 5)
    assert [x[0] for x in seen] == []          # one tier, no token to spend: nothing to decide
    assert seat(S, 1, P_HP) == 42 and seat(S, 0, P_DMG + M.SRC_TOKEN) == 0
    assert tok(S, 0, "crit") == 1 and seat(S, 0, P_CP) == 2 and seat(S, 0, P_SPENDS) == 0


def test_effects_after_the_last_damage_split_from_it():
    """model.damage_split: the effects up to the tier's last damage resolve before it lands."""
    tiers = {(a.id, t.level, str(t.target)): t for h in (PAL, PYRO) for a in CONTENT.heroes[h].abilities
             for t in a.tiers}
    rp = CONTENT.heroes[PAL].abilities[AB[PAL]["righteous_prayer"]].tiers[0]
    assert [e.op for e in rp.effects][M.damage_split(rp.effects):] == [M.OP_GAIN, M.OP_CP]
    for t in tiers.values():     # never splits before a damage, a bonus roll or added damage
        k = M.damage_split(t.effects)
        assert not any(M.adds_to_attack(e.op, e.target) for e in t.effects[k:])
        assert k == len(t.effects) or M.adds_to_attack(t.effects[k - 1].op, t.effects[k - 1].target)


@pytest.mark.parametrize("threshold", [True, False])
def test_crit_threshold(threshold):
    """Mighty Prayer deals 3 undefendable: Crit is offered only without the threshold rule."""
    rules = scenario_rules(crit_needs_threshold=threshold)
    S0 = position(heroes=(PAL, PYRO), adice=(SWORD, SWORD, SWORD, PRAY, HELM), hands=(HOLD, ()),
                  tokens=({"crit": 1}, {}), rules=rules)
    script = [] if threshold else [SPEND["crit"]]
    g, S, seen = play_both(S0, script=script, rules=rules)
    assert seat(S, 1, P_HP) == (47 if threshold else 43)
    assert tok(S, 0, "accuracy") == 1


def test_accuracy_makes_the_attack_undefendable():
    """Righteous Combat with Accuracy spent: no defensive roll; bonus dice pray, pray: +2 CP."""
    rc = MV_ABILITY + AB[PAL]["righteous_combat"] * 16
    S0 = position(heroes=(PAL, PYRO), adice=(SWORD, SWORD, SWORD, HELM, HELM), hands=(HOLD, ()),
                  tokens=({"accuracy": 1}, {}))
    g, S, seen = play_both(S0, dice=(PRAY, PRAY), script=[SPEND["accuracy"]])
    assert S[M.O_DEFENDED] == 0 and seat(S, 1, P_HP) == 45 and seat(S, 0, P_CP) == 2
    assert rc == MV_ABILITY + AB[PAL]["righteous_combat"] * 16


def test_retribution_returns_half_rounded_up():
    S0 = position(adice=(FIRE, FIRE, FIRE, MAGMA, MAGMA), hands=(HOLD, ()), tokens=({}, {"retribution": 1}))
    g, S, seen = play_both(S0, dice=(PRAY, PRAY, PRAY), script=[SPEND["retribution"]])
    assert seat(S, 1, P_HP) == 46 and seat(S, 0, P_HP) == 48
    assert seat(S, 1, P_DMG + M.SRC_TOKEN) == 2


def test_blessing_of_divinity_saves_at_zero():
    S0 = position(adice=(FIRE, FIRE, FIRE, MAGMA, MAGMA), hands=(HOLD, ()), hp=(50, 3),
                  tokens=({}, {"blessing": 1}))
    g, S, seen = play_both(S0, dice=(PRAY, PRAY, PRAY))
    assert S[M.O_OVER] == 0 and seat(S, 1, P_HP) == 1 and tok(S, 1, "blessing") == 0


@pytest.mark.parametrize("vs_ult", [True, False])
def test_ultimate_cannot_be_answered(vs_ult):
    """Scorch the Earth: no defence, no Protect, no Retribution; 12 + 2 collateral;
    Knockdown and Burn; 3 Fire Mastery. Blessing saves only if blessing_vs_ultimate."""
    rules = M.load_rules(overrides={"blessing_vs_ultimate": vs_ult})
    S0 = position(adice=(METEOR,) * 5, hands=(HOLD, ()), hp=(50, 60), rules=rules,
                  tokens=({}, {"protect": 1, "retribution": 1}))
    sc = MV_ABILITY + AB[PYRO]["scorch_the_earth"] * 16
    g, S, seen = play_both(S0, rules=rules, script=[sc])
    assert [x[0] for x in seen] == [M.PH_ABILITY] and seat(S, 1, P_HP) == 46
    assert tok(S, 1, "knockdown") == 1 and tok(S, 1, "burn") == 1 and tok(S, 0, "fire_mastery") == 3
    assert tok(S, 1, "protect") == 1 and tok(S, 1, "retribution") == 1
    S0 = position(adice=(METEOR,) * 5, hands=(HOLD, ()), hp=(50, 13), rules=rules, tokens=({}, {"blessing": 1}))
    # 13 - 12 = 1, then the 2 collateral would knock out: Blessing (if allowed) leaves 1
    g, S, seen = play_both(S0, rules=rules, script=[sc])
    assert (S[M.O_OVER] == 0 and seat(S, 1, P_HP) == 1) if vs_ult else (S[M.O_WINNER] == 0)


@pytest.mark.parametrize("may_skip", [False, True])
def test_an_ability_may_be_left_unused_by_option(may_skip):
    """may_skip_ability (the rulebook's "may"): the ability choice lists pass first, and
    passing is no attack at all (no defence roll, nothing dealt, on to main phase 2).
    Off (the digest's "activate"): the one met tier is activated at once."""
    rules = M.load_rules(overrides={"may_skip_ability": may_skip})
    S0 = position(adice=(FIRE, FIRE, FIRE, MAGMA, SOUL), hands=(HOLD, ()), hp=(1, 50), rules=rules)
    g, S, seen = play_both(S0, dice=(SWORD, HELM, HEART), script=[MV_PASS] if may_skip else [], rules=rules)
    if may_skip:
        assert seen == [(M.PH_ABILITY, 0, [MV_PASS, fb(0)])]
        assert S[M.O_STEP] == M.ST_MAIN2 and S[M.O_DEFENDED] == 0
        assert seat(S, 0, P_HP) == 1 and seat(S, 1, P_HP) == 50 and seat(S, 0, M.P_ATTACKS) == 0
    else:               # Fireball is activated, and the defence's 1 damage back knocks him out
        assert seen == [] and S[M.O_OVER] == 1 and S[M.O_WINNER] == 1 and seat(S, 0, M.P_ATTACKS) == 1


def test_the_seed_default_lets_a_met_ability_go_unused():
    """Seed line 427 ("Możesz ją aktywować": you may activate it) decides the default: the
    default rules list pass before the met tier."""
    rules = M.load_rules()
    assert rules["may_skip_ability"] is True
    S0 = position(adice=(FIRE, FIRE, FIRE, MAGMA, SOUL), hands=(HOLD, ()), rules=rules)
    g, S, seen = play_both(S0, dice=(SWORD, HELM, HEART), script=[fb(0)], rules=rules)
    assert seen == [(M.PH_ABILITY, 0, [MV_PASS, fb(0)])] and seat(S, 1, P_HP) == 49


def test_greedy_and_optimal_attack_whenever_it_is_safe():
    """With may_skip_ability and full health, greedy and optimal never pass: in the first
    turns (nobody low on health) the games are those played without the option."""
    off = M.load_rules(overrides={"may_skip_ability": False})
    on = M.load_rules(overrides={"may_skip_ability": True})
    for strategies in (("greedy", "greedy"), ("optimal", "greedy")):
        a = play_range(0, 20, 3, (PYRO, PAL), strategies, {**off, "max_turns": 6})
        b = play_range(0, 20, 3, (PYRO, PAL), strategies, {**on, "max_turns": 6})
        assert all(np.array_equal(a[f], b[f]) for f in a), strategies


def test_the_seed_default_blessing_does_not_save_from_an_ultimate():
    """Seed lines 770-771: an ultimate's damage "cannot be avoided, reduced or interrupted by
    any action (e.g. from cards, status tokens ...)": by default Blessing of Divinity, a
    status token, does not save its holder from Resolute Faith or Scorch the Earth."""
    rules = M.load_rules()
    assert rules["blessing_vs_ultimate"] is False
    S0 = position(adice=(METEOR,) * 5, hands=(HOLD, ()), hp=(50, 12), tokens=({}, {"blessing": 1}))
    g, S, seen = play_both(S0, script=[MV_ABILITY + AB[PYRO]["scorch_the_earth"] * 16])
    assert S[M.O_OVER] == 1 and S[M.O_WINNER] == 0 and tok(S, 1, "blessing") == 1


def test_an_ultimate_ignores_prevention_held_and_every_answer():
    """The same sentence against every answer the Paladin could hold when Scorch the Earth
    lands: Protect and Retribution are not offered, a prevent card (Next Time) and a
    transfer card are never offered (the window is the attacker's alone), prevention
    already waiting (``P_PREVENT``) is not applied: 12 + 2 collateral land in full."""
    S0 = position(adice=(METEOR,) * 5, hands=(HOLD, ("next_time", "transfer_status")), cp=(0, 5), hp=(50, 60),
                  tokens=({}, {"protect": 1, "retribution": 1}))
    S0[M.seat_base(1) + M.P_PREVENT] = 6
    # the Paladin (5 CP: Tithes) may act in the window before the ability is chosen, and not
    # after the ultimate is activated
    g, S, seen = play_both(S0, script=[MV_PASS, MV_ABILITY + AB[PYRO]["scorch_the_earth"] * 16])
    assert [(x[0], x[1]) for x in seen] == [(M.PH_WINDOW, 1), (M.PH_ABILITY, 0)]
    assert S[M.O_STEP] == M.ST_MAIN2 and S[M.O_PHASE] == M.PH_MAIN and S[M.O_CUR] == 0
    assert seat(S, 1, P_HP) == 60 - 14 and seat(S, 0, P_HP) == 50
    assert tok(S, 1, "protect") == 1 and tok(S, 1, "retribution") == 1 and seat(S, 1, P_HAND_N) == 2


def test_ultimate_window_is_the_attackers_alone():
    """Scorch the Earth with Red Hot in hand (1 CP, 2 Fire Mastery): the attacker may still
    add damage ("can only be increased"); the Paladin, holding Next Time and the CP for it,
    gets no decision ("opponents take no action")."""
    S0 = position(adice=(METEOR,) * 5, hands=(("red_hot", "double"), ("next_time",)), cp=(1, 1),
                  tokens=({"fire_mastery": 2}, {}))
    sc = MV_ABILITY + AB[PYRO]["scorch_the_earth"] * 16
    g, S, seen = play_both(S0, script=[MV_PASS, sc, MV_PLAY + 0])
    assert [(x[0], x[1]) for x in seen] == [(M.PH_ROLL, 0), (M.PH_ABILITY, 0), (M.PH_WINDOW, 0)]
    assert seen[2][2] == [MV_PASS, MV_PLAY + 0, MV_PLAY + 1]
    assert seat(S, 0, P_DMG + M.SRC_CARD) == 2 and seat(S, 1, P_HP) == 50 - 12 - 2 - 2
    assert seat(S, 1, P_HAND_N) == 1 and seat(S, 1, P_CP) == 1     # Next Time never offered


@pytest.mark.parametrize("decay_first", [False, True])
def test_upkeep_burn_and_fire_mastery_decay(decay_first):
    rules = scenario_rules(decay_before_burn=decay_first)
    S0 = position(step=M.ST_UPKEEP, hands=(HOLD, ()), tokens=({"burn": 1, "fire_mastery": 3}, {}), rules=rules)
    g, S, seen = play_both(S0, rules=rules)
    assert S[M.O_STEP] == M.ST_MAIN1
    assert seat(S, 0, P_HP) == 48 and tok(S, 0, "fire_mastery") == 2 and tok(S, 0, "burn") == 1
    assert seat(S, 1, P_DMG + M.SRC_STATUS) == 2
    assert seat(S, 0, P_CP) == 1 and seat(S, 0, P_HAND_N) == 2   # income: 1 CP and a card


def test_first_player_skips_first_income_only():
    S0 = position(step=M.ST_UPKEEP, hands=(HOLD, ()))
    S0[M.O_INCOME_SKIP] = 0
    g, S, seen = play_both(S0)
    assert seat(S, 0, P_CP) == 0 and seat(S, 0, P_HAND_N) == 1 and S[M.O_INCOME_SKIP] == 1


def test_knockdown_pay_skip_or_forced_skip():
    S0 = position(step=M.ST_KNOCK, hands=(HOLD, ()), cp=(3, 0), tokens=({"knockdown": 1}, {}))
    g, S, seen = play_both(S0, dice=(FIRE, FIRE, MAGMA, SOUL, METEOR), script=[SPEND["knockdown"]])
    assert seen[0][0] == M.PH_TOKEN and S[M.O_STEP] == M.ST_ROLL and seat(S, 0, P_CP) == 1
    assert tok(S, 0, "knockdown") == 0 and list(S[M.O_ADICE:M.O_ADICE + 5]) == [0, 0, 3, 4, 5]
    g, S, seen = play_both(S0, script=[MV_PASS])
    assert S[M.O_STEP] == M.ST_MAIN2 and seat(S, 0, P_CP) == 3 and tok(S, 0, "knockdown") == 0
    S0 = position(step=M.ST_KNOCK, hands=(HOLD, ()), cp=(1, 0), tokens=({"knockdown": 1}, {}))
    g, S, seen = play_both(S0)
    assert seen == [] and S[M.O_STEP] == M.ST_MAIN2 and tok(S, 0, "knockdown") == 0


@pytest.mark.parametrize("extra", [True, False])
def test_stun_gives_another_offensive_roll_phase(extra):
    """Meteorite (4 meteor): +2 Fire Mastery, Stun, 2 undefendable (per Fire Mastery),
    2 collateral; after the attack the stun is removed and, by default, the attacker rolls again."""
    rules = scenario_rules(stun_extra_attack=extra)
    S0 = position(adice=(METEOR, METEOR, METEOR, METEOR, FIRE), hands=(HOLD, ()), rules=rules)
    g, S, seen = play_both(S0, dice=(MAGMA,) * 5, rules=rules)
    assert seat(S, 1, P_HP) == 46 and tok(S, 1, "stun") == 0
    if extra:
        assert S[M.O_STEP] == M.ST_ROLL and S[M.O_STUNNED_ATK] == 1 and list(S[M.O_ADICE:M.O_ADICE + 5]) == [3] * 5
    else:
        assert S[M.O_STEP] == M.ST_MAIN2


def test_combustion_spends_up_to_four():
    S0 = position(adice=(FIRE, MAGMA, SOUL, METEOR, FIRE), hands=(HOLD, ()), tokens=({"fire_mastery": 4}, {}))
    cb = MV_ABILITY + AB[PYRO]["combustion"] * 16
    g, S, seen = play_both(S0)
    assert seat(S, 1, P_HP) == 38 and tok(S, 0, "fire_mastery") == 1 and S[M.O_DEFENDED] == 0
    assert cb


def test_hot_streak_scales_with_fire_mastery():
    # faces 1, 2, 3, 4, 6: a small straight (Hot Streak), 3 fire (Fireball), 3 fire + meteor (Pyroblast)
    S0 = position(adice=(0, 1, 2, MAGMA, METEOR), hands=(HOLD, ()), tokens=({"fire_mastery": 1}, {}))
    hs = MV_ABILITY + AB[PYRO]["hot_streak"] * 16
    g, S, seen = play_both(S0, dice=(PRAY, PRAY, PRAY), script=[hs])
    assert seen[0][2] == [fb(0), MV_ABILITY + AB[PYRO]["pyroblast"] * 16, hs]
    assert seat(S, 1, P_HP) == 42      # 5 + 3 Fire Mastery (1 held + 2 gained first)


@pytest.mark.parametrize("bonus,check", [
    (FIRE, lambda S: seat(S, 1, P_HP) == 41),
    (MAGMA, lambda S: seat(S, 1, P_HP) == 44 and tok(S, 1, "burn") == 1),
    (SOUL, lambda S: tok(S, 0, "fire_mastery") == 2),
    (METEOR, lambda S: tok(S, 1, "knockdown") == 1),
])
def test_pyroblast_bonus_die(bonus, check):
    S0 = position(adice=(FIRE, FIRE, FIRE, METEOR, MAGMA), hands=(HOLD, ()))
    pb = MV_ABILITY + AB[PYRO]["pyroblast"] * 16
    g, S, seen = play_both(S0, dice=(PRAY, PRAY, PRAY, bonus), script=[pb])
    assert check(S)


def test_burning_soul_collateral_is_not_defended():
    S0 = position(adice=(SOUL, SOUL, MAGMA, MAGMA, METEOR), hands=(HOLD, ()))
    g, S, seen = play_both(S0)
    assert S[M.O_DEFENDED] == 0 and seat(S, 1, P_HP) == 48 and tok(S, 0, "fire_mastery") == 4


@pytest.mark.parametrize("draw_rule,winner", [(True, -1), (False, 0)])
def test_simultaneous_knock_out(draw_rule, winner):
    rules = scenario_rules(simultaneous_ko_draw=draw_rule)
    S0 = position(adice=(FIRE, FIRE, FIRE, MAGMA, MAGMA), hp=(1, 4), rules=rules)
    g, S, seen = play_both(S0, dice=(SWORD, SWORD, SWORD), rules=rules)
    assert S[M.O_OVER] == 1 and S[M.O_WINNER] == winner and S[M.O_PHASE] == M.PH_DONE


def test_heal_and_cp_caps():
    """Holy Light at 59 health heals to 60 (start + 10); bonus die pray +2 CP capped at 15."""
    hl = MV_ABILITY + AB[PAL]["holy_light"] * 16
    S0 = position(heroes=(PAL, PYRO), adice=(HEART, HEART, SWORD, HELM, SWORD), hands=(HOLD, ()),
                  hp=(59, 50), cp=(14, 0))
    g, S, seen = play_both(S0, dice=(PRAY,), script=[MV_PASS])
    assert seat(S, 0, P_HP) == 60 and seat(S, 0, 2) == 15 and hl


def test_discard_to_hand_limit_sells_for_cp():
    hand = ("double",) * 8
    S0 = position(step=M.ST_DISCARD, hands=(hand, ()))
    g, S, seen = play_both(S0, script=[MV_SELL + 7, MV_SELL + 0])
    assert seen[0][2] == [MV_SELL + h for h in range(8)]
    assert seat(S, 0, P_SOLD) == 2 and seat(S, 0, P_CP) == 2 and S[M.O_ACTIVE] == 1


def test_main_phase_legal_moves():
    """Cost, phase and timing decide what may be played in a main phase."""
    S0 = position(step=M.ST_MAIN1, hands=(("fireball_2", "surprise", "next_time", "boss_generous", "fan_the_flames"), ()),
                  cp=(1, 0))
    g, S, seen = play_both(S0, script=[MV_PLAY + 0])
    assert seen[0][2] == [MV_PASS, MV_PLAY + 0, MV_PLAY + 3] + [MV_SELL + h for h in range(5)]
    assert S[M.seat_base(0) + M.P_LVL + AB[PYRO]["fireball"]] == 2 and seat(S, 0, P_CP) == 0


def test_upgrade_changes_the_ability():
    S0 = position(adice=(FIRE, FIRE, FIRE, MAGMA, MAGMA), hands=(HOLD, ()), levels=({"fireball": 2}, {}))
    g, S, seen = play_both(S0, dice=(PRAY, PRAY, PRAY))
    assert tok(S, 0, "fire_mastery") == 2


def test_tithes_reroll_and_draw():
    """Paladin: reroll one of your dice for 1 CP during your roll; draw for 3 CP in a main phase."""
    S0 = position(heroes=(PAL, PYRO), adice=(SWORD, SWORD, HELM, HELM, HEART), hands=(HOLD, ()), cp=(4, 0),
                  attempts=3)
    g, S, seen = play_both(S0, dice=(PRAY,), script=[MV_TITHE_REROLL + 4, MV_PASS, MV_TITHE_DRAW])
    assert seen[0][2] == [MV_PASS, MV_PLAY + 0] + [MV_TITHE_REROLL + i for i in range(5)] + [MV_TITHE_DRAW]
    assert seat(S, 0, P_CP) == 0 and seat(S, 0, P_HAND_N) == 2


def test_tithes_draw_at_any_time():
    """Tithes' draw ("at any time", 3 CP) is offered in the Paladin's own roll and in a
    window where he defends, not only in his main phases."""
    S0 = position(adice=(FIRE, FIRE, FIRE, MAGMA, SOUL), hands=(HOLD, ()), cp=(0, 4))
    g, S, seen = play_both(S0, dice=(SWORD, HELM, HEART), script=[MV_PASS, MV_TITHE_DRAW, MV_PASS])
    win = [x for x in seen if x[0] == M.PH_WINDOW]
    assert win[0][1] == 1 and win[0][2] == [MV_PASS, MV_TITHE_DRAW]    # before the ability
    assert win[1][1] == 1 and MV_TITHE_DRAW in win[1][2]               # after his defence roll
    assert win[2][1] == 1 and MV_TITHE_DRAW not in win[2][2]           # 1 CP left: rerolls only
    assert seat(S, 1, P_CP) == 1 and seat(S, 1, P_HAND_N) == 1
    # his own offensive roll, with no card in hand
    S0 = position(heroes=(PAL, PYRO), adice=(SWORD, SWORD, HELM, HELM, HEART), cp=(3, 0), attempts=3)
    g, S, seen = play_both(S0, script=[MV_TITHE_DRAW, MV_PASS])
    assert seen[0][2][-1] == MV_TITHE_DRAW and seat(S, 0, P_CP) == 0 and seat(S, 0, P_HAND_N) == 1
    # a stunned Paladin uses no passive: nothing offered in the window
    S0 = position(adice=(FIRE, FIRE, FIRE, MAGMA, SOUL), hands=(HOLD, ()), cp=(0, 4), tokens=({}, {"stun": 1}))
    g, S, seen = play_both(S0)
    # the first decision is the Pyromancer's roll of Stun's extra offensive roll phase
    assert S[M.O_PHASE] == M.PH_ROLL and S[M.O_CUR] == 0 and S[M.O_STUNNED_ATK] == 1
    assert seat(S, 1, P_CP) == 4 and seat(S, 1, P_HAND_N) == 0


def test_surprise_sets_a_die():
    S0 = position(adice=(FIRE, FIRE, MAGMA, SOUL, METEOR), hands=(("surprise", "double"), ()), cp=(2, 0))
    g, S, seen = play_both(S0, dice=(PRAY, PRAY, PRAY), script=[MV_PLAY + 0, MV_DIE + 2 * 8 + 1, fb(0)])
    assert seen[1][0] == M.PH_DIE and len(seen[1][2]) == 30
    assert seen[2][2] == [fb(0), MV_ABILITY + AB[PYRO]["pyroblast"] * 16]   # 3 fire now (+ meteor)
    assert list(S[M.O_ADICE:M.O_ADICE + 5]) == [FIRE, FIRE, FIRE, SOUL, METEOR] and seat(S, 0, P_CP) == 0


def test_flick_moves_a_die_and_worthy_rerolls():
    S0 = position(adice=(FIRE, FIRE, MAGMA, SOUL, METEOR), hands=(("flick", "worthy_of_me", "double"), ()),
                  cp=(2, 0), attempts=1)
    g, S, seen = play_both(S0, dice=(FIRE, FIRE), script=[MV_PLAY + 0, MV_DIE + 4 * 8 + 0, MV_PLAY + 0,
                                                            MV_DIE + 0b01000, MV_DIE + 0b10000])
    assert seen[1][2] == sorted([MV_DIE + i * 8 + d for i, f in enumerate((0, 0, 3, 4, 5))
                                 for d in (0, 1) if (d == 0 and f > 0) or (d == 1 and f < 5)])
    assert list(S[M.O_ADICE:M.O_ADICE + 5]) == [FIRE, FIRE, MAGMA, FIRE, FIRE]


SINGLE_REROLLS = [MV_DIE + (1 << i) for i in range(5)] + [MV_DIE]     # reroll one die, or stop (last)


def test_worthy_of_me_rerolls_the_same_die_twice():
    """Worthy of Me as three of four sources print it: reroll 1 die, see it, then 1 die
    again (the same one allowed) or stop (before: one reroll of up to 2 dice at once)."""
    S0 = position(adice=(FIRE, FIRE, FIRE, FIRE, MAGMA), hands=(("worthy_of_me", "double"), ()), cp=(1, 0))
    g, S, seen = play_both(S0, dice=(SOUL, METEOR), script=[MV_PLAY + 0, MV_DIE + 0b10000, MV_DIE + 0b10000])
    assert seen[1][0] == M.PH_DIE and seen[1][2] == SINGLE_REROLLS
    assert seen[2][0] == M.PH_DIE and seen[2][2] == SINGLE_REROLLS
    assert list(S[M.O_ADICE:M.O_ADICE + 5]) == [FIRE] * 4 + [METEOR] and seat(S, 0, P_CP) == 0
    assert S[M.O_STEP] != M.ST_DIE and S[M.O_PEND_OP] == 0


def test_worthy_of_me_may_stop_after_the_first_reroll():
    S0 = position(adice=(FIRE, FIRE, FIRE, FIRE, MAGMA), hands=(("worthy_of_me", "double"), ()), cp=(1, 0))
    g, S, seen = play_both(S0, dice=(FIRE,), script=[MV_PLAY + 0, MV_DIE + 0b10000, MV_DIE])
    assert list(S[M.O_ADICE:M.O_ADICE + 5]) == [FIRE] * 5
    assert S[M.O_STEP] != M.ST_DIE and S[M.O_PEND_OP] == 0


def test_next_time_prevents_and_red_hot_adds():
    """In the attack window the defender prevents 6 (Next Time); the attacker adds 1 per
    Fire Mastery (Red Hot)."""
    S0 = position(adice=(FIRE,) * 5, hands=(("red_hot", "double"), ("next_time",)), cp=(1, 1),
                  tokens=({"fire_mastery": 2}, {}))
    g, S, seen = play_both(S0, dice=(PRAY, PRAY, PRAY), script=[MV_PASS, fb(2), MV_PLAY + 0, MV_PLAY + 0])
    assert seen[2][1] == 1 and seen[3][1] == 0
    # Red Hot counts the 2 Fire Mastery held in the window (Fireball's +1 comes after)
    assert seat(S, 1, P_HP) == 50 - (8 + 2 - 6)
    assert seat(S, 0, P_DMG + M.SRC_CARD) == 2


def test_cards_draw_cp_and_remove_status():
    S0 = position(step=M.ST_MAIN1, hands=(("double", "boss_generous", "get_away", "bye_bye"), ()), cp=(3, 0),
                  tokens=({"burn": 1, "knockdown": 1}, {}))
    g, S, seen = play_both(S0, script=[MV_PLAY + 1, MV_PLAY + 1, MV_PLAY + 0])
    assert tok(S, 0, "knockdown") == 0 and tok(S, 0, "burn") == 1   # first negative: knockdown
    assert seat(S, 0, P_CP) == 3 and seat(S, 0, P_HAND_N) == 3


def test_fan_the_flames_raises_the_limit():
    S0 = position(step=M.ST_MAIN1, hands=(("fan_the_flames", "double"), ()), cp=(3, 0), tokens=({"fire_mastery": 5}, {}))
    g, S, seen = play_both(S0, script=[MV_PLAY + 0])
    assert seat(S, 0, P_LIM + CONTENT.token_ids["fire_mastery"]) == 6 and tok(S, 0, "fire_mastery") == 6


def test_reroll_moves_keep_dice():
    S0 = position(adice=(FIRE, MAGMA, SOUL, METEOR, FIRE), hands=(HOLD, ()), attempts=1)
    g, S, seen = play_both(S0, dice=(FIRE, FIRE, FIRE), script=[MV_REROLL + 0b10001])
    assert list(S[M.O_ADICE:M.O_ADICE + 5]) == [FIRE, FIRE, FIRE, FIRE, FIRE] and S[M.O_ATTEMPTS] == 2
    assert seen[0][2][:32] == [MV_PASS] + [MV_REROLL + m for m in range(31)]


def test_window_legal_moves_follow_dice_owner_and_timing():
    """Priority windows: before the ability, the Paladin (not rolling) may play Give Me a
    Hand (the opponent's dice) and instants, not Next Time (only when attacked) nor Might
    (main phase); in the attack window, with its own defence dice showing, it may play
    Next Time, instants and Tithes rerolls of its dice, not Give Me a Hand."""
    hand = ("give_hand", "next_time", "boss_generous", "might")
    S0 = position(adice=(FIRE, FIRE, FIRE, MAGMA, MAGMA), hands=(HOLD, hand), cp=(0, 2))
    S0[M.O_STEP] = M.ST_ROLL
    g, S, seen = play_both(S0, dice=(PRAY, PRAY, PRAY), script=[MV_PASS, MV_PASS, MV_PASS])
    assert seen[0][0] == M.PH_WINDOW and seen[0][1] == 1
    assert seen[0][2] == [MV_PASS, MV_PLAY + 0, MV_PLAY + 2]
    assert seen[1][0] == M.PH_WINDOW and seen[1][1] == 1        # attack window, defender first
    assert seen[1][2] == [MV_PASS, MV_PLAY + 1, MV_PLAY + 2] + [MV_TITHE_REROLL + i for i in range(3)]
    # 4 damage; 3 pray: +3 CP; the third pass ends main phase 2: the Paladin's income +1 CP
    assert seat(S, 1, P_HP) == 46 and seat(S, 1, P_CP) == 6


def test_burn_can_knock_out_in_upkeep():
    S0 = position(step=M.ST_UPKEEP, hands=(HOLD, ()), hp=(2, 50), tokens=({"burn": 1}, {}))
    g, S, seen = play_both(S0)
    assert S[M.O_OVER] == 1 and S[M.O_WINNER] == 1 and seat(S, 0, P_HP) == 0


def test_empty_deck_is_rebuilt_from_the_discard_pile():
    """Income draw from an empty deck: the discard pile (2 cards) is shuffled into the deck
    (one below(2) draw), then the top card is drawn; with the option off, nothing is drawn."""
    S0 = position(step=M.ST_INCOME, hands=(HOLD, ()), decks=((), ()))
    b = M.seat_base(0)
    S0[b + M.P_DISC:b + M.P_DISC + 2] = [CARD["might"], CARD["flick"]]
    S0[b + M.P_DISC_N] = 2
    g, S, seen = play_both(S0, dice=(0,))
    assert seat(S, 0, P_HAND_N) == 2 and seat(S, 0, M.P_DECK_N) == 1 and seat(S, 0, M.P_DISC_N) == 0
    rules = scenario_rules(reshuffle_discard=False)
    g, S, seen = play_both(S0, rules=rules)
    assert seat(S, 0, P_HAND_N) == 1 and seat(S, 0, M.P_DISC_N) == 2


def test_income_cp_is_capped():
    S0 = position(step=M.ST_INCOME, hands=(HOLD, ()), cp=(15, 0))
    g, S, seen = play_both(S0)
    assert seat(S, 0, P_CP) == 15 and seat(S, 0, P_HAND_N) == 2


# ------------------------------------------------------------------ the effects added with the missing cards
def test_me_too_copies_another_die():
    """copy_die (Me Too): set one of your dice to a face another of your dice shows; the
    legal moves are exactly those faces, die by die."""
    S0 = position(adice=(FIRE, FIRE, MAGMA, SOUL, METEOR), hands=(("me_too", "double"), ()), cp=(1, 0))
    g, S, seen = play_both(S0, dice=(PRAY, PRAY, PRAY), script=[MV_PLAY + 0, MV_DIE + 2 * 8 + FIRE + 1, fb(0)])
    faces = (FIRE, FIRE, MAGMA, SOUL, METEOR)
    want = sorted({MV_DIE + i * 8 + f + 1 for i in range(5) for j in range(5) if j != i
                   for f in (faces[j],) if f != faces[i]})
    assert seen[1][0] == M.PH_DIE and seen[1][2] == want and len(want) == 15
    assert seen[2][2][0] == fb(0)      # three fire now: Fireball
    assert list(S[M.O_ADICE:M.O_ADICE + 5]) == [FIRE, FIRE, FIRE, SOUL, METEOR] and seat(S, 0, P_CP) == 0


def test_me_too_with_every_die_alike_is_spent_without_a_choice():
    S0 = position(adice=(FIRE,) * 5, hands=(("me_too", "double"), ()), cp=(2, 0), attempts=1)
    g, S, seen = play_both(S0, script=[MV_PLAY + 0, MV_PASS])
    assert seen[1][0] == M.PH_ROLL          # straight back to the roll: no die decision
    assert seat(S, 0, P_CP) == 1 and seat(S, 0, P_HAND_N) == 1 and seat(S, 0, M.P_CARDS) == 1


@pytest.mark.parametrize("face,cp", [(0, 1), (1, 1), (2, 2), (3, 2), (4, 3), (5, 3)])
def test_one_throw_fortune_pays_half_the_die_rounded_up(face, cp):
    """A bonus roll keyed by face number (One Throw Fortune: CP = half the die, rounded up)."""
    S0 = position(step=M.ST_MAIN1, hands=(("one_throw_fortune", "double"), ()), cp=(0, 0))
    g, S, seen = play_both(S0, dice=(face,), script=[MV_PLAY + 0])
    assert seat(S, 0, P_CP) == cp


@pytest.mark.parametrize("theirs", [0, 1])
def test_transfer_status_passes_your_first_status(theirs):
    """transfer (Transfer Status): your first status in token order (Knockdown) goes to the
    opponent; their stack limit (1) applies, so one they already hold is not doubled."""
    S0 = position(step=M.ST_MAIN1, hands=(("transfer_status", "double"), ()), cp=(3, 0),
                  tokens=({"burn": 1, "knockdown": 1}, {"knockdown": theirs}))
    g, S, seen = play_both(S0, script=[MV_PLAY + 0])
    assert tok(S, 0, "knockdown") == 0 and tok(S, 0, "burn") == 1
    assert tok(S, 1, "knockdown") == 1 and seat(S, 0, P_CP) == 1


def test_just_this_rerolls_the_defence_dice():
    """Just This: the defender rerolls up to 5 of its defence dice after the defensive roll
    (every non-empty subset of the 3 dice is a move)."""
    S0 = position(adice=(FIRE,) * 5, hands=(HOLD, ("just_this",)), cp=(1, 0))
    g, S, seen = play_both(S0, dice=(PRAY, PRAY, PRAY, HEART, HEART, HEART),
                           script=[MV_PASS, fb(2), MV_PLAY + 0, MV_DIE + 0b111, MV_PASS])
    assert seen[2][1] == 1 and seen[3] == (M.PH_DIE, 1, [MV_DIE + m for m in range(1, 8)])
    assert list(S[M.O_DDICE:M.O_DDICE + 3]) == [HEART] * 3
    assert seat(S, 1, P_HP) == 50 - (8 - 6)       # 2 prevented per heart


@pytest.mark.parametrize("face,check", [(FIRE, "damage"), (MAGMA, "burn"), (SOUL, "fm"), (METEOR, "knockdown")])
def test_get_fired_up_rolls_an_attack_modifier(face, check):
    S0 = position(adice=(FIRE,) * 5, hands=(("get_fired_up", "double"), ()), cp=(1, 0))
    g, S, seen = play_both(S0, dice=(PRAY, PRAY, PRAY, face), script=[MV_PASS, fb(2), MV_PLAY + 0])
    if check == "damage":
        assert seat(S, 1, P_HP) == 50 - 8 - 3 and seat(S, 0, P_DMG + M.SRC_CARD) == 3
    else:
        assert seat(S, 1, P_HP) == 50 - 8
        name = {"burn": "burn", "knockdown": "knockdown", "fm": "fire_mastery"}[check]
        assert tok(S, 1 if check != "fm" else 0, name) >= (3 if check == "fm" else 1)


def test_surprise_may_change_the_opponents_dice_before_an_ultimate():
    """Surprise sets "any one die" (cards.toml's sources): the Paladin, in the window before
    the Pyromancer picks an ability, turns one of five meteors into a fire: no ultimate."""
    S0 = position(adice=(METEOR,) * 5, hands=(HOLD, ("surprise",)), cp=(0, 2))
    g, S, seen = play_both(S0, dice=(SWORD, HELM, HEART), script=[MV_PLAY + 0, MV_DIE + 0 * 8 + 1])
    assert seen[0][:2] == (M.PH_WINDOW, 1) and MV_PLAY + 0 in seen[0][2]
    assert seen[1][0] == M.PH_DIE and len(seen[1][2]) == 30      # any face of any of the 5 dice
    assert S[M.O_ADICE] == FIRE and seat(S, 1, P_CP) == 0
    assert S[M.seat_base(0) + M.P_USES + AB[PYRO]["scorch_the_earth"]] == 0


def test_i_can_again_is_one_more_offensive_roll_attempt():
    """I Can Again: an extra attempt in your own offensive roll; never on defence dice."""
    S0 = position(adice=(FIRE, FIRE, MAGMA, SOUL, METEOR), hands=(("i_can_again", "double"), ()), cp=(1, 0))
    g, S, seen = play_both(S0, script=[MV_PLAY + 0])
    assert seen[0][2] == [MV_PASS, MV_PLAY + 0, MV_PLAY + 1]     # no attempt left: no reroll moves
    assert S[M.O_MAX_ATT] == 4 and S[M.O_PHASE] == M.PH_ROLL and MV_REROLL + 0 in g.roll_moves()
    S0 = position(adice=(FIRE, FIRE, FIRE, MAGMA, SOUL), hands=(HOLD, ("i_can_again",)), cp=(0, 1))
    g, S, seen = play_both(S0, dice=(SWORD, HELM, HEART), script=[MV_PASS])
    # after his defence roll the Paladin may reroll a die (Tithes, 1 CP), not play the card
    assert seen == [(M.PH_WINDOW, 1, [MV_PASS] + [MV_TITHE_REROLL + i for i in range(3)])]
    assert S[M.O_STEP] == M.ST_MAIN2 and seat(S, 1, P_HAND_N) == 1 and seat(S, 1, P_CP) == 1


@pytest.mark.parametrize("diff", [True, False])
def test_an_upgrade_over_a_card_made_level_pays_the_difference(diff):
    """Pyroblast III (3 CP) over Pyroblast II (2 CP): 1 CP under upgrade_pays_difference
    (the default), 3 without it; from level I it always costs 3."""
    rules = scenario_rules(upgrade_pays_difference=diff)
    S0 = position(step=M.ST_MAIN1, hands=(("pyroblast_3", "double"), ()), cp=(1, 0), rules=rules,
                  levels=({"pyroblast": 2}, {}))
    g, S, seen = play_both(S0, rules=rules, script=[MV_PLAY + 0] if diff else [])
    if diff:
        assert MV_PLAY + 0 in seen[0][2] and seat(S, 0, P_CP) == 0
        assert S[M.seat_base(0) + M.P_LVL + AB[PYRO]["pyroblast"]] == 3
    else:                       # 1 CP: not the full 3 CP
        assert MV_PLAY + 0 not in g.main_moves(0) and seat(S, 0, P_CP) == 1
    S0 = position(step=M.ST_MAIN1, hands=(("pyroblast_3", "double"), ()), cp=(2, 0), rules=rules)
    g, S, seen = play_both(S0, rules=rules)
    assert MV_PLAY + 0 not in g.main_moves(0)      # from level I: the full 3 CP


def test_holy_light_rolls_two_bonus_dice_by_the_seed():
    """Seed line 588 ("Ulecz x i rzuc 2": heal per heart and roll 2): Holy Light's two bonus
    dice, a sword and a helm, give both Crit and Protect; 2 hearts heal 2."""
    hl = MV_ABILITY + AB[PAL]["holy_light"] * 16
    S0 = position(heroes=(PAL, PYRO), adice=(HEART, HEART, SWORD, HELM, PRAY), hands=(HOLD, ()))
    g, S, seen = play_both(S0, dice=(SWORD, HELM))     # the one met tier is activated at once
    assert hl and seat(S, 0, M.P_USES + AB[PAL]["holy_light"]) == 1
    assert seat(S, 0, P_HP) == 52 and tok(S, 0, "crit") == 1 and tok(S, 0, "protect") == 1


def test_next_time_is_a_roll_phase_card_by_the_majority():
    """[E1], [E2] and [G] print Next Time as a roll-phase card ([Z]'s code: an instant)."""
    card = next(c for c in M.load_content(("paladin", "pyromancer")).cards if c.id == "next_time")
    assert card.phase == M.CP_ROLL


def test_blessing_of_might_ii_lets_the_player_choose_crit_or_accuracy():
    """Blessing of Might II (2 sword + pray): 2 undefendable, then Crit OR Accuracy, as [Z]
    and [TH] print it: two tiers on the same dice, so the ability choice is the move."""
    mp = MV_ABILITY + AB[PAL]["mighty_prayer"] * 16
    S0 = position(heroes=(PAL, PYRO), adice=(SWORD, SWORD, PRAY, 3, HELM), hands=(HOLD, ()),
                  levels=({"mighty_prayer": 2}, {}))
    g, S, seen = play_both(S0, script=[mp + 2])
    assert mp + 1 in seen[0][2] and mp + 2 in seen[0][2]
    assert tok(S, 0, "accuracy") == 1 and tok(S, 0, "crit") == 0 and seat(S, 1, P_HP) == 48
