"""Dice Throne content and rules as data: every file validates with one-line
``file: field: reason`` errors; the effect vocabulary items no shipped card uses
(extra roll attempt, CP loss for the opponent, pure damage) work through both engines."""
import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from dicethrone_helpers import FIRE, MAGMA, METEOR, SOUL, play_both, position, seat  # noqa: E402

from simcore.dicethrone import model as M  # noqa: E402
from simcore.errors import PlaytestError  # noqa: E402

PYRO_FILE = M.HEROES_DIR / "pyromancer.toml"
# the shipped heroes these tests were written with (a matchup's content holds at most
# MAX_CARDS cards: the whole shipped roster no longer fits one content)
SHIPPED = ("paladin", "pyromancer")


def test_shipped_content_loads():
    c = M.load_content(SHIPPED)
    assert [t.id for t in c.tokens][:3] == ["knockdown", "burn", "stun"]
    pyro, pal = c.heroes["pyromancer"], c.heroes["paladin"]
    assert pyro.symbols == ["fire", "magma", "fiery_soul", "meteor"] and pyro.defence_dice == [5]
    assert pal.symbols == ["sword", "helm", "heart", "pray"] and pal.defence_dice == [3]
    assert [a.id for a in pyro.abilities][-1] == "scorch_the_earth" and pyro.abilities[-1].ultimate
    assert pal.tithe_reroll == 1 and pal.tithe_draw == 3
    # 18 generic cards; every hero card of both heroes (15 each)
    assert len(c.generic) == 18
    assert len(M.deck_list(c, "pyromancer")) == 15 + 18 and len(M.deck_list(c, "paladin")) == 15 + 18


def heroes_with(tmp_path, old, new, name="pyromancer.toml"):
    d = tmp_path / "heroes"
    d.mkdir(exist_ok=True)
    for f in (M.HEROES_DIR / f"{h}.toml" for h in SHIPPED):
        shutil.copy(f, d / f.name)
    text = (d / name).read_text()
    assert old in text
    (d / name).write_text(text.replace(old, new, 1))
    return d


@pytest.mark.parametrize("old,new,field,reason", [
    ('target = "3*fire", effects = [ { gain = "fire_mastery", n = 1 }, { damage = 4 } ]',
     'target = "3*fyre", effects = [ { gain = "fire_mastery", n = 1 }, { damage = 4 } ]',
     "abilities[0].tiers[0].target", "unknown symbol 'fyre'"),
    ('{ gain = "fire_mastery", n = 1 }, { damage = 4 } ]', '{ gain = "fire_masterz", n = 1 }, { damage = 4 } ]',
     "abilities[0].tiers[0].effects[0].gain", "unknown token 'fire_masterz'"),
    ('{ damage = 4 } ]', '{ damage = 4, heal = 1 } ]', "abilities[0].tiers[0].effects[1]",
     "exactly one operation"),
    ('{ damage = 4 } ]', '{ damage = 4, dammage = 1 } ]', "abilities[0].tiers[0].effects[1]", "unknown key 'dammage'"),
    ('{ damage = 4 } ]', '{ set_die = 6 } ]', "abilities[0].tiers[0].effects", "set_die belongs to cards"),
    ('{ damage = 4 } ]', '{ damage = 4, kind = "sneaky" } ]', "abilities[0].tiers[0].effects[1].kind", "kind"),
    ('{ level = 1, target = "3*fire+1*meteor"', '{ level = 2, target = "3*fire+1*meteor"', "abilities[1].tiers",
     "without gaps"),
    ('faces = ["1:fire", "2:fire"', 'faces = ["2:fire", "1:fire"', "faces", "numbered 1..6"),
    ('effects = [ { upgrade = "fireball", level = 2 } ]', 'effects = [ { upgrade = "fireblast", level = 2 } ]',
     "cards[0].effects[0].upgrade", "unknown ability 'fireblast'"),
    ('effects = [ { upgrade = "fireball", level = 2 } ]', 'effects = [ { upgrade = "fireball", level = 4 } ]',
     "cards[fireball_2].effects", "no level 4"),
    ('phase = "roll"\ncopies = 1\nwhen = "attacking"', 'phase = "roll"\ncopies = 1\nwhen = "attacked"',
     "cards[5].when", "add_damage needs when"),
    ('limit = 5 ', 'limit = 0 ', "tokens[0].limit", "must be >= 1"),
    # 10**6 was accepted, then the optimal strategy's tables asked for 26.7 GiB (MemoryError)
    ('limit = 5 ', 'limit = 51 ', "tokens[0].limit", "must be <= 50 (a token's stack limit)"),
])
def test_hero_file_errors_are_one_line(tmp_path, old, new, field, reason):
    d = heroes_with(tmp_path, old, new)
    with pytest.raises(PlaytestError) as e:
        M.load_content(M.roster(d), heroes_dir=d)
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith(str(d / "pyromancer.toml"))
    assert f": {field}: " in msg and reason in msg, msg


def test_card_with_a_die_effect_not_last(tmp_path):
    cards = tmp_path / "cards.toml"
    cards.write_text(M.CARDS_FILE.read_text().replace("effects = [ { set_die = 6 } ]",
                                                      "effects = [ { set_die = 6 }, { cp = 1 } ]"))
    with pytest.raises(PlaytestError, match=r"cards\.toml: cards\[0\]\.effects: a card holds at most one die effect"):
        M.load_content(SHIPPED, cards_file=cards)


@pytest.mark.parametrize("over,field", [({"first_player": "coin"}, "first_player"), ({"start_hp": 0}, "start_hp"),
                                        ({"start_cp": 20}, "start_cp"), ({"hand_limit": 40}, "hand_limit"),
                                        ({"max_turns": 2.5}, "max_turns"), ({"no_such": 1}, "no_such"),
                                        ({"income_cards": 10**9}, "income_cards")])
def test_rule_option_errors(over, field):
    """Each option out of its range is refused on load, naming it (income_cards=10**9 was
    accepted and hung both engines: a billion draws a turn)."""
    with pytest.raises(PlaytestError) as e:
        M.load_rules(overrides=over)
    assert f": {field}: " in str(e.value) or str(e.value).startswith(f"--set: {field}")


EXTRA_CARDS = '''
[[cards]]
id = "one_more"
name = "One More Try"
cost = 1
phase = "roll"
copies = 1
effects = [ { extra_attempt = 1 }, { cp = -1, target = "opponent" }, { damage = 2, kind = "pure" } ]
'''


def test_extra_attempt_cp_loss_and_card_damage(tmp_path):
    """A test card: one more roll attempt, the opponent loses 1 CP, 2 damage at once."""
    cards = tmp_path / "cards.toml"
    cards.write_text(M.CARDS_FILE.read_text() + EXTRA_CARDS)
    content = M.load_content(SHIPPED, cards_file=cards)
    tables = M.build_tables(content)
    cid = [c.id for c in content.cards].index("one_more")
    S0 = position(adice=(FIRE, MAGMA, SOUL, METEOR, MAGMA), attempts=3, cp=(1, 2), hands=(("double",), ()),
                  content=content)
    b = M.seat_base(0)
    S0[b + M.P_HAND + 1] = cid
    S0[b + M.P_HAND_N] = 2
    g, S, seen = play_both(S0, dice=(FIRE,) * 5, script=[M.MV_PLAY + 1, M.MV_REROLL + 0], content=content,
                           tables=tables)
    assert seen[0][2] == [M.MV_PASS, M.MV_PLAY + 0, M.MV_PLAY + 1]   # no reroll: attempts used up
    assert M.MV_REROLL + 0 in seen[1][2] and S[M.O_MAX_ATT] == 4 and S[M.O_ATTEMPTS] == 4
    assert seat(S, 1, M.P_CP) == 1 and seat(S, 1, M.P_HP) <= 48 and seat(S, 0, M.P_DMG + M.SRC_CARD) == 2


SECOND_DEFENCE = """
[[defences]]
id = "shield_wall"
name = "Shield Wall"
dice = 2
tiers = [ { level = 1, effects = [ { prevent = 0, per = 3, of = "helm" } ] } ]
"""


@pytest.mark.parametrize("pick,hp", [(0, 49), (1, 50)])
def test_choose_among_defences(tmp_path, pick, hp):
    """A hero with two defences chooses one before rolling; only its dice are rolled and
    only its effects resolve (Divine Defense: sword, helm, heart -> 1 back, 3 prevented;
    Shield Wall: 2 dice, helm helm -> 6 prevented)."""
    from dicethrone_helpers import FIRE, HEART, HELM, MAGMA, SWORD
    d = tmp_path / "heroes"
    d.mkdir()
    for f in (M.HEROES_DIR / f"{h}.toml" for h in SHIPPED):
        shutil.copy(f, d / f.name)
    (d / "paladin.toml").write_text((d / "paladin.toml").read_text() + SECOND_DEFENCE)
    content = M.load_content(M.roster(d), heroes_dir=d)
    assert [x.id for x in content.heroes["paladin"].defences] == ["divine_defense", "shield_wall"]
    tables = M.build_tables(content)
    S0 = position(adice=(FIRE, FIRE, FIRE, MAGMA, MAGMA), hands=(("double",), ()), content=content)
    dice = (SWORD, HELM, HEART) if pick == 0 else (HELM, HELM)
    g, S, seen = play_both(S0, dice=dice, script=[M.MV_DEFENCE + pick], content=content, tables=tables)
    assert seen[0][0] == M.PH_DEFENCE and seen[0][1] == 1 and seen[0][2] == [M.MV_DEFENCE, M.MV_DEFENCE + 1]
    assert S[M.O_DDN] == (3 if pick == 0 else 2) and S[M.O_DEF] == pick
    assert seat(S, 1, M.P_HP) == hp and seat(S, 0, M.P_HP) == (49 if pick == 0 else 50)


def test_new_effects_load_and_validate(tmp_path):
    """copy_die and transfer parse; a bonus roll keyed by face numbers needs no symbols and
    must not mix faces with symbols."""
    c = M.load_content(SHIPPED)
    by_id = {x.id: x for x in c.cards}
    assert by_id["me_too"].effects[0].op == M.OP_COPY_DIE
    assert by_id["transfer_status"].effects[0].op == M.OP_TRANSFER and by_id["transfer_status"].effects[0].arg == -2
    otf = by_id["one_throw_fortune"].effects[0]
    assert otf.op == M.OP_ROLL and otf.level == M.ROLL_BY_FACE and sorted(otf.on) == list(range(6))
    assert [e.n for f in range(6) for e in otf.on[f]] == [1, 1, 2, 2, 3, 3]
    ctx = M._Ctx("x.toml", c.token_ids, ["fire", "magma"])
    with pytest.raises(PlaytestError, match="unknown symbol"):
        M.parse_effect({"roll": 1, "on": {"1": [{"cp": 1}], "fire": [{"cp": 1}]}}, ctx, "e")


WORTHY_A = "effects = [ { reroll = 1, times = 2 } ]"
WORTHY_B = "other_reading = [ { reroll = 2 } ]"


@pytest.mark.parametrize("old,new,reason", [
    (WORTHY_B, "other_reading = [ { set_die = 6 } ]", "the other reading changes the numbers"),
    (WORTHY_A, "effects = [ { set_die = 6, times = 2 } ]", "unknown key 'times'"),
    (WORTHY_A, "effects = [ { reroll = 1, times = 0 } ]", "must be >= 1"),
])
def test_reroll_times_and_other_reading_validate(tmp_path, old, new, reason):
    """Worthy of Me's data (issue 29): ``times`` belongs to reroll; ``other_reading`` keeps
    the kind of the card's die effect."""
    text = M.CARDS_FILE.read_text()
    assert old in text
    cards = tmp_path / "cards.toml"
    cards.write_text(text.replace(old, new))
    with pytest.raises(PlaytestError) as e:
        M.load_content(SHIPPED, cards_file=cards)
    assert "\n" not in str(e.value) and reason in str(e.value)


def test_worthy_of_me_other_reading_plays_when_swapped(tmp_path):
    """Swapping the two keys plays the other reading: one reroll of up to 2 dice at once."""
    text = M.CARDS_FILE.read_text()
    cards = tmp_path / "cards.toml"
    cards.write_text(text.replace(WORTHY_A, "effects = [ { reroll = 2 } ]")
                     .replace(WORTHY_B, "other_reading = [ { reroll = 1, times = 2 } ]"))
    content = M.load_content(SHIPPED, cards_file=cards)
    w = {c.id: c for c in content.cards}["worthy_of_me"]
    assert (w.effects[-1].n, w.effects[-1].arg, w.other[-1].n, w.other[-1].arg) == (2, 0, 1, 2)
    tables = M.build_tables(content)
    S0 = position(adice=(FIRE, FIRE, FIRE, MAGMA, MAGMA), attempts=3, cp=(1, 0), hands=(("worthy_of_me", "double"), ()),
                  content=content)
    g, S, seen = play_both(S0, dice=(FIRE, FIRE), script=[M.MV_PLAY + 0, M.MV_DIE + 0b11000], content=content,
                           tables=tables)
    assert seen[1][2] == [M.MV_DIE + m for m in range(1, 32) if bin(m).count("1") <= 2]     # no stop move
    assert list(S[M.O_ADICE:M.O_ADICE + 5]) == [FIRE] * 5 and S[M.O_PEND_OP] == 0
