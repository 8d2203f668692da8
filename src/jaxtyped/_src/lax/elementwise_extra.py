"""Smaller elementwise primitives (layer L4): ``cbrt``, ``exp2``, ``square``,
``clamp``, ``nextafter``, ``population_count``, ``clz`` and
``reduce_precision``, plus the ``reciprocal`` wrapper, with JAX's names,
dtype rules and derivatives."""

import math
from dataclasses import dataclass
from typing import Any, final

import numpy as np
from typing_extensions import override

from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.avals import ShapedArray, Zero
from jaxtyped._src.core.hlo import HloValue, LoweringContext
from jaxtyped._src.core.interpreter import bind1
from jaxtyped._src.core.primitive import HostValue, LinearArg, NDArray, Tangent
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError, ShapeMismatchError
from jaxtyped._src.lax import arithmetic as la
from jaxtyped._src.lax import comparison as lcmp
from jaxtyped._src.lax.arithmetic import UnaryDifferentiable, add_tangents, const_like
from jaxtyped._src.lax.elementwise_base import (
    FLOAT,
    INEXACT,
    NUMBER,
    Elementwise,
    NonDifferentiable,
    bind_binary,
    bind_unary,
    broadcast_operands,
)
from jaxtyped._src.lax.structural import broadcast_scalar, select_n
from jaxtyped._src.lax.util import check_arity, as_operand, operands_same_kind
from jaxtyped._src.util import is_int

__all__ = [
    "Cbrt", "Exp2", "Square", "Clamp", "NextAfter", "PopulationCount", "Clz", "ReducePrecision",
    "cbrt", "exp2", "square", "reciprocal", "clamp", "nextafter", "population_count", "clz",
    "reduce_precision",
]  # fmt: skip


@final
@dataclass(frozen=True, slots=True)
class Cbrt(UnaryDifferentiable):
    """The real cube root."""

    name = "cbrt"
    hlo_op = "stablehlo.cbrt"
    accepts = FLOAT

    def compute(self, *args: NDArray) -> HostValue:
        return np.cbrt(args[0])

    @override
    def derivative(self, x: Array, out: Array) -> Array:
        return bind1(la.MUL, const_like(x, 1 / 3), bind1(la.IntegerPow(-2), out))


@final
@dataclass(frozen=True, slots=True)
class Exp2(UnaryDifferentiable):
    """``2 ** x``."""

    name = "exp2"
    accepts = INEXACT

    def compute(self, *args: NDArray) -> HostValue:
        return np.exp2(args[0])

    @override
    def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
        # exp(log(2) x) with the product rounded to the operand's dtype, as
        # the lowering computes it (np.exp2 would differ by an ulp).
        x = np.asarray(args[0])
        with np.errstate(all="ignore"):
            scaled = np.multiply(x, np.array(math.log(2), x.dtype))
            wide = scaled.astype(np.float32) if x.dtype.itemsize == 2 else scaled
            return (np.asarray(np.exp(wide)).astype(x.dtype),)

    @override
    def tangent(self, t: Array, x: Array, out: Array) -> Array:
        return bind1(la.MUL, const_like(x, math.log(2)), bind1(la.MUL, t, out))

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        # exp(log(2) x), as JAX lowers it (StableHLO has no exp2).
        (x,), (out,) = args, out_avals
        scaled = ctx.op1("stablehlo.multiply", (ctx.full_like(math.log(2), x), x), out)
        return (ctx.op1("stablehlo.exponential", (scaled,), out),)


@final
@dataclass(frozen=True, slots=True)
class Square(UnaryDifferentiable):
    """``x * x``."""

    name = "square"
    accepts = NUMBER

    def compute(self, *args: NDArray) -> HostValue:
        return np.multiply(args[0], args[0])

    @override
    def derivative(self, x: Array, out: Array) -> Array:
        return bind1(la.MUL, const_like(x, 2), x)

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        (x,) = args
        return (ctx.op1("stablehlo.multiply", (x, x), out_avals[0]),)


@final
@dataclass(frozen=True, slots=True)
class Clamp(Elementwise):
    """``min(max(x, lo), hi)`` with ``clamp(lo, x, hi)``'s operand order;
    ``lo`` and ``hi`` are scalars or of ``x``'s shape."""

    name = "clamp"
    arity = 3
    accepts = NUMBER | frozenset({"bool"})

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        check_arity(self.name, avals, 3)
        lo, x, hi = avals
        for which, bound in (("min", lo), ("max", hi)):
            if bound.shape and bound.shape != x.shape:
                raise ShapeMismatchError(
                    f"clamp requires {which}.shape == operand.shape or {which}.shape == (), got "
                    f"{which} {bound.str_short()} and operand {x.str_short()}"
                )
        dtype = self.check_dtypes(avals)
        return (ShapedArray(x.shape, dtype, all(a.weak_type for a in avals)),)

    def compute(self, *args: NDArray) -> HostValue:
        lo, x, hi = args
        # XLA: max(lo, min(x, hi)) elementwise, NaN propagating.
        return np.minimum(np.maximum(x, lo), hi)

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        (out,) = out_avals
        return (ctx.op1("stablehlo.clamp", broadcast_operands(ctx, args, out.shape), out),)

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        (lo, x, hi), (t_lo, t_x, t_hi) = primals, tangents
        out = bind1(self, lo, x, hi)
        zeros = broadcast_scalar(const_like(out, 0), out.shape)
        # JAX's rule: strictly inside, x gets the derivative; strictly
        # outside, the bound crossed does; at a bound, nobody does.
        picks = (
            (t_lo, lcmp.bitwise_and(lcmp.gt(lo, x), lcmp.lt(lo, hi))),
            (t_x, lcmp.bitwise_and(lcmp.gt(x, lo), lcmp.lt(x, hi))),
            (t_hi, lcmp.lt(hi, x)),
        )
        total: Tangent = Zero(out.aval.to_tangent_aval())
        for t, mask in picks:
            if not isinstance(t, Zero):
                chosen = select_n(broadcast_scalar(mask, out.shape), zeros, broadcast_scalar(t, out.shape))
                total = add_tangents(total, chosen)
        return (out,), (total,)


@final
@dataclass(frozen=True, slots=True)
class NextAfter(NonDifferentiable):
    """The next representable float after ``x`` towards ``y``."""

    name = "nextafter"
    hlo_op = "chlo.next_after"
    arity = 2
    accepts = FLOAT

    def compute(self, *args: NDArray) -> HostValue:
        x, y = args
        return np.nextafter(x, y)

    @override
    def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
        # Computed in the operands' own dtype: widening would step by the
        # wrong ulp.
        x, y = (np.asarray(a) for a in args)
        with np.errstate(all="ignore"):
            if x.dtype.itemsize == 2:
                return (_nextafter_bits(x, y),)
            return (np.asarray(np.nextafter(x, y)),)


def _nextafter_bits(x: NDArray, y: NDArray) -> NDArray:
    """nextafter for the 16-bit floats by stepping the bit pattern."""
    x, y = np.broadcast_arrays(x, y)
    bits = x.view(np.uint16).astype(np.int32)
    wide_x, wide_y = x.astype(np.float32), y.astype(np.float32)
    magnitude = bits & 0x7FFF
    sign = bits & 0x8000
    away = (wide_y > wide_x) == (sign == 0)
    stepped = np.where(away, magnitude + 1, magnitude - 1) | sign
    smallest = np.where(wide_y > wide_x, 1, 0x8001)
    out = np.where(magnitude == 0, smallest, stepped)
    out = np.where(wide_x == wide_y, y.view(np.uint16).astype(np.int32), out)
    result = out.astype(np.uint16).view(x.dtype)
    nan = np.isnan(wide_x) | np.isnan(wide_y)
    return np.where(nan, np.array(np.nan, x.dtype), result).astype(x.dtype)


@final
@dataclass(frozen=True, slots=True)
class PopulationCount(NonDifferentiable):
    """The number of set bits of each integer."""

    name = "population_count"
    hlo_op = "stablehlo.popcnt"
    arity = 1
    accepts = frozenset({"int", "uint"})

    def compute(self, *args: NDArray) -> HostValue:
        x = args[0]
        unsigned = x.view(np.dtype(f"u{x.dtype.itemsize}"))
        counts: NDArray = np.bitwise_count(unsigned)
        return counts.astype(x.dtype)


@final
@dataclass(frozen=True, slots=True)
class Clz(NonDifferentiable):
    """The number of leading zero bits of each integer."""

    name = "clz"
    hlo_op = "stablehlo.count_leading_zeros"
    arity = 1
    accepts = frozenset({"int", "uint"})

    def compute(self, *args: NDArray) -> HostValue:
        x = args[0]
        width = 8 * x.dtype.itemsize
        unsigned = x.view(np.dtype(f"u{x.dtype.itemsize}")).astype(np.uint64)
        count = np.full(x.shape, width, np.int64)
        for bit in range(width):
            count = np.where(((unsigned >> np.uint64(bit)) & np.uint64(1)) != 0, width - 1 - bit, count)
        return count.astype(x.dtype)


@final
@dataclass(frozen=True, slots=True)
class ReducePrecision(Elementwise):
    """Round to a float format with ``exponent_bits`` and ``mantissa_bits``
    (round to nearest even; overflow to inf, underflow to zero), keeping
    the dtype; linear, so its tangent and transpose are itself."""

    exponent_bits: int
    mantissa_bits: int
    name = "reduce_precision"
    arity = 1
    accepts = FLOAT

    def compute(self, *args: NDArray) -> HostValue:
        return _reduce_precision(args[0], self.exponent_bits, self.mantissa_bits)

    @override
    def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
        # The bit manipulation is in the operand's own format.
        x = np.asarray(args[0])
        with np.errstate(all="ignore"):
            if x.dtype.itemsize == 2:
                wide = _reduce_precision(x.astype(np.float32), self.exponent_bits, self.mantissa_bits)
                return (_reduce_precision_native(x, wide),)
            return (_reduce_precision(x, self.exponent_bits, self.mantissa_bits),)

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        (x,), (t,) = primals, tangents
        out = bind1(self, x)
        return (out,), ((t if isinstance(t, Zero) else bind1(self, t)),)

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        (ct,) = cts
        assert not isinstance(ct, Zero)
        return (bind1(self, ct),)

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        attrs = {"exponent_bits": f"{self.exponent_bits} : i32", "mantissa_bits": f"{self.mantissa_bits} : i32"}
        return (ctx.op1("stablehlo.reduce_precision", args, out_avals[0], attrs),)


def _reduce_precision_native(x: NDArray, via_float32: NDArray) -> NDArray:
    # A 16-bit float reduced through float32 is exact: float32 holds every
    # 16-bit value and every reduced format narrower than it.
    return via_float32.astype(x.dtype)


_FORMATS: dict[int, tuple[type[np.unsignedinteger[Any]], int, int]] = {
    4: (np.uint32, 8, 23),
    8: (np.uint64, 11, 52),
}


def _reduce_precision(x: NDArray, exponent_bits: int, mantissa_bits: int) -> NDArray:
    """XLA's ReducePrecision on float32/float64 bit patterns."""
    x = np.asarray(x)
    uint, src_exponent_bits, src_mantissa_bits = _FORMATS[x.dtype.itemsize]
    bits = x.view(uint).copy()
    one = uint(1)
    if mantissa_bits < src_mantissa_bits:
        shift = uint(src_mantissa_bits - mantissa_bits)
        last_bit_mask = one << shift
        base_bias = (last_bit_mask >> one) - one
        last_bit = (bits & last_bit_mask) >> shift
        truncation_mask = ~(last_bit_mask - one)
        bits = ((bits + last_bit + base_bias) & truncation_mask).astype(uint)
    if exponent_bits < src_exponent_bits:
        sign_mask = one << uint(src_exponent_bits + src_mantissa_bits)
        exponent_mask = ((one << uint(src_exponent_bits)) - one) << uint(src_mantissa_bits)
        exponent_bias = (1 << (src_exponent_bits - 1)) - 1
        reduced_bias = (1 << (exponent_bits - 1)) - 1
        max_exponent = uint(exponent_bias + reduced_bias) << uint(src_mantissa_bits)
        min_exponent = uint(exponent_bias - reduced_bias) << uint(src_mantissa_bits)
        exponent = bits & exponent_mask
        overflow = exponent > max_exponent
        underflow = exponent <= min_exponent
        signed_zero = bits & sign_mask
        signed_inf = signed_zero | exponent_mask
        bits = np.where(overflow, signed_inf, np.where(underflow, signed_zero, bits)).astype(uint)
    # NaNs stay NaN whatever the format (XLA's CPU kernels; only its
    # constant folder turns them into infinities when mantissa_bits is 0).
    result: NDArray = np.asarray(np.where(np.isnan(x), x, bits.view(x.dtype)), x.dtype)
    return result


CBRT, EXP2, SQUARE, CLAMP = Cbrt(), Exp2(), Square(), Clamp()
NEXTAFTER, POPULATION_COUNT, CLZ = NextAfter(), PopulationCount(), Clz()


def cbrt(x: ArrayLike) -> Array:
    """Elementwise real cube root."""
    return bind_unary(CBRT, x)


def exp2(x: ArrayLike) -> Array:
    """Elementwise ``2 ** x``."""
    return bind_unary(EXP2, x)


def square(x: ArrayLike) -> Array:
    """Elementwise ``x * x``."""
    return bind_unary(SQUARE, x)


def reciprocal(x: ArrayLike) -> Array:
    """Elementwise ``1 / x`` (``integer_pow(x, -1)``, as in JAX)."""
    return la.integer_pow(x, -1)


def clamp(min: ArrayLike, x: ArrayLike, max: ArrayLike) -> Array:  # noqa: A002 - JAX's names
    """``x`` limited to ``[min, max]``; ``min`` and ``max`` are scalars or
    of ``x``'s shape."""
    lo, value, hi = operands_same_kind("clamp", min, x, max)
    return bind1(CLAMP, lo, value, hi)


def nextafter(x1: ArrayLike, x2: ArrayLike) -> Array:
    """The next representable float after ``x1`` in the direction of ``x2``."""
    return bind_binary(NEXTAFTER, "nextafter", x1, x2)


def population_count(x: ArrayLike) -> Array:
    """The number of set bits of each integer."""
    return bind_unary(POPULATION_COUNT, x)


def clz(x: ArrayLike) -> Array:
    """The number of leading zero bits of each integer."""
    return bind_unary(CLZ, x)


def reduce_precision(operand: float | ArrayLike, exponent_bits: int, mantissa_bits: int) -> Array:
    """Round to a narrower float format (``exponent_bits`` >= 1,
    ``mantissa_bits`` >= 0), keeping the dtype."""
    for name, value in (("exponent_bits", exponent_bits), ("mantissa_bits", mantissa_bits)):
        if not is_int(value):
            raise JaxtypedTypeError(f"lax.reduce_precision: {name} must be an int, got {type(value).__name__}")
    if exponent_bits < 1 or mantissa_bits < 0:
        raise JaxtypedValueError(
            f"lax.reduce_precision: exponent_bits must be >= 1 and mantissa_bits >= 0, got "
            f"{exponent_bits} and {mantissa_bits}"
        )
    x = as_operand(operand, "lax.reduce_precision operand")
    return bind1(ReducePrecision(exponent_bits, mantissa_bits), x)

