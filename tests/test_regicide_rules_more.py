"""More rule scenarios from the digest (/work/shared/rules/regicide.md), each played by
BOTH engines from the same state through ``both`` (which asserts equal states, equal next
legal moves and equal random streams); the assertions pin the digest's outcome exactly."""
import copy

import numpy as np
import pytest

from simcore import rng as rngmod
from simcore.regicide import kernel as E
from simcore.regicide import model as M
from simcore.regicide import reference as ref
from simcore.regicide.model import FLIP, NONE, PH_DISCARD, PH_DONE, PH_JESTER, PH_PLAY, YIELD, parse_card

from test_regicide_rules import RULES, both, cards, game, move_of

RV = M.rules_vector(RULES)


def shuffled(pile, rng_state):
    """The reference shuffle (Fisher-Yates) of ``pile`` on a copy of the game's stream."""
    a, st = list(pile), rng_state.copy()
    for i in range(len(a) - 1, 0, -1):
        j = rngmod.below_py(st, i + 1)
        a[i], a[j] = a[j], a[i]
    return a


def kernel_play_moves(g, rules=RULES):
    buf = np.zeros(M.MAX_MOVES, np.int64)
    n = E.play_moves_nb(g.vector(), M.rules_vector(rules), buf)
    return list(buf[:n])


def kernel_obs(g, reveal=False):
    S = g.vector()
    obs = np.zeros_like(S)
    if reveal:  # the labelled cheat sees the state itself (simcore.driver copies it)
        return S.copy()
    E.observe_nb(S, obs, int(S[M.O_CUR]), E.TABLES)
    return obs


# ------------------------------------------------------------------ 1. Hearts
def test_hearts_go_under_a_nonempty_tavern_and_the_known_top_stays_on_top():
    g = game(hands=[("5S", "4H", "9C", "10C", "8C")], enemy="JH", damage=15,
             tavern=("2D", "3D", "4D"), discard=("2C", "3C", "6C", "7C", "8S", "9S"))
    g, _ = both(g, PH_PLAY, move_of(g, "5S"))  # exact kill: JH face down on top of the Tavern
    assert g.tavern == cards("2D", "3D", "4D", "JH") and g.known_top == 1
    assert g.enemy == parse_card("JD") and g.phase == PH_PLAY and g.cur == 0
    before = cards("2C", "3C", "6C", "7C", "8S", "9S", "5S")
    assert g.discard == before
    expect = shuffled(before, g.rng)
    g, moves = both(g, PH_PLAY, move_of(g, "4H"))  # Hearts 4 against the Jack of Diamonds
    # the 4 cards go UNDER the deck (bottom first), the old deck and the public JH stay on top
    assert g.tavern == expect[:4] + cards("2D", "3D", "4D", "JH")
    assert g.discard == expect[4:] and len(g.discard) == 3  # the rest of the discard stays
    assert sorted(g.tavern[:4] + g.discard) == sorted(before)
    assert g.known_top == 1 and g.tavern[-1] == parse_card("JH")
    assert g.hands[0] == cards("9C", "10C", "8C") and g.damage == 4
    assert g.phase == PH_DISCARD and g.pending == 10
    assert g.played == cards("4H")
    # the public top card is still visible, the 7 cards under it are hidden
    obs = g.observation(False)
    assert obs[M.O_TAV + 7] == parse_card("JH") and (obs[M.O_TAV:M.O_TAV + 7] == NONE).all()
    assert (kernel_obs(g) == obs).all()


def test_hearts_larger_than_the_discard_moves_all_of_it_under_the_tavern():
    g = game(hands=[("9H", "10C")], enemy="JS", tavern=("2D", "3D"), discard=("4C", "5C", "6C"))
    expect = shuffled(cards("4C", "5C", "6C"), g.rng)
    g, _ = both(g, PH_PLAY, move_of(g, "9H"))
    assert g.tavern == expect + cards("2D", "3D") and g.discard == [] and g.damage == 9


# ------------------------------------------------------------------ 2. Diamonds
def test_diamonds_start_with_the_current_player_then_clockwise():
    tav = ("2H", "3H", "4H", "5H", "6H", "7H")  # 7H is the top card
    g = game(players=3, hands=[("2S",), ("3S", "9C"), ("4D", "10C")], enemy="JS", tavern=tav)
    g.cur = 2
    g, _ = both(g, PH_PLAY, move_of(g, "4D"))  # seat 2 draws first, then seat 0, seat 1, seat 2
    assert g.hands[2] == cards("10C", "7H", "4H")
    assert g.hands[0] == cards("2S", "6H")
    assert g.hands[1] == cards("3S", "9C", "5H")
    assert g.tavern == cards("2H", "3H") and g.damage == 4 and g.cur == 2 and g.pending == 10


def test_diamonds_skip_a_full_hand_and_stop_at_the_empty_deck():
    # 2 players, hand limit 7: seat 0 is full and skipped every time
    g = game(players=2, hands=[("2S", "3S", "4S", "5S", "6S", "7S", "8S"), ("5D", "AC")], enemy="QH",
             tavern=("2H", "3H", "4H"))
    g.cur = 1
    g, _ = both(g, PH_PLAY, move_of(g, "5D", "AC"))  # X = 6, but only 3 cards in the deck
    assert g.hands[1] == cards("4H", "3H", "2H") and g.hands[0] == cards("2S", "3S", "4S", "5S", "6S", "7S", "8S")
    assert g.tavern == [] and g.damage == 12  # Clubs companion doubles


# ------------------------------------------------------------------ 3. immunity
def test_diamonds_enemy_ignores_diamonds_draw_until_a_jester():
    tav = ("2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H")
    g = game(hands=[("5D", "AC", "9S", "10S")], enemy="JD", tavern=tav)
    g, _ = both(g, PH_PLAY, move_of(g, "5D", "AC"))  # X = 6: no draw, Clubs still double
    assert g.hands[0] == cards("9S", "10S") and g.tavern == cards(*tav)
    assert g.damage == 12 and g.pending == 10
    g = game(hands=[("5D", "AC", "9S", "10S")], enemy="JD", tavern=tav, cancelled=True)
    g, _ = both(g, PH_PLAY, move_of(g, "5D", "AC"))  # immunity cancelled: draw 6
    assert g.hands[0] == cards("9S", "10S", "9H", "8H", "7H", "6H", "5H", "4H")
    assert g.tavern == cards("2H", "3H") and g.damage == 12


def test_spades_enemy_gives_no_shield_until_a_jester_then_earlier_spades_count():
    g = game(players=2, hands=[("4S", "JESTER", "10H"), ("3S", "10C", "10D")], enemy="JS")
    g, _ = both(g, PH_PLAY, move_of(g, "4S"))
    assert g.spades == 4 and g.shield() == 0 and g.pending == 10 and g.damage == 4
    g, _ = both(g, PH_DISCARD, move_of(g, "10H"))
    assert g.cur == 1
    g, _ = both(g, PH_PLAY, move_of(g, "3S"))
    assert g.spades == 7 and g.shield() == 0 and g.pending == 10 and g.damage == 7
    g, _ = both(g, PH_DISCARD, move_of(g, "10C"))
    assert g.cur == 0 and g.hands[0] == cards("JESTER")
    g, moves = both(g, PH_PLAY, move_of(g, "JESTER"))
    assert g.phase == PH_JESTER and moves == [0, 1] and g.cancelled and g.damage == 7
    g, moves = both(g, PH_JESTER, 1)
    assert g.cur == 1 and YIELD in moves  # seat 0 played (the Jester), so seat 1 may yield
    g, moves = both(g, PH_PLAY, YIELD)
    assert g.shield() == 7 and g.pending == 10 - 7 and g.phase == PH_DISCARD
    assert moves == [1]  # the single 10D covers 3


# ------------------------------------------------------------------ 4. Spades across players
def test_spades_shields_add_up_across_players_and_reset_on_defeat():
    g = game(players=3, hands=[("4S", "6C", "10C", "2C", "9D", "AD"), ("3S", "3C", "7H"), ("2S", "AC", "8H")],
             enemy="JH")
    g, _ = both(g, PH_PLAY, move_of(g, "4S"))
    assert g.pending == 6
    g, _ = both(g, PH_DISCARD, move_of(g, "6C"))
    g, _ = both(g, PH_PLAY, move_of(g, "3S"))  # seat 1: shields 4 + 3
    assert g.cur == 1 and g.spades == 7 and g.pending == 3
    g, _ = both(g, PH_DISCARD, move_of(g, "3C"))
    g, _ = both(g, PH_PLAY, move_of(g, "2S"))  # seat 2: shields 4 + 3 + 2
    assert g.cur == 2 and g.spades == 9 and g.pending == 1 and g.damage == 9
    g, _ = both(g, PH_DISCARD, move_of(g, "AC"))
    assert g.cur == 0
    g, moves = both(g, PH_PLAY, move_of(g, "10C"))  # 9 + 20 = 29 >= 20: overkill
    assert g.enemy == parse_card("JD") and g.defeated == 1 and g.discard[-1] == parse_card("JH")
    assert g.spades == 0 and g.shield() == 0 and g.damage == 0 and g.cur == 0 and g.phase == PH_PLAY
    assert sorted(g.discard) == sorted(cards("6C", "3C", "AC", "4S", "3S", "2S", "10C", "JH"))
    g, moves = both(g, PH_PLAY, move_of(g, "2C"))  # the new enemy's attack is not shielded
    assert g.damage == 4 and g.pending == 10 and moves == [0b11]  # only 9D + AD covers it


# ------------------------------------------------------------------ 5. Clubs after a Jester
def test_clubs_are_not_retroactive_after_a_jester():
    g = game(players=2, hands=[("5C", "10H"), ("JESTER", "4C", "10D")], enemy="JC")
    g, _ = both(g, PH_PLAY, move_of(g, "5C"))
    assert g.damage == 5 and g.pending == 10  # immune: not doubled
    g, _ = both(g, PH_DISCARD, move_of(g, "10H"))
    g, moves = both(g, PH_PLAY, move_of(g, "JESTER"))
    assert g.cancelled and g.damage == 5 and moves == [0, 1]  # the earlier 5C stays at 5
    g, _ = both(g, PH_JESTER, 1)
    g, _ = both(g, PH_PLAY, move_of(g, "4C"))
    assert g.damage == 5 + 8 and g.pending == 10


# ------------------------------------------------------------------ 6. solo flips
def test_solo_flip_at_step1_and_flips_running_out():
    tav = ("2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "10D")  # 10D on top
    g = game(hands=[("2C", "3C", "4C")], enemy="JC", damage=3, tavern=tav, flips=2)
    moves = g.play_moves()
    assert moves[-1] == FLIP and kernel_play_moves(g) == moves
    g, moves = both(g, PH_PLAY, FLIP)
    assert g.hands[0] == cards("10D", "10H", "9H", "8H", "7H", "6H", "5H", "4H")
    assert g.discard == cards("2C", "3C", "4C") and g.tavern == cards("2H", "3H")
    assert g.flips_left == 1 and g.flips_used == 1
    assert g.turns == 0 and g.phase == PH_PLAY and g.cur == 0  # not a turn: step 1 again
    assert g.damage == 3 and not g.cancelled  # no draw power, no immunity cancelled
    assert moves[-2:] == [YIELD, FLIP]
    g, moves = both(g, PH_PLAY, FLIP)  # the second flip: only 2 cards left to draw
    assert g.hands[0] == cards("3H", "2H") and g.tavern == []
    assert len(g.discard) == 11 and g.flips_left == 0 and g.flips_used == 2 and g.turns == 0
    assert FLIP not in moves and moves[-1] == YIELD  # no flips left at step 1
    g, moves = both(g, PH_PLAY, YIELD)
    # step 4: 3 + 2 < 10 and no FLIP left to save the game
    assert g.pending == 10 and moves == [] and g.phase == PH_DONE and g.status == 2 and g.reason == M.R_DAMAGE
    g = game(hands=[("3H", "2H")], enemy="JC", damage=3, flips=1)
    g, moves = both(g, PH_PLAY, YIELD)
    assert g.phase == PH_DISCARD and moves == [FLIP]  # with a flip left it is offered at step 4


def test_solo_flip_is_not_offered_when_the_option_is_off():
    rules = dict(RULES, flip_at_step1=False)
    g = game(hands=[("2C", "3C")], enemy="JC", flips=2, rules=rules)
    assert FLIP not in g.play_moves() and FLIP not in kernel_play_moves(g, rules)
    g, moves = both(g, PH_PLAY, YIELD, rules=rules)
    assert moves == [FLIP]  # still available at step 4


# ------------------------------------------------------------------ 7. no legal move
def test_loss_when_the_player_can_neither_play_nor_yield():
    g = game(players=2, hands=[(), ("10S", "5H")], enemy="JD")
    g.cur = 1
    g, _ = both(g, PH_PLAY, YIELD)
    assert g.yielded == [0, 1] and g.pending == 10
    g, moves = both(g, PH_DISCARD, move_of(g, "10S"))
    # seat 0: empty hand, and the only other player yielded: no play, no yield
    assert g.cur == 0 and moves == []
    assert g.phase == PH_DONE and g.status == 2 and g.reason == M.R_NO_MOVE
    assert g.record()["reason"] == M.R_NO_MOVE and g.record()["win"] == 0
    # the same without the yield: the empty-handed player may still yield
    g = game(players=2, hands=[(), ("10S", "5H")], enemy="JD")
    g.cur = 1
    g, _ = both(g, PH_PLAY, move_of(g, "5H"))
    g, moves = both(g, PH_DISCARD, move_of(g, "10S"))
    assert g.cur == 0 and moves == [YIELD] and g.phase == PH_PLAY and g.status == 0


def test_loss_no_move_three_players_everyone_else_yielded():
    g = game(players=3, hands=[("10C",), ("10S",), ()], enemy="JD", yielded=(1, 0, 0))
    g.cur = 1
    g, _ = both(g, PH_PLAY, YIELD)
    g, moves = both(g, PH_DISCARD, move_of(g, "10S"))
    assert g.cur == 2 and g.status == 2 and g.reason == M.R_NO_MOVE and moves == []
    g = game(players=3, hands=[("10C",), ("10S",), ()], enemy="JD", yielded=(0, 0, 0))
    g.cur = 1
    g, _ = both(g, PH_PLAY, YIELD)
    g, moves = both(g, PH_DISCARD, move_of(g, "10S"))
    assert g.cur == 2 and g.status == 0 and moves == [YIELD]  # seat 0 did not yield


# ------------------------------------------------------------------ 8. combos
def test_combos_over_ten_are_illegal_by_default():
    g = game(hands=[("6H", "6D", "5H", "5D", "4H", "4D", "4S")], enemy="JS", flips=0)
    moves = g.play_moves()
    assert kernel_play_moves(g) == moves
    m = lambda *n: move_of(g, *n)  # noqa: E731
    assert m("6H", "6D") not in moves                  # 12
    assert m("5H", "5D") in moves                      # 10
    assert m("4H", "4D") in moves and m("4D", "4S") in moves
    assert m("4H", "4D", "4S") not in moves            # 12
    assert m("5H", "6H") not in moves and m("4H", "5H") not in moves  # mixed ranks
    plays = [x for x in moves if x < 256]
    assert sorted(plays) == sorted([1 << i for i in range(7)] + [m("5H", "5D"), m("4H", "4D"), m("4H", "4S"),
                                                                m("4D", "4S")])
    g = game(hands=[("2H", "2D", "2C", "2S", "3H", "3D", "3C")], enemy="JS", flips=0)
    moves = g.play_moves()
    assert kernel_play_moves(g) == moves
    m = lambda *n: move_of(g, *n)  # noqa: E731
    assert m("2H", "2D", "2C", "2S") in moves          # 8
    assert m("3H", "3D", "3C") in moves                # 9
    assert m("2H", "3H") not in moves and m("2H", "2D", "3H") not in moves
    # 2 pairs + triples + quad of 2s (6 + 4 + 1), 3 pairs + 1 triple of 3s, 7 singles
    assert len([x for x in moves if x < 256]) == 7 + 6 + 4 + 1 + 3 + 1


def test_combo_powers_resolve_at_the_combined_total():
    tav = tuple(f"{r}S" for r in range(5, 11))
    g = game(hands=[("2H", "2D", "2C", "2S", "9C")], enemy="JS", tavern=tav, discard=("AH", "AD"), flips=0)
    under = shuffled(cards("AH", "AD"), g.rng)
    g, _ = both(g, PH_PLAY, move_of(g, "2H", "2D", "2C", "2S"))  # X = 8 against the Jack of Spades
    assert g.damage == 16 and g.spades == 8 and g.shield() == 0  # Clubs double; Spades immune
    # Hearts: both discards go under the deck, then Diamonds draws 7 (hand limit 8)
    assert g.hands[0] == cards("9C", "10S", "9S", "8S", "7S", "6S", "5S") + under[1:]
    assert g.tavern == under[:1] and g.discard == []


# ------------------------------------------------------------------ 9. observation mid-game
def check_masking(g):
    """observation(False) shows exactly the public part of the state; observe_nb agrees."""
    S, obs = g.vector(), g.observation(False)
    assert (kernel_obs(g) == obs).all() and (kernel_obs(g, True) == S).all()
    assert (g.observation(True) == S).all()
    hidden = np.zeros(M.S_LEN, bool)
    for p in range(g.P):
        if p != g.cur:
            hidden[M.O_HANDS + p * M.MAX_HAND:M.O_HANDS + (p + 1) * M.MAX_HAND] = True
    hidden[M.O_TAV:M.O_TAV + len(g.tavern) - g.known_top] = True
    hidden[M.O_CASTLE + g.enemy_pos + 1:M.O_CASTLE + M.N_CASTLE] = True
    assert (obs[hidden] == NONE).all()
    assert (obs[~hidden] == S[~hidden]).all()
    return obs


def test_observation_masks_mid_game_three_players():
    g = game(players=3, hands=[("5S", "2C", "JESTER", "9D", "4C", "10S"), ("6H", "7C", "8S", "10D", "AS", "2H"),
                               ("3S", "4C", "5H", "6D", "7S", "8C")],
             enemy="JH", damage=15, tavern=("2D", "3D", "6S", "7D"), discard=("9H", "9C", "10C"))
    g.castle[:4] = cards("JH", "JS", "JD", "JC")
    g, _ = both(g, PH_PLAY, move_of(g, "5S"))            # exact kill: JH public on top
    assert g.known_top == 1 and g.enemy_pos == 1
    g, _ = both(g, PH_PLAY, move_of(g, "4C"))            # Clubs against the Jack of Spades
    g, _ = both(g, PH_DISCARD, move_of(g, "10S"))
    g, _ = both(g, PH_PLAY, move_of(g, "2H"))            # seat 1: 2 discards under the deck
    assert g.tavern[-1] == parse_card("JH") and g.known_top == 1 and len(g.tavern) == 7
    g, _ = both(g, PH_DISCARD, move_of(g, "10D"))
    assert g.cur == 2 and g.turns == 3 and g.damage == 10
    obs = check_masking(g)
    # seat 2 sees its own hand, not seats 0 and 1; the JH on top but not the 6 under it
    assert list(obs[M.O_HANDS + 16:M.O_HANDS + 22]) == cards("3S", "4C", "5H", "6D", "7S", "8C")
    assert (obs[M.O_HANDS:M.O_HANDS + 16] == NONE).all()
    assert list(obs[M.O_HAND_N:M.O_HAND_N + 3]) == [3, 4, 6]  # hand sizes are public
    assert obs[M.O_TAV_N] == 7 and obs[M.O_TAV + 6] == parse_card("JH")
    assert (obs[M.O_TAV:M.O_TAV + 6] == NONE).all()
    assert list(obs[M.O_CASTLE:M.O_CASTLE + 2]) == cards("JH", "JS")
    assert (obs[M.O_CASTLE + 2:M.O_CASTLE + 12] == NONE).all()
    assert list(obs[M.O_DISC:M.O_DISC + obs[M.O_DISC_N]]) == g.discard and obs[M.O_DISC_N] == 4
    assert list(obs[M.O_PLAYED:M.O_PLAYED + obs[M.O_PLAYED_N]]) == cards("4C", "2H")
    assert obs[M.O_KNOWN_TOP] == 1 and obs[M.O_DAMAGE] == 10 and obs[M.O_CUR] == 2
    # a Diamonds draw of the public top card: it leaves the deck and the count drops
    g, _ = both(g, PH_PLAY, move_of(g, "6D"))
    assert g.hands[2][-1] == parse_card("JH") and g.known_top == 0 and g.damage == 16
    assert g.hands[0][3:5] == cards("7D", "3D") and g.hands[1][4:] == cards("6S", "2D")
    obs = check_masking(g)
    assert (obs[M.O_TAV:M.O_TAV + len(g.tavern)] == NONE).all()
    # the observer changes with the seat to act
    g, _ = both(g, PH_DISCARD, move_of(g, "JH"))
    assert g.cur == 0
    obs = check_masking(g)
    assert len(g.hands[0]) == 6 and list(obs[M.O_HANDS:M.O_HANDS + 6]) == g.hands[0]
    assert (obs[M.O_HANDS + 8:M.O_HANDS + 32] == NONE).all()


def exact_kill_first(g, moves, pick):
    """A random step-1 play, but an exact kill whenever one is available."""
    plays = [x for x in moves if x not in (YIELD, FLIP)]
    for x in plays:
        trial = copy.deepcopy(g)
        trial.apply_play(x)
        if trial.exact_kills > g.exact_kills:
            return x
    pool = plays or moves
    return pool[int(pick.integers(len(pool)))]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_observation_masks_at_every_decision_of_games_with_exact_kills(players):
    pick = np.random.default_rng(7)
    public_top = decisions = 0
    for index in range(8):
        g = ref.Game(players, RULES, 31, index)
        moves = g.begin_turn()
        while g.phase != PH_DONE:
            check_masking(g)
            decisions += 1
            public_top += g.known_top > 0
            if g.phase == PH_PLAY:
                moves = g.apply_play(exact_kill_first(g, moves, pick))
            elif g.phase == PH_DISCARD:
                moves = g.apply_discard(moves[int(pick.integers(len(moves)))])
            else:
                moves = g.apply_jester(moves[int(pick.integers(len(moves)))])
        check_masking(g)
    assert public_top >= 3 and decisions >= 50  # the masking of a public top card was exercised
