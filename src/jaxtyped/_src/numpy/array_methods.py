"""Implementations of ``Array``'s operators and methods (layer L5),
installed once at import (see Note [late-bound array methods] in
``core/array.py``)."""

from collections.abc import Callable, Sequence
from types import NotImplementedType
from typing import Final

import numpy as np
from typing_extensions import TypeIs

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike, install_array_methods
from jaxtyped._src.core.array_impl import ArrayImpl
from jaxtyped._src.numpy import reductions as red
from jaxtyped._src.numpy import shape_ops as sh
from jaxtyped._src.numpy import sorting as srt
from jaxtyped._src.numpy import ufuncs as uf
from jaxtyped._src.numpy.indexing import getitem
from jaxtyped._src.numpy.index_update import at as _at  # advanced indexing family
from jaxtyped._src.numpy import index_functions as _index_functions  # advanced indexing family
from jaxtyped._src.numpy import manipulation as _manip  # array manipulation family
from jaxtyped._src.numpy import statistics as _statistics  # math and statistics family

from jaxtyped._src.numpy.array_view import byteswap as _byteswap, view as _view  # lax extras family
from jaxtyped._src.errors import JaxtypedTypeError
from jaxtyped._src.state.types import accumulating_add  # refs family
from jaxtyped._src.runtime import xla

__all__ = ["install"]

_ARRAY_LIKE = (Array, np.ndarray, np.generic, bool, int, float, complex)

# What an operator method returns: NotImplemented lets Python try the other
# operand (and makes ``x == "a"`` False, as in JAX).
_Result = Array | tuple[Array, Array] | NotImplementedType
_Operator = Callable[[ArrayLike, ArrayLike], Array | tuple[Array, Array]]
_NOT_IMPLEMENTED: Final[NotImplementedType] = NotImplemented


def _is_array_like(x: object) -> TypeIs[ArrayLike]:
    return type(x) is ArrayImpl or isinstance(x, _ARRAY_LIKE)  # the first test skips the ABC check (issue 19)


def _binary(op: _Operator, reflected: bool) -> Callable[[Array, object], _Result]:
    return _reflected(op) if reflected else _forward(op)


def _forward(op: _Operator) -> Callable[[Array, object], _Result]:
    def method(self: Array, other: object) -> _Result:
        return op(self, other) if _is_array_like(other) else _NOT_IMPLEMENTED

    return method


def _reflected(op: _Operator) -> Callable[[Array, object], _Result]:
    def method(self: Array, other: object) -> _Result:
        return op(other, self) if _is_array_like(other) else _NOT_IMPLEMENTED

    return method


def _reshape(self: Array, *shape: int | Sequence[int], order: str = "C") -> Array:
    if len(shape) == 1 and not isinstance(shape[0], int):
        return sh.reshape(self, shape[0], order)
    return sh.reshape(self, [s for s in shape if isinstance(s, int)], order)


def _transpose(self: Array, *axes: int | Sequence[int] | None) -> Array:
    if not axes or (len(axes) == 1 and axes[0] is None):
        return sh.transpose(self)
    if len(axes) == 1 and not isinstance(axes[0], int):
        return sh.transpose(self, axes[0])
    return sh.transpose(self, [a for a in axes if isinstance(a, int)])


def _transpose_all(self: Array) -> Array:
    return sh.transpose(self)


def _real(self: Array) -> Array:
    return uf.real(self)


def _imag(self: Array) -> Array:
    return uf.imag(self)


def _astype(self: Array, dtype: "dtypes.DTypeLike", copy: bool = False, device: "xla.DeviceOrSharding | None" = None) -> Array:
    return _manip.astype(self, dtype, copy=copy, device=device)


def _compress_method(
    self: Array, condition: ArrayLike, axis: int | None = None, *, size: int | None = None,
    fill_value: ArrayLike = 0, out: None = None,
) -> Array:
    """``x.compress(condition)``: the array is the second argument of ``jnp.compress``."""
    return _index_functions.compress(condition, self, axis, size=size, fill_value=fill_value, out=out)


# math and statistics family: JAX's method signatures (no ``mean=``; ``round``
# takes ``out``).
def _var(
    self: Array,
    axis: "red.Axis" = None,
    dtype: "dtypes.DTypeLike | None" = None,
    out: None = None,
    ddof: int = 0,
    keepdims: bool = False,
    *,
    where: ArrayLike | None = None,
    correction: int | float | None = None,
) -> Array:
    return _statistics.var(self, axis, dtype, out, ddof, keepdims, where=where, correction=correction)


def _std(
    self: Array,
    axis: "red.Axis" = None,
    dtype: "dtypes.DTypeLike | None" = None,
    out: None = None,
    ddof: int = 0,
    keepdims: bool = False,
    *,
    where: ArrayLike | None = None,
    correction: int | float | None = None,
) -> Array:
    return _statistics.std(self, axis, dtype, out, ddof, keepdims, where=where, correction=correction)


def _round(self: Array, decimals: int = 0, out: None = None) -> Array:
    if out is not None:
        raise JaxtypedTypeError("Array.round: the out argument is not supported (arrays are immutable)")
    return uf.round(self, decimals)


def _round_builtin(self: Array, ndigits: int | None = None) -> Array:
    # Python's round(): round(x, n) is jnp.round; round(x) also converts to
    # the default integer type, as round(7.5) is an int (JAX's rule).
    rounded = uf.round(self, ndigits or 0)
    return rounded if ndigits is not None else _astype(rounded, int)


def _iadd(self: Array, other: object) -> _Result:
    # ref[idx] += v of a staged ref is one addupdate (Note [ref += is an
    # accumulation] in state/types.py); otherwise Python's fallback to +.
    total = accumulating_add(self, other)
    return _NOT_IMPLEMENTED if total is None else total


def install() -> None:
    """Install every late-bound ``Array`` method."""
    methods: dict[str, Callable[..., object]] = {
        "__getitem__": getitem,
        "__neg__": uf.negative,
        "__pos__": uf.positive,
        "__abs__": uf.abs,
        "__invert__": uf.invert,
        "__round__": _round_builtin,
        "T": _transpose_all,
        "reshape": _reshape,
        "transpose": _transpose,
        "astype": _astype,
        "sum": red.sum,
        "prod": red.prod,
        "mean": red.mean,
        "max": red.max,
        "min": red.min,
        "all": red.all,
        "any": red.any,
        "argmax": red.argmax,
        "argmin": red.argmin,
        "squeeze": sh.squeeze,
        "flatten": sh.ravel,
        "ravel": sh.ravel,
        "dot": sh.dot,
        "real": _real,
        "imag": _imag,
        "conj": uf.conjugate,
        "conjugate": uf.conjugate,
        # sorting family
        "sort": srt.sort,
        "argsort": srt.argsort,
        "cumsum": srt.cumsum,
        "cumprod": srt.cumprod,
        "searchsorted": srt.searchsorted,
        "argpartition": srt.argpartition,
        "__divmod__": _binary(uf.divmod, False),
        "__rdivmod__": _binary(uf.divmod, True),
        "at": _at,  # advanced indexing family
        "view": _view,  # lax extras family
        "byteswap": _byteswap,  # lax extras family
        "take": _index_functions.take,
        "nonzero": _index_functions.nonzero,
        "choose": _index_functions.choose,
        "compress": _compress_method,
        # array manipulation family
        "repeat": _manip.repeat,
        "diagonal": _manip.diagonal,
        "trace": _manip.trace,
        "swapaxes": sh.swapaxes,
        "copy": _manip.copy,
        "mT": _manip.matrix_transpose,
        # math and statistics family
        "var": _var,
        "std": _std,
        "ptp": _statistics.ptp,
        "round": _round,
        "clip": uf.clip,
        "__iadd__": _iadd,  # refs family (issue 16)
    }
    binary_ops: dict[str, Callable[[ArrayLike, ArrayLike], Array]] = {
        "add": uf.add,
        "sub": uf.subtract,
        "mul": uf.multiply,
        "truediv": uf.divide,
        "floordiv": uf.floor_divide,
        "mod": uf.remainder,
        "pow": uf.power,
        "matmul": sh.matmul,
        "and": uf.bitwise_and,
        "or": uf.bitwise_or,
        "xor": uf.bitwise_xor,
        "lshift": uf.left_shift,
        "rshift": uf.right_shift,
    }
    for name, op in binary_ops.items():
        methods[f"__{name}__"] = _binary(op, False)
        methods[f"__r{name}__"] = _binary(op, True)
    for name, op in {"lt": uf.less, "le": uf.less_equal, "gt": uf.greater, "ge": uf.greater_equal,
                     "eq": uf.equal, "ne": uf.not_equal}.items():
        methods[f"__{name}__"] = _binary(op, False)
    install_array_methods(methods)
