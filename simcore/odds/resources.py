"""Exact roll-phase odds when the roller also holds die-changing resources (cards, passives).

The roll-phase solver (``solver.py``) answers "best probability of reaching a target in R
rolls". Here the roller also holds *actions* that change dice, each usable once, at any
moment of the roll phase (between two rolls or after the last one), in any order:

- ``set``    set ``n`` dice to a face (``face`` = face number; 0 = any face of the die);
- ``move``   move ``n`` dice by one face number up or down (1..6, no wrap);
- ``reroll`` reroll up to ``n`` dice at once (not a roll attempt: the attempts left stay);
- ``extra``  ``n`` more roll attempts.

The DP carries the unused actions as part of the state (a count per distinct action)::

    V(r, c)[h] = max( met(h),                                         stop here
                      max_{k sub h} W(r-1, c)[k]          if r >= 1   roll again keeping k
                      for each action j with c_j > 0, c' = c - e_j:
                        set/move: max over hands h' it can make  V(r, c')[h']
                        reroll:   max_{k sub h, |h|-|k| <= n}   W(r, c')[k]
                        extra:    V(r + n, c')[h] )
    W(r, c)[k] = sum over outcomes o of the dice not kept  P(o) * V(r, c)[k + o]
    P(R rolls, c) = W(R - 1, c)[empty keep]

so a resource is used exactly when it helps most ("at the best moment"), including
after the last roll. With no actions it is the recursion of ``solver.solve_exact``
(held equal by the tests). ``exact=True`` computes with ``Fraction`` (the true value);
``exact=False`` with floats (the same recursion, for tables).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..errors import PlaytestError
from .space import DiceSpace

ACTION_KINDS = ("set", "move", "reroll", "extra")


@dataclass(frozen=True)
class DieAction:
    """One use of a die-changing resource (see the module doc)."""
    kind: str
    n: int = 1
    face: int = 0          # set: face number to set (0: any face)
    label: str = ""

    def __post_init__(self):
        if self.kind not in ACTION_KINDS:
            raise PlaytestError(f"must be one of {', '.join(ACTION_KINDS)}, got {self.kind!r}", field="action")
        if self.n < 1:
            raise PlaytestError(f"must be >= 1, got {self.n}", field="action.n")

    def describe(self) -> str:
        if self.kind == "set":
            what = "any face" if self.face == 0 else f"{self.face}"
            return f"set {self.n} {'die' if self.n == 1 else 'dice'} to {what}"
        if self.kind == "move":
            return f"move {self.n} {'die' if self.n == 1 else 'dice'} by one"
        if self.kind == "reroll":
            return f"reroll up to {self.n} {'die' if self.n == 1 else 'dice'}"
        return f"{self.n} extra roll attempt{'s' if self.n > 1 else ''}"


class ResourceSolver:
    """The DP of the module doc for one target on one space and one multiset of actions."""

    def __init__(self, space: DiceSpace, met, actions=(), exact: bool = True):
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
        self.actions = kinds
        self.full = tuple(counts)
        n = space.n_dice
        self.trans = [(idx.tolist(), [int(w) for w in wts], 6 ** (n - int(space.keep_size[k])))
                      for k, (idx, wts) in enumerate(space.trans)]
        self.subs = [[int(k) for k in row if k >= 0] for row in space.sub]
        self.keep_size = [int(x) for x in space.keep_size]
        self.hand_size = n
        self.reach = [self._reach(a) for a in kinds]
        self._V: dict = {}
        self._W: dict = {}

    # ------------------------------------------------------------ action moves
    def _one_die_moves(self, h: int, kind: str, face: int) -> set:
        """Hands made from hand ``h`` by changing one die (``set`` to ``face``/any, or ``move``)."""
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
                else:
                    ok = abs(n2 - num) == 1
                if ok:
                    new = list(counts)
                    new[s] -= 1
                    new[s2] += 1
                    out.add(sp.hand_index[tuple(new)])
        return out

    def _reach(self, a: DieAction):
        """Per hand: the hands the action can make (set/move), the keeps it may reroll
        from (reroll), or None (extra)."""
        sp = self.space
        if a.kind in ("set", "move"):
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

    # ------------------------------------------------------------ the recursion
    def W(self, r: int, c: tuple) -> list:
        key = (r, c)
        if key not in self._W:
            V = self.V(r, c)
            out = []
            for idx, wts, den in self.trans:
                s = 0
                for i, w in zip(idx, wts):
                    s += w * V[i]
                out.append(Fraction(s, den) if self.exact else s / den)
            self._W[key] = out
        return self._W[key]

    def V(self, r: int, c: tuple) -> list:
        key = (r, c)
        if key in self._V:
            return self._V[key]
        best = list(self.met)
        if r >= 1:
            W = self.W(r - 1, c)
            for h, row in enumerate(self.subs):
                m = max(W[k] for k in row)
                if m > best[h]:
                    best[h] = m
        for j, a in enumerate(self.actions):
            if c[j] == 0:
                continue
            c2 = c[:j] + (c[j] - 1,) + c[j + 1:]
            if a.kind in ("set", "move"):
                V2 = self.V(r, c2)
                for h, hs in enumerate(self.reach[j]):
                    m = max(V2[x] for x in hs)
                    if m > best[h]:
                        best[h] = m
            elif a.kind == "reroll":
                W2 = self.W(r, c2)
                for h, ks in enumerate(self.reach[j]):
                    m = max(W2[k] for k in ks)
                    if m > best[h]:
                        best[h] = m
            else:
                V2 = self.V(r + a.n, c2)
                for h in range(len(best)):
                    if V2[h] > best[h]:
                        best[h] = V2[h]
        self._V[key] = best
        return best

    def probability(self, rolls: int, counts: tuple | None = None):
        """Best probability of reaching the target in ``rolls`` roll attempts holding the
        actions ``counts`` (default: all of them)."""
        if rolls < 1:
            raise PlaytestError(f"must be >= 1, got {rolls}", field="--rolls")
        c = self.full if counts is None else tuple(counts)
        return self.W(rolls - 1, c)[self.space.empty_keep]


def best_probability(space: DiceSpace, target, rolls: int, actions=(), exact: bool = True):
    """Shortcut: ``ResourceSolver(space, met(target), actions).probability(rolls)``."""
    return ResourceSolver(space, space.met_vector(target), actions, exact).probability(rolls)
