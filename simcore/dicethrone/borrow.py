"""Borrowed array views for the hot loop: the same numbers, without reference counting.

numba increments and decrements the reference count of an array (an atomic operation)
whenever it is bound to a new variable, which includes every argument of every inlined
helper. The Dice Throne kernel passes the state ``S``, the rules, the random stream, the
move list and the content tables (a tuple of 30 arrays) through many inlined helpers at
every decision: measured, those counts were most of the time a decision takes.

``borrow(a)`` is a view of a C-contiguous array made from its raw address (``nb.carray``):
it owns no memory, so numba keeps no count on it. The caller must keep ``a`` alive while
the view is used (an argument of the running function is; ``keep_alive_nb`` holds a
local copy until its last use). Only reads and writes through the view happen: nothing is
copied, so the kernel computes exactly what it computed before.
"""
from __future__ import annotations

import numba as nb
from numba.core import cgutils, types
from numba.extending import intrinsic

from .model import Tables


@intrinsic
def _data_pointer(typingctx, a):
    """The data pointer of a C-contiguous array (typing fails for other layouts)."""
    if not isinstance(a, types.Array) or a.layout != "C":
        return None
    sig = types.CPointer(a.dtype)(a)

    def codegen(context, builder, sig, args):
        return context.make_array(sig.args[0])(context, builder, args[0]).data
    return sig, codegen


@intrinsic
def copy_items(typingctx, dst, src, n):
    """``dst[:n] = src[:n]`` as one ``memcpy`` (C-contiguous arrays of one dtype, not
    overlapping): numba's slice assignment copies item by item, after an overlap test."""
    if not (isinstance(dst, types.Array) and isinstance(src, types.Array) and dst.dtype == src.dtype
            and dst.layout == "C" and src.layout == "C" and isinstance(n, types.Integer)):
        return None
    sig = types.void(dst, src, n)

    def codegen(context, builder, sig, args):
        d = context.make_array(sig.args[0])(context, builder, args[0])
        s = context.make_array(sig.args[1])(context, builder, args[1])
        size = context.get_abi_sizeof(context.get_data_type(sig.args[0].dtype))
        cgutils.raw_memcpy(builder, d.data, s.data, args[2], size)
        return context.get_dummy_value()
    return sig, codegen


@nb.njit(cache=True, nogil=True, inline="always")
def borrow(a):
    return nb.carray(_data_pointer(a), a.shape)


@nb.njit(cache=True, nogil=True)
def borrow_tables_nb(T):
    """Borrowed views of every table of ``T`` (``T`` must outlive them)."""
    return Tables(borrow(T.eff), borrow(T.out_start), borrow(T.out_len), borrow(T.face_sym), borrow(T.n_sym),
                  borrow(T.n_ab), borrow(T.ab_ult), borrow(T.tier_n), borrow(T.tier_level), borrow(T.tier_start),
                  borrow(T.tier_len), borrow(T.tier_kind), borrow(T.tier_value), borrow(T.t_kinds),
                  borrow(T.t_need), borrow(T.t_ns), borrow(T.def_dice), borrow(T.def_n), borrow(T.def_start),
                  borrow(T.def_len), borrow(T.tithe), borrow(T.tok), borrow(T.tok_up_start),
                  borrow(T.tok_up_len), borrow(T.use_tok), T.n_tok, borrow(T.card), borrow(T.deck),
                  borrow(T.deck_n), borrow(T.lineup))


@nb.njit(cache=True, nogil=True)
def keep_alive_nb(T, a, b):
    """A use of the tables ``T`` and arrays ``a``, ``b`` (numba frees a local after its last
    use): call it after the last use of views borrowed from them."""
    return T.n_tok + a.size + b.size
