"""Counter-based random streams: one independent stream per (seed, game index).

The output at position ``n`` of stream ``key`` is ``mix64(key + n * GOLDEN)``
(the SplitMix64 output function applied to a Weyl sequence), so a value depends only
on the key and the counter: no state is carried between games, and a game can be
replayed anywhere (any worker, any chunk, the kernel or the reference engine) from
``(seed, game_index)`` alone.

A stream's state is a ``uint64`` array of length 2: ``[key, counter]``. The compiled
functions (``*_nb``) and the pure-Python twins (``Stream``) produce the same numbers;
``tests/test_rng.py`` holds them to each other.

Integers below ``n`` use the multiply-shift map ``((x >> 32) * n) >> 32`` on the top
32 bits: bias at most n / 2**32 (1.4e-9 for a die), far below any Monte Carlo error.
"""
from __future__ import annotations

import numba as nb
import numpy as np

from . import pyframes

# every compiled module of the project imports this one before its first compile: the
# place to spare numba's compiler CPython 3.11's frame-chunk page faults (simcore.pyframes)
pyframes.install()

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB

# numba: keep every operand uint64 (mixing int64 and uint64 promotes to float64)
_U_GOLDEN = np.uint64(GOLDEN)
_U_M1 = np.uint64(_M1)
_U_M2 = np.uint64(_M2)
_U30 = np.uint64(30)
_U27 = np.uint64(27)
_U31 = np.uint64(31)
_U32 = np.uint64(32)
_U11 = np.uint64(11)
_U1 = np.uint64(1)
_INV53 = 1.0 / 9007199254740992.0


# ----------------------------------------------------------------- pure Python
def mix64(z: int) -> int:
    z &= MASK
    z = ((z ^ (z >> 30)) * _M1) & MASK
    z = ((z ^ (z >> 27)) * _M2) & MASK
    return z ^ (z >> 31)


def stream_key(seed: int, index: int, domain: int = 0) -> int:
    """Key of the stream for game ``index`` of a run with ``seed`` (``domain`` separates
    unrelated uses of the same seed, e.g. two games, or a strategy's private rollouts)."""
    k = mix64((seed & MASK) * GOLDEN + domain)
    return mix64(k ^ (((index + 1) * GOLDEN) & MASK))


class Stream:
    """Pure-Python twin of the compiled stream, over the same ``[key, counter]`` array."""

    def __init__(self, seed: int, index: int, domain: int = 0):
        self.state = new_state(seed, index, domain)

    def next_u64(self) -> int:
        return next_u64_py(self.state)

    def below(self, n: int) -> int:
        return below_py(self.state, n)

    def uniform(self) -> float:
        return uniform_py(self.state)


def new_state(seed: int, index: int, domain: int = 0) -> np.ndarray:
    return np.array([stream_key(seed, index, domain), 0], dtype=np.uint64)


def next_u64_py(st: np.ndarray) -> int:
    c = (int(st[1]) + 1) & MASK
    st[1] = c
    return mix64(int(st[0]) + c * GOLDEN)


def below_py(st: np.ndarray, n: int) -> int:
    return (((next_u64_py(st) >> 32) * n) >> 32)


def uniform_py(st: np.ndarray) -> float:
    return (next_u64_py(st) >> 11) * _INV53


# -------------------------------------------------------------------- compiled
@nb.njit(cache=True, inline="always")
def mix64_nb(z):
    z = (z ^ (z >> _U30)) * _U_M1
    z = (z ^ (z >> _U27)) * _U_M2
    return z ^ (z >> _U31)


@nb.njit(cache=True)
def stream_key_nb(seed, index, domain):
    k = mix64_nb(np.uint64(seed) * _U_GOLDEN + np.uint64(domain))
    return mix64_nb(k ^ ((np.uint64(index) + _U1) * _U_GOLDEN))


@nb.njit(cache=True, inline="always")
def init_state_nb(st, seed, index, domain):
    st[0] = stream_key_nb(seed, index, domain)
    st[1] = np.uint64(0)


@nb.njit(cache=True, inline="always")
def next_u64_nb(st):
    c = st[1] + _U1
    st[1] = c
    return mix64_nb(st[0] + c * _U_GOLDEN)


@nb.njit(cache=True, inline="always")
def below_nb(st, n):
    return np.int64(((next_u64_nb(st) >> _U32) * np.uint64(n)) >> _U32)


@nb.njit(cache=True, inline="always")
def uniform_nb(st):
    return np.float64(next_u64_nb(st) >> _U11) * _INV53
