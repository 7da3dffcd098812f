"""Pure-Python reference engine for the river battle, written to be read next to the
digest (/work/shared/rules/river-battle.md). It plays the same game as the numba kernel
(``simcore.river.kernel``) from the same per-game random stream; tests hold the two to
identical legal move lists, records and final state vectors. It shares no rule code with
the kernel (only the data loaders and the layout constants of ``model``), and it can
write a readable play-by-play (``log=True``).

Conventions shared with the kernel (they fix which random numbers go where):
- setup draws: the tile order (if shuffled), then the battle pile, then the tactic pile
  (if tactic cards are on), each a Fisher-Yates shuffle (for i = n-1 .. 1,
  j = below(i + 1), swap); piles are bottom first, the top card is the last element;
- the attacker is dealt its hand first, then the defender, one card at a time from the top;
- moves are integers (``model.MV_*``), listed in ascending order; a decision whose only
  legal move is END is taken automatically.
"""
from __future__ import annotations

from itertools import combinations

import numpy as np

from .. import rng as rngmod
from . import model as M
from .model import (ATTACKER, DEFENDER, KEY_LOW, KEY_TYPE, M_ALL, M_COLOUR, M_LOW, M_RUNS, M_SAME,
                    M_SUM, MODE_NAMES, MV_CLAIM, MV_DRAW_BATTLE, MV_DRAW_TACTIC, MV_END, MV_LOG,
                    MV_PLAY, MV_RETREAT, MV_STEAL, N_TILES, NONE, PH_A_END, PH_A_PLAY, PH_A_PREP,
                    PH_D_PLAY, PH_D_PREP, PH_DONE, PH_DRAW, TACTIC0, VSTRIDE)


def value(c):
    return c % VSTRIDE


def colour(c):
    return c // VSTRIDE


# ------------------------------------------------------------------ formations
def is_run(cards):
    vals = sorted(value(c) for c in cards)
    return len(set(vals)) == len(vals) and vals[-1] - vals[0] == len(vals) - 1


def formation_type(cards, mode):
    """The formation's rank on a tile with rule ``mode`` (higher is stronger)."""
    same_colour = len({colour(c) for c in cards}) == 1
    same_value = len({value(c) for c in cards}) == 1
    run = is_run(cards)
    if mode == M_ALL:
        if run and same_colour:
            return 4
        if same_value:
            return 3
        if same_colour:
            return 2
        return 1 if run else 0
    if mode == M_RUNS:
        return int(run)
    if mode == M_COLOUR:
        return int(same_colour)
    if mode == M_SAME:
        return int(same_value)
    return 0


def formation_key(cards, mode):
    """Key of a complete formation: type first, then the sum (reversed on 'lowest')."""
    s = sum(value(c) for c in cards)
    if mode == M_LOW:
        return KEY_LOW - s
    return formation_type(cards, mode) * KEY_TYPE + s


def type_name(cards, mode):
    if mode in (M_SUM, M_LOW):
        return "sum"
    t = formation_type(cards, mode)
    if mode == M_ALL:
        return M.TYPE_NAMES_ALL[t]
    return {M_RUNS: "run", M_COLOUR: "colour", M_SAME: "same strength"}[mode] if t else "sum"


def best_completion_key(cards, n, mode, pool):
    """The strongest key any completion of ``cards`` to ``n`` cards with distinct cards of
    ``pool`` (a set) can reach; None if the pool is too small. Each formation family is
    maximised on its own (its best member is found directly), and the best completion's
    key is the best of these (every completion also counts as a plain sum)."""
    m = n - len(cards)
    if m == 0:
        return formation_key(cards, mode)
    if len(pool) < m:
        return None
    base = sum(value(c) for c in cards)
    by_value = sorted((value(c) for c in pool), reverse=True)
    if mode == M_LOW:
        return KEY_LOW - base - sum(sorted(by_value)[:m])
    best = base + sum(by_value[:m])                      # a plain sum
    if mode == M_SUM:
        return best
    candidates = []
    vals = {value(c) for c in cards}
    cols = {colour(c) for c in cards}
    distinct = len(vals) == len(cards)
    windows = [set(range(lo, lo + n)) for lo in range(VSTRIDE - n, -1, -1)]   # highest first
    pool_values = {value(c) for c in pool}
    if mode in (M_ALL, M_RUNS) and distinct:
        for w in windows:
            if vals <= w and (w - vals) <= pool_values:
                candidates.append(KEY_TYPE + sum(w))      # a run ranks 1 on 'all' and 'runs'
                break
    if mode in (M_ALL, M_COLOUR) and len(cols) <= 1:
        rank = 2 if mode == M_ALL else 1
        for col in (cols or range(5)):
            mine = sorted((value(c) for c in pool if colour(c) == col), reverse=True)
            if len(mine) >= m:
                candidates.append(rank * KEY_TYPE + base + sum(mine[:m]))
            if mode == M_ALL:
                have = set(mine)
                for w in windows:
                    if vals <= w and (w - vals) <= have:
                        candidates.append(4 * KEY_TYPE + sum(w))
                        break
    if mode in (M_ALL, M_SAME) and len(vals) <= 1:
        rank = 3 if mode == M_ALL else 1
        for v in (vals or range(VSTRIDE)):
            if sum(1 for c in pool if value(c) == v) >= m:
                candidates.append(rank * KEY_TYPE + n * v)
    return max([best] + candidates)


def brute_completion_key(cards, n, mode, pool):
    """``best_completion_key`` by trying every completion (tests only)."""
    m = n - len(cards)
    if len(pool) < m:
        return None
    return max(formation_key(list(cards) + list(extra), mode) for extra in combinations(sorted(pool), m))


# ------------------------------------------------------------------ the game
class Dam:
    """One position of the row: a two-sided tile and the cards on both sides."""

    def __init__(self, tile_index, tile):
        self.tile_index = tile_index
        self.tile = tile
        self.state = 0                     # 0 intact, 1 damaged, 2 destroyed
        self.sides = ([], [])              # attacker's, defender's; first played first
        self.done = [0, 0]                 # completion stamps (0 = not complete)

    @property
    def id(self):
        return self.tile["id"]

    def rule(self):
        return self.tile["intact"] if self.state == 0 else self.tile["damaged"]

    def size(self):
        return self.rule()[0]

    def mode(self):
        return self.rule()[1]

    def complete(self, seat):
        return len(self.sides[seat]) >= self.size()

    def describe(self):
        n, mode = self.rule()
        return f"dam {self.id} ({'intact' if self.state == 0 else 'damaged'}: {n} cards, {MODE_NAMES[mode]})"


class Game:
    def __init__(self, rules: dict, seed: int, index: int, tables=None, log: bool = False):
        self.rules = rules
        self.rng = rngmod.new_state(seed, index, M.DOMAIN)
        self.srng = rngmod.new_state(seed, index, M.STRATEGY_DOMAIN)
        self.content(tables)
        self.logging = log
        self.lines = []
        order = list(range(N_TILES))
        if rules["shuffle_tiles"]:
            self.shuffle(order)
        self.dams = [Dam(i, self.tiles[i]) for i in order]
        self.pile = sorted(self.full)
        self.shuffle(self.pile)
        self.tactic_pile = []
        if rules["tactics"]:
            self.tactic_pile = [TACTIC0 + i for i in range(len(self.tactic_list))]
            self.shuffle(self.tactic_pile)
        self.hands = ([], [])
        self.discards = []
        self.logs = rules["logs"]
        self.final = 0              # 0 normal, 1 deck ran out, 2 the attacker's last turn
        self.turn = 0
        self.cur = ATTACKER
        self.stamp = 0
        self.damaged = 0
        self.winner = -1
        self.reason = M.END_NONE
        self.decide = -1
        self.capped = False
        self.counts = dict(claims=0, retreats=0, logs_used=0, cancels=0, steals=0)
        for seat in (ATTACKER, DEFENDER):
            for _ in range(rules["hand_size"]):
                if self.pile:
                    self.draw(seat)
        self.deck0 = len(self.pile)
        self.dams_goal = rules["dams_to_win"]
        self.illegal_seat = -1
        self.say(lambda: "setup: dams in order " + ", ".join(d.describe() for d in self.dams))
        self.say(lambda: f"setup: attacker holds {self.cards(self.hands[0])}, defender holds "
                         f"{self.cards(self.hands[1])}")
        self.phase = self.begin_turn(ATTACKER)
        self.settle()

    # -- helpers
    def content(self, tables):
        """The deck, tiles and tactic cards: from the data files (``tables`` None) or from
        the constant table built from them (``model.make_tables``, possibly from a
        designer's own files)."""
        if tables is None:
            deck, tiles, tactics = M.load_deck(), M.load_tiles(), M.load_tactics()
            self.duck, self.beaver = deck["duck"], deck["beaver"]
            self.full = {c * VSTRIDE + v for c in range(len(deck["colours"])) for v in range(deck["values"])}
            self.tiles = tiles
            self.tactic_list = tactics
            return
        t = [int(x) for x in tables]
        self.duck, self.beaver = t[M.TB_DUCK], t[M.TB_BEAVER]
        full = t[M.TB_FULL] | (t[M.TB_FULL_HI] << 30)
        self.full = {b for b in range(60) if full >> b & 1}
        self.tiles = [{"id": i + 1, "intact": (t[M.TB_TILE + 4 * i], t[M.TB_TILE + 4 * i + 1]),
                       "damaged": (t[M.TB_TILE + 4 * i + 2], t[M.TB_TILE + 4 * i + 3])} for i in range(N_TILES)]
        self.tactic_list = [(f"tactic {i}", t[M.TB_TACT + i]) for i in range(t[M.TB_TACT_N])]
        names = M.load_tactics()
        for i in range(min(len(names), len(self.tactic_list))):
            if names[i][1] == self.tactic_list[i][1]:
                self.tactic_list[i] = names[i]

    def say(self, fn):
        if self.logging:
            self.lines.append(fn())

    @staticmethod
    def cards(cs):
        return "[" + " ".join(M.card_name(c) for c in cs) + "]"

    def shuffle(self, a):
        for i in range(len(a) - 1, 0, -1):
            j = rngmod.below_py(self.rng, i + 1)
            a[i], a[j] = a[j], a[i]

    def who(self, seat=None):
        return M.ROLES[self.cur if seat is None else seat]

    def update_stamp(self, dam, seat):
        if dam.complete(seat):
            if dam.done[seat] == 0:
                self.stamp += 1
                dam.done[seat] = self.stamp
        else:
            dam.done[seat] = 0

    def draw(self, seat):
        """Phase 3 (and the deal): the top card of the battle pile, if any."""
        if not self.pile:
            if self.final == 0 and self.rules["deckout_trigger"] == "empty_draw":
                self.final = 1
                self.say(lambda: f"{self.who(seat)} finds the draw pile empty: the attacker's last turn comes")
            return
        self.hands[seat].append(self.pile.pop())
        if not self.pile and self.final == 0 and self.rules["deckout_trigger"] == "last_card":
            self.final = 1
            self.say(lambda: "the last card is drawn: the attacker's last turn comes")

    def unseen_by_attacker(self):
        """Cards the attacker has not seen: not in its hand, not on the board, not discarded."""
        seen = set(self.hands[ATTACKER]) | set(self.discards)
        for d in self.dams:
            seen |= set(d.sides[0]) | set(d.sides[1])
        return self.full - seen

    def partner(self, c):
        """The card that cancels ``c`` when played opposite it (duck_beaver: the same
        colour's 11 for a 0, its 0 for an 11), or None."""
        if value(c) == self.duck:
            return colour(c) * VSTRIDE + self.beaver
        if value(c) == self.beaver:
            return colour(c) * VSTRIDE + self.duck
        return None

    def cancellers(self, dam):
        """The cards that could never land on the defender's side of ``dam``: with
        duck_beaver on, the partner of each 0 or 11 on the attacker's side there (played at
        that dam, it cancels that card instead: it completes no defender formation)."""
        if not self.rules["duck_beaver"]:
            return set()
        return {self.partner(c) for c in dam.sides[ATTACKER]} - {None}

    def may_claim(self, dam, unseen):
        if dam.state == 2 or (dam.state == 1 and not self.rules["destroy_wins"]):
            return False
        if not dam.complete(ATTACKER):
            return False
        mode = dam.mode()
        mine = formation_key(dam.sides[0], mode)
        if dam.complete(DEFENDER):
            theirs = formation_key(dam.sides[1], mode)
            if mine != theirs:
                return mine > theirs
            return self.rules["tie_rule"] == "first" and dam.done[0] < dam.done[1]
        if not self.rules["claim_by_proof"]:
            return False
        best = best_completion_key(dam.sides[1], dam.size(), mode, unseen - self.cancellers(dam))
        if best is None:
            return True
        # a completion still to come ties: it loses to the attacker, who completed first, unless
        # the defender holds every tie (defender_complete gives it only ties of complete sides)
        defender_wins_ties = self.rules["tie_rule"] == "defender"
        return best < mine or (best == mine and not defender_wins_ties)

    # -- legal moves
    def legal_moves(self):
        ph = self.phase
        out = []
        if ph in (PH_A_PREP, PH_A_PLAY, PH_A_END):
            unseen = self.unseen_by_attacker()
            out += [MV_CLAIM + p for p, d in enumerate(self.dams) if self.may_claim(d, unseen)]
        if ph == PH_A_PREP:
            out += [MV_RETREAT + p for p, d in enumerate(self.dams) if d.sides[0] and d.state < 2]
            out.append(MV_END)
        elif ph == PH_D_PREP:
            if self.logs > 0:
                out += [MV_LOG + p for p, d in enumerate(self.dams) if d.sides[0] and d.state < 2]
            out.append(MV_END)
        elif ph in (PH_A_PLAY, PH_D_PLAY):
            seat = self.cur
            open_dams = [p for p, d in enumerate(self.dams) if d.state < 2 and len(d.sides[seat]) < d.size()]
            plays = [MV_PLAY + c * 8 + p for c in self.hands[seat] if c < 60 for p in open_dams]
            if any(self.tactic_effect(c) == M.EF_STEAL for c in self.hands[seat]):
                for sp, d in enumerate(self.dams):
                    if d.state < 2:
                        for si in range(len(d.sides[1 - seat])):
                            plays += [MV_STEAL + (sp * 4 + si) * 8 + dp for dp in open_dams]
            out += plays if plays else [MV_END]
        elif ph == PH_A_END:
            out.append(MV_END)
        elif ph == PH_DRAW:
            out += [MV_DRAW_BATTLE, MV_DRAW_TACTIC]
        return sorted(out)

    def tactic_effect(self, c):
        return self.tactic_list[c - TACTIC0][1] if c >= TACTIC0 else M.EF_NONE

    # -- turn structure
    def begin_turn(self, seat):
        self.turn += 1
        if self.turn > self.rules["max_turns"]:
            self.turn -= 1
            self.capped = True
            self.end(-1, M.END_CAP, -1)
            self.say(lambda: "the turn cap ends the game")
            return PH_DONE
        self.cur = seat
        if seat == ATTACKER and self.final == 1:
            self.final = 2
        self.say(lambda: f"-- turn {self.turn}: {self.who()}"
                         + (" (last turn)" if seat == ATTACKER and self.final == 2 else "")
                         + f", hand {self.cards(self.hands[seat])}, pile {len(self.pile)}")
        return PH_A_PREP if seat == ATTACKER else PH_D_PREP

    def end_turn(self):
        if self.final == 2 or (self.final == 1 and not self.rules["attacker_last_turn"]):
            self.end(DEFENDER, M.END_DECKOUT, -1)
            self.say(lambda: "the attacker's last turn is over: the defender holds the river")
            return PH_DONE
        return self.begin_turn(1 - self.cur)

    def end(self, winner, reason, tile_index):
        self.winner, self.reason, self.decide = winner, reason, tile_index
        self.phase = PH_DONE

    def after_play(self):
        if self.rules["tactics"] and self.tactic_pile and self.pile:
            return PH_DRAW
        self.draw(self.cur)
        return self.after_draw()

    def after_draw(self):
        return PH_A_END if self.cur == ATTACKER else self.end_turn()

    def settle(self):
        """Work out the next decision; a decision whose only move is END is taken at once."""
        while True:
            if self.phase == PH_DONE:
                self.moves = []
                return
            self.moves = self.legal_moves()
            if self.moves == [MV_END]:
                self.phase = self.carry_out(MV_END)
                continue
            return

    # -- actions
    def claim(self, p):
        dam = self.dams[p]
        self.counts["claims"] += 1
        self.say(lambda: f"attacker declares control of {dam.describe()}: "
                         f"{self.cards(dam.sides[0])} ({type_name(dam.sides[0], dam.mode())}) against "
                         f"{self.cards(dam.sides[1])}")
        for seat in (ATTACKER, DEFENDER):
            self.discards += dam.sides[seat]
            dam.sides[seat].clear()
            dam.done[seat] = 0
        if dam.state == 0:
            dam.state = 1
            self.damaged += 1
            self.say(lambda: f"dam {dam.id} is damaged ({self.damaged} so far); now {dam.describe()}")
            if self.damaged >= self.rules["dams_to_win"]:
                self.end(ATTACKER, M.END_FOURTH, dam.tile_index)
                self.say(lambda: f"the attacker has damaged {self.damaged} dams and wins")
        else:
            dam.state = 2
            self.end(ATTACKER, M.END_DESTROY, dam.tile_index)
            self.say(lambda: f"dam {dam.id} is destroyed: the attacker breaks through and wins")

    def play(self, seat, c, p):
        dam = self.dams[p]
        self.hands[seat].remove(c)
        if self.rules["duck_beaver"]:
            other = self.partner(c)
            opp = dam.sides[1 - seat]
            if other is not None and other in opp:
                opp.remove(other)
                self.update_stamp(dam, 1 - seat)
                self.discards += [c, other]
                self.counts["cancels"] += 1
                self.say(lambda: f"{self.who(seat)} plays {M.card_name(c)} at dam {dam.id}: it cancels "
                                 f"{M.card_name(other)} opposite, both discarded")
                return
        dam.sides[seat].append(c)
        self.update_stamp(dam, seat)
        self.say(lambda: f"{self.who(seat)} plays {M.card_name(c)} at dam {dam.id}: "
                         f"{self.cards(dam.sides[seat])}")

    def steal(self, seat, mv):
        x = mv - MV_STEAL
        src, idx, dst = (x // 8) // 4, (x // 8) % 4, x % 8
        t = next(c for c in self.hands[seat] if self.tactic_effect(c) == M.EF_STEAL)
        self.hands[seat].remove(t)
        self.discards.append(t)
        c = self.dams[src].sides[1 - seat].pop(idx)
        self.update_stamp(self.dams[src], 1 - seat)
        self.dams[dst].sides[seat].append(c)
        self.update_stamp(self.dams[dst], seat)
        self.counts["steals"] += 1
        self.say(lambda: f"{self.who(seat)} plays {M.card_name(t)}: takes {M.card_name(c)} from dam "
                         f"{self.dams[src].id} to its side of dam {self.dams[dst].id}")

    def carry_out(self, mv):
        ph, seat = self.phase, self.cur
        if mv < MV_RETREAT:
            self.claim(mv - MV_CLAIM)
            return PH_DONE if self.winner >= 0 else ph
        if mv < MV_LOG:
            dam = self.dams[mv - MV_RETREAT]
            self.say(lambda: f"attacker retreats from dam {dam.id}: discards {self.cards(dam.sides[0])}")
            self.discards += dam.sides[0]
            dam.sides[0].clear()
            dam.done[0] = 0
            self.counts["retreats"] += 1
            return PH_A_PLAY
        if mv < MV_PLAY:
            dam = self.dams[mv - MV_LOG]
            c = dam.sides[0].pop(0)
            self.update_stamp(dam, ATTACKER)
            self.discards.append(c)
            self.logs -= 1
            self.counts["logs_used"] += 1
            self.say(lambda: f"defender throws a log at dam {dam.id}: {M.card_name(c)} is discarded "
                             f"({self.logs} logs left)")
            return PH_D_PLAY
        if mv < MV_STEAL:
            x = mv - MV_PLAY
            self.play(seat, x // 8, x % 8)
            return self.after_play()
        if mv < MV_DRAW_BATTLE:
            self.steal(seat, mv)
            return self.after_play()
        if mv == MV_DRAW_BATTLE:
            self.draw(seat)
            return self.after_draw()
        if mv == MV_DRAW_TACTIC:
            self.hands[seat].append(self.tactic_pile.pop())
            self.say(lambda: f"{self.who(seat)} draws a tactic card")
            return self.after_draw()
        # END
        if ph == PH_A_PREP:
            return PH_A_PLAY
        if ph == PH_D_PREP:
            return PH_D_PLAY
        if ph in (PH_A_PLAY, PH_D_PLAY):
            self.say(lambda: f"{self.who()} cannot play a card")
            return self.after_play()
        return self.end_turn()

    def apply(self, mv):
        if mv not in self.moves:
            raise ValueError(f"illegal move {mv} in phase {self.phase}")
        self.phase = self.carry_out(mv)
        self.settle()

    # -- the state vector (layout of simcore.river.model) and records
    def vector(self) -> np.ndarray:
        S = np.full(M.S_LEN, 0, np.int64)
        S[M.O_DECK:M.O_DECK + 64] = NONE
        S[M.O_TDECK:M.O_TDECK + 16] = NONE
        S[M.O_HAND:M.O_HAND + 2 * M.MAX_HAND] = NONE
        S[M.O_SIDE:M.O_SIDE + 2 * N_TILES * M.MAX_SIDE] = NONE
        S[M.O_DISC:M.O_DISC + M.DISC_CAP] = NONE
        S[M.O_CUR] = self.cur
        S[M.O_TURN] = self.turn
        S[M.O_PHASE] = self.phase
        S[M.O_WINNER] = self.winner
        S[M.O_REASON] = self.reason
        S[M.O_DECIDE] = self.decide
        S[M.O_LOGS] = self.logs
        S[M.O_FINAL] = self.final
        S[M.O_DAMAGED] = self.damaged
        S[M.O_STAMP] = self.stamp
        S[M.O_CLAIMS] = self.counts["claims"]
        S[M.O_RETREATS] = self.counts["retreats"]
        S[M.O_LOGS_USED] = self.counts["logs_used"]
        S[M.O_CANCELS] = self.counts["cancels"]
        S[M.O_CAPPED] = int(self.capped)
        S[M.O_STEALS] = self.counts["steals"]
        S[M.O_DECK_N] = len(self.pile)
        S[M.O_DECK:M.O_DECK + len(self.pile)] = self.pile
        S[M.O_TDECK_N] = len(self.tactic_pile)
        S[M.O_TDECK:M.O_TDECK + len(self.tactic_pile)] = self.tactic_pile
        for seat in (0, 1):
            S[M.O_HAND_N + seat] = len(self.hands[seat])
            b = M.O_HAND + seat * M.MAX_HAND
            S[b:b + len(self.hands[seat])] = self.hands[seat]
        for p, d in enumerate(self.dams):
            S[M.O_TILE + p] = d.tile_index
            S[M.O_TSTATE + p] = d.state
            for seat in (0, 1):
                q = p * 2 + seat
                S[M.O_SIDE_N + q] = len(d.sides[seat])
                S[M.O_SIDE + q * 4:M.O_SIDE + q * 4 + len(d.sides[seat])] = d.sides[seat]
                S[M.O_DONE + q] = d.done[seat]
        S[M.O_DISC_N] = len(self.discards)
        S[M.O_DISC:M.O_DISC + len(self.discards)] = self.discards
        S[M.O_DECK0] = self.deck0
        S[M.O_DAMS] = self.dams_goal
        return S

    @classmethod
    def from_vector(cls, S, rules: dict, seed: int = 0, index: int = 0, log: bool = False, tables=None) -> "Game":
        """A game in the position of state vector ``S`` (hand-made scenarios in tests);
        the pending decision is ``S[O_PHASE]`` (its moves are worked out here)."""
        g = cls.__new__(cls)
        g.rules = rules
        g.rng = rngmod.new_state(seed, index, M.DOMAIN)
        g.srng = rngmod.new_state(seed, index, M.STRATEGY_DOMAIN)
        g.content(tables)
        g.logging, g.lines = log, []
        S = [int(x) for x in S]
        g.dams = []
        for p in range(N_TILES):
            d = Dam(S[M.O_TILE + p], g.tiles[S[M.O_TILE + p]])
            d.state = S[M.O_TSTATE + p]
            for seat in (0, 1):
                q = p * 2 + seat
                d.sides[seat].extend(S[M.O_SIDE + q * 4:M.O_SIDE + q * 4 + S[M.O_SIDE_N + q]])
                d.done[seat] = S[M.O_DONE + q]
            g.dams.append(d)
        g.pile = S[M.O_DECK:M.O_DECK + S[M.O_DECK_N]]
        g.tactic_pile = S[M.O_TDECK:M.O_TDECK + S[M.O_TDECK_N]]
        g.hands = tuple(S[M.O_HAND + s * M.MAX_HAND:M.O_HAND + s * M.MAX_HAND + S[M.O_HAND_N + s]] for s in (0, 1))
        g.discards = S[M.O_DISC:M.O_DISC + S[M.O_DISC_N]]
        g.logs, g.final, g.turn, g.cur = S[M.O_LOGS], S[M.O_FINAL], S[M.O_TURN], S[M.O_CUR]
        g.stamp, g.damaged = S[M.O_STAMP], S[M.O_DAMAGED]
        g.winner, g.reason, g.decide = S[M.O_WINNER], S[M.O_REASON], S[M.O_DECIDE]
        g.capped = bool(S[M.O_CAPPED])
        g.counts = dict(claims=S[M.O_CLAIMS], retreats=S[M.O_RETREATS], logs_used=S[M.O_LOGS_USED],
                        cancels=S[M.O_CANCELS], steals=S[M.O_STEALS])
        g.phase = S[M.O_PHASE]
        g.deck0, g.dams_goal = S[M.O_DECK0], S[M.O_DAMS]
        g.illegal_seat = -1
        g.settle()
        return g

    def observation(self, seat) -> np.ndarray:
        """What ``seat`` sees: the opponent's hand and both piles hidden, sizes kept."""
        S = self.vector()
        b = M.O_HAND + (1 - seat) * M.MAX_HAND
        S[b:b + M.MAX_HAND] = NONE
        S[M.O_DECK:M.O_DECK + 64] = NONE
        S[M.O_TDECK:M.O_TDECK + 16] = NONE
        return S

    def record(self) -> dict:
        r = dict(winner=self.winner, capped=int(self.capped), turns=self.turn, first=ATTACKER,
                 reason=self.reason, decide_tile=self.decide + 1, damaged=self.damaged,
                 deck_left=len(self.pile), **self.counts)
        for d in self.dams:
            r[f"dam{d.id}"] = d.state
        return r


def play_game(rules: dict, seed: int, index: int, deciders, tables, rules_vec=None, log: bool = False,
              data=None) -> Game:
    """Play one game; ``deciders[seat](phase, obs, moves, n_moves, rules_vec, data[seat], rng)
    -> index``: ``data`` holds one row per seat (default: ``tables`` for both); the
    strategies' own stream ``(seed, index, STRATEGY_DOMAIN)`` is shared by both seats, as
    in the kernel. An answer outside the legal moves stops the game (``illegal_seat``)."""
    rv = rules_vec if rules_vec is not None else M.rules_vector(rules)
    g = Game(rules, seed, index, tables, log=log)
    rows = data if data is not None else [tables, tables]
    buf = np.zeros(M.MAX_MOVES, np.int64)
    while g.phase != PH_DONE:
        n = len(g.moves)
        buf[:n] = g.moves
        seat = g.cur
        k = int(deciders[seat](g.phase, g.observation(seat), buf, n, rv, rows[seat], g.srng))
        if not 0 <= k < n:
            g.illegal_seat = seat
            g.end(-1, M.END_ILLEGAL, -1)
            break
        mv = g.moves[k]
        if g.logging and mv == MV_END and g.phase in (PH_A_PREP, PH_D_PREP):
            g.say(lambda: f"{g.who()} skips the preparation")
        g.apply(mv)
    return g
