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


# ------------------------------------------------------------------ step 4b: spends in the holder's own turn
OWN_TURN = '''
[[tokens]]
id = "seedling"
name = "Seedling"
kind = "companion"
limit = 3
use = "data"
spend = [ { when = "own_roll", max = 1, once_per_turn = true, effects = [ { reroll = 1 } ] } ]

[[tokens]]
id = "sapling"
name = "Sapling"
kind = "companion"
limit = 2
use = "data"
spend = [
  { when = "any", max = 1, once_per_turn = true, effects = [ { heal = 1 }, { cp = 1 } ] },
  { when = "any", max = 1, once_per_turn = true, cost_cp = 1, effects = [ { draw = 1 } ] },
]

[[tokens]]
id = "cleanse"
name = "Cleanse"
kind = "positive"
limit = 3
use = "data"
spend = [ { when = "any", max = 1, if_has = "negative", effects = [ { remove = "negative", n = 1 } ] } ]

[[tokens]]
id = "wellspring"
name = "Wellspring"
kind = "positive"
limit = 1
use = "data"
spend = [ { when = "main", max = 1, effects = [ { roll = 1, on = { "1" = [ { heal = 1 } ], "2" = [ { heal = 1 } ], "3" = [ { heal = 2 } ], "4" = [ { heal = 2 } ], "5" = [ { heal = 3 } ], "6" = [ { heal = 3 } ] } } ] } ]
'''


def own_turn(tmp_path):
    return fixture(tmp_path, body=OWN_TURN + ABILITIES)


def sp(content, token, k=0):
    """The spend move (1 token) of a token's k-th entry (model._spend_table's order)."""
    i = 0
    for tk in content.tokens:
        for j, _ in enumerate(tk.spend):
            if tk.id == token and j == k:
                return M.MV_SPEND + i * 16 + 1
            i += 1
    raise KeyError(token)


def with_hand(S0, content, card="stars", p=0):
    """One card in seat p's hand (a card it cannot play in its main phase: a decision stays open)."""
    b = M.seat_base(p)
    S0[b + M.P_HAND], S0[b + M.P_HAND_N] = [c.id for c in content.cards].index(card), 1
    return S0


def test_seedling_rerolls_one_of_its_dice_once_a_turn(tmp_path):
    """Seedling at own_roll: a die operation inside a spend (PH_DIE over the holder's dice, then
    back to its roll decision); once per turn, so the second Seedling is not offered."""
    content, tables = own_turn(tmp_path)
    sm = sp(content, "seedling")
    S0 = fixture_position(content, adice=(A, A, C, C, D), attempts=3, toks=({"seedling": 2}, {}))
    g, S, seen = play_both(S0, dice=(A, D, D, D), script=[sm, M.MV_DIE + 4], content=content, tables=tables)
    assert seen == [(M.PH_ROLL, 0, [M.MV_PASS, sm]), (M.PH_DIE, 0, [M.MV_DIE + (1 << i) for i in range(5)])]
    assert seat(S, 0, M.P_TOK + content.token_ids["seedling"]) == 1 and seat(S, 0, M.P_SPENDS) == 1
    # the rerolled die made Smack (3 a): 5 land through Divine Defense's 3 pray
    assert S[M.O_ADICE + 2] == A and seat(S, 1, M.P_HP) == 45 and S[M.O_ACTIVE] == 1


def test_sapling_is_spent_once_a_turn_through_either_entry(tmp_path):
    content, tables = own_turn(tmp_path)
    s0, s1 = sp(content, "sapling", 0), sp(content, "sapling", 1)
    S0 = with_hand(fixture_position(content, step=M.ST_MAIN2, hp=(40, 50), cp=(1, 0), toks=({"sapling": 2}, {})),
                   content)
    g, S, seen = play_both(S0, script=[s0, M.MV_PASS], content=content, tables=tables)
    assert seen == [(M.PH_MAIN, 0, [M.MV_PASS, M.MV_SELL, s0, s1]), (M.PH_MAIN, 0, [M.MV_PASS, M.MV_SELL])]
    assert seat(S, 0, M.P_HP) == 41 and seat(S, 0, M.P_CP) == 2
    assert seat(S, 0, M.P_TOK + content.token_ids["sapling"]) == 1
    # the draw entry alone (1 CP), then neither; a stunned holder is offered none
    S0 = with_hand(fixture_position(content, step=M.ST_MAIN2, cp=(1, 0), toks=({"sapling": 2}, {})), content)
    g, S, seen = play_both(S0, script=[s1, M.MV_PASS], content=content, tables=tables)
    assert seen[1] == (M.PH_MAIN, 0, [M.MV_PASS, M.MV_SELL] + [M.MV_SELL + 1])      # two cards now
    assert seat(S, 0, M.P_CP) == 0
    rules = M.load_rules(overrides={"may_skip_ability": False, "stun_extra_attack": False})
    S0 = with_hand(fixture_position(content, rules=rules, step=M.ST_MAIN2, toks=({"sapling": 2, "stun": 1}, {})),
                   content)
    g, S, seen = play_both(S0, script=[M.MV_PASS], rules=rules, content=content, tables=tables)
    assert seen == [(M.PH_MAIN, 0, [M.MV_PASS, M.MV_SELL])]


def test_cleanse_at_upkeep_removes_burn_before_it_burns(tmp_path):
    content, tables = own_turn(tmp_path)
    cl = sp(content, "cleanse")
    for move, hp in ((cl, 50), (M.MV_PASS, 48)):
        S0 = fixture_position(content, step=M.ST_UPKEEP, toks=({"cleanse": 1, "burn": 1}, {}))
        g, S, seen = play_both(S0, script=[move], content=content, tables=tables)
        assert seen == [(M.PH_TOKEN, 0, [M.MV_PASS, cl])]
        assert seat(S, 0, M.P_HP) == hp and seat(S, 0, M.P_TOK + content.token_ids["burn"]) == (move == M.MV_PASS)
        assert S[M.O_STEP] == M.ST_MAIN1


def test_wellspring_in_the_main_phase(tmp_path):
    content, tables = own_turn(tmp_path)
    ws = sp(content, "wellspring")
    S0 = with_hand(fixture_position(content, step=M.ST_MAIN1, hp=(40, 50), toks=({"wellspring": 1}, {})), content)
    g, S, seen = play_both(S0, dice=(4,), script=[ws], content=content, tables=tables)
    assert seen == [(M.PH_MAIN, 0, [M.MV_PASS, M.MV_SELL, ws])] and seat(S, 0, M.P_HP) == 43
    assert S[M.O_PHASE] == M.PH_MAIN and S[M.O_STEP] == M.ST_MAIN1      # back to the same decision


def test_greedy_spends_own_turn_entries_as_section_11_says(tmp_path):
    """Greedy: Cleanse and Wellspring when offered, Sapling's heal and CP only in main phase 2,
    its draw with fewer than 3 cards in hand, Seedling never."""
    import numpy as np

    from simcore import rng as R
    from strategies.dicethrone.basic import greedy_decide, strategy_data

    content, tables = own_turn(tmp_path)
    data = strategy_data(tables, content)
    rv = M.rules_vector(M.load_rules())
    rng = R.new_state(1, 0, 1)

    def pick(step, phase, moves, hand=1):
        S = fixture_position(content, step=step)
        S[M.seat_base(0) + M.P_HAND_N] = hand
        mv = np.array(moves + [0] * (M.MAX_MOVES - len(moves)), np.int64)
        return moves[greedy_decide(phase, S, mv, len(moves), rv, data, rng)]

    s0, s1 = sp(content, "sapling", 0), sp(content, "sapling", 1)
    assert pick(M.ST_MAIN1, M.PH_MAIN, [M.MV_PASS, s0]) == M.MV_PASS
    assert pick(M.ST_MAIN2, M.PH_MAIN, [M.MV_PASS, s0]) == s0
    assert pick(M.ST_MAIN1, M.PH_MAIN, [M.MV_PASS, s1], hand=2) == s1
    assert pick(M.ST_MAIN1, M.PH_MAIN, [M.MV_PASS, s1], hand=3) == M.MV_PASS
    assert pick(M.ST_MAIN1, M.PH_MAIN, [M.MV_PASS, sp(content, "wellspring")]) != M.MV_PASS
    assert pick(M.ST_W_UPKEEP, M.PH_TOKEN, [M.MV_PASS, sp(content, "cleanse")]) != M.MV_PASS
    assert pick(M.ST_W_UPKEEP, M.PH_TOKEN, [M.MV_PASS, s0, s1], hand=3) == M.MV_PASS
    assert pick(M.ST_ROLL, M.PH_ROLL, [M.MV_PASS, sp(content, "seedling")]) == M.MV_PASS


# ------------------------------------------------------------------ every strategy, both engines
GAINS = '''
[[abilities]]
id = "gather"
name = "Gather"
tiers = [ { level = 1, target = "2*d", effects = [ { gain = "seedling" }, { gain = "sapling" }, { gain = "cleanse" }, { gain = "wellspring" }, { inflict = "burn" }, { damage = 2 } ] } ]

[[cards]]
id = "grow_shift"
name = "Grow Shift"
cost = 1
phase = "main"
copies = 2
effects = [ { upgrade = "shift", level = 2 }, { upgrade = "blossom", level = 2 } ]
'''


@pytest.mark.parametrize("strategies", [("random", "random"), ("greedy", "optimal"), ("optimal", "greedy")])
def test_a_hero_with_every_step_4b_and_7_construct_plays_the_same_in_both_engines(tmp_path, strategies):
    """A fixture hero holding every construct of steps 4b and 7 (its tokens gained by Gather)
    against the Paladin: kernel and reference agree game for game, every built-in strategy
    decides every new decision, and greedy and optimal games end by a knock-out."""
    import numpy as np

    from simcore.dicethrone.roster import Roster
    from strategies.dicethrone.bind import play_range
    from test_dicethrone_twins import assert_same

    d = tmp_path / "heroes"
    d.mkdir()
    shutil.copy(M.HEROES_DIR / "paladin.toml", d / "paladin.toml")
    (d / "fixture.toml").write_text(HEAD + OWN_TURN + ABILITIES + GAINS + SHIFT)
    r = Roster(d)
    for heroes in (("fixture", PAL), (PAL, "fixture")):
        k = play_range(0, 20, 3, heroes, strategies, keep_states=True, roster=r)
        ref = play_range(0, 20, 3, heroes, strategies, engine="reference", keep_states=True, roster=r)
        assert_same(k, ref)
        # no game stalls (random play, selling and healing at random, may reach the turn cap)
        assert k["capped"].sum() == 0 or "random" in strategies
        seat = heroes.index("fixture")
        assert np.sum(k[f"spends{seat}"]) > 0        # its tokens were spent


def test_search_decides_the_new_decisions(tmp_path):
    from simcore.dicethrone.roster import Roster
    from strategies.dicethrone.bind import play_range
    from test_dicethrone_twins import assert_same

    d = tmp_path / "heroes"
    d.mkdir()
    shutil.copy(M.HEROES_DIR / "paladin.toml", d / "paladin.toml")
    (d / "fixture.toml").write_text(HEAD + OWN_TURN + ABILITIES + GAINS + SHIFT)
    r = Roster(d)
    k = play_range(0, 2, 17, ("fixture", PAL), ("search", "greedy"), keep_states=True, search_budget=1,
                   search_horizon=2, roster=r)
    ref = play_range(0, 2, 17, ("fixture", PAL), ("search", "greedy"), engine="reference", keep_states=True,
                     search_budget=1, search_horizon=2, roster=r)
    assert_same(k, ref)
