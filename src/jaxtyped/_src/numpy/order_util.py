"""Ordering helpers for the statistics, set and interpolation functions of
``jaxtyped.numpy`` (layer L5): a stable sort along the last axis with NaNs
last, ``searchsorted``-style counts, and a gather along the last axis.

Sorting is ``lax.sort`` (stable, NaNs last); the counts are pairwise
comparisons, quadratic in the sizes, meant for the knots of ``interp`` and
the edges of histograms.
"""

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array
from jaxtyped._src.lax import comparison as lcmp
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.lax.gather import GatherDimensionNumbers, gather
from jaxtyped._src.lax.reductions import reduce_sum
from jaxtyped._src.lax.sorting import sort, sort_key_val
from jaxtyped._src.lax.structural import broadcasted_iota, expand_dims
from jaxtyped._src.numpy import ufuncs as uf
from jaxtyped._src.numpy.promotion import broadcast_to_shape

__all__ = ["take_along_last", "argsort_last", "sort_last", "count_less", "count_less_equal"]


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


def _less(a: Array, b: Array) -> Array:
    """``a < b`` in an order where NaNs come after everything (and compare
    equal to each other)."""
    if not dtypes.is_inexact(a.dtype):
        return lcmp.lt(a, b)
    return lcmp.bitwise_or(lcmp.lt(a, b), lcmp.bitwise_and(lcmp.bitwise_not(uf.isnan(a)), uf.isnan(b)))


def _count(mask: Array) -> Array:
    int32 = np.dtype(np.int32)
    return reduce_sum(convert_to(mask, int32, weak_type=False), (mask.ndim - 1,))


def argsort_last(keys: Array) -> Array:
    """The stable ascending order of ``keys`` along the last axis (NaNs
    last), as int32 indices."""
    iota = broadcasted_iota(np.dtype(np.int32), keys.shape, keys.ndim - 1)
    return sort_key_val(keys, iota, dimension=-1)[1]


def sort_last(x: Array) -> Array:
    """``x`` sorted ascending along the last axis (NaNs last)."""
    return sort(x, dimension=-1)


def _pairs(row: Array, values: Array) -> tuple[Array, Array]:
    shape = (*values.shape, row.shape[0])
    return (
        broadcast_to_shape(expand_dims(row, tuple(range(values.ndim))), shape),
        broadcast_to_shape(expand_dims(values, (values.ndim,)), shape),
    )


def count_less(sorted_row: Array, values: Array) -> Array:
    """For each of ``values`` (any shape), how many elements of the 1-d
    ``sorted_row`` are smaller (``searchsorted(side='left')``)."""
    row, value = _pairs(sorted_row, values)
    return _count(_less(row, value))


def count_less_equal(sorted_row: Array, values: Array) -> Array:
    """For each of ``values``, how many elements of the 1-d ``sorted_row``
    are smaller or equal (``searchsorted(side='right')``)."""
    row, value = _pairs(sorted_row, values)
    return _count(lcmp.bitwise_not(_less(value, row)))
