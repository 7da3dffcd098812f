"""Dice Throne ``optimal`` and ``search``: optimal's choices on hand-made positions (best
keep, stop, ability tier, a die card and its use), greedy's (and so optimal's) reroll of
Pyroblast III's bonus dice, and search at a tiny budget is legal, deterministic for a seed
and played identically by both engines."""
import numpy as np
import pytest

from simcore.dicethrone import model as M
from strategies.dicethrone.bind import play_range
from strategies.dicethrone.basic import bonus_values, greedy_decide
from strategies.dicethrone.optimal import optimal_decide

from dicethrone_helpers import tables_in_order  # noqa: E402

CONTENT, TABLES, DATA = tables_in_order(("pyromancer", "paladin"))
RULES = M.rules_vector(M.load_rules())
FM = CONTENT.token_ids["fire_mastery"]
RNG = np.zeros(2, np.uint64)


def position(dice, attempts=1, fire_mastery=0, cp=2, hand=()):
    """The Pyromancer (seat 0) in its offensive roll against the Paladin."""
    S = np.zeros(M.S_LEN, np.int64)
    S[M.O_NSEATS], S[M.O_TARGET], S[M.O_ALIVE] = 2, 1, 3      # seat 0's attack goes to seat 1
    S[M.O_ORDER:M.O_ORDER + 2] = (0, 1)
    for p, h in enumerate((0, 1)):
        b = M.seat_base(p)
        S[b + M.P_TEAM] = p
        S[b + M.P_HERO] = h
        S[b + M.P_HP] = 50
        for a in range(TABLES.n_ab[h]):
            S[b + M.P_LVL + a] = 1
        S[b + M.P_HAND:b + M.P_HAND + M.MAX_HAND] = M.NONE
    b = M.seat_base(0)
    S[b + M.P_CP] = cp
    S[b + M.P_TOK + FM] = fire_mastery
    S[b + M.P_HAND_N] = len(hand)
    for i, c in enumerate(hand):
        S[b + M.P_HAND + i] = c
    S[M.O_ADICE:M.O_ADICE + 5] = dice
    S[M.O_ATTEMPTS] = attempts
    S[M.O_MAX_ATT] = 3
    S[M.O_ROLL_WHO] = 1
    S[M.O_STEP] = M.ST_ROLL
    return S


def roll_moves(attempts, cards=0):
    mv = [M.MV_PASS] + ([M.MV_REROLL + m for m in range(31)] if attempts < 3 else [])
    mv += [M.MV_PLAY + h for h in range(cards)]
    out = np.zeros(M.MAX_MOVES, np.int64)
    out[:len(mv)] = mv
    return out, len(mv)


def decide(phase, S, moves, n):
    return int(optimal_decide(phase, S, moves, n, RULES, DATA, RNG))


@pytest.mark.parametrize("dice,attempts,expect", [
    ([0, 1, 2, 3, 4], 1, M.MV_PASS),                  # faces 1-5: Ignite (large straight) made: stop
    ([5, 5, 5, 5, 0], 2, M.MV_REROLL + 0b01111),      # 4 meteors: keep them, reroll the fire for the ultimate
    ([5, 5, 5, 0, 1], 1, M.MV_REROLL + 0b00111),      # 3 meteors and 2 fire: keep the meteors
    ([0, 0, 0, 0, 0], 1, M.MV_PASS),                  # 5 fire: Fireball's top tier made: stop
])
def test_optimal_keeps_the_best_dice(dice, attempts, expect):
    moves, n = roll_moves(attempts)
    k = decide(M.PH_ROLL, position(dice, attempts), moves, n)
    assert moves[k] == expect


def test_optimal_takes_the_best_tier():
    S = position([0, 1, 2, 0, 1], 3)                  # five fire: every Fireball tier is met
    moves = np.zeros(M.MAX_MOVES, np.int64)
    moves[:3] = [M.MV_ABILITY + t for t in range(3)]
    assert decide(M.PH_ABILITY, S, moves, 3) == 2     # 5 fire: 8 damage


def test_optimal_plays_a_die_card_where_it_pays_and_uses_it_well():
    surprise = next(i for i, c in enumerate(CONTENT.cards) if c.id == "surprise")   # set a die to any face, 2 CP
    moves, n = roll_moves(3, cards=1)
    S = position([5, 5, 5, 5, 0], 3, cp=2, hand=(surprise,))
    assert moves[decide(M.PH_ROLL, S, moves, n)] == M.MV_PLAY      # the fifth meteor: the ultimate
    S2 = position([0, 1, 2, 3, 5], 3, cp=2, hand=(surprise,))     # 1,2,3,4,6: not worth a card
    assert moves[decide(M.PH_ROLL, S2, moves, n)] == M.MV_PASS
    # the die decision after the card: the fire die (die 4) set to face 6 (meteor)
    S[M.O_PEND_OP] = M.OP_SET_DIE
    dm = np.zeros(M.MAX_MOVES, np.int64)
    opts = [M.MV_DIE + i * 8 + f for i in range(5) for f in range(1, 7)]
    dm[:len(opts)] = opts
    assert dm[decide(M.PH_DIE, S, dm, len(opts))] == M.MV_DIE + 4 * 8 + 6


def _cid(cid):
    return next(i for i, c in enumerate(CONTENT.cards) if c.id == cid)


def _die_moves(S):
    """The kernel's die moves for the pending die effect of position ``S``."""
    from simcore.dicethrone.kernel import die_moves_nb

    dm = np.zeros(M.MAX_MOVES, np.int64)
    return dm, int(die_moves_nb(S, dm))


def test_optimal_plays_me_too_and_copies_the_right_die():
    """Me Too (set a die to a face another die shows, 1 CP): four meteors and a fire after
    the last attempt -> play it and copy a meteor onto the fire die (before: Me Too was
    never played, and its die choice was read as a +-1 move)."""
    moves, n = roll_moves(3, cards=1)
    S = position([5, 5, 5, 5, 0], 3, cp=1, hand=(_cid("me_too"),))
    assert moves[decide(M.PH_ROLL, S, moves, n)] == M.MV_PLAY
    S[M.O_PEND_OP], S[M.O_PEND_N] = M.OP_COPY_DIE, 1
    dm, k = _die_moves(S)
    assert dm[decide(M.PH_DIE, S, dm, k)] == M.MV_DIE + 4 * 8 + 6     # die 4 becomes face 6 (meteor)
    # a fire die can only copy a face shown: with no meteor showing, no meteor to make
    S2 = position([0, 0, 0, 3, 4], 3, cp=1, hand=(_cid("me_too"),))
    S2[M.O_PEND_OP], S2[M.O_PEND_N] = M.OP_COPY_DIE, 1
    dm2, k2 = _die_moves(S2)
    assert all((m - M.MV_DIE) % 8 - 1 in (0, 3, 4) for m in dm2[:k2])


def test_optimal_plays_i_can_again_after_the_last_attempt():
    moves, n = roll_moves(3, cards=1)
    S = position([5, 5, 5, 0, 1], 3, cp=1, hand=(_cid("i_can_again"),))   # three meteors, no attempt left
    assert moves[decide(M.PH_ROLL, S, moves, n)] == M.MV_PLAY


def test_worthy_of_me_rerolls_twice_in_a_row():
    """The played reading: reroll 1 die, then (after seeing it) 1 die again or stop."""
    S = position([5, 5, 5, 5, 0], 3, cp=1, hand=(_cid("worthy_of_me"),))
    S[M.O_PEND_OP], S[M.O_PEND_N], S[M.O_PEND_ARG] = M.OP_REROLL, 1, 2
    dm, k = _die_moves(S)
    assert dm[k - 1] == M.MV_DIE and sorted(dm[:k - 1] - M.MV_DIE) == [1, 2, 4, 8, 16]   # stop listed last
    assert dm[decide(M.PH_DIE, S, dm, k)] == M.MV_DIE + 0b10000            # reroll the fire die
    S[M.O_ADICE + 4] = 5                                                   # it came up a meteor: stop
    S[M.O_PEND_ARG] = 1
    dm, k = _die_moves(S)
    assert dm[decide(M.PH_DIE, S, dm, k)] == M.MV_DIE


def test_optimal_values_fire_mastery():
    """With Fire Mastery to spend, a Combustion shape is worth chasing; without, not."""
    moves, n = roll_moves(1)
    k0 = decide(M.PH_ROLL, position([0, 0, 3, 3, 4], 1, fire_mastery=0), moves, n)
    k4 = decide(M.PH_ROLL, position([0, 0, 3, 3, 4], 1, fire_mastery=4), moves, n)
    assert moves[k0] == M.MV_REROLL + 0b00011          # two fire kept: Fireball
    assert moves[k4] != moves[k0]


@pytest.mark.parametrize("heroes", [("pyromancer", "pyromancer"), ("paladin", "paladin")])
def test_search_tiny_budget_is_legal_deterministic_and_twinned(heroes):
    a = play_range(0, 2, 4, heroes, ("search", "greedy"), search_budget=1, search_horizon=1, keep_states=True)
    b = play_range(0, 2, 4, heroes, ("search", "greedy"), search_budget=1, search_horizon=1, keep_states=True)
    r = play_range(0, 2, 4, heroes, ("search", "greedy"), engine="reference", search_budget=1, search_horizon=1,
                   keep_states=True)
    for f in M.RECORD_FIELDS:
        assert np.array_equal(a[f], b[f]) and np.array_equal(a[f], r[f]), f
    assert np.array_equal(a["final_state"], r["final_state"])
    # every game ends by the rules (a win or a draw when both fall at once), none by the cap
    assert (a["capped"] == 0).all() and np.isin(a["winner"], (-1, 0, 1)).all()


def pyroblast_bonus(faces):
    """The Pyromancer's Pyroblast III has landed: its 2 bonus dice show ``faces`` and wait
    for the attacker's reroll (at most 1 die); the legal moves as the kernel lists them."""
    S = position([0, 0, 0, 0, 0])
    pyro = CONTENT.heroes["pyromancer"]
    a = [ab.id for ab in pyro.abilities].index("pyroblast")
    t = [tier.level for tier in pyro.abilities[a].tiers].index(3)
    S[M.O_AB], S[M.O_TIER] = a, t
    S[M.O_BONUS_N] = len(faces)
    S[M.O_BDICE:M.O_BDICE + len(faces)] = faces
    moves = np.zeros(M.MAX_MOVES, np.int64)
    moves[:3] = (M.MV_PASS, M.MV_DIE + 1, M.MV_DIE + 2)
    return S, moves, a, t


def test_greedy_rerolls_a_pyroblast_iii_bonus_die_worth_less_than_a_fresh_one():
    pyro = CONTENT.heroes["pyromancer"]
    fire = [f for f in range(6) if pyro.symbols[pyro.face_sym[f]] == "fire"][0]
    magma = [f for f in range(6) if pyro.symbols[pyro.face_sym[f]] == "magma"][0]
    _, _, a, t = pyroblast_bonus([fire, magma])
    v = bonus_values(CONTENT)[0, a, t]
    # the heroes' file: fire +3 damage, magma Burn (a status: 1), so fire is worth more
    # than a fresh die on average and magma less
    assert v[fire] == 3.0 and v[magma] == 1.0 and v[magma] < v.mean() < v[fire]
    for faces, expect in (([fire, magma], M.MV_DIE + 2), ([magma, fire], M.MV_DIE + 1), ([fire, fire], M.MV_PASS)):
        S, moves, _, _ = pyroblast_bonus(faces)
        for decide in (greedy_decide, optimal_decide):
            k = decide(M.PH_BONUS, S, moves, 3, RULES, DATA, RNG)
            assert moves[k] == expect, (decide, faces)


def ability_moves(tiers, may_skip=True):
    mv = ([M.MV_PASS] if may_skip else []) + [M.MV_ABILITY + t for t in tiers]
    out = np.zeros(M.MAX_MOVES, np.int64)
    out[:len(mv)] = mv
    return out, len(mv)


@pytest.mark.parametrize("hp,expect_pass", [(50, False), (3, True), (4, False)])
def test_greedy_and_optimal_leave_an_ability_unused_when_the_defence_could_knock_them_out(hp, expect_pass):
    """The seed's "you may activate it" (may_skip_ability, the default): with 3 fire (Fireball
    I, 4 damage) against the Paladin's Divine Defense (3 dice, 1 damage back a sword: at most
    3), greedy and optimal pass at 3 health and attack at 4 or 50 (search weighs the pass
    among its candidates by rollouts)."""
    S = position([0, 1, 2, 3, 4], 3)
    S[M.seat_base(0) + M.P_HP] = hp
    S[M.seat_base(1) + M.P_DLVL] = 1
    moves, n = ability_moves([0])
    for dec in (greedy_decide, optimal_decide):
        k = int(dec(M.PH_ABILITY, S, moves, n, RULES, DATA, RNG))
        assert moves[k] == (M.MV_PASS if expect_pass else M.MV_ABILITY), (dec, hp)


def test_a_lethal_attack_is_taken_even_when_the_defence_could_knock_them_out():
    """At 3 health, Fireball's value reaches the Paladin's 4 health: greedy and optimal attack
    (at worst both fall at once)."""
    S = position([0, 1, 2, 3, 4], 3)
    S[M.seat_base(0) + M.P_HP] = 3
    S[M.seat_base(1) + M.P_HP] = 4
    S[M.seat_base(1) + M.P_DLVL] = 1
    moves, n = ability_moves([0])
    for dec in (greedy_decide, optimal_decide):
        assert moves[int(dec(M.PH_ABILITY, S, moves, n, RULES, DATA, RNG))] == M.MV_ABILITY


def test_the_defences_counter_damage_is_read_from_the_content():
    """Divine Defense I: 3 dice, 1 a sword (2 faces of 6): at most 3, mean 1; Molten Armor I:
    5 dice, 1 a fire (3 faces): at most 5, mean 2.5."""
    from strategies.dicethrone.basic import counter_of
    assert counter_of(TABLES, 1, 0, 0) == (3.0, 1.0)
    assert counter_of(TABLES, 0, 0, 0) == (5.0, 2.5)


def test_optimal_weighs_a_data_token_by_what_it_does():
    """A data token's gain weight is read from its effects (plan step 11), not a flat
    default: Sneak avoids an attack (AVOID_WEIGHT), Sneak Attack adds 1d6 of damage keyed by
    face number (its mean, 3.5), Evasive avoids on 2 faces of 6 (a third of AVOID_WEIGHT),
    and the Pyromancer's Fire Mastery, which does nothing by itself, keeps the old 0.8."""
    from strategies.dicethrone.bind import default_roster
    from strategies.dicethrone.optimal import AVOID_WEIGHT, _token_weights

    ro = default_roster(None)
    st = ro.content(("shadow_thief",))
    gw, _ = _token_weights(st)
    assert gw[st.token_ids["sneak"]] == pytest.approx(AVOID_WEIGHT)
    assert gw[st.token_ids["sneak_attack"]] == pytest.approx(3.5)
    elf = ro.content(("moon_elf",))
    gw, _ = _token_weights(elf)
    assert gw[elf.token_ids["evasive"]] == pytest.approx(AVOID_WEIGHT * 2 / 6)
    pyro = ro.content(("pyromancer",))
    gw, _ = _token_weights(pyro)
    assert gw[pyro.token_ids["fire_mastery"]] == pytest.approx(0.8)
