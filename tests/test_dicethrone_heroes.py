"""The signature ability of each Season One hero that joined heroes/ after the branches
merged (plan step 10): the Barbarian's Overpower, the Monk's Tempest Rush, the Ninja's Death
Blossom and the Treant's Tend, each activated on forced dice against the Paladin and played
through BOTH engines (``dicethrone_helpers.play_both`` holds kernel and reference equal at
every step), with the shipped hero files as they are. Before the merge none of these files
loaded (their constructs were unknown)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from dicethrone_helpers import PRAY, play_both, position, seat, tables_in_order  # noqa: E402

from simcore.dicethrone import model as M  # noqa: E402

HAND = (("get_away",), ())   # a main-phase card: the hero's main phase 2 is a decision, so play stops there


def attack(hero, ability, adice, dice, cp=(0, 2), tokens=({}, {}), level=1):
    """``hero`` (seat 0, its ``ability`` at ``level``) rolled ``adice`` with no attempt left;
    the forced stream ``dice`` (the Paladin's defence dice first, then the ability's); every
    decision on the way takes the ability when offered, else passes. Returns the content and
    the kernel's state at the hero's main phase 2."""
    content, tables = tables_in_order((hero, "paladin"))[:2]
    H = content.heroes[hero]
    a = [x.id for x in H.abilities].index(ability)
    S0 = position(heroes=(hero, "paladin"), content=content, adice=adice, attempts=3, cp=cp, hands=HAND,
                  tokens=tokens)
    S0[M.seat_base(0) + M.P_LVL + a] = level
    script = []
    for _ in range(12):   # learn the decisions on the way: the ability when offered, else pass
        g, S, seen = play_both(S0, dice=dice, script=list(script), content=content, tables=tables)
        if S[M.O_ACTIVE] == 0 and S[M.O_STEP] == M.ST_MAIN2:
            break
        phase, mv = int(S[M.O_PHASE]), g.advance()
        pick = [m for m in mv if M.MV_ABILITY <= m < M.MV_ABILITY + 16 * M.MAX_AB and (m - M.MV_ABILITY) // 16 == a]
        script.append(pick[-1] if phase == M.PH_ABILITY and pick else M.MV_PASS)
    assert S[M.O_ACTIVE] == 0 and S[M.O_STEP] == M.ST_MAIN2, "the attack did not finish"
    assert seat(S, 0, M.P_USES + a) == 1, f"{ability} was not used"
    return content, S


def tok(content, S, p, name):
    return seat(S, p, M.P_TOK + content.token_ids[name])


def test_barbarian_overpower_deals_the_sum_and_concusses_at_14():
    """Overpower I (3 swords + 2 strength): roll 3 dice, deal their face sum; Concussion at a
    sum of 14 or more. The Paladin defends with 3 prays (no damage back, +3 CP)."""
    for bonus, expect, concussed in (((5, 4, 3), 15, 1), ((0, 1, 2), 6, 0)):
        content, S = attack("barbarian", "overpower", (0, 1, 2, 5, 5), (PRAY, PRAY, PRAY) + bonus)
        assert seat(S, 1, M.P_HP) == 50 - expect
        assert tok(content, S, 1, "concussion") == concussed


def test_monk_tempest_rush_deals_the_sum_and_knocks_down_at_13():
    """Tempest Rush I (3 palms): roll 3 dice, deal their face sum; Knockdown at 13 or more."""
    for bonus, expect, down in (((5, 5, 0), 13, 1), ((0, 0, 1), 4, 0)):
        content, S = attack("monk", "tempest_rush", (2, 2, 2, 0, 3), (PRAY, PRAY, PRAY) + bonus)
        assert seat(S, 1, M.P_HP) == 50 - expect
        assert tok(content, S, 1, "knockdown") == down


def test_ninja_death_blossom_is_undefendable_on_a_mask():
    """Death Blossom I (3 ninjato + 2 shuriken): before the defence, roll 5 dice: 1 damage a
    ninjato, 2 a shuriken; a mask makes the attack undefendable (no defensive roll). Without a
    mask the Paladin rolls its defence (3 prays: no damage back)."""
    # with a mask: 2 ninjato (2) + 2 shuriken (4) = 6, no defence dice drawn
    content, S = attack("ninja", "death_blossom", (0, 1, 2, 3, 4), (0, 1, 3, 4, 5))
    assert seat(S, 1, M.P_HP) == 50 - 6 and seat(S, 1, M.P_CP) == 2
    # no mask: 3 ninjato + 2 shuriken = 7; then the defence's 3 prays give the Paladin 3 CP
    content, S = attack("ninja", "death_blossom", (0, 1, 2, 3, 4), (0, 1, 2, 3, 4, PRAY, PRAY, PRAY))
    assert seat(S, 1, M.P_HP) == 50 - 7 and seat(S, 1, M.P_CP) == 2 + 3


def test_treant_tend_grows_spirits_and_binds_a_vine():
    """Tend I (2 leaves + 2 spirits): draw 1, grow 3 (under grow_prefers = "upgrade": a
    Seedling, then it grows into a Sapling, then a new Seedling), gain Wellspring, inflict
    Barbed Vine. It deals no damage."""
    content, S = attack("treant", "tend", (3, 4, 5, 5, 0), ())
    spirits = {t: tok(content, S, 0, t) for t in ("seedling", "sapling", "dryad")}
    assert sum(spirits.values()) >= 1 and spirits["dryad"] + spirits["sapling"] >= 1
    assert tok(content, S, 0, "wellspring") == 1 and tok(content, S, 1, "barbed_vine") == 1
    assert seat(S, 1, M.P_HP) == 50
