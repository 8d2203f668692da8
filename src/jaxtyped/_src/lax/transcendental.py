"""Transcendental primitives (layer L4): roots, exponentials, logarithms,
trigonometric and hyperbolic functions, ``logistic``, ``erf``, ``pow``,
``atan2``. Each is a few lines: its NumPy computation and its derivative."""

import math
from dataclasses import dataclass
from typing import Any, ClassVar, final

import numpy as np
from typing_extensions import override

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.avals import ShapedArray, Zero
from jaxtyped._src.core.hlo import HloValue, LoweringContext
from jaxtyped._src.core.interpreter import bind1
from jaxtyped._src.core.primitive import HostValue, NDArray, Tangent
from jaxtyped._src.errors import DTypeMismatchError, JaxtypedTypeError
from jaxtyped._src.lax.arithmetic import (
    ADD,
    DIV,
    MUL,
    NEG,
    SUB,
    BinaryDifferentiable,
    IntegerPow,
    UnaryDifferentiable,
    add_tangents,
    const_like,
)
from jaxtyped._src.lax.comparison import EQ
from jaxtyped._src.lax.elementwise_base import (
    FLOAT,
    INEXACT,
    Elementwise,
    bind_unary,
    broadcast_operands,
    convert_to,
    elementwise_shape,
)
from jaxtyped._src.lax.structural import broadcast_scalar, select_n
from jaxtyped._src.lax.util import check_arity, as_operand, operands_same_kind

__all__ = [
    "Sqrt", "Rsqrt", "Exp", "Log", "Log1p", "Expm1", "Sin", "Cos", "Tan", "Tanh",
    "Logistic", "Erf", "Asin", "Acos", "Atan", "Sinh", "Cosh", "Asinh", "Acosh",
    "Atanh", "Pow", "Atan2",
    "sqrt", "rsqrt", "exp", "log", "log1p", "expm1", "sin", "cos", "tan", "tanh",
    "logistic", "erf", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh",
    "atanh", "pow", "atan2",
]


def _mul(x: Array, y: Array) -> Array:
    return bind1(MUL, x, y)


def _div(x: Array, y: Array) -> Array:
    return bind1(DIV, x, y)


def _square(x: Array) -> Array:
    return bind1(MUL, x, x)


def _unsigned_zeros(x: NDArray) -> NDArray:
    """``x`` with complex signed zeros made positive: XLA's complex sqrt,
    asin, acos, asinh and acosh ignore the sign of a zero part on their
    branch cuts (``jax.lax.sqrt(complex(-4, -0.0))`` is ``2j``, NumPy's
    ``-2j``)."""
    if not dtypes.is_complex(x.dtype):
        return x
    result: NDArray = np.add(x, np.zeros((), x.dtype))
    return result


class _Transcendental(UnaryDifferentiable):
    __slots__ = ()
    accepts = INEXACT


class _SinCos(_Transcendental):
    """Sine and cosine: XLA's complex ``sine``/``cosine`` lose tiny imaginary
    parts and overflow to NaN (``sin(800j)``), so complex operands are
    lowered through real functions, as JAX does."""

    __slots__ = ()
    is_cos: ClassVar[bool]

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        (out,) = out_avals
        if not dtypes.is_complex(out.dtype):
            return Elementwise.lower(self, ctx, args, out_avals)
        (x,) = args
        real = ShapedArray(x.aval.shape, np.finfo(x.aval.dtype).dtype)

        def unary(op: str, v: HloValue) -> HloValue:
            return ctx.op1(op, (v,), real)

        def binary(op: str, u: HloValue, v: HloValue) -> HloValue:
            return ctx.op1(op, (u, v), real)

        def full(value: float) -> HloValue:
            return ctx.broadcast_to(ctx.scalar(value, real.dtype), real.shape)

        a, b = unary("stablehlo.real", x), unary("stablehlo.imag", x)
        sin_a, cos_a = unary("stablehlo.sine", a), unary("stablehlo.cosine", a)
        # sinh b and cosh b from expm1, exact for tiny b (exp(b) - 1 is not).
        up = unary("stablehlo.exponential_minus_one", b)
        down = unary("stablehlo.exponential_minus_one", unary("stablehlo.negate", b))
        half = full(0.5)
        sinh_b = binary("stablehlo.multiply", binary("stablehlo.subtract", up, down), half)
        cosh_b = binary("stablehlo.add", binary("stablehlo.multiply", binary("stablehlo.add", up, down), half), full(1.0))
        # sin(a + ib) = sin a cosh b + i cos a sinh b
        # cos(a + ib) = cos a cosh b - i sin a sinh b
        # On the imaginary axis the zero factor would meet an infinite
        # cosh/sinh for large |b|: the part is exactly zero there.
        zero = full(0.0)
        on_axis = ctx.compare(a, zero, "EQ")
        if self.is_cos:
            re = binary("stablehlo.multiply", cos_a, cosh_b)
            im = ctx.select(on_axis, zero, unary("stablehlo.negate", binary("stablehlo.multiply", sin_a, sinh_b)))
        else:
            re = ctx.select(on_axis, a, binary("stablehlo.multiply", sin_a, cosh_b))
            im = binary("stablehlo.multiply", cos_a, sinh_b)
        return (ctx.op1("stablehlo.complex", (re, im), out),)


@final
@dataclass(frozen=True, slots=True)
class Sqrt(_Transcendental):
    """Square root."""

    name = "sqrt"
    float_ufunc = np.sqrt
    hlo_op = "stablehlo.sqrt"

    def compute(self, *args: NDArray) -> HostValue:
        return np.sqrt(_unsigned_zeros(args[0]))

    @override
    def derivative(self, x: Array, out: Array) -> Array:
        return _div(const_like(out, 0.5), out)


@final
@dataclass(frozen=True, slots=True)
class Rsqrt(_Transcendental):
    """``1 / sqrt(x)``."""

    name = "rsqrt"
    hlo_op = "stablehlo.rsqrt"

    def compute(self, *args: NDArray) -> HostValue:
        # np.divide, not np.reciprocal: 1 / sqrt(0j) is inf+nanj for XLA
        # and np.divide, nan+nanj for np.reciprocal.
        return np.divide(np.ones((), args[0].dtype), np.sqrt(args[0]))

    @override
    def derivative(self, x: Array, out: Array) -> Array:
        return _mul(const_like(x, -0.5), _div(out, x))


@final
@dataclass(frozen=True, slots=True)
class Exp(_Transcendental):
    """``e ** x``."""

    name = "exp"
    float_ufunc = np.exp
    hlo_op = "stablehlo.exponential"

    def compute(self, *args: NDArray) -> HostValue:
        return np.exp(args[0])

    @override
    def derivative(self, x: Array, out: Array) -> Array:
        return out


@final
@dataclass(frozen=True, slots=True)
class Log(_Transcendental):
    """Natural logarithm."""

    name = "log"
    float_ufunc = np.log
    hlo_op = "stablehlo.log"

    def compute(self, *args: NDArray) -> HostValue:
        return np.log(args[0])

    @override
    def tangent(self, t: Array, x: Array, out: Array) -> Array:
        return _div(t, x)


@final
@dataclass(frozen=True, slots=True)
class Log1p(_Transcendental):
    """``log(1 + x)``, accurate near 0."""

    name = "log1p"
    hlo_op = "stablehlo.log_plus_one"

    def compute(self, *args: NDArray) -> HostValue:
        x = args[0]
        if dtypes.is_complex(x.dtype):
            return _log1p_complex(x)
        return np.log1p(x)

    @override
    def tangent(self, t: Array, x: Array, out: Array) -> Array:
        return _div(t, bind1(ADD, x, const_like(x, 1)))


@final
@dataclass(frozen=True, slots=True)
class Expm1(_Transcendental):
    """``e ** x - 1``, accurate near 0."""

    name = "expm1"
    hlo_op = "stablehlo.exponential_minus_one"

    def compute(self, *args: NDArray) -> HostValue:
        x = args[0]
        result: NDArray = np.expm1(x)
        if dtypes.is_complex(x.dtype):
            # On the real axis the imaginary part stays zero even where
            # exp(re) overflows (NumPy makes it inf * 0 = NaN; XLA, 0).
            imag = np.imag(x)
            result = _complex(np.real(result), np.where(imag == 0, imag, np.imag(result)), x.dtype)
        return result

    @override
    def derivative(self, x: Array, out: Array) -> Array:
        return bind1(ADD, out, const_like(out, 1))


@final
@dataclass(frozen=True, slots=True)
class Sin(_SinCos):
    """Sine."""

    name = "sin"
    float_ufunc = np.sin
    hlo_op = "stablehlo.sine"
    is_cos = False

    def compute(self, *args: NDArray) -> HostValue:
        return np.sin(args[0])

    @override
    def derivative(self, x: Array, out: Array) -> Array:
        return bind1(COS, x)


@final
@dataclass(frozen=True, slots=True)
class Cos(_SinCos):
    """Cosine."""

    name = "cos"
    float_ufunc = np.cos
    hlo_op = "stablehlo.cosine"
    is_cos = True

    def compute(self, *args: NDArray) -> HostValue:
        return np.cos(args[0])

    @override
    def derivative(self, x: Array, out: Array) -> Array:
        return bind1(NEG, bind1(SIN, x))


@final
@dataclass(frozen=True, slots=True)
class Tan(_Transcendental):
    """Tangent."""

    name = "tan"
    hlo_op = "stablehlo.tan"

    def compute(self, *args: NDArray) -> HostValue:
        return np.tan(args[0])

    @override
    def derivative(self, x: Array, out: Array) -> Array:
        return bind1(ADD, const_like(out, 1), _square(out))


@final
@dataclass(frozen=True, slots=True)
class Tanh(_Transcendental):
    """Hyperbolic tangent."""

    name = "tanh"
    float_ufunc = np.tanh
    hlo_op = "stablehlo.tanh"

    def compute(self, *args: NDArray) -> HostValue:
        return np.tanh(args[0])

    @override
    def tangent(self, t: Array, x: Array, out: Array) -> Array:
        # (t + t * y) * (1 - y): 1 - y is exact where tanh saturates, so
        # this keeps its digits where 1 - y * y loses them (JAX's rule).
        return _mul(bind1(ADD, t, _mul(t, out)), bind1(SUB, const_like(out, 1), out))


@final
@dataclass(frozen=True, slots=True)
class Logistic(_Transcendental):
    """The logistic sigmoid ``1 / (1 + e ** -x)``."""

    name = "logistic"
    hlo_op = "stablehlo.logistic"

    def compute(self, *args: NDArray) -> HostValue:
        x = args[0]
        if dtypes.is_complex(x.dtype):
            e = np.exp(np.negative(x))
            # 1 / (1 + e) is 0 for an infinite e; NumPy's complex division
            # makes it NaN (XLA gives 0, e.g. logistic(-800+1j)).
            overflow = np.isinf(e) & ~np.isnan(e)
            complex_result: NDArray = np.where(overflow, np.zeros((), x.dtype), np.divide(1, np.add(1, e))).astype(x.dtype)
            return complex_result
        # Stable on both tails: never exponentiate a large positive number.
        e = np.exp(np.negative(np.abs(x)))
        result: NDArray = np.where(x >= 0, np.reciprocal(np.add(1, e)), np.divide(e, np.add(1, e)))
        return result

    @override
    def derivative(self, x: Array, out: Array) -> Array:
        return _mul(out, bind1(SUB, const_like(out, 1), out))


_erf_float64 = np.vectorize(math.erf, otypes=[np.float64])


@final
@dataclass(frozen=True, slots=True)
class Erf(UnaryDifferentiable):
    """The error function."""

    name = "erf"
    hlo_op = "chlo.erf"
    accepts = FLOAT

    def compute(self, *args: NDArray) -> HostValue:
        x = args[0]
        # NumPy has no erf; math.erf is exact to double precision.
        result: NDArray = _erf_float64(x.astype(np.float64)) if x.size else x
        return result

    @override
    def tangent(self, t: Array, x: Array, out: Array) -> Array:
        two_over_sqrt_pi = const_like(x, 2.0 / math.sqrt(math.pi))
        return _mul(two_over_sqrt_pi, _mul(t, bind1(EXP, bind1(NEG, _square(x)))))


@final
@dataclass(frozen=True, slots=True)
class Asin(_Transcendental):
    """Inverse sine."""

    name = "asin"
    hlo_op = "chlo.asin"

    def compute(self, *args: NDArray) -> HostValue:
        return np.arcsin(_unsigned_zeros(args[0]))

    @override
    def derivative(self, x: Array, out: Array) -> Array:
        return bind1(RSQRT, bind1(SUB, const_like(x, 1), _square(x)))


@final
@dataclass(frozen=True, slots=True)
class Acos(_Transcendental):
    """Inverse cosine."""

    name = "acos"
    hlo_op = "chlo.acos"

    def compute(self, *args: NDArray) -> HostValue:
        return np.arccos(_unsigned_zeros(args[0]))

    @override
    def derivative(self, x: Array, out: Array) -> Array:
        return bind1(NEG, bind1(RSQRT, bind1(SUB, const_like(x, 1), _square(x))))


@final
@dataclass(frozen=True, slots=True)
class Atan(_Transcendental):
    """Inverse tangent."""

    name = "atan"
    hlo_op = "chlo.atan"

    def compute(self, *args: NDArray) -> HostValue:
        return np.arctan(args[0])

    @override
    def tangent(self, t: Array, x: Array, out: Array) -> Array:
        return _div(t, bind1(ADD, const_like(x, 1), _square(x)))


@final
@dataclass(frozen=True, slots=True)
class Sinh(_Transcendental):
    """Hyperbolic sine."""

    name = "sinh"
    hlo_op = "chlo.sinh"

    def compute(self, *args: NDArray) -> HostValue:
        return np.sinh(args[0])

    @override
    def derivative(self, x: Array, out: Array) -> Array:
        return bind1(COSH, x)


@final
@dataclass(frozen=True, slots=True)
class Cosh(_Transcendental):
    """Hyperbolic cosine."""

    name = "cosh"
    hlo_op = "chlo.cosh"

    def compute(self, *args: NDArray) -> HostValue:
        return np.cosh(args[0])

    @override
    def derivative(self, x: Array, out: Array) -> Array:
        return bind1(SINH, x)


@final
@dataclass(frozen=True, slots=True)
class Asinh(_Transcendental):
    """Inverse hyperbolic sine."""

    name = "asinh"
    hlo_op = "chlo.asinh"

    def compute(self, *args: NDArray) -> HostValue:
        return np.arcsinh(_unsigned_zeros(args[0]))

    @override
    def derivative(self, x: Array, out: Array) -> Array:
        return bind1(RSQRT, bind1(ADD, _square(x), const_like(x, 1)))


@final
@dataclass(frozen=True, slots=True)
class Acosh(_Transcendental):
    """Inverse hyperbolic cosine."""

    name = "acosh"
    hlo_op = "chlo.acosh"

    def compute(self, *args: NDArray) -> HostValue:
        return np.arccosh(_unsigned_zeros(args[0]))

    @override
    def derivative(self, x: Array, out: Array) -> Array:
        # x**2 - 1, not (x - 1)(x + 1): at x = -1 the latter is -0 and the
        # slope -inf, where JAX's is +inf.
        return bind1(RSQRT, bind1(SUB, _square(x), const_like(x, 1)))


@final
@dataclass(frozen=True, slots=True)
class Atanh(_Transcendental):
    """Inverse hyperbolic tangent."""

    name = "atanh"
    hlo_op = "chlo.atanh"

    def compute(self, *args: NDArray) -> HostValue:
        return np.arctanh(args[0])

    @override
    def tangent(self, t: Array, x: Array, out: Array) -> Array:
        # (1 / (1 + x)) * (t / (1 - x)): 1 - x * x would lose the digits
        # near |x| = 1 that 1 - x keeps (JAX's rule).
        one = const_like(x, 1)
        return _mul(bind1(IntegerPow(-1), bind1(ADD, one, x)), _div(t, bind1(SUB, one, x)))


@final
@dataclass(frozen=True, slots=True)
class Atan2(BinaryDifferentiable):
    """``atan2(x, y)``: the angle of the point ``(y, x)``."""

    name = "atan2"
    hlo_op = "stablehlo.atan2"
    accepts = FLOAT

    def compute(self, *args: NDArray) -> HostValue:
        return np.arctan2(args[0], args[1])

    @override
    def partials(self, x: Array, y: Array, out: Array) -> tuple[Array | None, Array | None]:
        denominator = bind1(ADD, _square(x), _square(y))
        return _div(y, denominator), bind1(NEG, _div(x, denominator))


@final
@dataclass(frozen=True, slots=True)
class Pow(Elementwise):
    """``x ** y`` for a floating or complex ``x`` and an exponent of the same
    dtype or of any integer dtype."""

    name = "pow"
    arity = 2
    accepts = INEXACT

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        check_arity(self.name, avals, 2)
        x, y = avals
        shape = elementwise_shape(self.name, avals)
        self.check_dtypes((x,))
        if y.dtype != x.dtype and not dtypes.is_integer(y.dtype):
            raise DTypeMismatchError(
                f"pow: the exponent must have the base's dtype or an integer dtype, got "
                f"{x.dtype.name} and {y.dtype.name}"
            )
        return (ShapedArray(shape, x.dtype, x.weak_type and y.weak_type),)

    def compute(self, *args: NDArray) -> HostValue:
        x, y = args
        y = y.astype(x.dtype) if dtypes.is_integer(y.dtype) else y
        result: NDArray = np.power(x, y)
        if dtypes.is_complex(x.dtype):
            # XLA: 0 ** y is NaN for a non-real y with Re(y) > 0 (NumPy: 0).
            nan = np.array(complex(np.nan, np.nan), x.dtype)
            undefined = (x == 0) & (np.real(y) > 0) & (np.imag(y) != 0)
            result = np.where(undefined, nan, result).astype(x.dtype)
        return result

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        # stablehlo.power wants one operand dtype: an integer exponent is
        # converted to the base's dtype first (as the eager rule does).
        (out,) = out_avals
        x, y = broadcast_operands(ctx, args, out.shape)
        return (ctx.op1("stablehlo.power", (x, ctx.convert(y, out.dtype)), out),)

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        (x, y), (tx, ty) = primals, tangents
        out = bind1(self, x, y)
        total: Tangent = Zero(out.aval.to_tangent_aval())
        if not isinstance(tx, Zero):
            y_float = convert_to(y, x.dtype, weak_type=y.weak_type)
            slope = _mul(y_float, bind1(self, x, bind1(SUB, y_float, const_like(x, 1))))
            if dtypes.is_integer(y.dtype):
                # d/dx x**0 is 0 everywhere for an integer exponent, x == 0
                # included; a float exponent gives 0 * 0**-1 = nan there (JAX's rules).
                slope = select_n(bind1(EQ, y_float, const_like(x, 0)), broadcast_scalar(slope, out.shape), _zeros(out))
            total = add_tangents(total, broadcast_scalar(_mul(tx, slope), out.shape))
        if not isinstance(ty, Zero) and not dtypes.is_integer(y.dtype):
            safe_x = select_n(bind1(EQ, x, const_like(x, 0)), x, broadcast_scalar(const_like(x, 1), x.shape))
            total = add_tangents(total, broadcast_scalar(_mul(ty, _mul(bind1(LOG, safe_x), out)), out.shape))
        return (out,), (total,)


def _log1p_complex(x: NDArray) -> NDArray:
    """``log(1 + x)`` for complex ``x``, keeping its digits near 0 (NumPy
    rounds ``1 + x`` first: ``log1p(1e-4+1e-4j)`` in complex64 is off by
    1e-4 relatively; XLA is accurate)."""
    a, b = np.real(x), np.imag(x)
    # Near 0, log|1 + x| = log1p(|1 + x|**2 - 1) / 2 with the square
    # expanded so that 1 + a is never rounded.
    near_zero = np.abs(x) < 0.5
    t = np.where(near_zero, a * (2 + a) + b * b, 0)
    re = np.where(near_zero, 0.5 * np.log1p(t), np.log(np.abs(np.add(1, x))))
    return _complex(re, np.arctan2(b, np.add(1, a)), x.dtype)


def _complex(re: NDArray, im: NDArray, dtype: np.dtype[Any]) -> NDArray:
    """The complex array with these parts (``re + 1j * im`` would turn an
    infinite part into NaN)."""
    out: NDArray = np.empty(np.broadcast_shapes(re.shape, im.shape), dtype)
    out.real, out.imag = re, im
    return out


def _zeros(like: Array) -> Array:
    return broadcast_scalar(const_like(like, 0), like.shape)


SQRT, RSQRT, EXP, LOG, LOG1P, EXPM1 = Sqrt(), Rsqrt(), Exp(), Log(), Log1p(), Expm1()
SIN, COS, TAN, TANH, LOGISTIC, ERF = Sin(), Cos(), Tan(), Tanh(), Logistic(), Erf()
ASIN, ACOS, ATAN, SINH, COSH = Asin(), Acos(), Atan(), Sinh(), Cosh()
ASINH, ACOSH, ATANH, POW, ATAN2 = Asinh(), Acosh(), Atanh(), Pow(), Atan2()


def sqrt(x: ArrayLike) -> Array:
    """Square root."""
    return bind_unary(SQRT, x)


def rsqrt(x: ArrayLike) -> Array:
    """Reciprocal square root."""
    return bind_unary(RSQRT, x)


def exp(x: ArrayLike) -> Array:
    """Exponential."""
    return bind_unary(EXP, x)


def log(x: ArrayLike) -> Array:
    """Natural logarithm."""
    return bind_unary(LOG, x)


def log1p(x: ArrayLike) -> Array:
    """``log(1 + x)``."""
    return bind_unary(LOG1P, x)


def expm1(x: ArrayLike) -> Array:
    """``exp(x) - 1``."""
    return bind_unary(EXPM1, x)


def sin(x: ArrayLike) -> Array:
    """Sine."""
    return bind_unary(SIN, x)


def cos(x: ArrayLike) -> Array:
    """Cosine."""
    return bind_unary(COS, x)


def tan(x: ArrayLike) -> Array:
    """Tangent."""
    return bind_unary(TAN, x)


def tanh(x: ArrayLike) -> Array:
    """Hyperbolic tangent."""
    return bind_unary(TANH, x)


def logistic(x: ArrayLike) -> Array:
    """Logistic sigmoid."""
    return bind_unary(LOGISTIC, x)


def erf(x: ArrayLike) -> Array:
    """Error function."""
    return bind_unary(ERF, x)


def asin(x: ArrayLike) -> Array:
    """Inverse sine."""
    return bind_unary(ASIN, x)


def acos(x: ArrayLike) -> Array:
    """Inverse cosine."""
    return bind_unary(ACOS, x)


def atan(x: ArrayLike) -> Array:
    """Inverse tangent."""
    return bind_unary(ATAN, x)


def sinh(x: ArrayLike) -> Array:
    """Hyperbolic sine."""
    return bind_unary(SINH, x)


def cosh(x: ArrayLike) -> Array:
    """Hyperbolic cosine."""
    return bind_unary(COSH, x)


def asinh(x: ArrayLike) -> Array:
    """Inverse hyperbolic sine."""
    return bind_unary(ASINH, x)


def acosh(x: ArrayLike) -> Array:
    """Inverse hyperbolic cosine."""
    return bind_unary(ACOSH, x)


def atanh(x: ArrayLike) -> Array:
    """Inverse hyperbolic tangent."""
    return bind_unary(ATANH, x)


def atan2(x: ArrayLike, y: ArrayLike) -> Array:
    """``atan2(x, y)``."""
    a, b = operands_same_kind("atan2", x, y)
    return bind1(ATAN2, a, b)


def pow(x: ArrayLike, y: ArrayLike) -> Array:  # noqa: A001 - JAX's name
    """``x ** y`` (JAX's ``lax.pow``): a floating or complex base; the
    exponent has the base's dtype or an integer dtype."""
    base = as_operand(x, "lax.pow operand x")
    exponent = as_operand(y, "lax.pow operand y")
    if isinstance(y, float) and exponent.dtype != base.dtype:
        (exponent,) = operands_same_kind("pow", y, base)[:1]
    if exponent.dtype != base.dtype and not dtypes.is_integer(exponent.dtype):
        raise JaxtypedTypeError(
            f"lax.pow: the exponent must have the base's dtype or an integer dtype, got "
            f"{base.dtype.name} and {exponent.dtype.name}"
        )
    return bind1(POW, base, exponent)
