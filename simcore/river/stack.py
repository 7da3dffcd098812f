"""Arrays without reference counting for the river's hot paths: the same numbers, fewer
atomic operations.

numba keeps a reference count on every array it allocates and increments / decrements
it (an atomic operation) whenever a view of it is made or bound to an argument of a
helper, inlined or not. The heuristic takes a dozen views of its workspace and hands
them to helpers at every card it evaluates. An array made by ``nb.carray`` from a raw
address owns no memory, so numba counts nothing on it:

- ``nb.carray(stack_i64(N), N)`` / ``stack_f64`` (``N`` a compile-time constant): a
  buffer of N items on the calling function's stack (an ``alloca`` in its entry block),
  freed when it returns; like ``np.empty``, its items start undefined.
- ``borrow(a)``: a view of a C-contiguous 1-d array from its address; the caller keeps
  ``a`` alive while the view is used (an argument of the running function is).
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


def _stack_buffer(dtype):
    @intrinsic
    def buffer(typingctx, n):
        if not isinstance(n, types.IntegerLiteral):
            return None
        size = n.literal_value
        sig = types.CPointer(dtype)(n)

        def codegen(context, builder, sig, args):
            return cgutils.alloca_once(builder, context.get_data_type(dtype),
                                       size=context.get_constant(types.intp, size))
        return sig, codegen
    return buffer


stack_i64 = _stack_buffer(types.int64)      # nb.carray(stack_i64(N), N): int64[N] on the stack
stack_f64 = _stack_buffer(types.float64)    # likewise float64[N]


@nb.njit(cache=True, nogil=True, inline="always")
def borrow(a):
    return nb.carray(_data_pointer(a), a.shape)
