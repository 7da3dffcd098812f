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
    g.strategies[0].choice = ability(g, seat, name)
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
    g.strategies[0].choice = -1
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
    # 4 damage + heal 1; two fires strike back 2: the token absorbs them (30 - 0 + 1, capped)
    # or, with the option off, the attacker takes 2 and heals 1
    for flag, hp, token in ((True, 30, 0), (False, 29, 1)):
        setup = setup_with(shield_vs_strike_back=flag)
        g = game("light", "fire", dice=[LG_SWORD] * 3 + [HELMET, PRAYER] + [FIRE, FIRE, METEOR], setup=setup)
        g.players[0].shield = 1
        attack(g, 0, "Justice Strike")
        assert g.players[0].hp == hp
        assert g.players[0].shield == token
        assert g.players[1].hp == 26


def test_strike_back_death_is_not_undone_by_the_attackers_heal():
    # the game ends the moment a hero is at 0 HP: after the defence, before the heal
    g = game("light", "fire", dice=[LG_SWORD] * 3 + [HELMET, PRAYER] + [FIRE, METEOR, METEOR])
    g.players[0].hp = 1
    attack(g, 0, "Justice Strike")
    assert g.players[0].hp == 0 and g.players[1].hp == 26 and g.winner == 1


def test_shield_of_faith_token_arrives_after_its_own_strike_back():
    g = game("light", "fire", dice=[HELMET] * 3 + [LG_SWORD, PRAYER] + [FIRE, FIRE, FIRE])
    attack(g, 0, "Shield of Faith")      # 4 damage, 3 back: taken in full, then the token
    assert g.players[0].hp == 27 and g.players[0].shield == 1 and g.players[1].hp == 26


def test_partial_keep_rerolls_the_other_dice_in_order():
    g = game("mountain", "light", dice=[SWORD, 1, HEART, HEART, FIST] + [FIST, FIST, 2],
             keeps=[0b00011, 0b11111])
    g.play_turn(0)
    assert "  roll 2, kept dice [1, 2]: 1:sword 2:sword 6:fist 6:fist 3:sword" in g.log


def test_several_bought_rolls():
    dice = [HEART] * 5 * 6
    g = game("mountain", "shadow", dice=dice, keeps=[0, 0, 0, 0, 0, 31])
    g.players[0].cp = 6
    g.play_turn(0)                       # income -> 7 CP; three bought rolls -> 1
    assert g.players[0].cp == 1 and g.players[0].bought_rolls == 3 and not g.dice


def test_first_turn_income_option():
    g = game("mountain", "shadow", dice=[SWORD, HEART, HEART, FIST, 1], turn=1,
             setup=setup_with(first_turn_income=True))
    g.play_turn(0)
    assert g.players[0].cp == 3


def test_shield_vs_wounds_option():
    for flag, hp, token in ((False, 28, 1), (True, 30, 0)):
        g = game("mountain", "shadow", dice=[SWORD, HEART, HEART, FIST, 1],
                 setup=setup_with(shield_vs_wounds=flag))
        g.players[0].wounds, g.players[0].shield = 2, 1
        g.play_turn(0)
        assert g.players[0].hp == hp and g.players[0].shield == token


def test_steal_after_the_defenders_bags_and_cp_cap():
    # Shadow Walker vs Shadow Walker: the defender's two bags give 2 CP, then 2 are stolen
    g = game("shadow", "shadow", dice=[BAG, BAG, BAG, DAGGER, SHADOW, BAG, BAG])
    g.players[1].cp = 0
    attack(g, 0, "Pickpocket")
    assert g.players[1].cp == 0 and g.players[0].cp == 2 + 1 + 2 and g.players[1].hp == 28
    # an attacker at the cap steals anyway: the opponent loses the CP, the cap holds
    g = game("shadow", "mountain", dice=[BAG, BAG, BAG, DAGGER, SHADOW, SWORD, SWORD, SWORD])
    g.players[0].cp, g.players[1].cp = 15, 5
    attack(g, 0, "Pickpocket")
    assert g.players[0].cp == 15 and g.players[1].cp == 3


def test_defender_bag_cp_respects_the_cap():
    g = game("mountain", "shadow", dice=[SWORD] * 3 + [HEART, FIST] + [BAG, BAG])
    g.players[1].cp = 14
    attack(g, 0, "Sword Strike")
    assert g.players[1].cp == 15


@pytest.mark.parametrize("faces,name,met", [
    ([1, 2, 3, 4, 4], "Charge", True),       # numbers 2-5
    ([2, 3, 4, 5, 5], "Charge", True),       # numbers 3-6
    ([0, 1, 2, 4, 5], "Charge", False),      # 1 2 3 5 6: no four in a row
])
def test_small_straights_on_numbers(faces, name, met):
    g = game("mountain", "light", dice=faces + [LG_HEART, LG_SWORD])
    attack(g, 0, name)
    assert g.players[1].hp == (30 - 6 + 1 if met else 30)


@pytest.mark.parametrize("faces,met", [([1, 2, 3, 4, 5], True), ([0, 1, 2, 3, 5], False)])
def test_large_straights_on_numbers(faces, met):
    g = game("shadow", "fire", dice=faces)
    attack(g, 0, "Ambush")
    assert g.players[1].hp == (22 if met else 30)


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
    g.strategies[0].choice = ability(g, 0, "Charge")
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
    from simcore.duel.reference import DuelGame
    from strategies.duel import RANDOM

    setup = setup_with(turn_cap=3)
    g = DuelGame(setup, 0, 1, RANDOM, RANDOM.make_data(setup), seed=5, index=0).play()
    assert g.winner == -1 and g.timeout and g.turn == 3


def test_first_player_by_lot_or_seat0():
    from simcore.duel.reference import DuelGame
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


# The digest's hero section, transcribed: faces 1..6, then per ability the tiers'
# (target, effects) and undefendable, then the defence dice and symbol effects.
DIGEST = {
    "Mountain Warrior": (
        "sword sword sword heart heart fist",
        {"Sword Strike": ([("3*sword", {"damage": 4}), ("4*sword", {"damage": 6}), ("5*sword", {"damage": 8})], False),
         "Healing Rage": ([("3*heart", {"heal": 4})], False),
         "Stunning Blow": ([("3*fist", {"damage": 5, "daze": 1})], False),
         "Charge": ([("small-straight", {"damage": 6})], False),
         "Mountain Fury": ([("5*fist", {"damage": 14})], True)},
        3, {"heart": {"heal": 1}, "fist": {"strike": 1}}),
    "Shadow Walker": (
        "dagger dagger bag bag shadow shadow",
        {"Dagger": ([("3*dagger", {"damage": 4}), ("4*dagger", {"damage": 5, "wounds": 1}),
                     ("5*dagger", {"damage": 6, "wounds": 2})], False),
         "Pickpocket": ([("3*bag", {"damage": 2, "steal": 2})], False),
         "Shadow Sting": ([("2*dagger+2*shadow", {"damage": 5, "wounds": 1})], False),
         "Ambush": ([("large-straight", {"damage": 8})], True),
         "Absolute Darkness": ([("5*shadow", {"damage": 12, "steal": 2})], True)},
        2, {"shadow": {"shield": 1}, "dagger": {"strike": 1}, "bag": {"cp": 1}}),
    "Fire Kindler": (
        "fire fire fire spark spark meteor",
        {"Flame": ([("3*fire", {"damage": 3, "wounds": 1}), ("4*fire", {"damage": 5, "wounds": 1}),
                    ("5*fire", {"damage": 7, "wounds": 2})], False),
         "Sparks": ([("3*spark", {"damage": 5, "cp": 1})], False),
         "Meteor": ([("2*meteor+2*fire", {"damage": 7})], False),
         "Heat Wave": ([("small-straight", {"damage": 5, "wounds": 1})], False),
         "Meteor Shower": ([("5*meteor", {"damage": 13, "wounds": 1})], True)},
        3, {"spark": {"shield": 1}, "fire": {"strike": 1}}),
    "Light Guardian": (
        "sword sword helmet helmet heart prayer",
        {"Justice Strike": ([("3*sword", {"damage": 4, "heal": 1}), ("4*sword", {"damage": 5, "heal": 1}),
                             ("5*sword", {"damage": 6, "heal": 2})], False),
         "Prayer": ([("3*prayer", {"heal": 5, "cp": 2})], False),
         "Shield of Faith": ([("3*helmet", {"damage": 4, "shield": 1})], False),
         "Holy Attack": ([("large-straight", {"damage": 7, "heal": 2})], False),
         "Blinding Light": ([("5*prayer", {"damage": 11, "heal": 5})], True)},
        2, {"helmet": {"shield": 1}, "heart": {"heal": 1}}),
}


def test_hero_files_match_the_digest():
    from simcore.duel.model import EFFECTS, load_heroes

    heroes = {h.name: h for h in load_heroes()}
    assert set(heroes) == set(DIGEST)
    for name, (faces, abilities, ndef, defence) in DIGEST.items():
        h = heroes[name]
        assert [f.number for f in h.die.faces] == [1, 2, 3, 4, 5, 6]
        assert " ".join(f.symbol for f in h.die.faces) == faces
        assert [a.name for a in h.abilities] == list(abilities)
        for a in h.abilities:
            tiers, undefendable = abilities[a.name]
            assert a.undefendable == undefendable, a.name
            assert [t.target.text for t in a.tiers] == [t for t, _ in tiers], a.name
            for t, (_, eff) in zip(a.tiers, tiers):
                assert t.effects == {e: eff.get(e, 0) for e in EFFECTS}, a.name
        assert h.defence_dice == ndef
        assert {s: {k: v for k, v in e.items() if v} for s, e in h.defence.items()} == defence
