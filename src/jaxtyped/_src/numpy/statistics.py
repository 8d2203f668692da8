"""Statistics of ``jaxtyped.numpy`` (layer L5): ``var``/``std``,
``median``/``percentile``/``quantile`` (and their NaN-ignoring forms),
``average``, ``ptp``, ``count_nonzero``, the ``nan*`` reductions, ``cov``
and ``corrcoef``.

dtypes follow JAX: integer inputs compute in the default float, complex
variances are real, quantiles come back in the input's (inexact) dtype and
are computed in ``q``'s.
"""

import math
from collections.abc import Callable
from typing import Any, Literal, overload

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.errors import JaxtypedNotImplementedError, JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.lax import arithmetic as la
from jaxtyped._src.lax import comparison as lcmp
from jaxtyped._src.lax import complex_ops as lc
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.lax.structural import broadcast_in_dim, broadcasted_iota, full_like_aval
from jaxtyped._src.lax.util import scalar_like
from jaxtyped._src.numpy import reductions as red
from jaxtyped._src.numpy import shape_ops as sh
from jaxtyped._src.numpy import ufuncs as uf
from jaxtyped._src.numpy.reductions import Axis, check_out, reduction_axes
from jaxtyped._src.numpy.creation import asarray, dtype_arg, full
from jaxtyped._src.numpy.order_util import sort_last, take_along_last
from jaxtyped._src.lax.cumulative import cumsum
from jaxtyped._src.lax.sorting import sort_key_val
from jaxtyped._src.numpy.promotion import asarray_operand, promote_dtypes, to_inexact_dtype
from jaxtyped._src.util import axis_tuple, canonicalize_axis

__all__ = [
    "var", "std", "median", "percentile", "quantile", "nanmedian", "nanpercentile", "nanquantile",
    "average", "ptp", "count_nonzero", "nansum", "nanprod", "nanmean", "nanvar", "nanstd", "nanmax",
    "nanmin", "nanargmax", "nanargmin", "cov", "corrcoef",
]  # fmt: skip

# === variance and standard deviation ===


def _variance_dtypes(name: str, x: Array, dtype: "dtypes.DTypeLike | None") -> tuple[np.dtype[Any], np.dtype[Any]]:
    """(computation dtype, result dtype), JAX's rule; float16 and bfloat16
    compute in float32."""
    requested = dtype_arg(dtype)
    if requested is not None:
        if dtypes.is_complex(x.dtype) and not dtypes.is_complex(requested):
            raise JaxtypedValueError(f"jnp.{name}: a real dtype for the variance of complex {x.aval.str_short()} is not supported")
        compute, result = requested, requested
    elif not dtypes.is_inexact(x.dtype):
        compute = result = to_inexact_dtype(x.dtype)
    else:
        compute = x.dtype
        result = lc.real(x).dtype if dtypes.is_complex(x.dtype) else x.dtype
    if compute.name in ("float16", "bfloat16"):
        compute = np.dtype(np.float32)
    return compute, result


def _correction(name: str, ddof: int, correction: int | float | None) -> int | float:
    if correction is None:
        return ddof
    if ddof != 0:
        raise JaxtypedValueError(f"jnp.{name}: ddof and correction cannot both be given")
    return correction


def _variance_operand(
    name: str, x: Array, dtype: "dtypes.DTypeLike | None", axis: Axis
) -> tuple[Array, np.dtype[Any], np.dtype[Any], tuple[int, ...]]:
    """``x`` in the computation dtype, that dtype, the result dtype and the
    reduced axes."""
    compute, result_dtype = _variance_dtypes(name, x, dtype)
    x = convert_to(x, compute, weak_type=False)
    return x, compute, result_dtype, reduction_axes(name, x, axis)


def _given_centre(name: str, mean: ArrayLike, x: Array, axes: tuple[int, ...], keepdims: bool) -> Array:
    """A caller's ``mean`` in ``x``'s dtype, with the reduced axes back
    (as size 1) so that it broadcasts against ``x``."""
    centre = convert_to(asarray_operand(name, mean), x.dtype, weak_type=False)
    if not keepdims and centre.ndim == x.ndim - len(axes) and axes:
        centre = sh.expand_dims(centre, axes)
    return centre


def _squared_magnitude(centred: Array) -> Array:
    """``|centred| ** 2``, real for complex input."""
    if dtypes.is_complex(centred.dtype):
        return lc.real(la.mul(centred, lc.conj(centred)))
    return la.integer_pow(centred, 2)


def var(
    a: ArrayLike,
    axis: Axis = None,
    dtype: "dtypes.DTypeLike | None" = None,
    out: None = None,
    ddof: int = 0,
    keepdims: bool = False,
    *,
    where: ArrayLike | None = None,
    mean: ArrayLike | None = None,
    correction: int | float | None = None,
) -> Array:
    """Variance over ``axis``: mean squared distance from the mean (``mean``
    if given), divided by the count less ``correction`` (or ``ddof``)."""
    check_out("var", out)
    x = asarray_operand("var", a)
    shift = _correction("var", ddof, correction)
    x, compute, result_dtype, axes = _variance_operand("var", x, dtype, axis)
    if mean is None:
        centre = red.mean(x, axes, dtype=compute, keepdims=True, where=where)
    else:
        centre = _given_centre("var", mean, x, axes, keepdims)
    centred = la.sub(x, centre) if centre.shape == x.shape or not centre.ndim else uf.subtract(x, centre)
    squares = _squared_magnitude(centred)
    if where is None:
        count: Array = scalar_like(math.prod(x.shape[i] for i in axes), squares.dtype, "jnp.var", weak_type=False)
    else:
        mask = sh.broadcast_to(asarray_operand("var", where), x.shape)
        count = red.sum(mask, axes, dtype=squares.dtype, keepdims=keepdims)
    count = uf.subtract(count, shift)
    total = red.sum(squares, axes, dtype=squares.dtype, keepdims=keepdims, where=where)
    return convert_to(uf.divide(total, count), result_dtype, weak_type=False)


def std(
    a: ArrayLike,
    axis: Axis = None,
    dtype: "dtypes.DTypeLike | None" = None,
    out: None = None,
    ddof: int = 0,
    keepdims: bool = False,
    *,
    where: ArrayLike | None = None,
    mean: ArrayLike | None = None,
    correction: int | float | None = None,
) -> Array:
    """Standard deviation over ``axis``: the square root of :func:`var`."""
    check_out("std", out)
    if axis is not None:
        axis_tuple(axis, "jnp.std axis")  # errors name std, not the var it calls
    return uf.sqrt(var(a, axis, dtype, None, ddof, keepdims, where=where, mean=mean, correction=correction))


# === quantiles ===

_METHODS = ("linear", "lower", "higher", "midpoint", "nearest")


def _rows(x: Array, axes: tuple[int, ...]) -> Array:
    """``x`` with ``axes`` moved last and flattened into one."""
    keep = [i for i in range(x.ndim) if i not in axes]
    moved = sh.transpose(x, (*keep, *axes))
    return sh.reshape(moved, (*(x.shape[i] for i in keep), math.prod(x.shape[i] for i in axes)))


def _quantile(
    name: str,
    a: ArrayLike,
    q: ArrayLike,
    axis: int | tuple[int, ...] | None,
    method: str,
    keepdims: bool,
    skip_nans: bool,
    weights: ArrayLike | None,
) -> Array:
    if method not in (*_METHODS, "inverted_cdf"):
        raise JaxtypedValueError(
            f"jnp.{name}: method must be one of {', '.join(map(repr, (*_METHODS, 'inverted_cdf')))}, got {method!r}"
        )
    w: Array | None = None
    if weights is not None:
        w = asarray_operand(name, weights, 2)
        if dtypes.is_complex(w.dtype):
            raise JaxtypedValueError(f"jnp.{name}: weights cannot be complex, got {w.aval.str_short()}")
        if method != "inverted_cdf":
            raise JaxtypedNotImplementedError(f"jnp.{name}: method {method!r} does not take weights; only 'inverted_cdf' does")
        x, w = promote_dtypes(name, (asarray_operand(name, a), w), inexact=True)
    else:
        (x,) = promote_dtypes(name, (asarray_operand(name, a),), inexact=True)
    if dtypes.is_complex(x.dtype):
        raise JaxtypedValueError(f"jnp.{name}: complex input {x.aval.str_short()} is not supported")
    fraction = asarray_operand(name, q, 1)
    if fraction.ndim > 1:
        raise JaxtypedValueError(f"jnp.{name}: q must have rank <= 1, got {fraction.aval.str_short()}")
    axes = reduction_axes(name, x, axis)  # rejects repeated axes
    if w is not None and w.shape != x.shape:
        if axis is None:
            raise JaxtypedValueError(f"jnp.{name}: weights must have a's shape when axis is None, got {w.aval.str_short()}")
        reduced = tuple(x.shape[i] for i in axes)
        if w.shape != reduced:
            raise JaxtypedValueError(f"jnp.{name}: weights of shape {w.shape} must match the reduced axes {reduced}")
        w = broadcast_in_dim(w, x.shape, axes)
    if method == "inverted_cdf":
        return _inverted_cdf(x, w, fraction, axes, keepdims, skip_nans)
    rows = sort_last(_rows(x, axes))  # B + (n,), NaNs last
    batch = rows.shape[:-1]
    n = rows.shape[-1]
    q_dtype = fraction.dtype
    if skip_nans:
        count = red.sum(uf.logical_not(uf.isnan(rows)), axis=-1, dtype=q_dtype)  # B
    else:
        count = full(batch, n, dtype=q_dtype)
    # Positions with q's axis last: B + (Q,).
    q_last = broadcast_in_dim(fraction, (*batch, *fraction.shape), tuple(range(len(batch), len(batch) + fraction.ndim)))
    count_b = sh.expand_dims(count, -1) if fraction.ndim else count
    last = la.sub(count_b, scalar_like(1, q_dtype, "one", weak_type=False))
    position = uf.multiply(q_last, last)
    low, high = uf.floor(position), uf.ceil(position)
    high_weight = la.sub(position, low)
    low_weight = la.sub(scalar_like(1, high_weight.dtype, "one", weak_type=False), high_weight)
    zero = scalar_like(0, q_dtype, "zero", weak_type=False)

    def index(p: Array) -> Array:
        clipped = uf.maximum(zero, uf.minimum(p, last))
        return convert_to(clipped, np.dtype(np.int32), weak_type=False)

    def values_at(p: Array) -> Array:
        idx = index(p)
        if not fraction.ndim:
            return take_along_last(rows, sh.expand_dims(idx, -1))[..., 0]
        return take_along_last(rows, idx)

    low_value, high_value = values_at(low), values_at(high)
    if method == "linear":
        result = la.add(
            la.mul(convert_to(low_value, q_dtype, weak_type=False), low_weight),
            la.mul(convert_to(high_value, q_dtype, weak_type=False), high_weight),
        )
    elif method == "lower":
        result = low_value
    elif method == "higher":
        result = high_value
    elif method == "nearest":
        result = uf.where(lcmp.le(high_weight, scalar_like(0.5, high_weight.dtype, "half", weak_type=False)), low_value, high_value)
    else:
        result = la.mul(la.add(low_value, high_value), scalar_like(0.5, low_value.dtype, "half", weak_type=False))
    if not skip_nans:
        nan_rows = red.any(uf.isnan(rows), axis=-1)
        if fraction.ndim:
            nan_rows = sh.expand_dims(nan_rows, -1)
        result = uf.where(nan_rows, float("nan"), result)
    if fraction.ndim:
        result = sh.moveaxis(result, -1, 0)
    return _quantile_result(result, x, fraction, axes, keepdims)


def _inverted_cdf(x: Array, w: Array | None, fraction: Array, axes: tuple[int, ...], keepdims: bool, skip_nans: bool) -> Array:
    """The first sorted value whose cumulative weight reaches ``q`` times
    the total weight (NumPy's 'inverted_cdf'); NaN where a weight is
    negative or NaN, or where a (non-skipped) value is NaN."""
    values = _rows(x, axes)
    weight_rows = full(values.shape, 1.0, dtype=x.dtype) if w is None else _rows(w, axes)
    values, weight_rows = sort_key_val(values, weight_rows, dimension=-1)
    zero = scalar_like(0, weight_rows.dtype, "zero", weak_type=False)
    bad = uf.logical_or(uf.less(weight_rows, zero), uf.isnan(weight_rows))
    missing = uf.isnan(values)
    clean = uf.where(uf.logical_or(bad, missing), zero, weight_rows)
    running = cumsum(clean, axis=values.ndim - 1)
    total = running[..., -1:]  # B + (1,)
    batch, n = values.shape[:-1], values.shape[-1]
    q_rows = sh.reshape(fraction, (*(1,) * len(batch), -1)) if fraction.ndim else sh.reshape(fraction, (*(1,) * len(batch), 1))
    target = uf.multiply(q_rows, total)  # B + (Q,)
    below = uf.less(sh.expand_dims(running, -2), sh.expand_dims(target, -1))  # B + (Q, n)
    index = red.sum(below, axis=-1, dtype=dtypes.default_int_dtype())
    valid = red.sum(uf.logical_not(missing), axis=-1, keepdims=True, dtype=dtypes.default_int_dtype()) if skip_nans else None
    limit = (n - 1) if valid is None else uf.subtract(valid, 1)
    index = uf.maximum(0, uf.minimum(index, limit))
    result = take_along_last(values, convert_to(index, np.dtype(np.int32), weak_type=False))  # B + (Q,)
    force_nan = red.any(bad, axis=-1, keepdims=True)
    if skip_nans:
        assert valid is not None
        force_nan = uf.logical_or(force_nan, uf.equal(valid, 0))
    else:
        force_nan = uf.logical_or(force_nan, red.any(missing, axis=-1, keepdims=True))
    result = uf.where(force_nan, float("nan"), result)
    result = sh.moveaxis(result, -1, 0) if fraction.ndim else result[..., 0]
    return _quantile_result(result, x, fraction, axes, keepdims)


def _quantile_result(result: Array, x: Array, fraction: Array, axes: tuple[int, ...], keepdims: bool) -> Array:
    """Quantiles (``q``'s axis first) with the reduced axes kept as size 1
    if asked, in ``x``'s dtype."""
    if keepdims:
        kept = [1 if i in axes else d for i, d in enumerate(x.shape)]
        result = sh.reshape(result, (*fraction.shape, *kept))
    return convert_to(result, x.dtype, weak_type=False)


def quantile(
    a: ArrayLike,
    q: ArrayLike,
    axis: int | tuple[int, ...] | None = None,
    out: None = None,
    overwrite_input: bool = False,
    method: str = "linear",
    keepdims: bool = False,
    *,
    weights: ArrayLike | None = None,
) -> Array:
    """The ``q``-th quantiles (``q`` in [0, 1], scalar or 1-d; its axis
    comes first) over ``axis``; NaN where a reduced slice holds a NaN."""
    check_out("quantile", out)
    return _quantile("quantile", a, q, axis, method, keepdims, False, weights)


def nanquantile(
    a: ArrayLike,
    q: ArrayLike,
    axis: int | tuple[int, ...] | None = None,
    out: None = None,
    overwrite_input: bool = False,
    method: str = "linear",
    keepdims: bool = False,
    *,
    weights: ArrayLike | None = None,
) -> Array:
    """:func:`quantile` ignoring NaNs."""
    check_out("nanquantile", out)
    return _quantile("nanquantile", a, q, axis, method, keepdims, True, weights)


def _hundredths(name: str, q: ArrayLike) -> Array:
    (fraction,) = promote_dtypes(name, (q,), inexact=True)
    return uf.divide(fraction, 100.0)


def percentile(
    a: ArrayLike,
    q: ArrayLike,
    axis: int | tuple[int, ...] | None = None,
    out: None = None,
    overwrite_input: bool = False,
    method: str = "linear",
    keepdims: bool = False,
    *,
    weights: ArrayLike | None = None,
) -> Array:
    """The ``q``-th percentiles (``q`` in [0, 100]) over ``axis``."""
    check_out("percentile", out)
    return _quantile("percentile", a, _hundredths("percentile", q), axis, method, keepdims, False, weights)


def nanpercentile(
    a: ArrayLike,
    q: ArrayLike,
    axis: int | tuple[int, ...] | None = None,
    out: None = None,
    overwrite_input: bool = False,
    method: str = "linear",
    keepdims: bool = False,
    *,
    weights: ArrayLike | None = None,
) -> Array:
    """:func:`percentile` ignoring NaNs."""
    check_out("nanpercentile", out)
    return _quantile("nanpercentile", a, _hundredths("nanpercentile", q), axis, method, keepdims, True, weights)


def median(
    a: ArrayLike, axis: int | tuple[int, ...] | None = None, out: None = None, overwrite_input: bool = False, keepdims: bool = False
) -> Array:
    """The median over ``axis`` (the midpoint of the two middle values for
    an even count)."""
    check_out("median", out)
    return _quantile("median", a, 0.5, axis, "midpoint", keepdims, False, None)


def nanmedian(
    a: ArrayLike, axis: int | tuple[int, ...] | None = None, out: None = None, overwrite_input: bool = False, keepdims: bool = False
) -> Array:
    """:func:`median` ignoring NaNs."""
    check_out("nanmedian", out)
    return _quantile("nanmedian", a, 0.5, axis, "midpoint", keepdims, True, None)


# === averages and simple reductions ===


@overload
def average(
    a: ArrayLike, axis: Axis = None, weights: ArrayLike | None = None, returned: Literal[False] = False, keepdims: bool = False
) -> Array: ...
@overload
def average(a: ArrayLike, axis: Axis, weights: ArrayLike | None, returned: Literal[True], keepdims: bool = False) -> tuple[Array, Array]: ...
@overload
def average(
    a: ArrayLike, axis: Axis = None, weights: ArrayLike | None = None, *, returned: Literal[True], keepdims: bool = False
) -> tuple[Array, Array]: ...
@overload
def average(
    a: ArrayLike, axis: Axis = None, weights: ArrayLike | None = None, returned: bool = False, keepdims: bool = False
) -> Array | tuple[Array, Array]: ...
def average(
    a: ArrayLike, axis: Axis = None, weights: ArrayLike | None = None, returned: bool = False, keepdims: bool = False
) -> Array | tuple[Array, Array]:
    """The (weighted) mean over ``axis``; with ``returned``, also the sum
    of the weights."""
    if weights is None:
        (x,) = promote_dtypes("average", (a,), inexact=True)
        mean_ = red.mean(x, axis, keepdims=keepdims)
        total = full(mean_.shape, math.prod(x.shape[i] for i in reduction_axes("average", x, axis)), dtype=mean_.dtype)
    else:
        x, w = promote_dtypes("average", (a, weights), inexact=True)
        if x.shape != w.shape:
            if axis is None:
                raise JaxtypedValueError("jnp.average: axis must be given when the shapes of a and weights differ")
            if not isinstance(axis, int):
                raise JaxtypedValueError("jnp.average: a single axis is required when the shapes of a and weights differ")
            if w.ndim != 1:
                raise JaxtypedValueError("jnp.average: 1-d weights are required when the shapes of a and weights differ")
            ax = canonicalize_axis(axis, x.ndim, where="jnp.average axis")
            if w.shape[0] != x.shape[ax]:
                raise JaxtypedValueError(
                    f"jnp.average: the length of weights ({w.shape[0]}) differs from a's axis {ax} ({x.shape[ax]})"
                )
            w = sh.reshape(w, [w.shape[0] if i == ax else 1 for i in range(x.ndim)])
        total = red.sum(w, axis, keepdims=keepdims)
        mean_ = uf.divide(red.sum(uf.multiply(x, w), axis, keepdims=keepdims), total)
    if not returned:
        return mean_
    if total.shape != mean_.shape:
        total = sh.broadcast_to(total, mean_.shape)
    return mean_, total


def ptp(a: ArrayLike, axis: Axis = None, out: None = None, keepdims: bool = False) -> Array:
    """The range (maximum minus minimum) over ``axis``."""
    check_out("ptp", out)
    x = asarray_operand("ptp", a)
    return uf.subtract(red.max(x, axis, keepdims=keepdims), red.min(x, axis, keepdims=keepdims))


def count_nonzero(a: ArrayLike, axis: Axis = None, keepdims: bool = False) -> Array:
    """The number of nonzero elements over ``axis`` (default int dtype)."""
    x = asarray_operand("count_nonzero", a)
    nonzero = x if dtypes.is_bool(x.dtype) else uf.not_equal(x, scalar_like(0, x.dtype, "zero", weak_type=False))
    return red.sum(nonzero, axis, dtype=dtypes.default_int_dtype(), keepdims=keepdims)


# === NaN-ignoring reductions ===


def _without_nans(x: Array, fill: int | float) -> Array:
    return uf.where(uf.isnan(x), scalar_like(fill, x.dtype, "fill", weak_type=False), x)


def _nans_replaced(name: str, a: ArrayLike, fill: int) -> Array:
    """``a`` with its NaNs (if it can hold any) replaced by ``fill``, the
    identity of the reduction to follow."""
    x = asarray_operand(name, a)
    return _without_nans(x, fill) if dtypes.is_inexact(x.dtype) else x


def nansum(
    a: ArrayLike,
    axis: Axis = None,
    dtype: "dtypes.DTypeLike | None" = None,
    out: None = None,
    keepdims: bool = False,
    initial: ArrayLike | None = None,
    where: ArrayLike | None = None,
) -> Array:
    """:func:`sum` treating NaNs as zero."""
    check_out("nansum", out)
    return red.sum(_nans_replaced("nansum", a, 0), axis, dtype, None, keepdims, initial, where)


def nanprod(
    a: ArrayLike,
    axis: Axis = None,
    dtype: "dtypes.DTypeLike | None" = None,
    out: None = None,
    keepdims: bool = False,
    initial: ArrayLike | None = None,
    where: ArrayLike | None = None,
) -> Array:
    """:func:`prod` treating NaNs as one."""
    check_out("nanprod", out)
    return red.prod(_nans_replaced("nanprod", a, 1), axis, dtype, None, keepdims, initial, where)


def _nan_ignoring(
    name: str, a: ArrayLike, reduce: Callable[[Array], Array], largest: bool, all_nan: int | float, axis: Axis, keepdims: bool
) -> Array:
    """``reduce`` (a max or min, or their arg forms, over ``axis``) of ``a``
    with NaNs never picked; ``all_nan`` where a slice is all NaN."""
    x = asarray_operand(name, a)
    if not dtypes.is_inexact(x.dtype):
        return reduce(x)
    result = reduce(_without_nans(x, float("-inf") if largest else float("inf")))
    return uf.where(red.all(uf.isnan(x), axis, keepdims=keepdims), all_nan, result)


def nanmax(
    a: ArrayLike, axis: Axis = None, out: None = None, keepdims: bool = False, initial: ArrayLike | None = None, where: ArrayLike | None = None
) -> Array:
    """:func:`max` ignoring NaNs (NaN where a slice is all NaN)."""
    check_out("nanmax", out)
    return _nan_ignoring(
        "nanmax", a, lambda x: red.max(x, axis, None, keepdims, initial, where), True, float("nan"), axis, keepdims
    )


def nanmin(
    a: ArrayLike, axis: Axis = None, out: None = None, keepdims: bool = False, initial: ArrayLike | None = None, where: ArrayLike | None = None
) -> Array:
    """:func:`min` ignoring NaNs (NaN where a slice is all NaN)."""
    check_out("nanmin", out)
    return _nan_ignoring(
        "nanmin", a, lambda x: red.min(x, axis, None, keepdims, initial, where), False, float("nan"), axis, keepdims
    )


def nanargmax(a: ArrayLike, axis: int | None = None, out: None = None, keepdims: bool | None = None) -> Array:
    """:func:`argmax` ignoring NaNs (-1 where a slice is all NaN)."""
    check_out("nanargmax", out)
    return _nan_ignoring("nanargmax", a, lambda x: red.argmax(x, axis, None, keepdims), True, -1, axis, bool(keepdims))


def nanargmin(a: ArrayLike, axis: int | None = None, out: None = None, keepdims: bool | None = None) -> Array:
    """:func:`argmin` ignoring NaNs (-1 where a slice is all NaN)."""
    check_out("nanargmin", out)
    return _nan_ignoring("nanargmin", a, lambda x: red.argmin(x, axis, None, keepdims), False, -1, axis, bool(keepdims))


def nanmean(
    a: ArrayLike,
    axis: Axis = None,
    dtype: "dtypes.DTypeLike | None" = None,
    out: None = None,
    keepdims: bool = False,
    where: ArrayLike | None = None,
) -> Array:
    """:func:`mean` ignoring NaNs (NaN where a slice is all NaN)."""
    check_out("nanmean", out)
    x = asarray_operand("nanmean", a)
    if not dtypes.is_inexact(x.dtype):
        return red.mean(x, axis, dtype, None, keepdims, where)
    target = dtype_arg(dtype) or x.dtype
    present = uf.logical_not(uf.isnan(x))
    count = convert_to(red.sum(present, axis, keepdims=keepdims, where=where), target, weak_type=False)
    return la.div(nansum(x, axis, target, None, keepdims, where=where), count)


def nanvar(
    a: ArrayLike,
    axis: Axis = None,
    dtype: "dtypes.DTypeLike | None" = None,
    out: None = None,
    ddof: int = 0,
    keepdims: bool = False,
    where: ArrayLike | None = None,
    mean: ArrayLike | None = None,
) -> Array:
    """:func:`var` ignoring NaNs (NaN where fewer than ``ddof + 1`` values
    remain)."""
    check_out("nanvar", out)
    x, compute, result_dtype, axes = _variance_operand("nanvar", asarray_operand("nanvar", a), dtype, axis)
    if mean is None:
        centre = nanmean(x, axes, compute, None, True, where)
    else:
        centre = _given_centre("nanvar", mean, x, axes, keepdims)
    nan = uf.isnan(x)
    centred = uf.where(nan, scalar_like(0, compute, "zero", weak_type=False), uf.subtract(x, centre))
    squares = _squared_magnitude(centred)
    count = uf.subtract(red.sum(uf.logical_not(nan), axes, keepdims=keepdims, where=where), ddof)
    empty = uf.less_equal(count, 0)
    total = red.sum(squares, axes, keepdims=keepdims, where=where)
    total = uf.where(empty, float("nan"), total)
    divisor = convert_to(uf.where(empty, 1, count), total.dtype, weak_type=False)
    return convert_to(la.div(total, divisor), result_dtype, weak_type=False)


def nanstd(
    a: ArrayLike,
    axis: Axis = None,
    dtype: "dtypes.DTypeLike | None" = None,
    out: None = None,
    ddof: int = 0,
    keepdims: bool = False,
    where: ArrayLike | None = None,
    mean: ArrayLike | None = None,
) -> Array:
    """:func:`std` ignoring NaNs."""
    check_out("nanstd", out)
    return uf.sqrt(nanvar(a, axis, dtype, None, ddof, keepdims, where, mean))


# === covariance and correlation ===


def _atleast_2d(x: Array) -> Array:
    return sh.reshape(x, (1, *x.shape)) if x.ndim < 2 else x


def cov(
    m: ArrayLike,
    y: ArrayLike | None = None,
    rowvar: bool = True,
    bias: bool = False,
    ddof: int | None = None,
    fweights: ArrayLike | None = None,
    aweights: ArrayLike | None = None,
    dtype: "dtypes.DTypeLike | None" = None,
) -> Array:
    """The covariance matrix of the variables in the rows of ``m`` (and
    ``y``; columns when ``rowvar`` is false), with frequency and analytic
    weights."""
    operands = promote_dtypes("cov", (m,) if y is None else (m, y), inexact=True)
    first = operands[0]
    if first.ndim > 2 or (len(operands) > 1 and operands[1].ndim > 2):
        raise JaxtypedValueError("jnp.cov: m and y must have at most 2 dimensions")
    requested = dtype_arg(dtype)
    if requested is not None and not dtypes.is_inexact(requested):
        raise JaxtypedValueError(f"jnp.cov: dtype must be a float or complex dtype, got {requested}")
    data = _atleast_2d(first)
    if not rowvar and first.ndim != 1:
        data = sh.transpose(data)
    if data.shape[0] == 0:
        return sh.reshape(asarray([], dtype=data.dtype), (0, 0))
    if len(operands) > 1:
        other = _atleast_2d(operands[1])
        if not rowvar and other.shape[0] != 1:
            other = sh.transpose(other)
        data = sh.concatenate([data, other], axis=0)
    if data.shape[1] == 0:
        return full(() if data.shape[0] == 1 else (data.shape[0], data.shape[0]), float("nan"), dtype=data.dtype)
    shift = (1 if not bias else 0) if ddof is None else ddof
    weights: Array | None = None
    analytic: Array | None = None
    if fweights is not None:
        fw = asarray_operand("cov", fweights)
        _check_weights("fweights", fw, data.shape[1])
        if not dtypes.is_integer(fw.dtype):
            raise JaxtypedTypeError(f"jnp.cov: fweights must be integers, got {fw.aval.str_short()}")
        weights = uf.abs(fw)
    if aweights is not None:
        aw = asarray_operand("cov", aweights)
        _check_weights("aweights", aw, data.shape[1])
        analytic = uf.abs(aw)
        weights = analytic if weights is None else uf.multiply(weights, analytic)
    if requested is not None:
        data = convert_to(data, requested, weak_type=False)
        weights = None if weights is None else convert_to(weights, requested, weak_type=False)
    centre, weight_sums = average(data, axis=1, weights=weights, returned=True)
    weight_sum = weight_sums[0]
    if weights is None:
        factor: ArrayLike = data.shape[1] - shift
    elif shift == 0:
        factor = weight_sum
    elif analytic is None:
        factor = uf.subtract(weight_sum, shift)
    else:
        factor = uf.subtract(weight_sum, uf.divide(uf.multiply(shift, red.sum(uf.multiply(weights, analytic))), weight_sum))
    centred = uf.subtract(data, sh.expand_dims(centre, 1))
    scaled = centred if weights is None else uf.multiply(centred, weights)
    product = sh.matmul(centred, uf.conjugate(sh.transpose(scaled)))
    return sh.squeeze(uf.divide(product, factor))


def _check_weights(name: str, w: Array, samples: int) -> None:
    if w.ndim > 1:
        raise JaxtypedValueError(f"jnp.cov: {name} must be 1-d, got {w.aval.str_short()}")
    if w.shape[0] != samples:
        raise JaxtypedValueError(f"jnp.cov: {name} has {w.shape[0]} entries for {samples} samples")


def corrcoef(x: ArrayLike, y: ArrayLike | None = None, rowvar: bool = True, dtype: "dtypes.DTypeLike | None" = None) -> Array:
    """Pearson correlation coefficients of the variables of ``x`` (and
    ``y``), clipped to [-1, 1]."""
    requested = dtype_arg(dtype)
    if requested is not None and not dtypes.is_inexact(requested):
        raise JaxtypedValueError(f"jnp.corrcoef: dtype must be a float or complex dtype, got {requested}")
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim == 0:
        return uf.divide(c, c)
    n = c.shape[0]
    diagonal = red.sum(uf.where(_eye_mask(n), c, full_like_aval(c.aval, 0)), axis=1)
    deviation = convert_to(uf.sqrt(uf.real(diagonal)), c.dtype, weak_type=False)
    c = uf.divide(uf.divide(c, sh.expand_dims(deviation, 1)), sh.expand_dims(deviation, 0))
    real_part = uf.clip(uf.real(c), -1, 1)
    if dtypes.is_complex(c.dtype):
        return lc.complex(real_part, uf.clip(uf.imag(c), -1, 1))
    return real_part


def _eye_mask(n: int) -> Array:
    rows = broadcasted_iota(np.dtype(np.int32), (n, n), 0)
    return lcmp.eq(rows, broadcasted_iota(np.dtype(np.int32), (n, n), 1))
