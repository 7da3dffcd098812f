"""Pure-Python reference engine for Throne Arcade, written to be read next to the digest
(/work/shared/rules/throne-arcade.md). It plays the same game as the numba kernel
(``simcore.arcade.kernel``) from the same per-game random stream and hands strategies the
same observation vector and legal move list; tests hold the two to identical records
and final states. It shares only the data layer (``model``: deck, rules, encodings)
with the kernel, none of its rule code.

Conventions that fix which random numbers go where (the kernel follows them too):
- each round, every card (codes 0..n-1 in order) is shuffled (Fisher-Yates: for
  i = n-1 .. 1, j = below(i + 1), swap); the list is the draw pile, its top the last
  element; hands are dealt in blocks, seat by seat from the starter; then the top card
  is turned up as the starting card;
- a reshuffle takes the pile under the top card in ascending card order, then shuffles.

``Game(..., log=True)`` keeps a play-by-play (``Game.log_lines()``) for replays and the
golden test; bulk runs leave it off.
"""
from __future__ import annotations

from itertools import combinations

import numpy as np

from .. import rng as rngmod
from . import model as M
from .model import DRAW, NONE, PH_DONE, PH_PLAY, decode_lay, encode_lay


class Seat:
    def __init__(self):
        self.hand: set[int] = set()
        self.dealt = 0
        self.losses = 0
        self.elim_round = 0     # round of elimination, 0 while in the game
        self.elim_order = 0

    @property
    def in_round(self) -> bool:
        return len(self.hand) > 0


class Game:
    def __init__(self, players: int, rules: dict, deck: M.Deck, seed: int, index: int, log: bool = False):
        self.rules = rules
        self.deck = deck
        self.P = players
        self.rng = rngmod.new_state(seed, index, M.DOMAIN)            # shuffles
        self.srng = rngmod.new_state(seed, index, M.STRATEGY_DOMAIN)  # the strategies' draws
        self.seats = [Seat() for _ in range(players)]
        # which cards carry which effect (a special entry counts when its option is on)
        fx = {e: set() for e in M.EFFECTS}
        for sid, effect, codes in deck.specials:
            if rules[f"special_{sid}"]:
                fx[effect] |= set(codes)
        self.draw_cards, self.skip_cards = fx["draw"], fx["skip"]
        self.hand_cards, self.skull_cards = fx["name_suit"], fx["revive"]
        self.turn = 0               # turns of the whole game
        self.round = 0
        self.round_turn = 0
        self.round_start_turn = 0
        self.first = rules["first_starter"]
        self.starter = self.first
        self.cur = -1
        self.top = NONE
        self.pile_under: set[int] = set()   # the cards under the top card
        self.draw_pile: list[int] = []       # top = last
        self.named = -1
        self.pending = 0
        self.penalized = False
        self.last_out = -1
        self.winner = -1
        self.capped = M.CAP_NONE
        self.phase = PH_PLAY
        self.n_elim = 0
        self.revives = 0
        self.loser_r1 = -1
        self.first_out_r1 = -1
        self.reshuffles = 0
        self.n_draw_cards = self.n_skip_cards = self.n_hand_cards = 0
        self.penalty_drawn = 0
        self._log = [] if log else None
        self.drawn: list[int] = []
        self.illegal_seat = -1

    # -- log
    def note(self, fmt, *args):
        if self._log is not None:
            self._log.append((fmt, args))

    def log_lines(self) -> list[str]:
        return [fmt.format(*args) for fmt, args in (self._log or [])]

    def names(self, cards) -> str:
        return " ".join(self.deck.name(c) for c in sorted(cards)) or "-"

    # -- cards
    def suit(self, c):
        return self.deck.suit_of(c)

    def type(self, c):
        return self.deck.type_of(c)

    def shuffle(self, a: list):
        for i in range(len(a) - 1, 0, -1):
            j = rngmod.below_py(self.rng, i + 1)
            a[i], a[j] = a[j], a[i]

    def draw(self, p) -> bool:
        """Seat p draws the top card; an empty draw pile is first rebuilt from the pile
        under the top card. Nothing to draw: the draw is skipped."""
        if not self.draw_pile:
            if not self.pile_under:
                return False
            self.draw_pile = sorted(self.pile_under)
            self.pile_under = set()
            self.shuffle(self.draw_pile)
            self.reshuffles += 1
            self.note("  (the pile is reshuffled into a new draw pile of {} cards)", len(self.draw_pile))
        c = self.draw_pile.pop()
        self.seats[p].hand.add(c)
        self.drawn.append(c)
        return True

    def draw_n(self, p, k) -> int:
        got = 0
        for _ in range(k):
            if not self.draw(p):
                break
            got += 1
        return got

    def just_drawn(self) -> str:
        """Names of the cards drawn since the last call (for the log)."""
        out, self.drawn = self.drawn, []
        if self._log is None:
            return ""
        return self.names(out) if out else "nothing"

    # -- seats
    def next_seat(self, p, skips):
        """The (skips+1)-th seat holding cards clockwise after p (p counts on wrapping)."""
        left = skips + 1
        q = p
        while True:
            q = (q + 1) % self.P
            if self.seats[q].in_round:
                left -= 1
                if left == 0:
                    return q

    # -- legal moves
    def may_start(self, c) -> bool:
        """May card c be laid first (alone, or as a set's first card)?"""
        r = self.rules
        if r["starter_leads_freely"] and self.round_turn == 0:
            return True             # the round's first turn: the starter leads freely (the seed)
        if self.named >= 0:
            return self.suit(c) == self.named or (r["hand_answers_hand"] and c in self.hand_cards)
        if r["hand_on_anything"] and c in self.hand_cards:
            return True
        return self.suit(c) == self.suit(self.top) or self.type(c) == self.type(self.top)

    def legal_moves(self) -> list[int]:
        hand = sorted(self.seats[self.cur].hand)
        can_lay = any(self.may_start(c) for c in hand)
        moves = []
        if not can_lay or self.rules["draw_optional"]:
            moves.append(DRAW)
        if not can_lay:
            return moves
        by_type = {}
        for c in hand:
            by_type.setdefault(self.type(c), []).append(c)
        for group in by_type.values():
            for size in range(1, len(group) + 1):
                for cards in combinations(group, size):
                    for last in cards:
                        others = [c for c in cards if c != last]
                        first_ok = any(self.may_start(c) for c in others) if others else self.may_start(last)
                        if not first_ok:
                            continue
                        mask = sum(1 << c for c in cards)
                        if any(c in self.hand_cards for c in cards):
                            moves += [encode_lay(mask, last, s) for s in range(len(self.deck.suits))]
                        else:
                            moves.append(encode_lay(mask, last))
        return sorted(moves)

    # -- rounds
    def deal_round(self):
        r = self.rules
        if self.round >= r["max_rounds"]:
            return self.end_game(-1, M.CAP_ROUNDS)
        self.round += 1
        self.round_turn = 0
        self.round_start_turn = self.turn
        cards = list(range(self.deck.n))
        self.shuffle(cards)
        for i in range(self.P):
            p = (self.starter + i) % self.P
            s = self.seats[p]
            s.hand = set()
            s.dealt = 0
            if s.elim_round:
                continue
            s.dealt = max(r["hand_size"] - r["penalty_per_loss"] * s.losses, r["min_hand"])
            for _ in range(s.dealt):
                s.hand.add(cards.pop())
        self.top = cards.pop()
        self.draw_pile = cards
        self.pile_under = set()
        self.named, self.pending, self.last_out = -1, 0, -1
        self.note("round {}: seat {} deals and starts; starting card {}", self.round, self.starter,
                  self.deck.name(self.top))
        for p in range(self.P):
            if self.seats[p].elim_round:
                self.note("  seat {}: eliminated in round {}", p, self.seats[p].elim_round)
            else:
                self.note("  seat {}: {} card(s): {}", p, self.seats[p].dealt, self.names(self.seats[p].hand))
        q = self.starter
        if r["start_card_effect"]:
            if self.top in self.draw_cards and (self.top not in self.skull_cards or r["skull_draw_without_revive"]):
                self.pending = r["draw_per_card"]
            if self.top in self.skip_cards and r["skip_per_card"] > 0:
                q = self.next_seat(self.starter, r["skip_per_card"] - 1)   # the starter and skip_per_card - 1 more
        return self.begin_turn(q)

    def begin_turn(self, q):
        self.cur = q
        self.penalized = False
        if self.pending > 0:
            self.drawn = []
            got = self.draw_n(q, self.pending)
            self.penalty_drawn += got
            self.note("  seat {} draws {} for the VIIs/Lords laid: {}", q, got, self.just_drawn())
            self.pending = 0
            self.penalized = True
        self.phase = PH_PLAY
        return self.legal_moves()

    def end_game(self, winner, capped):
        self.winner, self.capped = winner, capped
        self.phase, self.cur = PH_DONE, -1
        if capped:
            self.note("game capped ({})", M.CAP_NAMES[capped])
        return []

    def end_round(self, loser):
        s = self.seats[loser]
        s.losses += 1
        if self.round == 1:
            self.loser_r1 = loser
        self.note("round {} lost by seat {} (lost rounds: {})", self.round, loser, s.losses)
        if s.dealt <= self.rules["elimination_hand"]:
            self.n_elim += 1
            s.elim_round, s.elim_order = self.round, self.n_elim
            self.note("seat {} started the round with {} card(s) and is eliminated", loser, s.dealt)
        alive = [p for p in range(self.P) if not self.seats[p].elim_round]
        if len(alive) == 1:
            self.note("seat {} wins the game", alive[0])
            return self.end_game(alive[0], M.CAP_NONE)
        st = loser
        while self.seats[st].elim_round:
            st = (st + 1) % self.P
        self.starter = st
        return self.deal_round()

    # -- one turn
    def apply(self, move):
        r = self.rules
        p = self.cur
        me = self.seats[p]
        self.turn += 1
        self.round_turn += 1
        prev_out, self.last_out = self.last_out, -1
        skips = 0
        if move == DRAW:
            if not self.penalized or r["draw_after_penalty"]:
                self.drawn = []
                self.draw(p)
                self.note("  seat {} draws {}", p, self.just_drawn())
            else:
                self.note("  seat {} lays nothing more", p)
            if not r["named_suit_persists"]:
                self.named = -1
        else:
            mask, last, named = decode_lay(move)
            cards = [c for c in range(self.deck.n) if mask >> c & 1]
            assert all(c in me.hand for c in cards)
            self.pile_under.add(self.top)
            self.pile_under |= set(cards) - {last}
            old_top, self.top = self.top, last
            me.hand -= set(cards)
            self.named = named
            n_draw = sum(c in self.draw_cards for c in cards)
            skips = sum(c in self.skip_cards for c in cards)
            self.n_draw_cards += n_draw
            self.n_skip_cards += skips
            skips *= r["skip_per_card"]      # players skipped (Aces x skip_per_card)
            self.n_hand_cards += sum(c in self.hand_cards for c in cards)
            if self._log is not None:
                laid = " ".join([self.names(set(cards) - {last}), self.deck.name(last)]) if len(cards) > 1 \
                    else self.deck.name(last)
                self.note("  seat {} lays {} on {} (top {}){}", p, laid, self.deck.name(old_top), self.deck.name(last),
                          f", names {self.deck.suits[named]}" if named >= 0 else "")
            skulls = [c for c in cards if c in self.skull_cards]
            if skulls:
                revived = False
                if prev_out >= 0 and not self.seats[prev_out].in_round:
                    self.drawn = []
                    if self.draw_n(prev_out, r["revive_draw"]) > 0:
                        revived = True
                        self.revives += 1
                        self.note("  the skull VII brings seat {} back: it draws {}", prev_out, self.just_drawn())
                own_draw = sum(c in self.draw_cards for c in skulls)
                if revived and not r["skull_draw_when_reviving"]:
                    n_draw -= own_draw
                elif not revived and not r["skull_draw_without_revive"]:
                    n_draw -= own_draw
            self.pending += n_draw * r["draw_per_card"]
            if not me.hand:
                self.last_out = p
                if self.round == 1 and self.first_out_r1 < 0:
                    self.first_out_r1 = p
                self.note("  seat {} has laid its last card and leaves the round", p)
                holding = [q for q in range(self.P) if self.seats[q].in_round]
                if len(holding) <= 1:
                    self.pending = 0
                    return self.end_round(holding[-1] if holding else p)
        if self.round_turn >= r["max_turns_per_round"]:
            return self.end_game(-1, M.CAP_TURNS)
        if skips:
            self.note("  {} seat(s) skipped", skips)
        return self.begin_turn(self.next_seat(p, skips))

    # -- the state vector (layout of simcore.arcade.model), for strategies and tests
    def vector(self) -> np.ndarray:
        S = np.zeros(M.S_LEN, np.int64)
        S[M.O_P], S[M.O_CUR], S[M.O_TURN], S[M.O_ROUND] = self.P, self.cur, self.turn, self.round
        S[M.O_RTURN], S[M.O_TOP], S[M.O_NAMED], S[M.O_PEND] = self.round_turn, self.top, self.named, self.pending
        S[M.O_LAST_OUT], S[M.O_PENALIZED], S[M.O_PHASE] = self.last_out, int(self.penalized), self.phase
        S[M.O_STARTER], S[M.O_WINNER], S[M.O_CAPPED], S[M.O_NELIM] = self.starter, self.winner, self.capped, self.n_elim
        S[M.O_REVIVES], S[M.O_LOSER1], S[M.O_FIRSTOUT1] = self.revives, self.loser_r1, self.first_out_r1
        S[M.O_RESHUF], S[M.O_DRAWCARDS], S[M.O_SKIPCARDS] = self.reshuffles, self.n_draw_cards, self.n_skip_cards
        S[M.O_HANDCARDS], S[M.O_PENDRAWN] = self.n_hand_cards, self.penalty_drawn
        S[M.O_RSTART_TURN], S[M.O_FIRST] = self.round_start_turn, self.first
        d = self.deck
        S[M.O_NCARDS], S[M.O_NSUITS], S[M.O_NTYPES], S[M.O_COPIES] = d.n, len(d.suits), len(d.types), d.copies
        S[M.O_FX_DRAW], S[M.O_FX_SKIP] = sum(1 << c for c in self.draw_cards), sum(1 << c for c in self.skip_cards)
        S[M.O_FX_NAME], S[M.O_FX_REVIVE] = sum(1 << c for c in self.hand_cards), sum(1 << c for c in self.skull_cards)
        S[M.O_DISC] = sum(1 << c for c in self.pile_under)
        S[M.O_DRAW_N] = len(self.draw_pile)
        S[M.O_DRAW:M.O_DRAW + M.MAX_CARDS] = NONE
        S[M.O_DRAW:M.O_DRAW + len(self.draw_pile)] = self.draw_pile
        for p, s in enumerate(self.seats):
            S[M.O_HAND + p] = sum(1 << c for c in s.hand)
            S[M.O_HAND_N + p] = len(s.hand)
            S[M.O_DEALT + p], S[M.O_LOSSES + p] = s.dealt, s.losses
            S[M.O_ELIM_ROUND + p], S[M.O_ELIM_ORDER + p] = s.elim_round, s.elim_order
        return S

    def observation(self, seat) -> np.ndarray:
        """What ``seat`` may see: its own hand, the pile, hand sizes, public counters."""
        S = self.vector()
        for q in range(M.MAX_PLAYERS):
            if q != seat:
                S[M.O_HAND + q] = 0
        S[M.O_DRAW:M.O_DRAW + len(self.draw_pile)] = NONE
        return S

    def record(self) -> dict:
        rec = {
            "winner": self.winner, "capped": int(self.capped != 0), "turns": self.turn, "first": self.first,
            "players": self.P, "rounds": self.round, "cap_kind": self.capped, "loser_r1": self.loser_r1,
            "first_out_r1": self.first_out_r1, "revives": self.revives, "reshuffles": self.reshuffles,
            "draw_cards": self.n_draw_cards, "skip_cards": self.n_skip_cards, "hand_cards": self.n_hand_cards,
            "penalty_drawn": self.penalty_drawn, "last_round_turns": self.turn - self.round_start_turn,
        }
        for p in range(M.MAX_PLAYERS):
            s = self.seats[p] if p < self.P else Seat()
            rec[f"elim_round_{p}"], rec[f"elim_order_{p}"], rec[f"losses_{p}"] = s.elim_round, s.elim_order, s.losses
        return rec


def play_game(players: int, rules: dict, deck: M.Deck, seed: int, index: int, deciders, data,
              rules_vec=None, log: bool = False):
    """Play one game; ``deciders[seat](phase, obs, moves, n_moves, rules_vec, data[seat], rng)
    -> index`` are the seats' strategies (the same compiled functions the kernel calls;
    ``data[seat]`` = that seat's strategy parameters). An answer outside the move list
    stops the game where it is (``Game.illegal_seat`` = that seat), as the shared driver
    does. Returns the ``Game``."""
    rules_vec = M.rules_vector(rules) if rules_vec is None else rules_vec
    g = Game(players, rules, deck, seed, index, log=log)
    moves = g.deal_round()
    buf = np.zeros(M.MAX_MOVES, np.int64)
    while g.phase != PH_DONE:
        n = len(moves)
        buf[:n] = moves
        k = int(deciders[g.cur](g.phase, g.observation(g.cur), buf, n, rules_vec, data[g.cur], g.srng))
        if not 0 <= k < n:
            g.note("seat {} answered {} for {} legal moves: the game stops", g.cur, k, n)
            g.illegal_seat = g.cur
            break
        moves = g.apply(moves[k])
    return g
