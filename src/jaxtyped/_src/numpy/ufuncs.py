"""Elementwise ``jaxtyped.numpy`` functions (layer L5), with NumPy-style
dtype promotion and broadcasting on top of the lax primitives.

Compositions follow JAX's, so results agree with JAX's: ``floor_divide``
and ``remainder`` fix up truncating division, integer ``power`` is binary
exponentiation, ``add``/``multiply`` of booleans are or/and.
"""

import math
from collections.abc import Callable
from typing import Final

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.array_impl import ArrayImpl
from jaxtyped._src.custom_derivatives import custom_jvp
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.lax import arithmetic as la
from jaxtyped._src.lax import comparison as lcmp
from jaxtyped._src.lax import complex_ops as lc
from jaxtyped._src.lax import transcendental as lt
from jaxtyped._src.lax.arithmetic import RoundingMethod
from jaxtyped._src.lax.elementwise_extra import cbrt as lax_cbrt  # special-function family
from jaxtyped._src.lax.elementwise_extra import exp2 as lax_exp2
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.lax.structural import full_like_aval, select_n
from jaxtyped._src.lax.util import constant_like_scalar, strong_constant_like
from jaxtyped._src.util import index_arg, is_int, name_function
from jaxtyped._src.numpy.promotion import (
    asarray_operand,
    broadcast_shapes,
    broadcast_to_shape,
    promote_args,
    promote_args_inexact,
    promote_args_numeric,
    promote_dtypes,
)

__all__ = [
    "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh",
    "arccosh", "arctanh", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt",
    "cbrt", "reciprocal", "deg2rad", "rad2deg", "radians", "degrees",
    "negative", "positive", "abs", "absolute", "sign", "square", "floor", "ceil", "trunc",
    "rint", "round", "around", "real", "imag", "conj", "conjugate", "isfinite", "isnan", "isinf", "logical_not", "invert",
    "bitwise_not", "add", "subtract", "multiply", "divide", "true_divide", "floor_divide",
    "remainder", "mod", "fmod", "divmod", "power", "pow", "maximum", "minimum", "arctan2",
    "hypot", "logaddexp", "logaddexp2", "sinc", "equal", "not_equal", "less", "less_equal", "greater",
    "greater_equal", "logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or",
    "bitwise_xor", "left_shift", "right_shift", "where", "clip",
]


# The types of the functions built by the factories below (module-level
# names need them spelled out for type checkers and pyright --verifytypes).
UnaryFunction = Callable[[ArrayLike], Array]
BinaryFunction = Callable[[ArrayLike, ArrayLike], Array]


# === unary functions that compute in an inexact dtype ===


def _inexact_unary(name: str, op: Callable[[Array], Array]) -> UnaryFunction:
    def fun(x: ArrayLike, /) -> Array:
        (a,) = promote_args_inexact(name, x)
        return op(a)

    return name_function(fun, name, f"Elementwise ``{name}`` (integers are promoted to the default float).")


sin: UnaryFunction = _inexact_unary("sin", lt.sin)
cos: UnaryFunction = _inexact_unary("cos", lt.cos)
tan: UnaryFunction = _inexact_unary("tan", lt.tan)
arcsin: UnaryFunction = _inexact_unary("arcsin", lt.asin)
arccos: UnaryFunction = _inexact_unary("arccos", lt.acos)
arctan: UnaryFunction = _inexact_unary("arctan", lt.atan)
sinh: UnaryFunction = _inexact_unary("sinh", lt.sinh)
cosh: UnaryFunction = _inexact_unary("cosh", lt.cosh)
tanh: UnaryFunction = _inexact_unary("tanh", lt.tanh)
arcsinh: UnaryFunction = _inexact_unary("arcsinh", lt.asinh)
arccosh: UnaryFunction = _inexact_unary("arccosh", lt.acosh)
arctanh: UnaryFunction = _inexact_unary("arctanh", lt.atanh)
exp: UnaryFunction = _inexact_unary("exp", lt.exp)
expm1: UnaryFunction = _inexact_unary("expm1", lt.expm1)
log: UnaryFunction = _inexact_unary("log", lt.log)
log1p: UnaryFunction = _inexact_unary("log1p", lt.log1p)
sqrt: UnaryFunction = _inexact_unary("sqrt", lt.sqrt)
exp2: UnaryFunction = _inexact_unary("exp2", lax_exp2)


def _log2(a: Array) -> Array:
    # JAX's formula: log(x) / log(2), the divisor computed by a log
    # equation, each part of a complex logarithm divided separately.
    r = lt.log(a)
    if not dtypes.is_complex(a.dtype):
        return la.div(r, lt.log(strong_constant_like(a, 2)))
    re, im = lc.real(r), lc.imag(r)
    ln2 = lt.log(strong_constant_like(re, 2))
    return lc.complex(la.div(re, ln2), la.div(im, ln2))


# 1 / log(10), correctly rounded: log10 multiplies by it, as JAX's does.
_ONE_OVER_LOG10: Final = 0.4342944819032518


def log10_of_inexact(a: Array) -> Array:
    """``log10`` of an inexact array, as JAX computes it (``log(x) * (1 / log 10)``, by parts for complex)."""
    r = lt.log(a)
    if not dtypes.is_complex(a.dtype):
        return la.mul(r, strong_constant_like(r, _ONE_OVER_LOG10))
    re, im = lc.real(r), lc.imag(r)
    factor = strong_constant_like(re, _ONE_OVER_LOG10)
    return lc.complex(la.mul(re, factor), la.mul(im, factor))


log2: UnaryFunction = _inexact_unary("log2", _log2)
log10: UnaryFunction = _inexact_unary("log10", log10_of_inexact)
reciprocal: UnaryFunction = _inexact_unary("reciprocal", lambda a: la.integer_pow(a, -1))
deg2rad: UnaryFunction = _inexact_unary("deg2rad", lambda a: la.mul(a, constant_like_scalar(a, math.pi / 180.0)))
rad2deg: UnaryFunction = _inexact_unary("rad2deg", lambda a: la.mul(a, constant_like_scalar(a, 180.0 / math.pi)))
radians: UnaryFunction = _inexact_unary("radians", lambda a: la.mul(a, constant_like_scalar(a, math.pi / 180.0)))
degrees: UnaryFunction = _inexact_unary("degrees", lambda a: la.mul(a, constant_like_scalar(a, 180.0 / math.pi)))


def cbrt(x: ArrayLike, /) -> Array:
    """Cube root (real, sign-preserving): the ``cbrt`` primitive, whose
    derivative is infinite at 0 as JAX's."""
    (a,) = promote_args_inexact("cbrt", x)
    return lax_cbrt(a)


# === complex parts ===


def real(val: ArrayLike, /) -> Array:
    """The real part (real arrays are returned unchanged)."""
    a = asarray_operand("real", val)
    return lc.real(a) if dtypes.is_complex(a.dtype) else a


def imag(val: ArrayLike, /) -> Array:
    """The imaginary part (zeros for real arrays)."""
    a = asarray_operand("imag", val)
    return lc.imag(a) if dtypes.is_complex(a.dtype) else full_like_aval(a.aval, 0)


def conjugate(x: ArrayLike, /) -> Array:
    """The complex conjugate (real arrays are returned unchanged)."""
    a = asarray_operand("conjugate", x)
    return lc.conj(a) if dtypes.is_complex(a.dtype) else a


conj = conjugate


# === unary functions that keep the dtype ===


def negative(x: ArrayLike, /) -> Array:
    """``-x``."""
    return la.neg(asarray_operand("negative", x))


def positive(x: ArrayLike, /) -> Array:
    """``+x`` (a copy of ``x``)."""
    return asarray_operand("positive", x)


def abs(x: ArrayLike, /) -> Array:  # noqa: A001 - NumPy's name
    """``|x|`` (unsigned integers are returned unchanged)."""
    a = asarray_operand("abs", x)
    if dtypes.is_unsigned_integer(a.dtype) or dtypes.is_bool(a.dtype):
        return a
    return la.abs(a)


absolute = abs


def sign(x: ArrayLike, /) -> Array:
    """-1, 0 or 1 by sign."""
    return la.sign(asarray_operand("sign", x))


def square(x: ArrayLike, /) -> Array:
    """``x * x`` (booleans are promoted to int32)."""
    (a,) = promote_args_numeric("square", x)
    return la.integer_pow(a, 2)


def _rounding(name: str, op: Callable[[Array], Array]) -> UnaryFunction:
    def fun(x: ArrayLike, /) -> Array:
        a = asarray_operand(name, x)
        if not dtypes.is_inexact(a.dtype):
            return a  # integers are already integral
        return op(a)

    return name_function(fun, name, f"Elementwise ``{name}``; integer inputs are returned unchanged.")


floor: UnaryFunction = _rounding("floor", la.floor)
ceil: UnaryFunction = _rounding("ceil", la.ceil)
def trunc(x: ArrayLike) -> Array:
    """Round toward zero; integer inputs are returned unchanged."""
    a = asarray_operand("trunc", x)
    if not dtypes.is_inexact(a.dtype):
        return a
    return la.mul(la.sign(a), la.floor(la.abs(a)))


def _round_parts(a: Array, op: Callable[[Array], Array]) -> Array:
    """Apply a real rounding ``op``, to each part of a complex array."""
    if dtypes.is_complex(a.dtype):
        return lc.complex(op(lc.real(a)), op(lc.imag(a)))
    return op(a)


def rint(x: ArrayLike, /) -> Array:
    """Round to the nearest integer, ties to even (integers become floats)."""
    a = asarray_operand("rint", x)
    if not dtypes.is_inexact(a.dtype):
        return convert_to(a, dtypes.default_float_dtype(), weak_type=False)
    return _round_parts(a, lambda r: la.round(r, RoundingMethod.TO_NEAREST_EVEN))


def round(a: ArrayLike, decimals: int = 0) -> Array:  # noqa: A001 - NumPy's name
    """Round to ``decimals`` places, ties to even (NumPy's rule); complex
    arrays round each part, integers round to multiples of ``10**-decimals``."""
    x = asarray_operand("round", a)
    decimals = index_arg(decimals, "jnp.round: decimals")  # bad-input family: 1.5 is a TypeError, as in JAX
    if dtypes.is_bool(x.dtype):
        raise JaxtypedValueError("jnp.round: boolean arrays cannot be rounded")
    if dtypes.is_integer(x.dtype):
        return x if decimals >= 0 else _round_integers(x, 10 ** (-decimals))

    def to_places(r: Array) -> Array:
        if decimals == 0:
            return la.round(r, RoundingMethod.TO_NEAREST_EVEN)
        factor = strong_constant_like(r, 10.0**decimals)
        return la.div(la.round(la.mul(r, factor), RoundingMethod.TO_NEAREST_EVEN), factor)

    return _round_parts(x, to_places)


def _round_integers(x: Array, factor: int) -> Array:
    """Integers to the nearest multiple of ``factor``, ties to even."""
    quotient = floor_divide(x, factor)
    remainder_ = subtract(x, multiply(quotient, factor))
    twice = multiply(remainder_, 2)
    odd = lcmp.ne(la.rem(quotient, strong_constant_like(quotient, 2)), strong_constant_like(quotient, 0))
    up = logical_or(greater(twice, factor), logical_and(equal(twice, factor), odd))
    return multiply(where(up, add(quotient, 1), quotient), factor)


around = round


def isfinite(x: ArrayLike, /) -> Array:
    """Whether each element is finite (always true for integers)."""
    a = asarray_operand("isfinite", x)
    if not dtypes.is_inexact(a.dtype):
        return _full_bool(a, True)  # strongly typed, as JAX's full_like with a dtype
    if dtypes.is_complex(a.dtype):
        return lcmp.bitwise_and(la.is_finite(lc.real(a)), la.is_finite(lc.imag(a)))
    return la.is_finite(a)


def isnan(x: ArrayLike, /) -> Array:
    """Whether each element is NaN."""
    a = asarray_operand("isnan", x)
    return lcmp.ne(a, a)


def isinf(x: ArrayLike, /) -> Array:
    """Whether each element is +inf or -inf."""
    a = asarray_operand("isinf", x)
    if not dtypes.is_inexact(a.dtype):
        return _full_bool(a, False)
    if dtypes.is_complex(a.dtype):
        return lcmp.bitwise_or(isinf(lc.real(a)), isinf(lc.imag(a)))
    return lcmp.eq(la.abs(a), strong_constant_like(la.abs(a), float("inf")))


def _full_bool(like: Array, value: bool) -> Array:
    return full_like_aval(like.aval.update(dtype=dtypes.dtype("bool"), weak_type=False), value)


def logical_not(x: ArrayLike, /) -> Array:
    """Logical not (nonzero is true)."""
    return lcmp.bitwise_not(_as_bool(asarray_operand("logical_not", x)))


def invert(x: ArrayLike, /) -> Array:
    """Bitwise not for integers, logical not for booleans."""
    return lcmp.bitwise_not(asarray_operand("invert", x))


bitwise_not = invert


def _as_bool(a: Array) -> Array:
    if dtypes.is_bool(a.dtype):
        return a
    return lcmp.ne(a, constant_like_scalar(a, 0))


# === binary functions ===


def add(x: ArrayLike, y: ArrayLike, /) -> Array:
    """``x + y`` (logical or for booleans)."""
    a, b = promote_args("add", x, y)
    return lcmp.bitwise_or(a, b) if dtypes.is_bool(a.dtype) else la.add(a, b)


def subtract(x: ArrayLike, y: ArrayLike, /) -> Array:
    """``x - y``."""
    a, b = promote_args("subtract", x, y)
    return la.sub(a, b)


def multiply(x: ArrayLike, y: ArrayLike, /) -> Array:
    """``x * y`` (logical and for booleans)."""
    a, b = promote_args("multiply", x, y)
    return lcmp.bitwise_and(a, b) if dtypes.is_bool(a.dtype) else la.mul(a, b)


def divide(x: ArrayLike, y: ArrayLike, /) -> Array:
    """True division ``x / y`` (integers are promoted to the default float)."""
    a, b = promote_args_inexact("divide", x, y)
    return la.div(a, b)


true_divide = divide


def floor_divide(x: ArrayLike, y: ArrayLike, /) -> Array:
    """``x // y``, rounding toward -inf."""
    a, b = promote_args_numeric("floor_divide", x, y)
    if dtypes.is_unsigned_integer(a.dtype):
        return la.div(a, b)
    if dtypes.is_integer(a.dtype):
        quotient = la.div(a, b)
        adjust = lcmp.bitwise_and(lcmp.ne(la.sign(a), la.sign(b)), lcmp.ne(la.rem(a, b), strong_constant_like(a, 0)))
        return where(adjust, subtract(quotient, 1), quotient)  # a Python 1 keeps weak types
    return _float_divmod(a, b)[0]


def _float_divmod(a: Array, b: Array) -> tuple[Array, Array]:
    # CPython's float_divmod; x / 0 keeps x so that the quotient is +-inf.
    mod = la.rem(a, b)
    corrected = where(lcmp.eq(b, strong_constant_like(b, 0)), a, la.sub(a, mod))
    quotient = la.div(corrected, b)
    fix = lcmp.bitwise_and(lcmp.ne(mod, strong_constant_like(mod, 0)), lcmp.ne(la.sign(b), la.sign(mod)))
    mod = where(fix, la.add(mod, b), mod)
    quotient = where(fix, subtract(quotient, 1.0), quotient)  # a Python 1.0 keeps weak types
    return la.round(quotient, RoundingMethod.TO_NEAREST_EVEN), mod


def remainder(x: ArrayLike, y: ArrayLike, /) -> Array:
    """``x % y`` with the sign of ``y`` (Python's rule)."""
    a, b = promote_args_numeric("remainder", x, y)
    if dtypes.is_integer(b.dtype):
        b = where(lcmp.eq(b, strong_constant_like(b, 0)), full_like_aval(b.aval, 1), b)
    truncated = la.rem(a, b)
    zero = strong_constant_like(truncated, 0)
    fix = lcmp.bitwise_and(lcmp.ne(lcmp.lt(truncated, zero), lcmp.lt(b, strong_constant_like(b, 0))), lcmp.ne(truncated, zero))
    return where(fix, la.add(truncated, b), truncated)


mod = remainder


def fmod(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Remainder with the sign of ``x`` (C's ``fmod``); an integer divisor of
    0 gives 0, as in JAX."""
    a, b = promote_args_numeric("fmod", x, y)
    if dtypes.is_integer(b.dtype):
        b = where(lcmp.eq(b, strong_constant_like(b, 0)), full_like_aval(b.aval, 1), b)
    return la.rem(a, b)


def divmod(x: ArrayLike, y: ArrayLike, /) -> tuple[Array, Array]:  # noqa: A001 - NumPy's name
    """``(x // y, x % y)``."""
    return floor_divide(x, y), remainder(x, y)


def power(x: ArrayLike, y: ArrayLike, /) -> Array:
    """``x ** y``: ``integer_pow`` for a concrete integer scalar exponent
    (only the base's dtype matters then, as in JAX), binary exponentiation
    for integer arrays, ``lax.pow`` otherwise."""
    exponent = _concrete_integer(y)
    if exponent is not None:
        (a,) = promote_args_numeric("power", x)
        return la.integer_pow(a, exponent)
    base, exponent_ = asarray_operand("power", x, 0), asarray_operand("power", y, 1)
    if dtypes.is_inexact(base.dtype) and dtypes.is_integer(exponent_.dtype):
        # An inexact base keeps its dtype under an integer exponent (JAX's
        # rule): only the shapes are broadcast.
        shape = broadcast_shapes("power", base.shape, exponent_.shape)
        a, b = (v if not v.shape else broadcast_to_shape(v, shape) for v in (base, exponent_))
        return lt.pow(a, b)
    a, b = promote_args_numeric("power", x, y)
    if dtypes.is_integer(a.dtype):
        return _integer_power(a, b)
    return lt.pow(a, b)


pow = power  # noqa: A001 - NumPy's name


def _concrete_integer(y: ArrayLike) -> int | None:
    """The value of a concrete integer scalar (Python, NumPy, or a 0-d
    concrete array), else None."""
    if is_int(y):
        return int(y)
    if isinstance(y, ArrayImpl) and not y.ndim and dtypes.is_integer(y.dtype):
        return int(y)
    return None


def _integer_power(base: Array, exponent: Array) -> Array:
    zero, one = strong_constant_like(exponent, 0), strong_constant_like(exponent, 1)
    acc = where(lcmp.bitwise_and(lcmp.eq(base, strong_constant_like(base, 0)), lcmp.ne(exponent, zero)), strong_constant_like(base, 0), strong_constant_like(base, 1))
    for _ in range(6):  # more bits overflow for any base > 1
        acc = where(lcmp.ne(lcmp.bitwise_and(exponent, one), zero), la.mul(acc, base), acc)
        base = la.mul(base, base)
        exponent = lcmp.shift_right_logical(exponent, one)
    return acc


def maximum(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Elementwise maximum (NaN-propagating)."""
    a, b = promote_args("maximum", x, y)
    return la.max(a, b)


def minimum(x: ArrayLike, y: ArrayLike, /) -> Array:
    """Elementwise minimum (NaN-propagating)."""
    a, b = promote_args("minimum", x, y)
    return la.min(a, b)


def arctan2(x1: ArrayLike, x2: ArrayLike, /) -> Array:
    """``atan2(x1, x2)``, the angle of the point ``(x2, x1)``."""
    a, b = promote_args_inexact("arctan2", x1, x2)
    return lt.atan2(a, b)


def hypot(x1: ArrayLike, x2: ArrayLike, /) -> Array:
    """``sqrt(x1**2 + x2**2)`` without intermediate overflow; an infinite
    leg gives ``inf`` even beside a NaN (NumPy's and JAX's rule)."""
    a, b = promote_args_inexact("hypot", x1, x2)
    if dtypes.is_complex(a.dtype):
        raise JaxtypedValueError("jnp.hypot is not defined for complex inputs; take abs(x) first")
    a, b = la.abs(a), la.abs(b)
    infinite = lcmp.bitwise_or(_is_pos_inf(a), _is_pos_inf(b))
    big, small = maximum(a, b), minimum(a, b)
    # The same composition as JAX's, so that derivatives agree where it
    # has kinks (at 0 and at ties): big * sqrt(1 + (small / big)**2).
    is_zero = lcmp.eq(big, constant_like_scalar(big, 0))
    ratio = la.div(small, where(is_zero, full_like_aval(big.aval, 1), big))
    result = where(is_zero, big, la.mul(big, lt.sqrt(la.add(constant_like_scalar(ratio, 1), la.integer_pow(ratio, 2)))))
    return where(infinite, constant_like_scalar(result, float("inf")), result)


def _is_pos_inf(x: Array) -> Array:
    return lcmp.eq(x, constant_like_scalar(x, float("inf")))


# === logaddexp, logaddexp2 and sinc: JAX's own derivative rules ===


def _logaddexp_base(a: Array, b: Array, exp_: Callable[[Array], Array], log_scale: float) -> Array:
    """``log(base**a + base**b)`` in base ``e`` (``exp_`` = exp) or 2
    (``exp_`` = exp2, ``log_scale`` = 1/ln 2), computed stably for
    operands of one dtype."""
    biggest = la.max(a, b)
    if dtypes.is_complex(a.dtype):
        # Shifted by the (lexicographic) larger operand; the imaginary part
        # is wrapped into one period, [-pi, pi) scaled to the base.
        delta = la.sub(la.add(a, b), la.mul(biggest, constant_like_scalar(biggest, 2)))
        out = la.add(biggest, _scaled(lt.log1p(exp_(delta)), log_scale))
        return lc.complex(lc.real(out), _wrap_between(lc.imag(out), math.pi * log_scale))
    delta = la.sub(a, b)
    correction = _scaled(lt.log1p(exp_(la.neg(la.abs(delta)))), log_scale)
    # delta is NaN for a NaN operand or infinities of one sign: a + b is
    # then the answer.
    return where(lcmp.ne(delta, delta), la.add(a, b), la.add(biggest, correction))


def _scaled(x: Array, factor: float) -> Array:
    return x if factor == 1.0 else la.mul(constant_like_scalar(x, factor), x)


def _wrap_between(x: Array, half_period: float) -> Array:
    """``x`` moved by whole periods into ``[-half_period, half_period)``."""
    period = constant_like_scalar(x, 2 * half_period)
    rem = la.rem(la.add(x, constant_like_scalar(x, half_period)), period)
    rem = where(lcmp.lt(rem, constant_like_scalar(rem, 0)), la.add(rem, period), rem)
    return la.sub(rem, constant_like_scalar(rem, half_period))


def _exp2(x: Array) -> Array:
    return lt.exp(la.mul(x, constant_like_scalar(x, math.log(2.0))))


def _finite_or_zero(x: Array) -> Array:
    """``x`` with ``+inf`` replaced by 0: the tangent rules below divide
    ``base**x`` by ``base**out`` as ``base**(x - out)``, and ``inf - inf``
    would be NaN where the quotient is 1 (complex values: where the real
    part is ``+inf``)."""
    real_part = lc.real(x) if dtypes.is_complex(x.dtype) else x
    return where(_is_pos_inf(real_part), full_like_aval(x.aval, 0), x)


def _logaddexp_fun(a: Array, b: Array) -> Array:
    return _logaddexp_base(a, b, lt.exp, 1.0)


def _logaddexp2_fun(a: Array, b: Array) -> Array:
    return _logaddexp_base(a, b, _exp2, 1.0 / math.log(2.0))


def _logaddexp_jvp_with(
    core: Callable[[Array, Array], Array], exp_: Callable[[Array], Array]
) -> Callable[[tuple[Array, Array], tuple[Array, Array]], tuple[Array, Array]]:
    def rule(primals: tuple[Array, Array], tangents: tuple[Array, Array]) -> tuple[Array, Array]:
        (a, b), (ta, tb) = primals, tangents
        out = core(a, b)
        # d out / d a = base**(a - out): the softmax weight of a, so ties
        # split the derivative evenly (1/2 each) where the composition's
        # max would give all of it to one side.
        free = _finite_or_zero(out)
        weight_a = exp_(la.sub(_finite_or_zero(a), free))
        weight_b = exp_(la.sub(_finite_or_zero(b), free))
        return out, la.add(la.mul(ta, weight_a), la.mul(tb, weight_b))

    return rule


_logaddexp_core = custom_jvp(_logaddexp_fun)
_logaddexp_core.defjvp(_logaddexp_jvp_with(_logaddexp_core, lt.exp))
_logaddexp2_core = custom_jvp(_logaddexp2_fun)
_logaddexp2_core.defjvp(_logaddexp_jvp_with(_logaddexp2_core, _exp2))


def logaddexp(x1: ArrayLike, x2: ArrayLike, /) -> Array:
    """``log(exp(x1) + exp(x2))``, computed stably, with JAX's derivative
    (``exp(x1 - out)``, so ``d/dz logaddexp(0, z)`` at 0 is 1/2)."""
    a, b = promote_args_inexact("logaddexp", x1, x2)
    return _logaddexp_core(a, b)


def logaddexp2(x1: ArrayLike, x2: ArrayLike, /) -> Array:
    """``log2(2**x1 + 2**x2)``, computed stably, with JAX's derivative."""
    a, b = promote_args_inexact("logaddexp2", x1, x2)
    return _logaddexp2_core(a, b)


def _sinc_taylor_fun(k: int, x: Array) -> Array:
    """The ``k``-th Taylor coefficient term of ``sin(x)/x`` at 0, shaped
    like ``x``: the value of its ``k``-th derivative there, times ``k!``
    folded in (``(-1)**(k/2) / (k + 1)`` for even ``k``, 0 for odd)."""
    zero = la.mul(x, constant_like_scalar(x, 0))
    if k % 2:
        return zero
    return la.add(zero, constant_like_scalar(x, (-1) ** (k // 2) / (k + 1)))


def _sinc_taylor_jvp(k: int, primals: tuple[Array], tangents: tuple[Array]) -> tuple[Array, Array]:
    (x,), (t,) = primals, tangents
    # Each derivative moves one term down the series, so every order of
    # derivative at 0 is exact (the quotient's would be 0/0).
    return _sinc_taylor(k, x), la.mul(_sinc_taylor(k + 1, x), t)


_sinc_taylor = custom_jvp(_sinc_taylor_fun, nondiff_argnums=(0,))
_sinc_taylor.defjvp(_sinc_taylor_jvp)


def sinc(x: ArrayLike, /) -> Array:
    """``sin(pi x) / (pi x)``, 1 at 0, with derivatives of every order
    right at 0 (JAX's rule)."""
    (a,) = promote_args_inexact("sinc", x)
    at_zero = lcmp.eq(a, constant_like_scalar(a, 0))
    pi_x = la.mul(constant_like_scalar(a, math.pi), a)
    safe = where(at_zero, constant_like_scalar(a, 1), pi_x)
    return where(at_zero, _sinc_taylor(0, pi_x), la.div(lt.sin(safe), safe))


def _comparison(name: str, op: Callable[[Array, Array], Array]) -> BinaryFunction:
    def fun(x: ArrayLike, y: ArrayLike, /) -> Array:
        a, b = promote_args(name, x, y)
        if dtypes.is_complex(a.dtype) and op not in (lcmp.eq, lcmp.ne):
            return _lexicographic(op, a, b)
        return op(a, b)

    return name_function(fun, name, f"Elementwise ``{name}`` comparison.")


def _lexicographic(op: Callable[[Array, Array], Array], a: Array, b: Array) -> Array:
    """An order comparison of complex numbers by real part, then imaginary
    part (JAX's rule)."""
    ar, br = lc.real(a), lc.real(b)
    tie = lcmp.eq(ar, br)
    strict = lcmp.lt if op in (lcmp.lt, lcmp.le) else lcmp.gt
    return lcmp.bitwise_or(strict(ar, br), lcmp.bitwise_and(tie, op(lc.imag(a), lc.imag(b))))


equal: BinaryFunction = _comparison("equal", lcmp.eq)
not_equal: BinaryFunction = _comparison("not_equal", lcmp.ne)
less: BinaryFunction = _comparison("less", lcmp.lt)
less_equal: BinaryFunction = _comparison("less_equal", lcmp.le)
greater: BinaryFunction = _comparison("greater", lcmp.gt)
greater_equal: BinaryFunction = _comparison("greater_equal", lcmp.ge)


def _logical(name: str, op: Callable[[Array, Array], Array]) -> BinaryFunction:
    def fun(x: ArrayLike, y: ArrayLike, /) -> Array:
        a, b = promote_args(name, x, y)
        return op(_as_bool(a), _as_bool(b))

    return name_function(fun, name, f"Elementwise ``{name}`` (nonzero is true).")


logical_and: BinaryFunction = _logical("logical_and", lcmp.bitwise_and)
logical_or: BinaryFunction = _logical("logical_or", lcmp.bitwise_or)
logical_xor: BinaryFunction = _logical("logical_xor", lcmp.bitwise_xor)


def _bitwise(name: str, op: Callable[[Array, Array], Array]) -> BinaryFunction:
    def fun(x: ArrayLike, y: ArrayLike, /) -> Array:
        a, b = promote_args(name, x, y)
        return op(a, b)

    return name_function(fun, name, f"Elementwise ``{name}`` of booleans or integers.")


bitwise_and: BinaryFunction = _bitwise("bitwise_and", lcmp.bitwise_and)
bitwise_or: BinaryFunction = _bitwise("bitwise_or", lcmp.bitwise_or)
bitwise_xor: BinaryFunction = _bitwise("bitwise_xor", lcmp.bitwise_xor)


def left_shift(x: ArrayLike, y: ArrayLike, /) -> Array:
    """``x << y`` (booleans are promoted to int32)."""
    a, b = promote_args_numeric("left_shift", x, y)
    return lcmp.shift_left(a, b)


def right_shift(x: ArrayLike, y: ArrayLike, /) -> Array:
    """``x >> y``: arithmetic for signed integers, logical for unsigned."""
    a, b = promote_args_numeric("right_shift", x, y)
    if dtypes.is_unsigned_integer(a.dtype):
        return lcmp.shift_right_logical(a, b)
    return lcmp.shift_right_arithmetic(a, b)


# === selection ===


def where(
    condition: ArrayLike,
    x: ArrayLike | None = None,
    y: ArrayLike | None = None,
    /,
    *,
    size: int | None = None,
    fill_value: ArrayLike | None = None,
) -> Array:
    """``x`` where ``condition`` is true, else ``y`` (broadcast together).

    The one-argument form (``nonzero``, with ``size``/``fill_value``) is not
    supported yet.
    """
    if x is None or y is None:
        raise JaxtypedTypeError(
            "jnp.where: the one-argument form (nonzero) is not supported yet; pass x and y"
        )
    cond = _as_bool(asarray_operand("where", condition))
    a, b = promote_dtypes("where", (x, y))
    types = [cond.aval.str_short(), a.aval.str_short(), b.aval.str_short()]
    shape = broadcast_shapes("where", cond.shape, a.shape, b.shape, types=types)
    which = cond if not cond.shape else broadcast_to_shape(cond, shape)
    return select_n(which, broadcast_to_shape(b, shape), broadcast_to_shape(a, shape))


def clip(arr: ArrayLike, min: ArrayLike | None = None, max: ArrayLike | None = None) -> Array:  # noqa: A002 - JAX's names
    """Limit values to ``[min, max]`` (either bound may be None)."""
    x = asarray_operand("clip", arr)
    if min is not None:
        x = maximum(x, min)
    if max is not None:
        x = minimum(x, max)
    return x

