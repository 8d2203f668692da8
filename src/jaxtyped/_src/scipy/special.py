"""``jaxtyped.scipy.special`` (layer L5): special functions on top of the
lax primitives, with JAX's derivative rules where JAX defines its own.

``logsumexp``, ``softmax`` and ``log_softmax`` here are also what
``jaxtyped.nn`` exports: ``softmax``/``log_softmax`` take ``jax.nn``'s
signature (``axis=-1``, ``where``); the ``scipy.special`` spellings
(``axis=None``, keyword-only) are ``special_softmax`` and
``special_log_softmax``.
"""

import math
from collections.abc import Callable, Sequence
from typing import Literal, Protocol, overload, runtime_checkable

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.config import config
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.custom_derivatives import custom_jvp
from jaxtyped._src.lax import arithmetic as la
from jaxtyped._src.lax import comparison as lcmp
from jaxtyped._src.lax import complex_ops as lc
from jaxtyped._src.api import jvp
from jaxtyped._src.lax import special as ls
from jaxtyped._src.lax.special_host import ZETA_COEFFS
from jaxtyped._src.lax import transcendental as lt
from jaxtyped._src.errors import JaxtypedNotImplementedError, JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.lax.structural import expand_dims, full_like_aval, select_n
from jaxtyped._src.lax.util import constant_like_scalar, strong_constant_like
from jaxtyped._src.numpy import reductions as jr
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.creation import asarray
from jaxtyped._src.numpy.promotion import asarray_operand, promote_args_inexact
from jaxtyped._src.util import canonicalize_axes, is_int, name_function

__all__ = [
    "Axis", "logsumexp", "softmax", "log_softmax", "special_softmax", "special_log_softmax",
    "erf", "erfc", "erfinv", "expit", "logit", "gammaln", "gammasgn", "gamma", "digamma",
    "polygamma", "zeta", "betaln", "betainc", "gammainc", "gammaincc", "i0e", "i1e", "i0", "i1",
    "factorial", "multigammaln", "xlogy", "xlog1py", "entr", "ndtr", "ndtri", "log_ndtr",
]  # fmt: skip

Axis = int | Sequence[int] | None


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
        x = ju.where(lcmp.ne(scale, strong_constant_like(scale, 0)), x, -np.inf)
    else:
        (x,) = promote_args_inexact("logsumexp", a)
        scale = x
    axes = _reduction_axes("logsumexp", x, axis)
    real_x = lc.real(x) if dtypes.is_complex(x.dtype) else x
    biggest = jr.max(real_x, axis=axes, keepdims=keepdims, where=where, initial=-np.inf)
    # The shift only keeps exp in range: it gets no derivative, and an
    # infinite maximum (all -inf, or +inf) shifts by 0.
    biggest = la.stop_gradient(ju.where(ju.isfinite(biggest), biggest, strong_constant_like(biggest, 0)))
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
        out = ju.where(lcmp.lt(sign, strong_constant_like(sign, 0)), strong_constant_like(out, math.nan), out)
    return out


# === softmax and log_softmax ===


def _softmax_composition(x: Array, axis: Axis, where: ArrayLike | None, shift_is_constant: bool = True) -> Array:
    # Differentiated as it is written (JAX 0.10's default), the shift by
    # the maximum a constant of the derivative; under _softmax_core's own
    # rule the shift needs no stop_gradient.
    biggest = jr.max(x, axis, where=where, initial=-np.inf, keepdims=True)
    masked = x if where is None else ju.where(where, x, -np.inf)
    if shift_is_constant:
        biggest = la.stop_gradient(biggest)
    unnormalized = lt.exp(ju.subtract(masked, biggest))
    result = ju.divide(unnormalized, jr.sum(unnormalized, axis, where=where, keepdims=True))
    return result if where is None else ju.where(where, result, 0)


def _softmax_jvp(axis: Axis, where: ArrayLike | None, primals: tuple[Array], tangents: tuple[Array]) -> tuple[Array, Array]:
    (x,), (dx,) = primals, tangents
    y = _softmax_core(x, axis, where)
    projected = jr.sum(ju.multiply(y, dx), axis, where=where, keepdims=True)
    return y, ju.multiply(y, ju.subtract(dx, projected))


def _softmax_impl(x: Array, axis: Axis, where: ArrayLike | None) -> Array:
    return _softmax_composition(x, axis, where, shift_is_constant=False)


# softmax's own derivative, with jax_softmax_custom_jvp on (JAX's option):
# y * (dx - sum(y * dx)), which stays finite where differentiating the
# composition would meet inf - inf.
_softmax_core = custom_jvp(_softmax_impl, nondiff_argnums=(1, 2))
_softmax_core.defjvp(_softmax_jvp)


def _float_operand(name: str, x: ArrayLike) -> Array:
    (arr,) = promote_args_inexact(name, x)
    return arr


def softmax(x: ArrayLike, axis: Axis = -1, where: ArrayLike | None = None) -> Array:
    """``exp(x) / sum(exp(x))`` along ``axis`` (``jax.nn.softmax``);
    masked-out entries (``where`` false) give 0."""
    arr = _float_operand("softmax", x)
    _reduction_axes("softmax", arr, axis)
    if config.jax_softmax_custom_jvp:
        return _softmax_core(arr, axis, where)
    return _softmax_composition(arr, axis, where)


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


# === elementwise special functions ===


def _inexact(name: str, *args: ArrayLike) -> list[Array]:
    return promote_args_inexact(name, *args)


def _real_only(name: str, x: Array) -> None:
    if dtypes.is_complex(x.dtype):
        raise JaxtypedValueError(f"{name} does not support complex-valued inputs.")


def _logit(x: Array) -> Array:
    return lt.log(la.div(x, la.sub(constant_like_scalar(x, 1), x)))


def _logit_jvp(primals: tuple[Array], tangents: tuple[Array]) -> tuple[Array, Array]:
    (x,), (dx,) = primals, tangents
    return _logit_core(x), la.div(dx, la.mul(x, la.sub(constant_like_scalar(x, 1), x)))


_logit_core = custom_jvp(_logit)
_logit_core.defjvp(_logit_jvp)


@runtime_checkable  # debug mode checks the factory's return annotation
class UnaryFunction(Protocol):
    """The signature of the one-argument functions the table below builds."""

    def __call__(self, x: ArrayLike) -> Array: ...


def _unary(name: str, op: Callable[[Array], Array], doc: str) -> UnaryFunction:
    """``op`` of ``x`` promoted to an inexact dtype, as ``name``."""

    def fun(x: ArrayLike) -> Array:
        (a,) = _inexact(name, x)
        return op(a)

    return name_function(fun, name, doc)


def _unscaled(scaled: Callable[[Array], Array]) -> Callable[[Array], Array]:
    """A modified Bessel function from its exponentially scaled form."""
    return lambda a: la.mul(lt.exp(la.abs(a)), scaled(a))


erf: UnaryFunction = _unary("erf", lt.erf, "The error function.")
erfc: UnaryFunction = _unary("erfc", ls.erfc, "The complementary error function ``1 - erf(x)``.")
erfinv: UnaryFunction = _unary("erfinv", ls.erf_inv, "The inverse of ``erf``.")
expit: UnaryFunction = _unary("expit", lt.logistic, "The logistic sigmoid ``1 / (1 + exp(-x))``.")
logit: UnaryFunction = _unary(
    "logit", _logit_core, "``log(x / (1 - x))``, the inverse of ``expit`` (derivative ``1 / (x (1 - x))``, as JAX defines it)."
)
gammaln: UnaryFunction = _unary("gammaln", ls.lgamma, "``log |Gamma(x)|``.")
digamma: UnaryFunction = _unary("digamma", ls.digamma, "The digamma function ``Gamma'(x) / Gamma(x)``.")
i0e: UnaryFunction = _unary("i0e", ls.bessel_i0e, "``exp(-|x|) I0(x)``.")
i1e: UnaryFunction = _unary("i1e", ls.bessel_i1e, "``exp(-|x|) I1(x)``.")
i0: UnaryFunction = _unary("i0", _unscaled(ls.bessel_i0e), "The modified Bessel function of order 0.")
i1: UnaryFunction = _unary("i1", _unscaled(ls.bessel_i1e), "The modified Bessel function of order 1.")


def gammasgn(x: ArrayLike) -> Array:
    """The sign of ``Gamma(x)``: the sign of a zero at 0, NaN at the
    negative poles, at ``-inf`` and for NaN."""
    (a,) = _inexact("gammasgn", x)
    floor = la.floor(a)
    odd = lcmp.ne(la.sub(floor, la.mul(la.floor(la.mul(floor, constant_like_scalar(a, 0.5))), constant_like_scalar(a, 2))), constant_like_scalar(a, 0))
    negative_side = lcmp.bitwise_and(lcmp.lt(a, constant_like_scalar(a, 0)), odd)
    sign = ju.where(negative_side, constant_like_scalar(a, -1), constant_like_scalar(a, 1))
    # 1 / (+-0) is +-inf: the sign of the zero.
    sign = ju.where(lcmp.eq(a, constant_like_scalar(a, 0)), la.sign(la.div(constant_like_scalar(a, 1), a)), sign)
    pole = lcmp.bitwise_and(lcmp.lt(a, constant_like_scalar(a, 0)), lcmp.eq(a, floor))
    result = ju.where(lcmp.bitwise_or(pole, ju.isnan(a)), constant_like_scalar(a, math.nan), sign)
    return convert_to(result, result.dtype, weak_type=False)  # JAX's is never weakly typed


def gamma(x: ArrayLike) -> Array:
    """The gamma function (real arguments)."""
    (a,) = _inexact("gamma", x)
    _real_only("gamma", a)
    return la.mul(gammasgn(a), lt.exp(ls.lgamma(a)))


def polygamma(n: ArrayLike, x: ArrayLike) -> Array:
    """The ``n``-th derivative of digamma; ``n`` must have an integer dtype."""
    order = asarray_operand("polygamma", n)
    if not dtypes.is_integer(order.dtype):
        raise JaxtypedValueError(f"Argument `n` to polygamma must be of integer type. Got dtype {order.dtype.name}.")
    m, a = _inexact("polygamma", n, x)
    _real_only("polygamma", a)
    return ls.polygamma(m, a)


def _zeta_series(s: Array, q: Array) -> Array:
    """The Euler-Maclaurin sum for zeta(s, q) with a few terms, as a
    composition of differentiable primitives (JAX differentiates such a
    series too: the ``zeta`` primitive has no derivative rule)."""
    terms = 8 if s.dtype.itemsize <= 4 else 16
    total = ju.power(q, ju.negative(s))
    for k in range(1, terms):
        total = ju.add(total, ju.power(ju.add(q, float(k)), ju.negative(s)))
    a = ju.add(q, float(terms))
    s_minus_1 = ju.subtract(s, 1.0)
    total = ju.add(total, ju.divide(ju.power(a, ju.negative(s_minus_1)), s_minus_1))
    front = ju.power(a, ju.negative(s))
    total = ju.add(total, ju.multiply(front, 0.5))
    factor = ju.divide(ju.multiply(s, front), a)
    for j, coeff in enumerate(ZETA_COEFFS):
        total = ju.add(total, ju.multiply(factor, coeff))
        growth = ju.multiply(ju.add(s, float(2 * j + 1)), ju.add(s, float(2 * j + 2)))
        factor = ju.divide(ju.multiply(factor, growth), ju.multiply(a, a))
    return total


def _zeta_fun(s: Array, q: Array) -> Array:
    return ls.zeta(s, q)


def _zeta_jvp(primals: tuple[Array, Array], tangents: tuple[Array, Array]) -> tuple[Array, Array]:
    # JAX's rule: the primal and tangent of the series, in both arguments.
    out, tangent = jvp(_zeta_series, primals, tangents)
    return out, tangent


_zeta_core = custom_jvp(_zeta_fun)
_zeta_core.defjvp(_zeta_jvp)


def zeta(x: ArrayLike, q: ArrayLike | None = None) -> Array:
    """The Hurwitz zeta function ``sum_k (q + k) ** -x`` (``q`` is required:
    the Riemann zeta function is not implemented, as in JAX); differentiable
    in both arguments through its Euler-Maclaurin series, as JAX's."""
    if q is None:
        raise JaxtypedNotImplementedError(
            "Riemann zeta function not implemented; pass q != None to compute the Hurwitz Zeta function."
        )
    s, a = _inexact("zeta", x, q)
    return _zeta_core(s, a)


def betaln(a: ArrayLike, b: ArrayLike) -> Array:
    """``log |B(a, b)|``, the log of the beta function."""
    p, q = _inexact("betaln", a, b)
    return la.sub(la.add(ls.lgamma(p), ls.lgamma(q)), ls.lgamma(la.add(p, q)))


def betainc(a: ArrayLike, b: ArrayLike, x: ArrayLike) -> Array:
    """The regularized incomplete beta function ``I_x(a, b)``."""
    p, q, t = _inexact("betainc", a, b, x)
    _real_only("betainc", t)
    return ls.betainc(p, q, t)


def gammainc(a: ArrayLike, x: ArrayLike) -> Array:
    """The regularized lower incomplete gamma function ``P(a, x)``."""
    p, t = _inexact("gammainc", a, x)
    return ls.igamma(p, t)


def gammaincc(a: ArrayLike, x: ArrayLike) -> Array:
    """The regularized upper incomplete gamma function ``Q(a, x)``."""
    p, t = _inexact("gammaincc", a, x)
    return ls.igammac(p, t)


def factorial(n: ArrayLike, exact: bool = False) -> Array:
    """``n!`` as ``Gamma(n + 1)`` (0 for negative ``n``); ``exact=True`` is
    not implemented (as in JAX)."""
    if exact:
        raise JaxtypedNotImplementedError("factorial with exact=True")
    (a,) = _inexact("factorial", n)
    return ju.where(lcmp.lt(a, constant_like_scalar(a, 0)), 0, lt.exp(ls.lgamma(la.add(a, constant_like_scalar(a, 1)))))


def multigammaln(a: ArrayLike, d: int) -> Array:
    """The log of the multivariate gamma function of dimension ``d``."""
    if not is_int(d):
        raise JaxtypedTypeError(f"multigammaln: d must be a concrete int, got {type(d).__name__}")
    x, dim = _inexact("multigammaln", a, d)
    constant = la.mul(la.mul(la.mul(constant_like_scalar(x, 0.25), dim), la.sub(dim, constant_like_scalar(x, 1))), constant_like_scalar(x, math.log(math.pi)))
    total = jr.sum(
        ls.lgamma(ju.subtract(expand_dims(x, (x.ndim,)), np.arange(int(d), dtype=x.dtype) / 2)), axis=-1
    )
    return ju.add(total, constant)


# === xlogy, xlog1py, entr: JAX's derivative rules ===


def _xlog_fun(log: Callable[[Array], Array]) -> Callable[[Array, Array], Array]:
    def fun(x: Array, y: Array) -> Array:
        # 0 * log(0) is 0; a NaN y still propagates (SciPy's convention).
        keep = lcmp.bitwise_or(lcmp.ne(x, constant_like_scalar(x, 0)), ju.isnan(y))
        return ju.where(keep, ju.multiply(x, log(y)), 0)

    return fun


def _xlogy_jvp(primals: tuple[Array, Array], tangents: tuple[Array, Array]) -> tuple[Array, Array]:
    (x, y), (dx, dy) = primals, tangents
    out = _xlogy_core(x, y)
    slope = ju.add(ju.multiply(dx, lt.log(y)), ju.divide(ju.multiply(dy, x), y))
    return out, convert_to(ju.multiply(slope, constant_like_scalar(out, 1)), out.dtype, weak_type=out.weak_type)


def _xlog1py_jvp(primals: tuple[Array, Array], tangents: tuple[Array, Array]) -> tuple[Array, Array]:
    (x, y), (dx, dy) = primals, tangents
    out = _xlog1py_core(x, y)
    slope = ju.add(ju.multiply(dx, lt.log1p(y)), ju.divide(ju.multiply(dy, x), ju.add(y, 1)))
    return out, convert_to(ju.multiply(slope, constant_like_scalar(out, 1)), out.dtype, weak_type=out.weak_type)


_xlogy_core = custom_jvp(_xlog_fun(lt.log))
_xlogy_core.defjvp(_xlogy_jvp)
_xlog1py_core = custom_jvp(_xlog_fun(lt.log1p))
_xlog1py_core.defjvp(_xlog1py_jvp)


def xlogy(x: ArrayLike, y: ArrayLike) -> Array:
    """``x * log(y)``, 0 where ``x == 0`` (unless ``y`` is NaN); JAX's
    derivative ``(dx log y + dy x / y)``."""
    a, b = _inexact("xlogy", x, y)
    return _xlogy_core(a, b)


def xlog1py(x: ArrayLike, y: ArrayLike) -> Array:
    """``x * log1p(y)``, 0 where ``x == 0`` (unless ``y`` is NaN); JAX's
    derivative ``(dx log1p y + dy x / (1 + y))``."""
    a, b = _inexact("xlog1py", x, y)
    return _xlog1py_core(a, b)


def _xlogx(x: Array) -> Array:
    return _xlogy_core(x, x)


def _xlogx_jvp(primals: tuple[Array], tangents: tuple[Array]) -> tuple[Array, Array]:
    (x,), (dx,) = primals, tangents
    return _xlogx_core(x), la.mul(dx, la.add(lt.log(x), constant_like_scalar(x, 1)))


_xlogx_core = custom_jvp(_xlogx)
_xlogx_core.defjvp(_xlogx_jvp)


def entr(x: ArrayLike) -> Array:
    """The entropy ``-x log x`` (0 at 0, ``-inf`` for negative ``x``), with
    JAX's derivative ``-(log x + 1)``."""
    (a,) = _inexact("entr", x)
    _real_only("entr", a)
    return select_n(lcmp.lt(a, constant_like_scalar(a, 0)), la.neg(_xlogx_core(a)), full_like_aval(a.aval, -math.inf))


# === the normal distribution: ndtr, ndtri, log_ndtr ===


def _float_only(name: str, x: ArrayLike) -> Array:
    arr = asarray(x)
    if arr.dtype not in (np.dtype(np.float32), np.dtype(np.float64)):
        raise JaxtypedTypeError(f"{name}: x.dtype={arr.dtype.name} is not supported (float32 or float64)")
    # JAX's results are never weakly typed here.
    return convert_to(arr, arr.dtype, weak_type=False)


def _ndtr(x: Array) -> Array:
    # erfc keeps the digits of both tails (1 - erf would lose the left one).
    return la.mul(constant_like_scalar(x, 0.5), ls.erfc(la.mul(x, constant_like_scalar(x, -1 / math.sqrt(2)))))


def ndtr(x: ArrayLike) -> Array:
    """The standard normal CDF (float32 and float64 only, as in JAX)."""
    return _ndtr(_float_only("ndtr", x))


def _norm_logpdf(x: Array) -> Array:
    return la.sub(la.mul(la.mul(x, x), constant_like_scalar(x, -0.5)), constant_like_scalar(x, 0.5 * math.log(2 * math.pi)))


def _log_ndtr_value(x: Array, series_order: int) -> Array:
    # Three segments: log(ndtr) in the middle; -ndtr(-x) (log1p of a tiny
    # number) far right; the asymptotic series of the left tail far left.
    lower, upper = (-20.0, 8.0) if x.dtype == np.dtype(np.float64) else (-10.0, 5.0)
    lo, up = constant_like_scalar(x, lower), constant_like_scalar(x, upper)
    right = lcmp.gt(x, up)
    middle = lcmp.gt(x, lo)
    # Unchosen branches get safe arguments, so that no NaN reaches a
    # derivative through a select.
    value = _ndtr(ju.where(right, la.neg(x), la.max(x, lo)))
    tail = _log_ndtr_tail(la.min(x, lo), series_order)
    return ju.where(right, la.neg(value), ju.where(middle, lt.log(value), tail))


def _log_ndtr_tail(x: Array, series_order: int) -> Array:
    """log ndtr(x) for very negative x: the Mills-ratio asymptotic series."""
    x2 = la.mul(x, x)
    log_scale = la.sub(la.sub(la.mul(x2, constant_like_scalar(x, -0.5)), lt.log(la.neg(x))), constant_like_scalar(x, 0.5 * math.log(2 * math.pi)))
    total = full_like_aval(x.aval, 1)
    power = x2
    double_factorial = 1
    for n in range(1, series_order + 1):
        double_factorial *= 2 * n - 1
        term = la.div(constant_like_scalar(x, float(double_factorial)), power)
        total = la.sub(total, term) if n % 2 else la.add(total, term)
        power = la.mul(power, x2)
    return la.add(log_scale, lt.log(total))


def _log_ndtr_jvp(series_order: int, primals: tuple[Array], tangents: tuple[Array]) -> tuple[Array, Array]:
    (x,), (dx,) = primals, tangents
    out = _log_ndtr_core(x, series_order)
    return out, la.mul(dx, lt.exp(la.sub(_norm_logpdf(x), out)))


# JAX's derivative: pdf / cdf = exp(logpdf - log_ndtr), finite in both tails.
_log_ndtr_core = custom_jvp(_log_ndtr_value, nondiff_argnums=(1,))
_log_ndtr_core.defjvp(_log_ndtr_jvp)


def log_ndtr(x: ArrayLike, series_order: int = 3) -> Array:
    """``log(ndtr(x))``, accurate in both tails (an asymptotic series of
    ``series_order`` terms below -20, or -10 in float32)."""
    if not is_int(series_order):
        raise JaxtypedTypeError("series_order must be a Python integer.")
    if series_order < 0:
        raise JaxtypedValueError("series_order must be non-negative.")
    if series_order > 30:
        raise JaxtypedValueError("series_order must be <= 30.")
    return _log_ndtr_core(_float_only("log_ndtr", x), int(series_order))


def _ndtri_value(p: Array) -> Array:
    # The centre: sqrt(2) erfinv(2p - 1). The tails (p or 1 - p below
    # exp(-2)): Newton steps on log ndtr from the asymptotic first guess
    # -sqrt(-2 log p), which keeps relative accuracy down to the smallest p.
    small = ju.where(lcmp.gt(p, constant_like_scalar(p, 0.5)), la.sub(constant_like_scalar(p, 1), p), p)
    safe = ju.where(lcmp.gt(small, constant_like_scalar(p, 0)), small, constant_like_scalar(p, 0.5))
    centre = la.mul(constant_like_scalar(p, math.sqrt(2)), ls.erf_inv(la.sub(la.mul(p, constant_like_scalar(p, 2)), constant_like_scalar(p, 1))))
    log_p = lt.log(safe)
    z = lt.sqrt(la.mul(log_p, constant_like_scalar(p, -2)))
    x = la.neg(la.sub(z, la.div(lt.log(la.mul(z, constant_like_scalar(p, 2 * math.pi))), la.mul(z, constant_like_scalar(p, 2)))))
    x = la.min(x, constant_like_scalar(p, -1))
    for _ in range(4):
        value = _log_ndtr_value(x, 3)
        x = la.sub(x, la.mul(la.sub(value, log_p), lt.exp(la.sub(value, _norm_logpdf(x)))))
    tail = ju.where(lcmp.gt(p, constant_like_scalar(p, 0.5)), la.neg(x), x)
    in_tail = lcmp.lt(small, constant_like_scalar(p, math.exp(-2)))
    x = ju.where(in_tail, tail, centre)
    x = ju.where(lcmp.eq(p, constant_like_scalar(p, 0)), -math.inf, ju.where(lcmp.eq(p, constant_like_scalar(p, 1)), math.inf, x))
    outside = lcmp.bitwise_or(lcmp.lt(p, constant_like_scalar(p, 0)), lcmp.gt(p, constant_like_scalar(p, 1)))
    return ju.where(lcmp.bitwise_or(outside, ju.isnan(p)), math.nan, x)


def _ndtri_jvp(primals: tuple[Array], tangents: tuple[Array]) -> tuple[Array, Array]:
    (p,), (dp,) = primals, tangents
    x = _ndtri_core(p)
    slope = lt.exp(la.neg(_norm_logpdf(x)))
    # JAX's value: 0 at p = 0 and p = 1 (its composition selects constants there).
    edge = lcmp.bitwise_or(lcmp.eq(p, constant_like_scalar(p, 0)), lcmp.eq(p, constant_like_scalar(p, 1)))
    return x, la.mul(dp, ju.where(edge, 0, slope))


_ndtri_core = custom_jvp(_ndtri_value)
_ndtri_core.defjvp(_ndtri_jvp)


def ndtri(p: ArrayLike) -> Array:
    """The inverse of ``ndtr`` (float32 and float64 only, as in JAX)."""
    return _ndtri_core(_float_only("ndtri", p))
