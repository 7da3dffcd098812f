"""Borrowed array views for the hot loop: the same numbers, without reference counting.

numba increments and decrements the reference count of an array (an atomic operation)
whenever it is bound to a new variable, which includes every argument of every inlined
helper. The Dice Throne kernel passes the state ``S``, the rules, the random stream, the
move list and the content tables (a tuple of 30 arrays) through many inlined helpers at
every decision: measured, those counts were most of the time a decision takes.

``borrow(a)`` (``simcore.rawarrays``, shared with the river) is a view of a C-contiguous
array made from its raw address (``nb.carray``): it owns no memory, so numba keeps no count
on it. The caller must keep ``a`` alive while the view is used (an argument of the running
function is; ``keep_alive_nb`` holds a local copy until its last use). This module adds the
content tables by address (``tables_view_nb``). Only reads and writes through the views
happen: nothing is copied, so the kernel computes exactly what it computed before.
"""
from __future__ import annotations

import numba as nb
import numpy as np
from llvmlite import ir
from numba.core import types
from numba.core.datamodel import models
from numba.core.imputils import impl_ret_borrowed, lower_getattr_generic
from numba.core.typing.templates import AttributeTemplate, infer_getattr
from numba.extending import intrinsic, register_model

from simcore.rawarrays import borrow, copy_items, copy_span  # noqa: F401 (the kernels import them from here)

from .model import CARD_COLS, MAX_AB, MAX_DECK, MAX_DEF, MAX_PLVL, MAX_SPEND, MAX_SYM, MAX_TIERS, N_COLS, N_EV, SP_COLS, TOK_COLS, \
    Tables


# ------------------------------------------------------------------ the tables by address
# The kernel's entry points take the content tables as ``tp``, one int64 array holding the
# address and shape of each table of ``model.Tables`` (``TP_W`` slots a field: address,
# then its dimensions; for the scalar ``n_tok``, its value), and read the tables through
# it as borrowed views (``tables_view_nb``: ``T.eff`` and so on). Handing the tables tuple itself to the
# compiled apply_nb at every decision copied ~300 words of array descriptors onto the
# stack per call (a fifth of the time); the views cost a few loads where they are used.
# The caller keeps the tables alive while ``tp`` is used (``table_ptrs``).
TP_W = 8
# the dimensions after the first of each table, as model.build_tables sizes them
_IN = ((N_COLS,), (MAX_SYM + 1,), (MAX_SYM + 1,), (6,), (), (), (MAX_AB,), (MAX_AB,), (MAX_AB, MAX_TIERS), (MAX_AB, MAX_TIERS),
       (MAX_AB, MAX_TIERS), (MAX_AB, MAX_TIERS), (MAX_AB, MAX_TIERS), (MAX_AB, MAX_TIERS, 4), (MAX_AB, MAX_TIERS, 4, 12),
       (MAX_AB, MAX_TIERS, 4), (MAX_DEF, MAX_TIERS), (), (MAX_DEF, MAX_TIERS), (MAX_DEF, MAX_TIERS), (MAX_PLVL, 6),
       (TOK_COLS,), (N_EV,), (N_EV,), (), None, (CARD_COLS,), (MAX_DECK,), (), (), (SP_COLS,),
       (MAX_DEF, MAX_TIERS), (MAX_SPEND + 1,), (MAX_AB, MAX_TIERS), ())


def _view_value(context, builder, data_ptr, field, arrty):
    """A C-contiguous view (no owner: numba keeps no count on it) of table number ``field``
    of ``model.Tables`` (an ``arrty``), from the address table's data ``data_ptr``: its
    address and first dimension are at ``field * TP_W`` and ``+ 1``; its other dimensions
    are the model's constants (``_IN``: ``model.build_tables`` sizes the tables by them;
    ``table_ptrs`` checks), so indexing needs no shapes loaded, nor strides computed."""
    from numba.np.arrayobj import populate_array

    dims = list(_IN[field])
    nd = 1 + len(dims)
    dt = arrty.dtype
    pos = field * TP_W
    intp = context.get_value_type(types.intp)

    def at(k):
        return builder.load(builder.gep(data_ptr, [intp(pos + k)]))
    data = builder.inttoptr(at(0), context.get_data_type(dt).as_pointer())
    shape = [at(1)] + [intp(d) for d in dims]
    size = context.get_abi_sizeof(context.get_data_type(dt))
    strides = [intp(size * int(np.prod(dims[d:], dtype=np.int64))) for d in range(nd)]
    ary = context.make_array(arrty)(context, builder)
    populate_array(ary, data=data, shape=shape, strides=strides, itemsize=intp(size), meminfo=None)
    return ary._getvalue()


@intrinsic
def address(typingctx, a):
    """The data address of a C-contiguous array, as an int64."""
    if not isinstance(a, types.Array) or a.layout != "C":
        return None
    sig = types.int64(a)

    def codegen(context, builder, sig, args):
        ary = context.make_array(sig.args[0])(context, builder, args[0])
        return builder.ptrtoint(ary.data, context.get_value_type(types.int64))
    return sig, codegen


@nb.njit(cache=True, nogil=True, inline="always")
def tables_view_nb(tp):
    """The content tables from the address table ``tp`` (``table_ptrs``): a ``TablesRef``,
    whose fields (``T.eff``, ``T.n_tok``, ...) are the borrowed views of ``Tables``."""
    return _tables_ref(tp)


# ------------------------------------------------------------------ the tables, field by field
# ``tables_view_nb`` once built the whole ``Tables`` tuple of views (two loads from ``tp``
# a field, 33 fields) where it was called: at the top of the state machine's functions,
# whichever step then ran. In a function as large as ``kernel.next_decision_nb`` the 66
# values stayed live across its loop and were spilled to the stack at every call: a
# quarter of its time went to that entry, for the handful of tables a step reads. A
# ``TablesRef`` is only the address of ``tp``; each ``T.<field>`` builds that one view
# where it is read (``_view_value``: two loads), so a step loads the tables it uses. The
# views are the same as before (address, first dimension, the model's other dimensions),
# so every function computes what it computed with the tuple.
_FIELD = {name: i for i, name in enumerate(Tables._fields)}


class TablesRef(types.Type):
    """The content tables seen through their address table (``tables_view_nb``)."""

    def __init__(self):
        super().__init__(name="dicethrone.TablesRef")


tables_ref_type = TablesRef()


@register_model(TablesRef)
class _TablesRefModel(models.PrimitiveModel):
    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, ir.IntType(64).as_pointer())


def _field_type(i):
    nd, kind = TP_KINDS[i]
    if kind == "n":
        return types.int64
    return types.Array(types.int64 if kind == "i" else types.float64, nd, "C")


@infer_getattr
class _TablesRefAttrs(AttributeTemplate):
    key = TablesRef

    def generic_resolve(self, typ, attr):
        i = _FIELD.get(attr)
        return None if i is None else _field_type(i)


@lower_getattr_generic(TablesRef)
def _tables_ref_getattr(context, builder, typ, value, attr):
    i = _FIELD[attr]
    resty = _field_type(i)
    if not isinstance(resty, types.Array):          # n_tok: the value itself
        return builder.load(builder.gep(value, [context.get_value_type(types.intp)(i * TP_W)]))
    return impl_ret_borrowed(context, builder, resty, _view_value(context, builder, value, i, resty))


@intrinsic
def _tables_ref(typingctx, tp):
    if not isinstance(tp, types.Array) or tp.dtype != types.int64 or tp.layout != "C":
        return None
    sig = tables_ref_type(tp)

    def codegen(context, builder, sig, args):
        return context.make_array(sig.args[0])(context, builder, args[0]).data
    return sig, codegen


# the dimensions and dtype of each field, as tables_view_nb reads them
TP_KINDS = ((2, "i"), (2, "i"), (2, "i"), (2, "i"), (1, "i"), (1, "i"), (2, "i"), (2, "i"), (3, "i"), (3, "i"),
            (3, "i"), (3, "i"), (3, "f"), (4, "i"), (5, "i"), (4, "i"), (3, "i"), (1, "i"), (3, "i"), (3, "i"),
            (3, "i"), (2, "i"), (2, "i"), (2, "i"), (1, "i"), (0, "n"), (2, "i"), (2, "i"), (1, "i"), (1, "i"), (2, "i"),
            (3, "i"), (2, "i"), (3, "i"), (1, "i"))


def table_ptrs(T) -> np.ndarray:
    """The address table of ``T`` (numpy arrays): ``T`` must outlive every use of it."""
    tp = np.zeros(len(Tables._fields) * TP_W, np.int64)
    for i, (name, (nd, kind)) in enumerate(zip(Tables._fields, TP_KINDS)):
        v = getattr(T, name)
        if kind == "n":
            tp[i * TP_W] = int(v)
            continue
        want = np.int64 if kind == "i" else np.float64
        if not (isinstance(v, np.ndarray) and v.dtype == want and v.ndim == nd and v.flags.c_contiguous
                and v.shape[1:] == _IN[i]):
            raise TypeError(f"table {name}: a C-contiguous {np.dtype(want)} array of shape (n, "
                            f"{', '.join(map(str, _IN[i]))}) expected")
        tp[i * TP_W] = v.ctypes.data
        tp[i * TP_W + 1:i * TP_W + 1 + nd] = v.shape
    return tp


@nb.njit(cache=True, nogil=True)
def _put(tp, i, a):
    tp[i * TP_W] = address(a)
    for d in range(a.ndim):
        tp[i * TP_W + 1 + d] = a.shape[d]


@nb.njit(cache=True, nogil=True)
def table_ptrs_nb(T):
    """``table_ptrs`` in compiled code (``T``'s arrays C-contiguous; ``T`` outlives it)."""
    tp = np.zeros(35 * TP_W, np.int64)
    f = np.arange(35)   # not constants: one compiled _put per array type, not per field
    _put(tp, f[0], T.eff)
    _put(tp, f[1], T.out_start)
    _put(tp, f[2], T.out_len)
    _put(tp, f[3], T.face_sym)
    _put(tp, f[4], T.n_sym)
    _put(tp, f[5], T.n_ab)
    _put(tp, f[6], T.ab_ult)
    _put(tp, f[7], T.tier_n)
    _put(tp, f[8], T.tier_level)
    _put(tp, f[9], T.tier_start)
    _put(tp, f[10], T.tier_len)
    _put(tp, f[11], T.tier_kind)
    _put(tp, f[12], T.tier_value)
    _put(tp, f[13], T.t_kinds)
    _put(tp, f[14], T.t_need)
    _put(tp, f[15], T.t_ns)
    _put(tp, f[16], T.def_dice)
    _put(tp, f[17], T.def_n)
    _put(tp, f[18], T.def_start)
    _put(tp, f[19], T.def_len)
    _put(tp, f[20], T.tithe)
    _put(tp, f[21], T.tok)
    _put(tp, f[22], T.tok_ev_start)
    _put(tp, f[23], T.tok_ev_len)
    _put(tp, f[24], T.use_tok)
    tp[25 * TP_W] = T.n_tok
    _put(tp, f[26], T.card)
    _put(tp, f[27], T.deck)
    _put(tp, f[28], T.deck_n)
    _put(tp, f[29], T.lineup)
    _put(tp, f[30], T.sp)
    _put(tp, f[31], T.def_reroll)
    _put(tp, f[32], T.sp_at)
    _put(tp, f[33], T.tier_tgt)
    _put(tp, f[34], T.ev_tok)
    return tp


@nb.njit(cache=True, nogil=True)
def keep_alive_nb(a, b, c):
    """A use of the arrays ``a``, ``b``, ``c`` (numba frees a local after its last use):
    call it after the last use of views borrowed from them."""
    return a.size + b.size + c.size
