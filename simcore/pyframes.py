"""Keep CPython 3.11 from mapping and unmapping memory at every deep call while numba compiles.

CPython 3.11 keeps a thread's Python frames in 16 KiB chunks that it asks for with
``mmap`` (its "arena allocator", ``PyObject_SetArenaAllocator``) and hands back with
``munmap`` as soon as the call stack falls back below a chunk. numba's compiler recurses
deeply and crosses the same chunk boundary over and over: each crossing mapped fresh
pages, and the system cleared them again on the first touch. Measured on the Dice Throne
kernel's cold compile (``play_range(0, 10, 1)``, empty cache, one core each, at 8f95d3e):
28,506,997 minor page faults, 248.5 s of system time, 435.7 s in all; with ``install()``:
878,687 faults, 2.8 s of system time, 181.1 s. numba's output is the same: only where the
interpreter's frames live changes.

``install()`` puts a thin allocator in front of the default one: a freed block of at most
``MAX_KEPT`` bytes goes to a table of ``SLOTS`` free blocks instead of back to the system,
and an allocation of that exact size takes it from there; anything else is ``mmap`` and
``munmap`` as before, so blocks the default allocator gave out before ``install()`` are
freed correctly. At most ``SLOTS * MAX_KEPT`` bytes (4 MiB) stay mapped. Both functions
are numba ``cfunc`` (native code: the allocator is called while a frame is being pushed,
where no Python may run), cached on disk like the kernels. The interpreter calls them
with the GIL held, as it does the default ones.

Installed on CPython 3.11 on Linux only: 3.10 has no frame chunks, and later versions
were not measured. ``PLAYTEST_FRAME_CACHE=0`` leaves the interpreter as it is.

At exit (``atexit``, before the interpreter tears its modules down) the default allocator
is put back: every block this one gave out was mapped with ``mmap``, so the default frees
them correctly, and nothing calls the compiled functions while the interpreter dismantles
the objects they live in. Their table is memory from ``calloc`` that is never freed, for
the same reason. (A first version kept the table in a numpy array: the interpreter freed
it at exit while frames were still being freed through it, and 2 runs in 12 of
``playtest dicethrone run`` ended in glibc's "corrupted double-linked list".)
"""
from __future__ import annotations

import atexit
import ctypes
import os
import sys

import numba as nb
import numpy as np
from numba import types
from numba.core.types import ExternalFunction

SLOTS = 16                 # free blocks kept
MAX_KEPT = 256 * 1024      # the largest block kept (frame chunks: 16 KiB; pymalloc's arenas, 1 MiB, are not)
_PROT = 0x1 | 0x2          # PROT_READ | PROT_WRITE
_FLAGS = 0x02 | 0x20       # MAP_PRIVATE | MAP_ANONYMOUS (Linux)
# the table: slot i is (address, size) at [2i], [2i + 1] (address 0: empty); then the
# counts of allocations served from it, from mmap, and of blocks kept
_N = 2 * SLOTS + 3
HITS, MAPS, KEPT = 2 * SLOTS, 2 * SLOTS + 1, 2 * SLOTS + 2

_mmap = ExternalFunction("mmap", types.intp(types.intp, types.uintp, types.int32, types.int32, types.int32,
                                            types.intp))
_munmap = ExternalFunction("munmap", types.int32(types.intp, types.uintp))


def _alloc(ctx, size):
    t = nb.carray(ctx, (_N,), dtype=np.int64)
    for i in range(SLOTS):
        if t[2 * i] != 0 and t[2 * i + 1] == size:
            p = t[2 * i]
            t[2 * i] = 0
            t[HITS] += 1
            return p
    p = _mmap(0, size, _PROT, _FLAGS, -1, 0)
    t[MAPS] += 1
    return 0 if p == -1 else p       # MAP_FAILED -> NULL, as the default allocator answers


def _free(ctx, ptr, size):
    t = nb.carray(ctx, (_N,), dtype=np.int64)
    if ptr == 0:
        return
    if size <= MAX_KEPT:
        for i in range(SLOTS):
            if t[2 * i] == 0:
                t[2 * i] = ptr
                t[2 * i + 1] = size
                t[KEPT] += 1
                return
    _munmap(ptr, size)


class _ArenaAllocator(ctypes.Structure):
    _fields_ = [("ctx", ctypes.c_void_p), ("alloc", ctypes.c_void_p), ("free", ctypes.c_void_p)]


def _table() -> np.ndarray:
    """The allocator's ctx: ``_N`` int64 of zeroed C memory, never freed, seen as an array
    (the array does not own it)."""
    calloc = ctypes.CDLL(None).calloc
    calloc.restype = ctypes.c_void_p
    calloc.argtypes = [ctypes.c_size_t, ctypes.c_size_t]
    addr = calloc(_N, 8)
    if not addr:
        raise MemoryError("simcore.pyframes: calloc failed")
    return np.ctypeslib.as_array((ctypes.c_int64 * _N).from_address(addr))


TABLE = _table()
_DEFAULT = _ArenaAllocator()       # the allocator found at install(), put back at exit


def wanted() -> bool:
    """Whether this interpreter gets the allocator (see the module's docstring)."""
    return (sys.implementation.name == "cpython" and sys.version_info[:2] == (3, 11)
            and sys.platform.startswith("linux") and os.environ.get("PLAYTEST_FRAME_CACHE", "1") != "0")


_COMPILED = []     # (alloc, free) as numba cfuncs, made by the first install()


def _compiled():
    """The two functions as native code (compiled, or loaded from the cache, only where the
    allocator is wanted: an interpreter that does not get it pays nothing at import)."""
    if not _COMPILED:
        _COMPILED.append((nb.cfunc(types.intp(types.voidptr, types.uintp), nopython=True, cache=True)(_alloc),
                          nb.cfunc(types.void(types.voidptr, types.intp, types.uintp), nopython=True,
                                   cache=True)(_free)))
    return _COMPILED[0]


def installed() -> bool:
    if not _COMPILED:
        return False
    alloc, free = _COMPILED[0]
    cur = _ArenaAllocator()
    ctypes.pythonapi.PyObject_GetArenaAllocator(ctypes.byref(cur))
    return cur.alloc == alloc.address and cur.free == free.address


def install() -> bool:
    """Put the allocator in place (once; where ``wanted``). Returns whether it is in place."""
    if not wanted():
        return False
    if not installed():
        alloc, free = _compiled()
        ctypes.pythonapi.PyObject_GetArenaAllocator(ctypes.byref(_DEFAULT))
        new = _ArenaAllocator(TABLE.ctypes.data, alloc.address, free.address)
        ctypes.pythonapi.PyObject_SetArenaAllocator(ctypes.byref(new))
        atexit.register(uninstall)
    return True


def uninstall() -> None:
    """Put back the allocator found at ``install()`` (the kept blocks stay mapped)."""
    if installed():
        ctypes.pythonapi.PyObject_SetArenaAllocator(ctypes.byref(_DEFAULT))
