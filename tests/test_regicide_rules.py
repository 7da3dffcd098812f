"""Rule scenarios from the digest, each played by BOTH engines from the same state: the
reference engine's result must match the digest and the kernel's state must equal it."""
import copy

import numpy as np
import pytest

from simcore.errors import PlaytestError
from simcore.regicide import kernel as E
from simcore.regicide import model as M
from simcore.regicide import reference as ref
from simcore.regicide.model import FLIP, JESTER, PH_DISCARD, PH_DONE, PH_JESTER, PH_PLAY, YIELD, parse_card

RULES = M.load_rules()


def cards(*names):
    return [parse_card(n) for n in names]


def game(players=1, hands=(), enemy="JH", damage=0, spades=0, cancelled=False, tavern=(), discard=(),
         flips=None, rules=RULES, played=(), yielded=None):
    g = ref.Game(players, rules, 5, 0)
    g.hands = [cards(*h) for h in hands] + [[] for _ in range(players - len(hands))]
    castle = [M.card(r, s) for r in (11, 12, 13) for s in range(4)]
    e = parse_card(enemy)
    castle.remove(e)
    pos = (M.rank_of(e) - 11) * 4
    castle.insert(pos, e)
    g.castle, g.enemy_pos = castle, pos
    g.damage, g.spades, g.cancelled = damage, spades, cancelled
    g.tavern, g.discard, g.played = cards(*tavern), cards(*discard), cards(*played)
    g.known_top = 0
    if flips is not None:
        g.flips_left = flips
    if yielded is not None:
        g.yielded = list(yielded)
    return g


def move_of(g, *names):
    if names == ("YIELD",):
        return YIELD
    if names == ("FLIP",):
        return FLIP
    h = g.hands[g.cur]
    return sum(1 << h.index(parse_card(n)) for n in names)


def both(g, phase, move, rules=RULES):
    """Apply ``move`` in the reference engine and in the kernel from the same state;
    assert the states are equal; return the reference game and the next legal moves."""
    S = g.vector()
    rng = g.rng.copy()
    g.phase = phase
    if phase == PH_PLAY:
        nxt = g.apply_play(move)
    elif phase == PH_DISCARD:
        g.pending = S[M.O_PENDING] = max(0, ref.enemy_stats(g.enemy, rules)[0] - g.shield())
        nxt = g.apply_discard(move)
    else:
        nxt = g.apply_jester(move)
    moves = np.zeros(M.MAX_MOVES, np.int64)
    ph, n = E.apply_nb(S, phase, move, M.rules_vector(rules), E.TABLES, rng, moves)
    V = g.vector()
    diff = np.nonzero(V != S)[0]
    assert diff.size == 0, (diff, V[diff], S[diff])
    assert ph == g.phase and list(moves[:n]) == list(nxt)
    assert np.array_equal(rng, g.rng)
    return g, nxt


def test_rules_file_loads_and_validates(tmp_path):
    r = M.load_rules()
    assert set(M.RULE_KEYS) == set(r)
    assert r["solo_yield_allowed"] is True  # the digest's Decision is an option
    with pytest.raises(PlaytestError, match="unknown rule option"):
        M.load_rules(overrides={"no_such_rule": 1})
    with pytest.raises(PlaytestError, match="hand_size_4"):
        M.load_rules(overrides={"hand_size_4": 9})
    with pytest.raises(PlaytestError, match="must be bool"):
        M.load_rules(overrides={"immunity": 3})
    bad = tmp_path / "r.toml"
    bad.write_text("jesters_3 = [")
    with pytest.raises(PlaytestError, match="malformed TOML"):
        M.load_rules(bad)
    ok = tmp_path / "ok.toml"
    ok.write_text("jesters_4 = 1\nsolo_flips = 0\n")
    assert M.load_rules(ok)["jesters_4"] == 1


@pytest.mark.parametrize("players,hand,jesters", [(1, 8, 0), (2, 7, 0), (3, 6, 1), (4, 5, 2)])
def test_setup_by_player_count(players, hand, jesters):
    g = ref.Game(players, RULES, 11, 3)
    assert [len(h) for h in g.hands] == [hand] * players
    every = sum(g.hands, []) + g.tavern
    assert sorted(every) == sorted(list(range(40)) + [JESTER] * jesters)
    assert [M.rank_of(c) for c in g.castle] == [11] * 4 + [12] * 4 + [13] * 4
    assert g.flips_left == (2 if players == 1 else 0)


def test_hearts_before_diamonds():
    g = game(hands=[("4H", "AD", "9S")], enemy="JS", discard=("2C", "3C", "6C", "7C", "8C"))
    g, _ = both(g, PH_PLAY, move_of(g, "4H", "AD"))
    # Hearts: 5 cards from the discard pile under the (empty) Tavern deck, then Diamonds
    # draws them: 5 cards, hand of 1 + 5
    assert len(g.hands[0]) == 6 and g.discard == [] and g.tavern == []
    assert g.damage == 5
    g = game(hands=[("4H", "AD", "9S")], enemy="JS", discard=("2C", "3C", "6C", "7C", "8C"),
             rules=dict(RULES, hearts_before_diamonds=False))
    g, _ = both(g, PH_PLAY, move_of(g, "4H", "AD"), rules=g.rules)
    assert len(g.hands[0]) == 1 and len(g.tavern) == 5  # Diamonds found an empty deck


def test_hearts_partial_and_immunity():
    g = game(hands=[("3H", "9S")], enemy="JD", discard=("2C", "3C", "6C", "7C", "8C"))
    g, _ = both(g, PH_PLAY, move_of(g, "3H"))
    assert len(g.tavern) == 3 and len(g.discard) == 2
    g = game(hands=[("3H", "9S")], enemy="JH", discard=("2C", "3C", "6C", "7C", "8C"))
    g, _ = both(g, PH_PLAY, move_of(g, "3H"))
    assert len(g.tavern) == 0 and len(g.discard) == 5 and g.damage == 3  # immune: damage only


def test_clubs_double_and_immunity_and_companion():
    g = game(hands=[("8D", "AC", "2S")], enemy="JS", tavern=("2H",) * 0 + ("3H", "4H", "5H", "6H", "7H", "9H",
                                                                            "10H", "10S", "10D", "9D"))
    g, _ = both(g, PH_PLAY, move_of(g, "8D", "AC"))
    # 8 of Diamonds + Ace of Clubs = 9: draw up to 9 (hand limit 8: 1 + 7), deal 18
    assert g.damage == 18 and len(g.hands[0]) == 8
    g = game(hands=[("5C", "2S")], enemy="JC")
    g, _ = both(g, PH_PLAY, move_of(g, "5C"))
    assert g.damage == 5  # Clubs enemy ignores the doubling
    g = game(hands=[("5C", "2S")], enemy="JC", cancelled=True)
    g, _ = both(g, PH_PLAY, move_of(g, "5C"))
    assert g.damage == 10  # the Jester cancelled its immunity


def test_spades_shield_and_jester_cancelling():
    g = game(players=2, hands=[("8S", "JESTER", "10H", "9H"), ("2C",)], enemy="JS")
    g, moves = both(g, PH_PLAY, move_of(g, "8S"))
    assert g.spades == 8 and g.shield() == 0 and g.pending == 10  # immune: no shield
    assert g.phase == PH_DISCARD
    g, _ = both(g, PH_DISCARD, move_of(g, "10H"))
    assert g.cur == 1
    g.cur = 0
    g, moves = both(g, PH_PLAY, move_of(g, "JESTER"))
    assert g.phase == PH_JESTER and moves == [0, 1] and g.jesters == 1 and g.cancelled
    assert g.damage == 8  # a Jester deals nothing and skips step 4
    g, _ = both(g, PH_JESTER, 1)
    assert g.cur == 1 and g.phase == PH_PLAY
    assert g.shield() == 8  # earlier Spades start to count once immunity is cancelled
    g, _ = both(g, PH_PLAY, move_of(g, "2C"))
    assert g.pending == 2
    rules = dict(RULES, jester_choose_self=False)
    g = game(players=3, hands=[("JESTER",), ("2C",), ("3C",)], enemy="QD", rules=rules)
    g, moves = both(g, PH_PLAY, move_of(g, "JESTER"), rules=rules)
    assert moves == [1, 2]


def test_exact_kill_goes_on_top_of_tavern():
    g = game(hands=[("5S", "6H")], enemy="JH", damage=15, tavern=("2D", "3D"))
    g, moves = both(g, PH_PLAY, move_of(g, "5S"))
    assert g.tavern[-1] == parse_card("JH") and g.known_top == 1 and g.exact_kills == 1
    assert g.enemy_pos == 1 and g.damage == 0 and g.spades == 0
    assert g.phase == PH_PLAY and g.cur == 0  # the killer plays again, no step 4
    assert parse_card("5S") in g.discard and parse_card("JH") not in g.discard
    # the public top card is visible in the observation, the rest hidden
    obs = g.observation(False)
    assert obs[M.O_TAV + 2] == parse_card("JH") and obs[M.O_TAV] == M.NONE
    g = game(hands=[("6S", "6H")], enemy="JH", damage=15)
    g, _ = both(g, PH_PLAY, move_of(g, "6S"))
    assert g.discard[-1] == parse_card("JH") and g.tavern == []  # overkill: discard pile
    rules = dict(RULES, exact_kill_to_tavern=False)
    g = game(hands=[("5S", "6H")], enemy="JH", damage=15, rules=rules)
    g, _ = both(g, PH_PLAY, move_of(g, "5S"), rules=rules)
    assert g.discard[-1] == parse_card("JH")


def test_diamonds_deal_clockwise_skipping_full_hands():
    tav = ("2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H")  # top card last: 9H is drawn first
    hands = [("2D", "9C", "9S", "10S"), ("2C", "3C", "4C", "5C", "6C", "7C"), ("2S", "3S", "4S", "5S")]
    g = game(players=3, hands=hands, enemy="JC", tavern=tav)
    g, _ = both(g, PH_PLAY, move_of(g, "9S"))  # Spades: a shield, no draw
    assert g.hands == [cards("2D", "9C", "10S"), cards(*hands[1]), cards(*hands[2])]
    assert g.tavern == cards(*tav) and g.spades == 9 and g.damage == 9
    assert g.phase == PH_DISCARD and g.pending == 1 and g.cur == 0
    g = game(players=3, hands=[("AD", "7D", "9S", "10S"), ("2C", "3C", "4C", "5C", "6C", "7C"), ("2S", "3S", "4S", "5S")],
             enemy="JC", tavern=tav)
    g, _ = both(g, PH_PLAY, move_of(g, "AD", "7D"))  # X = 8 to draw
    # seat 0 (2 cards) and seat 2 (4 cards) draw alternately, seat 0 first; seat 1 is full
    # and skipped; once every hand is full the draw stops after 6 cards (2 stay in the deck)
    assert g.hands[0] == cards("9S", "10S", "9H", "7H", "5H", "4H")
    assert g.hands[1] == cards("2C", "3C", "4C", "5C", "6C", "7C")
    assert g.hands[2] == cards("2S", "3S", "4S", "5S", "8H", "6H")
    assert g.tavern == cards("2H", "3H") and g.damage == 8


def test_cannot_cover_damage_loses():
    g = game(hands=[("2C", "3C", "4H")], enemy="QH", tavern=("5H",), flips=0)
    g, moves = both(g, PH_PLAY, move_of(g, "2C"))
    # Queen attack 15 vs remaining hand 3 + 4 = 7: no discard set covers it
    assert g.phase == PH_DONE and g.status == 2 and g.reason == M.R_DAMAGE and moves == []


def test_solo_flips_medals_and_yield():
    g = game(hands=[("2C", "3C")], enemy="QH", tavern=tuple(f"{r}D" for r in range(2, 11)), flips=2)
    g, moves = both(g, PH_PLAY, YIELD)
    assert g.phase == PH_DISCARD and moves == [FLIP]  # 5 < 15: only a flip is left
    g, moves = both(g, PH_DISCARD, FLIP)
    assert g.flips_left == 1 and g.flips_used == 1 and len(g.hands[0]) == 8
    assert sorted(g.discard) == cards("2C", "3C")
    assert moves[-1] == FLIP and g.phase == PH_DISCARD
    g, moves = both(g, PH_DISCARD, moves[0])
    assert g.phase == PH_PLAY and g.turns == 1 and g.yields == 1
    # medal of a solo win: 3 - flips used
    g = game(hands=[("10C",)], enemy="KH", damage=20, flips=1)
    g.castle = g.castle[:9] + [g.castle[9], g.castle[10], g.castle[8]]
    g.enemy_pos = 11
    g.castle[11] = parse_card("KH")
    g.flips_used = 1
    g, _ = both(g, PH_PLAY, move_of(g, "10C"))
    rec = g.record()
    assert rec["win"] == 1 and rec["medal"] == 2 and rec["defeated"] == g.defeated


def test_multiplayer_yield_restriction_in_play():
    g = game(players=2, hands=[("5H", "10S"), ("4H",)], enemy="JD", yielded=(0, 1))
    moves = g.play_moves()
    assert YIELD not in moves  # the only other player yielded last turn
    g = game(players=2, hands=[("5H", "10S"), ("4H",)], enemy="JD", yielded=(0, 0))
    g, moves = both(g, PH_PLAY, YIELD)
    assert g.yielded == [1, 0] and g.pending == 10
    g, moves = both(g, PH_DISCARD, move_of(g, "10S"))
    assert g.cur == 1 and YIELD not in moves


def test_observation_hides_hidden_information():
    g = ref.Game(3, RULES, 1, 2)
    obs = g.observation(False)
    assert (obs[M.O_HANDS:M.O_HANDS + 6] == g.hands[0]).all()
    assert (obs[M.O_HANDS + 8:M.O_HANDS + 24] == M.NONE).all()
    assert (obs[M.O_TAV:M.O_TAV + len(g.tavern)] == M.NONE).all()
    assert obs[M.O_CASTLE] == g.castle[0] and (obs[M.O_CASTLE + 1:M.O_CASTLE + 12] == M.NONE).all()
    full = g.observation(True)
    assert (full == g.vector()).all()
    S = g.vector()
    kobs = np.zeros_like(S)
    E.observe_nb(S, kobs, int(S[M.O_CUR]), E.TABLES)
    assert (kobs == obs).all()
    g2 = copy.deepcopy(g)
    g2.tavern = g2.tavern[::-1]
    assert (g2.observation(False) == obs).all()
