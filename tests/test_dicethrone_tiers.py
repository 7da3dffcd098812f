"""Season One's tier structure (simcore/dicethrone/season1/VOCABULARY.md section 7, plan step 7):
the pre-defence part of a tier (``pre_defence = true``, ``undefendable`` in tiers), ``after`` on a
bonus roll, and rerolls of defence dice, of a card's roll and of a pre-defence roll (PH_BONUS with
``O_BONUS_SRC``). One fixture hero written into ``tmp_path``, played against the Paladin through
BOTH engines with forced dice (``dicethrone_helpers.play_both``). On the code before step 7 the
fixture does not load (``pre_defence``, ``after``, ``undefendable`` in a tier and a defence's
``may_reroll`` were refused or ignored).

Stand-ins, until other plan steps land: Smack II's ``if_kind = 4`` (step 6) is written here as
``if_roll = { a = 4 }`` on a 3-of-a-symbol tier, and Walk the Line's ``roll_sum``/``if_pips``
(step 6) as a pre-defence ``roll`` of one die whose outcome table makes the attack undefendable
on 1-3 (the pre-defence machinery is the same: the part runs before Accuracy and the defence,
and resumes after a reroll decision)."""
import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from dicethrone_helpers import PAL, play_both, seat  # noqa: E402
from test_dicethrone_season1 import HEAD, fixture_position  # noqa: E402

from simcore.dicethrone import model as M  # noqa: E402
from simcore.errors import PlaytestError  # noqa: E402

A, B, C, D = 0, 2, 4, 5          # a face index showing each symbol (a: 1-2, b: 3-4, c: 5, d: 6)

ABILITIES = '''
[[abilities]]
id = "smack"
name = "Smack"
tiers = [ { level = 1, target = "3*a", effects = [ { undefendable = 1, if_roll = { a = 4 } }, { damage = 5 } ] } ]

[[abilities]]
id = "blossom"
name = "Blossom"
tiers = [ { level = 1, target = "3*b", effects = [ { roll = 2, pre_defence = true, on = { a = [ { damage = 1 } ], b = [ { damage = 2 } ] }, after = [ { undefendable = 1, if_roll = { c = 1 } }, { cp = 0, per = 1, of = "d" } ] } ] },
          { level = 2, target = "3*b", effects = [ { roll = 2, pre_defence = true, may_reroll = 2, on = { a = [ { damage = 1 } ], b = [ { damage = 2 } ] }, after = [ { undefendable = 1, if_roll = { c = 1 } } ] } ] } ]

[[abilities]]
id = "walk"
name = "Walk"
tiers = [ { level = 1, target = "3*c", effects = [ { roll = 1, pre_defence = true, may_reroll = 1, on = { "1" = [ { undefendable = 1 } ], "2" = [ { undefendable = 1 } ], "3" = [ { undefendable = 1 } ] } }, { damage = 4 } ] } ]

[[cards]]
id = "stars"
name = "Stars!"
cost = 1
phase = "roll"
copies = 1
when = "attacking"
effects = [ { roll = 3, may_reroll = 3, on = { b = [ { add_damage = 1 } ] }, after = [ { add_damage = 1, if_roll = { d = 1 } } ] } ]
'''
SHIFT = '''
[[defences]]
id = "shift"
name = "Shift"
dice = 3
may_reroll = 1
tiers = [ { level = 1, effects = [ { damage = 0, per = 1, of = "a" } ] },
          { level = 2, may_reroll = 2, effects = [ { damage = 0, per = 2, of = "a" } ] } ]
'''
PAL_STRAIGHT = (2, 3, 4, 5, 5)   # the Paladin's small straight (heal 1, deal 5), nothing else


def fixture(tmp_path, body=ABILITIES, defence=SHIFT):
    d = tmp_path / "heroes"
    d.mkdir(exist_ok=True)
    shutil.copy(M.HEROES_DIR / "paladin.toml", d / "paladin.toml")
    (d / "fixture.toml").write_text(HEAD + body + defence)
    content = M.load_content(heroes=("fixture", PAL), heroes_dir=d)
    return content, M.build_tables(content, heroes=("fixture", PAL))


def test_smack_undefendable_on_4_is_decided_before_the_defence(tmp_path):
    """Smack II (fixture: if_roll a = 4 standing in for if_kind = 4): with 4 the attack is
    undefendable, so the Paladin rolls no defence and Accuracy is not offered; with 3 it
    defends."""
    content, tables = fixture(tmp_path)
    acc = {"accuracy": 1}
    for dice, defended in (((A, A, A, A, D), 0), ((A, A, A, C, D), 1)):
        S0 = fixture_position(content, adice=dice, attempts=3, toks=(acc, {}))
        pray = (D, D, D) if defended else ()       # Divine Defense: 3 pray (heal, no damage back)
        script = [M.MV_PASS] if defended else []
        g, S, seen = play_both(S0, dice=pray, script=script, content=content, tables=tables)
        assert S[M.O_DEFENDED] == defended and S[M.O_PREDEF] == 1
        # Accuracy offered only on the normal attack (a decision of seat 0, PH_TOKEN)
        assert [ph for ph, _, _ in seen] == ([M.PH_TOKEN] if defended else [])
        assert seat(S, 1, M.P_HP) == 45 and S[M.O_ACTIVE] == 1


def test_blossom_after_reads_the_bonus_dice(tmp_path):
    """Death Blossom: the pre-defence roll's after makes the attack undefendable on a mask (c),
    and counts the bonus dice (1 CP per d); the dice's damage waits in the pool and lands."""
    content, tables = fixture(tmp_path)
    for bonus, defended, dmg, cp in (((A, C), 0, 1, 0), ((B, D), 1, 2, 1)):
        S0 = fixture_position(content, adice=(B, B, B, A, D), attempts=3)
        pray = (D, D, D) if defended else ()
        g, S, seen = play_both(S0, dice=bonus + pray, content=content, tables=tables)
        assert S[M.O_DEFENDED] == defended and seat(S, 1, M.P_HP) == 50 - dmg
        assert seat(S, 0, M.P_CP) == cp and S[M.O_ACTIVE] == 1


def test_blossom_2_rerolls_its_pre_defence_dice(tmp_path):
    """Death Blossom II: the attacker sees the 2 dice and may reroll up to 2 (PH_BONUS, before
    the defence); the after list reads the rerolled dice."""
    content, tables = fixture(tmp_path)
    S0 = fixture_position(content, levels={1: 2}, adice=(B, B, B, A, D), attempts=3)
    g, S, seen = play_both(S0, dice=(B, B, C), script=[M.MV_DIE + 0b10], content=content, tables=tables)
    assert seen[0] == (M.PH_BONUS, 0, [M.MV_PASS, M.MV_DIE + 1, M.MV_DIE + 2, M.MV_DIE + 3])
    # b then c (rerolled): 2 damage, and undefendable: no defence roll
    assert S[M.O_DEFENDED] == 0 and seat(S, 1, M.P_HP) == 48 and S[M.O_ACTIVE] == 1


def test_walk_rerolls_then_the_part_resumes(tmp_path):
    """Walk the Line II (fixture: a 1-die pre-defence roll, undefendable on 1-3): a 5 rerolled
    into a 2 makes the attack undefendable; kept, the Paladin defends. The effect after the
    roll (4 damage) runs once either way."""
    content, tables = fixture(tmp_path)
    for move, dice, defended in ((M.MV_DIE + 1, (4, 1), 0), (M.MV_PASS, (4, D, D, D), 1)):
        S0 = fixture_position(content, adice=(C, C, C, A, B), attempts=3)
        g, S, seen = play_both(S0, dice=dice, script=[move], content=content, tables=tables)
        assert seen[0] == (M.PH_BONUS, 0, [M.MV_PASS, M.MV_DIE + 1])
        assert S[M.O_DEFENDED] == defended and seat(S, 1, M.P_HP) == 46 and S[M.O_PREDEF] == 1


def test_shift_rerolls_defence_dice(tmp_path):
    """Shade Shift: the defender rolls 3 dice and may reroll 1 (level II: 2) before the window;
    the defence resolves on the rerolled dice."""
    content, tables = fixture(tmp_path)
    S0 = fixture_position(content, active=1, adice=PAL_STRAIGHT, attempts=3)
    g, S, seen = play_both(S0, dice=(C, C, A, A), script=[M.MV_DIE + 0b001], content=content, tables=tables)
    assert seen[0] == (M.PH_BONUS, 0, [M.MV_PASS, M.MV_DIE + 1, M.MV_DIE + 2, M.MV_DIE + 4])
    # dice c, c, a -> a, c, a: 2 damage back to the Paladin; the straight's 5 land (heal 1)
    assert seat(S, 1, M.P_HP) == 50 + 1 - 2 and seat(S, 0, M.P_HP) == 45
    S0 = fixture_position(content, active=1, adice=PAL_STRAIGHT, attempts=3)
    S0[M.seat_base(0) + M.P_LVL + M.LV_DEF] = 2
    g, S, seen = play_both(S0, dice=(C, C, C), script=[M.MV_PASS], content=content, tables=tables)
    assert seen[0][2] == [M.MV_PASS] + [M.MV_DIE + m for m in (1, 2, 3, 4, 5, 6)]
    assert seat(S, 1, M.P_HP) == 51


def test_stars_card_rerolls(tmp_path):
    """Throwing Stars!: a card's roll with may_reroll waits for its player (PH_BONUS, any of the
    3 dice), then resolves (+1 per b, and its after: +1 on a d) and play returns to the window."""
    content, tables = fixture(tmp_path)
    cid = [c.id for c in content.cards].index("stars")
    S0 = fixture_position(content, adice=(A, A, A, A, D), attempts=3, cp=(1, 0))    # Smack, undefendable
    b0 = M.seat_base(0)
    S0[b0 + M.P_HAND], S0[b0 + M.P_HAND_N] = cid, 1
    # the card's 3 dice (a, a, b), then the reroll of dice 1-2 (d, b)
    g, S, seen = play_both(S0, dice=(A, A, B, D, B), script=[M.MV_PLAY, M.MV_DIE + 0b011, M.MV_PASS],
                           content=content, tables=tables)
    assert seen[0] == (M.PH_WINDOW, 0, [M.MV_PASS, M.MV_PLAY])
    assert seen[1][0] == M.PH_BONUS and seen[1][1] == 0 and len(seen[1][2]) == 8
    # d, b, b: +2 (b) +1 (after: a d) = 3 card damage on top of the 5
    assert seat(S, 1, M.P_HP) == 42 and seat(S, 0, M.P_DMG + M.SRC_CARD) == 3


def test_tier_structure_validates(tmp_path):
    for old, new, reason in (
            ('{ undefendable = 1, if_roll = { a = 4 } }, { damage = 5 }', '{ damage = 5 }, { undefendable = 1 }',
             "belong to a tier's first effects"),
            ('{ roll = 1, pre_defence = true, may_reroll = 1,', '{ roll = 1, may_reroll = 1,',
             "undefendable in a bonus roll needs the roll to be pre_defence"),
            ('after = [ { add_damage = 1, if_roll', 'pre_defence = true, after = [ { add_damage = 1, if_roll',
             "pre_defence = true belongs to"),
            ('{ damage = 5 } ] } ]', '{ damage = 5, after = [ { cp = 1 } ] } ] } ]', "unknown key 'after'")):
        assert old in ABILITIES
        with pytest.raises(PlaytestError, match=reason):
            fixture(tmp_path, body=ABILITIES.replace(old, new, 1))
    with pytest.raises(PlaytestError, match="only a defence tier sets may_reroll"):
        fixture(tmp_path, body=ABILITIES.replace('{ level = 1, target = "3*a",', '{ level = 1, may_reroll = 1, target = "3*a",'))
