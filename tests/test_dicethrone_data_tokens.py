"""Season One plan step 5 (simcore/dicethrone/season1/VOCABULARY.md sections 4 and 5.12):
``knocked_out`` events with ``set_hp`` (run inside the damage, by both engines' small
interpreter) and the ``roll_phase_start`` spend window, on fixture tokens written into
``tmp_path``, played against the Paladin through BOTH engines with forced dice
(``dicethrone_helpers.play_both``). Each fixture fails to load on the code before step 5."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from dicethrone_helpers import play_both, seat, spend_move  # noqa: E402
from test_dicethrone_season1 import A, B, C, D, fixture, fixture_position  # noqa: E402

from simcore.dicethrone import model as M  # noqa: E402
from simcore.errors import PlaytestError  # noqa: E402

KO_TOKENS = '''
[[tokens]]
id = "last_stand"
name = "Last Stand"
kind = "positive"
limit = 2
use = "none"
knocked_out = [ { remove = "last_stand" }, { set_hp = 2 }, { gain = "rally" } ]

[[tokens]]
id = "second_wind"
name = "Second Wind"
kind = "positive"
limit = 1
use = "none"
knocked_out = [ { remove = "second_wind" }, { heal = 4 } ]

[[tokens]]
id = "rally"
name = "Rally"
kind = "positive"
limit = 1
use = "none"
'''
KO_ATTACKS = '''
[[abilities]]
id = "blow"
name = "Blow"
tiers = [ { level = 1, target = "3*b", effects = [ { damage = 5, kind = "undefendable" },
                                                   { damage = 2, kind = "collateral", target = "all_opponents" } ] } ]

[[abilities]]
id = "jab"
name = "Jab"
tiers = [ { level = 1, target = "3*a", effects = [ { damage = 5, kind = "undefendable" } ] } ]

[[abilities]]
id = "finale"
name = "Finale"
ultimate = true
tiers = [ { level = 1, target = "5*d", effects = [ { damage = 8 } ] } ]
'''
BLOW = (B, B, B, C, D)
JAB = (A, A, A, C, D)
FINALE = (D,) * 5
HOLD = ("double",)   # a card in the attacker's hand makes main phase 2 a decision (stop there)


def ko_fixture(tmp_path):
    return fixture(tmp_path, KO_TOKENS + KO_ATTACKS)


def tok(content, S, p, name):
    return seat(S, p, M.P_TOK + content.token_ids[name])


def test_knocked_out_event_sets_health_after_each_damage_that_knocks_out(tmp_path):
    """Blow's 5 undefendable, then its 2 collateral, on the Paladin holding two Last Stands:
    at 6 health the 2 knock him out (the event: a Last Stand spent, health 2, a Rally); at 4
    health the 5 do, then the 2 again (the second Last Stand: 2)."""
    content, tables = ko_fixture(tmp_path)
    for hp, left, stands, runs in ((6, 2, 1, 1), (4, 2, 0, 2)):
        S0 = fixture_position(content, adice=BLOW, attempts=3, hp=(50, hp), hands=(HOLD, ()),
                              toks=({}, {"last_stand": 2}))
        g, S, seen = play_both(S0, content=content, tables=tables)
        assert S[M.O_STEP] == M.ST_MAIN2 and S[M.O_OVER] == 0 and seat(S, 1, M.P_HP) == left
        assert tok(content, S, 1, "last_stand") == stands and tok(content, S, 1, "rally") == 1
        assert seat(S, 1, M.P_SPENDS) == runs and seat(S, 1, M.P_TUSE + content.token_ids["last_stand"]) == runs
        assert seat(S, 0, M.P_DMG + M.SRC_ABILITY) == 7


def test_knocked_out_events_run_in_token_order_while_health_is_0_or_less(tmp_path):
    """Jab's 5 on the Paladin at 1 health: Last Stand (first in token order) brings the health
    to 2, and Second Wind is kept; Second Wind alone heals 4: 1 - 5 + 4 = 0, still knocked out.
    At 0 or less after a heal, the next token's event would run (Last Stand, then Second
    Wind, on Blow's collateral)."""
    content, tables = ko_fixture(tmp_path)
    S0 = fixture_position(content, adice=JAB, attempts=3, hp=(50, 1), hands=(HOLD, ()),
                          toks=({}, {"last_stand": 1, "second_wind": 1}))
    g, S, seen = play_both(S0, content=content, tables=tables)
    assert S[M.O_STEP] == M.ST_MAIN2 and seat(S, 1, M.P_HP) == 2
    assert tok(content, S, 1, "second_wind") == 1 and seat(S, 1, M.P_SPENDS) == 1
    S0[M.O_ADICE:M.O_ADICE + 5] = BLOW        # then the 2 collateral: 0, Second Wind: 4
    g, S, seen = play_both(S0, content=content, tables=tables)
    assert seat(S, 1, M.P_HP) == 4 and tok(content, S, 1, "second_wind") == 0 and seat(S, 1, M.P_SPENDS) == 2
    S0 = fixture_position(content, adice=JAB, attempts=3, hp=(50, 1), hands=(HOLD, ()), toks=({}, {"second_wind": 1}))
    g, S, seen = play_both(S0, content=content, tables=tables)
    assert S[M.O_OVER] == 1 and S[M.O_WINNER] == 0 and seat(S, 1, M.P_HP) <= 0
    assert tok(content, S, 1, "second_wind") == 0 and seat(S, 1, M.P_SPENDS) == 1


@pytest.mark.parametrize("vs_ult", [False, True])
def test_knocked_out_events_answer_an_ultimate_only_by_option(vs_ult):
    """blessing_vs_ultimate decides whether a knocked_out event runs on an ultimate's damage
    (its name stays: Blessing of Divinity is such an event since step 5)."""
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        content, tables = ko_fixture(Path(d))
    rules = M.load_rules(overrides={"may_skip_ability": False, "blessing_vs_ultimate": vs_ult})
    S0 = fixture_position(content, rules=rules, adice=FINALE, attempts=3, hp=(50, 8), hands=(HOLD, ()),
                          toks=({}, {"last_stand": 1}))
    g, S, seen = play_both(S0, rules=rules, content=content, tables=tables)
    if vs_ult:
        assert S[M.O_OVER] == 0 and seat(S, 1, M.P_HP) == 2 and tok(content, S, 1, "last_stand") == 0
    else:
        assert S[M.O_OVER] == 1 and S[M.O_WINNER] == 0 and tok(content, S, 1, "last_stand") == 1


@pytest.mark.parametrize("event,reason", [
    ('[ { damage = 1, target = "self" } ]', "a knocked_out event holds remove, set_hp, heal or gain only"),
    ('[ { heal = 0, per = 1, of = "rally" } ]', "'of' is not allowed in a knocked_out event"),
    ('[ { remove = "negative" } ]', "a knocked_out event names its token"),
    ('[ { set_hp = 0 } ]', "must be >= 1"),
])
def test_knocked_out_events_hold_only_what_runs_inside_the_damage(tmp_path, event, reason):
    body = KO_TOKENS.replace('[ { remove = "second_wind" }, { heal = 4 } ]', event)
    with pytest.raises(PlaytestError, match=reason):
        fixture(tmp_path, body + KO_ATTACKS)


def test_set_hp_belongs_to_a_knocked_out_event(tmp_path):
    body = KO_ATTACKS.replace("{ damage = 8 }", "{ damage = 8 }, { set_hp = 1 }")
    with pytest.raises(PlaytestError, match="set_hp belongs to a token's knocked_out event"):
        fixture(tmp_path, KO_TOKENS + body)


# ------------------------------------------------------------------ the roll_phase_start window
ROLL_TOKENS = '''
[[tokens]]
id = "dazed"
name = "Dazed"
kind = "negative"
limit = 1
use = "data"
spend = [ { when = "roll_phase_start", cost_cp = 3, effects = [] } ]
roll_phase_start = [ { remove = "dazed" }, { skip = "roll_phase" } ]

[[tokens]]
id = "focus"
name = "Focus"
kind = "positive"
limit = 3
use = "data"
spend = [ { when = "roll_phase_start", effects = [ { cp = 1 } ] } ]

[[tokens]]
id = "calm"
name = "Calm"
kind = "positive"
limit = 1
use = "data"
spend = [ { when = "any", effects = [ { cp = 2 } ] } ]
'''
ROLL_ATTACKS = '''
[[abilities]]
id = "hit"
name = "Hit"
tiers = [ { level = 1, target = "3*a", effects = [ { damage = 5 } ] } ]
'''
NO_HIT = (B, C, D, B, C)


def roll_fixture(tmp_path):
    return fixture(tmp_path, ROLL_TOKENS + ROLL_ATTACKS)


def test_paying_at_roll_phase_start_removes_the_token_before_its_event(tmp_path):
    """Dazed (Knockdown's shape at 3 CP): paid, the roll phase is played (its dice rolled);
    passed, its event removes it and skips the phase; with 2 CP there is no decision."""
    content, tables = roll_fixture(tmp_path)
    pay = spend_move(content, "dazed")
    S0 = fixture_position(content, step=M.ST_KNOCK, cp=(3, 0), hands=(HOLD, ()), toks=({"dazed": 1}, {}))
    g, S, seen = play_both(S0, dice=NO_HIT, script=[pay], content=content, tables=tables)
    assert seen == [(M.PH_TOKEN, 0, [M.MV_PASS, pay])]
    assert S[M.O_STEP] == M.ST_ROLL and S[M.O_PHASE] == M.PH_ROLL and list(S[M.O_ADICE:M.O_ADICE + 5]) == list(NO_HIT)
    assert seat(S, 0, M.P_CP) == 0 and tok(content, S, 0, "dazed") == 0
    assert seat(S, 0, M.P_SPENDS) == 1 and seat(S, 0, M.P_TUSE + content.token_ids["dazed"]) == 1
    g, S, seen = play_both(S0, script=[M.MV_PASS], content=content, tables=tables)
    assert S[M.O_STEP] == M.ST_MAIN2 and seat(S, 0, M.P_CP) == 3 and tok(content, S, 0, "dazed") == 0
    assert seat(S, 0, M.P_SPENDS) == 0
    S0 = fixture_position(content, step=M.ST_KNOCK, cp=(2, 0), hands=(HOLD, ()), toks=({"dazed": 1}, {}))
    g, S, seen = play_both(S0, content=content, tables=tables)
    assert seen == [] and S[M.O_STEP] == M.ST_MAIN2 and tok(content, S, 0, "dazed") == 0


def test_roll_phase_start_offers_its_own_entries_again_while_held_and_no_any_entry(tmp_path):
    """Focus (+1 CP) is offered again after each spend while one is held (no repeat there),
    beside Dazed's payment once the CP is there; Calm's any entry is not offered in this
    window (it is in main phase 1, just before). A stunned holder is offered nothing."""
    content, tables = roll_fixture(tmp_path)
    focus, pay = spend_move(content, "focus"), spend_move(content, "dazed")
    S0 = fixture_position(content, step=M.ST_KNOCK, cp=(1, 0), hands=(HOLD, ()),
                          toks=({"dazed": 1, "focus": 2, "calm": 1}, {}))
    g, S, seen = play_both(S0, dice=NO_HIT, script=[focus, focus, pay], content=content, tables=tables)
    assert seen == [(M.PH_TOKEN, 0, [M.MV_PASS, focus])] * 2 + [(M.PH_TOKEN, 0, [M.MV_PASS, pay])]
    assert S[M.O_PHASE] == M.PH_ROLL and seat(S, 0, M.P_CP) == 0 and tok(content, S, 0, "calm") == 1
    S0 = fixture_position(content, step=M.ST_KNOCK, cp=(5, 0), hands=(HOLD, ()),
                          toks=({"dazed": 1, "focus": 2, "stun": 1}, {}))
    g, S, seen = play_both(S0, content=content, tables=tables)
    assert seen == [] and S[M.O_STEP] == M.ST_MAIN2 and tok(content, S, 0, "focus") == 2


def test_a_spend_entry_may_have_no_effects(tmp_path):
    content, tables = roll_fixture(tmp_path)
    dazed = content.tokens[content.token_ids["dazed"]]
    assert dazed.spend[0].effects == [] and dazed.spend[0].cost_cp == 3
    assert [e.op for e in dazed.events["roll_phase_start"]] == [M.OP_REMOVE, M.OP_SKIP]
