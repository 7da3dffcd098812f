"""Forced-dice scenario tests of the upgrade levels shipped from the fan sources' custom
resolvers (issue 9): Pyroblast II/III, Combustion II, Hot Streak II, Ignite II, Molten
Armor II/III, Divine Defense II/III and Tithes II - what each new level does on a given roll,
played through both engines (``dicethrone_helpers.play_both`` holds the kernel and the
reference engine to the same legal moves and state vectors at every step) - and the
vocabulary they needed (defence and passive upgrades, a defence level's own dice,
``if_roll`` and ``if_uses`` conditions, a bonus roll the attacker may reroll), including
its load-time errors."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from dicethrone_helpers import (AB, CONTENT, FIRE, HEART, HELM, MAGMA, METEOR, PAL, PRAY, PYRO, SOUL,  # noqa: E402
                                SWORD, play_both, position, seat, tok)

from simcore.dicethrone import model as M  # noqa: E402
from simcore.dicethrone.model import (MV_ABILITY, MV_DIE, MV_PASS, MV_PLAY, MV_TITHE_DRAW, P_CP, P_HAND_N,  # noqa: E402
                                      P_HP, P_LIM)
from simcore.errors import PlaytestError  # noqa: E402

HOLD = ("double",)   # a card in the attacker's hand makes main phase 2 a decision (stop there)
NO_DEFENCE = (PRAY, PRAY, PRAY)   # the Paladin's level-I defence dice: 3 CP, nothing prevented


def tier(hero, ability, level, target):
    """The move that activates ``ability``'s tier of ``level`` and ``target`` text."""
    a = AB[hero][ability]
    tiers = CONTENT.heroes[hero].abilities[a].tiers
    t = [i for i, x in enumerate(tiers) if x.level == level and x.text == target]
    assert len(t) == 1, (ability, level, target)
    return MV_ABILITY + a * 16 + t[0]


def test_pyroblast_2_resolves_two_bonus_dice():
    """Deal 6 and roll 2 dice: fire +3, fiery soul 2 Fire Mastery."""
    S0 = position(adice=(FIRE, FIRE, FIRE, METEOR, MAGMA), hands=(HOLD, ()), levels=({"pyroblast": 2}, {}))
    pb = tier(PYRO, "pyroblast", 2, "3*fire+1*meteor")
    g, S, seen = play_both(S0, dice=NO_DEFENCE + (FIRE, SOUL), script=[pb])
    assert pb in seen[0][2] and tier(PYRO, "fireball", 1, "3*fire") in seen[0][2]
    assert seat(S, 1, P_HP) == 50 - 9 and tok(S, 0, "fire_mastery") == 2


@pytest.mark.parametrize("choice,bonus,hp,burn,knock", [
    (MV_PASS, (MAGMA, METEOR), 50 - 6, 1, 1),                # keeps: Burn and Knockdown
    (MV_DIE + 1, (MAGMA, METEOR, FIRE), 50 - 9, 0, 1),      # rerolls die 1 (magma -> fire: +3)
    (MV_DIE + 2, (MAGMA, METEOR, SOUL), 50 - 6, 1, 0),      # rerolls die 2 (meteor -> soul: 2 FM)
])
def test_pyroblast_3_may_reroll_one_bonus_die(choice, bonus, hp, burn, knock):
    S0 = position(adice=(FIRE, FIRE, FIRE, METEOR, MAGMA), hands=(HOLD, ()), levels=({"pyroblast": 3}, {}))
    pb = tier(PYRO, "pyroblast", 3, "3*fire+1*meteor")
    g, S, seen = play_both(S0, dice=NO_DEFENCE + bonus, script=[pb, choice])
    assert seen[1][0] == M.PH_BONUS and seen[1][1] == 0
    assert seen[1][2] == [MV_PASS, MV_DIE + 1, MV_DIE + 2]      # one die at most, or none
    assert seat(S, 1, P_HP) == hp and tok(S, 1, "burn") == burn and tok(S, 1, "knockdown") == knock
    assert tok(S, 0, "fire_mastery") == (2 if SOUL in bonus[2:] else 0) and S[M.O_BONUS_N] == 0


def test_combustion_2_deals_four_per_token_up_to_four():
    S0 = position(adice=(FIRE, MAGMA, SOUL, METEOR, FIRE), hands=(HOLD, ()), tokens=({"fire_mastery": 4}, {}),
                  levels=({"combustion": 2}, {}))
    g, S, seen = play_both(S0)
    assert seat(S, 1, P_HP) == 50 - 16 and tok(S, 0, "fire_mastery") == 1 and S[M.O_DEFENDED] == 0


def test_hot_streak_2_small_straight_and_two_fire_two_magma():
    # faces 1, 2, 3, 4, 6: a small straight; 1 Fire Mastery held + 2 gained: 6 + 3
    S0 = position(adice=(0, 1, 2, MAGMA, METEOR), hands=(HOLD, ()), tokens=({"fire_mastery": 1}, {}),
                  levels=({"hot_streak": 2}, {}))
    hs = tier(PYRO, "hot_streak", 2, "small-straight")
    g, S, seen = play_both(S0, dice=NO_DEFENCE, script=[hs])
    assert seat(S, 1, P_HP) == 50 - 9 and tok(S, 0, "fire_mastery") == 3
    # 2 fire + 2 magma (the only tier met): gain 2, Burn, deal 6
    S0 = position(adice=(FIRE, FIRE, MAGMA, MAGMA, SOUL), hands=(HOLD, ()), levels=({"hot_streak": 2}, {}))
    g, S, seen = play_both(S0, dice=NO_DEFENCE)
    assert seat(S, 1, P_HP) == 44 and tok(S, 1, "burn") == 1 and tok(S, 0, "fire_mastery") == 2
    assert S[M.seat_base(0) + M.P_USES + AB[PYRO]["hot_streak"]] == 1


def test_ignite_2_large_straight_and_two_magma_two_souls():
    S0 = position(adice=(0, 1, 2, MAGMA, SOUL), hands=(HOLD, ()), levels=({"ignite": 2}, {}))
    ig = tier(PYRO, "ignite", 2, "large-straight")
    g, S, seen = play_both(S0, dice=NO_DEFENCE, script=[ig])
    assert seat(S, 1, P_HP) == 50 - (5 + 2 * 2) and tok(S, 1, "burn") == 1
    # 2 magma + 2 fiery soul: stack limit 6, +5 Fire Mastery, Burn, no attack (no defence)
    S0 = position(adice=(MAGMA, MAGMA, SOUL, SOUL, FIRE), hands=(HOLD, ()), tokens=({"fire_mastery": 1}, {}),
                  levels=({"ignite": 2}, {}))
    hs = tier(PYRO, "ignite", 2, "2*magma+2*fiery_soul")
    g, S, seen = play_both(S0, script=[hs])
    assert seat(S, 0, P_LIM + CONTENT.token_ids["fire_mastery"]) == 6 and tok(S, 0, "fire_mastery") == 6
    assert tok(S, 1, "burn") == 1 and seat(S, 1, P_HP) == 50 and S[M.O_DEFENDED] == 0


@pytest.mark.parametrize("level,ddice,fm,back,burn", [
    (1, (FIRE, MAGMA, SOUL, METEOR, METEOR), 1, 1, 0),
    (2, (FIRE, MAGMA, SOUL, METEOR, METEOR), 1, 1, 1),
    (2, (FIRE, FIRE, SOUL, METEOR, METEOR), 1, 2, 0),     # no magma: no Burn
    (3, (FIRE, MAGMA, MAGMA, SOUL, METEOR), 3, 3, 1),     # +1 per soul and per magma; 1 per fire and per magma
    (3, (MAGMA, SOUL, SOUL, METEOR, METEOR), 3, 1, 0),    # no fire: no Burn
])
def test_molten_armor_levels(level, ddice, fm, back, burn):
    """A Pyromancer defends a 3-fire Fireball (4) with Molten Armor at each level."""
    S0 = position(heroes=(PYRO, PYRO), adice=(FIRE, FIRE, FIRE, MAGMA, SOUL), hands=(HOLD, ()),
                  levels=({}, {"molten_armor": level}))
    g, S, seen = play_both(S0, dice=ddice)
    assert S[M.O_DDN] == 5
    assert tok(S, 1, "fire_mastery") == fm and seat(S, 0, P_HP) == 50 - back and tok(S, 0, "burn") == burn
    assert seat(S, 1, P_HP) == 46


@pytest.mark.parametrize("level,ddice,hp,cp,protect", [
    (2, (SWORD, HELM, HEART, PRAY), 50 - (8 - 3), 1, 0),
    (3, (HELM, HELM, PRAY, SWORD), 50 - (8 - 2), 1, 1),   # 2 helm + a pray: Protect (kept)
    (3, (HELM, SWORD, PRAY, SWORD), 50 - (8 - 1), 1, 0),  # one helm: no Protect
])
def test_divine_defense_2_and_3_roll_four_dice(level, ddice, hp, cp, protect):
    """5-fire Fireball (8) against Divine Defense II/III: 4 defence dice."""
    S0 = position(adice=(FIRE,) * 5, hands=(HOLD, ()), levels=({}, {"divine_defense": level}))
    fb = tier(PYRO, "fireball", 1, "5*fire")
    script = [fb] + ([MV_PASS] if protect else [])
    g, S, seen = play_both(S0, dice=ddice, script=script)
    if protect:
        assert seen[1][0] == M.PH_TOKEN and seen[1][1] == 1     # Protect offered for this attack
    assert S[M.O_DDN] == 4 and list(S[M.O_DDICE:M.O_DDICE + 4]) == list(ddice)
    assert seat(S, 1, P_HP) == hp and seat(S, 1, P_CP) == cp and tok(S, 1, "protect") == protect
    assert seat(S, 0, P_HP) == 50 - sum(1 for d in ddice if d == SWORD)


def test_tithes_2_draw_cost_and_cp_on_a_pray_ability():
    # level II: a card for 2 CP (level I: 3 CP, not affordable here)
    for level, offered in ((1, False), (2, True)):
        S0 = position(heroes=(PAL, PYRO), step=M.ST_MAIN1, hands=(HOLD, ()), cp=(2, 0), levels=({"tithes": level}, {}))
        g, S, seen = play_both(S0, script=[MV_TITHE_DRAW] if offered else [])
        if offered:
            assert MV_TITHE_DRAW in seen[0][2] and seat(S, 0, P_CP) == 0 and seat(S, 0, P_HAND_N) == 2
        else:
            assert MV_TITHE_DRAW not in g.moves
    # Retaliate (3 helm + 1 pray) needs a pray: 2 CP + 1 from Tithes II
    S0 = position(heroes=(PAL, PYRO), adice=(HELM, HELM, HELM, PRAY, SWORD), hands=(HOLD, ()),
                  levels=({"tithes": 2}, {}))
    g, S, seen = play_both(S0)
    assert seat(S, 0, P_CP) == 3 and tok(S, 0, "retribution") == 1
    # Holy Light (2 heart) does not, though a pray shows: no Tithes CP (its 2 bonus dice,
    # both swords: Crit)
    S0 = position(heroes=(PAL, PYRO), adice=(HEART, HEART, PRAY, HELM, HELM), hands=(HOLD, ()),
                  levels=({"tithes": 2}, {}))
    g, S, seen = play_both(S0, dice=(SWORD, SWORD))
    assert seat(S, 0, P_CP) == 0 and tok(S, 0, "crit") == 1
    # a large straight (faces 2-6) shows a pray: +1 CP; level I: nothing
    for level, cp in ((1, 0), (2, 1)):
        S0 = position(heroes=(PAL, PYRO), adice=(1, 2, 3, 4, 5), hands=(HOLD, ()), levels=({"tithes": level}, {}))
        ls = tier(PAL, "holy_attack", 1, "large-straight")
        # (with the Tithes CP the attacker can afford Double in the attack window: it passes)
        g, S, seen = play_both(S0, dice=(FIRE, FIRE, FIRE, FIRE, FIRE), script=[ls] + [MV_PASS] * (level - 1))
        assert seat(S, 0, P_CP) == cp and seat(S, 1, P_HP) == 50 - 8 and seat(S, 0, P_HP) == 50 + 2 - 5


def test_upgrade_cards_raise_defence_and_passive_levels():
    hand = ("molten_armor_3", "molten_armor_2", "double")
    S0 = position(step=M.ST_MAIN1, hands=(hand, ()), cp=(4, 0))
    g, S, seen = play_both(S0, script=[MV_PLAY + 0])
    assert seat(S, 0, M.P_DLVL) == 3 and seat(S, 0, P_CP) == 1
    assert MV_PLAY + 0 not in g.moves            # level II (1 CP) is below the level held
    S0 = position(heroes=(PAL, PYRO), step=M.ST_MAIN1, hands=(("tithes_2", "divine_defense_2", "double"), ()),
                  cp=(6, 0))
    g, S, seen = play_both(S0, script=[MV_PLAY + 0, MV_PLAY + 0])
    assert seat(S, 0, M.P_PLVL) == 2 and seat(S, 0, M.P_DLVL) == 2 and seat(S, 0, P_CP) == 0


def _load(tmp_path, hero_text, name="pyromancer"):
    src = Path(M.HEROES_DIR)
    for h in ("paladin", "pyromancer"):   # the heroes these tests were written with
        (tmp_path / f"{h}.toml").write_text((src / f"{h}.toml").read_text())
    (tmp_path / f"{name}.toml").write_text(hero_text)
    return M.load_content(M.roster(tmp_path), heroes_dir=tmp_path)


@pytest.mark.parametrize("old,new,reason", [
    ('{ inflict = "burn", if_roll = { fire = 1, magma = 1 } }', '{ inflict = "burn", if_roll = { ash = 1 } }',
     "unknown symbol 'ash'"),
    ('{ level = 2, target = "3*fire", effects', '{ level = 2, dice = 4, target = "3*fire", effects',
     "only a defence tier sets its dice"),
    ('effects = [ { upgrade = "molten_armor", level = 3 } ]', 'effects = [ { upgrade = "molten_armor", level = 4 } ]',
     "molten_armor has no level 4"),
    ('{ roll = 2, may_reroll = 1,', '{ roll = 2, may_reroll = 3,', "rerolls at most the 2 dice"),
    ('{ damage = 6 }, { roll = 2, may_reroll = 1, on = { fire = [ { damage = 3 } ], magma = [ { inflict = "burn" } ], '
     'fiery_soul = [ { gain = "fire_mastery", n = 2 } ], meteor = [ { inflict = "knockdown" } ] } } ]',
     '{ roll = 2, may_reroll = 1, on = { fire = [ { damage = 3 } ] } }, { damage = 6 } ]',
     "may_reroll belongs to a roll of an offensive tier.s pre-defence part or to its last effect"),
    ('{ damage = 4, may_reroll = 1 }', None, "unknown key 'may_reroll'"),
    ('effects = [ { upgrade = "molten_armor", level = 2 } ]', 'effects = [ { upgrade = "armour", level = 2 } ]',
     "unknown ability 'armour' of this hero \\(nor a defence or the passive\\)"),
])
def test_vocabulary_errors(tmp_path, old, new, reason):
    text = (Path(M.HEROES_DIR) / "pyromancer.toml").read_text()
    if new is None:   # a key added to the first Fireball tier's damage
        old, new = '{ damage = 4 } ] },', old + ' ] },'
    assert old in text
    with pytest.raises(PlaytestError, match=reason):
        _load(tmp_path, text.replace(old, new, 1))


def test_if_uses_belongs_to_the_passive(tmp_path):
    text = (Path(M.HEROES_DIR) / "paladin.toml").read_text()
    old = '{ gain = "retribution", n = 1, target = "chosen" }, { cp = 2 } ] },'
    assert old in text
    with pytest.raises(PlaytestError, match="if_uses belongs to the passive"):
        _load(tmp_path, text.replace(old, '{ gain = "retribution", n = 1, target = "chosen" }, '
                                          '{ cp = 2, if_uses = "pray" } ] },', 1), "paladin")
