"""Formations at a dam, compiled: the key of a complete formation and the exact best key
any completion of a partial formation can reach from a pool of cards (a bit mask).

A formation's key (``model.KEY_TYPE * type + s``; higher is stronger) encodes the
ranking of the digest and the tile's restriction (``model.M_*``):
  all     type 4 colour run, 3 same strength, 2 colour, 1 run, 0 sum; s = sum
  sum     type 0; s = sum                 lowest  type 0; s = KEY_LOW - sum
  runs    type 1 run (colour runs too)    colour  type 1 colour (colour runs too)
  same    type 1 same strength            (s = sum on these three)

``best_key_nb`` is exact without enumerating completions. Every completion X scores its
true key, the highest of ``score_t(X)`` over the types t it satisfies, and types dominate
sums; so ``max_X key(X) = max_t max_{X satisfies t} score_t(X)``, and each inner maximum
has a closed form over the pool's per-value counts and per-colour value masks:
  sum        the partial sum plus the m highest (lowest on "lowest") pool values;
  colour     one colour c (the partial's, if any): m highest values of colour c;
  same       one value v (the partial's, if any): at least m pool cards of value v;
  run        the highest window of n consecutive values holding the partial's (distinct)
             values whose missing values each have a pool card;
  colour run the same window test with colour c's pool values only.
tests/test_river_proof.py holds it to brute-force enumeration on random positions.
"""
from __future__ import annotations

import numba as nb
import numpy as np

from .model import KEY_LOW, KEY_TYPE, M_ALL, M_COLOUR, M_LOW, M_RUNS, M_SAME, M_SUM, VSTRIDE

_JIT = dict(cache=True, nogil=True)


@nb.njit(inline="always", **_JIT)
def popcount_nb(x):
    c = 0
    while x != 0:
        x &= x - 1
        c += 1
    return c


@nb.njit(**_JIT)
def key_nb(arr, off, n, mode):
    """Key of the complete formation ``arr[off:off + n]`` under tile rule ``mode``."""
    s = 0
    col = arr[off] // VSTRIDE
    val = arr[off] % VSTRIDE
    same_col = True
    same_val = True
    vmask = 0
    lo = 99
    hi = -1
    for i in range(n):
        c = arr[off + i]
        v = c % VSTRIDE
        s += v
        if c // VSTRIDE != col:
            same_col = False
        if v != val:
            same_val = False
        vmask |= 1 << v
        if v < lo:
            lo = v
        if v > hi:
            hi = v
    run = popcount_nb(vmask) == n and hi - lo == n - 1
    if mode == M_SUM:
        return s
    if mode == M_LOW:
        return KEY_LOW - s
    t = 0
    if mode == M_ALL:
        if run and same_col:
            t = 4
        elif same_val:
            t = 3
        elif same_col:
            t = 2
        elif run:
            t = 1
    elif mode == M_RUNS:
        t = 1 if run else 0
    elif mode == M_COLOUR:
        t = 1 if same_col else 0
    elif mode == M_SAME:
        t = 1 if same_val else 0
    return t * KEY_TYPE + s


@nb.njit(inline="always", **_JIT)
def _top_sum(vmask_counts, m, highest):
    """Sum of the m highest (or lowest) values of a per-value count array (12 entries)."""
    s = 0
    left = m
    for j in range(VSTRIDE):
        v = VSTRIDE - 1 - j if highest else j
        k = vmask_counts[v]
        if k > left:
            k = left
        s += k * v
        left -= k
        if left == 0:
            break
    return s


@nb.njit(**_JIT)
def best_key_nb(arr, off, k, n, mode, pool):
    """Highest key any completion of the ``k`` cards ``arr[off:off + k]`` to ``n`` cards
    with distinct cards of ``pool`` (bit mask of card codes) can reach; -1 if the pool
    holds fewer than ``n - k`` cards. ``k == n``: the formation's own key."""
    m = n - k
    if m == 0:
        return key_nb(arr, off, n, mode)
    cntv = np.zeros(VSTRIDE, np.int64)
    colm = np.zeros(5, np.int64)
    total = 0
    for b in range(60):
        if (pool >> b) & 1:
            cntv[b % VSTRIDE] += 1
            colm[b // VSTRIDE] |= 1 << (b % VSTRIDE)
            total += 1
    if total < m:
        return -1
    dsum = 0
    dcol = -2            # -2: no card yet (any colour), -1: mixed colours
    dval = -2
    dvm = 0
    distinct = True
    for i in range(k):
        c = arr[off + i]
        v = c % VSTRIDE
        cl = c // VSTRIDE
        dsum += v
        if dcol == -2:
            dcol = cl
        elif dcol != cl:
            dcol = -1
        if dval == -2:
            dval = v
        elif dval != v:
            dval = -1
        if (dvm >> v) & 1:
            distinct = False
        dvm |= 1 << v
    if mode == M_SUM:
        return dsum + _top_sum(cntv, m, True)
    if mode == M_LOW:
        return KEY_LOW - dsum - _top_sum(cntv, m, False)
    best = dsum + _top_sum(cntv, m, True)      # type 0 (any completion)
    full = (1 << n) - 1
    wsum0 = n * (n - 1) // 2
    # runs (any colour)
    if (mode == M_ALL or mode == M_RUNS) and distinct:
        for j in range(VSTRIDE - n + 1):
            w = VSTRIDE - n - j
            W = full << w
            if dvm & ~W:
                continue
            miss = W & ~dvm
            ok = True
            for v in range(w, w + n):
                if (miss >> v) & 1 and cntv[v] == 0:
                    ok = False
                    break
            if ok:
                key = KEY_TYPE + n * w + wsum0
                if key > best:
                    best = key
                break
    # colour (and colour runs on "all")
    if mode == M_ALL or mode == M_COLOUR:
        tc = 2 if mode == M_ALL else 1
        for cl in range(5):
            if dcol >= 0 and cl != dcol:
                continue
            if dcol == -1:
                break
            cm = colm[cl]
            if popcount_nb(cm) >= m:
                s = dsum
                left = m
                for j in range(VSTRIDE):
                    v = VSTRIDE - 1 - j
                    if (cm >> v) & 1:
                        s += v
                        left -= 1
                        if left == 0:
                            break
                key = tc * KEY_TYPE + s
                if key > best:
                    best = key
            if mode == M_ALL:
                for j in range(VSTRIDE - n + 1):
                    w = VSTRIDE - n - j
                    W = full << w
                    if dvm & ~W:
                        continue
                    miss = W & ~dvm
                    if miss & ~cm:
                        continue
                    key = 4 * KEY_TYPE + n * w + wsum0
                    if key > best:
                        best = key
                    break
    # same strength
    if (mode == M_ALL or mode == M_SAME) and dval != -1:
        ts = 3 if mode == M_ALL else 1
        for j in range(VSTRIDE):
            v = VSTRIDE - 1 - j
            if dval >= 0 and v != dval:
                continue
            if cntv[v] >= m:
                key = ts * KEY_TYPE + n * v
                if key > best:
                    best = key
                break
    return best


@nb.njit(**_JIT)
def brute_best_key_nb(arr, off, k, n, mode, pool):
    """``best_key_nb`` by enumerating every completion (tests and benchmarks only)."""
    m = n - k
    cards = np.empty(60, np.int64)
    nc = 0
    for b in range(60):
        if (pool >> b) & 1:
            cards[nc] = b
            nc += 1
    if nc < m:
        return -1
    f = np.empty(4, np.int64)
    for i in range(k):
        f[i] = arr[off + i]
    if m == 0:
        return key_nb(f, 0, n, mode)
    best = -1
    idx = np.zeros(4, np.int64)
    for i in range(m):
        idx[i] = i
    while True:
        for i in range(m):
            f[k + i] = cards[idx[i]]
        key = key_nb(f, 0, n, mode)
        if key > best:
            best = key
        # next combination
        i = m - 1
        while i >= 0 and idx[i] == nc - m + i:
            i -= 1
        if i < 0:
            break
        idx[i] += 1
        for j in range(i + 1, m):
            idx[j] = idx[j - 1] + 1
    return best
