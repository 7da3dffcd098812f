"""Exact roll-phase solver: the probability of reaching a target with the keep policy
that maximises it, by dynamic programming over multisets of outcomes and rolls left.

With ``n`` dice rolled, let ``V_r(h)`` be the best probability of success holding hand
``h`` with ``r`` rerolls left, and ``W_r(k)`` the probability when keeping ``k`` and
rerolling the rest with ``r`` rerolls left after that one::

    V_0(h) = met(h)
    W_r(k) = sum over outcomes o of the rerolled dice  P(o) * V_r(k + o)
    V_r(h) = max over sub-multisets k of h  W_{r-1}(k)      (k = h: stop / keep all)
    P(R rolls) = W_{R-1}(empty keep)                       (the first roll rerolls all)

``solve_exact`` runs it with Python integers (``V_r`` is a numerator over ``6**(n*r)``),
so the answer is an exact ``Fraction``; ``solve_float`` is the same recursion with numpy
floats over many targets at once (the fast odds tables), held to the exact one by tests.
Locked dice are part of every hand (the target is judged on them too) but never rerolled.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np

from ..dice import Die, Face, Target, parse_target, symbol_vocabulary
from ..errors import PlaytestError
from .space import DiceSpace

MAX_ROLLS = 12
TIE_TOL = 1e-12


@lru_cache(maxsize=64)
def cached_space(dice: tuple, locked: tuple = (), collapse: bool = True) -> DiceSpace:
    return DiceSpace.build(list(dice), locked, collapse)


def check_rolls(rolls, field="--rolls") -> int:
    if not isinstance(rolls, (int, np.integer)) or isinstance(rolls, bool) or not 1 <= rolls <= MAX_ROLLS:
        raise PlaytestError(f"must be a whole number 1..{MAX_ROLLS}, got {rolls!r}", field=field)
    return int(rolls)


@dataclass
class ExactSolution:
    """Every level of the exact DP for one target (see the module doc)."""
    space: DiceSpace
    target: Target
    rolls: int
    met: np.ndarray
    V: list   # V[r][h]: numerator over 6 ** (n * r)
    W: list   # W[r][k]: numerator over 6 ** (n * (r + 1))

    @property
    def n(self) -> int:
        return self.space.n_dice

    def probability(self, rolls: int | None = None) -> Fraction:
        """Best probability of reaching the target within ``rolls`` rolls (default all)."""
        r = self.rolls if rolls is None else check_rolls(rolls)
        if r > self.rolls:
            raise PlaytestError(f"solved for {self.rolls} rolls, asked for {r}", field="--rolls")
        return Fraction(self.W[r - 1][self.space.empty_keep], 6 ** (self.n * r))

    def hand_probability(self, hand: int, rerolls_left: int) -> Fraction:
        return Fraction(self.V[rerolls_left][hand], 6 ** (self.n * rerolls_left))

    def keep_options(self, hand: int, rerolls_left: int) -> list[tuple[int, Fraction]]:
        """Every distinct keep of ``hand`` with the probability it leads to, best first
        (ties: more dice kept first). ``rerolls_left`` >= 1."""
        if not 1 <= rerolls_left <= len(self.W):
            raise PlaytestError(f"rolls left must be 1..{len(self.W)}, got {rerolls_left}", field="--rolls-left")
        W = self.W[rerolls_left - 1]
        den = 6 ** (self.n * rerolls_left)
        opts = [(int(k), Fraction(W[k], den)) for k in self.space.sub[hand] if k >= 0]
        order = sorted(range(len(opts)), key=lambda i: (-opts[i][1], i))
        return [opts[i] for i in order]

    def best_keep(self, hand: int, rerolls_left: int) -> tuple[int, Fraction]:
        return self.keep_options(hand, rerolls_left)[0]

    def policy(self) -> np.ndarray:
        """int64[rolls, n_hands]: row r (r >= 1 rerolls left) = the optimal keep index
        (first maximum in the sub-keep order: the full hand, i.e. stop, then larger keeps)."""
        pol = np.zeros((self.rolls, self.space.n_hands), np.int64)
        pol[0] = self.space.full_keep
        for r in range(1, self.rolls):
            W = self.W[r - 1]
            for h in range(self.space.n_hands):
                best, bk = -1, -1
                for k in self.space.sub[h]:
                    if k >= 0 and W[k] > best:
                        best, bk = W[k], int(k)
                pol[r, h] = bk
        return pol


def _trans_py(space: DiceSpace):
    tp = getattr(space, "_trans_py", None)
    if tp is None:
        tp = [(idx.tolist(), list(w)) for idx, w in space.trans]
        space._trans_py = tp
    return tp


def solve_exact(space: DiceSpace, target: Target, rolls: int, met=None) -> ExactSolution:
    rolls = check_rolls(rolls)
    met = space.met_vector(target) if met is None else np.asarray(met, bool)
    trans = _trans_py(space)
    sizes = space.keep_size.tolist()
    subs = [[int(k) for k in row if k >= 0] for row in space.sub]
    V = [int(m) for m in met]
    Vs, Ws = [V], []
    for r in range(rolls):
        W = []
        for k, (idx, wts) in enumerate(trans):
            s = 0
            for i, w in zip(idx, wts):
                s += w * V[i]
            W.append(s * 6 ** sizes[k])
        Ws.append(W)
        if r < rolls - 1:
            V = [max(W[k] for k in row) for row in subs]
            Vs.append(V)
    return ExactSolution(space, target, rolls, met, Vs, Ws)


def solve_float(space: DiceSpace, met: np.ndarray, rolls: int):
    """Float twin of ``solve_exact`` over many targets: ``met[n_hands, T]``. Returns
    ``(P[rolls, T], policy[rolls, n_hands, T])`` with ``P[r-1]`` the best probability in
    ``r`` rolls and ``policy[r]`` the best keep with ``r`` rerolls left."""
    met = np.asarray(met, np.float64)
    if met.ndim == 1:
        met = met[:, None]
    M = space.matrix
    sub = space.sub
    V = met
    P = np.zeros((rolls, met.shape[1]))
    policy = np.zeros((rolls, space.n_hands, met.shape[1]), np.int64)
    policy[0] = space.full_keep[:, None]
    ninf = np.full((1, met.shape[1]), -np.inf)
    for r in range(rolls):
        W = M @ V
        P[r] = W[space.empty_keep]
        if r < rolls - 1:
            opts = np.vstack([W, ninf])[sub]          # [hands, width, T]; -1 -> sentinel
            V = opts.max(axis=1)
            first = np.argmax(opts >= V[:, None, :] - TIE_TOL, axis=1)
            policy[r + 1] = np.take_along_axis(sub[:, :, None].repeat(met.shape[1], 2), first[:, None, :], 1)[:, 0, :]
    return P, policy


# ------------------------------------------------------------------ convenience
@dataclass
class OddsQuery:
    """A parsed question: dice rolled, faces locked, target, rolls."""
    dice: tuple
    locked: tuple
    target: Target
    rolls: int

    @property
    def space(self) -> DiceSpace:
        return cached_space(self.dice, self.locked)


def parse_locked(text, dice, field="--locked") -> list[Face]:
    """Locked faces: a comma list like ``6,6`` (number only: matched to a face of the
    dice with that number) or ``6:fist,6:fist``."""
    if text is None or (isinstance(text, str) and not text.strip()):
        return []
    items = [x.strip() for x in (text.split(",") if isinstance(text, str) else text)]
    all_faces = [f for d in dice for f in d.faces]
    out = []
    for it in items:
        if not it:
            raise PlaytestError("empty face in the list", field=field)
        num, _, sym = it.partition(":")
        try:
            num_i = int(num)
        except ValueError:
            raise PlaytestError(f"face {it!r}: number must be a whole number", field=field) from None
        cands = [f for f in all_faces if f.number == num_i and (not sym or f.symbol == sym.strip().lower())]
        if not cands:
            raise PlaytestError(f"no die has a face {it!r}", field=field)
        out.append(cands[0])
    return out


def make_query(dice, target_text: str, rolls: int, locked=()) -> OddsQuery:
    dice = tuple(dice)
    locked = tuple(locked)
    rolls = check_rolls(rolls)
    n_total = len(dice)
    if not 1 <= n_total <= 6:
        raise PlaytestError(f"must be 1..6 dice in all, got {n_total}", field="--dice")
    if len(locked) >= n_total:
        raise PlaytestError(f"{len(locked)} dice locked out of {n_total}: at least one must be rolled", field="--locked")
    vocab = symbol_vocabulary(dice)
    target = parse_target(target_text, vocab, n_total, field="--target")
    # the locked dice are the last ones (by die); check each locked face belongs to some die
    rolled = list(dice)
    for f in locked:
        for i in range(len(rolled) - 1, -1, -1):
            if f in rolled[i].faces:
                del rolled[i]
                break
        else:
            raise PlaytestError(f"locked face {f} is on none of the remaining dice", field="--locked")
    return OddsQuery(tuple(rolled), locked, target, rolls)


def bought_rolls(cp: int = 0, roll_cost: int = 2, max_bought: int | None = None) -> int:
    """Extra rolls a CP budget buys: ``cp // roll_cost`` (at most ``max_bought``)."""
    if not isinstance(cp, (int, np.integer)) or cp < 0:
        raise PlaytestError(f"must be a whole number >= 0, got {cp!r}", field="--cp")
    if not isinstance(roll_cost, (int, np.integer)) or roll_cost < 1:
        raise PlaytestError(f"must be a whole number >= 1, got {roll_cost!r}", field="--roll-cost")
    b = int(cp) // int(roll_cost)
    return b if max_bought is None else min(b, int(max_bought))


def exact_odds(dice, target_text: str, rolls: int, locked=(), cp: int = 0,
               roll_cost: int = 2) -> tuple[Fraction, ExactSolution]:
    """Best probability of reaching ``target_text`` with ``dice`` (``locked`` faces set
    aside) in ``rolls`` rolls plus the extra rolls a ``cp`` budget buys at ``roll_cost``
    each: going for a target, every affordable roll is worth buying, so this is the
    probability with ``rolls + cp // roll_cost`` rolls."""
    total = check_rolls(rolls) + bought_rolls(cp, roll_cost)
    q = make_query(dice, target_text, check_rolls(total, "--cp"), locked)
    sol = solve_exact(q.space, q.target, q.rolls)
    return sol.probability(), sol


def describe_keep(space: DiceSpace, k: int) -> str:
    faces = space.keep_faces(k)
    return ",".join(str(f) for f in sorted(faces, key=lambda f: (f.number, f.symbol))) or "(nothing)"
