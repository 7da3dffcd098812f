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


# ------------------------------------------------------------------ the shipped branch tokens as data
from dicethrone_helpers import (CONTENT, FIRE, MAGMA, PAL, PRAY, PYRO, SPEND, SWORD, position,  # noqa: E402
                                tables_in_order)

HELD = ("double",)


def test_the_shipped_tokens_are_data_and_stun_the_one_branch():
    """TOKEN_USES is none, data and stun; the Paladin's tokens and Knockdown carry their
    numbers in spend entries and events (season1/VOCABULARY.md section 4)."""
    assert M.TOKEN_USES == ("none", "data", "stun")
    tk = {t.id: t for t in CONTENT.tokens}
    assert [t.id for t in CONTENT.tokens if t.use == M.U_STUN] == ["stun"]
    kd = tk["knockdown"].spend[0]
    assert (M.WINDOWS[kd.when], kd.cost_cp, kd.effects) == ("roll_phase_start", 2, [])
    assert [e.op for e in tk["knockdown"].events["roll_phase_start"]] == [M.OP_REMOVE, M.OP_SKIP]
    crit = tk["crit"].spend[0]
    assert (M.WINDOWS[crit.when], crit.at_least, [(e.op, e.n) for e in crit.effects]) == \
        ("attacking", 5, [(M.OP_ADD_DAMAGE, 4)])
    assert [M.WINDOWS[tk[t].spend[0].when] for t in ("protect", "accuracy", "retribution")] == \
        ["attacked", "attack_end", "after_attacked"]
    assert [(e.op, e.n) for e in tk["blessing"].events["knocked_out"]] == [(M.OP_REMOVE, 1), (M.OP_SET_HP, 1)]


def test_knockdown_is_paid_in_the_roll_phase_start_window():
    """The payment is a PH_TOKEN decision at ST_W_ROLL_START (PH_KNOCK before step 5); passing
    leaves Knockdown to its roll_phase_start event, which removes it and skips the phase."""
    S0 = position(step=M.ST_KNOCK, hands=(HELD, ()), cp=(2, 0), tokens=({"knockdown": 1}, {}))
    g, S, seen = play_both(S0, script=[M.MV_PASS])
    assert seen == [(M.PH_TOKEN, 0, [M.MV_PASS, SPEND["knockdown"]])]
    assert S[M.O_STEP] == M.ST_MAIN2 and seat(S, 0, M.P_CP) == 2 and seat(S, 0, M.P_SPENDS) == 0
    assert seat(S, 0, M.P_TOK + CONTENT.token_ids["knockdown"]) == 0


def edited_pair(tmp_path, old, new):
    """(content, tables) of the Pyromancer and a Paladin whose file has ``old`` -> ``new``."""
    d = tmp_path / "heroes"
    d.mkdir(parents=True)
    (d / "pyromancer.toml").write_text((M.HEROES_DIR / "pyromancer.toml").read_text())
    text = (M.HEROES_DIR / "paladin.toml").read_text()
    assert text.count(old) == 1
    (d / "paladin.toml").write_text(text.replace(old, new))
    content, T, _ = tables_in_order((PYRO, PAL), heroes_dir=d)
    return content, M.with_lineup(T, (0, 1))


def test_crits_numbers_are_its_data(tmp_path):
    """Crit at least 9 and +6 (edited in paladin.toml): not offered on Righteous Prayer's 8; at
    least 8: offered, 8 + 6 land."""
    for at_least, hp in ((9, 42), (8, 36)):
        content, tables = edited_pair(tmp_path / str(at_least), "if_attack = { at_least = 5 }, effects = [ { add_damage = 4 } ]",
                                      f"if_attack = {{ at_least = {at_least} }}, effects = [ {{ add_damage = 6 }} ]")
        S0 = position(heroes=(PAL, PYRO), adice=(PRAY, PRAY, PRAY, PRAY, SWORD), hands=(HELD, ()),
                      tokens=({"crit": 1}, {}), content=content)
        crit = spend_move(content, "crit")
        g, S, seen = play_both(S0, dice=(MAGMA,) * 5, script=[crit] if hp == 36 else [], content=content,
                               tables=tables)
        assert [ph for ph, _, _ in seen] == ([M.PH_TOKEN] if hp == 36 else [])
        assert seat(S, 1, M.P_HP) == hp and seat(S, 0, M.P_DMG + M.SRC_TOKEN) == 50 - hp - 8


def test_blessings_health_is_its_data(tmp_path):
    """Blessing of Divinity's set_hp 4 (edited): Fireball's 4 on 3 health leaves 4."""
    content, tables = edited_pair(tmp_path, "{ set_hp = 1 }", "{ set_hp = 4 }")
    S0 = position(adice=(FIRE, FIRE, FIRE, MAGMA, MAGMA), hands=(HELD, ()), hp=(50, 3),
                  tokens=({}, {"blessing": 1}), content=content)
    g, S, seen = play_both(S0, dice=(PRAY, PRAY, PRAY), content=content, tables=tables)
    assert S[M.O_OVER] == 0 and seat(S, 1, M.P_HP) == 4 and seat(S, 1, M.P_SPENDS) == 1


@pytest.mark.parametrize("old,new,reason", [
    ('use = "data"\n# spend when your offensive ability deals', 'use = "crit"\n# spend when your offensive ability deals',
     "use = 'crit' is data since season1 plan step 5"),
    ('use = "data"\n# spend when your offensive ability deals', 'use = "data"\nthreshold = 5\n# spend when',
     "a token's threshold is data since season1 plan step 5: a spend entry's if_attack.at_least"),
])
def test_a_hero_file_of_before_step_5_gets_one_line(tmp_path, old, new, reason):
    with pytest.raises(PlaytestError, match=reason) as e:
        edited_pair(tmp_path, old, new)
    assert "\n" not in str(e.value)


def test_optimal_derives_the_branch_tokens_weights_from_their_data(tmp_path):
    """The weights optimal gave the branch tokens by their use (Crit 2, Protect 2.5, Accuracy
    1.5, Retribution 2, Blessing 5; Knockdown inflicted 3, Stun 4) come from their data now
    (``_derived_weight``: an entry's or event's shape), so their games are unchanged; a token of
    Crit's shape under another name weighs as Crit."""
    from strategies.dicethrone.optimal import _derived_weight, _token_weights

    tk = {t.id: t for t in CONTENT.tokens}
    want = {"crit": 2.0, "protect": 2.5, "accuracy": 1.5, "retribution": 2.0, "blessing": 5.0}
    assert {t: _derived_weight(CONTENT, tk[t]) for t in want} == want
    gw, iw = _token_weights(CONTENT)
    ids = CONTENT.token_ids
    assert {t: gw[ids[t]] for t in want} == want and gw[ids["fire_mastery"]] == 0.8
    assert (iw[ids["knockdown"]], iw[ids["stun"]], iw[ids["burn"]]) == (3.0, 4.0, 4.0)
    body = KO_ATTACKS + '''
[[tokens]]
id = "edge"
name = "Edge"
kind = "positive"
limit = 2
use = "data"
spend = [ { when = "attacking", if_attack = { at_least = 3 }, effects = [ { add_damage = 2 } ] } ]
'''
    content, _ = fixture(tmp_path, body)
    assert _derived_weight(content, content.tokens[content.token_ids["edge"]]) == 2.0


def test_each_window_lists_its_own_spend_entries_in_entry_order():
    """``Tables.sp_at`` (the windows visit their own entries only): for every hero pair, row w
    holds the count and the numbers of the spend entries at moment w, in entry order."""
    for h0 in M.roster():
        for h1 in M.roster():
            T = M.build_tables(M.load_content((h0, h1)))
            for w in range(len(M.WINDOWS)):
                want = [e for e in range(T.sp.shape[0]) if T.sp[e, M.SP_WHEN] == w]
                assert list(T.sp_at[w, 1:1 + T.sp_at[w, 0]]) == want and T.sp_at[w, 0] == len(want), (h0, h1, w)


def test_each_event_moment_lists_the_tokens_with_events_there():
    """``Tables.ev_tok`` (the kernel skips an event moment whose tokens its holder holds
    none of): for every hero pair, bit t of entry m is set exactly when token t has a
    non-empty event list at moment m."""
    for h0 in M.roster():
        for h1 in M.roster():
            T = M.build_tables(M.load_content((h0, h1)))
            for m in range(M.N_EV):
                want = sum(1 << t for t in range(T.n_tok) if T.tok_ev_len[t, m] > 0)
                assert T.ev_tok[m] == want, (h0, h1, M.EVENTS[m])
