"""``jaxtyped.scipy.special`` (layer L5): special functions on top of the
lax primitives, with JAX's derivative rules where JAX defines its own.

``logsumexp``, ``softmax`` and ``log_softmax`` here are also what
``jaxtyped.nn`` exports: ``softmax``/``log_softmax`` take ``jax.nn``'s
signature (``axis=-1``, ``where``); the ``scipy.special`` spellings
(``axis=None``, keyword-only) are ``special_softmax`` and
``special_log_softmax``.
"""

import math
from collections.abc import Sequence
from typing import Literal, overload

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.custom_derivatives import custom_jvp
from jaxtyped._src.lax import arithmetic as la
from jaxtyped._src.lax import comparison as lcmp
from jaxtyped._src.lax import complex_ops as lc
from jaxtyped._src.lax import transcendental as lt
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.lax.structural import expand_dims
from jaxtyped._src.lax.util import scalar_like
from jaxtyped._src.numpy import reductions as jr
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.promotion import asarray_operand, promote_args_inexact
from jaxtyped._src.util import canonicalize_axes

__all__ = [
    "Axis",
    "logsumexp",
    "softmax",
    "log_softmax",
    "special_softmax",
    "special_log_softmax",
]

Axis = int | Sequence[int] | None


def _const(x: Array, value: float) -> Array:
    """A strongly typed constant of ``x``'s dtype."""
    return scalar_like(value, x.dtype, "constant", weak_type=False)


def _reduction_axes(name: str, x: Array, axis: Axis) -> tuple[int, ...]:
    if axis is None:
        return tuple(range(x.ndim))
    given = (axis,) if isinstance(axis, int) else tuple(axis)
    return tuple(sorted(canonicalize_axes(given, x.ndim, where=f"{name} axis")))


# === logsumexp ===


@overload
def logsumexp(
    a: ArrayLike,
    axis: Axis = None,
    b: ArrayLike | None = None,
    keepdims: bool = False,
    return_sign: Literal[False] = False,
    where: ArrayLike | None = None,
) -> Array: ...
@overload
def logsumexp(
    a: ArrayLike,
    axis: Axis = None,
    b: ArrayLike | None = None,
    keepdims: bool = False,
    *,
    return_sign: Literal[True],
    where: ArrayLike | None = None,
) -> tuple[Array, Array]: ...
@overload
def logsumexp(
    a: ArrayLike,
    axis: Axis = None,
    b: ArrayLike | None = None,
    keepdims: bool = False,
    return_sign: bool = False,
    where: ArrayLike | None = None,
) -> Array | tuple[Array, Array]: ...
def logsumexp(
    a: ArrayLike,
    axis: Axis = None,
    b: ArrayLike | None = None,
    keepdims: bool = False,
    return_sign: bool = False,
    where: ArrayLike | None = None,
) -> Array | tuple[Array, Array]:
    """``log(sum(b * exp(a)))`` over ``axis``, computed stably.

    The largest finite entry is subtracted first and held constant for
    differentiation, so the gradient is the softmax (zero at ``-inf``
    entries). With ``b`` (which may be negative) and ``return_sign`` the
    result is ``(log|sum|, sign(sum))``; without ``return_sign`` a negative
    sum gives NaN.
    """
    if where is not None:
        a = ju.where(where, a, 0)
    if b is not None:
        x, scale = promote_args_inexact("logsumexp", a, b)
        x = ju.where(lcmp.ne(scale, _const(scale, 0)), x, -np.inf)
    else:
        (x,) = promote_args_inexact("logsumexp", a)
        scale = x
    axes = _reduction_axes("logsumexp", x, axis)
    real_x = lc.real(x) if dtypes.is_complex(x.dtype) else x
    biggest = jr.max(real_x, axis=axes, keepdims=keepdims, where=where, initial=-np.inf)
    # The shift only keeps exp in range: it gets no derivative, and an
    # infinite maximum (all -inf, or +inf) shifts by 0.
    biggest = la.stop_gradient(ju.where(ju.isfinite(biggest), biggest, _const(biggest, 0)))
    shift = biggest if keepdims else expand_dims(biggest, axes)
    terms = lt.exp(ju.subtract(x, convert_to(shift, x.dtype, weak_type=x.weak_type)))
    if b is not None:
        terms = ju.multiply(terms, scale)
    total = jr.sum(terms, axis=axes, keepdims=keepdims, where=where)
    sign = la.sign(total)
    if return_sign or not dtypes.is_complex(total.dtype):
        total = la.abs(total)
    out = la.add(lt.log(total), convert_to(biggest, total.dtype, weak_type=total.weak_type))
    if return_sign:
        return out, sign
    if b is not None and not dtypes.is_complex(out.dtype):
        out = ju.where(lcmp.lt(sign, _const(sign, 0)), _const(out, math.nan), out)
    return out


# === softmax and log_softmax ===


def _softmax_impl(x: Array, axis: Axis, where: ArrayLike | None) -> Array:
    biggest = jr.max(x, axis, where=where, initial=-np.inf, keepdims=True)
    masked = x if where is None else ju.where(where, x, -np.inf)
    unnormalized = lt.exp(ju.subtract(masked, biggest))
    result = ju.divide(unnormalized, jr.sum(unnormalized, axis, where=where, keepdims=True))
    return result if where is None else ju.where(where, result, 0)


def _softmax_jvp(axis: Axis, where: ArrayLike | None, primals: tuple[Array], tangents: tuple[Array]) -> tuple[Array, Array]:
    (x,), (dx,) = primals, tangents
    y = _softmax_core(x, axis, where)
    projected = jr.sum(la.mul(y, dx), axis, where=where, keepdims=True)
    return y, ju.multiply(y, ju.subtract(dx, projected))


def _softmax_core_fun(x: Array, axis: Axis, where: ArrayLike | None) -> Array:
    return _softmax_impl(x, axis, where)


# softmax's own derivative (JAX's): y * (dx - sum(y * dx)), which stays
# finite where differentiating the composition would meet inf - inf.
_softmax_core = custom_jvp(_softmax_core_fun, nondiff_argnums=(1, 2))
_softmax_core.defjvp(_softmax_jvp)


def _float_operand(name: str, x: ArrayLike) -> Array:
    asarray_operand(name, x)
    (arr,) = promote_args_inexact(name, x)
    return arr


def softmax(x: ArrayLike, axis: Axis = -1, where: ArrayLike | None = None) -> Array:
    """``exp(x) / sum(exp(x))`` along ``axis`` (``jax.nn.softmax``);
    masked-out entries (``where`` false) give 0."""
    arr = _float_operand("softmax", x)
    _reduction_axes("softmax", arr, axis)
    return _softmax_core(arr, axis, where)


def log_softmax(x: ArrayLike, axis: Axis = -1, where: ArrayLike | None = None) -> Array:
    """``x - logsumexp(x)`` along ``axis`` (``jax.nn.log_softmax``);
    masked-out entries (``where`` false) give ``-inf``."""
    arr = _float_operand("log_softmax", x)
    _reduction_axes("log_softmax", arr, axis)
    biggest = jr.max(arr, axis, where=where, initial=-np.inf, keepdims=True)
    masked = arr if where is None else ju.where(where, arr, -np.inf)
    shifted = ju.subtract(masked, la.stop_gradient(biggest))
    result = ju.subtract(shifted, lt.log(jr.sum(lt.exp(shifted), axis, where=where, keepdims=True)))
    return result if where is None else ju.where(where, result, -np.inf)


def special_softmax(x: ArrayLike, /, *, axis: int | tuple[int, ...] | None = None) -> Array:
    """``jax.scipy.special.softmax``: the softmax over ``axis`` (all axes by
    default)."""
    return softmax(x, axis=axis)


def special_log_softmax(x: ArrayLike, /, *, axis: int | tuple[int, ...] | None = None) -> Array:
    """``jax.scipy.special.log_softmax``: the log-softmax over ``axis`` (all
    axes by default)."""
    return log_softmax(x, axis=axis)
