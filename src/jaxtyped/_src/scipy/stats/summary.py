"""Summary statistics of ``jax.scipy.stats``: ``sem`` (the standard error
of the mean), ``mode`` and ``rankdata``."""

import math
from typing import NamedTuple

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.errors import JaxtypedNotImplementedError, JaxtypedValueError
from jaxtyped._src.lax.cumulative import cummax, cummin, cumsum
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.lax.sorting import sort_key_val
from jaxtyped._src.lax.structural import broadcasted_iota
from jaxtyped._src.numpy import reductions as jr
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.creation import full, ones
from jaxtyped._src.numpy.index_functions import take_along_axis
from jaxtyped._src.numpy.manipulation import atleast_1d
from jaxtyped._src.numpy.promotion import asarray_operand, promote_args_inexact
from jaxtyped._src.numpy.shape_ops import concatenate, moveaxis, ravel, reshape
from jaxtyped._src.numpy.sorting import sort
from jaxtyped._src.numpy.statistics import nanstd, std
from jaxtyped._src.util import canonicalize_axis

__all__ = ["ModeResult", "sem", "mode", "rankdata"]


def _check_nan_policy(name: str, nan_policy: str) -> None:
    """Only ``"propagate"`` is implemented (as in JAX)."""
    if nan_policy not in ("propagate", "omit", "raise"):
        raise JaxtypedValueError(
            f"{name}: illegal nan_policy value {nan_policy!r}; expected one of 'propagate', 'omit', 'raise'"
        )
    if nan_policy != "propagate":
        raise JaxtypedNotImplementedError(
            f"{name}: nan_policy={nan_policy!r} (a compiled function cannot test for NaNs first; check outside)"
        )


def sem(a: ArrayLike, axis: int | None = 0, ddof: int = 1, nan_policy: str = "propagate", *, keepdims: bool = False) -> Array:
    """The standard error of the mean, ``std(a, ddof=ddof) / sqrt(n)`` along
    ``axis`` (all of ``a`` for ``None``); ``nan_policy="omit"`` leaves NaNs
    out of both.

    Raises:
        JaxtypedValueError: ``nan_policy`` is not ``"propagate"`` or ``"omit"``.
    """
    (b,) = promote_args_inexact("sem", a)
    if nan_policy == "propagate":
        size = b.size if axis is None else b.shape[axis]
        return ju.divide(std(b, axis, ddof=ddof, keepdims=keepdims), convert_to(ju.sqrt(size), b.dtype, weak_type=False))
    if nan_policy == "omit":
        count = jr.sum(ju.logical_not(ju.isnan(b)), axis=axis, keepdims=keepdims)
        root = convert_to(ju.sqrt(count), b.dtype, weak_type=False)
        return ju.divide(nanstd(b, axis, ddof=ddof, keepdims=keepdims), root)
    raise JaxtypedValueError(f"sem: nan_policy={nan_policy!r} is not supported; use 'propagate' or 'omit'")


class ModeResult(NamedTuple):
    """The result of :func:`mode`: the most common value and its count."""

    mode: Array
    count: Array  # type: ignore[assignment]  # pyright: ignore[reportIncompatibleMethodOverride]  # JAX's field name shadows tuple.count


def _equal_runs(s: Array) -> Array:
    """Whether each entry of ``s`` (sorted along axis 0) equals the one
    before it (NaNs equal each other); ``False`` for the first."""
    previous, current = s[:-1], s[1:]
    same = ju.logical_or(ju.equal(current, previous), ju.logical_and(ju.isnan(current), ju.isnan(previous)))
    return concatenate([full((1, *s.shape[1:]), False), same], axis=0)


def mode(a: ArrayLike, axis: int | None = 0, nan_policy: str = "propagate", keepdims: bool = False) -> ModeResult:
    """The most common value along ``axis`` (all of ``a`` for ``None``), the
    smallest of equally common ones (NaNs count as one value), and how many
    times it occurs.

    Raises:
        JaxtypedValueError: an unknown ``nan_policy``.
        JaxtypedNotImplementedError: ``nan_policy`` is ``"omit"`` or ``"raise"``.
    """
    x = atleast_1d(asarray_operand("mode", a))
    _check_nan_policy("mode", nan_policy)
    if axis is None:
        shape = (1,) * x.ndim if keepdims else ()
        x, axis_ = ravel(x), 0
    else:
        axis_ = canonicalize_axis(axis, x.ndim, where="mode axis")
        shape = tuple(1 if i == axis_ else n for i, n in enumerate(x.shape) if keepdims or i != axis_)
    if x.shape[axis_] == 0:
        float_dtype = dtypes.default_float_dtype()
        return ModeResult(full(shape, math.nan, float_dtype), full(shape, 0, float_dtype))
    s = sort(moveaxis(x, axis_, 0), axis=0)
    position = broadcasted_iota(dtypes.default_int_dtype(), s.shape, 0)
    run_start = cummax(ju.where(_equal_runs(s), 0, position), axis=0)
    run_length = ju.add(ju.subtract(position, run_start), 1)  # so far, within the run of equal values
    best = jr.argmax(run_length, axis=0, keepdims=True)  # the first (smallest) value of the longest run
    value = take_along_axis(s, best, axis=0)
    return ModeResult(reshape(value, shape), reshape(jr.max(run_length, axis=0), shape))


_RANK_METHODS = ("average", "min", "max", "dense", "ordinal")


def _ranks_last_axis(x: Array, method: str) -> Array:
    """The 1-based ranks of ``x`` along its last axis, as floats."""
    last = x.ndim - 1
    n = x.shape[last]
    int_dtype = dtypes.default_int_dtype()
    float_dtype = dtypes.default_float_dtype()
    position = broadcasted_iota(int_dtype, x.shape, last)
    ordered, order = sort_key_val(x, position, dimension=last)
    inverse = sort_key_val(order, position, dimension=last)[1]  # where each entry of x went
    if method == "ordinal":
        by_sorted = ju.add(position, 1)
    else:
        edge = ones((*x.shape[:-1], 1), bool)
        differs = ju.not_equal(ordered[..., 1:], ordered[..., :-1])
        starts = concatenate([edge, differs], axis=last)
        if method == "dense":
            by_sorted = cumsum(convert_to(starts, int_dtype, weak_type=False), axis=last)
        else:
            ends = concatenate([differs, edge], axis=last)
            first = cummax(ju.where(starts, position, 0), axis=last)  # 0-based start of the tie group
            stop = cummin(ju.where(ends, ju.add(position, 1), n), axis=last, reverse=True)  # its 1-based last rank
            if method == "min":
                by_sorted = ju.add(first, 1)
            elif method == "max":
                by_sorted = stop
            else:
                low = convert_to(first, float_dtype, weak_type=False)
                high = convert_to(stop, float_dtype, weak_type=False)
                by_sorted = ju.multiply(0.5, ju.add(ju.add(high, low), 1.0))
    ranks = convert_to(take_along_axis(by_sorted, inverse, axis=last), float_dtype, weak_type=False)
    has_nan = jr.any(ju.isnan(x), axis=last, keepdims=True)
    return ju.where(has_nan, math.nan, ranks)


def rankdata(a: ArrayLike, method: str = "average", *, axis: int | None = None, nan_policy: str = "propagate") -> Array:
    """The ranks (from 1, as floats) of the entries of ``a`` flattened, or of
    each slice along ``axis``; ties share the ``"average"``, ``"min"`` or
    ``"max"`` rank of their group, or get consecutive ``"dense"`` group
    numbers, or ``"ordinal"`` ranks in order of appearance. NaN throughout
    (the array, or the slice) where there is a NaN.

    Raises:
        JaxtypedValueError: an unknown ``method`` or ``nan_policy``.
        JaxtypedNotImplementedError: ``nan_policy`` is ``"omit"`` or ``"raise"``.
    """
    x = asarray_operand("rankdata", a)
    _check_nan_policy("rankdata", nan_policy)
    if method not in _RANK_METHODS:
        raise JaxtypedValueError(f"rankdata: unknown method {method!r}; expected one of {', '.join(_RANK_METHODS)}")
    if axis is None:
        return _ranks_last_axis(ravel(x), method)
    axis_ = canonicalize_axis(axis, x.ndim, where="rankdata axis")
    return moveaxis(_ranks_last_axis(moveaxis(x, axis_, -1), method), -1, axis_)
