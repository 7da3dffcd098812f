"""Pure-Python reference engine for Dice Throne Season One (ReRolled, rulebook v2.2), written to
be read next to simcore/dicethrone/RULES.md and the readings listed at the top of ``rules.toml``.
It plays the same game as the numba kernel (``simcore.dicethrone.kernel``) from the same
per-game stream, offers the same sorted legal-move lists, and fills the same records and
the same state vector; ``tests/test_dicethrone_twins.py`` holds the two to each other.

Conventions that fix which random number goes where (shared with the kernel):
- decks are built hero cards first, then generic cards (``model.deck_list``), and shuffled
  seat 0 then seat 1 (Fisher-Yates: i = n-1 .. 1, j = below(i + 1)); each seat then draws
  its opening hand (seat 0 first); the top of a deck is its last card;
- the first player: each seat rolls one die (seat 0 first), ties roll again;
- a roll draws one ``below(6)`` per rolled die in die order; bonus dice one after another;
- an empty deck is rebuilt from the discard pile (in discard order) and shuffled.
Decisions with a single legal move are taken automatically (in both engines).
"""
from __future__ import annotations

import numpy as np

from .. import rng as rngmod
from . import model as M
from .model import (CD_ANY, CD_NONE, CD_OPP, CD_OWN, CP_INSTANT, CP_MAIN, CP_ROLL, CW_ATTACKED,
                    CW_ATTACKING, K_COLLAT, K_NORMAL, K_ULT, K_UNDEF, MV_ABILITY, MV_DIE, MV_PASS,
                    MV_PLAY, MV_REROLL, MV_SELL, MV_TITHE_DRAW, MV_TITHE_REROLL, NONE, OF_NONE,
                    OF_SPENT, OF_SYMBOL, OP_ADD_DAMAGE, OP_CP, OP_DAMAGE, OP_DRAW, OP_EXTRA_ATTEMPT,
                    OP_GAIN, OP_HEAL, OP_INFLICT, OP_MOVE_DIE, OP_PREVENT, OP_RAISE_LIMIT, OP_REMOVE,
                    OP_REROLL, OP_ROLL, OP_SET_DIE, OP_SPEND, OP_UPGRADE, OP_COPY_DIE, OP_TRANSFER, SRC_ABILITY, SRC_CARD,
                    SRC_STATUS, SRC_TOKEN, T_SELF, U_STUN)

# effect contexts
ABILITY, DEFENCE, CARD, UPKEEP, TOKEN = "ability", "defence", "card", "upkeep", "token"   # UPKEEP: token events too
CTX_CODE = {ABILITY: 0, DEFENCE: 1, CARD: 2, UPKEEP: 3, TOKEN: 4}   # the kernel's CTX_* (O_CHOOSE_CTX)
CTX_OF = {v: k for k, v in CTX_CODE.items()}


def start_hp(rules):
    """A team's (1v1 and free-for-all: a seat's) starting health."""
    m = rules["mode"]
    return rules["start_hp"] if m == "1v1" else rules["ffa_start_hp"] if m.startswith("ffa") else rules["team_start_hp"]


class Player:
    def __init__(self, seat, hero, hero_index, content, rules):
        self.seat = seat
        # seats alternate teams (2v2: seats 0 and 2 are team 0; 2v2v2: A B C A B C; 1v1 and
        # free-for-all: the seat)
        self.team = seat % M.MODE_TEAMS[rules["mode"]]
        self.place = 0         # its place once its team is out (P_PLACE; 0: not out)
        self.out = 0           # 1 + the turn its team went out (P_OUT; 0: never)
        self.hero = hero
        self.hero_index = hero_index
        self.hp = start_hp(rules)
        self.cp = rules["start_cp"]
        self.prevent = 0
        self.tokens = [0] * M.MAX_TOKENS
        self.limits = [0] * M.MAX_TOKENS
        for i, t in enumerate(content.tokens):
            self.limits[i] = t.limit
        # levels side by side (model.P_LVL): abilities, defences, the passive
        self.levels = ([1 if a < len(hero.abilities) else 0 for a in range(M.MAX_AB)]
                       + [1 if k < len(hero.defences) else 0 for k in range(M.MAX_DEF)] + [1])
        self.hand: list[int] = []
        self.deck: list[int] = M.deck_list(content, hero.id)
        self.discard: list[int] = []
        self.cards_played = self.spends = self.sold = self.attacks = 0
        self.damage = [0, 0, 0, 0]   # dealt, by source
        self.uses = [0] * M.MAX_AB
        self.token_uses = [0] * M.MAX_TOKENS   # uses of each token (record tok<t>_<p>)
        self.card_plays = [0] * M.MAX_CARDS    # plays of each card id (record card<c>_<p>)
        self.held = 0          # bit t: token t held when this seat's turn began (held_all_turn)
        self.once = 0          # bit t: token t spent this turn through a once_per_turn entry
        self.tnew = [0] * M.MAX_TOKENS   # tokens gained this turn (not_gained_this_turn)
        self.tsrc = [0] * M.MAX_TOKENS   # 1 + the seat that last gave it each token (inflict, transfer; 0 none)
        self.skip = 0          # model.SK_* bits: phases this turn skips
        self.block = 0         # negative statuses still to block in the attack under way (block_status)


class Game:
    def __init__(self, content, rules, heroes, seed, index, log=False):
        self.c = content
        self.rules = rules
        self.rng = rngmod.new_state(seed, index, M.DOMAIN)
        self.srng = rngmod.new_state(seed, index, M.STRATEGY_DOMAIN)
        order = list(content.heroes)
        self.players = [Player(p, content.heroes[h], order.index(h), content, rules) for p, h in enumerate(heroes)]
        self.tok_use = {t.use: i for i, t in reversed(list(enumerate(content.tokens)))}
        self.log = [] if log else None
        self.turn = 0
        self.active = 0
        self.first = 0
        self.nseats = len(self.players)
        self.order = list(range(self.nseats))   # seats in turn order, the start player first
        self.alive = (1 << M.MODE_TEAMS[rules["mode"]]) - 1     # bit k: team k still in the game
        self.target = 1        # the seat the active player's attack goes to
        self.step = M.ST_UPKEEP
        self.phase = M.PH_DONE
        self.cur = 0
        self.winner = -1
        self.capped = 0
        self.over = 0
        self.attempts = self.max_attempts = 0
        self.roll_who = 0
        self.prio = 0
        self.passes = 0
        self.ability = -1
        self.tier = -1
        self.kind = -1
        self.defended = 0
        self.pool = self.pool_card = self.pool_token = self.collateral = self.spent = 0
        self.pend_op = self.pend_n = self.pend_arg = 0
        self.ret_step = 0
        self.taken = 0
        self.protected = 0
        self.cvic = 0          # the collateral window's place (O_CVIC; collateral_preventable)
        self.half = 0          # bit p: seat p halves its collateral (O_HALF)
        self.picked = 0        # bit p: seat p took the first pick of a two_chosen gain (O_PICKED)
        self.nodef = 0         # the defender makes no defensive roll (skip_defence)
        self.avoid = 0         # the attack's damage is avoided (avoid)
        self.win_used = 0      # bit e: spend entry e used in the window now open
        self.spending = None   # (token name, moment) of the spend whose effects run (the play-by-play)
        self.pips = 0          # the face-number sum of the attack's last roll_sum
        self.disc_n = 0        # cards still to discard for a card's discard_cost
        self.disc_card = 0     # the card whose effects wait for them
        self.choices = []      # pending choose effects, oldest first (their owner picks: PH_CHOOSE)
        self.choose_who = 0    # the seat that picks them
        self.choose_ctx = 0    # the context (CTX_CODE) their alternatives run in
        # the spend entries in table order (model._spend_table): (token id, entry)
        self.entries = [(t, e) for t, tk in enumerate(content.tokens) for e in tk.spend]
        self.def_n = 0
        self.def_pick = 0      # the defence chosen for the attack under way (-1: none yet)
        self.used = 0          # bit s: the activated tier needs symbol s
        self.bonus_n = 0       # bonus dice waiting for the attacker's reroll (may_reroll)
        self.bdice = [0] * M.N_DICE
        self.predef_done = 0   # effects of the tier's pre-defence part done (O_PREDEF)
        self.bonus_src = M.BS_TIER   # whose dice wait at ST_BONUS (O_BONUS_SRC)
        self.bonus_row = 0     # the waiting roll: index in the tier's effects, or the card id (O_BONUS_ROW)
        self.income_skipped = 0
        self.extra_phases = 0
        self.adice = [0] * M.N_DICE
        self.ddice = [0] * M.N_DICE
        self.tdice = [0]       # the targeting die (O_TDIE; roll_who 3 while cards may change it)
        self.ttab = "target_faces_2"   # the face table it is read through (O_TTAB)
        self.evtok = 0         # 1 + the token whose event list runs (O_EVTOK; 0: none)
        self.moves: list[int] = []

    # ------------------------------------------------------------ helpers
    def say(self, text):
        if self.log is not None:
            self.log.append(f"t{self.turn} p{self.active}: {text}")

    def below(self, n):
        return rngmod.below_py(self.rng, n)

    def shuffle(self, a):
        for i in range(len(a) - 1, 0, -1):
            j = self.below(i + 1)
            a[i], a[j] = a[j], a[i]

    def in_game(self, p):
        return (self.alive >> self.players[p].team) & 1 != 0

    def next_seat(self, p):
        """The next seat after ``p`` in turn order still in the game (1v1: the other seat)."""
        i = self.order.index(p)
        for k in range(1, self.nseats):
            q = self.order[(i + k) % self.nseats]
            if self.in_game(q):
                return q
        return p

    def first_opponent(self, p):
        """The nearest seat after ``p`` in turn order on another team still in the game (the
        opponent on your left, modes/DESIGN.md 1.7); -1 if there is none."""
        i = self.order.index(p)
        for k in range(1, self.nseats):
            q = self.order[(i + k) % self.nseats]
            if self.in_game(q) and self.players[q].team != self.players[p].team:
                return q
        return -1

    def side_opponent(self, p, step):
        """The nearest seat to ``p`` in seat order on another team still in the game: ``step``
        1 the opponent on ``p``'s left (the seats after it), -1 on its right; -1 if none."""
        for k in range(1, self.nseats):
            q = (p + step * k) % self.nseats
            if self.in_game(q) and self.players[q].team != self.players[p].team:
                return q
        return -1

    def target_moves(self, chooser):
        """PH_TARGET: the attacker picks among the living opponents, a defender (their_pick)
        among its own team's living members; in seat order from the chooser's left."""
        a = self.active
        seats = [(chooser + i) % self.nseats for i in range(1, self.nseats + 1)]
        mine = self.players[chooser].team
        return [M.MV_TARGET + q for q in seats if self.in_game(q)
                and ((self.players[q].team != mine) if chooser == a else (self.players[q].team == mine))]

    def status_source(self, holder, opp):
        """Who is credited with the damage a token event deals its holder (kernel.status_source_nb):
        with several seats, the seat that last gave it that token, if another seat did; else ``opp``."""
        if self.nseats > 2 and self.evtok > 0:
            s = self.players[holder].tsrc[self.evtok - 1] - 1
            if s >= 0 and s != holder:
                return s
        return opp

    def opponent(self, p):
        """"The opponent" of seat ``p``'s effects: the active player's target for the active
        player, the active player for everyone else."""
        return self.target if p == self.active else self.active

    def token(self, use):
        return self.tok_use.get(use, -1)

    def has(self, p, use):
        t = self.token(use)
        return t >= 0 and self.players[p].tokens[t] > 0

    def stunned(self, p):
        return self.has(p, U_STUN)

    def draw(self, p):
        pl = self.players[p]
        if len(pl.hand) >= M.MAX_HAND:
            self.bound()
            return
        if not pl.deck:
            if not self.rules["reshuffle_discard"] or not pl.discard:
                return
            pl.deck = pl.discard
            pl.discard = []
            self.shuffle(pl.deck)
        pl.hand.append(pl.deck.pop())

    def gain_cp(self, p, n):
        pl = self.players[p]
        pl.cp = max(0, min(self.rules["cp_cap"], pl.cp + n))

    def set_hp(self, p, v):
        """Seat ``p``'s team's health is ``v``: one pool, every member's ``hp`` (1v1: its own)."""
        for q in self.players:
            if q.team == self.players[p].team:
                q.hp = v

    def hurt(self, p, amount, ultimate=False):
        """Take damage; at 0 health or less the holder's knocked_out events run (Blessing of
        Divinity; against an ultimate only under blessing_vs_ultimate)."""
        if amount <= 0:
            return
        pl = self.players[p]
        self.set_hp(p, pl.hp - amount)          # the team's pool (1v1: its own)
        if pl.hp <= 0 and (not ultimate or self.rules["blessing_vs_ultimate"]):
            self.ko_events(p)

    def ko_events(self, p):
        """The knocked_out events of seat p, in token order, each token held while its health
        is still 0 or less; each run counts one spend and one use of its token. Their ops are
        ``model.KO_OPS`` with plain amounts (``kernel.ko_events_nb``)."""
        pl = self.players[p]
        for t, tk in enumerate(self.c.tokens):
            if pl.hp > 0:
                break
            lst = tk.events.get("knocked_out")
            if not lst or pl.tokens[t] <= 0:
                continue
            pl.spends += 1
            pl.token_uses[t] += 1
            for e in lst:
                if e.op == M.OP_SET_HP:
                    self.set_hp(p, e.n)         # the team's pool (modes/DESIGN.md 1.6.4)
                elif e.op == OP_HEAL:
                    self.set_hp(p, min(pl.hp + e.n, start_hp(self.rules) + self.rules["hp_above_start"]))
                elif e.op == OP_REMOVE:
                    pl.tokens[e.arg] = max(0, pl.tokens[e.arg] - e.n)
                elif e.op == OP_GAIN:
                    v = min(pl.tokens[e.arg] + e.n, pl.limits[e.arg])
                    if v > pl.tokens[e.arg]:
                        pl.tnew[e.arg] += v - pl.tokens[e.arg]
                    pl.tokens[e.arg] = v
            self.say(f"p{p} {tk.name}: knocked_out, health {pl.hp}")

    def bound(self):
        """The engine's own bound binds (a draw into a full hand of ``MAX_HAND`` cards, a 21st
        Stun phase in one turn): the game ends there, capped, as at the turn cap (RULES.md,
        "Where the engine bounds what the rules leave open")."""
        self.over, self.capped, self.winner = 1, 1, -1
        self.say("the engine's bound: the game ends capped")

    def knocked_out(self):
        """Check for a knock-out (``kernel.knocked_out_nb``): the teams at 0 go out, sharing
        the place after those still in; one team left wins, none left is a draw (or the active
        player's team's win); with two or more left the game goes on, and the active seat's
        team out ends its turn. True: the game is over or the turn ended."""
        if self.capped:     # ended by a bound: it stays capped
            return True
        down = 0
        for pl in self.players:
            if pl.hp <= 0:
                down |= 1 << pl.team
        down &= self.alive
        if not down:
            return False
        # the teams out now share the place after the teams still in (modes/DESIGN.md 1.6)
        place = bin(self.alive).count("1") - bin(down).count("1") + 1
        self.alive &= ~down
        for pl in self.players:
            if (down >> pl.team) & 1:
                pl.place, pl.out = place, self.turn + 1
        if not self.alive:       # every team still in went out at once: a draw among them
            self.over = 1
            self.winner = -1 if self.rules["simultaneous_ko_draw"] else self.players[self.active].team
            if not self.rules["simultaneous_ko_draw"]:
                for pl in self.players:
                    if pl.team != self.winner:
                        pl.place = 2
        elif self.alive & (self.alive - 1) == 0:     # one team left: it wins
            self.over = 1
            self.winner = self.alive.bit_length() - 1
        else:                    # the game goes on; the active seat's team out: its turn ends
            self.say(f"knock-out: team(s) {[k for k in range(8) if (down >> k) & 1]} out, place {place}")
            if self.in_game(self.active):
                return False
            self.step = M.ST_END
            return True
        self.say(f"knock-out: winner {self.winner}")
        return True

    def symbol_count(self, p, dice, n, sym):
        fs = self.c.heroes[self.players[p].hero.id].face_sym
        return sum(1 for i in range(n) if fs[dice[i]] == sym)

    def holds(self, e, owner, dice, nd):
        """The effect's conditions: the roll shows its if_roll counts; the activated tier
        needs its if_uses symbol; its one condition (C_COND) holds (``kernel.cond_nb``)."""
        if e.if_roll:
            for s in range(6):
                want = (e.if_roll >> (3 * s)) & 7
                if want and (dice is None or self.symbol_count(owner, dice, nd, s) < want):
                    return False
        if e.if_uses and (self.used >> (e.if_uses - 1)) & 1 == 0:
            return False
        return self.condition(e, owner, dice, nd)

    def condition(self, e, owner, dice, nd):
        """The effect's one condition (season1/VOCABULARY.md 6; ``kernel.cond_nb``)."""
        c, k = e.cond, e.carg
        if c == M.COND_NONE:
            return True
        if c == M.COND_HELD:
            return (self.players[owner].held >> k) & 1 == 1
        if c == M.COND_KIND:       # N dice of one face number
            faces = [dice[i] for i in range(nd)] if dice is not None else []
            return any(faces.count(f) >= k for f in range(6))
        if c == M.COND_PIPS_GE:
            return self.pips >= k
        if c == M.COND_PIPS_LE:
            return self.pips <= k
        if c == M.COND_DEALT:
            return self.taken >= k
        if c == M.COND_HAS:
            return self.holds_token(self.players[owner], k)
        if c == M.COND_UNLESS:
            return not self.holds_token(self.players[owner], k)
        return self.spent >= k     # COND_SPENT

    def passive(self, p):
        """The passive level seat p plays at (None: no passive)."""
        pl = self.players[p]
        return pl.hero.passive_at(pl.levels[M.LV_PASSIVE])

    def amount(self, e, owner, dice, nd):
        n = e.n
        if e.of == OF_SPENT:
            n += e.per * self.spent
        elif e.of >= M.OF_GROUP:
            pl = self.players[owner]
            n += e.per * sum(pl.tokens[t] for t, tk in enumerate(self.c.tokens) if tk.group_id == e.of - M.OF_GROUP)
        elif e.of == M.OF_EXTRA_ATT:
            n += e.per * (self.attempts - 1)
        elif e.of == M.OF_PIPS:
            n += e.per * self.pips
        elif e.of == M.OF_CP:
            n += e.per * self.players[owner].cp
        elif e.of == M.OF_TAKEN:
            n += e.per * self.taken
        elif e.of >= OF_SYMBOL:
            n += e.per * (self.symbol_count(owner, dice, nd, e.of - OF_SYMBOL) if dice is not None else 0)
        elif e.of != OF_NONE:
            n += e.per * self.players[owner].tokens[e.of]
        if e.half:
            n = (n + 1) // 2 if e.half == 1 else n // 2
        return n if e.cap < 0 else min(n, e.cap)

    # ------------------------------------------------------------ effects
    def run(self, effects, ctx, owner, dice=None, nd=0):
        """Resolve effects in order. In an ability, damage to the opponent waits in the
        attack pool (collateral apart); elsewhere it lands at once."""
        opp = self.opponent(owner)
        for e in effects:
            if not self.holds(e, owner, dice, nd):
                continue
            amt = self.amount(e, owner, dice, nd)
            tgt = owner if e.target == T_SELF else opp
            if e.target == M.T_TWO:        # up to two chosen players of the owner's team (a gain)
                seats = self.chosen_seats(e.target, owner)
                if len(seats) <= 2:       # each gains at once
                    for q in seats:
                        self.add_tokens(q, owner, e.arg, amt)
                else:                     # 3v3: two picks of distinct seats when the list is done
                    self.queue_choice(e, owner, ctx)
                    self.queue_choice(e, owner, ctx)
                continue
            if e.target in (M.T_CHOSEN, M.T_MATE):     # a chosen player of the owner's team (a gain)
                seats = self.chosen_seats(e.target, owner)
                if len(seats) > 1:        # queued: its owner picks the seat when the list is done
                    self.queue_choice(e, owner, ctx)
                    continue
                if not seats:             # "teammate" without a teammate
                    continue
                tgt = seats[0]
            if e.op == OP_DAMAGE:
                if e.target == T_SELF:
                    self.hurt(owner, amt)
                    if ctx == UPKEEP:
                        self.players[self.status_source(owner, opp)].damage[SRC_STATUS] += max(0, amt)
                    self.say(f"p{owner} takes {amt} ({ctx})")
                elif ctx == ABILITY:
                    if e.kind == K_COLLAT:
                        self.collateral += amt
                    else:
                        self.pool += amt
                else:
                    self.hurt(opp, amt)
                    src = SRC_CARD if ctx == CARD else (SRC_TOKEN if ctx == TOKEN else SRC_ABILITY)
                    self.players[owner].damage[src] += max(0, amt)
                    if ctx == TOKEN and self.spending:      # a spend's damage: named by its token
                        name, when = self.spending
                        self.say(f"p{owner} {name}: {amt} " + ("back" if when == M.W_AFTER else f"to p{opp}"))
                    else:
                        self.say(f"p{owner} deals {amt} to p{opp} ({ctx})")
            elif e.op == OP_ADD_DAMAGE and ctx in (UPKEEP, TOKEN):   # a token's event or spend: token damage
                self.pool_token += amt
            elif e.op == OP_ADD_DAMAGE:
                self.pool_card += amt
            elif e.op == OP_HEAL:
                pl = self.players[tgt]
                self.set_hp(tgt, min(pl.hp + amt, start_hp(self.rules) + self.rules["hp_above_start"]))
            elif e.op == OP_CP:
                self.gain_cp(tgt, amt)
            elif e.op == OP_DRAW:
                for _ in range(amt):
                    self.draw(tgt)
            elif e.op in (OP_GAIN, OP_INFLICT):
                pl = self.players[tgt]
                if (e.op == OP_INFLICT and pl.block > 0 and amt > 0 and self.c.tokens[e.arg].kind == M.TK_NEG
                        and 0 <= self.kind != K_ULT):     # block_status: the next statuses of this attack
                    k = min(amt, pl.block)
                    pl.block -= k
                    amt -= k
                    self.say(f"p{tgt} blocks {k} {self.c.tokens[e.arg].name}")
                self.add_tokens(tgt, owner, e.arg, amt)
            elif e.op == OP_REMOVE:
                pl = self.players[tgt]
                if e.arg == -2:
                    for _ in range(e.n):
                        for t, tk in enumerate(self.c.tokens):
                            if tk.kind == M.TK_NEG and pl.tokens[t] > 0:
                                pl.tokens[t] -= 1
                                break
                else:
                    pl.tokens[e.arg] = max(0, pl.tokens[e.arg] - e.n)
            elif e.op == OP_SPEND and e.level == 1:     # a group's tokens, the lowest rung first
                pl = self.players[owner]
                t, left = e.arg, e.n
                while t >= 0 and left > 0:
                    k = min(pl.tokens[t], left)
                    if k > 0:
                        pl.tokens[t] -= k
                        pl.token_uses[t] += 1
                        left -= k
                    t = self.c.tokens[t].grows_id
                self.spent = e.n - left
            elif e.op == OP_SPEND:
                pl = self.players[owner]
                k = min(pl.tokens[e.arg], e.n)
                pl.tokens[e.arg] -= k
                self.spent = k
                if k > 0:
                    pl.token_uses[e.arg] += 1
            elif e.op == OP_RAISE_LIMIT:
                self.players[owner].limits[e.arg] += e.n
            elif e.op == M.OP_ROLL_SUM and e.arg > 0 and ctx == ABILITY:
                # may_reroll (pre-defence only): the dice wait at ST_BONUS, which takes their sum
                self.bdice[:e.n] = [self.below(6) for _ in range(e.n)]
                self.bonus_n = e.n
                self.say(f"p{owner} rolls {[f + 1 for f in self.bdice[:e.n]]} (may reroll)")
            elif e.op == OP_ROLL and e.arg > 0 and ctx in (ABILITY, CARD):
                # the roller may reroll some of these dice first (may_reroll): they wait
                self.bdice[:e.n] = [self.below(6) for _ in range(e.n)]
                self.bonus_n = e.n
                self.say(f"p{owner} bonus dice {[f + 1 for f in self.bdice[:e.n]]}")
            elif e.op == OP_ROLL:
                for i in range(e.n):
                    f = self.below(6)
                    if e.after:
                        self.bdice[i] = f
                    self.say(f"p{owner} bonus die {f + 1}")
                    self.outcome(e, f, ctx, owner, dice, nd)
                if e.after:     # once, reading the bonus dice
                    self.run(e.after, ctx, owner, self.bdice, e.n)
            elif e.op == OP_PREVENT:
                self.players[owner].prevent += amt
            elif e.op == M.OP_DISCARD_RANDOM:
                pl = self.players[tgt]
                for _ in range(amt):
                    if not pl.hand:
                        break
                    cid = pl.hand.pop(self.below(len(pl.hand)))
                    pl.discard.append(cid)
                    self.say(f"p{tgt} discards {self.c.cards[cid].name} at random")
            elif e.op == M.OP_ROLL_SUM:
                # roll N dice in die order (kept in bdice); their face-number sum is the pips
                self.bdice[:e.n] = [self.below(6) for _ in range(e.n)]
                self.pips = sum(f + 1 for f in self.bdice[:e.n])
                self.say(f"p{owner} rolls {[f + 1 for f in self.bdice[:e.n]]}: {self.pips} pips")
            elif e.op == OP_EXTRA_ATTEMPT:
                self.max_attempts = max(1, self.max_attempts + amt)   # an event's -N: never below 1
            elif e.op == M.OP_SKIP:
                self.players[owner].skip |= M.SK_INCOME if e.n == 0 else M.SK_ROLL
            elif e.op == M.OP_FAIL_ATTACK:
                self.players[owner].skip |= M.SK_ABILITY
            elif e.op == M.OP_SKIP_DEFENCE:
                self.nodef = 1
            elif e.op == M.OP_AVOID:
                if self.kind != K_ULT:
                    self.avoid = 1
            elif e.op == M.OP_PREVENT_HALF:
                if self.cvic > 0:      # spent in the collateral window: the holder's collateral portion
                    self.half |= 1 << owner
                else:
                    self.protected = 1
            elif e.op == M.OP_UNDEFENDABLE:
                if self.kind == K_NORMAL:
                    self.kind = K_UNDEF
            elif e.op == M.OP_BLOCK_STATUS:
                if self.kind != K_ULT:
                    self.players[owner].block += amt
            elif e.op == M.OP_CHOOSE:       # queued: its owner picks when the list is done
                self.queue_choice(e, owner, ctx)
            elif e.op == M.OP_GROW:
                for _ in range(amt):
                    self.grow(owner, e.arg)
            elif e.op == M.OP_GROW_ALL:
                self.grow_all(owner, e.arg)
            elif e.op == OP_UPGRADE:
                pl = self.players[owner]
                pl.levels[e.arg] = max(pl.levels[e.arg], e.level)
            elif e.op == OP_TRANSFER:
                # move n of your tokens (or your first statuses held) to the opponent
                mine, theirs = self.players[owner], self.players[opp]
                for _ in range(e.n):
                    if e.arg == -2:
                        held = [t for t, tk in enumerate(self.c.tokens) if tk.kind == M.TK_NEG and mine.tokens[t] > 0]
                        u = held[0] if held else -1
                    else:
                        u = e.arg if mine.tokens[e.arg] > 0 else -1
                    if u < 0:
                        break
                    mine.tokens[u] -= 1
                    if theirs.tokens[u] + 1 <= theirs.limits[u]:
                        theirs.tokens[u] += 1
                        theirs.tnew[u] += 1
                        theirs.tsrc[u] = owner + 1
                    self.say(f"p{owner} passes {self.c.tokens[u].name} to p{opp}")
            elif e.op in M.PEND_OPS:     # a die effect, or buy (pend_arg: the token; pend_n: its cost)
                self.pend_op, self.pend_arg = e.op, e.arg
                self.pend_n = e.n if e.op != OP_REROLL else e.n

    def ladder(self, root):
        """The tokens of the ladder from ``root`` (following grows_into), lowest first."""
        out = [root]
        while self.c.tokens[out[-1]].grows_id >= 0:
            out.append(self.c.tokens[out[-1]].grows_id)
        return out

    def grow(self, p, root):
        """One grow (VOCABULARY.md 5.11, rule grow_prefers; ``kernel.grow_nb``)."""
        pl = self.players[p]
        lad = self.ladder(root)

        def gain(t):
            pl.tokens[t] += 1
            pl.tnew[t] += 1
            self.say(f"p{p} grows: {self.c.tokens[t].name}")

        if self.rules["grow_prefers"] == "new" and pl.tokens[root] < pl.limits[root]:
            return gain(root)
        for t, u in reversed(list(zip(lad, lad[1:]))):
            if pl.tokens[t] > 0 and pl.tokens[u] < pl.limits[u]:
                pl.tokens[t] -= 1
                return gain(u)
        if pl.tokens[root] < pl.limits[root]:
            gain(root)

    def grow_all(self, p, root):
        """Every token of the ladder held now grows once, the highest rung first."""
        pl = self.players[p]
        lad = self.ladder(root)
        held = [pl.tokens[t] for t in lad]
        for i in range(len(lad) - 2, -1, -1):
            t, u = lad[i], lad[i + 1]
            for _ in range(held[i]):
                if pl.tokens[u] >= pl.limits[u]:
                    break
                pl.tokens[t] -= 1
                pl.tokens[u] += 1
                pl.tnew[u] += 1

    def pick(self, k):
        """Alternative k of the oldest pending choose (``kernel.pick_nb``)."""
        e = self.choices.pop(0)
        self.say(f"p{self.choose_who} picks alternative {k + 1}")
        self.run(e.alts[k], CTX_OF[self.choose_ctx], self.choose_who)

    def queue_choice(self, e, owner, ctx):
        """Queue ``e`` (a choose, or a chosen player's gain) for its owner's pick when the
        list is done (``kernel.push_choice_nb``)."""
        if len(self.choices) < M.MAX_CHOOSE:
            self.choices.append(e)
            self.choose_who, self.choose_ctx = owner, CTX_CODE[ctx]

    def add_tokens(self, tgt, owner, t, amt):
        """Seat ``tgt`` gains ``amt`` of token t up to its limit (``kernel.add_tokens_nb``)."""
        pl = self.players[tgt]
        v = min(pl.tokens[t] + amt, pl.limits[t])
        if v > pl.tokens[t]:
            pl.tnew[t] += v - pl.tokens[t]
            if tgt != owner:
                pl.tsrc[t] = owner + 1
        pl.tokens[t] = v

    def chosen_seats(self, target, owner):
        """The seats a "chosen" effect of ``owner`` (its team, itself first) or a "teammate"
        one (its teammates) may go to, in seat order from the owner (``kernel.chosen_seats_nb``)."""
        n = self.nseats
        team = self.players[owner].team
        return [q for q in ((owner + j) % n for j in range(n))
                if self.players[q].team == team and (target in (M.T_CHOSEN, M.T_TWO) or q != owner)
                and not (target == M.T_TWO and (self.picked >> q) & 1)]

    def pick_seat(self, q):
        """Seat ``q`` picked for the oldest pending chosen-player gain (``kernel.pick_seat_nb``)."""
        e = self.choices.pop(0)
        if e.target == M.T_TWO:        # the first of a two_chosen pair: the second picks another seat
            self.picked = 1 << q if self.picked == 0 and self.choices and self.choices[0].row == e.row else 0
        self.say(f"p{self.choose_who} gives {e.n} {self.c.tokens[e.arg].name} to p{q}")
        self.add_tokens(q, self.choose_who, e.arg, e.n)

    def incoming(self):
        """The attack damage the defender is about to take, as ``land`` would compute it now."""
        D = self.players[self.target]
        total = self.pool + self.pool_card + self.pool_token
        if self.kind in (K_NORMAL, K_UNDEF):
            total = max(0, total - D.prevent)
            if self.protected:
                total -= (total + 1) // 2
        return 0 if self.avoid else total

    def spend_moves(self, w, holder):
        """The spend offer of window ``w`` to ``holder`` (``kernel.window_nb``): MV_PASS, then its
        entries at ``w``; an attack window that offers one also offers the ``any`` entries."""
        out = [MV_PASS]
        if self.stunned(holder):
            return out
        if w < M.N_ATTACK_WINDOWS:
            dmg = self.pool + self.pool_card
            if self.kind < 0 or ((w == M.W_ATTACKING and dmg + self.pool_token <= 0)
                                 or (w == M.W_ATTACKED and self.incoming() <= 0) or (w == M.W_AFTER and self.taken <= 0)):
                return out
        own = self.offer(w, -1, holder)
        if own and w < M.N_ATTACK_WINDOWS and any(e.when == M.W_ANY for _, e in self.entries):
            own = self.offer(w, M.W_ANY, holder)
        return (out + own)[:M.MAX_MOVES]

    def own_spends(self, p, w):
        """The spends seat p may add to a decision of its own (PH_MAIN: ``main``; PH_ROLL and its
        priority over its own dice at ST_PREWIN: ``own_roll``; -1: none) and its ``any`` entries."""
        if self.stunned(p):
            return []
        return self.offer(w, M.W_ANY, p)

    def offer(self, w, w2, holder):
        """``MV_SPEND`` moves of the entries at moment ``w`` or ``w2`` that ``holder`` may use now,
        in entry order (``kernel.offer_nb``)."""
        pl = self.players[holder]
        dmg = self.pool + self.pool_card
        out = []
        for i, (t, e) in enumerate(self.entries):
            if e.when != w and e.when != w2:
                continue
            k = pl.tokens[t] - (pl.tnew[t] if e.not_gained_this_turn else 0)
            if k < 1 or pl.cp < e.cost_cp:
                continue
            if e.once_per_turn and (pl.once >> t) & 1:
                continue
            if e.when < M.N_ATTACK_WINDOWS:
                if not e.repeat and (self.win_used >> i) & 1:
                    continue
                kinds = e.kinds if e.kinds >= 0 else (M.KINDS_NOT_ULT if M.WINDOW_DEFENDER[e.when] else M.KINDS_ALL)
                if not (kinds >> self.kind) & 1:
                    continue
                if e.at_least >= 0 and self.rules["crit_needs_threshold"] and dmg < e.at_least:
                    continue
                if e.inflicts:
                    A = self.players[self.active]
                    if not M.tier_inflicts(A.hero.abilities[self.ability].tiers[self.tier]):
                        continue
            if e.if_has != -1 and not self.holds_token(pl, e.if_has):
                continue
            if e.unless_has != -1 and self.holds_token(pl, e.unless_has):
                continue
            m = k if e.max == 0 or e.max > k else e.max
            out += [M.MV_SPEND + i * 16 + n for n in range(1, m + 1)]
        return out

    def upkeep_events(self, a):
        """The upkeep events of the active seat (reversed token order under decay_before_burn),
        then income; the passive's upkeep (plan step 9) first."""
        pas = self.passive(a)
        if pas is not None and pas.upkeep:
            self.run(pas.upkeep, UPKEEP, a)
        order = list(range(len(self.c.tokens)))
        if self.rules["decay_before_burn"]:
            order.reverse()
        for t in order:
            if self.players[a].tokens[t] > 0 and self.c.tokens[t].upkeep:
                self.evtok = t + 1
                self.run(self.c.tokens[t].upkeep, UPKEEP, a)
                self.evtok = 0
        self.step = M.ST_INCOME

    def holds_token(self, pl, t):
        if t == -2:
            return any(tk.kind == M.TK_NEG and pl.tokens[u] > 0 for u, tk in enumerate(self.c.tokens))
        return pl.tokens[t] > 0

    def spend(self, x, holder):
        """Spend through entry x // 16, x % 16 tokens (``kernel.spend_nb``)."""
        i, k = divmod(x, 16)
        t, e = self.entries[i]
        pl = self.players[holder]
        pl.tokens[t] -= k
        pl.cp -= e.cost_cp
        pl.spends += 1
        pl.token_uses[t] += 1
        if e.once_per_turn:
            pl.once |= 1 << t
        if e.when < M.N_ATTACK_WINDOWS:
            self.win_used |= 1 << i
        self.pend_op = 0
        self.spending = (self.c.tokens[t].name, e.when)     # the play-by-play names its damage
        for _ in range(k):
            self.run(e.effects, TOKEN, holder)
        self.spending = None
        if self.pend_op:        # its die operation (Seedling's reroll): then back to this decision
            self.ret_step, self.cur = self.step, holder
            self.step = M.ST_DIE

    def events(self, ev, holder, stop=0):
        """The token events of moment ``ev`` (``model.EVENTS``) of seat ``holder``, in token
        order, for each token it holds; a ``skip`` setting a bit of ``stop`` ends the moment."""
        pl = self.players[holder]
        name = M.EVENTS[ev]
        for t, tk in enumerate(self.c.tokens):
            if pl.tokens[t] > 0 and tk.events.get(name):
                self.say(f"p{holder} {tk.name}: {name}")
                self.evtok = t + 1
                self.run(tk.events[name], UPKEEP, holder)
                self.evtok = 0
                if pl.skip & stop:
                    break

    def predefence(self, a):
        """Go on with the chosen tier's pre-defence part (``model.predefence_len``) from the
        effects done (O_PREDEF); True when a roll with may_reroll stopped it: its dice wait at
        ST_BONUS, which then returns to this step (``kernel.predef_nb``)."""
        tier = self.players[a].hero.abilities[self.ability].tiers[self.tier]
        k = M.predefence_len(tier.effects)
        while self.predef_done < k:
            i = self.predef_done
            self.predef_done += 1
            self.run([tier.effects[i]], ABILITY, a, self.adice, M.N_DICE)
            if self.bonus_n:
                self.bonus_src, self.bonus_row, self.ret_step = M.BS_PREDEF, i, self.step
                self.step = M.ST_BONUS
                return True
        return False

    def bonus_roller(self):
        """(seat, most dice it may reroll) of the dice waiting at ST_BONUS."""
        a = self.active
        if self.bonus_src == M.BS_DEF:
            D = self.players[self.target]
            return self.target, M.defence_reroll(D.hero.defences[self.def_pick], D.levels[M.LV_DEF + self.def_pick])
        if self.bonus_src == M.BS_CARD:
            return self.cur, self.c.cards[self.bonus_row].effects[-1].arg
        return a, self.players[a].hero.abilities[self.ability].tiers[self.tier].effects[self.bonus_row].arg

    def outcome(self, e, f, ctx, owner, dice, nd):
        """A bonus die of roll effect ``e`` shows face ``f``: its outcome (by face number or
        by symbol)."""
        key = M.outcome_key(e, self.players[owner].hero.face_sym, f)
        self.run(e.on.get(key, []), ctx, owner, dice, nd)

    # ------------------------------------------------------------ legality
    def current_dice(self):
        if self.roll_who == 1:
            return self.adice, M.N_DICE, self.active
        if self.roll_who == 2:
            return self.ddice, self.def_n, self.target
        if self.roll_who == 3:          # the targeting die: the attacker's
            return self.tdice, 1, self.active
        return None, 0, -1

    def card_legal(self, p, cid, where):
        """May seat p play card cid now? ``where``: main (own main phase), roll (own
        offensive roll, between attempts) or window (priority in a roll window)."""
        card = self.c.cards[cid]
        pl = self.players[p]
        if self.card_cost(p, cid) > pl.cp or self.stunned(p):
            return False
        if card.discard_cost > len(pl.hand) - 1:
            return False
        if (card.when == M.CW_AFTER) != (where == "post"):   # after_damage cards at ST_POSTWIN only
            return False
        if where == "main":
            if card.phase not in (CP_MAIN, CP_INSTANT):
                return False
        elif card.phase not in (CP_ROLL, CP_INSTANT):
            return False
        if card.dice != CD_NONE:
            _, _, owner = self.current_dice()
            if owner < 0 or (card.dice == CD_OWN and owner != p) or (card.dice == CD_OPP and self.players[owner].team == self.players[p].team):
                return False
        if card.when not in (M.CW_ANY, M.CW_AFTER):
            if self.step != M.ST_ATKWIN or self.kind < 0:
                return False
            if card.when == CW_ATTACKING and p != self.active:
                return False
            if card.when == CW_ATTACKED and p != self.target:   # the target's alone (2v2: not its teammate)
                return False
        for e in card.effects:
            if e.op == OP_EXTRA_ATTEMPT and where != "roll":
                return False
            if e.op == OP_UPGRADE and pl.levels[e.arg] >= e.level:
                return False
        return True

    def card_cost(self, p, cid):
        """What card cid costs seat p: its printed CP; an upgrade over a level a card made
        (II -> III), under upgrade_pays_difference, that less the printed CP of the deck's
        first card upgrading the same slot to the current level (never below 0)."""
        card = self.c.cards[cid]
        if not self.rules["upgrade_pays_difference"]:
            return card.cost
        pl = self.players[p]
        for e in card.effects:
            if e.op == OP_UPGRADE:
                now = pl.levels[e.arg]
                if now < 2:
                    return card.cost
                for c2 in M.deck_list(self.c, pl.hero.id):
                    if any(x.op == OP_UPGRADE and x.arg == e.arg and x.level == now for x in self.c.cards[c2].effects):
                        return max(0, card.cost - self.c.cards[c2].cost)
                return card.cost
        return card.cost

    def card_moves(self, p, where):
        return [MV_PLAY + h for h, cid in enumerate(self.players[p].hand) if self.card_legal(p, cid, where)]

    def tithe_moves(self, p):
        pas = self.passive(p)
        dice, n, owner = self.current_dice()
        if pas is None or pas.reroll_cost < 0 or owner != p or self.players[p].cp < pas.reroll_cost or self.stunned(p):
            return []
        return [MV_TITHE_REROLL + i for i in range(n)]

    def tithe_draw_moves(self, p):
        """Tithes' draw ("at any time"): in every decision seat p holds, if it can pay and
        is not stunned (a stunned player uses no passive)."""
        pas = self.passive(p)
        if pas is None or pas.draw_cost < 0 or self.players[p].cp < pas.draw_cost or self.stunned(p):
            return []
        return [MV_TITHE_DRAW]

    def main_moves(self, p):
        pl = self.players[p]
        mv = [MV_PASS] + self.card_moves(p, "main") + [MV_SELL + h for h in range(len(pl.hand))]
        return (mv + self.tithe_draw_moves(p) + self.own_spends(p, M.W_MAIN))[:M.MAX_MOVES]

    def roll_moves(self):
        p = self.active
        mv = [MV_PASS]
        if self.attempts < self.max_attempts:
            mv = [MV_PASS] + [MV_REROLL + m for m in range(31)]
        mv = mv + self.card_moves(p, "roll") + self.tithe_moves(p) + self.tithe_draw_moves(p)
        return (mv + self.own_spends(p, M.W_OWN_ROLL))[:M.MAX_MOVES]

    def window_moves(self, q):
        mv = [MV_PASS] + self.card_moves(q, "window") + self.tithe_moves(q) + self.tithe_draw_moves(q)
        own = self.step == M.ST_PREWIN and q == self.active and self.roll_who == 1
        return (mv + self.own_spends(q, M.W_OWN_ROLL if own else -1))[:M.MAX_MOVES]

    def satisfied_tiers(self):
        p = self.players[self.active]
        hero = p.hero
        faces = [hero.die.faces[f] for f in self.adice]
        out = []
        for a, ab in enumerate(hero.abilities):
            for t, tier in enumerate(ab.tiers):
                if tier.level == p.levels[a] and tier.target.met(faces):
                    out.append(MV_ABILITY + a * 16 + t)
        return out

    def buy_max(self):
        """A card's pending ``buy``: how many tokens its player may buy (CP over the cost,
        the room under the stack limit, MAX_BUY)."""
        pl = self.players[self.cur]
        t = self.pend_arg
        return max(0, min(pl.cp // self.pend_n, pl.limits[t] - pl.tokens[t], M.MAX_BUY))

    def die_moves(self):
        if self.pend_op == M.OP_BUY:
            k = self.buy_max()
            return [MV_PASS] + [M.MV_BUY + i for i in range(1, k + 1)] if k else []
        dice, n, _ = self.current_dice()
        if self.pend_op == OP_SET_DIE:
            faces = range(1, 7) if self.pend_arg == 0 else [self.pend_arg]
            return [MV_DIE + i * 8 + f for i in range(n) for f in faces]
        if self.pend_op == OP_COPY_DIE:
            # set die i to a face another die shows
            return [MV_DIE + i * 8 + f + 1 for i in range(n) for f in range(6)
                    if f != dice[i] and any(dice[j] == f for j in range(n) if j != i)]
        if self.pend_op == OP_MOVE_DIE:
            out = []
            for i in range(n):
                if dice[i] > 0:
                    out.append(MV_DIE + i * 8)
                if dice[i] < 5:
                    out.append(MV_DIE + i * 8 + 1)
            return out
        out = [MV_DIE + m for m in range(1, 1 << n) if bin(m).count("1") <= self.pend_n]
        if self.pend_arg > 0:   # rerolls in a row (times): the player may stop (listed last)
            out.append(MV_DIE)
        return out

    # ------------------------------------------------------------ start and advance
    def start(self):
        for pl in self.players:
            self.shuffle(pl.deck)
        for p in range(self.nseats):
            for _ in range(self.rules["start_hand"]):
                self.draw(p)
        self.first = 0
        if self.rules["first_player"] == "roll":
            # every seat rolls one die in seat order; the seats tied at the highest roll again
            cand = list(range(self.nseats))
            while True:
                rolls = [(self.below(6), p) for p in cand]
                best = max(x for x, _ in rolls)
                cand = [p for x, p in rolls if x == best]
                if len(cand) == 1:
                    self.first = cand[0]
                    break
        self.active = self.first
        n = self.nseats
        if self.rules["mode"] != "1v1" and self.rules["team_turn_order"] == "blocks":
            # the start player and its teammates in seat order, then the next team's seats
            seq = [(self.first + j) % n for j in range(n)]
            teams = M.MODE_TEAMS[self.rules["mode"]]
            self.order = [q for side in range(teams) for q in seq if self.players[q].team == (self.first + side) % teams]
        else:
            self.order = [(self.first + k) % n for k in range(n)]
        self.target = self.first_opponent(self.first)
        self.say(f"first player p{self.first}")
        self.step = M.ST_UPKEEP
        return self.advance()

    def decide(self, phase, cur, moves):
        self.phase, self.cur, self.moves = phase, cur, moves
        return moves

    def advance(self):
        """Run automatic steps until a decision with two or more legal moves (a single
        legal move is applied at once) or the end of the game."""
        while True:
            mv = self.next_decision()
            if self.over:
                self.phase = M.PH_DONE
                self.moves = []
                return []
            if len(mv) >= 2:
                return mv
            self.apply(mv[0])

    def next_decision(self):
        r = self.rules
        while not self.over:
            if self.choices:       # a queued choose: its owner picks before the step goes on
                e = self.choices[0]
                if e.op != M.OP_CHOOSE:     # a chosen player: the seat
                    return self.decide(M.PH_TARGET, self.choose_who,
                                       [M.MV_TARGET + q for q in self.chosen_seats(e.target, self.choose_who)])
                return self.decide(M.PH_CHOOSE, self.choose_who, [M.MV_PICK + k for k in range(e.n)])
            a = self.active
            d = self.target
            A, D = self.players[a], self.players[d]
            st = self.step
            if st == M.ST_UPKEEP:
                A.held = sum(1 << t for t in range(len(self.c.tokens)) if A.tokens[t] > 0)
                self.step = M.ST_W_UPKEEP
            elif st == M.ST_W_UPKEEP:
                mv = self.spend_moves(M.W_ANY, a)      # `any` spends before the upkeep events (Cleanse)
                if len(mv) > 1:
                    return self.decide(M.PH_TOKEN, a, mv)
                self.upkeep_events(a)
            elif st == M.ST_INCOME:
                if self.knocked_out():
                    continue
                self.events(M.EV_INCOME, a, M.SK_INCOME)
                if A.skip & M.SK_INCOME:           # skip = "income" (Concussion)
                    A.skip &= ~M.SK_INCOME
                    self.say("income skipped")
                elif r["first_player_skips_income"] and a == self.first and not self.income_skipped:
                    self.income_skipped = 1
                else:
                    self.gain_cp(a, r["income_cp"])
                    for _ in range(r["income_cards"]):
                        self.draw(a)
                self.step = M.ST_MAIN1
            elif st in (M.ST_MAIN1, M.ST_MAIN2):
                if self.knocked_out():
                    continue
                return self.decide(M.PH_MAIN, a, self.main_moves(a))
            elif st == M.ST_KNOCK:
                # the start of every offensive roll phase: the attack state is reset here, before
                # the roll_phase_start window (Knockdown's payment) and events (ST_ROLL_START)
                self.attempts, self.max_attempts = 1, r["roll_attempts"]
                self.ability = self.tier = self.kind = -1
                self.defended = self.pool = self.pool_card = self.pool_token = 0
                self.collateral = self.spent = self.taken = self.protected = self.pips = 0
                self.nodef = self.avoid = 0
                self.cvic = self.half = 0
                self.predef_done = 0
                for q in self.players:          # every seat's (with several opponents the target is not known yet)
                    q.prevent = 0
                self.def_pick = -1
                self.step = M.ST_W_ROLL_START
            elif st == M.ST_W_ROLL_START:
                mv = self.spend_moves(M.W_ROLL_START, a)      # Knockdown's payment
                if len(mv) > 1:
                    return self.decide(M.PH_TOKEN, a, mv)
                self.step = M.ST_ROLL_START
            elif st == M.ST_ROLL_START:
                self.events(M.EV_ROLL_START, a, M.SK_ROLL)
                if self.knocked_out():
                    continue
                if A.skip & M.SK_ROLL:             # skip = "roll_phase"
                    A.skip &= ~M.SK_ROLL
                    self.say("the offensive roll phase is skipped")
                    self.step = M.ST_MAIN2
                    continue
                self.roll_who = 1
                for i in range(M.N_DICE):
                    self.adice[i] = self.below(6)
                self.say(f"rolls {[f + 1 for f in self.adice]}")
                self.step = M.ST_ROLL
            elif st == M.ST_ROLL:
                return self.decide(M.PH_ROLL, a, self.roll_moves())
            elif st in (M.ST_PREWIN, M.ST_ATKWIN, M.ST_TWIN):
                q = self.prio
                # a stunned player takes no action; nor does an opponent of an ultimate
                if self.stunned(q) or (self.kind == K_ULT and self.players[q].team != self.players[a].team):
                    self.window_pass()
                    continue
                return self.decide(M.PH_WINDOW, q, self.window_moves(q))
            elif st == M.ST_ROLL_END:
                self.events(M.EV_ROLL_END, a)
                if self.knocked_out():
                    continue
                if A.skip & M.SK_ABILITY:          # fail_attack (Blinded)
                    A.skip &= ~M.SK_ABILITY
                    self.say("the attack fails")
                    self.roll_who = 0
                    self.step = M.ST_MAIN2
                    continue
                self.step = M.ST_ABILITY
            elif st == M.ST_ABILITY:
                mv = self.satisfied_tiers()
                if not mv:
                    self.say("no ability")
                    self.roll_who = 0
                    self.step = M.ST_MAIN2
                    continue
                if r["may_skip_ability"]:
                    mv = [MV_PASS] + mv        # the ability may be left unused
                return self.decide(M.PH_ABILITY, a, mv)
            elif st == M.ST_TARGET:
                # the target (modes/DESIGN.md 2.3): a tier naming "the opponent", outside a Stun's
                # extra phase (it keeps its target); several opponents: free-for-all's free pick or
                # the targeting roll; one: it, with no roll
                tier = A.hero.abilities[self.ability].tiers[self.tier]
                opps = [q for q in range(self.nseats) if self.in_game(q) and self.players[q].team != A.team]
                if self.nseats > 2 and self.extra_phases == 0 and M.tier_targets(tier):
                    ffa = r["mode"].startswith("ffa")
                    if len(opps) == 1:
                        self.aim(opps[0])
                    elif ffa and r["ffa_targeting"] == "free":       # King of the Hill: any opponent
                        self.step = M.ST_TREAD
                        return self.decide(M.PH_TARGET, a, self.target_moves(a))
                    else:
                        self.tdice[0] = self.below(6)
                        k = len(opps)
                        self.ttab = ("target_faces_ffa" if ffa else "target_faces_2" if k == 2
                                     else "target_faces_3" if k == 3 else "target_faces_multi")
                        self.roll_who = 3
                        self.say(f"targeting die {self.tdice[0] + 1} ({self.ttab})")
                        if r["target_die_cards"]:       # a window on the die, from the attacker
                            self.step, self.prio, self.passes = M.ST_TWIN, a, 0
                        else:
                            self.step = M.ST_TREAD
                    continue
                self.step = M.ST_RESOLVE if self.kind < 0 else M.ST_ACCURACY
            elif st == M.ST_TREAD:
                self.roll_who = 0
                face = r[self.ttab][self.tdice[0]]
                left, right = self.side_opponent(a, 1), self.side_opponent(a, -1)
                if face in ("left", "right", "middle") or (face == "pick_lr" and left == right):
                    opps = [q for q in ((a + i) % self.nseats for i in range(1, self.nseats))
                            if self.in_game(q) and self.players[q].team != A.team]
                    self.aim(left if face in ("left", "pick_lr") else right if face == "right" else opps[1], face)
                    continue
                if face == "pick_lr":          # the attacker: its left or its right neighbour
                    return self.decide(M.PH_TARGET, a, [M.MV_TARGET + left, M.MV_TARGET + right])
                who = a if face == "pick" else left      # their_pick: the left opponent's team
                return self.decide(M.PH_TARGET, who, self.target_moves(who))
            elif st == M.ST_ACCURACY:
                if self.predefence(a):      # the tier's pre-defence part stopped for a reroll
                    continue
                self.step = M.ST_W_ATTACK_END       # Accuracy's window
            elif st == M.ST_DEFENDING:
                self.events(M.EV_DEFENDING, d)
                self.step = M.ST_W_DEFENDING
            elif st == M.ST_DEFROLL:
                if self.kind == K_NORMAL and not self.stunned(d) and not self.nodef:
                    if self.def_pick < 0:
                        if len(D.hero.defences) > 1:
                            return self.decide(M.PH_DEFENCE, d, [M.MV_DEFENCE + k for k in range(len(D.hero.defences))])
                        self.def_pick = 0
                    self.defended = 1
                    self.def_n = D.hero.defence_dice_at(self.def_pick, D.levels[M.LV_DEF + self.def_pick])
                    for i in range(self.def_n):
                        self.ddice[i] = self.below(6)
                    self.roll_who = 2
                    self.say(f"p{d} defends {[f + 1 for f in self.ddice[:self.def_n]]}")
                self.prio, self.passes = d, 0
                self.step = M.ST_ATKWIN
                if self.defended and M.defence_reroll(D.hero.defences[self.def_pick],
                                                      D.levels[M.LV_DEF + self.def_pick]) > 0:
                    self.bonus_n, self.bonus_src = self.def_n, M.BS_DEF      # the defender may reroll
                    self.step = M.ST_BONUS
            elif st == M.ST_RESOLVE:
                if self.predefence(a):      # not an attack: its pre-defence part runs here first
                    continue
                tier = A.hero.abilities[self.ability].tiers[self.tier]
                self.run(tier.effects[M.predefence_len(tier.effects):M.damage_split(tier.effects)], ABILITY, a,
                         self.adice, M.N_DICE)
                self.bonus_row = len(tier.effects) - 1 if self.bonus_n else self.bonus_row
                self.step = M.ST_BONUS if self.bonus_n else M.ST_W_ATTACKING     # Crit's window
            elif st == M.ST_BONUS:
                who, k = self.bonus_roller()
                masks = [m for m in range(1, 1 << self.bonus_n) if bin(m).count("1") <= k]
                return self.decide(M.PH_BONUS, who, [MV_PASS] + [MV_DIE + m for m in masks])
            elif st == M.ST_ATTACKED:
                # the defender's attacked events (Targeted, Sneak), while attack damage is incoming
                total = self.pool + self.pool_card + self.pool_token
                if self.kind in (K_NORMAL, K_UNDEF):
                    total -= D.prevent
                if self.kind >= 0 and total > 0:
                    self.events(M.EV_ATTACKED, d)
                self.step = M.ST_W_ATTACKED
            elif st == M.ST_LAND:
                if self.cvic == 0 and r["collateral_preventable"] and self.collateral > 0 and self.kind != K_ULT:
                    self.cvic = 1              # the collateral window first (collateral_preventable)
                    self.step = M.ST_COLLWIN
                    continue
                self.land()
                # "deal damage, then gain Crit": what the tier lists after its last damage
                tier = A.hero.abilities[self.ability].tiers[self.tier]
                self.run(tier.effects[max(M.damage_split(tier.effects), M.predefence_len(tier.effects)):], ABILITY, a,
                         self.adice, M.N_DICE)
                self.step = M.ST_W_AFTER            # Retribution's window
            elif M.ST_W_ATTACK_END <= st <= M.ST_W_AFTER:
                w = st - M.W_STEP0
                holder = d if M.WINDOW_DEFENDER[w] else a
                mv = self.spend_moves(w, holder)
                if len(mv) > 1:
                    return self.decide(M.PH_TOKEN, holder, mv)
                self.win_used = 0
                self.step = M.W_NEXT[w]
            elif st == M.ST_COLLWIN:
                mv = self.collateral_window(a, d)
                if mv:
                    return mv
                self.step = M.ST_LAND
            elif st == M.ST_POSTWIN:
                # the attacker's after_damage cards (Head Bash!), while taken is this attack's
                mv = []
                if self.kind >= 0 and A.hp > 0 and D.hp > 0:
                    mv = [MV_PASS] + self.card_moves(a, "post")
                if len(mv) > 1:
                    return self.decide(M.PH_WINDOW, a, mv)
                self.step = M.ST_AFTER
            elif st == M.ST_PAYDISC:
                q = self.players[self.cur]
                if self.disc_n > 0 and q.hand:
                    return self.decide(M.PH_DISCARD, self.cur, [MV_SELL + h for h in range(len(q.hand))])
                self.disc_n = 0
                self.card_effects(self.cur, self.disc_card, self.ret_step)
            elif st == M.ST_AFTER:
                A.block = D.block = 0        # block_status lapses with the attack
                self.roll_who = 0
                if self.knocked_out():
                    continue
                s = self.token(U_STUN)
                if s >= 0 and D.tokens[s] > 0 and self.in_game(d):    # (a target out: no extra phase)
                    D.tokens[s] = 0
                    if r["stun_extra_attack"] and self.extra_phases < 20:
                        self.extra_phases += 1
                        self.say("stun: another offensive roll phase")
                        self.step = M.ST_KNOCK
                        continue
                    if r["stun_extra_attack"]:     # a 21st Stun phase this turn: the bound
                        self.bound()
                        break
                self.step = M.ST_MAIN2
            elif st == M.ST_DIE:
                mv = self.die_moves()
                if not mv:      # nothing to do (a copy with every die alike): the card is spent
                    self.pend_op = 0
                    self.step = self.ret_step
                    continue
                return self.decide(M.PH_BUY if self.pend_op == M.OP_BUY else M.PH_DIE, self.cur, mv)
            elif st == M.ST_DISCARD:
                if self.knocked_out():
                    continue
                if len(A.hand) > r["hand_limit"]:
                    return self.decide(M.PH_DISCARD, a, [MV_SELL + h for h in range(len(A.hand))])
                self.step = M.ST_END
            elif st == M.ST_END:
                if self.in_game(a):         # (a seat whose team went out runs no more events)
                    self.events(M.EV_TURN_END, a)
                    if self.knocked_out() and self.over:    # Delayed Poison can knock out at turn end
                        break
                for q in self.players:      # "this turn" ends for every seat
                    q.tnew = [0] * M.MAX_TOKENS
                    q.once = 0
                self.turn += 1
                self.extra_phases = 0
                if self.turn * 2 >= r["max_turns"] * self.nseats:     # max_turns per two seats (1v1: max_turns)
                    self.over, self.capped, self.winner = 1, 1, -1
                    break
                self.active = self.next_seat(a)
                self.target = self.first_opponent(self.active)   # the targeting roll: plan step 3
                self.step = M.ST_UPKEEP
        return []

    def land(self):
        """The attack damage lands: + Crit, - prevention, Protect halves (rounded up in
        the defender's favour); then collateral."""
        a, d = self.active, self.target
        D = self.players[d]
        total = self.pool + self.pool_card + self.pool_token
        if self.kind in (K_NORMAL, K_UNDEF):
            total = max(0, total - D.prevent)
            if self.protected:
                total -= (total + 1) // 2
        if self.avoid:
            total = 0
        tok = min(self.pool_token, total)
        card = min(self.pool_card, total - tok)
        A = self.players[a]
        A.damage[SRC_TOKEN] += tok
        A.damage[SRC_CARD] += card
        A.damage[SRC_ABILITY] += total - tok - card
        self.hurt(d, total, self.kind == K_ULT)
        self.taken = total
        if self.collateral > 0 and self.nseats == 2:     # 1v1: the one opponent
            c = self.collateral_due(d)
            self.hurt(d, c, self.kind == K_ULT)
            A.damage[SRC_ABILITY] += c
        elif self.collateral > 0:
            self.collateral_hits(a, d)
        self.say(f"attack lands: {total} (+{self.collateral} collateral); health {self.players[0].hp}/{self.players[1].hp}")

    def collateral_victim(self, a, d, q):
        """Whether seat ``q`` takes the collateral of attacker ``a`` (target ``d``): in 1v1 the one
        opponent; else each living seat of another team, the target only under
        collateral_hits_target, and under collateral_per = "team" only the first such seat of
        its team in seat order from the attacker's left (``kernel.coll_victim_nb``)."""
        if self.nseats == 2:
            return q == d
        hits_target = self.rules["collateral_hits_target"]

        def eligible(j):
            return (self.in_game(j) and self.players[j].team != self.players[a].team
                    and not (j == d and not hits_target))
        if not eligible(q):
            return False
        if self.rules["collateral_per"] == "team":
            before = [(a + i) % self.nseats for i in range(1, self.nseats)]
            before = before[:before.index(q)]
            return not any(eligible(j) and self.players[j].team == self.players[q].team for j in before)
        return True

    def collateral_due(self, q):
        """What seat ``q`` takes of the collateral (``kernel.coll_due_nb``): all of it unless
        collateral_preventable, and an ultimate's always; else less its prevention (the target's
        left over once the attack damage, when preventable, took its share), halved (rounded
        up in its favour) if it spent a halving in the collateral window."""
        c = self.collateral
        if not self.rules["collateral_preventable"] or self.kind == K_ULT:
            return c
        prev = self.players[q].prevent
        if q == self.target and self.kind in (K_NORMAL, K_UNDEF):
            prev -= self.pool + self.pool_card + self.pool_token
        c = max(0, c - max(0, prev))
        if (self.half >> q) & 1:
            c -= (c + 1) // 2
        return c

    def collateral_hits(self, a, d):
        """The collateral "to all opponents" with several seats (modes/DESIGN.md 1.8): each
        seat ``collateral_victim`` names, in seat order from the attacker's left, takes
        ``collateral_due``, each hit a hurt credited to the attacker."""
        A = self.players[a]
        for i in range(1, self.nseats):
            q = (a + i) % self.nseats
            if not self.collateral_victim(a, d, q):
                continue
            c = self.collateral_due(q)
            self.hurt(q, c, self.kind == K_ULT)
            A.damage[SRC_ABILITY] += c
            self.say(f"p{q} takes {c} collateral")

    def collateral_window(self, a, d):
        """The collateral window (collateral_preventable; modes/DESIGN.md 1.8): each seat the
        collateral will hit, from the attacker's left, not stunned and with some still to take,
        is offered its attacked-window spend entries that prevent (PH_TOKEN; offered as against
        undefendable damage), then its hand's cards that prevent (PH_WINDOW: roll or instant,
        when any or attacked, on no dice, paid by its CP). The next decision's moves, or []
        when every seat has passed (``kernel.coll_window_nb``)."""
        while True:
            k = self.cvic - 1
            i = 1 + k // 2
            if i >= self.nseats:
                return []
            q = (a + i) % self.nseats
            if not self.collateral_victim(a, d, q) or self.stunned(q) or self.collateral_due(q) <= 0:
                self.cvic = 1 + 2 * i
                continue
            if k % 2 == 0:
                kind, self.kind = self.kind, K_UNDEF
                own = self.offer(M.W_ATTACKED, -1, q)
                self.kind = kind
                own = [x for x in own if M.mitigates(self.entries[(x - M.MV_SPEND) // 16][1].effects)]
                if own:
                    return self.decide(M.PH_TOKEN, q, ([MV_PASS] + own)[:M.MAX_MOVES])
            else:
                pl = self.players[q]
                cards = [MV_PLAY + h for h, cid in enumerate(pl.hand) if self.collateral_card(q, cid)]
                if cards:
                    return self.decide(M.PH_WINDOW, q, ([MV_PASS] + cards)[:M.MAX_MOVES])
            self.cvic += 1
            self.win_used = 0

    def collateral_card(self, q, cid):
        """May seat ``q`` play card ``cid`` on its collateral portion (``collateral_window``)?"""
        card = self.c.cards[cid]
        pl = self.players[q]
        return (M.mitigates(card.effects) and card.phase in (CP_ROLL, CP_INSTANT) and card.dice == CD_NONE
                and card.when in (M.CW_ANY, CW_ATTACKED) and card.discard_cost <= len(pl.hand) - 1
                and self.card_cost(q, cid) <= pl.cp)

    def aim(self, q, why=""):
        """The attack goes to seat ``q`` (``kernel.aim_nb``); in free-for-all under
        koth_leader_card a target among the leaders (the living seats of the most health) draws
        the attacker a card first; then on to Accuracy (ST_RESOLVE without attack damage)."""
        self.target = q
        self.roll_who = 0
        self.say(f"the attack goes to p{q}" + (f" ({why})" if why else ""))
        if self.rules["mode"].startswith("ffa") and self.rules["koth_leader_card"]:
            top = max(pl.hp for k, pl in enumerate(self.players) if self.in_game(k))
            if self.players[q].hp == top:
                self.say(f"p{q} leads: p{self.active} draws a card")
                self.draw(self.active)
        self.step = M.ST_RESOLVE if self.kind < 0 else M.ST_ACCURACY

    def window_pass(self):
        self.passes += 1
        if self.passes >= sum(self.in_game(q) for q in range(self.nseats)):   # every seat in the game passed in a row
            if self.step == M.ST_PREWIN:
                self.step = M.ST_ROLL_END
            elif self.step == M.ST_TWIN:      # the targeting die is read
                self.step = M.ST_TREAD
            else:
                if self.defended:
                    d = self.target
                    D = self.players[d]
                    df = D.hero.defences[self.def_pick]
                    dt = sorted(df.tiers, key=lambda x: x.level)[D.levels[M.LV_DEF + self.def_pick] - 1]
                    self.run(dt.effects, DEFENCE, d, self.ddice, self.def_n)
                self.roll_who = 0
                self.step = M.ST_RESOLVE
        else:
            self.prio = self.next_seat(self.prio)

    def play_card(self, p, h, ret_step):
        pl = self.players[p]
        cid = pl.hand[h]
        pl.cp -= self.card_cost(p, cid)
        pl.hand.pop(h)
        card = self.c.cards[cid]
        pl.discard.append(cid)
        pl.cards_played += 1
        pl.card_plays[cid] += 1
        self.say(f"p{p} plays {card.name}")
        if card.discard_cost:     # the other cards go first (ST_PAYDISC), then the effects
            self.disc_n, self.disc_card = card.discard_cost, cid
            self.ret_step, self.cur, self.step = ret_step, p, M.ST_PAYDISC
            return
        self.card_effects(p, cid, ret_step)

    def card_effects(self, p, cid, ret_step):
        """``kernel.card_effects_nb``."""
        self.pend_op = 0
        self.run(self.c.cards[cid].effects, CARD, p)
        if self.pend_op:
            self.ret_step = ret_step
            self.cur = p
            self.step = M.ST_DIE
        elif self.bonus_n:      # its roll's dice wait for the player's reroll (may_reroll)
            self.bonus_src, self.bonus_row, self.ret_step = M.BS_CARD, cid, ret_step
            self.cur = p
            self.step = M.ST_BONUS
        else:
            self.step = ret_step

    # ------------------------------------------------------------ apply a move
    def apply(self, mv):
        a = self.active
        p = self.cur
        pl = self.players[p]
        st = self.step
        r = self.rules
        if self.choices:           # the decision was a queued choose's pick (PH_CHOOSE; MV_PICK lies in the spend range)
            if mv >= M.MV_TARGET:  # or a chosen player's (PH_TARGET)
                self.pick_seat(mv - M.MV_TARGET)
            else:
                self.pick(mv - M.MV_PICK)
        elif M.MV_SPEND <= mv < M.MV_PICK and st != M.ST_DIE:   # a spend: then back to the same decision
            self.spend(mv - M.MV_SPEND, p)
        elif st == M.ST_W_UPKEEP:
            self.upkeep_events(a)
        elif st in (M.ST_MAIN1, M.ST_MAIN2):
            if mv == MV_PASS:
                self.step = M.ST_KNOCK if st == M.ST_MAIN1 else M.ST_DISCARD
            elif mv >= MV_TITHE_DRAW:
                self.tithe_draw(p)
            elif mv >= MV_SELL:
                pl.discard.append(pl.hand.pop(mv - MV_SELL))
                self.gain_cp(p, r["sell_cp"])
                pl.sold += 1
            else:
                self.play_card(p, mv - MV_PLAY, st)
        elif st == M.ST_W_ROLL_START:     # MV_PASS (a spend: above): the events, then the roll
            self.step = M.ST_ROLL_START
        elif st == M.ST_ROLL:
            if mv == MV_PASS:
                self.step = M.ST_PREWIN
                self.prio, self.passes = self.next_seat(a), 1
            elif mv < MV_PLAY:
                keep = mv - MV_REROLL
                for i in range(M.N_DICE):
                    if not (keep >> i) & 1:
                        self.adice[i] = self.below(6)
                self.attempts += 1
                self.say(f"rerolls: {[f + 1 for f in self.adice]}")
            elif mv < MV_SELL:
                self.play_card(p, mv - MV_PLAY, st)
            elif mv >= MV_TITHE_DRAW:
                self.tithe_draw(p)
            else:
                self.tithe_reroll(p, mv - MV_TITHE_REROLL)
        elif st in (M.ST_PREWIN, M.ST_ATKWIN, M.ST_TWIN):
            if mv == MV_PASS:
                self.window_pass()
            else:
                self.passes = 0
                self.prio = self.next_seat(p)
                if mv < MV_SELL:
                    self.play_card(p, mv - MV_PLAY, st)
                elif mv >= MV_TITHE_DRAW:
                    self.tithe_draw(p)
                else:
                    self.tithe_reroll(p, mv - MV_TITHE_REROLL)
        elif st == M.ST_ABILITY and mv == MV_PASS:
            self.say("activates no ability")
            self.roll_who = 0
            self.step = M.ST_MAIN2
        elif st == M.ST_ABILITY:
            x = mv - MV_ABILITY
            self.ability, self.tier = x // 16, x % 16
            pl.uses[self.ability] += 1
            pl.attacks += 1
            self.kind = int(self.c_tier_kind(a))
            self.say(f"activates {pl.hero.abilities[self.ability].name} ({pl.hero.abilities[self.ability].tiers[self.tier].text})")
            self.used = self.used_symbols(pl)
            pas = self.passive(a)
            if pas is not None and pas.on_attack:
                self.run(pas.on_attack, ABILITY, a, self.adice, M.N_DICE)
            self.roll_who = 0
            # the target (ST_TARGET: a roll with several opponents), then an attack (an ultimate
            # too: its window is the attacker's alone) goes on to Accuracy, the defensive roll and
            # the window; an ability without damage resolves
            self.step = M.ST_TARGET
        elif st == M.ST_TREAD:           # PH_TARGET: the attack goes to the seat picked
            self.aim(mv - M.MV_TARGET, f"p{p}'s pick")
        elif M.ST_W_ATTACK_END <= st <= M.ST_W_AFTER:     # MV_PASS (a spend: above)
            self.win_used = 0
            self.step = M.W_NEXT[st - M.W_STEP0]
        elif st == M.ST_COLLWIN:         # MV_PASS: this seat's next offer; a card: back to its card offer
            if mv == MV_PASS:
                self.cvic += 1
                self.win_used = 0
            else:
                self.play_card(p, mv - MV_PLAY, st)
        elif st == M.ST_DIE and self.pend_op == M.OP_BUY:
            k = mv - M.MV_BUY if mv != MV_PASS else 0
            pl.cp -= k * self.pend_n
            pl.tokens[self.pend_arg] += k
            self.say(f"p{p} buys {k} {self.c.tokens[self.pend_arg].name} for {k * self.pend_n} CP")
            self.pend_n = 0
            self.pend_op = 0
            self.step = self.ret_step
        elif st == M.ST_DIE:
            dice, n, _ = self.current_dice()
            x = mv - MV_DIE
            if self.pend_op in (OP_SET_DIE, OP_COPY_DIE):
                dice[x // 8] = x % 8 - 1
                self.pend_n -= 1
            elif self.pend_op == OP_MOVE_DIE:
                dice[x // 8] += 1 if x % 8 else -1
                self.pend_n -= 1
            else:
                for i in range(n):
                    if (x >> i) & 1:
                        dice[i] = self.below(6)
                if x == 0 or self.pend_arg <= 1:
                    self.pend_n = 0
                else:            # another reroll of the same card follows
                    self.pend_arg -= 1
            if self.pend_n <= 0:
                self.pend_op = 0
                self.step = self.ret_step
        elif st == M.ST_BONUS:
            n, src = self.bonus_n, self.bonus_src
            dice = self.ddice if src == M.BS_DEF else self.bdice
            if mv != MV_PASS:
                for i in range(n):
                    if ((mv - MV_DIE) >> i) & 1:
                        dice[i] = self.below(6)
                self.say(f"p{p} rerolls: dice {[f + 1 for f in dice[:n]]}")
            self.bonus_n, self.bonus_src = 0, M.BS_TIER
            if src == M.BS_DEF:
                self.step = M.ST_ATKWIN
                return
            if src == M.BS_CARD:
                roll, ctx, owner, own, nown = self.c.cards[self.bonus_row].effects[-1], CARD, p, None, 0
            else:
                roll = self.players[a].hero.abilities[self.ability].tiers[self.tier].effects[self.bonus_row]
                ctx, owner, own, nown = ABILITY, a, self.adice, M.N_DICE
            if roll.op == M.OP_ROLL_SUM:      # a roll_sum's dice: their face-number sum
                self.pips = sum(f + 1 for f in self.bdice[:n])
                self.say(f"p{owner} rolled {self.pips} pips")
            else:
                for i in range(n):
                    self.outcome(roll, self.bdice[i], ctx, owner, own, nown)
                if roll.after:
                    self.run(roll.after, ctx, owner, self.bdice, n)
            self.step = M.ST_W_ATTACKING if src == M.BS_TIER else self.ret_step
        elif st == M.ST_DEFROLL:
            self.def_pick = mv - M.MV_DEFENCE
            self.say(f"p{p} chooses {pl.hero.defences[self.def_pick].name}")
        elif st == M.ST_DISCARD:
            pl.discard.append(pl.hand.pop(mv - MV_SELL))
            self.gain_cp(p, r["sell_cp"])
            pl.sold += 1
        elif st == M.ST_POSTWIN:
            if mv == MV_PASS:
                self.step = M.ST_AFTER
            else:
                self.play_card(p, mv - MV_PLAY, M.ST_POSTWIN)
        elif st == M.ST_PAYDISC:
            pl.discard.append(pl.hand.pop(mv - MV_SELL))
            self.disc_n -= 1

    def move_text(self, mv) -> str:
        """The move in words, in the current decision's context (the play-by-play log)."""
        pl = self.players[self.cur]
        st = self.step

        def card(h):
            return self.c.cards[pl.hand[h]].name

        if self.choices:
            alt = self.choices[0].alts[mv - M.MV_PICK]
            return "picks " + ", ".join(f"{e.text} {self.c.tokens[e.arg].name}" if e.op in (OP_GAIN, M.OP_INFLICT)
                                        else f"{e.text} {e.n}" for e in alt)

        if st == M.ST_TREAD:
            return f"targets p{mv - M.MV_TARGET} ({self.players[mv - M.MV_TARGET].hero.name})"
        if M.MV_SPEND <= mv < M.MV_PICK and st != M.ST_DIE:
            t, e = self.entries[(mv - M.MV_SPEND) // 16]
            n, tk = (mv - M.MV_SPEND) % 16, self.c.tokens[t]
            # "spends Protect"; the moment where the token has several entries (Chi); the CP paid
            return (f"spends {tk.name}" if n == 1 else f"spends {n} {tk.name}") \
                + (f" ({M.WINDOWS[e.when]})" if len(tk.spend) > 1 else "") + (f" for {e.cost_cp} CP" if e.cost_cp else "")
        if self.phase == M.PH_TOKEN and mv == MV_PASS:
            offered = {self.entries[(x - M.MV_SPEND) // 16][0] for x in self.moves if M.MV_SPEND <= x < M.MV_BUY}
            if len(offered) == 1:
                return f"keeps {self.c.tokens[offered.pop()].name}"
            moment = ("upkeep" if st == M.ST_W_UPKEEP else "roll_phase_start" if st == M.ST_W_ROLL_START
                      else M.WINDOWS[st - M.W_STEP0])
            return f"spends nothing ({moment})"
        if st in (M.ST_MAIN1, M.ST_MAIN2):
            if mv == MV_PASS:
                return "ends the main phase"
            if mv == MV_TITHE_DRAW:
                return f"Tithes: draws a card for {self.passive(self.cur).draw_cost} CP"
            if mv >= MV_SELL:
                return f"sells {card(mv - MV_SELL)}"
            return f"plays {card(mv - MV_PLAY)}"
        if st in (M.ST_ROLL, M.ST_PREWIN, M.ST_ATKWIN, M.ST_TWIN):
            if mv == MV_PASS:
                return "stops rolling" if st == M.ST_ROLL else "passes"
            if mv < MV_PLAY:
                keep = mv - MV_REROLL
                return "rerolls dice " + ",".join(str(i + 1) for i in range(M.N_DICE) if not (keep >> i) & 1)
            if mv < MV_SELL:
                return f"plays {card(mv - MV_PLAY)}"
            if mv == MV_TITHE_DRAW:
                return f"Tithes: draws a card for {self.passive(self.cur).draw_cost} CP"
            return f"Tithes: rerolls die {mv - MV_TITHE_REROLL + 1} for {self.passive(self.cur).reroll_cost} CP"
        if st == M.ST_ABILITY:
            if mv == MV_PASS:
                return "activates no ability"
            x = mv - MV_ABILITY
            ab = pl.hero.abilities[x // 16]
            return f"chooses {ab.name} ({ab.tiers[x % 16].text})"
        if st == M.ST_DEFROLL:
            return f"chooses {pl.hero.defences[mv - M.MV_DEFENCE].name}"
        if st == M.ST_BONUS:
            if mv == MV_PASS:
                return "keeps the bonus dice"
            return "rerolls bonus dice " + ",".join(str(i + 1) for i in range(M.N_DICE) if ((mv - MV_DIE) >> i) & 1)
        if st == M.ST_DIE and self.pend_op == M.OP_BUY:
            k = mv - M.MV_BUY if mv != MV_PASS else 0
            return f"buys {k} {self.c.tokens[self.pend_arg].name} for {k * self.pend_n} CP"
        if st == M.ST_DIE:
            x = mv - MV_DIE
            if self.pend_op in (OP_SET_DIE, OP_COPY_DIE):
                return f"sets die {x // 8 + 1} to {x % 8}"
            if self.pend_op == OP_MOVE_DIE:
                return f"moves die {x // 8 + 1} {'up' if x % 8 else 'down'}"
            return "rerolls dice " + ",".join(str(i + 1) for i in range(M.N_DICE) if (x >> i) & 1)
        if st == M.ST_DISCARD:
            return f"discards {card(mv - MV_SELL)} for CP"
        if st == M.ST_POSTWIN:
            return "passes (after the damage)" if mv == MV_PASS else f"plays {card(mv - MV_PLAY)}"
        if st == M.ST_PAYDISC:
            return f"discards {card(mv - MV_SELL)} (a card's cost)"
        return str(mv)

    def c_tier_kind(self, a):
        pl = self.players[a]
        ab = pl.hero.abilities[self.ability]
        return M.attack_kind(ab.tiers[self.tier], ab.ultimate)

    def used_symbols(self, pl):
        """Bit s: the activated tier needs symbol s (a symbol target names it; a straight
        or of-a-kind: the attack dice show it)."""
        hero = pl.hero
        m = 0
        for alt in hero.abilities[self.ability].tiers[self.tier].target.alternatives:
            if alt.kind == 0:
                for sym, n in alt.counts:
                    if n > 0:
                        m |= 1 << hero.symbols.index(sym)
            else:
                for f in self.adice:
                    m |= 1 << hero.face_sym[f]
        return m

    def tithe_draw(self, p):
        self.players[p].cp -= self.passive(p).draw_cost
        self.draw(p)

    def tithe_reroll(self, p, i):
        pl = self.players[p]
        pl.cp -= self.passive(p).reroll_cost
        dice, _, _ = self.current_dice()
        dice[i] = self.below(6)

    # ------------------------------------------------------------ vectors and records
    def vector(self) -> np.ndarray:
        S = np.zeros(M.s_len(self.nseats), np.int64)
        S[M.O_CUR], S[M.O_TURN], S[M.O_ACTIVE], S[M.O_FIRST] = self.cur, self.turn, self.active, self.first
        S[M.O_STEP], S[M.O_PHASE], S[M.O_WINNER], S[M.O_CAPPED] = self.step, self.phase, self.winner, self.capped
        S[M.O_OVER], S[M.O_ATTEMPTS], S[M.O_MAX_ATT], S[M.O_ROLL_WHO] = self.over, self.attempts, self.max_attempts, self.roll_who
        S[M.O_WIN_PRIO], S[M.O_WIN_PASSES], S[M.O_AB], S[M.O_TIER] = self.prio, self.passes, self.ability, self.tier
        S[M.O_ATK_KIND], S[M.O_DEFENDED], S[M.O_POOL], S[M.O_POOL_CARD] = self.kind, self.defended, self.pool, self.pool_card
        S[M.O_POOL_TOKEN], S[M.O_COLLAT], S[M.O_SPENT], S[M.O_PEND_OP] = self.pool_token, self.collateral, self.spent, self.pend_op
        S[M.O_PEND_N], S[M.O_PEND_ARG], S[M.O_RET_STEP], S[M.O_TAKEN] = self.pend_n, self.pend_arg, self.ret_step, self.taken
        S[M.O_PROTECTED], S[M.O_DDN], S[M.O_INCOME_SKIP], S[M.O_STUNNED_ATK] = self.protected, self.def_n, self.income_skipped, self.extra_phases
        S[M.O_ADICE:M.O_ADICE + M.N_DICE] = self.adice
        S[M.O_DDICE:M.O_DDICE + M.N_DICE] = self.ddice
        S[M.O_DEF] = self.def_pick
        S[M.O_USED] = self.used
        S[M.O_BONUS_N] = self.bonus_n
        S[M.O_BDICE:M.O_BDICE + M.N_DICE] = self.bdice
        S[M.O_NODEF], S[M.O_AVOID], S[M.O_WIN_USED] = self.nodef, self.avoid, self.win_used
        S[M.O_PREDEF], S[M.O_BONUS_SRC], S[M.O_BONUS_ROW] = self.predef_done, self.bonus_src, self.bonus_row
        S[M.O_PIPS], S[M.O_DISC_N], S[M.O_DISC_CARD] = self.pips, self.disc_n, self.disc_card
        S[M.O_CHOOSE_N] = len(self.choices)
        S[M.O_CHOOSE:M.O_CHOOSE + len(self.choices)] = [e.row for e in self.choices]
        S[M.O_CHOOSE_WHO], S[M.O_CHOOSE_CTX] = self.choose_who, self.choose_ctx
        S[M.O_NSEATS], S[M.O_TARGET], S[M.O_ALIVE] = self.nseats, self.target, self.alive
        S[M.O_TDIE], S[M.O_EVTOK], S[M.O_TTAB] = self.tdice[0], self.evtok, M.R[self.ttab]
        S[M.O_SEEHANDS] = int(self.rules["team_sees_hands"])
        S[M.O_CVIC], S[M.O_HALF], S[M.O_PICKED] = self.cvic, self.half, self.picked
        S[M.O_ORDER:M.O_ORDER + self.nseats] = self.order
        for p, pl in enumerate(self.players):
            b = M.seat_base(p)
            S[b + M.P_HERO], S[b + M.P_HP], S[b + M.P_CP], S[b + M.P_PREVENT] = pl.hero_index, pl.hp, pl.cp, pl.prevent
            S[b + M.P_HAND_N], S[b + M.P_DECK_N], S[b + M.P_DISC_N] = len(pl.hand), len(pl.deck), len(pl.discard)
            S[b + M.P_CARDS], S[b + M.P_SPENDS], S[b + M.P_SOLD], S[b + M.P_ATTACKS] = pl.cards_played, pl.spends, pl.sold, pl.attacks
            S[b + M.P_TOK:b + M.P_TOK + M.MAX_TOKENS] = pl.tokens
            S[b + M.P_LIM:b + M.P_LIM + M.MAX_TOKENS] = pl.limits
            S[b + M.P_LVL:b + M.P_LVL + M.N_LVL] = pl.levels
            S[b + M.P_DMG:b + M.P_DMG + 4] = pl.damage
            S[b + M.P_USES:b + M.P_USES + M.MAX_AB] = pl.uses
            S[b + M.P_TUSE:b + M.P_TUSE + M.MAX_TOKENS] = pl.token_uses
            S[b + M.P_CUSE:b + M.P_CUSE + M.MAX_CARDS] = pl.card_plays
            S[b + M.P_HELD], S[b + M.P_SKIP], S[b + M.P_ONCE] = pl.held, pl.skip, pl.once
            S[b + M.P_TNEW:b + M.P_TNEW + M.MAX_TOKENS] = pl.tnew
            S[b + M.P_BLOCK] = pl.block
            S[b + M.P_TEAM] = pl.team
            S[b + M.P_TSRC:b + M.P_TSRC + M.MAX_TOKENS] = pl.tsrc
            S[b + M.P_PLACE], S[b + M.P_OUT] = pl.place, pl.out
            for off, pile in ((M.P_HAND, pl.hand), (M.P_DECK, pl.deck), (M.P_DISC, pl.discard)):
                cap = M.MAX_HAND if off == M.P_HAND else M.MAX_DECK
                S[b + off:b + off + cap] = NONE
                S[b + off:b + off + len(pile)] = pile
        return S

    def load_vector(self, S) -> None:
        """Take over every field of a state vector (scenario tests build positions this way)."""
        S = [int(x) for x in S]
        (self.cur, self.turn, self.active, self.first, self.step, self.phase, self.winner, self.capped,
         self.over, self.attempts, self.max_attempts, self.roll_who, self.prio, self.passes, self.ability,
         self.tier, self.kind, self.defended, self.pool, self.pool_card, self.pool_token, self.collateral,
         self.spent, self.pend_op, self.pend_n, self.pend_arg, self.ret_step, self.taken, self.protected,
         self.def_n, self.income_skipped, self.extra_phases) = S[:M.O_ADICE]
        self.adice = S[M.O_ADICE:M.O_ADICE + M.N_DICE]
        self.ddice = S[M.O_DDICE:M.O_DDICE + M.N_DICE]
        self.def_pick = S[M.O_DEF]
        self.used = S[M.O_USED]
        self.bonus_n = S[M.O_BONUS_N]
        self.bdice = S[M.O_BDICE:M.O_BDICE + M.N_DICE]
        self.nodef, self.avoid, self.win_used = S[M.O_NODEF], S[M.O_AVOID], S[M.O_WIN_USED]
        self.predef_done, self.bonus_src, self.bonus_row = S[M.O_PREDEF], S[M.O_BONUS_SRC], S[M.O_BONUS_ROW]
        self.pips, self.disc_n, self.disc_card = int(S[M.O_PIPS]), int(S[M.O_DISC_N]), int(S[M.O_DISC_CARD])
        self.choices = [self.c.choose_rows[r] if r in self.c.choose_rows else self.c.chosen_rows[r]
                        for r in S[M.O_CHOOSE:M.O_CHOOSE + S[M.O_CHOOSE_N]]]
        self.choose_who, self.choose_ctx = S[M.O_CHOOSE_WHO], S[M.O_CHOOSE_CTX]
        self.nseats, self.target, self.alive = S[M.O_NSEATS], S[M.O_TARGET], S[M.O_ALIVE]
        self.tdice = [S[M.O_TDIE]]
        self.evtok = S[M.O_EVTOK]
        self.cvic, self.half, self.picked = S[M.O_CVIC], S[M.O_HALF], S[M.O_PICKED]
        self.ttab = next((k for k in M.FACE_KEYS if M.R[k] == S[M.O_TTAB]), "target_faces_2")
        self.order = S[M.O_ORDER:M.O_ORDER + self.nseats]
        order = list(self.c.heroes)
        for p, pl in enumerate(self.players):
            b = M.seat_base(p)
            pl.hero_index = S[b + M.P_HERO]
            pl.hero = self.c.heroes[order[pl.hero_index]]
            pl.hp, pl.cp, pl.prevent = S[b + M.P_HP], S[b + M.P_CP], S[b + M.P_PREVENT]
            pl.cards_played, pl.spends, pl.sold, pl.attacks = (S[b + M.P_CARDS], S[b + M.P_SPENDS],
                                                               S[b + M.P_SOLD], S[b + M.P_ATTACKS])
            pl.tokens = S[b + M.P_TOK:b + M.P_TOK + M.MAX_TOKENS]
            pl.limits = S[b + M.P_LIM:b + M.P_LIM + M.MAX_TOKENS]
            pl.levels = S[b + M.P_LVL:b + M.P_LVL + M.N_LVL]
            pl.damage = S[b + M.P_DMG:b + M.P_DMG + 4]
            pl.uses = S[b + M.P_USES:b + M.P_USES + M.MAX_AB]
            pl.token_uses = S[b + M.P_TUSE:b + M.P_TUSE + M.MAX_TOKENS]
            pl.card_plays = S[b + M.P_CUSE:b + M.P_CUSE + M.MAX_CARDS]
            pl.held, pl.skip, pl.once = S[b + M.P_HELD], S[b + M.P_SKIP], S[b + M.P_ONCE]
            pl.tnew = S[b + M.P_TNEW:b + M.P_TNEW + M.MAX_TOKENS]
            pl.block = S[b + M.P_BLOCK]
            pl.team = S[b + M.P_TEAM]
            pl.tsrc = S[b + M.P_TSRC:b + M.P_TSRC + M.MAX_TOKENS]
            pl.place, pl.out = S[b + M.P_PLACE], S[b + M.P_OUT]
            pl.hand = S[b + M.P_HAND:b + M.P_HAND + S[b + M.P_HAND_N]]
            pl.deck = S[b + M.P_DECK:b + M.P_DECK + S[b + M.P_DECK_N]]
            pl.discard = S[b + M.P_DISC:b + M.P_DISC + S[b + M.P_DISC_N]]

    def observation(self) -> np.ndarray:
        """What the seat to act may see: the other hand and both decks are hidden (NONE)."""
        S = self.vector()
        mask_hidden(S, self.cur)
        return S

    def record(self) -> dict:
        rec = {"winner": self.winner, "capped": self.capped, "turns": self.turn, "first": self.first}
        for p, pl in enumerate(self.players):
            rec[f"team{p}"] = pl.team
            rec[f"place{p}"] = pl.place if pl.place > 0 else 1     # never out: 1st (the winners, a capped game's survivors)
            rec[f"out{p}"] = pl.out - 1
            rec[f"hero{p}"] = pl.hero_index
            rec[f"hp{p}"] = pl.hp
            for s, name in enumerate(M.SOURCES):
                rec[f"dmg_{name}{p}"] = pl.damage[s]
            rec[f"attacks{p}"], rec[f"cards{p}"] = pl.attacks, pl.cards_played
            rec[f"spends{p}"], rec[f"sold{p}"] = pl.spends, pl.sold
            for a in range(M.MAX_AB):
                rec[f"uses{a}_{p}"] = pl.uses[a]
            for t in range(M.MAX_TOKENS):
                rec[f"tok{t}_{p}"] = pl.token_uses[t]
            for c in range(M.MAX_CARDS):
                rec[f"card{c}_{p}"] = pl.card_plays[c]
        return rec


def mask_hidden(S, seat):
    """Every deck and every other seat's hand hidden (NONE), but a teammate's hand shown under
    ``team_sees_hands`` (``O_SEEHANDS``; ``kernel.sees_hand_nb``)."""
    team = S[M.seat_base(seat) + M.P_TEAM]
    for p in range(int(S[M.O_NSEATS])):
        b = M.seat_base(p)
        S[b + M.P_DECK:b + M.P_DECK + M.MAX_DECK] = NONE
        if p != seat and not (S[M.O_SEEHANDS] and S[b + M.P_TEAM] == team):
            S[b + M.P_HAND:b + M.P_HAND + M.MAX_HAND] = NONE


def play_game(content, rules, heroes, seed, index, deciders, data=None, rules_vec=None, log=False,
              setup=None, trace=False):
    """Play one game. ``deciders[seat](phase, obs, moves, n, rules_vec, data[seat], rng) -> index``
    (the same numba functions the kernel calls; ``data`` one row per seat, or one row for both). ``setup(game)`` may force decks/dice
    before the first step (scenario tests). ``trace``: ``game.trace`` gets the health of both
    seats whenever a decision ended a turn, and at the end (the shared driver's lead trace,
    at most max_turns + 2 rows). Returns the ``Game``."""
    if rules_vec is None:
        rules_vec = M.rules_vector(rules)
    if data is None:
        data = np.zeros((len(heroes), 1))
    data = np.asarray(data, np.float64)
    if data.ndim == 1:
        data = np.stack([data] * len(heroes))
    g = Game(content, rules, heroes, seed, index, log)
    if setup is not None:
        setup(g)
    mv = g.start()
    buf = np.zeros(M.MAX_MOVES, np.int64)
    g.trace = []
    cap = rules["max_turns"] + 2
    last_turn = g.turn
    while not g.over:
        n = len(mv)
        buf[:n] = mv
        k = int(deciders[g.cur](g.phase, g.observation(), buf, n, rules_vec, data[g.cur], g.srng))
        if not 0 <= k < n:
            raise ValueError(f"strategy answered {k} for {n} moves")
        if g.log is not None:
            g.log.append(f"  p{g.cur} {g.move_text(mv[k])}  [{M.PHASE_NAMES[g.phase]}: move {mv[k]}, "
                         f"{n} legal]")
        g.apply(mv[k])
        mv = g.advance()
        if trace and g.turn != last_turn:
            last_turn = g.turn
            if len(g.trace) < cap:
                g.trace.append([g.players[0].hp, g.players[1].hp])
    if trace and len(g.trace) < cap:
        g.trace.append([g.players[0].hp, g.players[1].hp])
    return g
