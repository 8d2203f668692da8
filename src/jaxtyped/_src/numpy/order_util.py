"""Ordering helpers for the statistics, set and interpolation functions of
``jaxtyped.numpy`` (layer L5): a stable sort (and its permutation) along
the last axis with NaNs last (``lax.sort``), and a gather along the last
axis.
"""

import numpy as np

from jaxtyped._src.core.array import Array
from jaxtyped._src.lax.gather import GatherDimensionNumbers, gather
from jaxtyped._src.lax.sorting import sort, sort_key_val
from jaxtyped._src.lax.structural import broadcasted_iota, expand_dims

__all__ = ["take_along_last", "argsort_last", "sort_last"]


def take_along_last(x: Array, indices: Array) -> Array:
    """``x[..., indices]`` row by row: ``x`` is ``B + (n,)``, ``indices``
    (integers in ``[0, n)``) ``B + (m,)``; the result is ``B + (m,)``."""
    batch = x.ndim - 1
    dnums = GatherDimensionNumbers(
        offset_dims=(),
        collapsed_slice_dims=(batch,),
        start_index_map=(batch,),
        operand_batching_dims=tuple(range(batch)),
        start_indices_batching_dims=tuple(range(batch)),
    )
    return gather(x, expand_dims(indices, (indices.ndim,)), dnums, (1,) * x.ndim, mode="clip")


def argsort_last(keys: Array) -> Array:
    """The stable ascending order of ``keys`` along the last axis (NaNs
    last), as int32 indices."""
    iota = broadcasted_iota(np.dtype(np.int32), keys.shape, keys.ndim - 1)
    return sort_key_val(keys, iota, dimension=-1)[1]


def sort_last(x: Array) -> Array:
    """``x`` sorted ascending along the last axis (NaNs last)."""
    return sort(x, dimension=-1)
