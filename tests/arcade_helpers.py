"""Hand-made Throne Arcade positions played through both engines.

``Pos`` builds a reference ``Game`` in a chosen position (hands, top card, draw pile
order, pile under the top, named suit, pending draws, turns played in the round (default
1: a position after the round's first turn, where every lay matches), ...); ``S`` is the same position as
the kernel's state vector. ``play(move)`` applies a move in both engines (each with its
own copy of the same random stream) and asserts they reach the same state; ``moves()``
returns the legal moves of both engines after asserting they agree.
"""
from __future__ import annotations

import numpy as np

from simcore.arcade import kernel as K
from simcore.arcade import model as M
from simcore.arcade.model import DRAW, encode_lay
from simcore.arcade.reference import Game

DECK = M.load_deck()


def c(name: str) -> int:
    return DECK.parse(name)


def cards(text: str) -> list[int]:
    return [c(x) for x in text.split()]


def mask(text: str) -> int:
    return sum(1 << x for x in cards(text))


def lay(text: str, last: str | None = None, named: str | None = None) -> int:
    """The lay of the cards ``text`` ending on ``last`` (default: the only/last named card)."""
    cs = text.split()
    last = last or cs[-1]
    return encode_lay(mask(text), c(last), DECK.suits.index(named) if named else -1)


class Pos:
    def __init__(self, players=4, hands=None, top="IX-blue", draw="", under="", cur=0, named=None, pending=0,
                 last_out=-1, losses=None, dealt=None, round_=1, rules=None, seed=0, index=0, penalized=False,
                 elim=None, round_turn=1):
        self.rules = M.load_rules(overrides=rules or {})
        self.rv = M.rules_vector(self.rules)
        self.T = M.build_tables(DECK, self.rules)
        g = Game(players, self.rules, DECK, seed, index)
        hands = hands or {}
        for p in range(players):
            g.seats[p].hand = set(cards(hands.get(p, "")))
            g.seats[p].dealt = (dealt or {}).get(p, len(g.seats[p].hand))
            g.seats[p].losses = (losses or {}).get(p, 0)
        for p, (r, order) in (elim or {}).items():
            g.seats[p].elim_round, g.seats[p].elim_order = r, order
            g.n_elim = max(g.n_elim, order)
        g.top = c(top)
        g.draw_pile = cards(draw)          # bottom first: the LAST card is drawn first
        g.pile_under = set(cards(under))
        g.cur, g.named = cur, (DECK.suits.index(named) if named else -1)
        g.pending, g.last_out, g.round, g.penalized = pending, last_out, round_, penalized
        g.starter = 0
        g.round_turn = round_turn          # turns played in the round (default: not its first turn)
        self.g = g
        self.S = g.vector()
        self.krng = g.rng.copy()
        self.kmoves = np.zeros(M.MAX_MOVES, np.int64)

    def moves(self) -> list[int]:
        n = K.legal_moves_nb(self.S, self.rv, self.T, self.kmoves)
        km = [int(x) for x in self.kmoves[:n]]
        rm = self.g.legal_moves()
        assert km == rm, (km, rm)
        return rm

    def play(self, move: int) -> list[int]:
        """Apply ``move`` in both engines; returns the next legal moves (checked equal)."""
        assert move in self.moves(), f"{move} is not legal here"
        rm = self.g.apply(move)
        phase, n = K.apply_nb(self.S, M.PH_PLAY, move, self.rv, self.T, self.krng, self.kmoves)
        self.check_same()
        km = [int(x) for x in self.kmoves[:n]]
        assert km == rm and phase == self.g.phase
        return rm

    def check_same(self):
        v = self.g.vector()
        diff = np.nonzero(v != self.S)[0]
        assert len(diff) == 0, ("kernel and reference differ at", diff, v[diff], self.S[diff])
        assert np.array_equal(self.g.rng, self.krng)

    # readable views (reference side; equal to the kernel's by check_same)
    def hand(self, p) -> set[int]:
        return set(self.g.seats[p].hand)

    def hand_names(self, p) -> str:
        return " ".join(DECK.name(x) for x in sorted(self.g.seats[p].hand))

    @property
    def cur(self):
        return self.g.cur


def names(text: str) -> set[int]:
    return set(cards(text))


__all__ = ["Pos", "DECK", "DRAW", "c", "cards", "mask", "lay", "names"]
