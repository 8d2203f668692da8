"""Arithmetic and rounding primitives (layer L4); comparisons and bitwise
operations are in ``comparison.py``.

Integer division and remainder follow XLA (truncation toward zero;
``x / 0 == -1``, ``x % 0 == x``, ``INT_MIN / -1 == INT_MIN``) so that eager
results equal compiled ones; so do complex ``abs``, ``sign`` and division at
infinite and NaN parts, and ``integer_pow``'s order of multiplications.
Derivatives follow JAX's conventions where they are a choice
(``abs'(0) == 1``; ``max`` splits ties evenly).
"""

import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar, final

import numpy as np
from typing_extensions import override

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.array_impl import is_numpy_value, is_python_scalar
from jaxtyped._src.core.avals import ShapedArray, UndefinedPrimal, Zero
from jaxtyped._src.core.hlo import HloValue, LoweringContext
from jaxtyped._src.core.interpreter import bind1
from jaxtyped._src.core.primitive import HostValue, LinearArg, NDArray, Tangent
from jaxtyped._src.errors import JaxtypedTypeError
from jaxtyped._src.lax.elementwise_base import (
    ALL,
    FLOAT,
    NUMBER,
    Elementwise,
    NonDifferentiable,
    bind_binary,
    bind_unary,
    broadcast_operands,
    convert_to,
)
from jaxtyped._src.lax.comparison import EQ, GE
from jaxtyped._src.lax.structural import broadcast_scalar, select_n
from jaxtyped._src.lax.util import as_operand, scalar_like
from jaxtyped._src.tree_util import tree_map
from jaxtyped._src.util import is_int

__all__ = [
    "RoundingMethod", "Neg", "Sign", "Abs", "Floor", "Ceil", "Round", "IsFinite", 
    "StopGradient", "IntegerPow", "Add", "Sub", "Mul", "Div", "Rem", "Max", "Min",
    
    
    "neg", "sign", "abs", "floor", "ceil", "round", "is_finite", 
    "stop_gradient", "integer_pow", "add", "sub", "mul", "div", "rem", "max", "min",
    
    "add_tangents",
    "const_like",
    "unbroadcast",
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


def unbroadcast(ct: Array, aval: ShapedArray) -> Array:
    """The cotangent of an elementwise operand of type ``aval`` from the
    output's cotangent ``ct``: summed to a scalar when a 0-d operand was
    broadcast against arrays."""
    if ct.shape == aval.shape:
        return ct
    # Imported here: reductions imports this module for its derivative rules.
    from jaxtyped._src.lax.reductions import reduce_sum

    return reduce_sum(ct, tuple(range(ct.ndim)))


class UnaryDifferentiable(Elementwise):
    """Unary elementwise primitive differentiated as ``t * f'(x)``, or
    through its own :meth:`tangent` where JAX's rule has another form."""

    __slots__ = ()
    arity = 1

    def derivative(self, x: Array, out: Array) -> Array:
        """``f'(x)``, possibly expressed through the output ``out``."""
        raise NotImplementedError

    def tangent(self, t: Array, x: Array, out: Array) -> Array:
        """The output's tangent for the input's tangent ``t`` (linear in
        ``t``): ``t * f'(x)``. A primitive overrides it where JAX's rule
        groups the operations otherwise (``t / x`` for ``log``), so that
        derivatives round as JAX's do, bit for bit under ``jit``."""
        return bind1(MUL, t, self.derivative(x, out))

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        (x,), (t,) = primals, tangents
        assert not isinstance(t, Zero)
        out = bind1(self, x)
        return (out,), (self.tangent(t, x, out),)


class BinaryDifferentiable(Elementwise):
    """Binary elementwise primitive differentiated through its partial
    derivatives, ``t_x * df/dx + t_y * df/dy``, or through its own
    :meth:`tangent_terms` where JAX's rule has another form."""

    __slots__ = ()
    arity = 2

    def partials(self, x: Array, y: Array, out: Array) -> tuple[Array | None, Array | None]:
        """``(df/dx, df/dy)``; ``None`` for an identically zero partial."""
        raise NotImplementedError

    def tangent_terms(
        self, x: Array, y: Array, out: Array, tx: Tangent, ty: Tangent
    ) -> tuple[Array | None, Array | None]:
        """Each operand's share of the output's tangent (``None`` for none):
        ``t_x * df/dx`` and ``t_y * df/dy``. A primitive overrides it where
        JAX's rule groups the operations otherwise (``t_x / y`` for ``div``),
        so that derivatives round as JAX's do, bit for bit under ``jit``."""
        dx, dy = self.partials(x, y, out)
        return (
            None if isinstance(tx, Zero) or dx is None else bind1(MUL, tx, dx),
            None if isinstance(ty, Zero) or dy is None else bind1(MUL, ty, dy),
        )

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        (x, y), (tx, ty) = primals, tangents
        out = bind1(self, x, y)
        total: Tangent = Zero(out.aval.to_tangent_aval())
        for term in self.tangent_terms(x, y, out, tx, ty):
            if term is not None:
                total = add_tangents(total, broadcast_scalar(term, out.shape))
        return (out,), (total,)


def _real_dtype(dtype: np.dtype[Any]) -> np.dtype[Any]:
    """The dtype of a complex dtype's real and imaginary parts."""
    return np.dtype(np.real(np.zeros((), dtype)).dtype)


def _complex_abs(x: NDArray) -> NDArray:
    """``|x|`` as XLA computes it: NaN when either part is NaN (NumPy's
    ``hypot`` gives inf for ``inf + nan*1j``)."""
    modulus: NDArray = np.abs(x)
    modulus[np.isnan(x)] = np.nan
    return modulus


# === unary arithmetic ===


@final
@dataclass(frozen=True, slots=True)
class Neg(Elementwise):
    """``-x``."""

    name = "neg"
    float_ufunc = np.negative
    hlo_op = "stablehlo.negate"
    arity = 1
    accepts = NUMBER

    def compute(self, *args: NDArray) -> HostValue:
        return np.negative(args[0])

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        (x,), (t,) = primals, tangents
        assert not isinstance(t, Zero)  # interpreters call rules with a nonzero tangent
        return (bind1(self, x),), (bind1(self, t),)

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        (ct,) = cts
        assert not isinstance(ct, Zero)
        return (bind1(self, ct),)


@final
@dataclass(frozen=True, slots=True)
class Sign(NonDifferentiable):
    """-1, 0 or 1 (``x / |x|`` for complex)."""

    name = "sign"
    arity = 1
    accepts = NUMBER

    def compute(self, *args: NDArray) -> HostValue:
        x = args[0]
        if dtypes.is_complex(x.dtype):
            # XLA divides each part by |x| (NaN parts poison it; sign(inf +
            # 1j) is nan + 0j) and returns zeros unchanged; NumPy differs.
            modulus = _complex_abs(x)
            out = np.empty_like(x)
            out.real, out.imag = np.real(x) / modulus, np.imag(x) / modulus
            return np.where(modulus == 0, x, out)
        if dtypes.is_floating(x.dtype):
            return np.where(x == 0, x, np.sign(x))  # keeps the sign of zero, as XLA
        return np.sign(x)

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        (x,) = args
        if dtypes.is_unsigned_integer(x.aval.dtype):
            # stablehlo.sign is only defined for signed and inexact types.
            zero = ctx.full_like(0, x)
            return (ctx.select(ctx.compare(x, zero, "EQ"), zero, ctx.full_like(1, x)),)
        return (ctx.op1("stablehlo.sign", (x,), out_avals[0]),)


@final
@dataclass(frozen=True, slots=True)
class Abs(UnaryDifferentiable):
    """``|x|`` (real-valued for complex inputs)."""

    name = "abs"
    float_ufunc = np.absolute
    hlo_op = "stablehlo.abs"  # complex operands give their real-typed modulus
    accepts = frozenset({"int", "float", "complex"})

    @override
    def result_dtype(self, dtype: np.dtype[Any]) -> np.dtype[Any]:
        return _real_dtype(dtype) if dtypes.is_complex(dtype) else dtype

    def compute(self, *args: NDArray) -> HostValue:
        x = args[0]
        return _complex_abs(x) if dtypes.is_complex(x.dtype) else np.abs(x)

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        (x,), (t,) = primals, tangents
        if not dtypes.is_complex(x.dtype):
            return UnaryDifferentiable.jvp(self, primals, tangents)
        assert not isinstance(t, Zero)
        # Imported here: complex_ops builds on this module.
        from jaxtyped._src.lax.complex_ops import CONJ, REAL

        # d|z| = Re(conj(z) / |z| * dz), taken as 0 at z == 0 (JAX's rule).
        out = bind1(self, x)
        modulus = convert_to(out, x.dtype, weak_type=x.weak_type)
        at_zero = bind1(EQ, modulus, const_like(modulus, 0))
        safe = select_n(at_zero, modulus, broadcast_scalar(const_like(modulus, 1), x.shape))
        direction = bind1(DIV, bind1(CONJ, x), safe)
        return (out,), (bind1(REAL, bind1(MUL, t, direction)),)

    @override
    def derivative(self, x: Array, out: Array) -> Array:
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
    hlo_op = "stablehlo.floor"
    arity = 1
    accepts = FLOAT

    def compute(self, *args: NDArray) -> HostValue:
        return np.floor(args[0])


@final
@dataclass(frozen=True, slots=True)
class Ceil(NonDifferentiable):
    """Round toward +inf."""

    name = "ceil"
    hlo_op = "stablehlo.ceil"
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

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        if self.rounding_method == RoundingMethod.TO_NEAREST_EVEN:
            return (ctx.op1("stablehlo.round_nearest_even", args, out_avals[0]),)
        return (ctx.op1("stablehlo.round_nearest_afz", args, out_avals[0]),)


@final
@dataclass(frozen=True, slots=True)
class IsFinite(NonDifferentiable):
    """Whether each element is neither infinite nor NaN."""

    name = "is_finite"
    hlo_op = "stablehlo.is_finite"
    arity = 1
    accepts = FLOAT

    @override
    def result_dtype(self, dtype: np.dtype[Any]) -> np.dtype[Any]:
        return np.dtype(np.bool_)

    def compute(self, *args: NDArray) -> HostValue:
        return np.isfinite(args[0])


@final
@dataclass(frozen=True, slots=True)
class StopGradient(NonDifferentiable):
    """The identity, with a zero derivative."""

    name = "stop_gradient"
    arity = 1
    accepts = ALL

    def compute(self, *args: NDArray) -> HostValue:
        return args[0]

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        return args


V = TypeVar("V")


def _power_by_squaring(x: V, n: int, multiply: Callable[[V, V], V]) -> V:
    """``x ** n`` for ``n >= 1`` by repeated squaring. The eager and the
    compiled rule share it so that both multiply in the same order and
    therefore round alike (as JAX, whose integer_pow is this too)."""
    result: V | None = None
    while True:
        if n & 1:
            result = x if result is None else multiply(result, x)
        n >>= 1
        if not n:
            assert result is not None
            return result
        x = multiply(x, x)


def _np_multiply(x: NDArray, y: NDArray) -> NDArray:
    out: NDArray = np.multiply(x, y)
    return out


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
        if self.y == 0:
            return np.ones_like(x)
        out = _power_by_squaring(x, -self.y if self.y < 0 else self.y, _np_multiply)
        if self.y < 0:
            one = np.ones_like(out)
            return _complex_div(one, out) if dtypes.is_complex(out.dtype) else np.divide(one, out)
        return out

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        # No StableHLO op raises to an integer power (stablehlo.power would
        # go through exp and log for floats).
        (x,) = args
        if self.y == 0:
            return (ctx.full_like(1, x),)

        def multiply(a: HloValue, b: HloValue) -> HloValue:
            return ctx.op1("stablehlo.multiply", (a, b), x.aval)

        out = _power_by_squaring(x, -self.y if self.y < 0 else self.y, multiply)
        if self.y < 0:
            out = ctx.op1("stablehlo.divide", (ctx.full_like(1, x), out), x.aval)
        return (out,)

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
    float_ufunc = np.add
    hlo_op = "stablehlo.add"
    arity = 2
    accepts = NUMBER

    def compute(self, *args: NDArray) -> HostValue:
        return np.add(args[0], args[1])

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        out = bind1(self, *primals)
        tx, ty = (t if isinstance(t, Zero) else broadcast_scalar(t, out.shape) for t in tangents)
        return (out,), (add_tangents(tx, ty),)

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        (ct,) = cts
        assert not isinstance(ct, Zero)
        return tuple(unbroadcast(ct, a.aval) if isinstance(a, UndefinedPrimal) else None for a in args)


@final
@dataclass(frozen=True, slots=True)
class Sub(Elementwise):
    """``x - y``."""

    name = "sub"
    float_ufunc = np.subtract
    hlo_op = "stablehlo.subtract"
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

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        (ct,) = cts
        assert not isinstance(ct, Zero)
        x, y = args
        ct_x = unbroadcast(ct, x.aval) if isinstance(x, UndefinedPrimal) else None
        ct_y = unbroadcast(bind1(NEG, ct), y.aval) if isinstance(y, UndefinedPrimal) else None
        return ct_x, ct_y


@final
@dataclass(frozen=True, slots=True)
class Mul(BinaryDifferentiable):
    """``x * y``."""

    name = "mul"
    float_ufunc = np.multiply
    hlo_op = "stablehlo.multiply"
    accepts = NUMBER

    def compute(self, *args: NDArray) -> HostValue:
        return np.multiply(args[0], args[1])

    @override
    def partials(self, x: Array, y: Array, out: Array) -> tuple[Array | None, Array | None]:
        return y, x

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        (ct,) = cts
        assert not isinstance(ct, Zero)
        x, y = args
        if isinstance(x, UndefinedPrimal) and isinstance(y, UndefinedPrimal):
            raise JaxtypedTypeError("transpose of mul: the product of two linear values is not linear")
        if isinstance(x, UndefinedPrimal):
            assert not isinstance(y, UndefinedPrimal)
            return unbroadcast(bind1(self, ct, y), x.aval), None
        assert isinstance(y, UndefinedPrimal)
        return None, unbroadcast(bind1(self, x, ct), y.aval)


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


def _complex_div(x: NDArray, y: NDArray) -> NDArray:
    """Complex division as XLA does it: Smith's algorithm, then where both
    parts came out NaN, the recovery of C99's Annex G (``z / 0`` is
    infinite, ``inf / finite`` infinite, ``finite / inf`` zero). NumPy
    gives NaN in those cases; finite results agree with XLA's to an ulp."""
    a, b, c, d = np.real(x), np.imag(x), np.real(y), np.imag(y)
    c_larger = np.abs(c) >= np.abs(d)
    ratio = np.where(c_larger, d / c, c / d)
    den = np.where(c_larger, c + d * ratio, c * ratio + d)
    re = np.where(c_larger, (a + b * ratio) / den, (a * ratio + b) / den)
    im = np.where(c_larger, (b - a * ratio) / den, (b * ratio - a) / den)
    lost = np.isnan(re) & np.isnan(im)
    inf = np.array(np.inf, re.dtype)
    # Which recovery applies (the first that matches wins).
    zero_den = lost & (c == 0) & (d == 0) & ~(np.isnan(a) & np.isnan(b))
    inf_num = lost & (np.isinf(a) | np.isinf(b)) & np.isfinite(c) & np.isfinite(d)
    inf_den = lost & (np.isinf(c) | np.isinf(d)) & np.isfinite(a) & np.isfinite(b)
    # Infinite parts become +-1, finite ones +-0, keeping their signs.
    a1, b1 = np.copysign(np.isinf(a), a), np.copysign(np.isinf(b), b)
    c1, d1 = np.copysign(np.isinf(c), c), np.copysign(np.isinf(d), d)
    re = np.select(
        [zero_den, inf_num, inf_den], [np.copysign(inf, c) * a, inf * (a1 * c + b1 * d), 0 * (a * c1 + b * d1)], re
    )
    im = np.select(
        [zero_den, inf_num, inf_den], [np.copysign(inf, c) * b, inf * (b1 * c - a1 * d), 0 * (b * c1 - a * d1)], im
    )
    out = np.empty(re.shape, x.dtype)
    out.real, out.imag = re, im  # not re + 1j * im, which turns inf * 1j into NaN
    return out


@final
@dataclass(frozen=True, slots=True)
class Div(BinaryDifferentiable):
    """``x / y``; integer division truncates toward zero."""

    name = "div"
    float_ufunc = np.divide
    hlo_op = "stablehlo.divide"  # XLA's integer division is what ``_int_div`` mimics
    accepts = NUMBER

    def compute(self, *args: NDArray) -> HostValue:
        x, y = args
        if dtypes.is_integer(x.dtype):
            return _int_div(x, y)
        return _complex_div(x, y) if dtypes.is_complex(x.dtype) else np.divide(x, y)

    @override
    def tangent_terms(
        self, x: Array, y: Array, out: Array, tx: Tangent, ty: Tangent
    ) -> tuple[Array | None, Array | None]:
        # JAX's rule: t_x / y and (-t_y * x) * y**-2, not t_x * (1 / y).
        return (
            None if isinstance(tx, Zero) else bind1(self, tx, y),
            None if isinstance(ty, Zero) else bind1(MUL, bind1(MUL, bind1(NEG, ty), x), bind1(IntegerPow(-2), y)),
        )

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        (ct,) = cts
        assert not isinstance(ct, Zero)
        x, y = args
        if isinstance(y, UndefinedPrimal):
            raise JaxtypedTypeError("transpose of div: the result is not linear in the divisor")
        assert isinstance(x, UndefinedPrimal)
        return unbroadcast(bind1(self, ct, y), x.aval), None


@final
@dataclass(frozen=True, slots=True)
class Rem(BinaryDifferentiable):
    """Remainder with the sign of ``x`` (C's ``fmod``); ``x % 0 == x`` for integers."""

    name = "rem"
    hlo_op = "stablehlo.remainder"
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


def _lower_minmax(
    ctx: LoweringContext, op: str, args: tuple[HloValue, ...], out: ShapedArray, x_wins: str
) -> tuple[HloValue, ...]:
    """``stablehlo.maximum``/``minimum``, which have no complex form: for
    complex operands ``x`` wins where it is lexicographically ``x_wins``
    (``GT``/``LT``) of ``y``, else ``y`` (so ``y`` wins ties and NaNs)."""
    x, y = broadcast_operands(ctx, args, out.shape)
    if not dtypes.is_complex(out.dtype):
        return (ctx.op1(op, (x, y), out),)
    part = ShapedArray(out.shape, _real_dtype(out.dtype))
    xr, yr = (ctx.op1("stablehlo.real", (v,), part) for v in (x, y))
    xi, yi = (ctx.op1("stablehlo.imag", (v,), part) for v in (x, y))
    wins = ctx.select(ctx.compare(xr, yr, "EQ"), ctx.compare(xi, yi, x_wins), ctx.compare(xr, yr, x_wins))
    return (ctx.select(wins, x, y),)


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
            # y wins ties and NaN comparisons, as in JAX's lowering.
            return np.where(_lexicographic_greater(x, y), x, y)
        out = np.maximum(x, y)
        if dtypes.is_floating(x.dtype):
            # Of two zeros the larger is +0 unless both are -0: that is x + y.
            out = np.where((x == 0) & (y == 0), x + y, out)
        return out

    @override
    def partials(self, x: Array, y: Array, out: Array) -> tuple[Array | None, Array | None]:
        return _balanced_eq(x, out, y), _balanced_eq(y, out, x)

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        return _lower_minmax(ctx, "stablehlo.maximum", args, out_avals[0], "GT")


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
            return np.where(_lexicographic_greater(y, x), x, y)
        out = np.minimum(x, y)
        if dtypes.is_floating(x.dtype):
            # Of two zeros the smaller is -0 if either is: that is -(-x + -y).
            out = np.where((x == 0) & (y == 0), -((-x) + (-y)), out)
        return out

    @override
    def partials(self, x: Array, y: Array, out: Array) -> tuple[Array | None, Array | None]:
        return _balanced_eq(x, out, y), _balanced_eq(y, out, x)

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        return _lower_minmax(ctx, "stablehlo.minimum", args, out_avals[0], "LT")


# Shared instances of parameterless primitives (they are immutable).
NEG, SIGN, ABS, FLOOR, CEIL = Neg(), Sign(), Abs(), Floor(), Ceil()
IS_FINITE, STOP_GRADIENT = IsFinite(), StopGradient()
ADD, SUB, MUL, DIV, REM, MAX, MIN = Add(), Sub(), Mul(), Div(), Rem(), Max(), Min()


# === user-facing wrappers (JAX's lax names and signatures) ===


def neg(x: ArrayLike) -> Array:
    """``-x``."""
    return bind_unary(NEG, x)


def sign(x: ArrayLike) -> Array:
    """The sign of ``x``: -1, 0 or 1."""
    return bind_unary(SIGN, x)


def abs(x: ArrayLike) -> Array:  # noqa: A001 - JAX's name
    """``|x|``."""
    return bind_unary(ABS, x)


def floor(x: ArrayLike) -> Array:
    """Round toward -inf."""
    return bind_unary(FLOOR, x)


def ceil(x: ArrayLike) -> Array:
    """Round toward +inf."""
    return bind_unary(CEIL, x)


def round(  # noqa: A001 - JAX's name
    x: ArrayLike, rounding_method: RoundingMethod | int = RoundingMethod.AWAY_FROM_ZERO
) -> Array:
    """Round to the nearest integer; ties away from zero by default."""
    return bind_unary(Round(RoundingMethod(int(rounding_method))), x)


def is_finite(x: ArrayLike) -> Array:
    """Whether each element is finite."""
    return bind_unary(IS_FINITE, x)



T = TypeVar("T")


def stop_gradient(x: T) -> T:
    """The identity with a zero derivative, applied to every array leaf of
    the pytree ``x``."""

    def stop(leaf: object) -> object:
        if isinstance(leaf, Array) or is_python_scalar(leaf) or is_numpy_value(leaf):
            return bind1(STOP_GRADIENT, as_operand(leaf, "lax.stop_gradient operand"))
        return leaf

    result: T = tree_map(stop, x)
    return result


def integer_pow(x: ArrayLike, y: int) -> Array:
    """``x ** y`` for a static integer ``y``."""
    if not is_int(y):
        raise JaxtypedTypeError(f"lax.integer_pow: y must be a Python int, got {type(y).__name__}")
    return bind_unary(IntegerPow(int(y)), x)


def add(x: ArrayLike, y: ArrayLike) -> Array:
    """``x + y``."""
    return bind_binary(ADD, "add", x, y)


def sub(x: ArrayLike, y: ArrayLike) -> Array:
    """``x - y``."""
    return bind_binary(SUB, "sub", x, y)


def mul(x: ArrayLike, y: ArrayLike) -> Array:
    """``x * y``."""
    return bind_binary(MUL, "mul", x, y)


def div(x: ArrayLike, y: ArrayLike) -> Array:
    """``x / y``; integers round toward zero."""
    return bind_binary(DIV, "div", x, y)


def rem(x: ArrayLike, y: ArrayLike) -> Array:
    """Remainder with the sign of ``x``."""
    return bind_binary(REM, "rem", x, y)


def max(x: ArrayLike, y: ArrayLike) -> Array:  # noqa: A001 - JAX's name
    """Elementwise maximum."""
    return bind_binary(MAX, "max", x, y)


def min(x: ArrayLike, y: ArrayLike) -> Array:  # noqa: A001 - JAX's name
    """Elementwise minimum."""
    return bind_binary(MIN, "min", x, y)












