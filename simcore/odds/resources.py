"""Exact roll-phase odds when the roller also holds die-changing resources (cards, passives).

The roll-phase solver (``solver.py``) answers "best probability of reaching a target in R
rolls". Here the roller also holds *actions* that change dice, each usable once, at any
moment of the roll phase (between two rolls or after the last one), in any order:

- ``set``    set ``n`` dice to a face (``face`` = face number; 0 = any face of the die);
- ``move``   move ``n`` dice by one face number up or down (1..6, no wrap);
- ``copy``   set ``n`` dice, one after another, to a face another die of the hand shows;
- ``reroll`` reroll up to ``n`` dice at once (not a roll attempt: the attempts left stay);
  with ``times = t`` > 1, ``t`` such rerolls in a row, each seen before the next is chosen
  (the same die may be rerolled again), and the roller may stop after any of them;
- ``extra``  ``n`` more roll attempts.

An action may cost CP (``cost``); with a ``budget`` the actions used together never cost
more than it (cards and the Paladin's Tithes rerolls paid from one purse). Without a
budget nothing is charged: the figure is an upper bound on what the actions can do.

The DP carries the unused actions as part of the state (a count per distinct action; the
CP left follows from them)::

    V(r, c)[h] = max( met(h),                                         stop here
                      max_{k sub h} W(r-1, c)[k]          if r >= 1   roll again keeping k
                      for each action j with c_j > 0 that the CP left pays, c' = c - e_j:
                        set/move/copy: max over hands h' it can make  V(r, c')[h']
                        reroll:   max_{k sub h, |h|-|k| <= n}   W^t(r, c')[k]
                        extra:    V(r + n, c')[h] )
    W(r, c)[k] = sum over outcomes o of the dice not kept  P(o) * V(r, c)[k + o]
    W^1 = W;  W^t = the expectation of max(V(r, c'), max_{k' sub h, |h|-|k'| <= n} W^(t-1)[k'])
    P(R rolls, c) = W(R - 1, c)[empty keep]

so a resource is used exactly when it helps most ("at the best moment"), including
after the last roll. With no actions it is the recursion of ``solver.solve_exact``
(held equal by the tests). ``exact=True`` computes exactly: every value is an integer
numerator over a power of 6 (the only denominators a fair die makes), carried as
``(numerators, exponent)`` so sums and comparisons stay in integers; ``probability``
returns a ``Fraction``. ``exact=False`` runs the same recursion in floats.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..errors import PlaytestError
from .space import DiceSpace

ACTION_KINDS = ("set", "move", "copy", "reroll", "extra")


@dataclass(frozen=True)
class DieAction:
    """One use of a die-changing resource (see the module doc)."""
    kind: str
    n: int = 1
    face: int = 0          # set: face number to set (0: any face)
    label: str = ""
    cost: int = 0          # CP it costs (charged only when the solver has a budget)
    times: int = 1         # reroll: this many rerolls of up to n dice in a row

    def __post_init__(self):
        if self.kind not in ACTION_KINDS:
            raise PlaytestError(f"must be one of {', '.join(ACTION_KINDS)}, got {self.kind!r}", field="action")
        if self.n < 1:
            raise PlaytestError(f"must be >= 1, got {self.n}", field="action.n")
        if self.cost < 0:
            raise PlaytestError(f"must be >= 0, got {self.cost}", field="action.cost")
        if self.times < 1 or (self.times > 1 and self.kind != "reroll"):
            raise PlaytestError(f"must be 1 (or more for a reroll), got {self.times}", field="action.times")

    def describe(self) -> str:
        dice = "die" if self.n == 1 else "dice"
        if self.kind == "set":
            what = "any face" if self.face == 0 else f"{self.face}"
            return f"set {self.n} {dice} to {what}"
        if self.kind == "move":
            return f"move {self.n} {dice} by one"
        if self.kind == "copy":
            return f"set {self.n} {dice} to a face another die shows"
        if self.kind == "reroll":
            if self.times > 1:
                return f"reroll up to {self.n} {dice}, {self.times} times in a row (the same die again allowed)"
            return f"reroll up to {self.n} {dice}"
        return f"{self.n} extra roll attempt{'s' if self.n > 1 else ''}"


class ResourceSolver:
    """The DP of the module doc for one target on one space and one multiset of actions;
    ``budget``: the CP the actions may cost together (None: not charged)."""

    def __init__(self, space: DiceSpace, met, actions=(), exact: bool = True, budget: int | None = None):
        self.space = space
        self.exact = exact
        self.met = [int(bool(m)) for m in met] if exact else [float(bool(m)) for m in met]
        kinds: list[DieAction] = []
        counts: list[int] = []
        for a in actions:
            if a in kinds:
                counts[kinds.index(a)] += 1
            else:
                kinds.append(a)
                counts.append(1)
        if budget is not None and budget < 0:
            raise PlaytestError(f"must be >= 0, got {budget}", field="--cp")
        self.budget = budget
        self.actions = kinds
        self.full = tuple(counts)
        n = space.n_dice
        self.trans = [(idx.tolist(), [int(w) for w in wts], 6 ** (n - int(space.keep_size[k])))
                      for k, (idx, wts) in enumerate(space.trans)]
        # exact: W over the common denominator 6 ** n (a keep of k dice rolls n - k)
        self.lift = [6 ** int(space.keep_size[k]) for k in range(len(self.trans))]
        self.subs = [[int(k) for k in row if k >= 0] for row in space.sub]
        self.keep_size = [int(x) for x in space.keep_size]
        self.hand_size = n
        self.reach = [self._reach(a) for a in kinds]
        self._V: dict = {}
        self._W: dict = {}
        self._S: dict = {}

    # ------------------------------------------------------------ action moves
    def _one_die_moves(self, h: int, kind: str, face: int) -> set:
        """Hands made from hand ``h`` by changing one die (``set`` to ``face``/any, ``move``
        by one, or ``copy`` to a face another die of the hand shows)."""
        sp = self.space
        counts = tuple(int(c) for c in sp.hands[h])
        out = set()
        for s, c in enumerate(counts):
            if c == 0:
                continue
            g = sp.slot_group[s]
            num = sp.slot_face[s].number
            for s2 in sp.group_slots[g]:
                n2 = sp.slot_face[s2].number
                if kind == "set":
                    ok = face == 0 or n2 == face
                elif kind == "copy":
                    ok = s2 != s and counts[s2] > 0
                else:
                    ok = abs(n2 - num) == 1
                if ok:
                    new = list(counts)
                    new[s] -= 1
                    new[s2] += 1
                    out.add(sp.hand_index[tuple(new)])
        return out

    def _reach(self, a: DieAction):
        """Per hand: the hands the action can make (set/move/copy), the keeps it may
        reroll from (reroll), or None (extra)."""
        sp = self.space
        if a.kind in ("set", "move", "copy"):
            if a.kind == "copy" and sp.collapse:
                raise PlaytestError("a copy needs a space of die faces (collapse=False)", field="action")
            single = [self._one_die_moves(h, a.kind, a.face) for h in range(sp.n_hands)]
            if a.kind == "set" and a.face != 0 and not any(single):
                raise PlaytestError(f"no die shows the face number {a.face}", field="action.face")
            cur = [{h} for h in range(sp.n_hands)]
            for _ in range(a.n):
                cur = [set().union(*(single[x] for x in hs)) or hs for hs in cur]
            return [sorted(s) for s in cur]
        if a.kind == "reroll":
            return [[k for k in self.subs[h] if self.hand_size - self.keep_size[k] <= a.n] for h in range(sp.n_hands)]
        return None

    # ------------------------------------------------------------ vectors
    # A vector is (values, e): exact, integer numerators over 6 ** e; floats, e = 0.
    def _common(self, a, b):
        """``a`` and ``b`` over one denominator."""
        (x, ex), (y, ey) = a, b
        if ex == ey:
            return x, y, ex
        if ex < ey:
            f = 6 ** (ey - ex)
            return [v * f for v in x], y, ey
        f = 6 ** (ex - ey)
        return x, [v * f for v in y], ex

    def _expect(self, vec):
        """The W of a V vector: per keep, the expected value after rerolling the rest."""
        V, e = vec
        out = []
        if self.exact:
            for (idx, wts, _), lift in zip(self.trans, self.lift):
                s = 0
                for i, w in zip(idx, wts):
                    s += w * V[i]
                out.append(s * lift)
            return out, e + self.hand_size
        for idx, wts, den in self.trans:
            s = 0.0
            for i, w in zip(idx, wts):
                s += w * V[i]
            out.append(s / den)
        return out, 0

    def _best_of(self, best, rows, vec):
        """``best`` (a vector over hands) raised to ``max over rows[h] of vec`` per hand."""
        x, y, e = self._common(best, vec)
        out = list(x)
        for h, row in enumerate(rows):
            if row:
                m = max(y[k] for k in row)
                if m > out[h]:
                    out[h] = m
        return out, e

    # ------------------------------------------------------------ the recursion
    def W(self, r: int, c: tuple, b=None) -> tuple:
        key = (r, c, b)
        if key not in self._W:
            self._W[key] = self._expect(self.V(r, c, b))
        return self._W[key]

    def _seq(self, r: int, c: tuple, b, j: int, t: int) -> tuple:
        """W^t of the module doc: ``t`` rerolls of action ``j`` in a row still to come."""
        if t == 1:
            return self.W(r, c, b)
        key = (r, c, b, j, t)
        if key not in self._S:
            u = self._best_of(self.V(r, c, b), self.reach[j], self._seq(r, c, b, j, t - 1))
            self._S[key] = self._expect(u)
        return self._S[key]

    def V(self, r: int, c: tuple, b=None) -> tuple:
        key = (r, c, b)
        if key in self._V:
            return self._V[key]
        best = (list(self.met), 0)
        if r >= 1:
            best = self._best_of(best, self.subs, self.W(r - 1, c, b))
        for j, a in enumerate(self.actions):
            if c[j] == 0 or (b is not None and a.cost > b):
                continue
            c2 = c[:j] + (c[j] - 1,) + c[j + 1:]
            b2 = None if b is None else b - a.cost
            if a.kind in ("set", "move", "copy"):
                best = self._best_of(best, self.reach[j], self.V(r, c2, b2))
            elif a.kind == "reroll":
                best = self._best_of(best, self.reach[j], self._seq(r, c2, b2, j, a.times))
            else:
                x, y, e = self._common(best, self.V(r + a.n, c2, b2))
                best = ([max(p, q) for p, q in zip(x, y)], e)
        self._V[key] = best
        return best

    def probability(self, rolls: int, counts: tuple | None = None):
        """Best probability of reaching the target in ``rolls`` roll attempts holding the
        actions ``counts`` (default: all of them), paying from the budget."""
        if rolls < 1:
            raise PlaytestError(f"must be >= 1, got {rolls}", field="--rolls")
        c = self.full if counts is None else tuple(counts)
        vals, e = self.W(rolls - 1, c, self.budget)
        v = vals[self.space.empty_keep]
        return Fraction(v, 6 ** e) if self.exact else v


def best_probability(space: DiceSpace, target, rolls: int, actions=(), exact: bool = True, budget=None):
    """Shortcut: ``ResourceSolver(space, met(target), actions, exact, budget).probability(rolls)``."""
    return ResourceSolver(space, space.met_vector(target), actions, exact, budget).probability(rolls)
