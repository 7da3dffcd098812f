"""Season One's amounts and conditions (simcore/dicethrone/season1/VOCABULARY.md sections 5.9
and 6, plan step 6): ``roll_sum``, ``of = "pips" | "cp" | "taken"``, ``half``, ``if_kind``,
``if_pips``, ``if_dealt``, ``if_has``/``unless_has`` and ``if_spent``, each in a fixture hero's
tier played against the Paladin through BOTH engines with forced dice
(``dicethrone_helpers.play_both``). Every fixture fails to load on the code before step 6
(the keys were unknown)."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from dicethrone_helpers import play_both, seat  # noqa: E402
from test_dicethrone_season1 import B, C, D, fixture, fixture_position  # noqa: E402

from simcore.dicethrone import model as M  # noqa: E402
from simcore.errors import PlaytestError  # noqa: E402

TOKENS = '''
[[tokens]]
id = "concussion"
name = "Concussion"
kind = "negative"
limit = 1
use = "none"
income = [ { remove = "concussion" }, { skip = "income" } ]

[[tokens]]
id = "mark"
name = "Mark"
kind = "positive"
limit = 3
use = "none"
'''
MET = (B, B, B, C, D)      # three b (all face "3"): meets "3*b", and 3 of a kind
HAND = (("get_away",), ())  # a main-phase card: the fixture's main phase 2 is a decision, so play stops there


def tier(effects, target="3*b"):
    return TOKENS + f'''
[[abilities]]
id = "hit"
name = "Hit"
tiers = [ {{ level = 1, target = "{target}", effects = [ {effects} ] }} ]
'''


def attack(tmp_path, effects, dice=(), adice=MET, cp=(0, 0), toks=({}, {}), hp=(50, 50), prevent=0):
    """The fixture hero (seat 0) activates its one tier on ``adice`` and plays on to its main
    phase 2; returns the kernel's state (the twin test inside play_both held the reference
    equal to it all the way)."""
    content, tables = fixture(tmp_path, tier(effects))
    S0 = fixture_position(content, adice=adice, attempts=3, cp=cp, toks=toks, hp=hp, hands=HAND)
    S0[M.seat_base(1) + M.P_PREVENT] = prevent
    g, S, seen = play_both(S0, dice=dice, content=content, tables=tables)
    assert S[M.O_ACTIVE] == 0 and S[M.O_STEP] == M.ST_MAIN2 and S[M.O_PHASE] == M.PH_MAIN
    assert seat(S, 0, M.P_ATTACKS) == 1
    return content, S


def tok(content, S, p, name):
    return seat(S, p, M.P_TOK + content.token_ids[name])


OVERPOWER = ('{ roll_sum = 3 }, { damage = 0, per = 1, of = "pips", kind = "undefendable" }, '
             '{ inflict = "concussion", if_pips = { at_least = 14 } }')


@pytest.mark.parametrize("dice,dmg,conc", [((3, 4, 5), 15, 1), ((0, 1, 2), 6, 0), ((4, 4, 3), 14, 1),
                                           ((4, 4, 2), 13, 0)])
def test_overpower_deals_the_pips_and_concusses_at_14(tmp_path, dice, dmg, conc):
    """Overpower: roll 3 dice, deal their sum; Concussion if the sum is at least 14."""
    content, S = attack(tmp_path, OVERPOWER, dice=dice)
    assert seat(S, 1, M.P_HP) == 50 - dmg and S[M.O_PIPS] == dmg and S[M.O_TAKEN] == dmg
    assert tok(content, S, 1, "concussion") == conc
    assert [int(x) for x in S[M.O_BDICE:M.O_BDICE + 3]] == list(dice)


def test_if_pips_at_most(tmp_path):
    effects = ('{ roll_sum = 2 }, { damage = 3, kind = "undefendable" }, '
               '{ damage = 4, kind = "undefendable", if_pips = { at_most = 6 } }')
    for dice, hp in (((2, 2), 43), ((2, 3), 47)):     # 3 + 3 = 6; 3 + 4 = 7 > 6
        content, S = attack(tmp_path, effects, dice=dice)
        assert seat(S, 1, M.P_HP) == hp


def test_shifty_strike_halves_the_cp_rounded_up(tmp_path):
    """Shifty Strike: gain 3 CP, then deal half your CP rounded up: at 4 CP, 7 CP and 4 damage."""
    effects = '{ cp = 3 }, { damage = 0, per = 1, of = "cp", half = "up", kind = "undefendable" }'
    content, S = attack(tmp_path, effects, cp=(4, 0))
    assert seat(S, 0, M.P_CP) == 7 and seat(S, 1, M.P_HP) == 46
    effects = '{ cp = 3 }, { damage = 0, per = 1, of = "cp", half = "down", kind = "undefendable" }'
    content, S = attack(tmp_path, effects, cp=(4, 0))
    assert seat(S, 1, M.P_HP) == 47


def test_shadow_shank_deals_5_plus_cp(tmp_path):
    effects = '{ cp = 3 }, { damage = 5, per = 1, of = "cp", kind = "undefendable" }'
    content, S = attack(tmp_path, effects, cp=(6, 0))
    assert seat(S, 0, M.P_CP) == 9 and seat(S, 1, M.P_HP) == 50 - 14


def test_cap_caps_the_amount(tmp_path):
    effects = '{ damage = 5, per = 1, of = "cp", cap = 7, kind = "undefendable" }'
    content, S = attack(tmp_path, effects, cp=(6, 0))
    assert seat(S, 1, M.P_HP) == 43


RECKLESS = '{ damage = 15, kind = "undefendable" }, { damage = 4, kind = "pure", target = "self", if_dealt = 1 }'


def test_reckless_hurts_its_user_only_if_damage_was_dealt(tmp_path):
    content, S = attack(tmp_path, RECKLESS)
    assert seat(S, 1, M.P_HP) == 35 and seat(S, 0, M.P_HP) == 46
    content, S = attack(tmp_path, RECKLESS, prevent=20)      # a full prevent: nothing dealt
    assert seat(S, 1, M.P_HP) == 50 and seat(S, 0, M.P_HP) == 50 and S[M.O_TAKEN] == 0


def test_of_taken_reads_the_damage_dealt(tmp_path):
    effects = '{ damage = 9, kind = "undefendable" }, { heal = 0, per = 1, of = "taken", half = "down" }'
    content, S = attack(tmp_path, effects, prevent=2, hp=(30, 50))
    assert seat(S, 1, M.P_HP) == 43 and seat(S, 0, M.P_HP) == 33


FORTITUDE = '{ heal = 5 }, { remove = "negative", n = 1, target = "self", if_kind = 3 }'


def test_fortitude_ii_removes_a_status_only_on_3_of_a_kind(tmp_path):
    # three b on faces 3, 3, 3: three of a kind
    content, S = attack(tmp_path, FORTITUDE, toks=({"concussion": 1}, {}), hp=(40, 50))
    assert seat(S, 0, M.P_HP) == 45 and tok(content, S, 0, "concussion") == 0
    # three b on faces 3, 4, 3: no three of a kind
    content, S = attack(tmp_path, FORTITUDE, adice=(2, 3, 2, C, D), toks=({"concussion": 1}, {}), hp=(40, 50))
    assert seat(S, 0, M.P_HP) == 45 and tok(content, S, 0, "concussion") == 1


def test_if_has_and_unless_has_pick_one_of_a_pair(tmp_path):
    """As Shadow Coin!: 2 CP without the token, 3 with it."""
    effects = '{ cp = 2, unless_has = "mark" }, { cp = 3, if_has = "mark" }'
    for held, cp in ((0, 2), (1, 3)):
        content, S = attack(tmp_path, effects, toks=({"mark": held}, {}))
        assert seat(S, 0, M.P_CP) == cp


def test_if_has_negative_reads_any_status(tmp_path):
    effects = '{ cp = 1, if_has = "negative" }'
    for held, cp in ((0, 0), (1, 1)):
        content, S = attack(tmp_path, effects, toks=({"concussion": held}, {}))
        assert seat(S, 0, M.P_CP) == cp


def test_if_spent_2_needs_two_spent(tmp_path):
    effects = ('{ spend = "mark", up_to = 2 }, { damage = 2, kind = "undefendable" }, '
               '{ damage = 6, kind = "undefendable", if_spent = 2 }')
    for held, hp, left in ((1, 48, 0), (2, 42, 0), (3, 42, 1)):
        content, S = attack(tmp_path, effects, toks=({"mark": held}, {}))
        assert seat(S, 1, M.P_HP) == hp and tok(content, S, 0, "mark") == left


@pytest.mark.parametrize("effects,why", [
    ('{ damage = 1, if_kind = 3, if_has = "mark" }', "at most one of"),
    ('{ damage = 0, per = 1, of = "pips" }', "roll_sum earlier"),
    ('{ damage = 1, if_pips = { at_least = 3 } }', "roll_sum earlier"),
    ('{ roll_sum = 3, may_reroll = 1 }, { damage = 0, per = 1, of = "pips" }', "needs pre_defence = true"),
    ('{ damage = 1, if_spent = 1 }', "spend earlier"),
    ('{ damage = 4, target = "self", if_dealt = 1 }, { damage = 5 }', "after its last damage"),
    ('{ damage = 4, half = "sideways" }', "half is"),
    ('{ damage = 4, if_pips = { at_least = 3, at_most = 5 } }', "if_pips is"),
    ('{ damage = 4, if_kind = 6 }', "must be <="),
    ('{ damage = 4, if_has = "nothing" }', "unknown token"),
])
def test_bad_conditions_are_one_line_errors(tmp_path, effects, why):
    with pytest.raises(PlaytestError, match=why):
        fixture(tmp_path, tier(effects))


def test_conditions_in_token_events_and_defences(tmp_path):
    bad_event = TOKENS.replace('use = "none"\n', 'use = "none"\nupkeep = [ { heal = 1, if_kind = 2 } ]\n', 1)
    with pytest.raises(PlaytestError, match="if_kind belongs"):
        fixture(tmp_path, bad_event + tier("{ damage = 1 }")[len(TOKENS):])
    with pytest.raises(PlaytestError, match="after its last damage"):
        fixture(tmp_path, tier("{ damage = 1 }") + '''
[[defences]]
id = "bad"
name = "Bad"
dice = 2
tiers = [ { level = 1, effects = [ { heal = 1, if_dealt = 1 } ] } ]
''')


# ------------------------------------------------------------------ the strategies
def test_optimal_values_pips_by_their_distribution_and_if_kind_on_the_dice(tmp_path):
    from strategies.dicethrone.optimal import KIND_WEIGHT, _token_weights, effect_value, pips_dist

    content, tables = fixture(tmp_path, tier(OVERPOWER))
    gw, iw = _token_weights(content)
    effects = content.heroes["fixture"].abilities[0].tiers[0].effects
    fs = content.heroes["fixture"].face_sym
    d = pips_dist(3)
    assert abs(sum(d.values()) - 1) < 1e-12 and abs(d[14] + d[15] + d[16] + d[17] + d[18] - 35 / 216) < 1e-12
    want = KIND_WEIGHT[M.K_UNDEF] * 10.5 + iw[content.token_ids["concussion"]] * 35 / 216
    assert abs(effect_value(effects, {}, {}, (3, 0, 0, 0), fs, gw, iw) - want) < 1e-9
    content, tables = fixture(tmp_path, tier(FORTITUDE))
    effects = content.heroes["fixture"].abilities[0].tiers[0].effects
    v3 = effect_value(effects, {}, {}, (0, 3, 1, 1), fs, gw, iw, kind=3)
    v2 = effect_value(effects, {}, {}, (0, 3, 1, 1), fs, gw, iw, kind=2)
    assert v3 == 2.5 + 1.0 and v2 == 2.5


def test_optimal_tables_tell_3_of_a_kind_apart(tmp_path):
    """A hero whose tiers read if_kind gets value classes by symbols and most dice of one face:
    three b on faces 3, 3, 3 and on 3, 4, 3 are valued apart."""
    from simcore.odds.space import DiceSpace
    from strategies.dicethrone.optimal import _hero_tables, _token_weights

    content, tables = fixture(tmp_path, tier(FORTITUDE))
    hero = content.heroes["fixture"]
    space = DiceSpace.build([hero.die] * M.N_DICE, collapse=False)
    gw, iw = _token_weights(content)
    best, V, tv, sv_of_hand, tk, tok_n, n_sv, stride = _hero_tables(content, hero, space, gw, iw)

    def value(faces):
        counts = tuple(faces.count(f) for f in range(6))
        hd = [h for h in range(space.n_hands) if tuple(int(x) for x in space.hands[h]) == counts][0]
        return tv[0, sv_of_hand[hd], 0]
    assert value([2, 2, 2, 4, 5]) == 3.5 and value([2, 3, 2, 4, 5]) == 2.5


ALL = TOKENS + '''
[[abilities]]
id = "overpower"
name = "Overpower"
tiers = [ { level = 1, target = "3*b", effects = [ ''' + OVERPOWER + ''' ] } ]

[[abilities]]
id = "shifty"
name = "Shifty"
tiers = [ { level = 1, target = "2*a+2*b", effects = [ { cp = 3 }, { damage = 0, per = 1, of = "cp", half = "up" }, { cp = 2, unless_has = "mark" }, { gain = "mark", if_has = "negative" } ] } ]

[[abilities]]
id = "reckless"
name = "Reckless"
tiers = [ { level = 1, target = "large-straight", effects = [ ''' + RECKLESS + ''' ] },
          { level = 1, target = "small-straight", effects = [ { spend = "mark", up_to = 2 }, { damage = 3 }, { damage = 4, if_spent = 2 }, { heal = 0, per = 1, of = "taken", cap = 3 } ] } ]

[[abilities]]
id = "fortitude"
name = "Fortitude"
tiers = [ { level = 1, target = "3*a", effects = [ ''' + FORTITUDE + ''', { gain = "mark", if_kind = 4 } ] } ]
'''


@pytest.mark.parametrize("strategy", ["greedy", "optimal", "random"])
def test_a_hero_of_every_construct_plays_the_same_games_in_both_engines(tmp_path, strategy):
    """Every construct of step 6 in one hero, 12 games against the Paladin each way, the kernel
    and the reference engine game for game; no game capped (but at random)."""
    from simcore.dicethrone.roster import Roster
    from strategies.dicethrone.bind import play_range

    fixture(tmp_path, ALL)
    r = Roster(tmp_path / "heroes")
    for heroes in (("fixture", "paladin"), ("paladin", "fixture")):
        k = play_range(0, 12, 3, heroes, (strategy, strategy), roster=r)
        ref = play_range(0, 12, 3, heroes, (strategy, strategy), roster=r, engine="reference")
        for f in k:
            assert list(k[f]) == list(ref[f]), f
        assert strategy == "random" or not any(k["capped"])     # random play may reach the cap
        seat = 0 if heroes[0] == "fixture" else 1
        assert sum(k[f"attacks{seat}"]) > 0


# ------------------------------------------------------------------ plan step 10: the Moon Elf
def moon_elf():
    from dicethrone_helpers import tables_in_order

    return tables_in_order(("moon_elf", "paladin"))[:2]


def test_moon_elf_exploding_arrow(tmp_path):
    """Exploding Arrow I (1 arrow + 3 moon): 3 damage, then 5 dice: 1 per arrow and per foot,
    the opponent loses 1 CP per moon; then Blinded. The Paladin defends with 3 prays (+3 CP) and
    passes its window (it could spend CP on Tithes)."""
    from dicethrone_helpers import position

    content, tables = moon_elf()
    S0 = position(heroes=("moon_elf", "paladin"), content=content, adice=(0, 5, 5, 5, 3), attempts=3, cp=(0, 2),
                  hands=HAND)
    g, S, seen = play_both(S0, dice=(5, 5, 5) + (0, 3, 5, 5, 1), script=[M.MV_PASS], content=content,
                           tables=tables)
    assert seen[0][:2] == (M.PH_WINDOW, 1) and S[M.O_STEP] == M.ST_MAIN2 and S[M.O_ACTIVE] == 0
    assert seat(S, 0, M.P_USES + 3) == 1                       # Exploding Arrow
    assert seat(S, 1, M.P_HP) == 50 - 6 and seat(S, 1, M.P_CP) == 2 + 3 - 2
    assert tok(content, S, 1, "blinded") == 1


def test_moon_elf_longbow_ii_entangles_on_4_of_a_kind(tmp_path):
    from dicethrone_helpers import position

    content, tables = moon_elf()
    for adice, held in (((0, 0, 0, 0, 5), 1), ((0, 1, 0, 1, 5), 0)):    # four 1s; 1, 2, 1, 2
        S0 = position(heroes=("moon_elf", "paladin"), content=content, adice=adice, attempts=3, hands=HAND)
        S0[M.seat_base(0) + M.P_LVL + 0] = 2
        # the Paladin defends with 3 swords: 3 back, and no CP for Tithes
        g, S, seen = play_both(S0, dice=(0, 0, 0), script=[M.MV_ABILITY + 4], content=content, tables=tables)
        assert seen[0][0] == M.PH_ABILITY and S[M.O_STEP] == M.ST_MAIN2
        assert seat(S, 1, M.P_HP) == 44 and seat(S, 0, M.P_HP) == 47 and tok(content, S, 1, "entangle") == held
