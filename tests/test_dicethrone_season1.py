"""Season One's constructs (simcore/dicethrone/season1/VOCABULARY.md, the plan of section 12),
one fixture hero per construct written into ``tmp_path`` and played against the Paladin
through BOTH engines with forced dice (``dicethrone_helpers.play_both``). Each test fails on
the code before its step: the fixture does not load there, or the state differs."""
import re
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from dicethrone_helpers import PAL, play_both, position, seat  # noqa: E402

from simcore.dicethrone import model as M  # noqa: E402

# a fixture hero: one symbol per face pair, one defence that does nothing much
HEAD = '''
name = "Fixture"
faces = ["1:a", "2:a", "3:b", "4:b", "5:c", "6:d"]
dice = 5
'''
DEFENCE = '''
[[defences]]
id = "guard"
name = "Guard"
dice = 1
tiers = [ { level = 1, effects = [ { prevent = 0 } ] } ]
'''
A, B, C, D = 0, 2, 4, 5          # a face index showing each symbol


def fixture(tmp_path, body, cards=None, name="fixture"):
    """Content of the fixture hero (``body``: its abilities and tokens) and the Paladin;
    ``cards``: text appended to the generic cards file. Returns (content, tables)."""
    d = tmp_path / "heroes"
    d.mkdir(exist_ok=True)
    shutil.copy(M.HEROES_DIR / "paladin.toml", d / "paladin.toml")
    (d / f"{name}.toml").write_text(HEAD + body + DEFENCE)
    kw = {}
    if cards is not None:
        cf = tmp_path / "cards.toml"
        cf.write_text(M.CARDS_FILE.read_text() + cards)
        kw["cards_file"] = cf
    content = M.load_content(heroes=(name, PAL), heroes_dir=d, **kw)
    return content, M.build_tables(content, heroes=(name, PAL))


def fixture_position(content, levels=None, toks=({}, {}), **kw):
    """A position of the fixture hero (seat 0) against the Paladin; ``levels``: {ability
    index: level} of the fixture hero; ``toks``: {token id: count} per seat (the fixture
    content's token ids)."""
    S = position(heroes=tuple(content.heroes), content=content, **kw)
    for a, lv in (levels or {}).items():
        S[M.seat_base(0) + M.P_LVL + a] = lv
    for p in range(2):
        for t, n in toks[p].items():
            S[M.seat_base(p) + M.P_TOK + content.token_ids[t]] = n
    return S


# ------------------------------------------------------------------ step 1: limits
NINE_TIERS = '''
[[abilities]]
id = "smack"
name = "Smack"
tiers = [
''' + "".join(f'  {{ level = {lv}, target = "{n}*a", effects = [ {{ damage = {10 * lv + n}, kind = "pure" }} ] }},\n'
              for lv in (1, 2, 3) for n in (3, 4, 5)) + ''']
'''


def test_nine_tiers_load_and_the_ninth_activates(tmp_path):
    """Smack, Longbow, Fist Strike and Splinter have 9 tiers over levels I-III (step 1:
    MAX_TIERS 8 -> 10); the 9th (level III, 5 of a kind) activates in both engines."""
    content, tables = fixture(tmp_path, NINE_TIERS)
    assert len(content.heroes["fixture"].abilities[0].tiers) == 9
    S0 = fixture_position(content, levels={0: 3}, adice=(A, A, A, A, A), attempts=3)
    g, S, seen = play_both(S0, script=[M.MV_ABILITY + 8], content=content, tables=tables)
    assert seen[0][0] == M.PH_ABILITY and seen[0][2] == [M.MV_ABILITY + t for t in (6, 7, 8)]
    assert seat(S, 1, M.P_HP) == 50 - 35


# ------------------------------------------------------------------ step 3: token events
HIT = '''
[[abilities]]
id = "hit"
name = "Hit"
tiers = [ { level = 1, target = "3*a", effects = [ { damage = 5 } ] },
          { level = 1, target = "3*b", effects = [ { damage = 5, kind = "undefendable" } ] } ]
'''
TOKENS = '''
[[tokens]]
id = "concussion"
name = "Concussion"
kind = "negative"
limit = 1
use = "none"
income = [ { remove = "concussion" }, { skip = "income" } ]

[[tokens]]
id = "entangle"
name = "Entangle"
kind = "negative"
limit = 1
use = "none"
roll_phase_start = [ { remove = "entangle" }, { extra_attempt = -1 } ]

[[tokens]]
id = "blinded"
name = "Blinded"
kind = "negative"
limit = 1
use = "none"
roll_phase_end = [ { remove = "blinded" }, { roll = 1, on = { "1" = [ { fail_attack = 1 } ], "2" = [ { fail_attack = 1 } ] } } ]

[[tokens]]
id = "barbed_vine"
name = "Barbed Vine"
kind = "negative"
limit = 1
use = "none"
roll_phase_end = [ { remove = "barbed_vine" }, { damage = 0, per = 1, of = "extra_attempts", cap = 2, kind = "pure", target = "self" } ]

[[tokens]]
id = "targeted"
name = "Targeted"
kind = "negative"
limit = 1
use = "none"
attacked = [ { add_damage = 2 } ]

[[tokens]]
id = "sneak"
name = "Sneak"
kind = "positive"
limit = 1
use = "none"
defending = [ { skip_defence = 1 } ]
attacked = [ { avoid = 1 } ]
turn_end = [ { remove = "sneak", held_all_turn = true } ]

[[tokens]]
id = "delayed_poison"
name = "Delayed Poison"
kind = "negative"
limit = 2
use = "none"
turn_end = [ { damage = 0, per = 3, of = "delayed_poison", kind = "pure", target = "self" }, { remove = "delayed_poison", n = 2 } ]

[[tokens]]
id = "poison"
name = "Poison"
kind = "negative"
limit = 3
use = "none"
upkeep = [ { damage = 0, per = 1, of = "poison", kind = "pure", target = "self" } ]
'''
NO_HIT = (B, C, D, B, C)          # meets no tier of Hit


def events(tmp_path, drop="delayed_poison"):
    """The event tokens and Hit; one token is left out (``drop``): the fixture was written
    when a matchup held at most 16 tokens (the 4 generic ones, Evasive among them, the
    Paladin's 5 and these 8 were 17); each test needs only its own."""
    text = re.sub(r'\[\[tokens\]\]\nid = "%s"\n.*?(?=\n\[\[tokens\]\]|\Z)' % drop, "", TOKENS, flags=re.S)
    assert text != TOKENS
    return fixture(tmp_path, text + HIT)


def test_concussion_skips_income(tmp_path):
    content, tables = events(tmp_path)
    for held, cp, hand in ((1, 2, 0), (0, 3, 1)):
        S0 = fixture_position(content, step=M.ST_INCOME, cp=(2, 0), toks=({"concussion": held}, {}))
        g, S, seen = play_both(S0, content=content, tables=tables)
        assert seat(S, 0, M.P_CP) == cp and seat(S, 0, M.P_HAND_N) == hand
        assert seat(S, 0, M.P_TOK + content.token_ids["concussion"]) == 0


def test_entangle_takes_one_attempt_and_one_is_the_floor(tmp_path):
    content, tables = events(tmp_path)
    S0 = fixture_position(content, step=M.ST_KNOCK, toks=({"entangle": 1}, {}))
    g, S, seen = play_both(S0, dice=NO_HIT + (C,), script=[M.MV_REROLL + 0b01111], content=content, tables=tables)
    # one reroll, then no third attempt (the roll phase ends; the Paladin's turn follows)
    assert [ph for ph, _, _ in seen] == [M.PH_ROLL] and S[M.O_MAX_ATT] == 2 and S[M.O_ATTEMPTS] == 2
    assert S[M.O_ACTIVE] == 1 and S[M.O_PHASE] == M.PH_MAIN
    assert seat(S, 0, M.P_TOK + content.token_ids["entangle"]) == 0
    rules = M.load_rules(overrides={"may_skip_ability": False, "roll_attempts": 1})
    S0 = fixture_position(content, rules=rules, step=M.ST_KNOCK, toks=({"entangle": 1}, {}))
    g, S, seen = play_both(S0, dice=NO_HIT, rules=rules, content=content, tables=tables)
    assert S[M.O_MAX_ATT] == 1 and S[M.O_ATTEMPTS] == 1 and S[M.O_ACTIVE] == 1


def test_blinded_fails_the_attack_on_1_or_2(tmp_path):
    content, tables = events(tmp_path)
    for face, hp in ((1, 50), (2, 45)):          # face index 1: a "2" (fails); 2: a "3"
        S0 = fixture_position(content, adice=(B, B, B, C, D), attempts=3, toks=({"blinded": 1}, {}))
        g, S, seen = play_both(S0, dice=(face,), script=[M.MV_PASS], content=content, tables=tables)
        assert seat(S, 1, M.P_HP) == hp and S[M.O_ACTIVE] == 1      # the turn went on to the Paladin
        assert seat(S, 0, M.P_TOK + content.token_ids["blinded"]) == 0
        assert seat(S, 0, M.P_ATTACKS) == (0 if hp == 50 else 1)


def test_barbed_vine_hurts_per_extra_attempt_at_most_2(tmp_path):
    content, tables = events(tmp_path)
    for rerolls, hp in ((0, 50), (1, 49), (2, 48)):
        S0 = fixture_position(content, adice=NO_HIT, attempts=1, toks=({"barbed_vine": 1}, {}))
        script = [M.MV_REROLL + 0b01111] * rerolls + ([M.MV_PASS] if rerolls < 2 else [])
        g, S, seen = play_both(S0, dice=(C,) * rerolls, script=script, content=content, tables=tables)
        assert seat(S, 0, M.P_HP) == hp and S[M.O_ACTIVE] == 1
        assert seat(S, 1, M.P_DMG + M.SRC_STATUS) == 50 - hp


def test_targeted_adds_2_to_the_attack(tmp_path):
    content, tables = events(tmp_path)
    for held, hp in ((1, 43), (0, 45)):
        S0 = fixture_position(content, adice=(B, B, B, C, D), attempts=3, toks=({}, {"targeted": held}))
        g, S, seen = play_both(S0, script=[M.MV_PASS], content=content, tables=tables)
        assert seat(S, 1, M.P_HP) == hp and seat(S, 0, M.P_DMG + M.SRC_TOKEN) == 2 * held
        assert seat(S, 1, M.P_TOK + content.token_ids["targeted"]) == held      # it stays


def test_sneak_skips_the_defence_and_avoids_the_damage(tmp_path):
    content, tables = events(tmp_path)
    for held, hp in ((1, 50), (0, 45)):
        S0 = fixture_position(content, adice=(A, A, A, C, D), attempts=3, toks=({}, {"sneak": held}))
        g, S, seen = play_both(S0, dice=(D, D, D), content=content, tables=tables)   # Divine Defense: 3 pray
        # the attack made, then the turn over: the Paladin decides its main phase
        assert seat(S, 0, M.P_ATTACKS) == 1 and S[M.O_ACTIVE] == 1 and S[M.O_PHASE] == M.PH_MAIN
        assert seat(S, 1, M.P_HP) == hp and S[M.O_DEFENDED] == 1 - held and S[M.O_TAKEN] == 50 - hp


def test_sneak_lasts_until_the_end_of_a_whole_turn_held(tmp_path):
    content, tables = events(tmp_path)
    sneak = M.P_TOK + content.token_ids["sneak"]
    # gained this turn (held since main phase 2, not at the turn's start): kept at its end
    S0 = fixture_position(content, step=M.ST_MAIN2, toks=({"sneak": 1}, {}))
    g, S, seen = play_both(S0, content=content, tables=tables)
    assert S[M.O_ACTIVE] == 1 and S[M.O_PHASE] == M.PH_MAIN and seat(S, 0, sneak) == 1
    # held when the turn began: gone at its end
    S0 = fixture_position(content, step=M.ST_UPKEEP, toks=({"sneak": 1}, {}))
    g, S, seen = play_both(S0, dice=NO_HIT, script=[M.MV_PASS, M.MV_PASS, M.MV_PASS], content=content,
                           tables=tables)
    assert [ph for ph, _, _ in seen] == [M.PH_MAIN, M.PH_ROLL, M.PH_MAIN]
    assert S[M.O_ACTIVE] == 1 and S[M.O_PHASE] == M.PH_MAIN and seat(S, 0, sneak) == 0


def test_poisons_hurt_at_upkeep_and_turn_end_and_can_knock_out(tmp_path):
    content, tables = events(tmp_path, drop="targeted")
    S0 = fixture_position(content, step=M.ST_MAIN2, toks=({"delayed_poison": 2}, {}))
    g, S, seen = play_both(S0, content=content, tables=tables)
    assert seat(S, 0, M.P_HP) == 44 and seat(S, 0, M.P_TOK + content.token_ids["delayed_poison"]) == 0
    assert seat(S, 1, M.P_DMG + M.SRC_STATUS) == 6 and S[M.O_ACTIVE] == 1
    S0 = fixture_position(content, step=M.ST_MAIN2, hp=(6, 50), toks=({"delayed_poison": 2}, {}))
    g, S, seen = play_both(S0, content=content, tables=tables)
    assert S[M.O_OVER] == 1 and S[M.O_WINNER] == 1 and S[M.O_ACTIVE] == 0 and seat(S, 0, M.P_HP) == 0
    (tmp_path / "poison").mkdir()
    content, tables = events(tmp_path / "poison", drop="concussion")
    S0 = fixture_position(content, step=M.ST_UPKEEP, toks=({"poison": 3}, {}))
    g, S, seen = play_both(S0, content=content, tables=tables)
    assert seat(S, 0, M.P_HP) == 47 and seat(S, 0, M.P_TOK + content.token_ids["poison"]) == 3


# ------------------------------------------------------------------ step 4a: spend windows of an attack
ATTACKS = '''
[[abilities]]
id = "strike"
name = "Strike"
tiers = [ { level = 1, target = "3*b", effects = [ { damage = 5, kind = "undefendable" }, { inflict = "mark" } ] } ]

[[abilities]]
id = "finale"
name = "Finale"
ultimate = true
tiers = [ { level = 1, target = "5*d", effects = [ { damage = 8 } ] } ]
'''
# Evasive is the generic file's (cards.toml, since plan step 4b): the fixture names it
SPENDS = '''
[[tokens]]
id = "mark"
name = "Mark"
kind = "negative"
limit = 1
use = "none"

[[tokens]]
id = "chi"
name = "Chi"
kind = "positive"
limit = 5
use = "data"
spend = [
  { when = "attacked", max = "all", if_attack = { kind = ["normal", "undefendable"] }, effects = [ { prevent = 1 } ] },
  { when = "attacking", max = "all", not_gained_this_turn = true, effects = [ { add_damage = 1 } ] },
]

[[tokens]]
id = "smoke_bomb"
name = "Smoke Bomb"
kind = "positive"
limit = 1
use = "data"
spend = [ { when = "attacked", max = 1, effects = [ { roll = 1, on = { "1" = [ { avoid = 1 } ], "2" = [ { avoid = 1 } ], "3" = [ { avoid = 1 } ] } } ] } ]

[[tokens]]
id = "sneak_attack"
name = "Sneak Attack"
kind = "positive"
limit = 1
use = "data"
spend = [ { when = "attack_end", max = 1, effects = [ { roll = 1, on = { "1" = [ { add_damage = 1 } ], "2" = [ { add_damage = 2 } ], "3" = [ { add_damage = 3 } ], "4" = [ { add_damage = 4 } ], "5" = [ { add_damage = 5 } ], "6" = [ { add_damage = 6 } ] } } ] } ]

[[tokens]]
id = "ninjutsu"
name = "Ninjutsu"
kind = "positive"
limit = 3
use = "data"
spend = [ { when = "attack_end", max = 1, repeat = true, effects = [ { roll = 1, on = { "1" = [ { add_damage = 1 } ], "2" = [ { add_damage = 1 } ], "3" = [ { add_damage = 1 } ], "4" = [ { add_damage = 2 } ], "5" = [ { add_damage = 2 } ], "6" = [ { add_damage = 2 } ] } } ] } ]
'''
STRIKE = (B, B, B, C, D)          # Strike: 5 undefendable and a Mark (a status that does nothing)


def spends(tmp_path):
    return fixture(tmp_path, SPENDS + ATTACKS)


def entry(content, token, k=0):
    """The table index of a token's k-th spend entry (model._spend_table's order)."""
    i = 0
    for tk in content.tokens:
        for j, _ in enumerate(tk.spend):
            if tk.id == token and j == k:
                return i
            i += 1
    raise KeyError(token)


def spend_move(content, token, n=1, k=0):
    return M.MV_SPEND + entry(content, token, k) * 16 + n


def test_evasive_miss_then_hit_avoids_the_damage_not_the_status(tmp_path):
    content, tables = spends(tmp_path)
    ev = spend_move(content, "evasive")
    S0 = fixture_position(content, adice=STRIKE, attempts=3, toks=({}, {"evasive": 2}))
    g, S, seen = play_both(S0, dice=(3, 0), script=[ev, ev], content=content, tables=tables)   # a 4 (miss), a 1
    assert [(ph, who, mv) for ph, who, mv in seen] == [(M.PH_TOKEN, 1, [M.MV_PASS, ev])] * 2
    assert seat(S, 1, M.P_HP) == 50 and seat(S, 1, M.P_TOK + content.token_ids["evasive"]) == 0
    assert seat(S, 1, M.P_TOK + content.token_ids["mark"]) == 1 and seat(S, 1, M.P_SPENDS) == 2
    # not against an ultimate: no decision, the 8 land
    S0 = fixture_position(content, adice=(D,) * 5, attempts=3, toks=({}, {"evasive": 2}))
    g, S, seen = play_both(S0, content=content, tables=tables)
    assert all(ph != M.PH_TOKEN for ph, _, _ in seen) and seat(S, 1, M.P_HP) == 42


def test_chi_prevents_and_adds_only_what_was_held_before_the_turn(tmp_path):
    content, tables = spends(tmp_path)
    S0 = fixture_position(content, adice=STRIKE, attempts=3, toks=({}, {"chi": 3}))
    g, S, seen = play_both(S0, script=[spend_move(content, "chi", 3)], content=content, tables=tables)
    assert seen[0][2] == [M.MV_PASS] + [spend_move(content, "chi", n) for n in (1, 2, 3)]
    assert seat(S, 1, M.P_HP) == 48 and seat(S, 1, M.P_TOK + content.token_ids["chi"]) == 0
    S0 = fixture_position(content, adice=STRIKE, attempts=3, toks=({"chi": 3}, {}))
    S0[M.seat_base(0) + M.P_TNEW + content.token_ids["chi"]] = 1          # one gained this turn
    add = lambda n: spend_move(content, "chi", n, k=1)                       # noqa: E731
    g, S, seen = play_both(S0, script=[add(2)], content=content, tables=tables)
    assert seen[0] == (M.PH_TOKEN, 0, [M.MV_PASS, add(1), add(2)])
    assert seat(S, 1, M.P_HP) == 43 and seat(S, 0, M.P_DMG + M.SRC_TOKEN) == 2
    assert seat(S, 0, M.P_TOK + content.token_ids["chi"]) == 1


def test_smoke_bomb_avoids_on_1_to_3(tmp_path):
    content, tables = spends(tmp_path)
    for face, hp in ((2, 50), (3, 45)):
        S0 = fixture_position(content, adice=STRIKE, attempts=3, toks=({}, {"smoke_bomb": 1}))
        g, S, seen = play_both(S0, dice=(face,), script=[spend_move(content, "smoke_bomb")], content=content,
                               tables=tables)
        assert seat(S, 1, M.P_HP) == hp and seat(S, 1, M.P_TOK + content.token_ids["smoke_bomb"]) == 0


def test_sneak_attack_and_ninjutsu_add_at_the_attack_end(tmp_path):
    content, tables = spends(tmp_path)
    S0 = fixture_position(content, adice=STRIKE, attempts=3, toks=({"sneak_attack": 1}, {}))
    g, S, seen = play_both(S0, dice=(3,), script=[spend_move(content, "sneak_attack")], content=content, tables=tables)
    assert seen[0][0] == M.PH_TOKEN and seat(S, 1, M.P_HP) == 41 and seat(S, 0, M.P_DMG + M.SRC_TOKEN) == 4
    nj = spend_move(content, "ninjutsu")
    S0 = fixture_position(content, adice=STRIKE, attempts=3, toks=({"ninjutsu": 2}, {}))
    g, S, seen = play_both(S0, dice=(3,), script=[nj, M.MV_PASS], content=content, tables=tables)
    assert seen == [(M.PH_TOKEN, 0, [M.MV_PASS, nj])] * 2           # offered again (repeat), passed
    assert seat(S, 1, M.P_HP) == 43 and seat(S, 0, M.P_TOK + content.token_ids["ninjutsu"]) == 1


def test_a_stunned_holder_is_offered_nothing(tmp_path):
    content, tables = spends(tmp_path)
    rules = M.load_rules(overrides={"may_skip_ability": False, "stun_extra_attack": False})
    S0 = fixture_position(content, rules=rules, adice=STRIKE, attempts=3, toks=({}, {"evasive": 2, "stun": 1}))
    g, S, seen = play_both(S0, rules=rules, content=content, tables=tables)
    assert all(ph != M.PH_TOKEN for ph, _, _ in seen) and seat(S, 1, M.P_HP) == 45


def test_spend_entries_validate(tmp_path):
    import pytest
    from simcore.errors import PlaytestError
    for old, new, reason in (
            ('use = "data"\nspend = [ { when = "attacked", max = 1, effects', 'use = "none"\nspend = [ { when = "attacked", max = 1, effects',
             'use = "data" and a spend list go together'),
            ('{ when = "attack_end", max = 1, effects', '{ when = "roll_phase_start", max = 1, effects',
             "add_damage belongs to a token's attacked event, its attack_end or attacking spend"),
            ('{ when = "attack_end", max = 1, effects', '{ when = "attack_end", maxi = 1, effects', "unknown key 'maxi'"),
            ('"3" = [ { avoid = 1 } ] } } ] } ]', '"3" = [ { avoid = 1 } ] } }, { undefendable = 1 } ] } ]',
             "undefendable belongs to a token's attack_end spend")):
        assert old in SPENDS
        with pytest.raises(PlaytestError, match=reason):
            fixture(tmp_path, SPENDS.replace(old, new, 1) + ATTACKS)
