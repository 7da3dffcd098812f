"""Pure-Python reference engine for Regicide, written to be read next to the digest
(/work/shared/rules/regicide.md). It plays the same game as the numba kernel
(``simcore.regicide.kernel``) from the same per-game random stream, and tests hold the two
to identical game records and final states.

Conventions shared with the kernel (they fix which random numbers go where):
- shuffles are Fisher-Yates: for i = n-1 .. 1, j = below(i + 1), swap a[i], a[j];
- the Castle deck is Jacks, Queens, Kings, each group shuffled in that order;
- the Tavern deck (all Aces and 2-10 in card-code order, then the Jesters) is shuffled,
  then dealt seat by seat, each seat filled to the hand limit; lists are bottom first,
  the top card is the last element;
- every decision goes to the strategy as (phase, observation vector, sorted legal moves).
"""
from __future__ import annotations

from itertools import combinations

import numpy as np

from .. import rng as rngmod
from . import model as M
from .model import (CLUBS, DIAMONDS, FLIP, HEARTS, JESTER, MAX_HAND, NONE, PH_DISCARD, PH_DONE,
                    PH_JESTER, PH_PLAY, SPADES, YIELD)


# ------------------------------------------------------------------ card values
def rank(c):
    return c // 4 + 1


def suit(c):
    return c % 4


def value(c, rules):
    """Attack value and discard value of a card in hand."""
    if c == JESTER:
        return 0
    r = rank(c)
    if r <= 10:
        return r  # Ace = 1
    return rules[("jack_value", "queen_value", "king_value")[r - 11]]


def enemy_stats(c, rules):
    name = ("jack", "queen", "king")[rank(c) - 11]
    return rules[f"{name}_attack"], rules[f"{name}_health"]


# ------------------------------------------------------------------ legal moves
def legal_play_sets(hand, rules):
    """Every legal card set for step 1 as sorted tuples of hand positions:
    singles (any card, Jester included), combos (2-4 cards of one rank, no Aces, total
    <= combo_max_total) and animal-companion pairs (an Ace plus one non-Jester card)."""
    n = len(hand)
    found = set()
    for i in range(n):
        found.add((i,))
    for size in (2, 3, 4):
        for idx in combinations(range(n), size):
            cards = [hand[i] for i in idx]
            if any(c == JESTER for c in cards):
                continue
            ranks = {rank(c) for c in cards}
            if len(ranks) == 1 and 1 not in ranks and sum(value(c, rules) for c in cards) <= rules["combo_max_total"]:
                found.add(idx)
    if rules["companions"]:
        for i, j in combinations(range(n), 2):
            a, b = hand[i], hand[j]
            if JESTER in (a, b):
                continue
            if rank(a) == 1 or rank(b) == 1:
                found.add((i, j))
    return sorted(found, key=lambda idx: sum(1 << i for i in idx))


def mask_of(idx):
    return sum(1 << i for i in idx)


def positions(mask):
    return [i for i in range(MAX_HAND) if mask >> i & 1]


def legal_discard_masks(hand, need, rules):
    """Every set of hand positions whose values add up to at least ``need`` (all of them,
    minimal or not), as masks in ascending order. Nothing to suffer: only the empty set."""
    if need <= 0:
        return [0]
    out = []
    for mask in range(1 << len(hand)):
        if sum(value(hand[i], rules) for i in positions(mask)) >= need:
            out.append(mask)
    return out


def minimal_discard_masks(hand, need, rules):
    """The legal discard sets from which no card can be dropped."""
    out = []
    for m in legal_discard_masks(hand, need, rules):
        tot = sum(value(hand[i], rules) for i in positions(m))
        if all(tot - value(hand[i], rules) < need for i in positions(m)) or m == 0:
            out.append(m)
    return out


# ------------------------------------------------------------------ the game
class Game:
    def __init__(self, players: int, rules: dict, seed: int, index: int):
        self.rules = rules
        self.P = players
        self.rng = rngmod.new_state(seed, index, M.DOMAIN)            # shuffles
        self.srng = rngmod.new_state(seed, index, M.STRATEGY_DOMAIN)  # the strategies' draws
        self.max_hand = rules[f"hand_size_{players}"]
        self.cur = 0
        self.enemy_pos = 0
        self.damage = 0
        self.spades = 0
        self.cancelled = False
        self.flips_left = rules["solo_flips"] if players == 1 else 0
        self.flips_used = 0
        self.turns = self.defeated = self.jesters = self.yields = self.exact_kills = 0
        self.status = 0
        self.reason = M.R_NONE
        self.known_top = 0
        self.pending = 0
        self.phase = PH_PLAY
        self.yielded = [0] * players
        self.hands = [[] for _ in range(players)]
        self.discard = []
        self.played = []
        # Castle: Jacks on top, then Queens, then Kings; each group shuffled
        self.castle = []
        for r in (11, 12, 13):
            group = [M.card(r, s) for s in range(4)]
            self.shuffle(group)
            self.castle += group
        # Tavern: Aces and 2-10 plus the Jesters for this player count
        tavern = [M.card(r, s) for r in range(1, 11) for s in range(4)]
        tavern += [JESTER] * rules[f"jesters_{players}"]
        self.shuffle(tavern)
        self.tavern = tavern
        for p in range(players):
            self.refill(p)

    # -- random helpers
    def below(self, n):
        return rngmod.below_py(self.rng, n)

    def shuffle(self, a):
        for i in range(len(a) - 1, 0, -1):
            j = self.below(i + 1)
            a[i], a[j] = a[j], a[i]

    # -- piles
    def draw(self, p):
        card = self.tavern.pop()
        if self.known_top > 0:
            self.known_top -= 1
        self.hands[p].append(card)

    def refill(self, p):
        while len(self.hands[p]) < self.max_hand and self.tavern:
            self.draw(p)

    @property
    def enemy(self):
        return self.castle[self.enemy_pos]

    def immune_suit(self):
        if not self.rules["immunity"] or self.cancelled:
            return -1
        return suit(self.enemy)

    def shield(self):
        if self.rules["immunity"] and suit(self.enemy) == SPADES and not self.cancelled:
            return 0
        return self.spades

    # -- legal moves
    def may_yield(self):
        if self.P == 1:
            return bool(self.rules["solo_yield_allowed"])
        if not self.rules["yield_restriction"]:
            return True
        others = [self.yielded[p] for p in range(self.P) if p != self.cur]
        return not all(others)

    def play_moves(self):
        hand = self.hands[self.cur]
        moves = [mask_of(idx) for idx in legal_play_sets(hand, self.rules)]
        if self.may_yield():
            moves.append(YIELD)
        if self.P == 1 and self.flips_left > 0 and self.rules["flip_at_step1"]:
            moves.append(FLIP)
        return moves

    def discard_moves(self):
        moves = legal_discard_masks(self.hands[self.cur], self.pending, self.rules)
        if self.P == 1 and self.flips_left > 0 and self.rules["flip_at_step4"]:
            moves.append(FLIP)
        return moves

    def jester_moves(self):
        return [p for p in range(self.P) if p != self.cur or self.rules["jester_choose_self"]]

    # -- rules
    def flip(self):
        """Solo: discard the whole hand and refill it to the limit (no Diamonds draw)."""
        p = self.cur
        self.discard += self.hands[p]
        self.hands[p] = []
        self.refill(p)
        self.flips_left -= 1
        self.flips_used += 1

    def lose(self, reason):
        self.status, self.reason, self.phase = 2, reason, PH_DONE

    def hearts(self, x):
        """Shuffle the discard pile, put x cards from it under the Tavern deck."""
        self.shuffle(self.discard)
        k = min(x, len(self.discard))
        self.tavern = self.discard[:k] + self.tavern
        self.discard = self.discard[k:]

    def diamonds(self, x):
        """Draw x cards, current player first then clockwise, skipping full hands."""
        drawn, p, skipped = 0, self.cur, 0
        while drawn < x and self.tavern and skipped < self.P:
            if len(self.hands[p]) < self.max_hand:
                self.draw(p)
                drawn += 1
                skipped = 0
            else:
                skipped += 1
            p = (p + 1) % self.P

    def begin_turn(self):
        """Step 1 of the current player (or the end of the game)."""
        if self.turns >= self.rules["max_turns"]:
            self.lose(M.R_TURN_CAP)
            return []
        moves = self.play_moves()
        if not moves:
            self.lose(M.R_NO_MOVE)
            return []
        self.phase = PH_PLAY
        return moves

    def begin_step4(self):
        attack, _ = enemy_stats(self.enemy, self.rules)
        self.pending = max(0, attack - self.shield())
        moves = self.discard_moves()
        if not moves:
            self.lose(M.R_DAMAGE)
            return []
        self.phase = PH_DISCARD
        return moves

    def apply_play(self, move):
        p = self.cur
        if move == FLIP:
            self.flip()
            return self.begin_turn()
        self.turns += 1
        if move == YIELD:
            self.yielded[p] = 1
            self.yields += 1
            return self.begin_step4()
        self.yielded[p] = 0
        idx = positions(move)
        cards = [self.hands[p][i] for i in idx]
        self.hands[p] = [c for i, c in enumerate(self.hands[p]) if i not in idx]
        self.played += cards
        if cards == [JESTER]:
            # attack 0, no power; cancels immunity; skip steps 3 and 4; choose who goes next
            if self.rules["jester_cancels_immunity"]:
                self.cancelled = True
            self.jesters += 1
            self.phase = PH_JESTER
            return self.jester_moves()
        # step 2: suit powers at the combined total x
        x = sum(value(c, self.rules) for c in cards)
        immune = self.immune_suit()
        suits = {suit(c) for c in cards} - {immune}
        red = [HEARTS, DIAMONDS] if self.rules["hearts_before_diamonds"] else [DIAMONDS, HEARTS]
        for s in red:
            if s in suits:
                self.hearts(x) if s == HEARTS else self.diamonds(x)
        if SPADES in {suit(c) for c in cards}:
            self.spades += x  # counted now; shields only while the enemy is not immune to Spades
        # step 3: deal damage
        self.damage += 2 * x if CLUBS in suits else x
        _, health = enemy_stats(self.enemy, self.rules)
        if self.damage >= health:
            self.defeated += 1
            self.discard += self.played
            self.played = []
            if self.damage == health and self.rules["exact_kill_to_tavern"]:
                self.tavern.append(self.enemy)
                self.known_top += 1
                self.exact_kills += 1
            else:
                self.discard.append(self.enemy)
            self.enemy_pos += 1
            self.damage = self.spades = 0
            self.cancelled = False
            if self.enemy_pos == M.N_CASTLE:
                self.status, self.phase = 1, PH_DONE
                return []
            return self.begin_turn()  # the killer skips step 4 and plays again
        return self.begin_step4()

    def apply_discard(self, move):
        if move == FLIP:
            self.flip()
            return self.begin_step4()
        p = self.cur
        idx = positions(move)
        self.discard += [self.hands[p][i] for i in idx]
        self.hands[p] = [c for i, c in enumerate(self.hands[p]) if i not in idx]
        self.cur = (p + 1) % self.P
        return self.begin_turn()

    def apply_jester(self, seat):
        self.cur = seat
        return self.begin_turn()

    # -- observation (the state vector layout of simcore.regicide.model)
    def vector(self) -> np.ndarray:
        S = np.full(M.S_LEN, NONE, np.int64)
        S[M.O_P], S[M.O_MAXH], S[M.O_CUR], S[M.O_ENEMY] = self.P, self.max_hand, self.cur, self.enemy_pos
        S[M.O_DAMAGE], S[M.O_SPADES], S[M.O_CANCEL] = self.damage, self.spades, int(self.cancelled)
        S[M.O_FLIPS], S[M.O_FLIPS_USED], S[M.O_TURNS] = self.flips_left, self.flips_used, self.turns
        S[M.O_DEFEATED], S[M.O_JESTERS], S[M.O_YIELDS] = self.defeated, self.jesters, self.yields
        S[M.O_STATUS], S[M.O_REASON], S[M.O_KNOWN_TOP] = self.status, self.reason, self.known_top
        S[M.O_PENDING], S[M.O_PHASE], S[M.O_EXACT] = self.pending, self.phase, self.exact_kills
        S[M.O_EXACT + 1] = 0
        for p in range(M.MAX_PLAYERS):
            S[M.O_YIELDED + p] = self.yielded[p] if p < self.P else 0
            hand = self.hands[p] if p < self.P else []
            S[M.O_HAND_N + p] = len(hand)
            S[M.O_HANDS + p * MAX_HAND: M.O_HANDS + p * MAX_HAND + len(hand)] = hand
        S[M.O_CASTLE:M.O_CASTLE + M.N_CASTLE] = self.castle
        for off_n, off, pile in ((M.O_TAV_N, M.O_TAV, self.tavern), (M.O_DISC_N, M.O_DISC, self.discard),
                                 (M.O_PLAYED_N, M.O_PLAYED, self.played)):
            S[off_n] = len(pile)
            S[off:off + len(pile)] = pile
        return S

    def observation(self, reveal: bool) -> np.ndarray:
        """What the player to act may see: own hand and public information; the Tavern
        deck below its public top cards, the castle below the current enemy and the
        other hands are hidden (NONE) unless ``reveal`` (the labelled cheat)."""
        S = self.vector()
        if reveal:
            return S
        for p in range(self.P):
            if p != self.cur:
                S[M.O_HANDS + p * MAX_HAND: M.O_HANDS + (p + 1) * MAX_HAND] = NONE
        S[M.O_TAV:M.O_TAV + len(self.tavern) - self.known_top] = NONE
        S[M.O_CASTLE + self.enemy_pos + 1:M.O_CASTLE + M.N_CASTLE] = NONE
        return S

    def record(self) -> dict:
        won = self.status == 1
        end = self.castle[self.enemy_pos] if not won else None
        medal = 0
        if won and self.P == 1:
            medal = max(1, 3 - self.flips_used)
        return {
            "win": int(won), "players": self.P, "defeated": self.defeated, "end_pos": self.enemy_pos,
            "end_rank": rank(end) if end is not None else 0, "end_suit": suit(end) if end is not None else -1,
            "turns": self.turns, "flips_used": self.flips_used, "medal": medal, "jesters": self.jesters,
            "yields": self.yields, "exact_kills": self.exact_kills, "reason": self.reason,
        }


def play_game(players: int, rules: dict, seed: int, index: int, decide, data, reveal=False,
              rules_vec=None, trace: list | None = None):
    """Play one game. ``decide`` is the strategy of every seat, or a list with one per
    seat: ``decide(phase, obs, moves, n_moves, rules_vec, data, rng) -> index`` (the same
    numba functions the kernel calls); ``data`` the strategy parameters (one row per seat
    when 2-D); ``reveal`` per seat likewise (the labelled cheat sees everything).
    An answer outside the legal moves stops the game: ``g.illegal_seat`` names the seat.
    Returns the ``Game``."""
    if rules_vec is None:
        rules_vec = M.rules_vector(rules)
    per_seat = lambda x: list(x) if isinstance(x, (list, tuple)) else [x] * players  # noqa: E731
    decide, reveal = per_seat(decide), per_seat(reveal)
    data = np.asarray(data)
    g = Game(players, rules, seed, index)
    g.illegal_seat = -1
    moves = g.begin_turn()
    buf = np.zeros(M.MAX_MOVES, np.int64)
    while g.phase != PH_DONE:
        n = len(moves)
        buf[:n] = moves
        seat = g.cur
        row = data[seat] if data.ndim == 2 else data
        k = int(decide[seat](g.phase, g.observation(bool(reveal[seat])), buf, n, rules_vec, row, g.srng))
        if not 0 <= k < n:
            g.illegal_seat = seat
            break
        if trace is not None:
            trace.append((g.phase, moves[k]))
        if g.phase == PH_PLAY:
            moves = g.apply_play(moves[k])
        elif g.phase == PH_DISCARD:
            moves = g.apply_discard(moves[k])
        else:
            moves = g.apply_jester(moves[k])
    return g
