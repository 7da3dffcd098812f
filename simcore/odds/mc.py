"""Monte Carlo cross-check of the exact solver: roll phases simulated under the solver's
keep policy, compiled (``roll_phase_kernel``) and readable (``roll_phase_py``) twins.

Simulation ``i`` of a run with seed ``s`` uses the stream ``(s, i, DOMAIN_ODDS)``. A roll
draws the rerolled dice group by group, die by die (``below(6)`` = the face index of the
die); the hand is then looked up by per-group multiset codes (``DiceSpace.lookup_tables``).
With ``r`` rerolls left the policy gives the keep for the hand; keeping the whole hand
(or a hand meeting the target) ends the roll phase.
"""
from __future__ import annotations

import numba as nb
import numpy as np

from ..rng import below_nb, below_py, init_state_nb, new_state
from .space import DiceSpace

DOMAIN_ODDS = 0x0DD5
_BLOCK = 4096


@nb.njit(cache=True, inline="always")
def _hand_index(code, rank, rank_off, stride):
    h = 0
    for g in range(code.shape[0]):
        h += rank[rank_off[g] + code[g]] * stride[g]
    return h


@nb.njit(cache=True, parallel=True)
def roll_phase_kernel(start, stop, seed, domain, rolls, met, policy, full_keep, group_n,
                      slot_pow, rank, rank_off, stride, keep_code, keep_reroll, face_slot):
    """``success[i]`` (1 if the target is met at the end) and ``used[i]`` (rolls made) for
    simulations ``start..stop-1``. ``policy[r, h]``: keep index with ``r`` rerolls left."""
    n = stop - start
    success = np.zeros(n, np.uint8)
    used = np.zeros(n, np.uint8)
    G = group_n.shape[0]
    nblocks = (n + _BLOCK - 1) // _BLOCK
    for blk in nb.prange(nblocks):
        st = np.empty(2, np.uint64)
        code = np.empty(G, np.int64)
        lo = blk * _BLOCK
        hi = min(n, lo + _BLOCK)
        for j in range(lo, hi):
            init_state_nb(st, seed, start + j, domain)
            for g in range(G):
                c = 0
                for _ in range(group_n[g]):
                    c += slot_pow[face_slot[g, below_nb(st, 6)]]
                code[g] = c
            h = _hand_index(code, rank, rank_off, stride)
            r = rolls - 1
            u = 1
            while r > 0 and met[h] == 0:
                k = policy[r, h]
                if k == full_keep[h]:
                    break
                for g in range(G):
                    c = keep_code[k, g]
                    for _ in range(keep_reroll[k, g]):
                        c += slot_pow[face_slot[g, below_nb(st, 6)]]
                    code[g] = c
                h = _hand_index(code, rank, rank_off, stride)
                r -= 1
                u += 1
            success[j] = met[h]
            used[j] = u
    return success, used


class RollPhaseSim:
    """Everything the kernel needs for one (space, target, rolls, policy)."""

    def __init__(self, space: DiceSpace, met, policy, rolls: int):
        self.space = space
        self.met = np.asarray(met, np.uint8)
        self.policy = np.ascontiguousarray(policy, np.int64)
        self.rolls = int(rolls)
        self.group_n = np.array([g.n for g in space.groups], np.int64)
        self.tables = space.lookup_tables()

    def chunk(self, start: int, stop: int, seed: int, domain: int = DOMAIN_ODDS) -> dict:
        s, u = roll_phase_kernel(start, stop, seed, domain, self.rolls, self.met, self.policy,
                                 self.space.full_keep, self.group_n, *self.tables)
        return {"success": s, "rolls": u}


def run_chunk(start, stop, sim: RollPhaseSim, seed: int, domain: int = DOMAIN_ODDS) -> dict:
    """Module-level chunk function for ``simcore.parallel.run_chunks``."""
    return sim.chunk(start, stop, seed, domain)


def simulate(sim: RollPhaseSim, n: int, seed: int, jobs: int = 1, threads=None) -> dict:
    from ..parallel import run_chunks

    return run_chunks(run_chunk, n, sim, seed, jobs=jobs, threads=threads,
                      chunk_size=max(1, min(n, 1 << 22)))


def roll_phase_py(sim: RollPhaseSim, seed: int, i: int, domain: int = DOMAIN_ODDS):
    """Readable twin of one kernel simulation: returns ``(success, rolls used)``."""
    space = sim.space
    st = new_state(seed, i, domain)
    counts = [0] * space.n_slots
    for gi, g in enumerate(space.groups):
        for _ in range(g.n):
            f = below_py(st, 6)
            counts[space.group_slots[gi][g.face_slot[f]]] += 1
    h = space.hand_index[tuple(counts)]
    r, used = sim.rolls - 1, 1
    while r > 0 and not sim.met[h]:
        k = int(sim.policy[r, h])
        if k == space.full_keep[h]:
            break
        counts = [int(c) for c in space.keeps[k]]
        for gi, g in enumerate(space.groups):
            kept = sum(counts[s] for s in space.group_slots[gi])
            for _ in range(g.n - kept):
                f = below_py(st, 6)
                counts[space.group_slots[gi][g.face_slot[f]]] += 1
        h = space.hand_index[tuple(counts)]
        r -= 1
        used += 1
    return int(sim.met[h]), used
