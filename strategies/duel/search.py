"""The duel's ``search``: Monte Carlo search with kernel rollouts, on the machinery shared
with Dice Throne (``strategies/mcsearch.py``).

The duel hides nothing (no cards; the dice are public), so the determinization is only
the dice still to come. At each keep decision the candidates are the distinct kept
multisets of the dice (keeping all = stop; with no free roll left, any other keep buys a
roll, a candidate only when the seat can pay); at the ability choice, every legal ability
and "no attack". For each of ``budget`` samples (``params[0]``, default
``DEFAULT_BUDGET``), shared by every candidate (common random numbers), the candidate is
played and the game rolled out to its end with the duel kernel's own turn functions
(``simcore.duel.kernel``: ``roll_on``, ``attack``, ``resolve_choice``, ``play_turns``) and
``optimal`` in both seats; a win scores 1, a draw 0.5. ``optimal``'s choice stands unless
another candidate's win rate beats it by ``1 / sqrt(budget)`` (about two standard errors of a
rollout mean: with up to 32 keeps, a smaller margin trades the DP's keep for noise; at 16
rollouts and a margin of 1.5 rollouts search won only 36% [30, 43] against optimal).

Scratch arrays are allocated per decision, so ``search`` runs in its own compiled entry
(``strategies/duel/bind.py``: ``search_chunk``), not in the allocation-free block of the
other built-ins.
"""
from __future__ import annotations

import numba as nb
import numpy as np

from simcore.duel.kernel import attack, play_turns, resolve_choice, roll_on
from simcore.duel.model import MAX_ABILITIES, MAX_DICE, R
from simcore.duel.state import S_CP, S_SIZE
from simcore.errors import PlaytestError
from simcore.rng import below_nb
from strategies.mcsearch import add_candidate, budget_of, search_nb

from .base import DuelStrategy
from .optimal import choose as optimal_choose
from .optimal import keep as optimal_keep
from .optimal import make_data as optimal_data

DEFAULT_BUDGET = 128
R_ROLLS = R["rolls"]
R_ROLL_COST = R["roll_cost"]
R_MAX_BOUGHT = R["max_bought_rolls"]


def search_params(budget=None) -> np.ndarray:
    """``params``: ``params[0]`` = rollouts per candidate (0: the default, ``DEFAULT_BUDGET``)."""
    params = np.zeros(4, np.float64)
    if budget is not None:
        if not 1 <= int(budget) <= 100_000:
            raise PlaytestError(f"search budget (rollouts per move) must be 1..100000, got {budget}",
                                field="--param")
        params[0] = int(budget)
    return params


def make_data(setup, budget=None):
    """``(params, optimal's data)``; the budget is ``budget``, else the setup's
    (``--param``), else the default."""
    return (search_params(budget if budget is not None else setup.search_budget), optimal_data(setup))


@nb.njit(cache=True, nogil=True, inline="always")
def _keep(sid, faces, n_dice, rolls_done, free_left, me, st, tb, rules, data, rng):
    return optimal_keep(faces, n_dice, rolls_done, free_left, me, st, tb, rules, data, rng)


@nb.njit(cache=True, nogil=True, inline="always")
def _choose(sid, faces, n_dice, legal, me, st, tb, rules, data, rng):
    return optimal_choose(faces, n_dice, legal, me, st, tb, rules, data, rng)


@nb.njit(cache=True, nogil=True)
def _play_out(st, me, faces, legal, tb, rules, odata, rng, over, w):
    """The game to its end after seat ``me``'s attack (``over``/``w``: its result so far);
    returns the value for ``me``."""
    if not over:
        sids = np.zeros(2, np.int64)
        ab = np.zeros(2 * MAX_ABILITIES, np.int64)
        bo = np.zeros(2, np.int64)
        trace = np.zeros((0, 2), np.float64)
        w, bad, nt = play_turns(_keep, _choose, odata, tb, rules, sids, st, faces, legal, rng, rng, ab, bo,
                                trace, 1 - me, 0)
    return 0.5 if w < 0 else (1.0 if w == me else 0.0)


@nb.njit(cache=True, nogil=True)
def _keep_eval(ctx, c, rng):
    faces, n_dice, rolls_done, free_left, me, st, tb, rules, odata, cand, st2, f2, legal = ctx
    for i in range(S_SIZE):
        st2[i] = st[i]
    for i in range(MAX_DICE):
        f2[i] = faces[i]
    m = cand[c]
    all_kept = (1 << n_dice) - 1
    if m != all_kept:
        bought = rolls_done - rules[R_ROLLS]
        if bought < 0:
            bought = 0
        if free_left == 0:
            st2[S_CP + me] -= rules[R_ROLL_COST]
            bought += 1
        for i in range(n_dice):
            if not (m >> i) & 1:
                f2[i] = below_nb(rng, 6)
        bo = np.zeros(2, np.int64)
        sids = np.zeros(2, np.int64)
        roll_on(_keep, odata, tb, rules, sids, st2, me, f2, rolls_done + 1, bought, rng, rng, bo)
    sids = np.zeros(2, np.int64)
    ab = np.zeros(2 * MAX_ABILITIES, np.int64)
    over, w, bad = attack(_choose, odata, tb, rules, sids, st2, me, f2, legal, rng, rng, ab)
    return _play_out(st2, me, f2, legal, tb, rules, odata, rng, over, w)


@nb.njit(cache=True, nogil=True, inline="always")
def _kept_code(faces, n_dice, m):
    """The kept multiset of mask ``m`` as one number (base 6 counts per face)."""
    code = 0
    for i in range(n_dice):
        if (m >> i) & 1:
            code += 6 ** faces[i]
    return code


@nb.njit(cache=True, nogil=True)
def keep(faces, n_dice, rolls_done, free_left, me, st, tb, rules, data, rng):
    params, odata = data
    all_kept = (1 << n_dice) - 1
    k0 = optimal_keep(faces, n_dice, rolls_done, free_left, me, st, tb, rules, odata, rng)
    if free_left == 0:
        bought = rolls_done - rules[R_ROLLS]
        if st[S_CP + me] < rules[R_ROLL_COST] or bought >= rules[R_MAX_BOUGHT]:
            return all_kept
    # one mask per distinct kept multiset (the lowest-index dice of each face)
    cand = np.empty(1 << n_dice, np.int64)
    codes = np.empty(1 << n_dice, np.int64)
    nc = 0
    default = -1
    code0 = _kept_code(faces, n_dice, k0 & all_kept)
    for m in range(all_kept, -1, -1):
        code = _kept_code(faces, n_dice, m)
        j = -1
        for q in range(nc):
            if codes[q] == code:
                j = q
                break
        if j < 0:
            codes[nc] = code
            cand[nc] = m
            j = nc
            nc += 1
        if code == code0:
            default = j
    if nc <= 1 or default < 0:
        return k0
    budget = budget_of(params, 0, DEFAULT_BUDGET)
    ctx = (faces, n_dice, rolls_done, free_left, me, st, tb, rules, odata, cand,
           np.empty(S_SIZE, np.int64), np.empty(MAX_DICE, np.int64), np.empty(MAX_ABILITIES, np.int64))
    vals = np.empty(nc, np.float64)
    c = search_nb(_keep_eval, ctx, nc, default, budget, 1.0 / np.sqrt(budget), rng, vals)
    if c == default:
        return k0
    return cand[c]


@nb.njit(cache=True, nogil=True)
def _choose_eval(ctx, c, rng):
    faces, n_dice, legal, me, st, tb, rules, odata, cand, st2, f2 = ctx
    for i in range(S_SIZE):
        st2[i] = st[i]
    for i in range(MAX_DICE):
        f2[i] = faces[i]
    ab = np.zeros(2 * MAX_ABILITIES, np.int64)
    legal2 = legal.copy()
    over, w, bad = resolve_choice(st2, me, cand[c], legal2, tb, rules, rng, ab)
    return _play_out(st2, me, f2, legal2, tb, rules, odata, rng, over, w)


@nb.njit(cache=True, nogil=True)
def choose(faces, n_dice, legal, me, st, tb, rules, data, rng):
    params, odata = data
    k0 = optimal_choose(faces, n_dice, legal, me, st, tb, rules, odata, rng)
    cand = np.empty(legal.shape[0] + 1, np.int64)
    cand[0] = -1
    nc = 1
    default = 0
    for a in range(legal.shape[0]):
        if legal[a] >= 0:
            nc, default = add_candidate(cand, nc, a, default, a == k0)
    if nc <= 1:
        return k0
    budget = budget_of(params, 0, DEFAULT_BUDGET)
    ctx = (faces, n_dice, legal, me, st, tb, rules, odata, cand, np.empty(S_SIZE, np.int64),
           np.empty(MAX_DICE, np.int64))
    vals = np.empty(nc, np.float64)
    return cand[search_nb(_choose_eval, ctx, nc, default, budget, 1.0 / np.sqrt(budget), rng, vals)]


SEARCH = DuelStrategy(
    "search", keep, choose, make_data,
    "Monte Carlo search over keeps and abilities with kernel rollouts (optimal in both seats), "
    f"{DEFAULT_BUDGET} rollouts per candidate",
    builtin=True, sid=3,
)
