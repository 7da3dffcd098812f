"""Hand-made river battle positions played by both engines (kernel and reference)."""
import numpy as np

from simcore.river import kernel as K
from simcore.river import model as M
from simcore.river import reference as ref
from simcore.rng import new_state

RULES = M.load_rules()
TABLES = M.make_tables()
LETTERS = "rygbp"     # red, yellow, green, blue, purple (deck.toml order)


def c(name: str) -> int:
    """'r5' -> red 5, 'p11' -> purple 11."""
    return M.card(LETTERS.index(name[0]), int(name[1:]))


def cs(text: str) -> list:
    return [c(x) for x in text.split()]


def position(phase=M.PH_A_PREP, cur=0, sides=None, hands=("", ""), deck="", disc="", tstate=None,
             logs=3, final=0, turn=1, damaged=None, done=None, tdeck=(), tactic_hands=((), ()),
             rest_discarded=False):
    """A state vector: tiles in fixed order (position p holds tile index p, id p + 1);
    ``sides`` maps (pos, seat) -> 'r1 y2'; completion stamps in the order sides are listed
    (or ``done`` maps (pos, seat) -> stamp); the deck string lists cards bottom first.
    ``rest_discarded``: every battle card not placed anywhere goes to the discards, so the
    cards unseen by the attacker are exactly the deck and the defender's hand."""
    S = np.zeros(M.S_LEN, np.int64)
    for lo, n in ((M.O_DECK, 64), (M.O_TDECK, 16), (M.O_HAND, 2 * M.MAX_HAND),
                  (M.O_SIDE, 2 * M.N_TILES * M.MAX_SIDE), (M.O_DISC, M.DISC_CAP)):
        S[lo:lo + n] = M.NONE
    S[M.O_PHASE], S[M.O_CUR], S[M.O_TURN] = phase, cur, turn
    S[M.O_WINNER], S[M.O_DECIDE] = -1, -1
    S[M.O_LOGS], S[M.O_FINAL] = logs, final
    tstate = tstate or {}
    for p in range(M.N_TILES):
        S[M.O_TILE + p] = p
        S[M.O_TSTATE + p] = tstate.get(p, 0)
    S[M.O_DAMAGED] = damaged if damaged is not None else sum(1 for v in tstate.values() if v == 1)
    stamp = 0
    for (p, seat), text in (sides or {}).items():
        cards = cs(text)
        q = p * 2 + seat
        S[M.O_SIDE_N + q] = len(cards)
        S[M.O_SIDE + q * 4:M.O_SIDE + q * 4 + len(cards)] = cards
        n = TABLES[M.TB_TILE + 4 * p + 2 * min(tstate.get(p, 0), 1)]
        if len(cards) >= n:
            stamp += 1
            S[M.O_DONE + q] = stamp
    for (p, seat), v in (done or {}).items():
        S[M.O_DONE + p * 2 + seat] = v
        stamp = max(stamp, v)
    S[M.O_STAMP] = stamp
    for seat in (0, 1):
        h = cs(hands[seat]) + [M.TACTIC0 + i for i in tactic_hands[seat]]
        S[M.O_HAND_N + seat] = len(h)
        S[M.O_HAND + seat * M.MAX_HAND:M.O_HAND + seat * M.MAX_HAND + len(h)] = h
    d = cs(deck)
    S[M.O_DECK_N] = len(d)
    S[M.O_DECK:M.O_DECK + len(d)] = d
    S[M.O_TDECK_N] = len(tdeck)
    S[M.O_TDECK:M.O_TDECK + len(tdeck)] = [M.TACTIC0 + i for i in tdeck]
    x = cs(disc)
    if rest_discarded:
        placed = set(x) | set(d) | set(cs(hands[0])) | set(cs(hands[1]))
        for text in (sides or {}).values():
            placed |= set(cs(text))
        x += [k for k in range(60) if k not in placed]
    S[M.O_DISC_N] = len(x)
    S[M.O_DISC:M.O_DISC + len(x)] = x
    return S


class Both:
    """The same position in the kernel and in the reference engine, kept in step."""

    def __init__(self, S, rules=RULES):
        self.rules = rules
        self.rv = M.rules_vector(rules)
        self.S = S.copy()
        self.moves = np.zeros(M.MAX_MOVES, np.int64)
        self.rng = new_state(0, 0, M.DOMAIN)
        self.phase, self.n = K.settle_nb(self.S, int(S[M.O_PHASE]), self.rv, TABLES, self.moves)
        self.g = ref.Game.from_vector(S, rules, tables=TABLES)
        self.check()

    def legal(self):
        return [int(x) for x in self.moves[:self.n]]

    def check(self):
        assert self.legal() == self.g.moves, (self.legal(), self.g.moves)
        assert self.phase == self.g.phase
        assert np.array_equal(self.S, self.g.vector()), np.nonzero(self.S != self.g.vector())[0]

    def play(self, mv):
        assert mv in self.legal(), (mv, self.legal())
        self.phase, self.n = K.apply_nb(self.S, self.phase, mv, self.rv, TABLES, self.rng, self.moves)
        self.g.apply(mv)
        self.check()
        return self

    def side(self, p, seat):
        q = p * 2 + seat
        return [int(x) for x in self.S[M.O_SIDE + q * 4:M.O_SIDE + q * 4 + self.S[M.O_SIDE_N + q]]]

    def hand(self, seat):
        b = M.O_HAND + seat * M.MAX_HAND
        return [int(x) for x in self.S[b:b + self.S[M.O_HAND_N + seat]]]

    def discards(self):
        return [int(x) for x in self.S[M.O_DISC:M.O_DISC + self.S[M.O_DISC_N]]]

    def __getitem__(self, off):
        return int(self.S[off])


def play(card_name, pos):
    return M.MV_PLAY + c(card_name) * 8 + pos
