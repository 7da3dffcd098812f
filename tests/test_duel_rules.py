"""One forced-dice scenario (at least) per rule of ../shared/rules/dice-duel.md, on the
reference engine. Face indices: 0..5 are faces 1..6 of the hero's die."""
import pytest

from duel_helpers import ability, game, setup_with

# Mountain Warrior: 1-3 sword, 4-5 heart, 6 fist. Shadow Walker: 1-2 dagger, 3-4 bag, 5-6 shadow.
# Fire Kindler: 1-3 fire, 4-5 spark, 6 meteor. Light Guardian: 1-2 sword, 3-4 helmet, 5 heart, 6 prayer.
SWORD, HEART, FIST = 0, 3, 5          # Mountain Warrior faces
DAGGER, BAG, SHADOW = 0, 2, 4         # Shadow Walker faces
FIRE, SPARK, METEOR = 0, 3, 5         # Fire Kindler faces
LG_SWORD, HELMET, LG_HEART, PRAYER = 0, 2, 4, 5  # Light Guardian faces


def attack(g, seat, name):
    g.strategy.choice = ability(g, seat, name)
    g.play_turn(seat)


def test_start_values_and_first_turn_has_no_income():
    g = game("mountain", "shadow", dice=[SWORD, HEART, HEART, FIST, 1], turn=1)
    assert [p.hp for p in g.players] == [30, 30] and [p.cp for p in g.players] == [2, 2]
    g.play_turn(0)
    assert g.players[0].cp == 2  # no income on the very first turn
    g2 = game("mountain", "shadow", dice=[SWORD, HEART, HEART, FIST, 1], turn=2)
    g2.play_turn(0)
    assert g2.players[0].cp == 3  # +1 CP on every later turn


def test_tiered_sword_strike_best_tier_counts_and_defence_strikes_back():
    # 4 swords + heart: tier 2 (6 damage). Shadow Walker defends with 2 dice: dagger, bag.
    g = game("mountain", "shadow", dice=[SWORD, 1, 2, SWORD, HEART, DAGGER, BAG])
    attack(g, 0, "Sword Strike")
    assert g.players[1].hp == 24          # 6 damage, nothing prevented
    assert g.players[0].hp == 29          # dagger: 1 damage back
    assert g.players[1].cp == 3           # bag: +1 CP
    assert g.players[0].abilities_used[0] == 1


def test_defence_shield_symbol_prevents_three_each():
    g = game("mountain", "shadow", dice=[SWORD] * 5 + [SHADOW, SHADOW])
    attack(g, 0, "Sword Strike")          # 8 damage, two shields prevent 6
    assert g.players[1].hp == 28


def test_defence_heals_and_hp_never_exceeds_cap():
    # Light Guardian at 30 HP defends against 4 damage with two hearts? LG defence: helmet shield, heart heal.
    g = game("mountain", "light", dice=[SWORD, SWORD, SWORD, HEART, HEART, LG_HEART, LG_HEART])
    attack(g, 0, "Sword Strike")          # 4 damage, heal 2 at the same time
    assert g.players[1].hp == 28
    g = game("mountain", "light", dice=[HEART, HEART, HEART, SWORD, FIST])
    g.players[0].hp = 28
    attack(g, 0, "Healing Rage")          # heal 4 from 28: capped at 30, no defence roll (no damage)
    assert g.players[0].hp == 30 and not g.dice


def test_undefendable_skips_defence_roll():
    g = game("mountain", "shadow", dice=[FIST] * 5)   # no defence dice listed: a roll would fail
    attack(g, 0, "Mountain Fury")
    assert g.players[1].hp == 30 - 14 and not g.dice


def test_daze_loses_the_turn_but_wounds_and_income_still_happen():
    g = game("mountain", "shadow", dice=[FIST, FIST, FIST, SWORD, SWORD, BAG, BAG])
    attack(g, 0, "Stunning Blow")
    assert g.players[1].dazed and g.players[1].hp == 25
    g.players[1].wounds = 1
    g.strategy.choice = -1
    cp_before = g.players[1].cp
    g.play_turn(1)                        # no dice needed: the turn is lost
    assert not g.players[1].dazed
    assert g.players[1].hp == 24          # the wound still bites
    assert g.players[1].cp == cp_before + 1
    assert g.dice == []


def test_dazed_skips_upkeep_option():
    setup = setup_with(dazed_skips_upkeep=True)
    g = game("mountain", "shadow", setup=setup)
    g.players[1].dazed, g.players[1].wounds = True, 2
    g.play_turn(1)
    assert g.players[1].hp == 30 and g.players[1].cp == 2 and not g.players[1].dazed


def test_wounds_kill_at_the_start_of_a_turn():
    g = game("mountain", "shadow")
    g.players[1].hp, g.players[1].wounds = 2, 3
    g.play_turn(1)
    assert g.players[1].hp == -1 and g.winner == 0 and g.dice == []


def test_wounds_stack_up_to_three():
    g = game("shadow", "mountain", dice=[DAGGER] * 5 + [SWORD, SWORD, SWORD])
    g.players[1].wounds = 2
    attack(g, 0, "Dagger")                # 5 daggers: 6 damage + 2 wounds
    assert g.players[1].wounds == 3


def test_strike_back_can_produce_a_draw():
    # Fire Kindler defence: fire = 1 damage back. Attacker at 1 HP kills the defender at 4.
    g = game("mountain", "fire", dice=[SWORD, SWORD, SWORD, HEART, HEART, FIRE, FIRE, FIRE])
    g.players[0].hp, g.players[1].hp = 1, 4
    attack(g, 0, "Sword Strike")
    assert g.players[0].hp <= 0 and g.players[1].hp <= 0 and g.winner == -1


def test_attacker_killed_by_strike_back_loses():
    g = game("mountain", "fire", dice=[SWORD, SWORD, SWORD, HEART, HEART, FIRE, SPARK, SPARK])
    g.players[0].hp = 1
    attack(g, 0, "Sword Strike")          # 4 damage vs two spark shields: 0 taken; 1 back
    assert g.players[1].hp == 30 and g.players[0].hp == 0 and g.winner == 1


def test_ability_shield_absorbs_three_then_is_spent_and_holds_at_most_one():
    g = game("light", "mountain", dice=[HELMET] * 3 + [LG_SWORD, PRAYER] + [SWORD, SWORD, SWORD])
    attack(g, 0, "Shield of Faith")
    assert g.players[0].shield == 1
    g.dice = [HELMET] * 3 + [LG_SWORD, PRAYER] + [SWORD, SWORD, SWORD]
    attack(g, 0, "Shield of Faith")
    assert g.players[0].shield == 1      # Decision: at most one token
    g.dice = [SWORD] * 4 + [HEART] + [HELMET, LG_SWORD]   # 6 damage at Light Guardian; helmet prevents 3
    attack(g, 1, "Sword Strike")
    assert g.players[0].hp == 30 and g.players[0].shield == 0   # 6 - 3 (helmet) - 3 (token)


def test_shield_token_reduces_strike_back_unless_option_off():
    for flag, hp in ((True, 30), (False, 28)):
        setup = setup_with(shield_vs_strike_back=flag)
        g = game("light", "fire", dice=[LG_SWORD] * 3 + [HELMET, PRAYER] + [FIRE, FIRE, METEOR], setup=setup)
        g.players[0].shield = 1
        attack(g, 0, "Justice Strike")    # 4 damage + heal 1; two fires strike back 2
        assert g.players[0].hp == min(30, hp + 1) if flag else g.players[0].hp == 29
        assert g.players[0].shield == (0 if flag else 1)


def test_shield_token_is_not_spent_when_no_damage_gets_through():
    g = game("mountain", "light", dice=[SWORD] * 3 + [HEART, FIST] + [HELMET, HELMET])
    g.players[1].shield = 1
    attack(g, 0, "Sword Strike")         # 4 damage, 6 prevented by helmets
    assert g.players[1].hp == 30 and g.players[1].shield == 1


def test_cp_never_exceeds_cap():
    g = game("light", "mountain", dice=[PRAYER] * 3 + [HELMET, HELMET])
    g.players[0].cp = 14
    attack(g, 0, "Prayer")               # +1 income, +2 CP -> capped at 15
    assert g.players[0].cp == 15


def test_bought_roll_costs_two_and_needs_the_cp():
    # three free rolls (keeps 0 = reroll all), then buy one, then stop
    dice = [1] * 5 + [1] * 5 + [1] * 5 + [SWORD] * 5
    g = game("mountain", "shadow", dice=dice, keeps=[0, 0, 0, 31])
    g.players[0].cp = 4
    g.play_turn(0)                       # income -> 5 CP; one bought roll -> 3
    assert g.players[0].cp == 3 and g.players[0].bought_rolls == 1 and not g.dice
    g = game("mountain", "shadow", dice=[1] * 15, keeps=[0, 0, 0, 0])
    g.players[0].cp = 0
    g.play_turn(0)                       # income -> 1 CP: cannot buy
    assert g.players[0].cp == 1 and g.players[0].bought_rolls == 0 and not g.dice


def test_steal_never_takes_more_than_the_opponent_has():
    g = game("shadow", "mountain", dice=[BAG, BAG, BAG, DAGGER, SHADOW, HEART, HEART, HEART])
    g.players[1].cp = 1
    attack(g, 0, "Pickpocket")           # 2 damage, steal 2 -> only 1 there
    assert g.players[1].cp == 0 and g.players[0].cp == 2 + 1 + 1
    assert g.players[1].hp == 30        # 2 damage, healed 3 by hearts, capped


def test_two_symbol_combination_and_straights_on_numbers():
    g = game("shadow", "fire", dice=[DAGGER, DAGGER, SHADOW, SHADOW, BAG, SPARK, SPARK, SPARK])
    attack(g, 0, "Shadow Sting")         # 5 damage + wound; 3 sparks prevent 9
    assert g.players[1].hp == 30 and g.players[1].wounds == 1
    # large straight on numbers 1-5 (dagger, dagger, bag, bag, shadow): Ambush, undefendable
    g = game("shadow", "fire", dice=[0, 1, 2, 3, 4])
    attack(g, 0, "Ambush")
    assert g.players[1].hp == 22
    # 1,2,3,4,4 is a small straight but not a large one
    g = game("mountain", "fire", dice=[0, 1, 2, 3, 3, SPARK, SPARK, SPARK])
    g.strategy.choice = ability(g, 0, "Charge")
    g.play_turn(0)
    assert g.players[0].abilities_used[ability(g, 0, "Charge")] == 1
    g = game("shadow", "fire", dice=[0, 1, 2, 3, 3])
    attack(g, 0, "Ambush")               # not satisfied: no attack
    assert g.players[1].hp == 30 and sum(g.players[0].abilities_used) == 0


def test_unsatisfied_choice_is_no_attack():
    g = game("mountain", "shadow", dice=[SWORD, SWORD, HEART, HEART, FIST])
    attack(g, 0, "Mountain Fury")
    assert g.players[1].hp == 30 and sum(g.players[0].abilities_used) == 0


def test_turn_cap_is_a_draw_and_counted():
    from simcore.duel.engine import DuelGame
    from strategies.duel import RANDOM

    setup = setup_with(turn_cap=3)
    g = DuelGame(setup, 0, 1, RANDOM, RANDOM.make_data(setup), seed=5, index=0).play()
    assert g.winner == -1 and g.timeout and g.turn == 3


def test_first_player_by_lot_or_seat0():
    from simcore.duel.engine import DuelGame
    from strategies.duel import GREEDY

    s = setup_with()
    firsts = {DuelGame(s, 0, 1, GREEDY, GREEDY.make_data(s), 3, i).play().first for i in range(40)}
    assert firsts == {0, 1}
    s0 = setup_with(first_player="seat0")
    assert {DuelGame(s0, 0, 1, GREEDY, GREEDY.make_data(s0), 3, i).play().first for i in range(10)} == {0}


@pytest.mark.parametrize("name", ["Dagger"])
def test_dagger_tier_wounds(name):
    g = game("shadow", "mountain", dice=[DAGGER] * 4 + [SHADOW] + [SWORD, SWORD, SWORD])
    attack(g, 0, name)                   # 4 daggers: 5 damage + 1 wound
    assert g.players[1].hp == 25 and g.players[1].wounds == 1
