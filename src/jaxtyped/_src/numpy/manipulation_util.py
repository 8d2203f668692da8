"""Helpers shared by the array manipulation modules of ``jaxtyped.numpy``
(layer L5): static arguments read from the host, slices along one axis,
gathers with known indices, zeros and repeated slices."""

from collections.abc import Sequence
from typing import Any

import numpy as np

from jaxtyped._src.core.array import Array
from jaxtyped._src.core.array_impl import ArrayImpl
from jaxtyped._src.errors import ConcretizationTypeError, JaxtypedTypeError
from jaxtyped._src.lax import structural as ls
from jaxtyped._src.lax.gather import GatherDimensionNumbers, gather
from jaxtyped._src.lax.slicing import slice_in_dim
from jaxtyped._src.numpy.creation import asarray

__all__ = ["concrete_host", "int_host", "along", "take_static", "take_indices", "zeros_of", "repeat_slice"]


def concrete_host(name: str, what: str, value: object) -> np.ndarray[Any, np.dtype[Any]]:
    """A static argument (counts, indices, widths) as a NumPy array; a
    traced array raises the concretization error JAX raises."""
    if isinstance(value, Array):
        if not isinstance(value, ArrayImpl):
            raise ConcretizationTypeError(
                f"jnp.{name}: {what} must be concrete (a static value), got a traced array {value.aval.str_short()}"
            )
        return np.asarray(value)
    return np.asarray(value)


def int_host(name: str, what: str, value: object) -> np.ndarray[Any, np.dtype[Any]]:
    """A static integer argument (or integers) as an int64 NumPy array."""
    host = concrete_host(name, what, value)
    if host.dtype.kind not in "iub" and host.size:
        raise JaxtypedTypeError(f"jnp.{name}: {what} must be integers, got {value!r}")
    return host.astype(np.int64)


def along(x: Array, axis: int, start: int, stop: int, step: int = 1) -> Array:
    """The static slice ``start:stop:step`` of ``x`` along ``axis``."""
    return slice_in_dim(x, start, stop, step, axis)


def take_static(x: Array, indices: Sequence[int] | np.ndarray[Any, np.dtype[Any]], axis: int) -> Array:
    """``x`` indexed along ``axis`` by known indices (a gather, whose
    transpose is a scatter-add)."""
    idx = np.asarray(indices, dtype=np.int32).reshape(-1, 1)
    return take_indices(x, asarray(idx), axis)


def take_indices(x: Array, idx: Array, axis: int) -> Array:
    """``x`` indexed along ``axis`` by an int32 array of shape ``(m, 1)``."""
    dnums = GatherDimensionNumbers(
        offset_dims=tuple(i for i in range(x.ndim) if i != axis), collapsed_slice_dims=(axis,), start_index_map=(axis,)
    )
    sizes = tuple(1 if i == axis else d for i, d in enumerate(x.shape))
    return gather(x, idx, dnums, sizes, mode="clip")


def zeros_of(x: Array) -> Array:
    """Zeros of ``x``'s type (weak type included)."""
    return ls.full_like_aval(x.aval, 0)


def repeat_slice(piece: Array, axis: int, count: int) -> Array:
    """A size-1 slice along ``axis`` repeated ``count`` times."""
    shape = tuple(count if i == axis else d for i, d in enumerate(piece.shape))
    return ls.broadcast_in_dim(ls.squeeze(piece, (axis,)), shape, tuple(i for i in range(piece.ndim) if i != axis))
