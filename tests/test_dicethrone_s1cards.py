"""Season One's cards and the passive's upkeep (simcore/dicethrone/season1/VOCABULARY.md
sections 8 and 7.4, plan step 9): ``when = "after_damage"`` (ST_POSTWIN), ``discard_cost``
(ST_PAYDISC), ``discard_random``, conditions on cards' effects, two alternative die effects,
and ``[passive] upkeep``, each on a fixture hero played against the Paladin through BOTH
engines with forced dice (``dicethrone_helpers.play_both``). Every fixture fails to load on
the code before step 9 (the keys were unknown or refused)."""
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))
import dicethrone_helpers  # noqa: E402
from dicethrone_helpers import play_both, seat  # noqa: E402
from test_dicethrone_season1 import B, C, D, fixture, fixture_position  # noqa: E402

from simcore import rng as R  # noqa: E402
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
CARDS = '''
[[cards]]
id = "head_bash"
name = "Head Bash!"
cost = 0
phase = "roll"
copies = 1
when = "after_damage"
effects = [ { inflict = "concussion", if_dealt = 8 } ]

[[cards]]
id = "offering"
name = "Smoke Offering!"
cost = 0
phase = "instant"
copies = 1
discard_cost = 1
effects = [ { gain = "mark" } ]

[[cards]]
id = "trick"
name = "Card Trick!"
cost = 0
phase = "main"
copies = 1
effects = [ { discard_random = 1, target = "opponent" }, { draw = 1, unless_has = "mark" }, { draw = 2, if_has = "mark" } ]

[[cards]]
id = "wild"
name = "Wild Shadow!"
cost = 0
phase = "roll"
copies = 1
dice = "any"
effects = [ { set_die = "any", n = 1, unless_has = "mark" }, { set_die = "any", n = 2, if_has = "mark" } ]

[[cards]]
id = "coin"
name = "Shadow Coin!"
cost = 0
phase = "instant"
copies = 1
effects = [ { cp = 2, unless_has = "mark" }, { cp = 3, if_has = "mark" } ]
'''
PASSIVE = '''
[passive]
id = "fertile"
name = "Fertile"
upkeep = [ { heal = 2 } ]

[[passive.levels]]
level = 2
upkeep = [ { gain = "mark" }, { heal = 0, per = 1, of = "mark" } ]
'''
MET = (B, B, B, C, D)


def hit(damage):
    return f'''
[[abilities]]
id = "hit"
name = "Hit"
tiers = [ {{ level = 1, target = "3*b", effects = [ {{ damage = {damage}, kind = "undefendable" }} ] }} ]
'''


def hero(tmp_path, damage=8, extra=""):
    return fixture(tmp_path, TOKENS + hit(damage) + CARDS + extra)


def cid(content, name):
    return [c.id for c in content.cards].index(name)


def give(S, content, p, names):
    """Seat p's hand becomes these cards (ids of ``content``)."""
    b = M.seat_base(p)
    S[b + M.P_HAND:b + M.P_HAND + M.MAX_HAND] = -1
    for i, n in enumerate(names):
        S[b + M.P_HAND + i] = cid(content, n)
    S[b + M.P_HAND_N] = len(names)


def hand(S, content, p):
    b = M.seat_base(p)
    return [content.cards[int(c)].id for c in S[b + M.P_HAND:b + M.P_HAND + S[b + M.P_HAND_N]]]


def tok(content, S, p, name):
    return seat(S, p, M.P_TOK + content.token_ids[name])


# ------------------------------------------------------------------ after_damage (Head Bash!)
@pytest.mark.parametrize("damage,conc", [(8, 1), (7, 0)])
def test_head_bash_after_8_dealt_and_not_after_7(tmp_path, damage, conc):
    content, tables = hero(tmp_path, damage)
    S0 = fixture_position(content, adice=MET, attempts=3)
    give(S0, content, 0, ["head_bash", "trick"])     # Card Trick!: a main-phase card, to stop in main phase 2
    # the first decision is the attacker's after the damage: pass, or play Head Bash! (its only
    # moment: the roll phase and the windows did not offer it)
    g, S, seen = play_both(S0, content=content, tables=tables)
    assert S[M.O_STEP] == M.ST_POSTWIN and S[M.O_PHASE] == M.PH_WINDOW and S[M.O_CUR] == 0
    assert g.moves == [M.MV_PASS, M.MV_PLAY + 0] and S[M.O_TAKEN] == damage
    # greedy plays it only when the attack met its if_dealt
    from strategies.dicethrone.basic import greedy_decide, strategy_data
    k = greedy_decide(M.PH_WINDOW, S, np.array(g.moves + [0] * (M.MAX_MOVES - 2), np.int64), 2,
                      M.rules_vector(dicethrone_helpers.scenario_rules()), strategy_data(tables, content),
                      R.new_state(1, 0, 5))
    assert k == conc
    g, S, seen = play_both(S0, script=[M.MV_PLAY + 0], content=content, tables=tables)
    assert tok(content, S, 1, "concussion") == conc and seat(S, 1, M.P_HP) == 50 - damage
    assert hand(S, content, 0) == ["trick"] and seat(S, 0, M.P_CARDS) == 1
    # on to the attacker's main phase 2
    assert S[M.O_STEP] == M.ST_MAIN2 and S[M.O_ACTIVE] == 0


def test_head_bash_is_not_offered_without_an_attack_or_in_the_windows(tmp_path):
    content, tables = hero(tmp_path)
    S0 = fixture_position(content, step=M.ST_MAIN1)
    give(S0, content, 0, ["head_bash", "coin"])
    g, S, seen = play_both(S0, content=content, tables=tables)
    assert S[M.O_STEP] == M.ST_MAIN1 and M.MV_PLAY + 0 not in g.moves and M.MV_PLAY + 1 in g.moves


# ------------------------------------------------------------------ discard_cost (Smoke Offering!)
def test_smoke_offering_needs_another_card_and_discards_it_first(tmp_path):
    content, tables = hero(tmp_path)
    S0 = fixture_position(content, step=M.ST_MAIN1)
    give(S0, content, 0, ["offering"])
    g, S, seen = play_both(S0, content=content, tables=tables)
    assert S[M.O_STEP] == M.ST_MAIN1 and g.moves == [M.MV_PASS, M.MV_SELL + 0]       # not playable alone
    # with two other cards: play it, then choose the one to discard (no CP for it)
    give(S0, content, 0, ["offering", "coin", "trick"])
    g, S, seen = play_both(S0, script=[M.MV_PLAY + 0, M.MV_SELL + 1], content=content, tables=tables)
    assert seen[1][:2] == (M.PH_DISCARD, 0) and seen[1][2] == [M.MV_SELL + 0, M.MV_SELL + 1]
    assert tok(content, S, 0, "mark") == 1 and hand(S, content, 0) == ["coin"]
    assert seat(S, 0, M.P_CP) == 0 and seat(S, 0, M.P_SOLD) == 0 and seat(S, 0, M.P_CARDS) == 1
    b = M.seat_base(0)
    assert [content.cards[int(c)].id for c in S[b + M.P_DISC:b + M.P_DISC + S[b + M.P_DISC_N]]] == ["offering", "trick"]
    assert S[M.O_STEP] == M.ST_MAIN1 and S[M.O_PHASE] == M.PH_MAIN
    # with exactly one other card the discard is forced (no decision; then, the hand empty, the
    # main phase has nothing left to decide and play goes on to the roll)
    give(S0, content, 0, ["offering", "trick"])
    g, S, seen = play_both(S0, script=[M.MV_PLAY + 0], content=content, tables=tables)
    assert [ph for ph, _, _ in seen] == [M.PH_MAIN]
    assert tok(content, S, 0, "mark") == 1 and hand(S, content, 0) == [] and S[M.O_STEP] == M.ST_ROLL


# ------------------------------------------------------------------ discard_random (Card Trick!)
def forced_below(draws):
    """A stream whose next draws below(n) give v for each (n, v) of ``draws``."""
    for idx in range(2_000_000):
        st = R.new_state(777, idx, 99)
        probe = st.copy()
        if all(R.below_py(probe, n) == v for n, v in draws):
            return st
    raise AssertionError("no stream found")


@pytest.mark.parametrize("pick", [0, 2])
@pytest.mark.parametrize("marked,drawn", [(0, 1), (1, 2)])
def test_card_trick_discards_at_random_and_draws_1_or_2(tmp_path, monkeypatch, pick, marked, drawn):
    content, tables = hero(tmp_path)
    S0 = fixture_position(content, step=M.ST_MAIN1, toks=({"mark": marked}, {}))
    give(S0, content, 0, ["trick", "coin"])
    give(S0, content, 1, ["play_six", "double", "bye_bye"])
    monkeypatch.setattr(dicethrone_helpers, "forced_stream", lambda dice: forced_below([(3, pick)]))
    g, S, seen = play_both(S0, script=[M.MV_PLAY + 0], content=content, tables=tables)
    left = ["play_six", "double", "bye_bye"]
    gone = left.pop(pick)
    assert hand(S, content, 1) == left
    b = M.seat_base(1)
    assert [content.cards[int(c)].id for c in S[b + M.P_DISC:b + M.P_DISC + S[b + M.P_DISC_N]]] == [gone]
    assert seat(S, 0, M.P_HAND_N) == 1 + drawn and seat(S, 1, M.P_CP) == 0
    assert S[M.O_STEP] == M.ST_MAIN1


# ------------------------------------------------------------------ alternative die effects (Wild Shadow!)
@pytest.mark.parametrize("marked", [0, 1])
def test_wild_shadow_sets_one_die_or_two_with_the_token(tmp_path, marked):
    content, tables = hero(tmp_path)
    S0 = fixture_position(content, adice=(C, C, D, D, C), attempts=1, toks=({"mark": marked}, {}))
    give(S0, content, 0, ["wild"])
    script = [M.MV_PLAY + 0, M.MV_DIE + 0 * 8 + B + 1] + ([M.MV_DIE + 1 * 8 + B + 1] if marked else [])
    g, S, seen = play_both(S0, script=script, content=content, tables=tables)
    assert [ph for ph, _, _ in seen] == [M.PH_ROLL] + [M.PH_DIE] * (1 + marked)
    assert [int(x) for x in S[M.O_ADICE:M.O_ADICE + 5]] == [B, B if marked else C, D, D, C]
    assert S[M.O_STEP] == M.ST_ROLL and S[M.O_PHASE] == M.PH_ROLL


def test_shadow_coin_gains_2_or_3(tmp_path):
    content, tables = hero(tmp_path)
    for marked, cp in ((0, 2), (1, 3)):
        S0 = fixture_position(content, step=M.ST_MAIN1, toks=({"mark": marked}, {}))
        give(S0, content, 0, ["coin", "trick"])
        g, S, seen = play_both(S0, script=[M.MV_PLAY + 0], content=content, tables=tables)
        assert seat(S, 0, M.P_CP) == cp


# ------------------------------------------------------------------ the passive's upkeep
def test_passive_upkeep_runs_at_the_holders_upkeep_by_level(tmp_path):
    content, tables = hero(tmp_path, extra=PASSIVE)
    S0 = fixture_position(content, step=M.ST_UPKEEP, hp=(40, 40))
    g, S, seen = play_both(S0, content=content, tables=tables)
    assert seat(S, 0, M.P_HP) == 42 and seat(S, 1, M.P_HP) == 40 and tok(content, S, 0, "mark") == 0
    S0[M.seat_base(0) + M.P_PLVL] = 2
    S0[M.seat_base(0) + M.P_TOK + content.token_ids["mark"]] = 1
    g, S, seen = play_both(S0, content=content, tables=tables)
    assert seat(S, 0, M.P_HP) == 42 and tok(content, S, 0, "mark") == 2
    # not on the opponent's upkeep
    S0 = fixture_position(content, step=M.ST_UPKEEP, hp=(40, 40), active=1)
    g, S, seen = play_both(S0, content=content, tables=tables)
    assert seat(S, 0, M.P_HP) == 40


# ------------------------------------------------------------------ the loader
@pytest.mark.parametrize("card,why", [
    ('effects = [ { set_die = "any", n = 1 }, { set_die = "any", n = 2, if_has = "mark" } ]\ndice = "any"',
     "exactly one"),
    ('effects = [ { set_die = "any", n = 1, unless_has = "mark" }, { cp = 1 } ]\ndice = "any"', "as its last effect"),
    ('effects = [ { inflict = "concussion", if_dealt = 8 } ]', "after_damage"),
    ('effects = [ { cp = 1, if_kind = 3 } ]', "carry if_dealt"),
    ('effects = [ { cp = 1 } ]\ndiscard_cost = -1', "must be >= 0"),
    ('effects = [ { set_die = "any" } ]\ndice = "any"\nwhen = "after_damage"', "cannot touch dice"),
])
def test_bad_cards_are_one_line_errors(tmp_path, card, why):
    body = TOKENS + hit(5) + f'''
[[cards]]
id = "bad"
name = "Bad"
cost = 0
phase = "roll"
copies = 1
{card}
'''
    with pytest.raises(PlaytestError, match=why):
        fixture(tmp_path, body)


def test_passive_upkeep_refuses_die_effects(tmp_path):
    with pytest.raises(PlaytestError, match="belongs to cards"):
        fixture(tmp_path, TOKENS + hit(5) + '\n[passive]\nupkeep = [ { set_die = 6 } ]\n')


# ------------------------------------------------------------------ plan step 10: the Shadow Thief
def test_shadow_thief_shadow_dance(tmp_path):
    """Shadow Dance I (3 shadow): 1 die, half its value rounded up as pure damage (a 5: 3),
    then Sneak and Sneak Attack (after the damage: not spent on it)."""
    from dicethrone_helpers import position, tables_in_order

    content, tables = tables_in_order(("shadow_thief", "paladin"))[:2]
    for face, dmg in ((4, 3), (1, 1)):
        S0 = position(heroes=("shadow_thief", "paladin"), content=content, adice=(5, 5, 5, 0, 2), attempts=3,
                      hands=(("get_away",), ()))
        g, S, seen = play_both(S0, dice=(face,), content=content, tables=tables)
        assert S[M.O_STEP] == M.ST_MAIN2 and S[M.O_ACTIVE] == 0 and seat(S, 0, M.P_USES + 4) == 1
        assert seat(S, 1, M.P_HP) == 50 - dmg and S[M.O_DEFENDED] == 0
        assert tok(content, S, 0, "sneak") == 1 and tok(content, S, 0, "sneak_attack") == 1
