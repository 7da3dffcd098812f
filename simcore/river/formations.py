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
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros
from numba.extending import intrinsic

from .model import KEY_LOW, KEY_TYPE, M_ALL, M_COLOUR, M_LOW, M_RUNS, M_SAME, M_SUM, VSTRIDE

_JIT = dict(cache=True, nogil=True)
# ``_nrt=False``: numba emits no reference counting in the functions marked ``_RAW`` (they allocate no
# array; every array they touch is an argument, a view of one or a stack buffer, kept alive
# by the caller). With it on, each inlined helper taking an array paid an incref/decref
# call pair, even on the borrowed views (whose counts are null).
_RAW = dict(_JIT, _nrt=False)


@intrinsic
def _ctpop(typingctx, x):
    """The processor's population count (LLVM ``ctpop``) of an integer."""
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return x(x), codegen


@nb.njit(inline="always", **_JIT)
def popcount_nb(x):
    """Number of set bits of ``x`` (x >= 0)."""
    return _ctpop(np.int64(x))


@nb.njit(inline="always", **_JIT)
def top_bit_nb(x):
    """Index of the highest set bit of ``x`` (x > 0)."""
    return 63 - leading_zeros(np.int64(x))


@nb.njit(inline="always", **_JIT)
def windows_nb(a, n):
    """Bit w set iff bits w .. w + n - 1 of the value mask ``a`` are all set: the runs of
    n consecutive values ``a`` can fill, by their lowest value."""
    r = a
    for i in range(1, n):
        r &= a >> i
    return r


@nb.njit(inline="always", **_JIT)
def family_key_nb(s, run, same_col, same_val, mode):
    """The key of a complete formation with card sum ``s`` and these families under tile
    rule ``mode`` (the ranking, written once: a higher key wins; ``M_LOW`` turns the sum
    around so that the lowest sum wins)."""
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
    return family_key_nb(s, run, same_col, same_val, mode)


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


@nb.njit(inline="always", **_JIT)
def pool_stats_nb(pool, cntv, colm):
    """Per-value counts (``cntv[12]``) and per-colour value masks (``colm[5]``) of the cards
    of a bit mask; returns the number of cards."""
    for cl in range(5):
        colm[cl] = (pool >> (cl * VSTRIDE)) & 0xFFF
    total = np.int64(0)     # not a literal 0: callers pass it on to compiled functions
    for v in range(VSTRIDE):
        x = ((colm[0] >> v) & 1) + ((colm[1] >> v) & 1) + ((colm[2] >> v) & 1) + ((colm[3] >> v) & 1) \
            + ((colm[4] >> v) & 1)
        cntv[v] = x
        total += x
    return total


@nb.njit(inline="always", **_JIT)
def stats_add_nb(cntv, colm, c, sign):
    """Add (sign 1) or remove (sign -1) card ``c`` from pool statistics."""
    v = c % VSTRIDE
    cntv[v] += sign
    if sign > 0:
        colm[c // VSTRIDE] |= 1 << v
    else:
        colm[c // VSTRIDE] &= ~(1 << v)


@nb.njit(**_JIT)
def best_key_nb(arr, off, k, n, mode, pool):
    """Highest key any completion of the ``k`` cards ``arr[off:off + k]`` to ``n`` cards
    with distinct cards of ``pool`` (bit mask of card codes) can reach; -1 if the pool
    holds fewer than ``n - k`` cards. ``k == n``: the formation's own key."""
    if k == n:
        return key_nb(arr, off, n, mode)
    cntv = np.empty(VSTRIDE, np.int64)
    colm = np.empty(5, np.int64)
    total = pool_stats_nb(pool, cntv, colm)
    return best_key_stats_nb(arr, off, k, n, mode, cntv, colm, total)


@nb.njit(inline="always", **_JIT)
def part_add_nb(part, c):
    """The summary of a partial formation with card ``c`` added. A summary is
    ``(sum, colour, value, value mask, distinct)``: colour (value) is the cards' common
    colour (value), -2 with no card yet, -1 when they differ; distinct: no value twice.
    The empty formation is ``PART0``."""
    dsum, dcol, dval, dvm, distinct = part
    v = c % VSTRIDE
    cl = c // VSTRIDE
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
    return (dsum + v, dcol, dval, dvm | (1 << v), distinct)


PART0 = (0, -2, -2, 0, True)


@nb.njit(inline="always", **_JIT)
def part_nb(arr, off, k):
    """The summary (``part_add_nb``) of the ``k`` cards ``arr[off:off + k]``."""
    part = (0, -2, -2, 0, True)
    for i in range(k):
        part = part_add_nb(part, arr[off + i])
    return part


@nb.njit(inline="always", **_JIT)
def key_part_nb(part, n, mode):
    """``key_nb`` of a complete formation (``n`` cards) given by its summary."""
    dsum, dcol, dval, dvm, distinct = part
    if mode == M_SUM:
        return dsum
    if mode == M_LOW:
        return KEY_LOW - dsum
    run = distinct and top_bit_nb(dvm) - trailing_zeros(np.int64(dvm)) == n - 1
    return family_key_nb(dsum, run, dcol >= 0, dval >= 0, mode)


@nb.njit(inline="always", **_JIT)
def best_key_stats_nb(arr, off, k, n, mode, cntv, colm, total):
    """``best_key_nb`` from the pool's statistics (``pool_stats_nb``)."""
    if k == n:
        return key_nb(arr, off, n, mode)
    return best_key_part_nb(part_nb(arr, off, k), k, n, mode, cntv, colm, total)


@nb.njit(**_RAW)
def best_key_part_nb(part, k, n, mode, cntv, colm, total):
    """``best_key_stats_nb`` of a partial formation of ``k`` cards given by its summary
    (``part_nb``). Each family's best member is found on bit masks of values: the runs of
    ``n`` values a mask can fill are ``windows_nb``; the highest admissible one wins."""
    m = n - k
    if m == 0:
        return key_part_nb(part, n, mode)
    if total < m:
        return -1
    dsum, dcol, dval, dvm, distinct = part
    if mode == M_SUM:
        return dsum + _top_sum(cntv, m, True)
    if mode == M_LOW:
        return KEY_LOW - dsum - _top_sum(cntv, m, False)
    wsum0 = n * (n - 1) // 2
    # windows of n consecutive values that can hold the partial's values: lowest value
    # w_lo .. w_hi, as a bit mask
    w_hi = VSTRIDE - n
    w_lo = 0
    if k > 0:
        dmin = trailing_zeros(np.int64(dvm))
        dmax = top_bit_nb(dvm)
        if dmin < w_hi:
            w_hi = dmin
        if dmax - n + 1 > w_lo:
            w_lo = dmax - n + 1
    wmask = 0
    if w_hi >= w_lo:
        wmask = ((1 << (w_hi + 1)) - 1) & ~((1 << w_lo) - 1)
    # families strongest first: the first one reachable holds the answer (types dominate sums)
    if mode == M_ALL and dcol != -1 and distinct:            # colour run (type 4)
        best = -1
        for cl in range(5):
            if dcol >= 0 and cl != dcol:
                continue
            r = windows_nb(dvm | colm[cl], n) & wmask
            if r != 0:
                key = 4 * KEY_TYPE + n * top_bit_nb(r) + wsum0
                if key > best:
                    best = key
        if best >= 0:
            return best
    if (mode == M_ALL or mode == M_SAME) and dval != -1:     # same strength
        ts = 3 if mode == M_ALL else 1
        if dval >= 0:
            if cntv[dval] >= m:
                return ts * KEY_TYPE + n * dval
        else:
            for j in range(VSTRIDE):
                v = VSTRIDE - 1 - j
                if cntv[v] >= m:
                    return ts * KEY_TYPE + n * v
    if (mode == M_ALL or mode == M_COLOUR) and dcol != -1:   # colour
        tc = 2 if mode == M_ALL else 1
        best = -1
        for cl in range(5):
            if dcol >= 0 and cl != dcol:
                continue
            cm = colm[cl]
            if popcount_nb(cm) >= m:
                s = dsum
                for _ in range(m):                            # the m highest values
                    v = top_bit_nb(cm)
                    s += v
                    cm ^= 1 << v
                if s > best:
                    best = s
        if best >= 0:
            return tc * KEY_TYPE + best
    if (mode == M_ALL or mode == M_RUNS) and distinct:       # run (colour runs too)
        r = windows_nb(colm[0] | colm[1] | colm[2] | colm[3] | colm[4] | dvm, n) & wmask
        if r != 0:
            return KEY_TYPE + n * top_bit_nb(r) + wsum0
    return dsum + _top_sum(cntv, m, True)                    # a plain sum


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
