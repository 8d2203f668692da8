"""Differences, derivatives, integrals and interpolation of
``jaxtyped.numpy`` (layer L5): ``diff``, ``ediff1d``, ``gradient``,
``trapezoid``, ``unwrap``, ``interp``."""

import math
from collections.abc import Sequence

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.errors import JaxtypedNotImplementedError, JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.lax import arithmetic as la
from jaxtyped._src.lax import comparison as lcmp
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.lax.cumulative import cumsum
from jaxtyped._src.lax.slicing import slice_in_dim
from jaxtyped._src.lax.structural import expand_dims
from jaxtyped._src.numpy import reductions as red
from jaxtyped._src.numpy import shape_ops as sh
from jaxtyped._src.numpy import ufuncs as uf
from jaxtyped._src.numpy.order_util import argsort_last, take_along_last
from jaxtyped._src.numpy.sorting import searchsorted
from jaxtyped._src.numpy.promotion import asarray_operand, broadcast_to_shape, promote_dtypes
from jaxtyped._src.util import canonicalize_axis, is_int

__all__ = ["diff", "ediff1d", "gradient", "trapezoid", "unwrap", "interp"]


def _static_int(name: str, what: str, value: object) -> int:
    if not is_int(value):
        raise JaxtypedTypeError(f"jnp.{name}: {what} must be an integer, got {type(value).__name__} {value!r}")
    return int(value)


def _edge(name: str, value: ArrayLike, like: Array, axis: int) -> Array:
    """``prepend``/``append``: a scalar becomes one slice along ``axis``."""
    edge = asarray_operand(name, value)
    if edge.ndim:
        return edge
    shape = list(like.shape)
    shape[axis] = 1
    return broadcast_to_shape(edge, tuple(shape))


def diff(a: ArrayLike, n: int = 1, axis: int = -1, prepend: ArrayLike | None = None, append: ArrayLike | None = None) -> Array:
    """The ``n``-th discrete difference along ``axis`` (``!=`` for booleans)."""
    x = asarray_operand("diff", a)
    order = _static_int("diff", "n", n)
    axis = _static_int("diff", "axis", axis)
    if order == 0:
        return x
    if order < 0:
        raise JaxtypedValueError(f"jnp.diff: order must be non-negative, got n={order}")
    if x.ndim == 0:
        raise JaxtypedValueError("jnp.diff: input must be at least one-dimensional, got a 0-d array")
    ax = canonicalize_axis(axis, x.ndim, where="jnp.diff axis")
    parts = [x]
    if prepend is not None:
        parts.insert(0, _edge("diff", prepend, x, ax))
    if append is not None:
        parts.append(_edge("diff", append, x, ax))
    if len(parts) > 1:
        x = sh.concatenate(parts, axis=ax)
    for _ in range(order):
        upper, lower = slice_in_dim(x, 1, None, axis=ax), slice_in_dim(x, None, -1, axis=ax)
        x = uf.not_equal(upper, lower) if dtypes.is_bool(x.dtype) else la.sub(upper, lower)
    return x


def ediff1d(ary: ArrayLike, to_end: ArrayLike | None = None, to_begin: ArrayLike | None = None) -> Array:
    """Differences of consecutive elements of the flattened ``ary``, with
    ``to_begin``/``to_end`` (in ``ary``'s dtype) around them."""
    flat = sh.ravel(asarray_operand("ediff1d", ary))
    result = la.sub(slice_in_dim(flat, 1, None), slice_in_dim(flat, None, -1))
    if to_begin is not None:
        begin = convert_to(sh.ravel(asarray_operand("ediff1d", to_begin)), flat.dtype, weak_type=flat.weak_type)
        result = sh.concatenate([begin, result])
    if to_end is not None:
        end = convert_to(sh.ravel(asarray_operand("ediff1d", to_end)), flat.dtype, weak_type=flat.weak_type)
        result = sh.concatenate([result, end])
    return result


def _gradient_along(f: Array, spacing: Array, axis: int) -> Array:
    def part(start: int | None, stop: int | None, of: Array = f) -> Array:
        return slice_in_dim(of, start, stop, axis=axis)

    first = la.sub(part(1, 2), part(0, 1))
    last = la.sub(part(-1, None), part(-2, -1))
    if spacing.ndim == 0:
        inner = uf.divide(uf.multiply(la.sub(part(2, None), part(None, -2)), 0.5), spacing)
        return sh.concatenate([uf.divide(first, spacing), inner, uf.divide(last, spacing)], axis=axis)
    if spacing.ndim != 1:
        raise JaxtypedValueError("jnp.gradient: spacing arrays must be 1-d arrays or scalars")
    if spacing.shape[0] != f.shape[axis]:
        raise JaxtypedValueError(
            f"jnp.gradient: a spacing array must have the length of axis {axis} ({f.shape[axis]}), got {spacing.shape[0]}"
        )
    shape = [1] * f.ndim
    shape[axis] = spacing.shape[0]
    h = sh.reshape(spacing, shape)
    first = uf.divide(first, la.sub(part(1, 2, h), part(0, 1, h)))
    last = uf.divide(last, la.sub(part(-1, None, h), part(-2, -1, h)))
    left = la.sub(part(1, -1, h), part(0, -2, h))
    right = la.sub(part(2, None, h), part(1, -1, h))
    # Second-order accurate weights on an uneven grid (NumPy's).
    w_prev = uf.divide(uf.negative(right), uf.multiply(left, uf.add(left, right)))
    w_here = uf.divide(uf.subtract(right, left), uf.multiply(left, right))
    w_next = uf.divide(left, uf.multiply(right, uf.add(left, right)))
    inner = uf.add(uf.add(uf.multiply(w_prev, part(0, -2)), uf.multiply(w_here, part(1, -1))), uf.multiply(w_next, part(2, None)))
    return sh.concatenate([first, inner, last], axis=axis)


def gradient(
    f: ArrayLike, *varargs: ArrayLike, axis: int | Sequence[int] | None = None, edge_order: int | None = None
) -> Array | list[Array]:
    """Central differences inside, one-sided differences at the edges, along
    each of ``axis`` (a list of arrays for several axes); ``varargs`` are
    scalar spacings or coordinate arrays."""
    if edge_order is not None:
        raise JaxtypedNotImplementedError("jnp.gradient: the edge_order argument is not supported (as in JAX)")
    x, *spacings = promote_dtypes("gradient", (f, *varargs), inexact=True)
    if axis is None:
        axes = tuple(range(x.ndim))
    else:
        given = (axis,) if isinstance(axis, int) else tuple(axis)
        axes = tuple(canonicalize_axis(_static_int("gradient", "axis", a), x.ndim, where="jnp.gradient axis") for a in given)
    if not axes:
        return []
    if min(x.shape[a] for a in axes) < 2:
        raise JaxtypedValueError(f"jnp.gradient: every axis needs at least 2 elements, got {x.aval.str_short()}")
    if not spacings:
        steps: list[Array] = [convert_to(asarray_operand("gradient", 1.0), x.dtype, weak_type=True)] * len(axes)
    elif len(spacings) == 1:
        steps = spacings * len(axes)
    elif len(spacings) == len(axes):
        steps = list(spacings)
    else:
        raise JaxtypedTypeError(f"jnp.gradient: {len(spacings)} spacing arguments for {len(axes)} axes")
    results = [_gradient_along(x, h, a) for a, h in zip(axes, steps)]
    return results[0] if len(axes) == 1 else results


def trapezoid(y: ArrayLike, x: ArrayLike | None = None, dx: ArrayLike = 1.0, axis: int = -1) -> Array:
    """The integral of ``y`` along ``axis`` by the trapezoidal rule, at
    sample points ``x`` or with spacing ``dx``."""
    if x is None:
        (values,) = promote_dtypes("trapezoid", (y,), inexact=True)
        step = asarray_operand("trapezoid", dx)
        if step.ndim:
            step = sh.moveaxis(expand_dims(step, tuple(range(values.ndim - step.ndim))), axis, -1)
    else:
        values, points = promote_dtypes("trapezoid", (y, x), inexact=True)
        step = diff(points) if points.ndim == 1 else sh.moveaxis(diff(points, axis=axis), axis, -1)
    values = sh.moveaxis(values, axis, -1)
    if step.ndim == 0 or step.shape[-1] == 1:
        width = step if step.ndim == 0 else slice_in_dim(step, 0, 1, axis=-1)[..., 0]
        ends = uf.add(values[..., 0], values[..., -1])
        return uf.multiply(width, uf.subtract(red.sum(values, axis=-1), uf.multiply(0.5, ends)))
    pairs = uf.add(values[..., 1:], values[..., :-1])
    return uf.multiply(0.5, red.sum(uf.multiply(step, pairs), axis=-1))


def unwrap(p: ArrayLike, discont: ArrayLike | None = None, axis: int = -1, period: ArrayLike = 2 * math.pi) -> Array:
    """``p`` with jumps larger than ``discont`` (default ``period/2``)
    replaced by their complement modulo ``period``."""
    x, period_ = promote_dtypes("unwrap", (p, period))
    if dtypes.is_complex(x.dtype):
        raise JaxtypedValueError("jnp.unwrap: complex input is not supported")
    ax = canonicalize_axis(axis, x.ndim, where="jnp.unwrap axis")
    if x.shape[ax] == 0:
        return x
    threshold = uf.divide(period_, 2) if discont is None else discont
    interval = uf.floor_divide(period_, 2) if dtypes.is_integer(x.dtype) else uf.divide(period_, 2)
    step = diff(x, axis=ax)
    wrapped = uf.subtract(uf.remainder(uf.add(step, interval), period_), interval)
    wrapped = uf.where(lcmp.bitwise_and(uf.equal(wrapped, uf.negative(interval)), uf.greater(step, 0)), interval, wrapped)
    correction = uf.where(uf.less(uf.abs(step), threshold), 0, uf.subtract(wrapped, step))
    rest = uf.add(slice_in_dim(x, 1, None, axis=ax), cumsum(correction, axis=ax))
    return sh.concatenate([slice_in_dim(x, 0, 1, axis=ax), rest], axis=ax)


def _extrapolates(name: str, value: ArrayLike | str | None) -> None:
    if isinstance(value, str) and value != "extrapolate":
        raise JaxtypedValueError(f"jnp.interp: the only string value of {name} is 'extrapolate', got {value!r}")


def interp(
    x: ArrayLike,
    xp: ArrayLike,
    fp: ArrayLike,
    left: ArrayLike | str | None = None,
    right: ArrayLike | str | None = None,
    period: ArrayLike | None = None,
) -> Array:
    """Piecewise-linear interpolation of the points ``(xp, fp)`` (``xp``
    increasing) at ``x``; ``left``/``right`` outside (``'extrapolate'``
    continues the end segments), or periodic with ``period``."""
    knots_x, knots_f = asarray_operand("interp", xp, 1), asarray_operand("interp", fp, 2)
    if knots_x.shape != knots_f.shape or knots_x.ndim != 1:
        raise JaxtypedValueError(
            f"jnp.interp: xp and fp must be 1-d arrays of equal size, got {knots_x.aval.str_short()} and {knots_f.aval.str_short()}"
        )
    at, knots_x = promote_dtypes("interp", (x, knots_x), inexact=True)
    (knots_f,) = promote_dtypes("interp", (knots_f,), inexact=True)
    _extrapolates("left", left)
    _extrapolates("right", right)
    if dtypes.is_complex(at.dtype):
        raise JaxtypedValueError("jnp.interp: complex x values are not supported")
    if period is not None:
        span = asarray_operand("interp", period)
        if span.ndim:
            raise JaxtypedValueError(f"jnp.interp: period must be a scalar, got {span.aval.str_short()}")
        span = uf.abs(span)
        at, knots_x = uf.remainder(at, span), uf.remainder(knots_x, span)
        order = argsort_last(knots_x)
        knots_x, knots_f = take_along_last(knots_x, order), take_along_last(knots_f, order)
        knots_x = sh.concatenate([uf.subtract(knots_x[-1:], span), knots_x, uf.add(knots_x[:1], span)])
        knots_f = sh.concatenate([knots_f[-1:], knots_f, knots_f[:1]])
    n = knots_x.shape[0]
    upper = uf.clip(searchsorted(knots_x, at, side="right"), 1, n - 1)
    lower = uf.subtract(upper, 1)

    def at_knots(values: Array, index: Array) -> Array:
        return sh.reshape(take_along_last(values, sh.ravel(index)), index.shape)

    f_low, x_low = at_knots(knots_f, lower), at_knots(knots_x, lower)
    rise = uf.subtract(at_knots(knots_f, upper), f_low)
    run = uf.subtract(at_knots(knots_x, upper), x_low)
    # A zero-width segment gives its left value (no NaN gradient through 0/0).
    flat = uf.less_equal(uf.abs(run), float(np.spacing(dtypes.finfo(knots_x.dtype).eps)))
    result = uf.where(flat, f_low, uf.add(f_low, uf.multiply(uf.divide(uf.subtract(at, x_low), uf.where(flat, 1, run)), rise)))
    if period is None and not isinstance(left, str):
        result = uf.where(uf.less(at, knots_x[0]), knots_f[0] if left is None else left, result)
    if period is None and not isinstance(right, str):
        result = uf.where(uf.greater(at, knots_x[-1]), knots_f[-1] if right is None else right, result)
    return result
