"""``Array.view`` and ``Array.byteswap`` (layer L5), on top of
``lax.bitcast_convert_type``: bool and complex values, which the
primitive does not reinterpret, go through uint8 and pairs of floats."""

from typing import Any

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array
from jaxtyped._src.errors import JaxtypedNotImplementedError, JaxtypedValueError
from jaxtyped._src.lax.bitwise_misc import bitcast_convert_type
from jaxtyped._src.lax.comparison import ne
from jaxtyped._src.lax.complex_ops import complex as make_complex
from jaxtyped._src.lax.complex_ops import imag, real
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.lax.structural import concatenate, expand_dims, reshape, rev
from jaxtyped._src.lax.convenience import index_in_dim
from jaxtyped._src.lax.util import scalar_like

__all__ = ["view", "byteswap"]


def _component(dtype: np.dtype[Any]) -> np.dtype[Any]:
    return np.dtype(np.float64) if dtype == np.dtype(np.complex128) else np.dtype(np.float32)


def _bitcast(x: Array, target: np.dtype[Any]) -> Array:
    """Bits of ``x`` (no bool, no complex) as ``target`` along the last
    axis, whose length scales by the width ratio."""
    old, new = x.dtype.itemsize, target.itemsize
    if old == new:
        return bitcast_convert_type(x, target)
    if old > new:
        wide = bitcast_convert_type(x, target)
        return reshape(wide, (*x.shape[:-1], x.shape[-1] * (old // new)))
    ratio = new // old
    return bitcast_convert_type(reshape(x, (*x.shape[:-1], x.shape[-1] // ratio, ratio)), target)


def view(self: Array, dtype: "dtypes.DTypeLike | None" = None, type: object = None) -> Array:  # noqa: A002 - NumPy's name
    """JAX's ``Array.view``; ``type`` is typed ``object`` here so that a
    given one reaches JAX's NotImplementedError (also under debug mode)."""
    if type is not None:
        raise JaxtypedNotImplementedError("`type` argument of array.view() is not supported.")
    if dtype is None:
        return self
    target = dtypes.canonicalize_dtype(dtypes.dtype(dtype))
    if target == self.dtype:
        return self
    if self.ndim == 0:
        if target.itemsize != self.dtype.itemsize:
            raise JaxtypedValueError("view() of a 0d array is only supported if the itemsize is unchanged.")
        return reshape(view(reshape(self, (1,)), target), ())
    if target.itemsize > self.dtype.itemsize and (self.shape[-1] * self.dtype.itemsize) % target.itemsize:
        raise JaxtypedValueError(
            "When changing to a larger dtype, its size must be a divisor of the total size in bytes of the last "
            f"axis of the array (view of {self.aval.str_short()} as {target.name})."
        )
    x = self
    if dtypes.is_bool(x.dtype):
        x = convert_to(x, np.dtype(np.uint8), weak_type=False)
    elif dtypes.is_complex(x.dtype):
        parts = concatenate([expand_dims(real(x), (x.ndim,)), expand_dims(imag(x), (x.ndim,))], x.ndim)
        x = reshape(parts, (*x.shape[:-1], 2 * x.shape[-1]))
    if dtypes.is_bool(target):
        return ne(_bitcast(x, np.dtype(np.uint8)), scalar_like(0, np.dtype(np.uint8), "view", weak_type=False))
    if dtypes.is_complex(target):
        floats = _bitcast(x, _component(target))
        pairs = reshape(floats, (*floats.shape[:-1], floats.shape[-1] // 2, 2))
        last = pairs.ndim - 1
        return make_complex(index_in_dim(pairs, 0, last, False), index_in_dim(pairs, 1, last, False))
    return _bitcast(x, target)


def byteswap(self: Array) -> Array:
    """The elements with their bytes reversed (JAX's ``Array.byteswap``)."""
    if self.dtype.itemsize == 1:
        return self
    if dtypes.is_complex(self.dtype):  # each part on its own, as NumPy and JAX
        return make_complex(byteswap(real(self)), byteswap(imag(self)))
    as_bytes = view(expand_dims(self, (self.ndim,)), np.dtype(np.uint8))
    return reshape(view(rev(as_bytes, (as_bytes.ndim - 1,)), self.dtype), self.shape)
