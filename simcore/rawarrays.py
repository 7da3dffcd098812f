"""Raw array tools for the compiled hot loops, shared by the games' kernels: the same
numbers, without numba's reference counting or allocations.

numba keeps a reference count on every array it allocates and increments / decrements it
(an atomic operation) whenever the array is bound to a new variable, which includes every
argument of every inlined helper. An array made by ``nb.carray`` from a raw address owns
no memory, so numba counts nothing on it:

- ``borrow(a)``: a view of a C-contiguous array from its address; the caller keeps ``a``
  alive while the view is used (an argument of the running function is);
- ``stack_array_i64(N)`` / ``stack_array_f64(N)`` (``N`` a compile-time constant): an
  array of N items on the calling function's stack (an ``alloca`` in its entry block),
  freed when it returns; like ``np.empty``, its items start undefined;
- ``raw_view(a)``: ``borrow`` for functions compiled without reference counting;
- ``copy_items`` / ``copy_span``: a slice copy as one ``memcpy``.

Only reads and writes through the views happen: nothing is copied, so a kernel computes
exactly what it computed before.
"""
from __future__ import annotations

import numba as nb
from numba.core import cgutils, types
from numba.extending import intrinsic


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


@intrinsic
def copy_span(typingctx, dst, src, start, n):
    """``dst[start:start + n] = src[start:start + n]`` as one ``memcpy`` (``copy_items``
    from an offset)."""
    if not (isinstance(dst, types.Array) and isinstance(src, types.Array) and dst.dtype == src.dtype
            and dst.layout == "C" and src.layout == "C" and isinstance(start, types.Integer)
            and isinstance(n, types.Integer)):
        return None
    sig = types.void(dst, src, start, n)

    def codegen(context, builder, sig, args):
        d = context.make_array(sig.args[0])(context, builder, args[0])
        s = context.make_array(sig.args[1])(context, builder, args[1])
        size = context.get_abi_sizeof(context.get_data_type(sig.args[0].dtype))
        off = context.cast(builder, args[2], sig.args[2], types.intp)
        cgutils.raw_memcpy(builder, builder.gep(d.data, [off]), builder.gep(s.data, [off]), args[3], size)
        return context.get_dummy_value()
    return sig, codegen


@nb.njit(cache=True, nogil=True, inline="always")
def borrow(a):
    return nb.carray(_data_pointer(a), a.shape)


# ---------------------------------------------------------------- without reference counting
# ``borrow`` and ``nb.carray`` are compiled functions that return a new array, which numba
# refuses in a function compiled with ``_nrt=False`` (no reference counting at all). The two
# intrinsics below build the same array structures (null meminfo) in the caller's own code,
# so such functions can make their views and stack buffers themselves.

def _null_meminfo_array(context, builder, aryty, data, shape, strides, itemsize):
    from numba.np.arrayobj import populate_array

    out = context.make_array(aryty)(context, builder)
    populate_array(out, data=data, shape=shape, strides=strides, itemsize=itemsize, meminfo=None)
    return out._getvalue()


@intrinsic
def raw_view(typingctx, a):
    """``borrow(a)`` as an intrinsic: the same data, shape and strides, no meminfo (any
    array type)."""
    if not isinstance(a, types.Array):
        return None
    sig = a(a)

    def codegen(context, builder, sig, args):
        src = context.make_array(sig.args[0])(context, builder, args[0])
        return _null_meminfo_array(context, builder, sig.return_type, src.data, src.shape, src.strides,
                                   src.itemsize)
    return sig, codegen


def _stack_array(dtype):
    @intrinsic
    def buffer(typingctx, n):
        if not isinstance(n, types.IntegerLiteral):
            return None
        size = n.literal_value
        aryty = types.Array(dtype, 1, "C")
        sig = aryty(n)

        def codegen(context, builder, sig, args):
            item = context.get_abi_sizeof(context.get_data_type(dtype))
            ptr = cgutils.alloca_once(builder, context.get_data_type(dtype),
                                      size=context.get_constant(types.intp, size))
            intp = context.get_value_type(types.intp)
            return _null_meminfo_array(context, builder, aryty, ptr, [intp(size)], [intp(item)], item)
        return sig, codegen
    return buffer


stack_array_i64 = _stack_array(types.int64)   # stack_array_i64(N): int64[N] on the calling function's stack
stack_array_f64 = _stack_array(types.float64)  # likewise float64[N] (items start undefined, as np.empty)
