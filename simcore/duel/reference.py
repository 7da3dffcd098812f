"""Reference engine for the dice duel: plain Python, written to be read next to
``../shared/rules/dice-duel.md``. It plays the same game as ``kernel.py`` from the same
random stream (``simcore.rng``, stream ``(seed, game index, DOMAIN)``), and the tests
require identical game records from both.

Random draws, in order: the lot for the first player (if ``first_player = "lot"``),
then each die rolled (die by die, lowest index first), each defence die, and whatever
the strategies draw from the same stream.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import rng
from .model import DEFENCE_EFFECTS, MAX_ABILITIES, MAX_DICE, DuelSetup
from .state import DOMAIN, STRATEGY_DOMAIN, record_fields, S_CP, S_CUR, S_DAZED, S_FIRST, S_HERO, S_HP, S_SHIELD, S_SIZE, S_TURN, S_WOUNDS


@dataclass
class Player:
    hero: object
    hero_index: int
    hp: int
    cp: int
    wounds: int = 0
    dazed: bool = False
    shield: int = 0
    abilities_used: list = None
    bought_rolls: int = 0


class DuelGame:
    """One game between ``setup.heroes[a]`` (seat 0) and ``setup.heroes[b]`` (seat 1)."""

    def __init__(self, setup: DuelSetup, a: int, b: int, strategy, data, seed: int, index: int,
                 log: bool = False, trace: bool = False):
        """``strategy``/``data``: one for both seats, or a pair (seat 0, seat 1)."""
        self.setup = setup
        self.rules = setup.rules
        pair = isinstance(strategy, (list, tuple))
        self.strategies = list(strategy) if pair else [strategy, strategy]
        self.datas = list(data) if pair else [data, data]
        self.stream = rng.new_state(seed, index, DOMAIN)              # dice and the lot
        self.strategy_stream = rng.new_state(seed, index, STRATEGY_DOMAIN)  # strategies' draws
        self.players = [
            Player(setup.heroes[h], h, self.rules["start_hp"], self.rules["start_cp"],
                   abilities_used=[0] * MAX_ABILITIES)
            for h in (a, b)
        ]
        self.turn = 0
        self.winner = None  # 0, 1, or -1 for a draw
        self.timeout = False
        self.illegal = -1   # the seat whose strategy chose an illegal ability
        # HP of both heroes after every turn (lead statistics), when asked
        self.hp_trace: list | None = [] if trace else None
        # play-by-play, one line per event (replays, golden playthroughs); off in bulk runs
        self.log: list[str] | None = [] if log else None

    # ----------------------------------------------------------------- helpers
    def say(self, line) -> None:
        """Log ``line()`` (a callable, so nothing is formatted when logging is off)."""
        if self.log is not None:
            self.log.append(line())

    def name(self, seat: int) -> str:
        return f"{self.players[seat].hero.name} (seat {seat})"

    def dice_text(self, hero, faces) -> str:
        return " ".join(str(hero.die.faces[f]) for f in faces)

    def status(self) -> str:
        return " | ".join(f"{p.hero.name}: {p.hp} HP {p.cp} CP"
                          + (f" {p.wounds}w" if p.wounds else "") + (" dazed" if p.dazed else "")
                          + (" shield" if p.shield else "") for p in self.players)

    def roll_die(self) -> int:
        """A face index 0..5 of a six-sided die, from the game's stream."""
        return rng.below_py(self.stream, 6)

    def state_vector(self) -> np.ndarray:
        """The public state as the strategies see it (``simcore.duel.state``)."""
        st = np.zeros(S_SIZE, np.int64)
        for seat, p in enumerate(self.players):
            st[S_HP + seat] = p.hp
            st[S_CP + seat] = p.cp
            st[S_WOUNDS + seat] = p.wounds
            st[S_DAZED + seat] = int(p.dazed)
            st[S_SHIELD + seat] = p.shield
            st[S_HERO + seat] = p.hero_index
        st[S_TURN] = self.turn
        st[S_FIRST] = self.first
        st[S_CUR] = self.current
        return st

    def gain_cp(self, p: Player, amount: int) -> None:
        p.cp = min(self.rules["cp_cap"], p.cp + amount)

    def take_damage(self, p: Player, amount: int) -> int:
        """Damage actually taken after p's shield token (reduces it by shield_absorbs, then
        is spent). Returns the damage to subtract from HP."""
        if amount > 0 and p.shield > 0:
            amount = max(0, amount - self.rules["shield_absorbs"])
            p.shield -= 1
        return amount

    def satisfied_tier(self, hero, ability, faces) -> int:
        """The best tier of ``ability`` these dice satisfy, or -1."""
        best = -1
        dice = [hero.die.faces[f] for f in faces]
        for k, tier in enumerate(ability.tiers):
            if tier.target.met(dice):
                best = k
        return best

    # -------------------------------------------------------------------- game
    def play(self) -> "DuelGame":
        r = self.rules
        # Seat order: the first player is drawn by lot (or seat 0 if the option says so).
        self.first = rng.below_py(self.stream, 2) if r["first_player"] == "lot" else 0
        self.current = self.first
        self.say(lambda: f"first player: {self.name(self.first)}")
        while self.winner is None:
            if self.turn >= r["turn_cap"]:
                # Decision: the turn cap ends the game as a draw.
                self.winner, self.timeout = -1, True
                break
            self.turn += 1
            self.say(lambda: f"turn {self.turn}: {self.name(self.current)}")
            self.play_turn(self.current)
            if self.hp_trace is not None:
                self.hp_trace.append([p.hp for p in self.players])
            self.say(lambda: f"  {self.status()}")
            self.current = 1 - self.current
        self.say(lambda: "result: " + ("draw (turn cap)" if self.timeout else "draw" if self.winner == -1
                               else f"{self.name(self.winner)} wins"))
        return self

    def play_turn(self, seat: int) -> None:
        r = self.rules
        me, opp = self.players[seat], self.players[1 - seat]
        # 1-2. Wounds, then income (skipped only if the option says a dazed player
        #      skips them; by default a dazed player still suffers wounds and gains CP).
        if not (me.dazed and r["dazed_skips_upkeep"]):
            if me.wounds > 0:
                loss = me.wounds
                if r["shield_vs_wounds"]:
                    loss = self.take_damage(me, loss)
                me.hp -= loss
                self.say(lambda: f"  wounds: -{loss} HP")
                if me.hp <= 0:  # wounds can kill: the game ends at once
                    self.winner = 1 - seat
                    return
            if self.turn > 1 or r["first_turn_income"]:
                self.gain_cp(me, r["income"])
        # 3. Daze: remove it; the rest of the turn is lost.
        if me.dazed:
            me.dazed = False
            self.say(lambda: "  dazed: the turn is lost")
            return
        # 4. Offensive roll.
        faces = self.offensive_roll(seat)
        if faces is None:   # a keep mask outside 0..2**n-1: the strategy's error, stop here
            self.illegal, self.winner = seat, -1
            return
        # 5. Attack: one ability the dice satisfy, or none.
        hero = me.hero
        legal = np.full(MAX_ABILITIES, -1, np.int64)
        for i, ability in enumerate(hero.abilities):
            legal[i] = self.satisfied_tier(hero, ability, faces)
        choice = int(self.strategies[seat].choose(self.faces_array(faces), r["dice"], legal, seat,
                                                  self.state_vector(), self.setup.tables,
                                                  self.setup.rules_vec, self.datas[seat], self.strategy_stream))
        if choice == -1:
            self.say(lambda: "  no attack")
            return
        if not (0 <= choice < len(hero.abilities)) or legal[choice] < 0:
            # an illegal answer is the strategy's error, never "no attack": stop here
            self.say(lambda: f"  illegal ability choice {choice}")
            self.illegal, self.winner = seat, -1
            return
        ab = hero.abilities[choice]
        self.say(lambda: f"  attack: {ab.name}" + (f" tier {legal[choice] + 1}" if ab.tiered else ""))
        me.abilities_used[choice] += 1
        self.resolve(seat, hero.abilities[choice], int(legal[choice]))

    @staticmethod
    def faces_array(faces) -> np.ndarray:
        a = np.zeros(MAX_DICE, np.int64)
        a[: len(faces)] = faces
        return a

    def offensive_roll(self, seat: int) -> list:
        r = self.rules
        me = self.players[seat]
        n = r["dice"]
        all_kept = (1 << n) - 1
        faces = [self.roll_die() for _ in range(n)]  # roll all five dice
        self.say(lambda: f"  roll 1: {self.dice_text(me.hero, faces)}")
        rolls_done, bought = 1, 0
        while True:
            free_left = max(0, r["rolls"] - rolls_done)
            keep = int(self.strategies[seat].keep(self.faces_array(faces), n, rolls_done, free_left, seat,
                                                  self.state_vector(), self.setup.tables,
                                                  self.setup.rules_vec, self.datas[seat], self.strategy_stream))
            if not 0 <= keep <= all_kept:
                self.say(lambda: f"  illegal keep mask {keep}")
                return None
            if keep == all_kept:
                break  # stop rolling
            if free_left == 0:
                # After the free rolls, another roll costs roll_cost CP, as often as you can pay.
                if me.cp < r["roll_cost"] or bought >= r["max_bought_rolls"]:
                    break
                me.cp -= r["roll_cost"]
                bought += 1
                me.bought_rolls += 1
            for i in range(n):
                if not (keep >> i) & 1:
                    faces[i] = self.roll_die()
            rolls_done += 1
            self.say(lambda: f"  roll {rolls_done}{' (bought)' if free_left == 0 else ''}, kept dice "
                     f"{[i + 1 for i in range(n) if (keep >> i) & 1]}: {self.dice_text(me.hero, faces)}")
        return faces

    def resolve(self, seat: int, ability, tier: int) -> None:
        r = self.rules
        me, opp = self.players[seat], self.players[1 - seat]
        e = ability.tiers[tier].effects
        damage = e["damage"]
        prevented = strike = def_heal = def_cp = 0
        # 6. Defence: only for damage that is not undefendable; the defender rolls their
        #    defence dice once and all symbols act together.
        if damage > 0 and not ability.undefendable:
            rolled = [self.roll_die() for _ in range(opp.hero.defence_dice)]
            self.say(lambda: f"  defence: {self.dice_text(opp.hero, rolled)}")
            for f in rolled:
                sym = opp.hero.die.faces[f].symbol
                fx = opp.hero.defence.get(sym, dict.fromkeys(DEFENCE_EFFECTS, 0))
                prevented += fx["shield"] * r["defence_shield"]   # each shield prevents 3
                strike += fx["strike"]                            # 1 damage back each
                def_heal += fx["heal"]                            # defender heals 1 each
                def_cp += fx["cp"]                                # defender gains 1 CP each
        taken = self.take_damage(opp, max(0, damage - prevented))
        struck = self.take_damage(me, strike) if r["shield_vs_strike_back"] else strike
        # The defence symbols act together with the damage they answer (the defender's
        # hearts net against it); health never rises above the cap.
        opp.hp = min(r["hp_cap"], opp.hp - taken + def_heal)
        me.hp -= struck
        self.gain_cp(opp, def_cp)
        # The game ends the moment a hero is at 0 HP or less: both at once is a draw.
        if self.check_end(seat):
            return
        # 7. The attack's other effects always happen.
        me.hp = min(r["hp_cap"], me.hp + e["heal"])
        self.gain_cp(me, e["cp"])
        stolen = min(e["steal"], opp.cp)   # steal never takes more than the opponent has
        opp.cp -= stolen
        self.gain_cp(me, stolen)
        opp.wounds = min(r["wound_cap"], opp.wounds + e["wounds"])
        if e["daze"]:
            opp.dazed = True
        if e["shield"]:  # gained after this attack's strike-back
            me.shield = min(r["max_shield_tokens"], me.shield + 1)

    def check_end(self, seat: int) -> bool:
        """After an attack by ``seat``: a hero at 0 HP or less loses; both: a draw."""
        me, opp = self.players[seat], self.players[1 - seat]
        if me.hp <= 0 and opp.hp <= 0:
            self.winner = -1
        elif opp.hp <= 0:
            self.winner = seat
        elif me.hp <= 0:
            self.winner = 1 - seat
        return self.winner is not None

    def record(self) -> dict:
        p = self.players
        return {
            "winner": self.winner, "first": self.first, "turns": self.turn,
            "hp": [p[0].hp, p[1].hp], "cp": [p[0].cp, p[1].cp], "timeout": self.timeout,
            "abilities": [p[0].abilities_used, p[1].abilities_used],
            "bought": [p[0].bought_rolls, p[1].bought_rolls],
            "illegal": self.illegal,
        }


def play_games(setup: DuelSetup, a: int, b: int, strategy, seed: int, start: int, stop: int, data=None,
               trace: bool = False) -> dict:
    """Play games ``start..stop-1`` with the reference engine; records as in the kernel.
    ``strategy``/``data``: one for both seats or a pair; ``trace`` adds the lead statistics."""
    from ..leads import lead_stats

    pair = isinstance(strategy, (list, tuple))
    if data is None:
        data = [s.make_data(setup) for s in strategy] if pair else strategy.make_data(setup)
    games = [DuelGame(setup, a, b, strategy, data, seed, i, trace=trace).play() for i in range(start, stop)]
    recs = [g.record() for g in games]
    out = {k: np.array([x[k] for x in recs], dt).reshape(-1, *shape)
           for k, (dt, shape) in record_fields(MAX_ABILITIES).items()}
    if trace:
        out["leads"] = np.array([lead_stats(g.hp_trace, g.winner if g.illegal < 0 else -1) for g in games],
                                np.float64).reshape(-1, 3)
    return out
