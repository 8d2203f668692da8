"""Counting functions of ``jaxtyped.numpy`` (layer L5): ``bincount``,
``histogram_bin_edges``, ``histogram``, ``histogram2d``, ``histogramdd``.

Counts are scatter-adds (``lax.scatter_add``), so they work under ``jit``
once their lengths are static (``bincount``'s ``length``, integer ``bins``).
"""

import builtins
import math
import operator
from collections.abc import Sequence
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.array_impl import ArrayImpl
from jaxtyped._src.errors import JaxtypedNotImplementedError, JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.lax.gather import ScatterDimensionNumbers, scatter_add
from jaxtyped._src.numpy import reductions as red
from jaxtyped._src.numpy import shape_ops as sh
from jaxtyped._src.numpy import ufuncs as uf
from jaxtyped._src.numpy.calculus import diff
from jaxtyped._src.numpy.creation import asarray, linspace, ones_like, zeros
from jaxtyped._src.numpy.sorting import searchsorted
from jaxtyped._src.numpy.promotion import asarray_operand, check_arraylike, promote_dtypes, to_inexact_dtype
from jaxtyped._src.util import is_int

__all__ = ["bincount", "histogram_bin_edges", "histogram", "histogram2d", "histogramdd"]

_ADD_AT = ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,))


def _add_at(length: int, indices: Array, updates: Array) -> Array:
    """``zeros(length).at[indices].add(updates)``, out-of-range indices dropped."""
    base = zeros((length,), dtype=updates.dtype)
    return scatter_add(base, sh.expand_dims(indices, -1), updates, _ADD_AT, mode="drop")


def bincount(x: ArrayLike, weights: ArrayLike | None = None, minlength: int = 0, *, length: int | None = None) -> Array:
    """Occurrences of each value of the non-negative integer array ``x``
    (weighted by ``weights``); ``length`` (required under ``jit``) fixes
    the output size, values past it are dropped."""
    values = asarray_operand("bincount", x)
    if dtypes.is_bool(values.dtype):
        values = convert_to(values, np.dtype(np.int32), weak_type=False)
    if not dtypes.is_integer(values.dtype):
        raise JaxtypedTypeError(f"jnp.bincount: x must have an integer dtype, got {values.aval.str_short()}")
    if values.ndim != 1:
        raise JaxtypedValueError(f"jnp.bincount: only 1-d input is supported, got {values.aval.str_short()}")
    minimum = _static_bin_count(minlength)
    if length is None:
        if not isinstance(values, ArrayImpl):
            raise JaxtypedTypeError(
                "jnp.bincount: the output length depends on the values of x, which are traced here; pass a static length="
            )
        host = np.asarray(values)
        length = max(minimum, int(max(0, host.max())) + 1 if host.size else 0)
    else:
        length = operator.index(length)
    if weights is None:
        counts = ones_like(values, dtype=dtypes.default_int_dtype())
    else:
        counts = asarray_operand("bincount", weights, 1)
        if counts.shape != values.shape:
            raise JaxtypedValueError(
                f"jnp.bincount: weights must have x's shape, got {counts.aval.str_short()} for {values.aval.str_short()}"
            )
        counts = convert_to(counts, counts.dtype, weak_type=False)
    return _add_at(length, uf.maximum(values, 0), counts)


def _ndim(x: object) -> int:
    return x.ndim if isinstance(x, Array) else int(np.ndim(cast("npt.ArrayLike", x)))


def _static_bin_count(value: object) -> int:
    if not is_int(value):
        raise JaxtypedTypeError(f"jnp.histogram: bins must be an integer or a 1-d array of edges, got {value!r}")
    return int(value)


def histogram_bin_edges(
    a: ArrayLike, bins: ArrayLike | str = 10, range: "Sequence[ArrayLike] | Array | None" = None, weights: ArrayLike | None = None  # noqa: A002 - NumPy's name
) -> Array:
    """The edges of the bins :func:`histogram` uses: ``bins`` given edges,
    or ``bins`` equal bins spanning ``range`` (default: the data's)."""
    if isinstance(bins, str):
        raise JaxtypedNotImplementedError("jnp.histogram_bin_edges: string values of bins are not supported")
    check_arraylike("histogram_bin_edges", a, bins)
    data = asarray(a)
    inexact = to_inexact_dtype(data.dtype)
    if _ndim(bins) == 1:
        return asarray(bins, dtype=inexact)
    count = _static_bin_count(bins)
    bounds = asarray([red.min(data), red.max(data)] if range is None else range, dtype=inexact)
    if bounds.shape != (2,):
        raise JaxtypedValueError(f"jnp.histogram_bin_edges: range must be None or a pair of scalars, got shape {bounds.shape}")
    degenerate = uf.equal(bounds[0], bounds[1])
    low = uf.where(degenerate, uf.subtract(bounds[0], 0.5), bounds[0])
    high = uf.where(degenerate, uf.add(bounds[1], 0.5), bounds[1])
    return linspace(low, high, count + 1, dtype=inexact)


def histogram(
    a: ArrayLike,
    bins: ArrayLike = 10,
    range: "Sequence[ArrayLike] | None" = None,  # noqa: A002 - NumPy's name
    weights: ArrayLike | None = None,
    density: bool | None = None,
) -> tuple[Array, Array]:
    """Counts (or weight sums, or a density) of ``a`` in each bin, and the
    bin edges; the last bin includes its right edge."""
    if weights is None:
        (data,) = promote_dtypes("histogram", (a,), inexact=True)
        w = ones_like(data)
    else:
        data, w = promote_dtypes("histogram", (a, weights), inexact=True)
        if data.shape != w.shape:
            raise JaxtypedValueError(f"jnp.histogram: weights must have a's shape, got {w.aval.str_short()} for {data.aval.str_short()}")
    edges = histogram_bin_edges(data, bins, range)
    flat = sh.ravel(data)
    index = searchsorted(edges, flat, side="right")
    index = uf.where(uf.equal(flat, edges[-1]), edges.shape[0] - 1, index)
    counts = _add_at(edges.shape[0], index, sh.ravel(w))[1:]
    if density:
        counts = uf.divide(uf.divide(counts, diff(edges)), red.sum(counts))
    return counts, edges


def histogramdd(
    sample: ArrayLike,
    bins: "ArrayLike | list[ArrayLike]" = 10,
    range: "Sequence[None | Array | Sequence[ArrayLike]] | None" = None,  # noqa: A002 - NumPy's name
    weights: ArrayLike | None = None,
    density: bool | None = None,
) -> tuple[Array, list[Array]]:
    """The ``D``-dimensional histogram of the ``(N, D)`` array ``sample``,
    and each dimension's bin edges."""
    if weights is None:
        (points,) = promote_dtypes("histogramdd", (sample,), inexact=True)
        w: Array | None = None
    else:
        points, w = promote_dtypes("histogramdd", (sample, weights), inexact=True)
        if w.shape != points.shape[:1]:
            raise JaxtypedValueError("jnp.histogramdd: there must be one weight for each sample")
    if points.ndim != 2:
        raise JaxtypedValueError(f"jnp.histogramdd: sample must be (N, D), got {points.aval.str_short()}")
    n, d = points.shape
    if range is not None and (len(range) != d or any(r is not None and len(r) != 2 for r in range)):
        raise JaxtypedValueError(f"jnp.histogramdd: range must be a sequence of {d} pairs or Nones")
    if isinstance(bins, (list, tuple)) or _ndim(bins) == 1 and not isinstance(bins, Array):
        per_dimension: list[Any] = list(cast("Sequence[ArrayLike]", bins))
        if len(per_dimension) != d:
            raise JaxtypedValueError("jnp.histogramdd: there must be a bins entry for each dimension")
    else:
        per_dimension = [bins] * d
    edges_by_dim: list[Array] = []
    flat_index: Array | None = None
    sizes: list[int] = []
    for i in builtins.range(d):
        column = points[:, i]
        edges = histogram_bin_edges(column, per_dimension[i], None if range is None else range[i])
        index = searchsorted(edges, column, side="right")
        index = uf.where(uf.equal(column, edges[-1]), uf.subtract(index, 1), index)
        size = edges.shape[0] + 1
        index = uf.clip(index, 0, size - 1)
        flat_index = index if flat_index is None else uf.add(uf.multiply(flat_index, size), index)
        sizes.append(size)
        edges_by_dim.append(edges)
    assert flat_index is not None
    counts = bincount(flat_index, w, length=math.prod(sizes))
    hist = sh.reshape(counts, sizes)[tuple(slice(1, -1) for _ in sizes)]
    if density:
        hist = convert_to(hist, points.dtype, weak_type=False)
        hist = uf.divide(hist, red.sum(hist))
        for axis, edges in enumerate(edges_by_dim):
            widths = diff(edges)
            hist = uf.divide(hist, sh.reshape(widths, [widths.shape[0] if j == axis else 1 for j in builtins.range(d)]))
    del n
    return hist, edges_by_dim


def histogram2d(
    x: ArrayLike,
    y: ArrayLike,
    bins: "ArrayLike | list[ArrayLike]" = 10,
    range: "Sequence[None | Array | Sequence[ArrayLike]] | None" = None,  # noqa: A002 - NumPy's name
    weights: ArrayLike | None = None,
    density: bool | None = None,
) -> tuple[Array, Array, Array]:
    """The 2-d histogram of the points ``(x, y)``, and the edges along x
    and along y."""
    first, second = asarray_operand("histogram2d", x), asarray_operand("histogram2d", y, 1)
    sample = sh.stack([first, second], axis=1)
    if isinstance(bins, (list, tuple)) and len(bins) == 2:
        per_dimension: "ArrayLike | list[ArrayLike]" = list(bins)
    elif _ndim(bins) == 1 and not isinstance(bins, list):
        per_dimension = [bins, bins]
    else:
        per_dimension = bins
    hist, edges = histogramdd(sample, per_dimension, range, weights, density)
    return hist, edges[0], edges[1]
