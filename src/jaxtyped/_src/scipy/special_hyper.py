"""Bessel functions of the first kind of integer order, the confluent and
Gauss hypergeometric functions, the Faddeeva function and spherical
harmonics (layer L5): ``bessel_jn``, ``hyp1f1``, ``hyp2f1``, ``wofz`` and
``sph_harm_y`` of ``jax.scipy.special``.

``hyp2f1`` keeps JAX's special cases and derivative rules; its values come
from the Taylor series for ``0 <= x <= 0.75``, Pfaff's transformation for
``x < 0``, and the series in ``1 - x`` (Abramowitz and Stegun 15.3.6,
15.3.10, 15.3.11) above 0.75; terminating series are polynomials
everywhere. ``wofz`` is Weideman's rational approximation (as JAX's, the
coefficients computed here), ``sph_harm_y`` the stable recurrences of the
orthonormal associated Legendre functions.

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
from jaxtyped._src.lax import complex_ops as lc
from jaxtyped._src.lax.control_flow.scan import scan
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.creation import arange, asarray, full_like
from jaxtyped._src.numpy.promotion import promote_args_inexact
from jaxtyped._src.numpy.manipulation import broadcast_arrays
from jaxtyped._src.numpy.shape_ops import expand_dims, ravel
from jaxtyped._src.scipy.special import digamma, gamma, gammaln, gammasgn
from jaxtyped._src.scipy.special_integrals import masked_while
from jaxtyped._src.util import is_int

__all__ = ["bessel_jn", "hyp1f1", "hyp2f1", "sph_harm_y", "wofz"]

_Carry = tuple[Array, Array, Array, Array]


def _static_int(name: str, value: object, function: str = "bessel_jn") -> int:
    if not is_int(value):
        raise JaxtypedTypeError(f"Argument {name} of {function} must be a concrete int, got {type(value).__name__}")
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


def _taylor(
    a: Array,
    b: Array,
    x: Array,
    weight: Callable[[Array], Array] | None = None,
    *,
    upper: tuple[Array, ...] = (),
    count: Array | None = None,
) -> Array:
    """``sum_k (a)_k (u)_k ... / (b)_k x**k / k!`` (``u`` in ``upper``),
    each term times ``weight(k)`` (1 by default; the ``k = 0`` term is then
    left out); with ``count``, exactly the terms ``k < count``."""
    eps = float(np.finfo(x.dtype).eps)
    one = full_like(x, 1.0)

    def running(carry: _Series) -> Array:
        k, term, total = carry
        if count is not None:
            return ju.less(k, count)
        big = ju.greater(ju.abs(term), ju.multiply(ju.abs(total), eps))
        return ju.logical_and(ju.less(k, float(_HYP_MAX_TERMS)), ju.logical_or(big, ju.equal(total, 0.0)))

    def ratio(k: Array) -> Array:
        r = ju.divide(ju.add(a, k), ju.add(b, k))
        for u in upper:
            r = ju.multiply(r, ju.add(u, k))
        return r

    def body(carry: _Series) -> _Series:
        k, term, total = carry
        total = ju.add(total, term if weight is None else ju.multiply(term, weight(k)))
        term = ju.multiply(term, ju.multiply(ratio(k), ju.divide(x, ju.add(k, 1.0))))
        return ju.add(k, 1.0), term, total

    if weight is None:
        _, _, total = masked_while(running, body, (full_like(x, 0.0), one, full_like(x, 0.0)))
        return total
    _, _, total = masked_while(running, body, (one, ju.multiply(ratio(full_like(x, 0.0)), x), full_like(x, 0.0)))
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


# === hyp2f1 ===


def _rgamma(x: Array) -> Array:
    """``1 / Gamma(x)``, 0 at the poles."""
    pole = ju.logical_and(ju.less_equal(x, 0.0), ju.equal(x, ju.floor(x)))
    return ju.where(pole, 0.0, ju.multiply(gammasgn(x), ju.exp(ju.negative(gammaln(x)))))


def _near_int(x: Array, eps: float) -> Array:
    return ju.less(ju.abs(ju.subtract(x, ju.round(x))), eps)


def _non_positive_int(x: Array, eps: float) -> Array:
    return ju.logical_and(ju.less_equal(x, 0.0), _near_int(x, eps))


def _degree(a: Array, b: Array, eps: float) -> Array:
    """The degree of the polynomial the series is where ``a`` or ``b`` is a
    non-positive integer, ``inf`` elsewhere."""
    of_a = ju.where(_non_positive_int(a, eps), ju.negative(ju.round(a)), math.inf)
    return ju.where(_non_positive_int(b, eps), ju.minimum(of_a, ju.negative(ju.round(b))), of_a)


def _gauss_series(a: Array, b: Array, c: Array, x: Array, eps: float) -> Array:
    """The Taylor series, summed exactly to its last term where ``a`` or
    ``b`` is a non-positive integer (a polynomial)."""
    degree = _degree(a, b, eps)
    terminating = ju.isfinite(degree)
    series = _taylor(a, c, ju.where(terminating, 0.0, x), upper=(b,))
    polynomial = _taylor(a, c, ju.where(terminating, x, 0.0), upper=(b,), count=ju.where(terminating, ju.add(degree, 1.0), 0.0))
    return ju.where(terminating, polynomial, series)


def _near_one(a: Array, b: Array, c: Array, x: Array, eps: float) -> Array:
    """``2F1`` for ``0.75 < x < 1`` through the series in ``w = 1 - x``
    (Abramowitz and Stegun 15.3.6 for non-integer ``d = c - a - b``,
    15.3.10 and 15.3.11 for integer ``d``, after Euler's transformation
    where ``d < 0``)."""
    w = ju.subtract(1.0, x)
    d = ju.subtract(c, ju.add(a, b))
    integer = _near_int(d, eps)
    # Non-integer d: two series in w.
    safe_d = ju.where(integer, 0.5, d)
    first = ju.multiply(
        ju.multiply(gamma(c), gamma(safe_d)),
        ju.multiply(ju.multiply(_rgamma(ju.subtract(c, a)), _rgamma(ju.subtract(c, b))), _taylor(a, ju.subtract(1.0, safe_d), w, upper=(b,))),
    )
    second = ju.multiply(
        ju.multiply(ju.power(w, safe_d), ju.multiply(gamma(c), gamma(ju.negative(safe_d)))),
        ju.multiply(
            ju.multiply(_rgamma(a), _rgamma(b)),
            _taylor(ju.subtract(c, a), ju.add(1.0, safe_d), w, upper=(ju.subtract(c, b),)),
        ),
    )
    general = ju.add(first, second)
    # Integer d: Euler's transformation to d >= 0, then the logarithmic case.
    flip = ju.logical_and(integer, ju.less(d, 0.0))
    p = ju.where(flip, ju.subtract(c, a), a)
    q = ju.where(flip, ju.subtract(c, b), b)
    m = ju.where(integer, ju.abs(ju.round(d)), 0.0)
    finite = _taylor(p, ju.subtract(1.0, m), w, upper=(q,), count=m)
    finite = ju.where(
        ju.greater(m, 0.0),
        ju.multiply(ju.multiply(gamma(ju.where(ju.greater(m, 0.0), m, 1.0)), gamma(c)), ju.multiply(ju.multiply(_rgamma(ju.add(p, m)), _rgamma(ju.add(q, m))), finite)),
        0.0,
    )
    log_w = ju.log(w)

    def bracket(k: Array) -> Array:
        psi = ju.add(digamma(ju.add(k, 1.0)), digamma(ju.add(ju.add(k, m), 1.0)))
        psi_ab = ju.add(digamma(ju.add(ju.add(p, m), k)), digamma(ju.add(ju.add(q, m), k)))
        return ju.add(ju.subtract(log_w, psi), psi_ab)

    pm, qm = ju.add(p, m), ju.add(q, m)
    tail = ju.add(bracket(full_like(w, 0.0)), _taylor(pm, ju.add(m, 1.0), w, bracket, upper=(qm,)))
    odd = ju.equal(ju.fmod(m, 2.0), 1.0)
    scale = ju.multiply(ju.multiply(gamma(c), ju.exp(ju.negative(gammaln(ju.add(m, 1.0))))), ju.multiply(_rgamma(p), _rgamma(q)))
    scale = ju.where(odd, ju.negative(scale), scale)
    logarithmic = ju.subtract(finite, ju.multiply(ju.multiply(ju.power(w, m), scale), tail))
    logarithmic = ju.where(flip, ju.multiply(ju.power(w, d), logarithmic), logarithmic)
    return ju.where(integer, logarithmic, general)


def _hyp2f1_value(a: Array, b: Array, c: Array, x: Array) -> Array:
    eps = float(np.finfo(x.dtype).eps) * 50
    degree = _degree(a, b, eps)
    terminating = ju.isfinite(degree)
    # Pfaff's transformation maps x < 0 into (0, 1): 2F1(a, b; c; x) =
    # (1 - x)**(-a) 2F1(a, c - b; c; x / (x - 1)).
    pfaff = ju.logical_and(ju.less(x, 0.0), ju.logical_not(terminating))
    inside = ju.logical_and(ju.less(x, 1.0), ju.logical_not(terminating))
    safe_x = ju.where(inside, x, 0.0)
    z = ju.where(pfaff, ju.divide(safe_x, ju.subtract(safe_x, 1.0)), safe_x)
    q = ju.where(pfaff, ju.subtract(c, b), b)
    near = ju.logical_and(ju.greater(z, 0.75), ju.logical_not(ju.isfinite(_degree(a, q, eps))))
    series = _gauss_series(a, q, c, ju.where(near, 0.0, z), eps)
    far = _near_one(a, q, c, ju.where(near, z, 0.95), eps)
    value = ju.where(near, far, series)
    value = ju.where(pfaff, ju.multiply(ju.power(ju.subtract(1.0, safe_x), ju.negative(a)), value), value)
    value = ju.where(terminating, _gauss_series(a, b, c, ju.where(terminating, x, 0.0), eps), value)
    # JAX's special cases, but a polynomial is a polynomial everywhere.
    d = ju.subtract(c, ju.add(a, b))
    at_one = ju.multiply(ju.multiply(gamma(c), gamma(d)), ju.multiply(_rgamma(ju.subtract(c, a)), _rgamma(ju.subtract(c, b))))
    value = ju.where(ju.logical_and(ju.equal(x, 1.0), ju.logical_not(terminating)), at_one, value)
    s, below = ju.subtract(1.0, x), ju.less(x, 1.0)
    value = ju.where(ju.logical_and(below, ju.equal(a, c)), ju.power(s, ju.negative(b)), value)
    value = ju.where(ju.logical_and(below, ju.equal(b, c)), ju.power(s, ju.negative(a)), value)
    # A pole of c is harmless where the polynomial ends before it.
    c_pole = ju.logical_and(ju.less_equal(c, 0.0), ju.equal(c, ju.floor(c)))
    c_pole = ju.logical_and(c_pole, ju.greater(degree, ju.negative(c)))
    beyond = ju.logical_or(ju.greater(x, 1.0), ju.logical_and(ju.equal(x, 1.0), ju.less_equal(d, 0.0)))
    infinite = ju.logical_or(c_pole, ju.logical_and(beyond, ju.logical_not(terminating)))
    value = ju.where(infinite, math.inf, value)
    one = ju.logical_or(ju.equal(x, 0.0), ju.logical_and(ju.logical_or(ju.equal(a, 0.0), ju.equal(b, 0.0)), ju.not_equal(c, 0.0)))
    value = ju.where(one, 1.0, value)
    unknown = ju.logical_or(ju.logical_or(ju.isnan(a), ju.isnan(b)), ju.logical_or(ju.isnan(c), ju.isnan(x)))
    return ju.where(unknown, math.nan, value)


def _hyp2f1_jvp(primals: tuple[Array, Array, Array, Array], tangents: tuple[Array, Array, Array, Array]) -> tuple[Array, Array]:
    (a, b, c, x), (da, db, dc, dx) = primals, tangents
    out = _hyp2f1_core(a, b, c, x)
    psi_a, psi_b, psi_c = digamma(a), digamma(b), digamma(c)
    d_a = _taylor(a, c, x, lambda k: ju.subtract(digamma(ju.add(a, k)), psi_a), upper=(b,))
    d_b = _taylor(a, c, x, lambda k: ju.subtract(digamma(ju.add(b, k)), psi_b), upper=(b,))
    d_c = _taylor(a, c, x, lambda k: ju.subtract(psi_c, digamma(ju.add(c, k))), upper=(b,))
    d_x = ju.multiply(ju.divide(ju.multiply(a, b), c), _hyp2f1_core(ju.add(a, 1.0), ju.add(b, 1.0), ju.add(c, 1.0), x))
    total = ju.add(ju.add(ju.multiply(d_a, da), ju.multiply(d_b, db)), ju.add(ju.multiply(d_c, dc), ju.multiply(d_x, dx)))
    return out, total


_hyp2f1_core = custom_jvp(_hyp2f1_value)
_hyp2f1_core.defjvp(_hyp2f1_jvp)


def hyp2f1(a: ArrayLike, b: ArrayLike, c: ArrayLike, x: ArrayLike) -> Array:
    """The Gauss hypergeometric function ``2F1(a, b; c; x) = sum_k (a)_k
    (b)_k / (c)_k x**k / k!`` of real arguments, ``x <= 1`` (``inf`` for
    ``x > 1`` and where ``c`` is a non-positive integer, as JAX's), with
    JAX's derivative rules in all four arguments.

    Raises:
        JaxtypedTypeError: an argument is complex (as JAX's, a TypeError).
    """
    p, q, r, y = promote_args_inexact("hyp2f1", a, b, c, x)
    if dtypes.is_complex(y.dtype):
        raise JaxtypedTypeError("hyp2f1 does not support complex-valued inputs.")
    p, q, r, y = broadcast_arrays(*(convert_to(v, v.dtype, weak_type=False) for v in (p, q, r, y)))
    return convert_to(_hyp2f1_core(p, q, r, y), y.dtype, weak_type=False)


# === wofz ===


def _weideman(n: int) -> tuple[float, np.ndarray[tuple[int], np.dtype[np.float64]]]:
    """Weideman's (1994) rational approximation of the Faddeeva function
    with ``n`` terms: its scale ``L`` and the coefficients (highest power
    first) of the polynomial in ``(L + iz) / (L - iz)``, computed from the
    FFT of ``exp(-t**2) (L**2 + t**2)`` at ``t = L tan(theta / 2)``."""
    m = 2 * n
    scale = math.sqrt(n / math.sqrt(2.0))
    theta = np.arange(-m + 1, m) * math.pi / m
    t = scale * np.tan(theta / 2)
    samples = np.concatenate([[0.0], np.exp(-(t**2)) * (scale**2 + t**2)])
    coefficients = np.real(np.fft.fft(np.fft.fftshift(samples))) / (2 * m)
    return scale, np.ascontiguousarray(coefficients[1 : n + 1][::-1])


_WOFZ_L, _WOFZ_C = _weideman(32)
# Beyond this |z| the asymptotic series i / (sqrt(pi) z) (1 + 1 / (2 z**2)) is exact to rounding.
_WOFZ_FAR = 1e5


def _wofz_value(z: Array) -> Array:
    x, y = ju.real(z), ju.imag(z)
    upper = ju.greater_equal(y, 0.0)
    # The upper half-plane, reached from the lower by w(z) = 2 exp(-z**2) - w(-z).
    u = ju.where(upper, z, ju.negative(z))
    iu = lc.complex(ju.negative(ju.imag(u)), ju.real(u))
    denominator = ju.subtract(_WOFZ_L, iu)
    ratio = ju.divide(ju.add(_WOFZ_L, iu), denominator)
    polynomial = full_like(u, 0.0)
    for coefficient in _WOFZ_C:
        polynomial = ju.add(ju.multiply(polynomial, ratio), float(coefficient))
    near = ju.add(
        ju.divide(ju.multiply(polynomial, 2.0), ju.multiply(denominator, denominator)),
        ju.divide(1.0 / math.sqrt(math.pi), denominator),
    )
    size = ju.abs(u)
    far = ju.greater(size, _WOFZ_FAR)
    safe = ju.where(far, u, 1.0)
    asymptotic = ju.multiply(
        ju.divide(lc.complex(full_like(x, 0.0), full_like(x, 1.0 / math.sqrt(math.pi))), safe),
        ju.add(1.0, ju.divide(0.5, ju.multiply(safe, safe))),
    )
    w = ju.where(far, asymptotic, near)
    w = ju.where(ju.isinf(size), 0.0, w)
    return ju.where(upper, w, ju.subtract(ju.multiply(ju.exp(ju.negative(ju.multiply(z, z))), 2.0), w))


def _wofz_jvp(primals: tuple[Array], tangents: tuple[Array]) -> tuple[Array, Array]:
    (z,), (dz,) = primals, tangents
    out = _wofz_core(z)
    two_over_root_pi = lc.complex(full_like(ju.real(z), 0.0), full_like(ju.real(z), 2.0 / math.sqrt(math.pi)))
    slope = ju.add(ju.negative(ju.multiply(ju.multiply(z, out), 2.0)), two_over_root_pi)
    return out, ju.multiply(slope, dz)


_wofz_core = custom_jvp(_wofz_value)
_wofz_core.defjvp(_wofz_jvp)


def wofz(z: ArrayLike) -> Array:
    """The Faddeeva function ``w(z) = exp(-z**2) erfc(-iz)`` (JAX's
    ``jax.scipy.special.wofz``): Weideman's 32-term rational approximation
    in the upper half-plane, ``2 exp(-z**2) - w(-z)`` in the lower; complex
    out (``complex64`` for float32 or integer input), ``w' = -2 z w + 2i /
    sqrt(pi)``. Unlike JAX's, the asymptotic series takes over for ``|z| >
    1e5`` in the upper half-plane, so ``w`` is 0 at its infinities (JAX: NaN)."""
    (v,) = promote_args_inexact("wofz", z)
    if not dtypes.is_complex(v.dtype):
        v = convert_to(v, np.dtype(np.complex64 if v.dtype == np.float32 else np.complex128), weak_type=False)
    v = convert_to(v, v.dtype, weak_type=False)
    return convert_to(_wofz_core(v), v.dtype, weak_type=False)


# === sph_harm_y ===


def _normalized_legendre(n: Array, m: Array, cos_theta: Array, sin_theta: Array, n_max: int) -> Array:
    """The orthonormal associated Legendre function ``sqrt((2n + 1) (n -
    m)! / (4 pi (n + m)!)) P_n^m(cos theta)`` (Condon-Shortley phase) of
    integer ``0 <= m <= n <= n_max`` (as floats), by the stable recurrences:
    up the diagonal to ``(m, m)``, then up in degree."""
    diagonal = full_like(cos_theta, 1.0 / math.sqrt(4.0 * math.pi))
    for k in range(1, n_max + 1):
        factor = -math.sqrt((2 * k + 1) / (2 * k))
        diagonal = ju.where(ju.less_equal(float(k), m), ju.multiply(ju.multiply(sin_theta, factor), diagonal), diagonal)
    current, previous = diagonal, full_like(cos_theta, 0.0)
    # a(l) = sqrt((4 l**2 - 1) / (l**2 - m**2)); 1 / a(m) is 0.
    m2 = ju.multiply(m, m)
    inverse_before = full_like(cos_theta, 0.0)
    for degree in range(1, n_max + 1):
        active = ju.logical_and(ju.greater(float(degree), m), ju.less_equal(float(degree), n))
        gap = ju.where(active, ju.subtract(float(degree * degree), m2), 1.0)
        a = ju.sqrt(ju.divide(float(4 * degree * degree - 1), gap))
        new = ju.multiply(a, ju.subtract(ju.multiply(cos_theta, current), ju.multiply(previous, inverse_before)))
        current, previous = ju.where(active, new, current), ju.where(active, current, previous)
        inverse_before = ju.where(active, ju.divide(1.0, a), inverse_before)
    return current


def sph_harm_y(
    n: ArrayLike,
    m: ArrayLike,
    theta: ArrayLike,
    phi: ArrayLike,
    diff_n: int | None = None,
    n_max: int | None = None,
) -> Array:
    """The spherical harmonics ``Y_n^m(theta, phi) = N_n^m P_n^m(cos theta)
    exp(i m phi)`` (orthonormal, Condon-Shortley phase; ``theta`` the
    colatitude, ``phi`` the longitude) as JAX's
    ``jax.scipy.special.sph_harm_y``: integer degrees ``n`` and orders
    ``m``, a static ``n_max`` (``max(n)`` by default; larger degrees are
    clipped to it, as JAX's), a 1-D complex result. Unlike JAX's, the four
    arguments broadcast together (JAX pairs the ``k``-th ``n`` with the
    ``k``-th ``theta`` only) and ``|m| > n`` gives 0 (JAX: undefined).

    Raises:
        NotImplementedError: ``diff_n`` is given (as JAX's).
        JaxtypedTypeError: ``n_max`` is not a concrete int, or ``n`` is not
            concrete where ``n_max`` is not given.
        JaxtypedValueError: ``n`` or ``m`` is not an integer array, or
            ``theta`` or ``phi`` is complex.
    """
    if diff_n is not None:
        raise NotImplementedError("The 'diff_n' argument to sph_harm_y is not supported.")
    degrees, orders = asarray(n), asarray(m)
    if not (dtypes.is_integer(degrees.dtype) and dtypes.is_integer(orders.dtype)):
        raise JaxtypedValueError(f"sph_harm_y: n and m must be integer arrays, got {degrees.dtype} and {orders.dtype}")
    if n_max is None:
        try:
            n_max = int(np.max(np.asarray(degrees))) if degrees.size else 0
        except Exception as error:  # a tracer has no concrete value
            raise JaxtypedTypeError("sph_harm_y: n_max must be given (a concrete int) under a transformation") from error
    top = _static_int("n_max", n_max, "sph_harm_y")
    t, p = promote_args_inexact("sph_harm_y", theta, phi)
    if dtypes.is_complex(t.dtype):
        raise JaxtypedValueError("sph_harm_y: theta and phi must be real")
    t, p = (convert_to(v, v.dtype, weak_type=False) for v in (t, p))
    real = t.dtype
    nn, mm, t, p = broadcast_arrays(
        convert_to(degrees, real, weak_type=False), convert_to(orders, real, weak_type=False), t, p
    )
    nn = ju.clip(nn, 0.0, float(max(top, 0)))
    size = ju.abs(mm)
    legendre = _normalized_legendre(nn, size, ju.cos(t), ju.sin(t), max(top, 0))
    legendre = ju.where(ju.greater(size, nn), 0.0, legendre)
    angle = ju.multiply(mm, p)
    # Y_n^{-m} = (-1)**m conj(Y_n^m): the sign goes on the Legendre factor.
    odd_negative = ju.logical_and(ju.less(mm, 0.0), ju.equal(ju.fmod(size, 2.0), 1.0))
    legendre = ju.where(odd_negative, ju.negative(legendre), legendre)
    out = lc.complex(ju.multiply(legendre, ju.cos(angle)), ju.multiply(legendre, ju.sin(angle)))
    return ravel(out) if out.ndim != 1 else out
