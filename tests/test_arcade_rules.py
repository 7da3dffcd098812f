"""Throne Arcade rule scenarios on hand-made positions with a forced draw pile, one per
rule and per rule option of rules.toml; every step runs in both engines and asserts
they reach the same state (``arcade_helpers.Pos.play``), then checks the digest's
outcome on the reference side."""
import numpy as np
import pytest

from arcade_helpers import DECK, DRAW, Pos, c, cards, lay, names
from simcore.arcade import kernel as K
from simcore.arcade import model as M
from simcore.arcade.reference import Game
from simcore.errors import PlaytestError
from simcore.rng import new_state
from strategies.arcade.bind import play_range

KINGS = {1: "King-gold", 2: "King-green", 3: "King-blue"}


def test_a_lay_puts_the_old_top_and_all_but_the_last_card_under_the_new_top():
    p = Pos(hands={0: "X-blue X-orange VIII-gold", **KINGS}, top="IX-blue")
    p.play(lay("X-blue X-orange", last="X-orange"))
    g = p.g
    assert g.top == c("X-orange") and g.pile_under == names("IX-blue X-blue")
    assert p.hand(0) == names("VIII-gold") and g.cur == 1


def test_drawing_takes_the_top_of_the_draw_pile_and_ends_the_turn():
    p = Pos(hands={0: "VIII-gold", **KINGS}, top="IX-blue", draw="King-orange Ace-gold")
    p.play(DRAW)
    assert p.hand(0) == names("VIII-gold Ace-gold") and p.g.draw_pile == cards("King-orange") and p.cur == 1


DRAW3 = "VIII-orange X-orange King-orange VIII-blue IX-gold X-gold"   # drawn from the right


def test_vii_next_player_draws_three_then_plays_on():
    p = Pos(hands={0: "VII-blue IX-orange", 1: "King-gold", 2: "King-green", 3: "King-blue"}, top="IX-blue",
            draw=DRAW3)
    moves = p.play(lay("VII-blue"))
    assert p.cur == 1 and p.hand(1) == names("King-gold X-gold IX-gold VIII-blue") and p.g.pending == 0
    assert p.g.penalty_drawn == 3
    # the drawer goes on with an ordinary turn: the blue VIII it drew matches the VII's suit
    assert lay("VIII-blue") in moves and DRAW in moves
    p.play(DRAW)                   # ... or draws one card more (reading: an ordinary turn)
    assert len(p.hand(1)) == 5 and p.cur == 2


def test_draw_after_penalty_off_drawing_then_draws_nothing():
    p = Pos(hands={0: "VII-blue IX-orange", **KINGS}, top="IX-blue", draw=DRAW3,
            rules={"draw_after_penalty": False})
    p.play(lay("VII-blue"))
    p.play(DRAW)
    assert len(p.hand(1)) == 4 and p.cur == 2


def test_two_viis_stack_to_six_and_draw_per_card_option():
    p = Pos(hands={0: "VII-blue VII-gold IX-orange", **KINGS}, top="IX-blue", draw=DRAW3)
    p.play(lay("VII-blue VII-gold", last="VII-gold"))
    assert len(p.hand(1)) == 7 and p.g.draw_pile == []
    p = Pos(hands={0: "VII-blue VII-gold IX-orange", **KINGS}, top="IX-blue", draw=DRAW3,
            rules={"draw_per_card": 2})
    p.play(lay("VII-blue VII-gold", last="VII-gold"))
    assert len(p.hand(1)) == 5


def test_green_lord_draws_three_other_lords_nothing_unless_switched_on():
    p = Pos(hands={0: "Lord-green IX-orange", **KINGS}, top="IX-green", draw=DRAW3)
    p.play(lay("Lord-green"))
    assert len(p.hand(1)) == 4
    p = Pos(hands={0: "Lord-gold IX-orange", **KINGS}, top="IX-gold", draw=DRAW3)
    p.play(lay("Lord-gold"))
    assert len(p.hand(1)) == 1
    p = Pos(hands={0: "Lord-gold IX-orange", **KINGS}, top="IX-gold", draw=DRAW3,
            rules={"special_other_lords": True})
    p.play(lay("Lord-gold"))
    assert len(p.hand(1)) == 4
    p = Pos(hands={0: "Lord-green IX-orange", **KINGS}, top="IX-green", draw=DRAW3,
            rules={"special_green_lord": False})
    p.play(lay("Lord-green"))
    assert len(p.hand(1)) == 1


def test_hand_names_a_suit_the_next_player_must_follow_or_draw():
    p = Pos(hands={0: "Hand-blue IX-orange", 1: "IX-gold X-green", 2: "King-green Ace-blue", 3: "King-blue"},
            top="IX-blue", draw=DRAW3)
    moves = p.play(lay("Hand-blue", named="green"))
    assert p.g.named == DECK.suits.index("green")
    assert moves == [DRAW, lay("X-green")]
    moves = p.play(DRAW)
    # reading: the named suit stays in force until a card is laid
    assert p.cur == 2 and moves == [DRAW, lay("King-green")]
    p.play(lay("King-green"))
    assert p.g.named == -1


def test_named_suit_persists_off_after_a_draw_the_hand_is_an_ordinary_card():
    p = Pos(hands={0: "Hand-blue IX-orange", 1: "IX-gold", 2: "King-green Ace-blue", 3: "King-blue"},
            top="IX-blue", draw=DRAW3, rules={"named_suit_persists": False})
    p.play(lay("Hand-blue", named="green"))
    moves = p.play(DRAW)
    assert moves == [DRAW, lay("Ace-blue")]


@pytest.mark.parametrize("aces,players,expect", [
    ("Ace-blue", 4, 2), ("Ace-blue Ace-gold", 4, 3), ("Ace-blue Ace-gold Ace-green", 4, 0),
    ("Ace-blue", 2, 0), ("Ace-blue Ace-gold", 2, 1), ("Ace-blue", 3, 2)])
def test_aces_skip_that_many_players(aces, players, expect):
    hands = {0: aces + " IX-orange", 1: "King-gold", 2: "King-green", 3: "King-blue"}
    p = Pos(players=players, hands={k: v for k, v in hands.items() if k < players}, top="IX-blue")
    p.play(lay(aces))
    assert p.cur == expect and p.g.n_skip_cards == len(aces.split())


@pytest.mark.parametrize("aces,skip,players,expect", [
    ("Ace-blue", 2, 4, 3), ("Ace-blue", 3, 4, 0), ("Ace-blue Ace-gold", 2, 4, 1), ("Ace-blue", 2, 3, 0),
    ("Ace-blue", 0, 4, 1), ("Ace-blue Ace-gold", 0, 4, 1)])
def test_skip_per_card_option_skips_that_many_players_per_ace(aces, skip, players, expect):
    hands = {0: aces + " IX-orange", 1: "King-gold", 2: "King-green", 3: "King-blue"}
    p = Pos(players=players, hands={k: v for k, v in hands.items() if k < players}, top="IX-blue",
            rules={"skip_per_card": skip})
    p.play(lay(aces))
    assert p.cur == expect and p.g.n_skip_cards == len(aces.split())


def test_ace_skips_only_players_still_in_the_round():
    p = Pos(hands={0: "Ace-blue IX-orange", 1: "", 2: "King-green", 3: "King-blue"}, top="IX-blue")
    p.play(lay("Ace-blue"))
    assert p.cur == 3


def test_ace_switched_off_skips_nobody():
    p = Pos(hands={0: "Ace-blue IX-orange", **KINGS}, top="IX-blue", rules={"special_ace": False})
    p.play(lay("Ace-blue"))
    assert p.cur == 1


def going_out_then_skull(**rules):
    """Seat 3 lays its last card; seat 0 answers with the orange skull VII."""
    p = Pos(hands={0: "VII-orange IX-gold", 1: "King-gold", 2: "King-green", 3: "VIII-orange"}, top="IX-orange",
            cur=3, draw=DRAW3, rules=rules)
    p.play(lay("VIII-orange"))
    assert p.hand(3) == set() and p.g.last_out == 3 and p.cur == 0
    p.play(lay("VII-orange"))
    return p


def test_skull_vii_revives_the_player_who_went_out_on_the_previous_turn():
    p = going_out_then_skull()
    assert p.hand(3) == names("IX-gold X-gold VIII-blue") and p.g.revives == 1
    # Decision: the reviving skull does not also make the next player draw
    assert p.cur == 1 and p.hand(1) == names("King-gold")


def test_skull_option_both_apply():
    p = going_out_then_skull(skull_draw_when_reviving=True)
    assert len(p.hand(3)) == 3 and len(p.hand(1)) == 4


def test_skull_without_anyone_out_is_an_ordinary_vii_and_its_option():
    hands = {0: "VII-orange IX-gold", **KINGS}
    p = Pos(hands=hands, top="IX-orange", draw=DRAW3)
    p.play(lay("VII-orange"))
    assert p.g.revives == 0 and len(p.hand(1)) == 4
    p = Pos(hands=hands, top="IX-orange", draw=DRAW3, rules={"skull_draw_without_revive": False})
    p.play(lay("VII-orange"))
    assert len(p.hand(1)) == 1


def test_skull_two_turns_later_revives_nobody():
    p = Pos(hands={0: "VIII-gold", 1: "VII-orange IX-gold", 2: "King-green", 3: "VIII-orange"}, top="IX-orange",
            cur=3, draw=DRAW3)
    p.play(lay("VIII-orange"))
    p.play(DRAW)                        # seat 0 draws: the previous turn is no longer seat 3's
    p.play(lay("VII-orange"))
    assert p.g.revives == 0 and p.hand(3) == set() and len(p.hand(2)) == 4


def test_skull_with_another_vii_revives_and_the_other_vii_still_draws():
    p = Pos(hands={0: "VII-orange VII-blue IX-gold", 1: "King-gold", 2: "King-green", 3: "VIII-orange"},
            top="IX-orange", cur=3, draw=DRAW3)
    p.play(lay("VIII-orange"))
    p.play(lay("VII-orange VII-blue", last="VII-blue"))
    assert len(p.hand(3)) == 3 and len(p.hand(1)) == 4


def test_skull_switched_off_revives_nobody():
    p = going_out_then_skull(special_skull=False)
    assert p.g.revives == 0 and p.hand(3) == set() and len(p.hand(1)) == 4


def test_leaving_the_round_and_the_last_holder_loses():
    p = Pos(players=3, hands={0: "IX-gold", 1: "IX-green", 2: "King-blue VIII-orange Ace-gold"}, top="IX-blue",
            dealt={0: 5, 1: 5, 2: 5})
    p.play(lay("IX-gold"))
    assert p.hand(0) == set() and p.cur == 1 and p.g.first_out_r1 == 0
    p.play(lay("IX-green"))
    g = p.g
    # seat 2 lost round 1: it starts (and deals) round 2 with one card fewer
    assert g.loser_r1 == 2 and g.seats[2].losses == 1 and g.round == 2 and g.starter == 2 and g.cur == 2
    assert [s.dealt for s in g.seats] == [5, 5, 4] and [len(s.hand) for s in g.seats] == [5, 5, 4]
    assert g.pile_under == set() and len(g.draw_pile) == 32 - 14 - 1


def test_penalty_per_lost_round_and_its_options():
    for rules, want in (({}, 2), ({"penalty_per_loss": 2}, 1), ({"penalty_per_loss": 2, "min_hand": 2}, 2)):
        p = Pos(players=2, hands={0: "IX-gold", 1: "King-blue VIII-orange"}, top="IX-blue", losses={1: 2},
                dealt={1: 3}, rules=rules)
        p.play(lay("IX-gold"))
        assert p.g.seats[1].losses == 3 and p.g.seats[1].dealt == want and p.g.seats[0].dealt == 5


def test_starting_a_round_with_one_card_and_losing_eliminates():
    p = Pos(players=3, hands={0: "IX-gold", 1: "IX-green", 2: "King-blue VIII-orange"}, top="IX-blue",
            dealt={0: 5, 1: 5, 2: 1}, losses={2: 4}, round_=7)
    p.play(lay("IX-gold"))
    p.play(lay("IX-green"))
    g = p.g
    assert g.seats[2].elim_round == 7 and g.seats[2].elim_order == 1 and g.n_elim == 1
    # the eliminated loser cannot deal: the next seat still in the game starts
    assert g.round == 8 and g.starter == 0 and g.cur == 0 and g.seats[2].dealt == 0 and not g.seats[2].hand


def test_elimination_threshold_option():
    p = Pos(players=3, hands={0: "IX-gold", 1: "IX-green", 2: "King-blue VIII-orange"}, top="IX-blue",
            dealt={2: 2}, losses={2: 3}, rules={"elimination_hand": 2})
    p.play(lay("IX-gold"))
    p.play(lay("IX-green"))
    assert p.g.seats[2].elim_round == 1


def test_the_last_player_not_eliminated_wins():
    p = Pos(players=3, hands={0: "IX-gold", 1: "", 2: "King-blue"}, top="IX-blue", dealt={0: 2, 2: 1},
            losses={1: 5, 2: 4}, elim={1: (3, 1)}, round_=9)
    p.play(lay("IX-gold"))
    g = p.g
    assert g.phase == M.PH_DONE and g.winner == 0 and g.capped == 0 and g.seats[2].elim_order == 2
    rec = g.record()
    assert rec["winner"] == 0 and rec["elim_order_1"] == 1 and rec["elim_round_2"] == 9 and rec["rounds"] == 9


def test_reshuffle_keeps_the_top_and_shuffles_the_rest_into_a_new_draw_pile():
    p = Pos(hands={0: "VIII-gold", **KINGS}, top="IX-blue", draw="", under="King-orange VIII-blue X-green")
    p.play(DRAW)
    g = p.g
    assert g.top == c("IX-blue") and g.reshuffles == 1 and g.pile_under == set()
    assert len(g.draw_pile) == 2 and set(g.draw_pile) | (p.hand(0) - names("VIII-gold")) == \
        names("King-orange VIII-blue X-green")


def test_nothing_to_reshuffle_the_draw_is_skipped():
    p = Pos(hands={0: "VIII-gold", **KINGS}, top="IX-blue", draw="", under="")
    p.play(DRAW)
    assert p.hand(0) == names("VIII-gold") and p.cur == 1 and p.g.reshuffles == 0
    # a VII with nothing left to draw: the next player draws what there is
    p = Pos(hands={0: "VII-blue IX-orange", **KINGS}, top="IX-blue", draw="X-gold", under="")
    p.play(lay("VII-blue"))
    assert p.hand(1) == names("King-gold X-gold IX-blue") and p.g.reshuffles == 1


def test_turn_cap_ends_the_game_as_capped():
    p = Pos(hands={0: "VIII-gold", **KINGS}, top="IX-blue", draw="X-gold", rules={"max_turns_per_round": 1})
    p.play(DRAW)
    g = p.g
    assert g.phase == M.PH_DONE and g.winner == -1 and g.capped == M.CAP_TURNS and g.record()["capped"] == 1


def test_round_cap_ends_the_game_as_capped():
    p = Pos(players=3, hands={0: "IX-gold", 1: "IX-green", 2: "King-blue VIII-orange"}, top="IX-blue",
            rules={"max_rounds": 1})
    p.play(lay("IX-gold"))
    p.play(lay("IX-green"))
    assert p.g.phase == M.PH_DONE and p.g.capped == M.CAP_ROUNDS and p.g.winner == -1 and p.g.loser_r1 == 2


def test_caps_are_counted_in_whole_games():
    rules = M.load_rules(overrides={"max_rounds": 3})
    k = play_range(0, 40, 1, 4, "greedy", rules=rules)
    assert k["capped"].all() and (k["winner"] == -1).all() and (k["cap_kind"] == M.CAP_ROUNDS).all()
    k = play_range(0, 40, 1, 4, "greedy")
    assert not k["capped"].any() and (k["winner"] >= 0).all()


def first_turn(seed, rules):
    """Round 1 of a 4-player game in both engines (same stream): (reference game, kernel state)."""
    rv, T = M.rules_vector(rules), M.build_tables(DECK, rules)
    g = Game(4, rules, DECK, seed, 0)
    g.deal_round()
    S = np.zeros(M.S_LEN, np.int64)
    K.start_nb(S, 4, rv, T, new_state(seed, 0, M.DOMAIN), np.zeros(M.MAX_MOVES, np.int64))
    assert np.array_equal(S, g.vector())
    return g, S


def test_starting_card_effect_off_by_default_and_its_option():
    on = M.load_rules(overrides={"start_card_effect": True})
    off = M.load_rules()
    seen = set()
    for seed in range(300):
        g, _ = first_turn(seed, off)
        kind = DECK.types[DECK.type_of(g.top)]
        if kind not in ("VII", "Ace") or kind in seen:
            continue
        seen.add(kind)
        assert g.cur == 0 and len(g.seats[0].hand) == 5
        g, _ = first_turn(seed, on)
        if kind == "VII":
            assert g.cur == 0 and len(g.seats[0].hand) == 8
        else:
            assert g.cur == 1 and all(len(s.hand) == 5 for s in g.seats)
    assert seen == {"VII", "Ace"}


@pytest.mark.parametrize("skip,expect", [(0, 0), (2, 2), (3, 3)])
def test_starting_ace_with_skip_per_card(skip, expect):
    rules = M.load_rules(overrides={"start_card_effect": True, "skip_per_card": skip})
    for seed in range(300):
        g, S = first_turn(seed, rules)
        if DECK.types[DECK.type_of(g.top)] == "Ace":
            assert g.cur == expect == S[M.O_CUR]
            return
    raise AssertionError("no starting Ace in 300 deals")


def test_first_starter_option_and_player_checks():
    g, _ = first_turn(3, M.load_rules(overrides={"first_starter": 2}))
    assert g.cur == 2 and g.starter == 2 and g.record()["first"] == 2
    with pytest.raises(PlaytestError, match="first_starter"):
        play_range(0, 2, 1, 2, "greedy", rules=M.load_rules(overrides={"first_starter": 3}))
    with pytest.raises(PlaytestError, match="--players"):
        play_range(0, 2, 1, 7, "greedy")
    with pytest.raises(PlaytestError, match="hand_size"):
        play_range(0, 2, 1, 6, "greedy", rules=M.load_rules(overrides={"hand_size": 6}))


@pytest.mark.parametrize("edit,field,reason", [
    (('effect = "skip"', 'effect = "jump"'), "special[4].effect", "unknown effect"),
    (('cards = ["Ace/*"]', 'cards = ["Joker/*"]'), "special[4].cards", "unknown card type"),
    (('cards = ["VII/orange"]', 'cards = ["VII/purple"]'), "special[5].cards", "unknown suit"),
    (("copies = 1 ", "copies = 2 "), "copies", "at most 4 cards of one type"),
    (('id = "ace"', 'id = "vii"'), "special[4].id", "duplicate id"),
])
def test_deck_file_errors_name_file_field_and_reason(tmp_path, edit, field, reason):
    text = M.DECK_FILE.read_text()
    assert edit[0] in text
    f = tmp_path / "deck.toml"
    f.write_text(text.replace(edit[0], edit[1], 1))
    with pytest.raises(PlaytestError) as e:
        M.load_deck(f)
    msg = str(e.value)
    assert msg.startswith(str(f)) and field in msg and reason in msg and "\n" not in msg


def test_default_deck_is_the_digests():
    d = M.load_deck()
    assert d.n == 32 and d.types == ["VII", "VIII", "IX", "X", "Lord", "Hand", "King", "Ace"]
    T = M.build_tables(d, M.load_rules())
    bits = lambda m: {d.name(x) for x in range(32) if m >> x & 1}  # noqa: E731
    assert bits(T[M.T_DRAW]) == {"VII-gold", "VII-green", "VII-blue", "VII-orange", "Lord-green"}
    assert bits(T[M.T_SKIP]) == {f"Ace-{s}" for s in d.suits} and bits(T[M.T_NAME]) == {f"Hand-{s}" for s in d.suits}
    assert bits(T[M.T_REVIVE]) == {"VII-orange"}
