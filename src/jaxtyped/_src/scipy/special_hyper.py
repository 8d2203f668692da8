"""Bessel functions of the first kind of integer order and the confluent
hypergeometric function (layer L5): ``bessel_jn`` and ``hyp1f1`` of
``jax.scipy.special``.

``hyp1f1`` sums its Taylor series (``|x| < 100``) or its asymptotic series
(``|x| >= 100``), as JAX's (Pearson, Olver and Porter's methods); negative
``x`` goes through Kummer's transformation ``1F1(a; b; x) = e**x 1F1(b - a;
b; -x)`` (no cancellation, and right for ``x <= -100``, where JAX's is not),
and a non-positive integer ``a`` keeps the terminating Taylor series (a
polynomial; JAX's asymptotic series gives NaN there). The derivatives are
JAX's rules: series in ``a`` and ``b``, ``(a / b) 1F1(a + 1; b + 1; x)`` in
``x``.

The values come from Miller's backward recurrence ``J_{k-1} = (2k / z) J_k
- J_{k+1}``, started far above the wanted orders and normalized by ``J_0 +
2 (J_2 + J_4 + ...) = 1`` (Zhang and Jin's method, as JAX's), written as a
``scan`` so it is differentiable (both modes), batchable and lowerable.
Unlike JAX's, each step rescales the recurrence by a power of two, so small
arguments do not overflow (JAX's float32 values are NaN for ``|z| <= 2``),
and ``J_n(0)`` is exact.
"""

import math
from collections.abc import Callable

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.custom_derivatives import custom_jvp
from jaxtyped._src.lax.control_flow.scan import scan
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.creation import arange, asarray, full_like
from jaxtyped._src.numpy.promotion import promote_args_inexact
from jaxtyped._src.numpy.manipulation import broadcast_arrays
from jaxtyped._src.numpy.shape_ops import expand_dims
from jaxtyped._src.scipy.special import digamma, gammaln, gammasgn
from jaxtyped._src.scipy.special_integrals import masked_while
from jaxtyped._src.util import is_int

__all__ = ["bessel_jn", "hyp1f1"]

_Carry = tuple[Array, Array, Array, Array]


def _static_int(name: str, value: object) -> int:
    if not is_int(value):
        raise JaxtypedTypeError(f"Argument {name} of bessel_jn must be a concrete int, got {type(value).__name__}")
    return int(value)


def _miller(z: Array, v: int, n_iter: int) -> Array:
    """``J_0(z) .. J_v(z)`` stacked on a new leading axis."""
    zero = full_like(z, 0.0)

    def step(carry: _Carry, k: Array) -> tuple[_Carry, tuple[Array, Array]]:
        f0, f1, total, exponent = carry
        f = ju.subtract(ju.divide(ju.multiply(ju.multiply(ju.add(k, 1.0), 2.0), f1), z), f0)
        even = ju.equal(ju.fmod(k, 2.0), 0.0)
        total = ju.where(even, ju.add(total, ju.multiply(f, 2.0)), total)
        # Take out the power of two of the newest value: exact, and a
        # constant of differentiation (floor's derivative is zero).
        magnitude = ju.abs(f)
        usable = ju.logical_and(ju.isfinite(magnitude), ju.greater(magnitude, 0.0))
        shift = ju.where(usable, ju.floor(ju.log2(ju.where(usable, magnitude, 1.0))), 0.0)
        scale = ju.exp2(ju.negative(shift))
        new = (ju.multiply(f1, scale), ju.multiply(f, scale), ju.multiply(total, scale), ju.add(exponent, shift))
        return new, (f, exponent)

    init = (zero, full_like(z, 1e-16), zero, zero)
    orders = arange(n_iter + 1, dtype=z.dtype)
    (_, _, total, exponent), (values, exponents) = scan(step, init, orders, reverse=True)
    # values[k] is J_k unnormalized, in units of 2**exponents[k]; the last
    # step (k = 0) is in units of 2**exponents[0] too, as is its total.
    j0 = values[0]
    norm = ju.subtract(total, ju.multiply(j0, ju.exp2(ju.subtract(exponents[0], exponent))))
    wanted = values[: v + 1]
    relative = ju.exp2(ju.subtract(exponents[: v + 1], expand_dims(exponent, 0)))
    return ju.divide(ju.multiply(wanted, relative), expand_dims(norm, 0))


def bessel_jn(z: ArrayLike, *, v: int, n_iter: int = 50) -> Array:
    """Bessel functions of the first kind ``J_0(z) .. J_v(z)`` of real
    ``z``, an array of shape ``(v + 1, *z.shape)`` (JAX's
    ``jax.scipy.special.bessel_jn``); ``n_iter`` is the starting order of
    the backward recurrence (about ``|z| + 20`` is needed). Exact at
    ``z = 0``.

    Raises:
        JaxtypedTypeError: ``v`` or ``n_iter`` is not a concrete int.
        JaxtypedValueError: ``z`` is complex, or ``v`` is negative.
    """
    order = _static_int("v", v)
    steps = _static_int("n_iter", n_iter)
    (arr,) = promote_args_inexact("bessel_jn", asarray(z))
    if dtypes.is_complex(arr.dtype):
        raise JaxtypedValueError("complex input not supported.")
    if order < 0:
        raise JaxtypedValueError(f"bessel_jn: v must be non-negative, got {order}")
    if order > steps:
        raise JaxtypedValueError(f"bessel_jn: v={order} exceeds n_iter={steps}")
    x = convert_to(arr, arr.dtype, weak_type=False)
    at_zero = ju.equal(x, 0.0)
    safe = ju.where(at_zero, 1.0, x)
    values = _miller(safe, order, steps)
    exact = asarray(np.array([1.0] + [0.0] * order, dtype=x.dtype).reshape((order + 1,) + (1,) * x.ndim))
    out = ju.where(expand_dims(at_zero, 0), exact, values)
    return convert_to(out, x.dtype, weak_type=False)




# === hyp1f1 ===

_HYP_MAX_TERMS = 250
_Series = tuple[Array, Array, Array]


def _taylor(a: Array, b: Array, x: Array, weight: Callable[[Array], Array] | None = None) -> Array:
    """``sum_k (a)_k / (b)_k x**k / k!``, each term times ``weight(k)``
    (1 by default; the ``k = 0`` term is then left out)."""
    eps = float(np.finfo(x.dtype).eps)
    one = full_like(x, 1.0)

    def running(carry: _Series) -> Array:
        k, term, total = carry
        big = ju.greater(ju.abs(term), ju.multiply(ju.abs(total), eps))
        return ju.logical_and(ju.less(k, float(_HYP_MAX_TERMS)), ju.logical_or(big, ju.equal(total, 0.0)))

    def body(carry: _Series) -> _Series:
        k, term, total = carry
        total = ju.add(total, term if weight is None else ju.multiply(term, weight(k)))
        term = ju.multiply(term, ju.multiply(ju.divide(ju.add(a, k), ju.add(b, k)), ju.divide(x, ju.add(k, 1.0))))
        return ju.add(k, 1.0), term, total

    first = ju.divide(ju.multiply(a, x), b)
    start = one if weight is None else full_like(x, 0.0)
    _, _, total = masked_while(running, body, (one, first, start))
    # A series that stops at once (its first term is 0: a = 0 or x = 0).
    return total


def _asymptotic(a: Array, b: Array, x: Array) -> Array:
    """``Gamma(b) / Gamma(a) e**x x**(a - b) sum_k (b - a)_k (1 - a)_k / (k! x**k)``
    for ``x >= 100``, its size taken through logarithms."""
    eps = float(np.finfo(x.dtype).eps)

    def running(carry: _Series) -> Array:
        k, term, total = carry
        return ju.logical_and(ju.less(k, float(_HYP_MAX_TERMS)), ju.greater(ju.abs(term), ju.multiply(ju.abs(total), eps)))

    def body(carry: _Series) -> _Series:
        k, term, total = carry
        total = ju.add(total, term)
        term = ju.divide(ju.multiply(term, ju.multiply(ju.add(ju.subtract(b, a), k), ju.add(ju.subtract(1.0, a), k))), ju.multiply(ju.add(k, 1.0), x))
        return ju.add(k, 1.0), term, total

    one = full_like(x, 1.0)
    first = ju.divide(ju.multiply(ju.subtract(b, a), ju.subtract(1.0, a)), x)
    _, _, total = masked_while(running, body, (one, first, one))
    log_size = ju.add(ju.subtract(gammaln(b), gammaln(a)), ju.add(x, ju.multiply(ju.subtract(a, b), ju.log(x))))
    return ju.multiply(ju.multiply(ju.multiply(gammasgn(b), gammasgn(a)), ju.exp(log_size)), total)


def _hyp1f1_value(a: Array, b: Array, x: Array) -> Array:
    terminating = ju.logical_and(ju.less_equal(a, 0.0), ju.equal(a, ju.floor(a)))
    negative = ju.less(x, 0.0)
    # Kummer: negative x as e**x 1F1(b - a; b; -x), unless the series terminates.
    kummer = ju.logical_and(negative, ju.logical_not(terminating))
    p = ju.where(kummer, ju.subtract(b, a), a)
    y = ju.where(kummer, ju.negative(x), x)
    far = ju.logical_and(ju.greater_equal(ju.abs(y), 100.0), ju.logical_not(terminating))
    near = _taylor(p, b, ju.where(far, 0.0, y))
    asymptotic = _asymptotic(p, b, ju.where(far, y, 100.0))
    value = ju.where(far, asymptotic, near)
    value = ju.where(kummer, ju.multiply(ju.exp(x), value), value)
    a_zero, same = ju.equal(a, 0.0), ju.equal(a, b)
    value = ju.where(ju.logical_and(ju.equal(b, 0.0), ju.logical_not(a_zero)), math.inf, value)
    value = ju.where(ju.logical_and(same, ju.logical_not(a_zero)), ju.exp(x), value)
    return ju.where(a_zero, 1.0, value)


def _hyp1f1_jvp(primals: tuple[Array, Array, Array], tangents: tuple[Array, Array, Array]) -> tuple[Array, Array]:
    (a, b, x), (da, db, dx) = primals, tangents
    out = _hyp1f1_core(a, b, x)
    psi_a, psi_b = digamma(a), digamma(b)
    d_a = _taylor(a, b, x, lambda k: ju.subtract(digamma(ju.add(a, k)), psi_a))
    d_b = _taylor(a, b, x, lambda k: ju.subtract(psi_b, digamma(ju.add(b, k))))
    d_x = ju.multiply(ju.divide(a, b), _hyp1f1_core(ju.add(a, 1.0), ju.add(b, 1.0), x))
    return out, ju.add(ju.add(ju.multiply(d_a, da), ju.multiply(d_b, db)), ju.multiply(d_x, dx))


_hyp1f1_core = custom_jvp(_hyp1f1_value)
_hyp1f1_core.defjvp(_hyp1f1_jvp)


def hyp1f1(a: ArrayLike, b: ArrayLike, x: ArrayLike) -> Array:
    """The confluent hypergeometric function ``1F1(a; b; x) = sum_k (a)_k /
    (b)_k x**k / k!`` of real arguments (1 where ``a = 0``, ``e**x`` where
    ``a = b``, ``inf`` where ``b = 0``), with JAX's derivative rules in all
    three arguments."""
    p, q, y = promote_args_inexact("hyp1f1", a, b, x)
    if dtypes.is_complex(y.dtype):
        raise JaxtypedValueError("hyp1f1 does not support complex-valued inputs.")
    p, q, y = broadcast_arrays(*(convert_to(v, v.dtype, weak_type=False) for v in (p, q, y)))
    return convert_to(_hyp1f1_core(p, q, y), y.dtype, weak_type=False)
