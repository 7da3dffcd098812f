"""Throne Arcade legal moves on hand-made positions, against lists enumerated by hand from
the digest ("lay one card that matches the top card's suit or type, or several cards of
the same type at once, the first matching; the last card laid is the new top"; a Hand
names a suit; drawing is always allowed by default). Every position is checked in both
engines (``Pos.moves`` asserts kernel == reference)."""
import itertools
import random

import pytest

from arcade_helpers import DECK, DRAW, Pos, cards, lay
from simcore.arcade import model as M


def test_single_and_multi_lays_on_a_suit_match():
    # top blue IX; X-blue matches by suit, X-orange / X-green only ride along behind it
    p = Pos(hands={0: "X-blue X-orange X-green VIII-gold", 1: "VII-gold"}, top="IX-blue")
    want = sorted([
        DRAW,
        lay("X-blue"),
        lay("X-blue X-orange", last="X-orange"),
        lay("X-blue X-green", last="X-green"),
        lay("X-blue X-orange X-green", last="X-orange"),
        lay("X-blue X-orange X-green", last="X-green"),
    ])
    assert p.moves() == want
    # ending on the matching card would need a non-matching first card
    assert lay("X-blue X-orange", last="X-blue") not in p.moves()


def test_type_match_lets_any_card_of_the_type_go_first():
    p = Pos(hands={0: "X-blue X-orange", 1: "VII-gold"}, top="X-gold")
    want = sorted([DRAW, lay("X-blue"), lay("X-orange"), lay("X-blue X-orange", last="X-blue"),
                   lay("X-blue X-orange", last="X-orange")])
    assert p.moves() == want


def test_no_match_only_draw_and_mandatory_play_option():
    assert Pos(hands={0: "VIII-gold King-green", 1: "VII-gold"}, top="IX-blue").moves() == [DRAW]
    # draw_optional = false: with a legal play, drawing is not a move
    p = Pos(hands={0: "IX-gold King-green", 1: "VII-gold"}, top="IX-blue", rules={"draw_optional": False})
    assert p.moves() == [lay("IX-gold")]
    p = Pos(hands={0: "VIII-gold", 1: "VII-gold"}, top="IX-blue", rules={"draw_optional": False})
    assert p.moves() == [DRAW]


def test_named_suit_restricts_the_first_card():
    hand = "VII-green IX-blue IX-green Hand-blue"
    p = Pos(hands={0: hand, 1: "X-gold"}, top="Hand-orange", named="green")
    want = sorted([DRAW, lay("VII-green"), lay("IX-green"), lay("IX-green IX-blue", last="IX-blue")])
    assert p.moves() == want
    # option: another Hand also answers a named suit (it names a suit in turn)
    p = Pos(hands={0: hand, 1: "X-gold"}, top="Hand-orange", named="green", rules={"hand_answers_hand": True})
    assert p.moves() == sorted(want + [lay("Hand-blue", named=s) for s in DECK.suits])


def test_hands_name_each_suit_and_hand_on_anything_option():
    hand = "Hand-gold Hand-blue"
    p = Pos(hands={0: hand, 1: "X-gold"}, top="IX-gold")
    want = sorted([DRAW] + [lay("Hand-gold", named=s) for s in DECK.suits]
                  + [lay("Hand-gold Hand-blue", last="Hand-blue", named=s) for s in DECK.suits])
    assert p.moves() == want
    p = Pos(hands={0: hand, 1: "X-gold"}, top="IX-green", rules={"hand_on_anything": True})
    want = sorted([DRAW] + [lay(h, named=s) for h in ("Hand-gold", "Hand-blue") for s in DECK.suits]
                  + [lay("Hand-gold Hand-blue", last=x, named=s) for x in ("Hand-gold", "Hand-blue")
                     for s in DECK.suits])
    assert p.moves() == want
    # without the option the same hand cannot answer a green IX
    assert Pos(hands={0: hand, 1: "X-gold"}, top="IX-green").moves() == [DRAW]


def test_the_starter_leads_freely_on_the_rounds_first_turn():
    # issue 33, the seed: "the starting player lays one card on the starting card; the other
    # players must follow" (suit or type). Starting card IX-blue; VIII-gold and King-green
    # match neither, yet on the round's first turn either may be laid (a set of one type too)
    hand = {0: "VIII-gold VIII-green King-green", 1: "VII-gold"}
    want = sorted([DRAW, lay("VIII-gold"), lay("VIII-green"), lay("King-green"),
                   lay("VIII-gold VIII-green", last="VIII-green"), lay("VIII-gold VIII-green", last="VIII-gold")])
    p = Pos(hands=hand, top="IX-blue", round_turn=0)
    assert p.rules["starter_leads_freely"] and p.moves() == want
    # a Hand as the lead names a suit like any Hand
    assert Pos(hands={0: "Hand-gold", 1: "VII-gold"}, top="IX-blue", round_turn=0).moves() == \
        sorted([DRAW] + [lay("Hand-gold", named=s) for s in DECK.suits])
    # the next player follows the starter's card, not the starting card
    p = Pos(hands={0: "King-green", 1: "King-gold IX-blue", 2: "X-gold", 3: "X-blue"}, top="IX-blue", round_turn=0)
    assert p.play(lay("King-green")) == sorted([DRAW, lay("King-gold")])
    # option off (the digest's reading before issue 33): the first lay matches the starting card
    assert Pos(hands=hand, top="IX-blue", round_turn=0, rules={"starter_leads_freely": False}).moves() == [DRAW]
    # later turns match as ever
    assert Pos(hands=hand, top="IX-blue", round_turn=1).moves() == [DRAW]


def test_switched_off_hand_names_nothing():
    p = Pos(hands={0: "Hand-gold", 1: "X-gold"}, top="IX-gold", rules={"special_hand": False})
    assert p.moves() == [DRAW, lay("Hand-gold")]


def brute_force(hand, top, named, rules):
    """The digest read literally: every ordered sequence of same-type cards whose first
    card matches; a move is (cards, last card, named suit if a Hand is among them)."""
    hand_fx = set(cards("Hand-gold Hand-green Hand-blue Hand-orange")) if rules["special_hand"] else set()

    def first_ok(x):
        if named >= 0:
            return DECK.suit_of(x) == named or (rules["hand_answers_hand"] and x in hand_fx)
        if rules["hand_on_anything"] and x in hand_fx:
            return True
        return DECK.suit_of(x) == DECK.suit_of(top) or DECK.type_of(x) == DECK.type_of(top)

    out = set()
    for k in range(1, 5):
        for seq in itertools.permutations(hand, k):
            if len({DECK.type_of(x) for x in seq}) != 1 or not first_ok(seq[0]):
                continue
            m = sum(1 << x for x in seq)
            if set(seq) & hand_fx:
                out |= {M.encode_lay(m, seq[-1], s) for s in range(4)}
            else:
                out.add(M.encode_lay(m, seq[-1]))
    if not out or rules["draw_optional"]:
        out.add(DRAW)
    return sorted(out)


@pytest.mark.parametrize("opts", [{}, {"hand_on_anything": True, "hand_answers_hand": True},
                                  {"draw_optional": False}])
def test_random_positions_against_brute_force(opts):
    rnd = random.Random(11)
    for _ in range(150):
        deck = list(range(32))
        rnd.shuffle(deck)
        hand = sorted(deck[: rnd.randint(1, 12)])
        top = deck[20]
        named = rnd.choice([-1, -1, 0, 1, 2, 3])
        p = Pos(hands={0: " ".join(DECK.name(x) for x in hand), 1: DECK.name(deck[21])}, top=DECK.name(top),
                named=DECK.suits[named] if named >= 0 else None, rules=opts)
        assert p.moves() == brute_force(hand, top, named, p.rules)


KINGS = {1: "King-gold", 2: "King-green", 3: "King-blue"}
DRAW3 = "VIII-orange X-orange King-orange VIII-blue IX-gold X-gold"   # drawn from the right


def test_moves_after_drawing_for_a_vii():
    # seat 1 draws X-gold IX-gold VIII-blue for the blue VII, then plays on the VII
    p = Pos(hands={0: "VII-blue IX-orange", **KINGS}, top="IX-blue", draw=DRAW3)
    assert p.play(lay("VII-blue")) == [DRAW, lay("VIII-blue")]
    # mandatory play: the drawer who can lay must lay
    p = Pos(hands={0: "VII-blue IX-orange", **KINGS}, top="IX-blue", draw=DRAW3, rules={"draw_optional": False})
    assert p.play(lay("VII-blue")) == [lay("VIII-blue")]


def test_moves_of_a_revived_player():
    # seat 3 goes out, seat 0's skull VII brings it back with IX-orange VII-green VIII-blue
    p = Pos(hands={0: "VII-orange IX-gold", 1: "King-gold", 2: "King-green", 3: "VIII-orange"}, top="IX-orange",
            cur=3, draw="King-orange VIII-orange X-orange VIII-blue VII-green IX-orange")
    p.play(lay("VIII-orange"))
    assert p.play(lay("VII-orange")) == [DRAW]          # seat 1: King-gold on the orange VII
    assert p.play(DRAW) == [DRAW]                        # seat 2: King-green
    moves = p.play(DRAW)                                 # seat 3, back in the round
    assert p.cur == 3 and p.hand_names(3) == "VII-green VIII-blue IX-orange"
    assert moves == sorted([DRAW, lay("IX-orange"), lay("VII-green")])
