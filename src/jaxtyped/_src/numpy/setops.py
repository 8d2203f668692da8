"""Set operations of ``jaxtyped.numpy`` (layer L5): ``isin``,
``union1d``, ``intersect1d``, ``setdiff1d``, ``setxor1d``.

Results are sorted unique values whose number depends on the data: with
concrete inputs it is read off them; under ``jit`` (or ``vmap``) pass a
static ``size=`` (missing entries are ``fill_value``, by default JAX's:
the smallest value for ``union1d``/``intersect1d``/``setxor1d``, 0 for
``setdiff1d``).
"""

import operator
from typing import Literal, overload

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.array_impl import ArrayImpl
from jaxtyped._src.errors import JaxtypedTypeError
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.lax.structural import broadcasted_iota
from jaxtyped._src.numpy import reductions as red
from jaxtyped._src.numpy import shape_ops as sh
from jaxtyped._src.numpy import ufuncs as uf
from jaxtyped._src.numpy.creation import asarray, full
from jaxtyped._src.numpy.order_util import sort_last, take_along_last
from jaxtyped._src.numpy.sorting import searchsorted
from jaxtyped._src.lax.cumulative import cumsum
from jaxtyped._src.lax.gather import ScatterDimensionNumbers, scatter
from jaxtyped._src.numpy.promotion import asarray_operand, promote_dtypes

__all__ = ["isin", "union1d", "intersect1d", "setdiff1d", "setxor1d"]

_INT32 = np.dtype(np.int32)
_PLACE = ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,))


def _same(a: Array, b: Array) -> Array:
    """Equality in which NaNs equal each other (NumPy's ``equal_nan``)."""
    equal = uf.equal(a, b)
    if dtypes.is_inexact(a.dtype):
        equal = uf.logical_or(equal, uf.logical_and(uf.isnan(a), uf.isnan(b)))
    return equal


def _contains(values: Array, pool: Array) -> Array:
    """For each of ``values``, whether the 1-d ``pool`` holds it (a binary
    search in the sorted pool; NaN is never found, as ``==`` says)."""
    n = pool.shape[0]
    if n == 0:
        return full(values.shape, False)
    ordered = sort_last(pool)
    where_ = uf.minimum(searchsorted(ordered, values), n - 1)
    candidate = sh.reshape(take_along_last(ordered, convert_to(sh.ravel(where_), _INT32, weak_type=False)), values.shape)
    return uf.equal(candidate, values)


def isin(element: ArrayLike, test_elements: ArrayLike, assume_unique: bool = False, invert: bool = False, *, method: str = "auto") -> Array:
    """Whether each element of ``element`` occurs in ``test_elements``
    (negated with ``invert``)."""
    x = asarray_operand("isin", element)
    pool = sh.ravel(asarray_operand("isin", test_elements, 1))
    found = _contains(x, pool)
    return uf.logical_not(found) if invert else found


def _first_of_runs(s: Array) -> Array:
    """Where each run of equal values of the sorted 1-d ``s`` starts."""
    if s.shape[0] == 0:
        return full((0,), True)
    later = _same(s[1:], s[:-1])
    return sh.concatenate([full((1,), True), uf.logical_not(later)])


def _static_size(name: str, size: int | None) -> int | None:
    if size is None:
        return None
    try:
        return operator.index(size)
    except TypeError:
        raise JaxtypedTypeError(f"jnp.{name}: size must be a static integer, got {size!r}") from None


def _selected(name: str, keep: Array, size: int | None) -> tuple[Array, Array]:
    """(indices of the kept elements, padded with ``keep.shape[0]``; whether
    each output slot holds one): all of them for concrete ``keep``, the
    first ``size`` otherwise."""
    n = keep.shape[0]
    if size is None:
        if not isinstance(keep, ArrayImpl):
            raise JaxtypedTypeError(
                f"jnp.{name}: the number of results depends on traced values; pass a static size= (and fill_value=)"
            )
        chosen = np.nonzero(np.asarray(keep))[0].astype(np.int32)
        return asarray(chosen), full(chosen.shape, True)
    if n == 0:
        return full((size,), 0, dtype=_INT32), full((size,), False)
    # Each kept element goes to the slot of its rank among the kept; the
    # others (and those past ``size``) are dropped by the scatter.
    rank = cumsum(convert_to(keep, _INT32, weak_type=False), axis=0)  # 1-based
    slot = uf.where(keep, uf.subtract(rank, 1), size)
    positions = broadcasted_iota(_INT32, (n,), 0)
    index = scatter(full((size,), n, dtype=_INT32), sh.expand_dims(slot, -1), positions, _PLACE, mode="drop")
    return index, uf.less(index, n)


def _gather(values: Array, index: Array) -> Array:
    if values.shape[0] == 0:
        return full(index.shape, 0, dtype=values.dtype)
    return take_along_last(values, index)


def _finish(values: Array, filled: Array, fill_value: ArrayLike | None, default: str) -> Array:
    """Fill the empty slots: with ``fill_value``, 0, or the smallest value
    (NaN for ``nan_or_min`` when a result is NaN)."""
    if fill_value is not None:
        fill = convert_to(asarray_operand("fill_value", fill_value), values.dtype, weak_type=False)
        return uf.where(filled, values, fill)
    zero = convert_to(asarray(0), values.dtype, weak_type=values.weak_type)
    if default == "zero" or values.shape[0] == 0:
        return uf.where(filled, values, zero)
    # The smallest result is the first (results are sorted); 0 if there is none.
    first_filled, first_value = filled[0], values[0]
    smallest = uf.where(first_filled, first_value, zero)
    if default == "nan_or_min" and dtypes.is_inexact(values.dtype):
        # JAX's setxor1d pads through max() then min() of its results: NaN
        # as soon as one result is NaN.
        smallest = uf.where(red.any(uf.logical_and(filled, uf.isnan(values))), float("nan"), smallest)
    return uf.where(filled, values, smallest)


def _sorted_unique_candidates(*arrays: Array) -> tuple[Array, Array]:
    """The sorted concatenation of ``arrays`` and where its distinct values start."""
    joined = arrays[0] if len(arrays) == 1 else sh.concatenate(list(arrays))
    s = sort_last(joined) if joined.shape[0] > 1 else joined
    return s, _first_of_runs(s)


def union1d(ar1: ArrayLike, ar2: ArrayLike, *, size: int | None = None, fill_value: ArrayLike | None = None) -> Array:
    """The sorted unique values of ``ar1`` and ``ar2`` together."""
    a, b = promote_dtypes("union1d", (asarray_operand("union1d", ar1), asarray_operand("union1d", ar2, 1)))
    joined = convert_to(sh.concatenate([sh.ravel(a), sh.ravel(b)]), a.dtype, weak_type=a.weak_type)
    s, first = _sorted_unique_candidates(joined)
    index, filled = _selected("union1d", first, _static_size("union1d", size))
    return _finish(_gather(s, index), filled, fill_value, "min")


def setdiff1d(
    ar1: ArrayLike, ar2: ArrayLike, assume_unique: bool = False, *, size: int | None = None, fill_value: ArrayLike | None = None
) -> Array:
    """The sorted unique values of ``ar1`` that are not in ``ar2`` (in
    ``ar1``'s dtype)."""
    a, b = sh.ravel(asarray_operand("setdiff1d", ar1)), sh.ravel(asarray_operand("setdiff1d", ar2, 1))
    s, first = _sorted_unique_candidates(a)
    keep = uf.logical_and(first, uf.logical_not(_contains(s, b)))
    index, filled = _selected("setdiff1d", keep, _static_size("setdiff1d", size))
    return _finish(_gather(s, index), filled, fill_value, "zero")


def setxor1d(
    ar1: ArrayLike, ar2: ArrayLike, assume_unique: bool = False, *, size: int | None = None, fill_value: ArrayLike | None = None
) -> Array:
    """The sorted unique values in exactly one of ``ar1`` and ``ar2``."""
    a, b = promote_dtypes("setxor1d", (sh.ravel(asarray_operand("setxor1d", ar1)), sh.ravel(asarray_operand("setxor1d", ar2, 1))))
    s, first = _sorted_unique_candidates(a, b)
    keep = uf.logical_and(first, uf.not_equal(_contains(s, a), _contains(s, b)))
    if dtypes.is_inexact(s.dtype) and s.shape[0]:
        # NaN != NaN, so (as in JAX) each input holding a NaN contributes
        # one NaN to the result; NaNs sort last, so they are the last ones.
        nan = uf.isnan(s)
        sources = uf.add(convert_to(red.any(uf.isnan(a)), _INT32, weak_type=False), convert_to(red.any(uf.isnan(b)), _INT32, weak_type=False))
        nth_nan = cumsum(convert_to(nan, _INT32, weak_type=False), axis=0)
        keep = uf.where(nan, uf.less_equal(nth_nan, sources), keep)
    index, filled = _selected("setxor1d", keep, _static_size("setxor1d", size))
    return _finish(_gather(s, index), filled, fill_value, "nan_or_min")


def _first_index(pool: Array, values: Array, filled: Array) -> Array:
    """For each of ``values`` (known to be in ``pool``), the index of its
    first occurrence in ``pool``; ``pool.size`` for unfilled slots."""
    n = pool.shape[0]
    if n == 0:
        return full(values.shape, 0, dtype=_INT32)
    hits = _same(sh.expand_dims(values, -1), pool)
    first = red.argmax(hits, axis=-1)
    return uf.where(filled, convert_to(first, _INT32, weak_type=False), n)


@overload
def intersect1d(
    ar1: ArrayLike,
    ar2: ArrayLike,
    assume_unique: bool = False,
    return_indices: Literal[False] = False,
    *,
    size: int | None = None,
    fill_value: ArrayLike | None = None,
) -> Array: ...
@overload
def intersect1d(
    ar1: ArrayLike,
    ar2: ArrayLike,
    assume_unique: bool,
    return_indices: Literal[True],
    *,
    size: int | None = None,
    fill_value: ArrayLike | None = None,
) -> tuple[Array, Array, Array]: ...
@overload
def intersect1d(
    ar1: ArrayLike,
    ar2: ArrayLike,
    assume_unique: bool = False,
    *,
    return_indices: Literal[True],
    size: int | None = None,
    fill_value: ArrayLike | None = None,
) -> tuple[Array, Array, Array]: ...
@overload
def intersect1d(
    ar1: ArrayLike,
    ar2: ArrayLike,
    assume_unique: bool = False,
    return_indices: bool = False,
    *,
    size: int | None = None,
    fill_value: ArrayLike | None = None,
) -> Array | tuple[Array, Array, Array]: ...
def intersect1d(
    ar1: ArrayLike,
    ar2: ArrayLike,
    assume_unique: bool = False,
    return_indices: bool = False,
    *,
    size: int | None = None,
    fill_value: ArrayLike | None = None,
) -> Array | tuple[Array, Array, Array]:
    """The sorted unique values in both ``ar1`` and ``ar2``; with
    ``return_indices``, also where each first occurs in ``ar1`` and in
    ``ar2``."""
    a, b = promote_dtypes("intersect1d", (asarray_operand("intersect1d", ar1), asarray_operand("intersect1d", ar2, 1)))
    a, b = sh.ravel(a), sh.ravel(b)
    s, first = _sorted_unique_candidates(a, b)
    keep = uf.logical_and(first, uf.logical_and(_contains(s, a), _contains(s, b)))
    index, filled = _selected("intersect1d", keep, _static_size("intersect1d", size))
    values = _finish(_gather(s, index), filled, fill_value, "min")
    if not return_indices:
        return values
    raw = _gather(s, index)
    return values, _first_index(a, raw, filled), _first_index(b, raw, filled)
