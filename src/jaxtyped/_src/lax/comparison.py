"""Comparison, logical/bitwise and shift primitives (layer L4).

Their outputs are booleans or bit patterns, so their derivatives are zero.
Shifts follow XLA: shift amounts are read as unsigned, so shifting by the
bit width or more (or by a negative amount) shifts every bit out, and the
arithmetic right shift replicates the top bit whatever the signedness.
"""

from dataclasses import dataclass
from typing import Any, ClassVar, final

import numpy as np
from typing_extensions import override

from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.avals import ShapedArray
from jaxtyped._src.core.hlo import HloValue, LoweringContext
from jaxtyped._src.core.primitive import HostValue, NDArray
from jaxtyped._src.lax.elementwise_base import (
    ALL,
    INTEGRAL,
    Kind,
    NonDifferentiable,
    bind_binary,
    bind_unary,
    broadcast_operands,
)

__all__ = [
    "Eq", "Ne", "Lt", "Le", "Gt", "Ge", "And", "Or", "Xor", "Not",
    "ShiftLeft", "ShiftRightArithmetic", "ShiftRightLogical",
    "eq", "ne", "lt", "le", "gt", "ge", "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not",
    "shift_left", "shift_right_arithmetic", "shift_right_logical",
]


class _Comparison(NonDifferentiable):
    __slots__ = ()
    arity = 2
    # stablehlo.compare's comparison_direction.
    direction: ClassVar[str]

    @override
    def result_dtype(self, dtype: np.dtype[Any]) -> np.dtype[Any]:
        return np.dtype(np.bool_)

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        # ctx.compare picks the comparison type (UNSIGNED for bool and
        # unsigned ints, FLOAT for floats and complex).
        x, y = broadcast_operands(ctx, args, out_avals[0].shape)
        return (ctx.compare(x, y, self.direction),)


_ORDERED: frozenset[Kind] = frozenset({"bool", "int", "uint", "float"})


@final
@dataclass(frozen=True, slots=True)
class Eq(_Comparison):
    """``x == y``."""

    name = "eq"
    direction = "EQ"
    accepts = ALL

    def compute(self, *args: NDArray) -> HostValue:
        return np.equal(args[0], args[1])


@final
@dataclass(frozen=True, slots=True)
class Ne(_Comparison):
    """``x != y``."""

    name = "ne"
    direction = "NE"
    accepts = ALL

    def compute(self, *args: NDArray) -> HostValue:
        return np.not_equal(args[0], args[1])


@final
@dataclass(frozen=True, slots=True)
class Lt(_Comparison):
    """``x < y``."""

    name = "lt"
    direction = "LT"
    accepts = _ORDERED

    def compute(self, *args: NDArray) -> HostValue:
        return np.less(args[0], args[1])


@final
@dataclass(frozen=True, slots=True)
class Le(_Comparison):
    """``x <= y``."""

    name = "le"
    direction = "LE"
    accepts = _ORDERED

    def compute(self, *args: NDArray) -> HostValue:
        return np.less_equal(args[0], args[1])


@final
@dataclass(frozen=True, slots=True)
class Gt(_Comparison):
    """``x > y``."""

    name = "gt"
    direction = "GT"
    accepts = _ORDERED

    def compute(self, *args: NDArray) -> HostValue:
        return np.greater(args[0], args[1])


@final
@dataclass(frozen=True, slots=True)
class Ge(_Comparison):
    """``x >= y``."""

    name = "ge"
    direction = "GE"
    accepts = _ORDERED

    def compute(self, *args: NDArray) -> HostValue:
        return np.greater_equal(args[0], args[1])


@final
@dataclass(frozen=True, slots=True)
class And(NonDifferentiable):
    """Logical and (booleans) or bitwise and (integers)."""

    name = "and"
    hlo_op = "stablehlo.and"
    arity = 2
    accepts = INTEGRAL

    def compute(self, *args: NDArray) -> HostValue:
        return np.bitwise_and(args[0], args[1])


@final
@dataclass(frozen=True, slots=True)
class Or(NonDifferentiable):
    """Logical or (booleans) or bitwise or (integers)."""

    name = "or"
    hlo_op = "stablehlo.or"
    arity = 2
    accepts = INTEGRAL

    def compute(self, *args: NDArray) -> HostValue:
        return np.bitwise_or(args[0], args[1])


@final
@dataclass(frozen=True, slots=True)
class Xor(NonDifferentiable):
    """Logical or bitwise exclusive or."""

    name = "xor"
    hlo_op = "stablehlo.xor"
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
    hlo_op = "stablehlo.shift_left"

    def compute(self, *args: NDArray) -> HostValue:
        too_far, amount, _ = _shift_amount(*args)
        return np.where(too_far, 0, np.left_shift(args[0], amount)).astype(args[0].dtype)


@final
@dataclass(frozen=True, slots=True)
class ShiftRightArithmetic(_Shift):
    """``x >> y`` filling with the sign bit."""

    name = "shift_right_arithmetic"
    hlo_op = "stablehlo.shift_right_arithmetic"

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
    hlo_op = "stablehlo.shift_right_logical"

    def compute(self, *args: NDArray) -> HostValue:
        x = args[0]
        too_far, amount, _ = _shift_amount(*args)
        unsigned = np.dtype(f"u{x.dtype.itemsize}")
        shifted = np.right_shift(x.view(unsigned), amount.astype(unsigned)).view(x.dtype)
        return np.where(too_far, 0, shifted).astype(x.dtype)


@final
@dataclass(frozen=True, slots=True)
class Not(NonDifferentiable):
    """Logical not for booleans, bitwise not for integers."""

    name = "not"
    hlo_op = "stablehlo.not"
    arity = 1
    accepts = INTEGRAL

    def compute(self, *args: NDArray) -> HostValue:
        x = args[0]
        return np.logical_not(x) if x.dtype == np.bool_ else np.invert(x)



# Shared instances of parameterless primitives (they are immutable).
EQ, NE, LT, LE, GT, GE = Eq(), Ne(), Lt(), Le(), Gt(), Ge()
AND, OR, XOR, NOT = And(), Or(), Xor(), Not()
SHL, SRA, SRL = ShiftLeft(), ShiftRightArithmetic(), ShiftRightLogical()


# === user-facing wrappers (JAX's lax names and signatures) ===

def bitwise_not(x: ArrayLike) -> Array:
    """Logical/bitwise not."""
    return bind_unary(NOT, x)


def eq(x: ArrayLike, y: ArrayLike) -> Array:
    """``x == y``."""
    return bind_binary(EQ, "eq", x, y)

def ne(x: ArrayLike, y: ArrayLike) -> Array:
    """``x != y``."""
    return bind_binary(NE, "ne", x, y)

def lt(x: ArrayLike, y: ArrayLike) -> Array:
    """``x < y``."""
    return bind_binary(LT, "lt", x, y)

def le(x: ArrayLike, y: ArrayLike) -> Array:
    """``x <= y``."""
    return bind_binary(LE, "le", x, y)

def gt(x: ArrayLike, y: ArrayLike) -> Array:
    """``x > y``."""
    return bind_binary(GT, "gt", x, y)

def ge(x: ArrayLike, y: ArrayLike) -> Array:
    """``x >= y``."""
    return bind_binary(GE, "ge", x, y)

def bitwise_and(x: ArrayLike, y: ArrayLike) -> Array:
    """Logical/bitwise and."""
    return bind_binary(AND, "bitwise_and", x, y)

def bitwise_or(x: ArrayLike, y: ArrayLike) -> Array:
    """Logical/bitwise or."""
    return bind_binary(OR, "bitwise_or", x, y)

def bitwise_xor(x: ArrayLike, y: ArrayLike) -> Array:
    """Logical/bitwise exclusive or."""
    return bind_binary(XOR, "bitwise_xor", x, y)

def shift_left(x: ArrayLike, y: ArrayLike) -> Array:
    """``x << y``."""
    return bind_binary(SHL, "shift_left", x, y)

def shift_right_arithmetic(x: ArrayLike, y: ArrayLike) -> Array:
    """``x >> y``, sign-filling."""
    return bind_binary(SRA, "shift_right_arithmetic", x, y)

def shift_right_logical(x: ArrayLike, y: ArrayLike) -> Array:
    """``x >> y``, zero-filling."""
    return bind_binary(SRL, "shift_right_logical", x, y)


