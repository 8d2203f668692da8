"""Sorting, searching, cumulative and set functions of ``jaxtyped.numpy``
(layer L5), with JAX's semantics.

Everything is built on the ``sort``, ``top_k`` and cumulative primitives
(``_src/lax/sorting.py``, ``_src/lax/cumulative.py``). Orders are
``lax.sort``'s: NaNs last, ``-0.0`` equal to ``0.0``, complex numbers by
real then imaginary part. ``unique`` and friends need the number of
distinct values, so under ``jit`` they need ``size=`` (as in JAX; without
it the count is a traced value and raises a concretization error).
"""

from collections.abc import Callable, Sequence
from typing import Any, Literal, NamedTuple, overload

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.interpreter import bind
from jaxtyped._src.errors import JaxtypedNotImplementedError, JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.lax import arithmetic as la
from jaxtyped._src.lax import comparison as lc
from jaxtyped._src.lax import complex_ops as lcx
from jaxtyped._src.lax import cumulative as lcum
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.lax.gather import ScatterDimensionNumbers, scatter
from jaxtyped._src.lax.reductions import reduce_max, reduce_sum
from jaxtyped._src.lax.slicing import slice_in_dim
from jaxtyped._src.lax.sorting import Sort, take_along_dimension, top_k
from jaxtyped._src.lax.structural import (
    broadcast_in_dim,
    broadcasted_iota,
    concatenate,
    full_like_aval,
    moveaxis,
    reshape,
    rev,
    select_n,
)
from jaxtyped._src.lax.util import scalar_like
from jaxtyped._src.numpy.promotion import asarray_operand, check_arraylike, promote_dtypes
from jaxtyped._src.numpy.reductions import accumulation_dtype
from jaxtyped._src.util import canonicalize_axis, is_int

__all__ = [
    "sort", "argsort", "lexsort", "sort_complex", "partition", "argpartition", "searchsorted", "digitize",
    "cumsum", "cumprod", "cumulative_sum", "cumulative_prod", "nancumsum", "nancumprod",
    "unique", "unique_values", "unique_counts", "unique_inverse", "unique_all",
    "UniqueAllResult", "UniqueCountsResult", "UniqueInverseResult",
]  # fmt: skip

# === helpers ===


def _static_int(name: str, param: str, value: object) -> int:
    if not is_int(value):
        raise JaxtypedTypeError(f"jnp.{name}: {param} must be an int, got {value!r}")
    return int(value)


def _static_bool(name: str, param: str, value: bool) -> bool:
    # Static flags: anything with a truth value, as in JAX (a traced one
    # raises the concretization error).
    return bool(value)


def _flat_or_axis(name: str, x: Array, axis: int | None) -> tuple[Array, int]:
    """``x`` and a canonical axis; ``axis=None`` flattens ``x`` first."""
    if axis is None:
        return reshape(x, (x.size,)), 0
    return x, canonicalize_axis(_static_int(name, "axis", axis), x.ndim, where=f"jnp.{name} axis")


def _index_dtype() -> np.dtype[Any]:
    return dtypes.default_int_dtype()


def _no_kind_or_order(name: str, kind: None, order: None) -> None:
    if kind is not None:
        raise JaxtypedTypeError(
            f"jnp.{name}: the 'kind' argument is not supported; use stable=True or stable=False"
        )
    if order is not None:
        raise JaxtypedTypeError(f"jnp.{name}: the 'order' argument is not supported")


def _sort_with_indices(x: Array, axis: int, index_dtype: np.dtype[Any], *, stable: bool = True) -> tuple[Array, Array]:
    """``x`` sorted along ``axis`` and the permutation that sorts it."""
    iota = broadcasted_iota(index_dtype, x.shape, axis)
    values, perm = bind(Sort(axis, stable, 1), x, iota)
    return values, perm


def _take_1d(x: Array, indices: Array) -> Array:
    return take_along_dimension(x, indices, 0)


def _int_const(value: int, dtype: np.dtype[Any]) -> Array:
    return scalar_like(value, dtype, "jnp", weak_type=False)


def _full(shape: tuple[int, ...], value: bool | int | float, dtype: np.dtype[Any]) -> Array:
    from jaxtyped._src.core.avals import ShapedArray

    return full_like_aval(ShapedArray(shape, dtype), value)


def _where(mask: Array, on_true: Array, on_false: Array) -> Array:
    return select_n(mask, on_false, on_true)


# === sort, argsort, lexsort, sort_complex ===


def sort(
    a: ArrayLike,
    axis: int | None = -1,
    *,
    kind: None = None,
    order: None = None,
    stable: bool = True,
    descending: bool = False,
) -> Array:
    """A sorted copy of ``a`` along ``axis`` (flattened for ``None``);
    NaNs last (first when ``descending``)."""
    x = asarray_operand("sort", a)
    _no_kind_or_order("sort", kind, order)
    x, ax = _flat_or_axis("sort", x, axis)
    stable_ = _static_bool("sort", "stable", stable)
    (result,) = bind(Sort(ax, stable_, 1), x)
    return rev(result, (ax,)) if _static_bool("sort", "descending", descending) else result


def argsort(
    a: ArrayLike,
    axis: int | None = -1,
    *,
    kind: None = None,
    order: None = None,
    stable: bool = True,
    descending: bool = False,
    dtype: "dtypes.DTypeLike | None" = None,
) -> Array:
    """Indices that sort ``a`` along ``axis`` (flattened for ``None``);
    a stable descending sort keeps equal elements in their order."""
    x = asarray_operand("argsort", a)
    _no_kind_or_order("argsort", kind, order)
    x, ax = _flat_or_axis("argsort", x, axis)
    index_dtype = _index_dtype() if dtype is None else dtypes.canonicalize_dtype(dtypes.dtype(dtype))
    stable_ = _static_bool("argsort", "stable", stable)
    descending_ = _static_bool("argsort", "descending", descending)
    iota = broadcasted_iota(index_dtype, x.shape, ax)
    if descending_ and stable_:
        x, iota = rev(x, (ax,)), rev(iota, (ax,))
    _, indices = bind(Sort(ax, stable_, 1), x, iota)
    return rev(indices, (ax,)) if descending_ else indices


def lexsort(keys: ArrayLike | Sequence[ArrayLike], axis: int = -1) -> Array:
    """Indices that sort by several keys, the LAST key primary (NumPy's
    order), along ``axis``."""
    if isinstance(keys, (Array, np.ndarray)):
        arrays = [asarray_operand("lexsort", keys[i]) for i in range(np.shape(keys)[0])]
    elif isinstance(keys, Sequence):
        check_arraylike("lexsort", *keys)
        arrays = [asarray_operand("lexsort", k, i) for i, k in enumerate(keys)]
    else:
        raise JaxtypedTypeError(f"jnp.lexsort: keys must be a sequence of arrays, got {type(keys).__name__}")
    if not arrays:
        raise JaxtypedTypeError("jnp.lexsort: need a sequence of keys with len > 0")
    if len({k.shape for k in arrays}) > 1:
        raise JaxtypedValueError(f"jnp.lexsort: all keys need to be the same shape, got {[k.shape for k in arrays]}")
    first = arrays[0]
    if first.ndim == 0:
        return _int_const(0, _index_dtype())
    ax = canonicalize_axis(_static_int("lexsort", "axis", axis), first.ndim, where="jnp.lexsort axis")
    iota = broadcasted_iota(_index_dtype(), first.shape, ax)
    return bind(Sort(ax, True, len(arrays)), *arrays[::-1], iota)[-1]


def _complex_dtype(dtype: np.dtype[Any]) -> np.dtype[Any]:
    if dtypes.is_complex(dtype):
        return dtype
    wide = dtype in (np.dtype(np.float64), np.dtype(np.int64), np.dtype(np.uint64))
    return dtypes.canonicalize_dtype(np.dtype(np.complex128 if wide else np.complex64))


def sort_complex(a: ArrayLike) -> Array:
    """``a`` sorted along its last axis, as a complex array."""
    x = asarray_operand("sort_complex", a)
    ax = canonicalize_axis(-1, x.ndim, where="jnp.sort_complex")
    (result,) = bind(Sort(ax, True, 1), x)
    return convert_to(result, _complex_dtype(x.dtype), weak_type=False)


# === partition, argpartition ===


def _partition_operand(name: str, a: ArrayLike, kth: int, axis: int) -> tuple[Array, int, int]:
    x = asarray_operand(name, a)
    if dtypes.is_complex(x.dtype):
        raise JaxtypedNotImplementedError(f"jnp.{name} for complex dtype is not implemented")
    ax = canonicalize_axis(_static_int(name, "axis", axis), x.ndim, where=f"jnp.{name} axis")
    k = canonicalize_axis(_static_int(name, "kth", kth), x.shape[ax], where=f"jnp.{name} kth")
    return moveaxis(x, ax, x.ndim - 1), ax, k


def _negated_for_bottom(x: Array) -> Array:
    # The smallest entries are the largest of -x; unsigned integers are
    # shifted first so that 0 does not wrap to itself.
    if dtypes.is_unsigned_integer(x.dtype):
        return la.neg(la.add(x, _int_const(1, x.dtype)))
    return la.neg(x)


def partition(a: ArrayLike, kth: int, axis: int = -1) -> Array:
    """``a`` rearranged along ``axis`` so that the ``kth`` element is in
    its sorted place, smaller ones before it and larger ones after."""
    x, ax, k = _partition_operand("partition", a, kth, axis)
    last = x.ndim - 1
    bottom = la.neg(top_k(_negated_for_bottom(x), k + 1)[0])
    if dtypes.is_unsigned_integer(x.dtype):
        bottom = la.sub(bottom, _int_const(1, x.dtype))
    top = top_k(x, x.shape[last] - k - 1)[0]
    return moveaxis(concatenate([bottom, top], last), last, ax)


def argpartition(a: ArrayLike, kth: int, axis: int = -1) -> Array:
    """Indices that would partition ``a`` along ``axis`` around ``kth``."""
    x, ax, k = _partition_operand("argpartition", a, kth, axis)
    last = x.ndim - 1
    bottom = top_k(_negated_for_bottom(x), k + 1)[1]
    # The rest, in increasing index order: the largest of a proxy that is 0
    # at the chosen indices and 1 elsewhere (top_k prefers lower indices).
    others = tuple(range(last))
    dnums = ScatterDimensionNumbers(
        update_window_dims=(),
        inserted_window_dims=(last,),
        scatter_dims_to_operand_dims=(last,),
        operand_batching_dims=others,
        scatter_indices_batching_dims=others,
    )
    ones = _full(x.shape, 1.0, np.dtype(np.float32))
    proxy = scatter(ones, broadcast_in_dim(bottom, (*bottom.shape, 1), tuple(range(bottom.ndim))),
                    _full(bottom.shape, 0.0, np.dtype(np.float32)), dnums)
    top = top_k(proxy, x.shape[last] - k - 1)[1]
    return moveaxis(concatenate([bottom, top], last), last, ax)


# === searchsorted, digitize ===

_METHODS = ("scan", "scan_unrolled", "sort", "compare_all")


def _ranks(x: Array) -> Array:
    """The position of each element of 1-d ``x`` in its stable sort."""
    index_dtype = np.dtype(np.int32) if x.size < 2**31 else np.dtype(np.int64)
    _, perm = _sort_with_indices(x, 0, index_dtype)
    iota = broadcasted_iota(index_dtype, x.shape, 0)
    # Sorting the permutation carries the iota to the inverse permutation.
    _, ranks = bind(Sort(0, True, 1), perm, iota)
    return ranks


def _real_less(x: Array, y: Array) -> Array:
    """``x < y`` in sort order for real operands: NaN above everything."""
    less = lc.lt(x, y)
    if not dtypes.is_floating(x.dtype):
        return less
    return lc.bitwise_or(less, lc.bitwise_and(lc.ne(y, y), lc.eq(x, x)))


def _real_equal(x: Array, y: Array) -> Array:
    equal = lc.eq(x, y)
    if not dtypes.is_floating(x.dtype):
        return equal
    return lc.bitwise_or(equal, lc.bitwise_and(lc.ne(x, x), lc.ne(y, y)))


def _sort_less(x: Array, y: Array) -> Array:
    """``x < y`` in ``lax.sort``'s order (complex: real part, then imaginary)."""
    if not dtypes.is_complex(x.dtype):
        return _real_less(x, y)
    xr, xi, yr, yi = lcx.real(x), lcx.imag(x), lcx.real(y), lcx.imag(y)
    return lc.bitwise_or(_real_less(xr, yr), lc.bitwise_and(_real_equal(xr, yr), _real_less(xi, yi)))


def _search_by_sorting(a: Array, q: Array, right: bool) -> Array:
    # In a stable sort of queries and sorted values together, a query's rank
    # minus its rank among the queries counts the values before it.
    n = a.shape[0]
    if right:
        together = slice_in_dim(_ranks(concatenate([a, q], 0)), n, None, 1, 0)
    else:
        together = slice_in_dim(_ranks(concatenate([q, a], 0)), 0, q.size, 1, 0)
    return la.sub(together, _ranks(q))


def _search_by_bisection(a: Array, q: Array, right: bool, dtype: np.dtype[Any]) -> Array:
    # Unrolled binary search, all queries at once: ceil(log2(n + 1)) rounds
    # of one gather and one comparison each.
    n = a.shape[0]
    shape = q.shape
    low, high = _full(shape, 0, dtype), _full(shape, n, dtype)
    two = _full(shape, 2, dtype)
    for _ in range(int(np.ceil(np.log2(n + 1)))):
        mid = la.add(low, la.div(la.sub(high, low), two))
        pivot = take_along_dimension(a, la.min(mid, _full(shape, n - 1, dtype)), 0)
        # left: go left where q <= pivot; right: where q < pivot.
        go_left = _sort_less(q, pivot) if right else lc.bitwise_not(_sort_less(pivot, q))
        low, high = select_n(go_left, mid, low), select_n(go_left, high, mid)
    return high


def _search_by_comparing_all(a: Array, q: Array, right: bool, dtype: np.dtype[Any]) -> Array:
    n, m = a.shape[0], q.shape[0]
    grid_a = broadcast_in_dim(a, (m, n), (1,))
    grid_q = broadcast_in_dim(q, (m, n), (0,))
    # left: how many values are below q; right: how many are not above it.
    before = lc.bitwise_not(_sort_less(grid_q, grid_a)) if right else _sort_less(grid_a, grid_q)
    return reduce_sum(convert_to(before, dtype, weak_type=False), (1,))


def _searchsorted(a: Array, v: Array, right: bool, dtype: np.dtype[Any], method: str = "scan") -> Array:
    n = a.shape[0]
    if n == 0 or v.size == 0:
        return _full(v.shape, 0, dtype)
    q = reshape(v, (v.size,))
    if method == "sort":
        found = _search_by_sorting(a, q, right)
    elif method == "compare_all":
        found = _search_by_comparing_all(a, q, right, dtype)
    else:
        found = _search_by_bisection(a, q, right, dtype)
    return reshape(convert_to(found, dtype, weak_type=False), v.shape)


def searchsorted(
    a: ArrayLike, v: ArrayLike, side: str = "left", sorter: ArrayLike | None = None, *, method: str = "scan"
) -> Array:
    """Where ``v``'s elements would be inserted into sorted 1-d ``a`` to keep
    it sorted (``side='left'``: before equal elements; ``'right'``: after).
    Every ``method`` gives the same result: ``'scan'``/``'scan_unrolled'``
    bisect (log2(n) rounds), ``'sort'`` sorts values and queries together,
    ``'compare_all'`` compares every pair."""
    check_arraylike("searchsorted", a, v)
    sorted_arr, query = promote_dtypes("searchsorted", [a, v])
    if sorted_arr.ndim != 1:
        raise JaxtypedValueError(f"jnp.searchsorted: a should be 1-dimensional, got {sorted_arr.aval.str_short()}")
    if side not in ("left", "right"):
        raise JaxtypedValueError(f"jnp.searchsorted: side must be 'left' or 'right', got {side!r}")
    if method not in _METHODS:
        raise JaxtypedValueError(f"jnp.searchsorted: method must be one of {_METHODS}, got {method!r}")
    if sorter is not None:
        order = asarray_operand("searchsorted", sorter, 2)
        if not dtypes.is_integer(order.dtype) or order.ndim != 1:
            raise JaxtypedTypeError(f"jnp.searchsorted: sorter must be a 1-d integer array, got {order.aval.str_short()}")
        sorted_arr = _take_1d(sorted_arr, order)
    dtype = np.dtype(np.int32) if sorted_arr.shape[0] < 2**31 else np.dtype(np.int64)
    return _searchsorted(sorted_arr, query, side == "right", dtype, method)


def digitize(x: ArrayLike, bins: ArrayLike, right: bool = False, *, method: str | None = None) -> Array:
    """The index of the bin each element of ``x`` falls in (bins
    increasing or decreasing)."""
    check_arraylike("digitize", x, bins)
    right_ = _static_bool("digitize", "right", right)
    values, edges = promote_dtypes("digitize", [x, bins])
    if edges.ndim != 1:
        raise JaxtypedValueError(f"jnp.digitize: bins must be a 1-dimensional array, got {edges.aval.str_short()}")
    if method is not None and method not in _METHODS:
        raise JaxtypedValueError(f"jnp.digitize: method must be one of {_METHODS}, got {method!r}")
    n = edges.shape[0]
    int32 = np.dtype(np.int32)
    if n == 0:
        return _full(values.shape, 0, int32)
    dtype = int32 if n < 2**31 else np.dtype(np.int64)
    how = "scan" if method is None else method
    increasing = _searchsorted(edges, values, not right_, dtype, how)
    decreasing = la.sub(_int_const(n, dtype), _searchsorted(rev(edges, (0,)), values, not right_, dtype, how))
    first, last = slice_in_dim(edges, 0, 1, 1, 0), slice_in_dim(edges, n - 1, n, 1, 0)
    ascending = reshape(lc.ge(last, first), ())
    return select_n(broadcast_in_dim(ascending, values.shape, ()), decreasing, increasing)


# === cumulative reductions ===


def _cumulative(
    name: str,
    reduce: Callable[[Array, int], Array],
    a: ArrayLike,
    axis: int | None,
    dtype: "dtypes.DTypeLike | None",
    out: None,
    *,
    nan_fill: float | None = None,
    promote_integers: bool = False,
) -> Array:
    x = asarray_operand(name, a)
    if out is not None:
        raise JaxtypedNotImplementedError(f"jnp.{name}: the 'out' argument is not supported")
    if axis is None or x.ndim == 0:
        x = reshape(x, (x.size,))
    ax = 0 if axis is None else canonicalize_axis(_static_int(name, "axis", axis), x.ndim, where=f"jnp.{name} axis")
    if nan_fill is not None and dtypes.is_inexact(x.dtype):
        from jaxtyped._src.numpy.ufuncs import isnan

        x = _where(isnan(x), full_like_aval(x.aval, nan_fill), x)
    if dtype is None:
        result = accumulation_dtype(x.dtype) if promote_integers or dtypes.is_bool(x.dtype) else x.dtype
        compute = result
    else:
        result = dtypes.canonicalize_dtype(dtypes.dtype(dtype))
        compute = result
        if dtypes.is_bool(result):
            if not dtypes.is_bool(x.dtype):
                x = lc.ne(x, full_like_aval(x.aval.strip_weak_type(), 0))
            compute = accumulation_dtype(result)
    out_array = reduce(convert_to(x, compute, weak_type=False), ax)
    return convert_to(out_array, result, weak_type=False)


def _cumsum(x: Array, axis: int) -> Array:
    return lcum.cumsum(x, axis)


def _cumprod(x: Array, axis: int) -> Array:
    return lcum.cumprod(x, axis)


def cumsum(a: ArrayLike, axis: int | None = None, dtype: "dtypes.DTypeLike | None" = None, out: None = None) -> Array:
    """Cumulative sum along ``axis`` (of the flattened array by default)."""
    return _cumulative("cumsum", _cumsum, a, axis, dtype, out)


def cumprod(a: ArrayLike, axis: int | None = None, dtype: "dtypes.DTypeLike | None" = None, out: None = None) -> Array:
    """Cumulative product along ``axis`` (of the flattened array by default)."""
    return _cumulative("cumprod", _cumprod, a, axis, dtype, out)


def nancumsum(a: ArrayLike, axis: int | None = None, dtype: "dtypes.DTypeLike | None" = None, out: None = None) -> Array:
    """Cumulative sum treating NaNs as zero."""
    return _cumulative("nancumsum", _cumsum, a, axis, dtype, out, nan_fill=0.0)


def nancumprod(a: ArrayLike, axis: int | None = None, dtype: "dtypes.DTypeLike | None" = None, out: None = None) -> Array:
    """Cumulative product treating NaNs as one."""
    return _cumulative("nancumprod", _cumprod, a, axis, dtype, out, nan_fill=1.0)


def _array_api_cumulative(
    name: str, x_: ArrayLike, axis: int | None, dtype: "dtypes.DTypeLike | None", include_initial: bool, identity: int
) -> Array:
    x = asarray_operand(name, x_)
    if x.ndim == 0:
        raise JaxtypedValueError(f"jnp.{name}: the input must be non-scalar, got a scalar array")
    if axis is None:
        if x.ndim > 1:
            raise JaxtypedValueError(
                f"jnp.{name}: the input has rank {x.ndim}, but axis was not given; it is only optional for 1-d arrays"
            )
        axis = 0
    ax = canonicalize_axis(_static_int(name, "axis", axis), x.ndim, where=f"jnp.{name} axis")
    reduce = _cumsum if identity == 0 else _cumprod
    result = _cumulative(name, reduce, x, ax, dtype, None, promote_integers=identity == 0)
    if _static_bool(name, "include_initial", include_initial):
        shape = list(x.shape)
        shape[ax] = 1
        result = concatenate([_full(tuple(shape), identity, result.dtype), result], ax)
    return result


def cumulative_sum(
    x: ArrayLike, /, *, axis: int | None = None, dtype: "dtypes.DTypeLike | None" = None, include_initial: bool = False
) -> Array:
    """Cumulative sum (array API): ``axis`` required beyond 1-d; with
    ``include_initial`` a leading 0."""
    return _array_api_cumulative("cumulative_sum", x, axis, dtype, include_initial, 0)


def cumulative_prod(
    x: ArrayLike, /, *, axis: int | None = None, dtype: "dtypes.DTypeLike | None" = None, include_initial: bool = False
) -> Array:
    """Cumulative product (array API): ``axis`` required beyond 1-d; with
    ``include_initial`` a leading 1."""
    return _array_api_cumulative("cumulative_prod", x, axis, dtype, include_initial, 1)


# === unique ===


class UniqueAllResult(NamedTuple):
    """What :func:`unique_all` returns."""

    values: Array
    indices: Array
    inverse_indices: Array
    counts: Array


class UniqueCountsResult(NamedTuple):
    """What :func:`unique_counts` returns."""

    values: Array
    counts: Array


class UniqueInverseResult(NamedTuple):
    """What :func:`unique_inverse` returns."""

    values: Array
    inverse_indices: Array


class _Unique(NamedTuple):
    values: Array
    indices: Array
    inverse: Array
    counts: Array


def _rows_differ(a: Array, b: Array, equal_nan: bool) -> Array:
    """Per row (axis 0) of two 2-d arrays: does any column differ?"""
    differ = lc.ne(a, b)
    if equal_nan and dtypes.is_inexact(a.dtype):
        both_nan = lc.bitwise_and(lc.ne(a, a), lc.ne(b, b))
        differ = lc.bitwise_and(differ, lc.bitwise_not(both_nan))
    return reduce_max(differ, (1,))


def _unique_rows(
    rows: Array, equal_nan: bool, size: int | None, fill_value: ArrayLike | None
) -> _Unique:
    """The distinct rows of 2-d ``rows`` (sorted lexicographically), where
    they first occur, where each row went, and how often each occurs."""
    n, m = rows.shape
    int_ = _index_dtype()
    iota = broadcasted_iota(int_, (n,), 0)
    columns = [reshape(slice_in_dim(rows, j, j + 1, 1, 1), (n,)) for j in range(m)]
    *sorted_columns, perm = bind(Sort(0, True, max(m, 1)), *columns, iota) if m else (iota,)
    ordered = (
        concatenate([reshape(c, (n, 1)) for c in sorted_columns], 1) if sorted_columns else rows
    )
    if n:
        head = _full((1,), True, np.dtype(np.bool_))
        tail = _rows_differ(slice_in_dim(ordered, 1, None, 1, 0), slice_in_dim(ordered, 0, -1, 1, 0), equal_nan)
        is_new = concatenate([head, tail], 0)
    else:
        is_new = _full((0,), True, np.dtype(np.bool_))
    new_count = lcum.cumsum(convert_to(is_new, int_, weak_type=False), 0)
    total = reshape(slice_in_dim(new_count, n - 1, n, 1, 0), ()) if n else _int_const(0, int_)
    if size is None:
        out_size = int(total)  # a traced count raises the concretization error
    else:
        out_size = size
    # Positions of the first row of each run, in order (a stable sort of
    # "not new" puts them first), and the length of each run.
    _, starts = bind(Sort(0, True, 1), lc.bitwise_not(is_new), iota)
    total_n = broadcast_in_dim(total, (n,), ())
    following = concatenate([slice_in_dim(starts, 1, None, 1, 0), _full((1,), n, int_)], 0) if n else starts
    following = _where(lc.lt(la.add(iota, _int_const(1, int_)), total_n), following, _full((n,), n, int_))
    counts = _where(lc.lt(iota, total_n), la.sub(following, starts), _full((n,), 0, int_))
    starts, counts = _resized(starts, out_size), _resized(counts, out_size)
    slot = broadcasted_iota(int_, (out_size,), 0)
    valid = lc.lt(slot, broadcast_in_dim(total, (out_size,), ()))
    if n:
        values = take_along_dimension(ordered, broadcast_in_dim(starts, (out_size, m), (0,)), 0)
        first_index = _take_1d(perm, starts)
    else:
        values = _full((out_size, m), 0, rows.dtype)
        first_index = _full((out_size,), 0, int_)
    if fill_value is None:
        fill = broadcast_in_dim(slice_in_dim(values, 0, 1, 1, 0), values.shape, (0, 1)) if out_size else values
    else:
        fill_array = convert_to(asarray_operand("unique", fill_value), rows.dtype, weak_type=False)
        fill = broadcast_in_dim(fill_array, values.shape, tuple(range(2 - fill_array.ndim, 2)))
    values = _where(broadcast_in_dim(valid, values.shape, (0,)), values, fill)
    index_fill = broadcast_in_dim(slice_in_dim(first_index, 0, 1, 1, 0), (out_size,), (0,)) if out_size else first_index
    indices = _where(valid, first_index, index_fill)
    run = la.sub(new_count, _int_const(1, int_))
    _, inverse = bind(Sort(0, True, 1), perm, run) if n else (run, run)
    return _Unique(values, indices, inverse, counts)


def _resized(x: Array, size: int) -> Array:
    """1-d ``x`` cut to ``size`` or padded with zeros to it."""
    n = x.shape[0]
    if size <= n:
        return slice_in_dim(x, 0, size, 1, 0)
    return concatenate([x, _full((size - n,), 0, x.dtype)], 0)


def _unique(
    name: str, ar: ArrayLike, axis: int | None, equal_nan: bool, size: int | None, fill_value: ArrayLike | None
) -> tuple[_Unique, tuple[int, ...], int | None]:
    x = asarray_operand(name, ar)
    if size is not None:
        size = _static_int(name, "size", size)
        if size < 0:
            raise JaxtypedValueError(f"jnp.{name}: size must be nonnegative, got {size}")
    if axis is None:
        found = _unique_rows(reshape(x, (x.size, 1)), equal_nan, size, fill_value)
        values = reshape(found.values, (found.values.shape[0],))
        return found._replace(values=values, inverse=reshape(found.inverse, x.shape)), x.shape, None
    ax = canonicalize_axis(_static_int(name, "axis", axis), x.ndim, where=f"jnp.{name} axis")
    moved = moveaxis(x, ax, 0)
    rest = moved.shape[1:]
    found = _unique_rows(reshape(moved, (moved.shape[0], int(np.prod(rest)))), equal_nan, size, fill_value)
    values = moveaxis(reshape(found.values, (found.values.shape[0], *rest)), 0, ax)
    return found._replace(values=values), x.shape, ax


@overload
def unique(
    ar: ArrayLike,
    return_index: Literal[False] = False,
    return_inverse: Literal[False] = False,
    return_counts: Literal[False] = False,
    axis: int | None = None,
    *,
    equal_nan: bool = True,
    size: int | None = None,
    fill_value: ArrayLike | None = None,
    sorted: bool = True,  # noqa: A002 - JAX's name
) -> Array: ...


@overload
def unique(
    ar: ArrayLike,
    return_index: bool = False,
    return_inverse: bool = False,
    return_counts: bool = False,
    axis: int | None = None,
    *,
    equal_nan: bool = True,
    size: int | None = None,
    fill_value: ArrayLike | None = None,
    sorted: bool = True,  # noqa: A002 - JAX's name
) -> Array | tuple[Array, ...]: ...


def unique(
    ar: ArrayLike,
    return_index: bool = False,
    return_inverse: bool = False,
    return_counts: bool = False,
    axis: int | None = None,
    *,
    equal_nan: bool = True,
    size: int | None = None,
    fill_value: ArrayLike | None = None,
    sorted: bool = True,  # noqa: A002 - JAX's name
) -> Array | tuple[Array, ...]:
    """The sorted distinct elements of ``ar`` (or distinct slices along
    ``axis``), optionally with first indices, inverse indices and counts.
    Under ``jit`` pass ``size`` (padded with ``fill_value``, by default the
    smallest value)."""
    flags = [_static_bool("unique", p, v) for p, v in
             (("return_index", return_index), ("return_inverse", return_inverse), ("return_counts", return_counts))]
    found, _, _ = _unique("unique", ar, axis, _static_bool("unique", "equal_nan", equal_nan), size, fill_value)
    if not any(flags):
        return found.values
    extra = [r for r, wanted in zip((found.indices, found.inverse, found.counts), flags) if wanted]
    return (found.values, *extra)


def unique_values(x: ArrayLike, /, *, size: int | None = None, fill_value: ArrayLike | None = None) -> Array:
    """The sorted distinct values of ``x`` (array API; NaNs distinct)."""
    return _unique("unique_values", x, None, False, size, fill_value)[0].values


def unique_counts(x: ArrayLike, /, *, size: int | None = None, fill_value: ArrayLike | None = None) -> UniqueCountsResult:
    """The distinct values of ``x`` and how often each occurs (array API)."""
    found = _unique("unique_counts", x, None, False, size, fill_value)[0]
    return UniqueCountsResult(found.values, found.counts)


def unique_inverse(x: ArrayLike, /, *, size: int | None = None, fill_value: ArrayLike | None = None) -> UniqueInverseResult:
    """The distinct values of ``x`` and, per element, its value's index (array API)."""
    found = _unique("unique_inverse", x, None, False, size, fill_value)[0]
    return UniqueInverseResult(found.values, found.inverse)


def unique_all(x: ArrayLike, /, *, size: int | None = None, fill_value: ArrayLike | None = None) -> UniqueAllResult:
    """The distinct values of ``x``, their first indices, the inverse
    indices and the counts (array API)."""
    found = _unique("unique_all", x, None, False, size, fill_value)[0]
    return UniqueAllResult(found.values, found.indices, found.inverse, found.counts)
