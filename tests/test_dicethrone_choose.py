"""Season One plan step 8 (simcore/dicethrone/season1/VOCABULARY.md 5.10, 5.11, 5.5, 3.4):
``choose`` (a queued decision, PH_CHOOSE), the Spirits' token group (``group``,
``grows_into``, ``of = "group:G"``, the group ``spend``, ``grow``/``grow_all`` under the rule
option ``grow_prefers``) and ``block_status``. Each scenario is a fixture hero in a mirror
(both seats the same hero, so the attacker can inflict the fixture's statuses) played
through BOTH engines with forced dice (``dicethrone_helpers.play_both``). On the code
before this step none of the fixtures loads (choose, grow, grow_all, block_status, group
and grows_into were unknown keys)."""
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))
from dicethrone_helpers import play_both, position, scenario_rules, seat  # noqa: E402

from simcore import rng as R  # noqa: E402
from simcore.dicethrone import model as M  # noqa: E402
from simcore.errors import PlaytestError  # noqa: E402

HEAD = '''
name = "Fixture"
faces = ["1:a", "2:a", "3:b", "4:b", "5:c", "6:d"]
dice = 5
'''
A, B, C, D = 0, 2, 4, 5          # a face index showing each symbol
# the defence: 2 dice; "Thick Skin II": on 2 d (the fixture's hearts) block a status
SKIN = '''
[[defences]]
id = "skin"
name = "Skin"
dice = 2
tiers = [ { level = 1, effects = [ { prevent = 0 }, { block_status = 1, if_roll = { d = 2 } } ] } ]
'''


def mirror(tmp_path, body, name="fixture"):
    """Content and tables of the fixture hero alone: both seats play it."""
    d = tmp_path / "heroes"
    d.mkdir(exist_ok=True)
    (d / f"{name}.toml").write_text(HEAD + body + SKIN)
    content = M.load_content(heroes=(name,), heroes_dir=d)
    return content, M.with_lineup(M.build_tables(content), (0, 0))


def at(content, toks=({}, {}), **kw):
    """A position of the mirror; ``toks``: {token id: count} per seat."""
    S = position(heroes=(list(content.heroes)[0],) * 2, content=content, **kw)
    for p in range(2):
        for t, n in toks[p].items():
            S[M.seat_base(p) + M.P_TOK + content.token_ids[t]] = n
    return S


def tk(S, content, p, name):
    return seat(S, p, M.P_TOK + content.token_ids[name])


def spend_move(content, token, n=1, k=0):
    i = 0
    for t in content.tokens:
        for j, _ in enumerate(t.spend):
            if t.id == token and j == k:
                return M.MV_SPEND + i * 16 + n
            i += 1
    raise KeyError(token)


def play(S0, content, tables, dice=(), script=(), rules=None):
    return play_both(S0, dice=dice, script=script, rules=rules, content=content, tables=tables)


# ------------------------------------------------------------------ choose: Meditate (Monk)
MONK = '''
[[tokens]]
id = "chi"
name = "Chi"
kind = "positive"
limit = 5
use = "none"

# Evasive: the generic file's (cards.toml), as every hero's
[[tokens]]
id = "cleanse"
name = "Cleanse"
kind = "positive"
limit = 1
use = "none"

[[abilities]]
id = "meditate"
name = "Meditate"
tiers = [ { level = 1, target = "3*c", effects = [ { gain = "chi", n = 5 }, { choose = [ [ { gain = "evasive" } ], [ { gain = "cleanse" } ] ] } ] } ]
'''


@pytest.mark.parametrize("pick,evasive,cleanse", [(0, 1, 0), (1, 0, 1)])
def test_meditate_picks_evasive_or_cleanse(tmp_path, pick, evasive, cleanse):
    """Monk's Meditate: gain 5 Chi, then Evasive or Cleanse - the attacker's PH_CHOOSE after the
    tier's list (the Chi is already gained when it picks)."""
    content, tables = mirror(tmp_path, MONK)
    S0 = at(content, adice=(C, C, C, A, B), attempts=3)
    g, S, seen = play(S0, content, tables, script=[M.MV_PICK + pick])
    assert seen[0] == (M.PH_CHOOSE, 0, [M.MV_PICK, M.MV_PICK + 1])
    assert M.PHASE_NAMES[M.PH_CHOOSE] == "choose"
    assert (tk(S, content, 0, "chi"), tk(S, content, 0, "evasive"), tk(S, content, 0, "cleanse")) == (5, evasive, cleanse)
    assert S[M.O_CHOOSE_N] == 0 and S[M.O_ACTIVE] == 1      # the turn went on to the other seat


# ------------------------------------------------------------------ choose in a spend's roll: Ninjutsu (Ninja)
NINJA = '''
[[tokens]]
id = "delayed_poison"
name = "Delayed Poison"
kind = "negative"
limit = 2
use = "none"

[[tokens]]
id = "ninjutsu"
name = "Ninjutsu"
kind = "positive"
limit = 3
use = "data"
spend = [ { when = "attack_end", max = 1, repeat = true, effects = [ { roll = 1, on = { "1" = [ { add_damage = 1 } ], "2" = [ { add_damage = 1 } ], "3" = [ { add_damage = 1 } ], "4" = [ { add_damage = 2 } ], "5" = [ { add_damage = 2 } ], "6" = [ { choose = [ [ { add_damage = 2 } ], [ { inflict = "delayed_poison" } ], [ { undefendable = 1 } ] ] } ] } } ] } ]

[[abilities]]
id = "strike"
name = "Strike"
tiers = [ { level = 1, target = "3*a", effects = [ { damage = 5 } ] } ]
'''


@pytest.mark.parametrize("pick,hp,defended,poison", [(0, 43, 1, 0), (1, 45, 1, 1), (2, 45, 0, 0)])
def test_ninjutsu_6_picks_before_the_defence(tmp_path, pick, hp, defended, poison):
    """Ninjutsu's 6: +2 damage, Delayed Poison or undefendable, picked inside the attack_end
    window (before the window is offered again), so the undefendable pick binds the defence
    (no defensive roll). The defence die (a "3") does nothing."""
    content, tables = mirror(tmp_path, NINJA)
    nj = spend_move(content, "ninjutsu")
    S0 = at(content, adice=(A, A, A, B, C), attempts=3, toks=({"ninjutsu": 2}, {}))
    g, S, seen = play(S0, content, tables, dice=(5, B, B), script=[nj, M.MV_PICK + pick, M.MV_PASS])
    assert seen == [(M.PH_TOKEN, 0, [M.MV_PASS, nj]), (M.PH_CHOOSE, 0, [M.MV_PICK + k for k in range(3)]),
                    (M.PH_TOKEN, 0, [M.MV_PASS, nj])]
    assert seat(S, 1, M.P_HP) == hp and S[M.O_DEFENDED] == defended
    assert tk(S, content, 1, "delayed_poison") == poison and tk(S, content, 0, "ninjutsu") == 1
    assert seat(S, 0, M.P_DMG + M.SRC_TOKEN) == (2 if pick == 0 else 0)


# ------------------------------------------------------------------ the Spirits (Treant)
SPIRITS = '''
[[tokens]]
id = "seedling"
name = "Seedling Spirit"
kind = "companion"
limit = 3
group = "spirit"
grows_into = "sapling"
use = "none"

[[tokens]]
id = "sapling"
name = "Sapling Spirit"
kind = "companion"
limit = 2
group = "spirit"
grows_into = "dryad"
use = "none"

[[tokens]]
id = "dryad"
name = "Dryad Spirit"
kind = "companion"
limit = 1
group = "spirit"
use = "data"
spend = [
  { when = "attacking", max = 1, once_per_turn = true, effects = [ { add_damage = 3 } ] },
  { when = "defending", max = 1, once_per_turn = true, if_attack = { inflicts = true }, effects = [ { block_status = 1 } ] },
]

[[tokens]]
id = "concussion"
name = "Concussion"
kind = "negative"
limit = 1
use = "none"
income = [ { remove = "concussion" }, { skip = "income" } ]

[[abilities]]
id = "plant"
name = "Plant"
tiers = [ { level = 1, target = "3*c", effects = [ { grow = 6 } ] } ]

[[abilities]]
id = "sprout"
name = "Sprout"
tiers = [ { level = 1, target = "3*d", effects = [ { grow = 1 } ] } ]

[[abilities]]
id = "natures_grasp"
name = "Nature's Grasp"
tiers = [ { level = 1, target = "3*b", effects = [ { grow = 2 }, { damage = 5, per = 1, of = "group:spirit", kind = "undefendable" } ] } ]

[[abilities]]
id = "bitterroot"
name = "Bitterroot"
tiers = [ { level = 1, target = "3*a", effects = [ { damage = 0, per = 1, of = "group:spirit", kind = "pure" } ] } ]

[[abilities]]
id = "kick"
name = "Kick"
tiers = [ { level = 1, target = "2*a+2*b", effects = [ { damage = 3 }, { inflict = "knockdown" } ] } ]

[[abilities]]
id = "bash"
name = "Bash"
tiers = [ { level = 1, target = "2*c+2*d", effects = [ { damage = 3 }, { inflict = "concussion" } ] } ]

[[abilities]]
id = "harvest"
name = "Harvest"
tiers = [ { level = 1, target = "small-straight", effects = [ { spend = "group:spirit", up_to = 3 }, { cp = 0, per = 1, of = "spent" } ] } ]

[[cards]]
id = "down_pour"
name = "Down Pour!"
cost = 2
phase = "main"
copies = 1
effects = [ { grow_all = 1 } ]
'''
SPIRIT = ("seedling", "sapling", "dryad")


def spirits(S, content, p=0):
    return tuple(tk(S, content, p, t) for t in SPIRIT)


def start(held):
    return ({t: n for t, n in zip(SPIRIT, held)}, {})


@pytest.mark.parametrize("prefers,held,dice,after", [
    ("upgrade", (0, 0, 0), (C, C, C, A, B), (1, 1, 1)),     # plant: grow 6
    ("new", (0, 0, 0), (C, C, C, A, B), (3, 0, 1)),
    ("upgrade", (3, 2, 1), (D, D, D, A, B), (3, 2, 1)),     # sprout: grow 1, all full: lost
    ("new", (3, 2, 1), (D, D, D, A, B), (3, 2, 1)),
    ("upgrade", (3, 0, 0), (D, D, D, A, B), (2, 1, 0)),     # a 4th Seedling: one grows instead
    ("new", (3, 0, 0), (D, D, D, A, B), (2, 1, 0)),
    ("upgrade", (1, 1, 0), (D, D, D, A, B), (1, 0, 1)),     # the highest first
    ("new", (1, 1, 0), (D, D, D, A, B), (2, 1, 0)),         # a new Seedling first
])
def test_the_grow_ladder_within_the_limits(tmp_path, prefers, held, dice, after):
    """grow = N resolves at once, one grow at a time, by the rule grow_prefers: "upgrade" turns
    the highest Spirit that can grow into the next (else gains a Seedling), "new" gains a
    Seedling while below 3 (else upgrades); the limits are 3/2/1 and a grow that fits nowhere
    is lost. Grow 6 from none: upgrade 1 -> (0,1,0) -> (0,0,1) -> (1,0,1) -> (0,1,1) -> (1,1,1);
    new (1,0,0) .. (3,0,0) -> (2,1,0) -> (3,1,0) -> (3,0,1)."""
    content, tables = mirror(tmp_path, SPIRITS)
    rules = scenario_rules(grow_prefers=prefers)
    S0 = at(content, rules=rules, adice=dice, attempts=3, toks=start(held))
    g, S, seen = play(S0, content, tables, rules=rules)
    assert seat(S, 0, M.P_ATTACKS) == 1 and spirits(S, content) == after
    assert S[M.O_ACTIVE] == 1


def test_grow_prefers_is_validated():
    with pytest.raises(PlaytestError, match="grow_prefers: must be one of upgrade, new"):
        M.load_rules(overrides={"grow_prefers": "newest"})
    assert M.rules_vector(M.load_rules(overrides={"grow_prefers": "new"}))[M.R_GROW_NEW] == 1


@pytest.mark.parametrize("prefers,held,hp", [("new", (1, 0, 0), 42), ("upgrade", (1, 0, 0), 44)])
def test_natures_grasp_counts_the_spirits_after_its_grows(tmp_path, prefers, held, hp):
    """Nature's Grasp: grow 2, then 5 undefendable + 1 per Spirit, counted after the grows:
    under "new" 1 -> 3 Seedlings (8 damage; before the grows it would be 6), under "upgrade"
    (1,0,0) -> (0,1,0) -> (0,0,1): one Spirit (6), the Dryad, whose +3 (attacking) is passed."""
    content, tables = mirror(tmp_path, SPIRITS)
    rules = scenario_rules(grow_prefers=prefers)
    S0 = at(content, rules=rules, adice=(B, B, B, A, C), attempts=3, toks=start(held))
    script = [M.MV_PASS] if prefers == "upgrade" else []
    g, S, seen = play(S0, content, tables, rules=rules, script=script)
    assert seen == ([(M.PH_TOKEN, 0, [M.MV_PASS, spend_move(content, "dryad")])] if script else [])
    assert seat(S, 1, M.P_HP) == hp and S[M.O_DEFENDED] == 0 and S[M.O_ACTIVE] == 1


def test_bitterroot_deals_1_per_spirit(tmp_path):
    content, tables = mirror(tmp_path, SPIRITS)
    for held, hp in (((1, 1, 1), 47), ((3, 2, 0), 45), ((0, 0, 0), 50)):
        S0 = at(content, adice=(A, A, A, B, C), attempts=3, toks=start(held))
        g, S, seen = play(S0, content, tables, script=[M.MV_PASS] if held[2] else [])   # the Dryad's +3: no
        assert seat(S, 1, M.P_HP) == hp and spirits(S, content) == held


def test_a_group_spend_takes_the_lowest_rung_first(tmp_path):
    """Harvest-like: spend up to 3 Spirits (Seedlings, then Saplings, then the Dryad) and gain
    1 CP per Spirit spent."""
    content, tables = mirror(tmp_path, SPIRITS)
    for held, after, cp in (((1, 2, 1), (0, 0, 1), 3), ((0, 1, 1), (0, 0, 0), 2)):
        S0 = at(content, adice=(1, 2, 3, 4, 5), attempts=3, toks=start(held))      # 2-6: a small straight
        g, S, seen = play(S0, content, tables)
        assert spirits(S, content) == after and seat(S, 0, M.P_CP) == cp


@pytest.mark.parametrize("held,after", [((2, 2, 0), (1, 2, 1)), ((3, 1, 0), (1, 2, 1)), ((1, 0, 1), (0, 1, 1))])
def test_down_pour_grows_every_spirit_highest_first(tmp_path, held, after):
    """Down Pour!: every Spirit held grows once, the highest rung first, so the most fits:
    (2,2,0): a Sapling becomes the Dryad (the other has no room), then a Seedling the freed
    Sapling: (1,2,1); lowest first would have left (2,1,1)."""
    content, tables = mirror(tmp_path, SPIRITS)
    S0 = at(content, step=M.ST_MAIN1, cp=(2, 0), toks=start(held))
    b = M.seat_base(0)
    S0[b + M.P_HAND] = [c.id for c in content.cards].index("down_pour")
    S0[b + M.P_HAND_N] = 1
    g, S, seen = play(S0, content, tables, script=[M.MV_PLAY])
    assert spirits(S, content) == after and seat(S, 0, M.P_CP) == 0


# ------------------------------------------------------------------ block_status
KICK = (A, A, B, B, C)      # Kick: 3 damage and Knockdown
BASH = (C, C, D, D, A)      # Bash: 3 damage and Concussion


@pytest.mark.parametrize("spend", [True, False])
def test_the_dryad_blocks_knockdown(tmp_path, spend):
    """The Dryad's defending spend (offered only against a tier that inflicts a status) blocks
    the Knockdown the Kick inflicts; the block lapses with the attack."""
    content, tables = mirror(tmp_path, SPIRITS)
    dry = spend_move(content, "dryad", k=1)
    S0 = at(content, adice=KICK, attempts=3, toks=({}, {"dryad": 1}))
    g, S, seen = play(S0, content, tables, dice=(A, B), script=[dry if spend else M.MV_PASS])
    assert seen[0] == (M.PH_TOKEN, 1, [M.MV_PASS, dry])
    assert tk(S, content, 1, "knockdown") == (0 if spend else 1) and tk(S, content, 1, "dryad") == (0 if spend else 1)
    assert seat(S, 1, M.P_HP) == 47 and seat(S, 1, M.P_BLOCK) == 0
    # not offered against a tier that inflicts nothing (Bitterroot)
    S0 = at(content, adice=(A, A, A, B, C), attempts=3, toks=({"seedling": 1}, {"dryad": 1}))
    g, S, seen = play(S0, content, tables, dice=(A, B))
    assert all(ph != M.PH_TOKEN for ph, _, _ in seen) and seat(S, 1, M.P_HP) == 49


@pytest.mark.parametrize("dice,concussion", [((D, D), 0), ((D, C), 1)])
def test_thick_skin_with_2_hearts_blocks_concussion(tmp_path, dice, concussion):
    """Thick Skin II: { block_status = 1, if_roll = { heart = 2 } } on the defence; the
    fixture's d stands for the heart."""
    content, tables = mirror(tmp_path, SPIRITS)
    S0 = at(content, adice=BASH, attempts=3)
    g, S, seen = play(S0, content, tables, dice=dice)
    assert seat(S, 1, M.P_HP) == 47 and seat(S, 1, M.P_BLOCK) == 0
    # the play went on into the defender's turn: a Concussion held skipped its income (no card
    # drawn: no main-phase decision, on to its roll), and is gone
    assert S[M.O_ACTIVE] == 1 and tk(S, content, 1, "concussion") == 0
    assert (seat(S, 1, M.P_HAND_N), S[M.O_PHASE]) == ((0, M.PH_ROLL) if concussion else (1, M.PH_MAIN))


# ------------------------------------------------------------------ the loader
@pytest.mark.parametrize("body,old,new,reason", [
    (MONK, '{ choose = [ [ { gain = "evasive" } ], [ { gain = "cleanse" } ] ] }', '{ choose = [ [ { gain = "evasive" } ] ] }',
     "choose is a list of 2..6 alternatives"),
    (MONK, '[ { gain = "cleanse" } ] ] }', '[ { gain = "cleanse", if_roll = { c = 1 } } ] ] }', "if_roll reads the roll"),
    (MONK, '[ { gain = "cleanse" } ] ] }', '[ { roll = 1, on = { c = [ { cp = 1 } ] } } ] ] }',
     "roll cannot stand inside a choose"),
    (NINJA, '{ roll = 1, on', '{ choose = [ [ { cp = 1 } ], [ { cp = 2 } ] ] }, { roll = 1, on',
     None),      # loads: a choose and a roll's 6 queue two at most
    (NINJA, 'max = 1, repeat', 'max = 3, repeat', None),
    (NINJA, 'limit = 3\nuse = "data"', 'limit = 5\nuse = "data"', None),
    (SPIRITS, 'grows_into = "dryad"', 'grows_into = "seedling"', "one ladder"),
    (SPIRITS, 'grows_into = "dryad"', 'grows_into = "concussion"', "another group"),
    (SPIRITS, 'group = "spirit"\ngrows_into = "sapling"', 'group = "ghost"\ngrows_into = "sapling"', "another group"),
    (SPIRITS, 'of = "group:spirit", kind = "pure"', 'of = "group:ghost", kind = "pure"', "unknown token group 'ghost'"),
    (SPIRITS, '{ damage = 3 }, { inflict = "concussion" }', '{ damage = 3 }, { block_status = 1 }',
     "block_status belongs to a defence tier or a token's defending spend"),
])
def test_the_loader_checks_choose_groups_and_block_status(tmp_path, body, old, new, reason):
    assert old in body
    if reason is None:
        mirror(tmp_path, body.replace(old, new, 1))
        return
    with pytest.raises(PlaytestError, match=reason):
        mirror(tmp_path, body.replace(old, new, 1))


def test_a_spend_that_could_queue_too_many_choices_is_refused(tmp_path):
    body = NINJA.replace('"1" = [ { add_damage = 1 } ]', '"1" = [ { choose = [ [ { cp = 1 } ], [ { cp = 2 } ] ] } ]')
    mirror(tmp_path, body)          # max 1: one die, one choice
    mirror(tmp_path, body.replace("max = 1, repeat", 'max = "all", repeat'))    # 3 tokens: 3 dice, 3 choices
    with pytest.raises(PlaytestError, match="more than 4 choices"):
        mirror(tmp_path, body.replace("max = 1, repeat", 'max = "all", repeat').replace("limit = 3\nuse = \"data\"",
                                                                                    "limit = 5\nuse = \"data\""))


# ------------------------------------------------------------------ strategies
def test_the_strategies_pick_the_most_valuable_alternative(tmp_path):
    """greedy (``model._effect_value``) and optimal (``optimal.effect_value``) take Ninjutsu's
    +2 damage over Delayed Poison and undefendable; search decides the pick (its rollouts
    start with each alternative) without failing."""
    from strategies.dicethrone.basic import greedy_decide
    from strategies.dicethrone.bind import full_data
    from strategies.dicethrone.optimal import optimal_decide
    from strategies.dicethrone.search import search_decide
    content, tables = mirror(tmp_path, NINJA)
    nj = spend_move(content, "ninjutsu")
    S0 = at(content, adice=(A, A, A, B, C), attempts=3, toks=({"ninjutsu": 2}, {}))
    g, S, seen = play(S0, content, tables, dice=(5,), script=[nj])
    assert S[M.O_PHASE] == M.PH_CHOOSE
    data = full_data(content, tables)
    moves = np.array([M.MV_PICK + k for k in range(3)] + [0] * (M.MAX_MOVES - 3), np.int64)
    rv = M.rules_vector(scenario_rules())
    srng = R.new_state(1, 0, M.STRATEGY_DOMAIN)
    assert greedy_decide(M.PH_CHOOSE, S, moves, 3, rv, data, srng) == 0
    assert optimal_decide(M.PH_CHOOSE, S, moves, 3, rv, data, srng) == 0
    # search: every pick a candidate, rollouts from the pick (the +2 wins them here too)
    assert search_decide(M.PH_CHOOSE, S, moves, 3, rv, data, srng) in (0, 1, 2)


# ------------------------------------------------------------------ whole games
def test_games_with_choices_and_spirits_match_between_engines(tmp_path):
    """Whole games of a Spirits hero whose Plant is a choose (grow 2 Spirits or gain 2 CP)
    against the Paladin, every built-in but search (its own test file covers it) in a seat:
    the kernel and the reference engine agree game for game, greedy's games end by knock-outs
    (no built-in stalls on a pick), and Plant's pick happens."""
    from strategies.dicethrone.bind import default_roster, play_range
    from test_dicethrone_twins import assert_same
    d = tmp_path / "heroes"
    d.mkdir()
    (d / "paladin.toml").write_text((M.HEROES_DIR / "paladin.toml").read_text())
    body = SPIRITS.replace('effects = [ { grow = 6 } ]', 'effects = [ { choose = [ [ { grow = 2 } ], [ { cp = 2 } ] ] } ]')
    (d / "sylvan.toml").write_text(HEAD + body + SKIN)
    roster = default_roster(str(d))
    for strategies in (("greedy", "greedy"), ("random", "random"), ("optimal", "random")):
        k = play_range(0, 12, 3, ("sylvan", "paladin"), strategies, roster=roster, keep_states=True)
        r = play_range(0, 12, 3, ("sylvan", "paladin"), strategies, roster=roster, engine="reference",
                       keep_states=True)
        assert_same(k, r)
        assert (k["winner"] >= 0).any()
        if "random" not in strategies:     # random play of a weak fixture may reach the turn cap
            assert k["capped"].sum() == 0 and k["uses0_0"].sum() > 0      # Plant (its choose) was activated
