"""Arithmetic, comparison, rounding and bitwise primitives (layer L4).

Integer division and remainder follow XLA (truncation toward zero;
``x / 0 == -1``, ``x % 0 == x``, ``INT_MIN / -1 == INT_MIN``) so that eager
results equal compiled ones. Derivatives follow JAX's conventions where they
are a choice (``abs'(0) == 1``; ``max`` splits ties evenly).
"""

import enum
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar, final

import numpy as np
from typing_extensions import override

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.array_impl import is_numpy_value, is_python_scalar
from jaxtyped._src.core.avals import ShapedArray, Zero
from jaxtyped._src.core.interpreter import bind1
from jaxtyped._src.core.primitive import HostValue, NDArray, Tangent
from jaxtyped._src.errors import JaxtypedTypeError
from jaxtyped._src.lax.elementwise_base import (
    ALL,
    FLOAT,
    INTEGRAL,
    NUMBER,
    Elementwise,
    Kind,
    NonDifferentiable,
)
from jaxtyped._src.lax.structural import broadcast_scalar, select_n
from jaxtyped._src.lax.util import operand, operands_same_kind, scalar_like
from jaxtyped._src.tree_util import tree_map
from jaxtyped._src.util import is_int

__all__ = [
    "RoundingMethod", "Neg", "Sign", "Abs", "Floor", "Ceil", "Round", "IsFinite", "Not",
    "StopGradient", "IntegerPow", "Add", "Sub", "Mul", "Div", "Rem", "Max", "Min",
    "Eq", "Ne", "Lt", "Le", "Gt", "Ge", "And", "Or", "Xor",
    "ShiftLeft", "ShiftRightArithmetic", "ShiftRightLogical",
    "neg", "sign", "abs", "floor", "ceil", "round", "is_finite", "bitwise_not",
    "stop_gradient", "integer_pow", "add", "sub", "mul", "div", "rem", "max", "min",
    "eq", "ne", "lt", "le", "gt", "ge", "bitwise_and", "bitwise_or", "bitwise_xor",
    "shift_left", "shift_right_arithmetic", "shift_right_logical", "add_tangents",
    "const_like",
]


# === helpers for derivative rules ===


def const_like(x: Array, value: bool | int | float) -> Array:
    """A scalar of ``x``'s dtype (broadcast inside elementwise primitives)."""
    return scalar_like(value, x.dtype, "constant")


def add_tangents(a: Tangent, b: Tangent) -> Tangent:
    """The sum of two tangents of one shape, keeping symbolic zeros."""
    if isinstance(a, Zero):
        return b
    if isinstance(b, Zero):
        return a
    return bind1(ADD, a, b)


class UnaryDifferentiable(Elementwise):
    """Unary elementwise primitive differentiated as ``t * f'(x)``."""

    __slots__ = ()
    arity = 1

    def derivative(self, x: Array, out: Array) -> Array:
        """``f'(x)``, possibly expressed through the output ``out``."""
        raise NotImplementedError

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        (x,), (t,) = primals, tangents
        assert not isinstance(t, Zero)
        out = bind1(self, x)
        return (out,), (bind1(MUL, t, self.derivative(x, out)),)


class BinaryDifferentiable(Elementwise):
    """Binary elementwise primitive differentiated through its partial
    derivatives, ``t_x * df/dx + t_y * df/dy``."""

    __slots__ = ()
    arity = 2

    def partials(self, x: Array, y: Array, out: Array) -> tuple[Array | None, Array | None]:
        """``(df/dx, df/dy)``; ``None`` for an identically zero partial."""
        raise NotImplementedError

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        (x, y), (tx, ty) = primals, tangents
        out = bind1(self, x, y)
        dx, dy = self.partials(x, y, out)
        total: Tangent = Zero(out.aval.to_tangent_aval())
        for t, d in ((tx, dx), (ty, dy)):
            if not isinstance(t, Zero) and d is not None:
                total = add_tangents(total, broadcast_scalar(bind1(MUL, t, d), out.shape))
        return (out,), (total,)


def _unary_wrapper(prim: Elementwise, x: ArrayLike) -> Array:
    return bind1(prim, operand(x, f"lax.{prim.name} operand"))


def _binary_wrapper(prim: Elementwise, name: str, x: ArrayLike, y: ArrayLike) -> Array:
    a, b = operands_same_kind(name, x, y)
    return bind1(prim, a, b)


# === unary arithmetic ===


@final
@dataclass(frozen=True, slots=True)
class Neg(Elementwise):
    """``-x``."""

    name = "neg"
    arity = 1
    accepts = NUMBER

    def compute(self, *args: NDArray) -> HostValue:
        return np.negative(args[0])

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        (x,), (t,) = primals, tangents
        assert not isinstance(t, Zero)  # interpreters call rules with a nonzero tangent
        return (bind1(self, x),), (bind1(self, t),)


@final
@dataclass(frozen=True, slots=True)
class Sign(NonDifferentiable):
    """-1, 0 or 1 (``x / |x|`` for complex)."""

    name = "sign"
    arity = 1
    accepts = NUMBER

    def compute(self, *args: NDArray) -> HostValue:
        x = args[0]
        if dtypes.is_floating(x.dtype):
            return np.where(x == 0, x, np.sign(x))  # keeps the sign of zero, as XLA
        return np.sign(x)


@final
@dataclass(frozen=True, slots=True)
class Abs(UnaryDifferentiable):
    """``|x|`` (real-valued for complex inputs)."""

    name = "abs"
    accepts = frozenset({"int", "float", "complex"})

    @override
    def result_dtype(self, dtype: np.dtype[Any]) -> np.dtype[Any]:
        return np.dtype(np.real(np.zeros((), dtype)).dtype) if dtypes.is_complex(dtype) else dtype

    def compute(self, *args: NDArray) -> HostValue:
        return np.abs(args[0])

    @override
    def derivative(self, x: Array, out: Array) -> Array:
        if dtypes.is_complex(x.dtype):
            raise JaxtypedTypeError("jvp of abs of a complex array is not supported yet")
        # JAX's convention: the derivative at 0 is 1.
        return select_n(bind1(GE, x, const_like(x, 0)), broadcast_scalar(const_like(x, -1), x.shape), broadcast_scalar(const_like(x, 1), x.shape))


class RoundingMethod(enum.IntEnum):
    """How ``lax.round`` breaks ties (JAX's ``lax.RoundingMethod``)."""

    AWAY_FROM_ZERO = 0
    TO_NEAREST_EVEN = 1


@final
@dataclass(frozen=True, slots=True)
class Floor(NonDifferentiable):
    """Round toward -inf."""

    name = "floor"
    arity = 1
    accepts = FLOAT

    def compute(self, *args: NDArray) -> HostValue:
        return np.floor(args[0])


@final
@dataclass(frozen=True, slots=True)
class Ceil(NonDifferentiable):
    """Round toward +inf."""

    name = "ceil"
    arity = 1
    accepts = FLOAT

    def compute(self, *args: NDArray) -> HostValue:
        return np.ceil(args[0])


@final
@dataclass(frozen=True, slots=True)
class Round(NonDifferentiable):
    """Round to the nearest integer; ties by ``rounding_method``."""

    rounding_method: RoundingMethod = RoundingMethod.AWAY_FROM_ZERO
    name = "round"
    arity = 1
    accepts = FLOAT

    def compute(self, *args: NDArray) -> HostValue:
        x = args[0]
        nearest_even = np.rint(x)
        if self.rounding_method == RoundingMethod.TO_NEAREST_EVEN:
            return nearest_even
        truncated = np.trunc(x)
        is_half = np.abs(x - truncated) == 0.5
        return np.where(is_half, truncated + np.sign(x), nearest_even)


@final
@dataclass(frozen=True, slots=True)
class IsFinite(NonDifferentiable):
    """Whether each element is neither infinite nor NaN."""

    name = "is_finite"
    arity = 1
    accepts = FLOAT

    @override
    def result_dtype(self, dtype: np.dtype[Any]) -> np.dtype[Any]:
        return np.dtype(np.bool_)

    def compute(self, *args: NDArray) -> HostValue:
        return np.isfinite(args[0])


@final
@dataclass(frozen=True, slots=True)
class Not(NonDifferentiable):
    """Logical not for booleans, bitwise not for integers."""

    name = "not"
    arity = 1
    accepts = INTEGRAL

    def compute(self, *args: NDArray) -> HostValue:
        x = args[0]
        return np.logical_not(x) if x.dtype == np.bool_ else np.invert(x)


@final
@dataclass(frozen=True, slots=True)
class StopGradient(NonDifferentiable):
    """The identity, with a zero derivative."""

    name = "stop_gradient"
    arity = 1
    accepts = ALL

    def compute(self, *args: NDArray) -> HostValue:
        return args[0]


@final
@dataclass(frozen=True, slots=True)
class IntegerPow(UnaryDifferentiable):
    """``x ** y`` for a static Python integer ``y``."""

    y: int
    name = "integer_pow"
    accepts = NUMBER

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        out = Elementwise.abstract_eval(self, avals)
        if self.y < 0 and dtypes.is_integer(avals[0].dtype):
            raise JaxtypedTypeError(
                f"Integers cannot be raised to negative powers, got integer_pow({avals[0].str_short()}, {self.y})"
            )
        return out

    def compute(self, *args: NDArray) -> HostValue:
        x = args[0]
        if self.y < 0:
            return np.reciprocal(np.power(x, -self.y))
        return np.power(x, self.y)

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        if self.y == 0:
            out = bind1(self, primals[0])
            return (out,), (Zero(out.aval.to_tangent_aval()),)
        return UnaryDifferentiable.jvp(self, primals, tangents)

    @override
    def derivative(self, x: Array, out: Array) -> Array:
        factor = const_like(x, self.y)
        if self.y == 1:
            return broadcast_scalar(factor, x.shape)
        return bind1(MUL, factor, bind1(IntegerPow(self.y - 1), x))


# === binary arithmetic ===


@final
@dataclass(frozen=True, slots=True)
class Add(Elementwise):
    """``x + y``."""

    name = "add"
    arity = 2
    accepts = NUMBER

    def compute(self, *args: NDArray) -> HostValue:
        return np.add(args[0], args[1])

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        out = bind1(self, *primals)
        tx, ty = (t if isinstance(t, Zero) else broadcast_scalar(t, out.shape) for t in tangents)
        return (out,), (add_tangents(tx, ty),)


@final
@dataclass(frozen=True, slots=True)
class Sub(Elementwise):
    """``x - y``."""

    name = "sub"
    arity = 2
    accepts = NUMBER

    def compute(self, *args: NDArray) -> HostValue:
        return np.subtract(args[0], args[1])

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        out = bind1(self, *primals)
        tx, ty = (t if isinstance(t, Zero) else broadcast_scalar(t, out.shape) for t in tangents)
        if isinstance(ty, Zero):
            return (out,), (tx,)
        if isinstance(tx, Zero):
            return (out,), (bind1(NEG, ty),)
        return (out,), (bind1(self, tx, ty),)


@final
@dataclass(frozen=True, slots=True)
class Mul(BinaryDifferentiable):
    """``x * y``."""

    name = "mul"
    accepts = NUMBER

    def compute(self, *args: NDArray) -> HostValue:
        return np.multiply(args[0], args[1])

    @override
    def partials(self, x: Array, y: Array, out: Array) -> tuple[Array | None, Array | None]:
        return y, x


def _int_div(x: NDArray, y: NDArray) -> NDArray:
    """Integer division with XLA's semantics (truncation toward zero)."""
    if dtypes.is_unsigned_integer(x.dtype):
        safe = np.where(y == 0, 1, y)
        return np.where(y == 0, np.iinfo(x.dtype).max, x // safe).astype(x.dtype)
    safe = np.where((y == 0) | (y == -1), 1, y)
    quotient = x // safe
    remainder = x - quotient * safe
    quotient = np.where((remainder != 0) & ((x < 0) != (safe < 0)), quotient + 1, quotient)
    quotient = np.where(y == -1, np.negative(x), quotient)
    return np.where(y == 0, -1, quotient).astype(x.dtype)


@final
@dataclass(frozen=True, slots=True)
class Div(BinaryDifferentiable):
    """``x / y``; integer division truncates toward zero."""

    name = "div"
    accepts = NUMBER

    def compute(self, *args: NDArray) -> HostValue:
        x, y = args
        return _int_div(x, y) if dtypes.is_integer(x.dtype) else np.divide(x, y)

    @override
    def partials(self, x: Array, y: Array, out: Array) -> tuple[Array | None, Array | None]:
        inverse = bind1(self, const_like(y, 1), y)
        return inverse, bind1(NEG, bind1(self, out, y))


@final
@dataclass(frozen=True, slots=True)
class Rem(BinaryDifferentiable):
    """Remainder with the sign of ``x`` (C's ``fmod``); ``x % 0 == x`` for integers."""

    name = "rem"
    accepts = frozenset({"int", "uint", "float"})

    def compute(self, *args: NDArray) -> HostValue:
        x, y = args
        if not dtypes.is_integer(x.dtype):
            return np.fmod(x, y)
        unsigned = dtypes.is_unsigned_integer(x.dtype)
        safe = np.where((y == 0) if unsigned else ((y == 0) | (y == -1)), 1, y)
        return np.where(y == 0, x, np.fmod(x, safe)).astype(x.dtype)

    @override
    def partials(self, x: Array, y: Array, out: Array) -> tuple[Array | None, Array | None]:
        # d/dy (x - trunc(x / y) * y) = -trunc(x / y)
        quotient = bind1(DIV, x, y)
        truncated = bind1(MUL, bind1(SIGN, quotient), bind1(FLOOR, bind1(ABS, quotient)))
        one = const_like(x, 1)
        return broadcast_scalar(one, out.shape), bind1(NEG, truncated)


def _balanced_eq(x: Array, out: Array, y: Array) -> Array:
    """1 where x alone attains ``out``, 0.5 on ties, 0 elsewhere (JAX's rule)."""
    x_wins = bind1(EQ, x, out)
    tie = bind1(EQ, y, out)
    zero, half, one = const_like(out, 0), const_like(out, 0.5), const_like(out, 1)
    share = select_n(tie, broadcast_scalar(one, out.shape), broadcast_scalar(half, out.shape))
    return select_n(x_wins, broadcast_scalar(zero, out.shape), share)


def _lexicographic_greater(x: NDArray, y: NDArray) -> NDArray:
    xr, xi, yr, yi = np.real(x), np.imag(x), np.real(y), np.imag(y)
    greater: NDArray = np.logical_or(np.greater(xr, yr), np.logical_and(np.equal(xr, yr), np.greater(xi, yi)))
    return greater


@final
@dataclass(frozen=True, slots=True)
class Max(BinaryDifferentiable):
    """Elementwise maximum (NaN-propagating; ``max(0.0, -0.0)`` is ``0.0``;
    complex numbers are ordered lexicographically, as in JAX)."""

    name = "max"
    accepts = ALL

    def compute(self, *args: NDArray) -> HostValue:
        x, y = args
        if dtypes.is_complex(x.dtype):
            return np.where(_lexicographic_greater(y, x), y, x)
        out = np.maximum(x, y)
        if dtypes.is_floating(x.dtype):
            # Of two zeros the larger is +0 unless both are -0: that is x + y.
            out = np.where((x == 0) & (y == 0), x + y, out)
        return out

    @override
    def partials(self, x: Array, y: Array, out: Array) -> tuple[Array | None, Array | None]:
        return _balanced_eq(x, out, y), _balanced_eq(y, out, x)


@final
@dataclass(frozen=True, slots=True)
class Min(BinaryDifferentiable):
    """Elementwise minimum (NaN-propagating; ``min(0.0, -0.0)`` is ``-0.0``;
    complex numbers are ordered lexicographically, as in JAX)."""

    name = "min"
    accepts = ALL

    def compute(self, *args: NDArray) -> HostValue:
        x, y = args
        if dtypes.is_complex(x.dtype):
            return np.where(_lexicographic_greater(x, y), y, x)
        out = np.minimum(x, y)
        if dtypes.is_floating(x.dtype):
            # Of two zeros the smaller is -0 if either is: that is -(-x + -y).
            out = np.where((x == 0) & (y == 0), -((-x) + (-y)), out)
        return out

    @override
    def partials(self, x: Array, y: Array, out: Array) -> tuple[Array | None, Array | None]:
        return _balanced_eq(x, out, y), _balanced_eq(y, out, x)


# === comparisons and bitwise operations ===


class _Comparison(NonDifferentiable):
    __slots__ = ()
    arity = 2

    @override
    def result_dtype(self, dtype: np.dtype[Any]) -> np.dtype[Any]:
        return np.dtype(np.bool_)


_ORDERED: frozenset[Kind] = frozenset({"bool", "int", "uint", "float"})


@final
@dataclass(frozen=True, slots=True)
class Eq(_Comparison):
    """``x == y``."""

    name = "eq"
    accepts = ALL

    def compute(self, *args: NDArray) -> HostValue:
        return np.equal(args[0], args[1])


@final
@dataclass(frozen=True, slots=True)
class Ne(_Comparison):
    """``x != y``."""

    name = "ne"
    accepts = ALL

    def compute(self, *args: NDArray) -> HostValue:
        return np.not_equal(args[0], args[1])


@final
@dataclass(frozen=True, slots=True)
class Lt(_Comparison):
    """``x < y``."""

    name = "lt"
    accepts = _ORDERED

    def compute(self, *args: NDArray) -> HostValue:
        return np.less(args[0], args[1])


@final
@dataclass(frozen=True, slots=True)
class Le(_Comparison):
    """``x <= y``."""

    name = "le"
    accepts = _ORDERED

    def compute(self, *args: NDArray) -> HostValue:
        return np.less_equal(args[0], args[1])


@final
@dataclass(frozen=True, slots=True)
class Gt(_Comparison):
    """``x > y``."""

    name = "gt"
    accepts = _ORDERED

    def compute(self, *args: NDArray) -> HostValue:
        return np.greater(args[0], args[1])


@final
@dataclass(frozen=True, slots=True)
class Ge(_Comparison):
    """``x >= y``."""

    name = "ge"
    accepts = _ORDERED

    def compute(self, *args: NDArray) -> HostValue:
        return np.greater_equal(args[0], args[1])


@final
@dataclass(frozen=True, slots=True)
class And(NonDifferentiable):
    """Logical and (booleans) or bitwise and (integers)."""

    name = "and"
    arity = 2
    accepts = INTEGRAL

    def compute(self, *args: NDArray) -> HostValue:
        return np.bitwise_and(args[0], args[1])


@final
@dataclass(frozen=True, slots=True)
class Or(NonDifferentiable):
    """Logical or (booleans) or bitwise or (integers)."""

    name = "or"
    arity = 2
    accepts = INTEGRAL

    def compute(self, *args: NDArray) -> HostValue:
        return np.bitwise_or(args[0], args[1])


@final
@dataclass(frozen=True, slots=True)
class Xor(NonDifferentiable):
    """Logical or bitwise exclusive or."""

    name = "xor"
    arity = 2
    accepts = INTEGRAL

    def compute(self, *args: NDArray) -> HostValue:
        return np.bitwise_xor(args[0], args[1])


def _shift_amount(x: NDArray, y: NDArray) -> tuple[NDArray, NDArray, int]:
    # XLA reads the shift as unsigned: negative or >= bits shifts everything out.
    bits = x.dtype.itemsize * 8
    unsigned = y.astype(np.dtype(f"u{y.dtype.itemsize}"))
    too_far = unsigned >= bits
    return too_far, np.where(too_far, 0, unsigned).astype(x.dtype), bits


class _Shift(NonDifferentiable):
    __slots__ = ()
    arity = 2
    accepts: ClassVar[frozenset[Kind]] = frozenset({"int", "uint"})


@final
@dataclass(frozen=True, slots=True)
class ShiftLeft(_Shift):
    """``x << y``; shifting by the bit width or more gives 0."""

    name = "shift_left"

    def compute(self, *args: NDArray) -> HostValue:
        too_far, amount, _ = _shift_amount(*args)
        return np.where(too_far, 0, np.left_shift(args[0], amount)).astype(args[0].dtype)


@final
@dataclass(frozen=True, slots=True)
class ShiftRightArithmetic(_Shift):
    """``x >> y`` filling with the sign bit."""

    name = "shift_right_arithmetic"

    def compute(self, *args: NDArray) -> HostValue:
        # XLA shifts the bit pattern arithmetically whatever the signedness.
        x = args[0]
        signed = x.view(np.dtype(f"i{x.dtype.itemsize}"))
        too_far, amount, _ = _shift_amount(*args)
        shifted = np.where(too_far, np.where(signed < 0, -1, 0), np.right_shift(signed, amount.astype(signed.dtype)))
        return shifted.astype(signed.dtype).view(x.dtype)


@final
@dataclass(frozen=True, slots=True)
class ShiftRightLogical(_Shift):
    """``x >> y`` filling with zeros."""

    name = "shift_right_logical"

    def compute(self, *args: NDArray) -> HostValue:
        x = args[0]
        too_far, amount, _ = _shift_amount(*args)
        unsigned = np.dtype(f"u{x.dtype.itemsize}")
        shifted = np.right_shift(x.view(unsigned), amount.astype(unsigned)).view(x.dtype)
        return np.where(too_far, 0, shifted).astype(x.dtype)


# Shared instances of parameterless primitives (they are immutable).
NEG, SIGN, ABS, FLOOR, CEIL = Neg(), Sign(), Abs(), Floor(), Ceil()
IS_FINITE, NOT, STOP_GRADIENT = IsFinite(), Not(), StopGradient()
ADD, SUB, MUL, DIV, REM, MAX, MIN = Add(), Sub(), Mul(), Div(), Rem(), Max(), Min()
EQ, NE, LT, LE, GT, GE = Eq(), Ne(), Lt(), Le(), Gt(), Ge()
AND, OR, XOR = And(), Or(), Xor()
SHL, SRA, SRL = ShiftLeft(), ShiftRightArithmetic(), ShiftRightLogical()


# === user-facing wrappers (JAX's lax names and signatures) ===


def neg(x: ArrayLike) -> Array:
    """``-x``."""
    return _unary_wrapper(NEG, x)


def sign(x: ArrayLike) -> Array:
    """The sign of ``x``: -1, 0 or 1."""
    return _unary_wrapper(SIGN, x)


def abs(x: ArrayLike) -> Array:  # noqa: A001 - JAX's name
    """``|x|``."""
    return _unary_wrapper(ABS, x)


def floor(x: ArrayLike) -> Array:
    """Round toward -inf."""
    return _unary_wrapper(FLOOR, x)


def ceil(x: ArrayLike) -> Array:
    """Round toward +inf."""
    return _unary_wrapper(CEIL, x)


def round(  # noqa: A001 - JAX's name
    x: ArrayLike, rounding_method: RoundingMethod | int = RoundingMethod.AWAY_FROM_ZERO
) -> Array:
    """Round to the nearest integer; ties away from zero by default."""
    return _unary_wrapper(Round(RoundingMethod(int(rounding_method))), x)


def is_finite(x: ArrayLike) -> Array:
    """Whether each element is finite."""
    return _unary_wrapper(IS_FINITE, x)


def bitwise_not(x: ArrayLike) -> Array:
    """Logical/bitwise not."""
    return _unary_wrapper(NOT, x)


T = TypeVar("T")


def stop_gradient(x: T) -> T:
    """The identity with a zero derivative, applied to every array leaf of
    the pytree ``x``."""

    def stop(leaf: object) -> object:
        if isinstance(leaf, Array) or is_python_scalar(leaf) or is_numpy_value(leaf):
            return bind1(STOP_GRADIENT, operand(leaf, "lax.stop_gradient operand"))
        return leaf

    result: T = tree_map(stop, x)
    return result


def integer_pow(x: ArrayLike, y: int) -> Array:
    """``x ** y`` for a static integer ``y``."""
    if not is_int(y):
        raise JaxtypedTypeError(f"lax.integer_pow: y must be a Python int, got {type(y).__name__}")
    return _unary_wrapper(IntegerPow(int(y)), x)


def add(x: ArrayLike, y: ArrayLike) -> Array:
    """``x + y``."""
    return _binary_wrapper(ADD, "add", x, y)


def sub(x: ArrayLike, y: ArrayLike) -> Array:
    """``x - y``."""
    return _binary_wrapper(SUB, "sub", x, y)


def mul(x: ArrayLike, y: ArrayLike) -> Array:
    """``x * y``."""
    return _binary_wrapper(MUL, "mul", x, y)


def div(x: ArrayLike, y: ArrayLike) -> Array:
    """``x / y``; integers round toward zero."""
    return _binary_wrapper(DIV, "div", x, y)


def rem(x: ArrayLike, y: ArrayLike) -> Array:
    """Remainder with the sign of ``x``."""
    return _binary_wrapper(REM, "rem", x, y)


def max(x: ArrayLike, y: ArrayLike) -> Array:  # noqa: A001 - JAX's name
    """Elementwise maximum."""
    return _binary_wrapper(MAX, "max", x, y)


def min(x: ArrayLike, y: ArrayLike) -> Array:  # noqa: A001 - JAX's name
    """Elementwise minimum."""
    return _binary_wrapper(MIN, "min", x, y)


def eq(x: ArrayLike, y: ArrayLike) -> Array:
    """``x == y``."""
    return _binary_wrapper(EQ, "eq", x, y)


def ne(x: ArrayLike, y: ArrayLike) -> Array:
    """``x != y``."""
    return _binary_wrapper(NE, "ne", x, y)


def lt(x: ArrayLike, y: ArrayLike) -> Array:
    """``x < y``."""
    return _binary_wrapper(LT, "lt", x, y)


def le(x: ArrayLike, y: ArrayLike) -> Array:
    """``x <= y``."""
    return _binary_wrapper(LE, "le", x, y)


def gt(x: ArrayLike, y: ArrayLike) -> Array:
    """``x > y``."""
    return _binary_wrapper(GT, "gt", x, y)


def ge(x: ArrayLike, y: ArrayLike) -> Array:
    """``x >= y``."""
    return _binary_wrapper(GE, "ge", x, y)


def bitwise_and(x: ArrayLike, y: ArrayLike) -> Array:
    """Logical/bitwise and."""
    return _binary_wrapper(AND, "bitwise_and", x, y)


def bitwise_or(x: ArrayLike, y: ArrayLike) -> Array:
    """Logical/bitwise or."""
    return _binary_wrapper(OR, "bitwise_or", x, y)


def bitwise_xor(x: ArrayLike, y: ArrayLike) -> Array:
    """Logical/bitwise exclusive or."""
    return _binary_wrapper(XOR, "bitwise_xor", x, y)


def shift_left(x: ArrayLike, y: ArrayLike) -> Array:
    """``x << y``."""
    return _binary_wrapper(SHL, "shift_left", x, y)


def shift_right_arithmetic(x: ArrayLike, y: ArrayLike) -> Array:
    """``x >> y``, sign-filling."""
    return _binary_wrapper(SRA, "shift_right_arithmetic", x, y)


def shift_right_logical(x: ArrayLike, y: ArrayLike) -> Array:
    """``x >> y``, zero-filling."""
    return _binary_wrapper(SRL, "shift_right_logical", x, y)

