"""Complex-number primitives (layer L4): ``real``, ``imag``, ``conj`` and
``complex``. All four are linear (over the reals), so their derivatives are
the primitives applied to the tangents.

Their transposes are JAX's: plain transposes for the real pairing
``<u, v> = Re(sum(u * v))`` (no conjugation), so ``imag``'s cotangent is
``-1j * ct`` and ``complex``'s are ``(real(ct), -imag(ct))``.
"""

from dataclasses import dataclass
from typing import Any, final

import numpy as np
from typing_extensions import override

from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.avals import ShapedArray, UndefinedPrimal, Zero
from jaxtyped._src.core.hlo import HloValue, LoweringContext
from jaxtyped._src.core.interpreter import bind1
from jaxtyped._src.core.primitive import HostValue, LinearArg, NDArray, Tangent
from jaxtyped._src.errors import JaxtypedTypeError
from jaxtyped._src.lax.elementwise_base import FLOAT, Elementwise
from jaxtyped._src.lax.arithmetic import NEG, const_like, unbroadcast
from jaxtyped._src.lax.structural import instantiate, linear_operand
from jaxtyped._src.lax.util import as_operand, operands_same_kind

__all__ = ["Real", "Imag", "Conj", "Complex", "real", "imag", "conj", "complex"]

_COMPLEX = frozenset({"complex"})


def _real_dtype(dtype: np.dtype[Any]) -> np.dtype[Any]:
    return np.dtype(np.float64) if dtype == np.dtype(np.complex128) else np.dtype(np.float32)


def _complex_dtype(dtype: np.dtype[Any]) -> np.dtype[Any]:
    return np.dtype(np.complex128) if dtype == np.dtype(np.float64) else np.dtype(np.complex64)


class _Linear(Elementwise):
    """An elementwise primitive that is linear in all its operands."""

    __slots__ = ()

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        out = bind1(self, *primals)
        if all(isinstance(t, Zero) for t in tangents):
            return (out,), (Zero(out.aval.to_tangent_aval()),)
        return (out,), (bind1(self, *(instantiate(t) for t in tangents)),)


@final
@dataclass(frozen=True, slots=True)
class Real(_Linear):
    """The real part of a complex array."""

    name = "real"
    hlo_op = "stablehlo.real"
    arity = 1
    accepts = _COMPLEX

    @override
    def result_dtype(self, dtype: np.dtype[Any]) -> np.dtype[Any]:
        return _real_dtype(dtype)

    def compute(self, *args: NDArray) -> HostValue:
        return np.real(args[0])

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        ct, _ = linear_operand(cts[0], args[0])
        return (bind1(COMPLEX, ct, const_like(ct, 0)),)


@final
@dataclass(frozen=True, slots=True)
class Imag(_Linear):
    """The imaginary part of a complex array."""

    name = "imag"
    hlo_op = "stablehlo.imag"
    arity = 1
    accepts = _COMPLEX

    @override
    def result_dtype(self, dtype: np.dtype[Any]) -> np.dtype[Any]:
        return _real_dtype(dtype)

    def compute(self, *args: NDArray) -> HostValue:
        return np.imag(args[0])

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        ct, _ = linear_operand(cts[0], args[0])
        return (bind1(COMPLEX, const_like(ct, 0), bind1(NEG, ct)),)


@final
@dataclass(frozen=True, slots=True)
class Conj(_Linear):
    """The complex conjugate."""

    name = "conj"
    arity = 1
    accepts = _COMPLEX

    def compute(self, *args: NDArray) -> HostValue:
        return np.conjugate(args[0])

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        ct, _ = linear_operand(cts[0], args[0])
        return (bind1(self, ct),)

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        # StableHLO has no conjugate op: rebuild with the imaginary part negated.
        (x,) = args
        part = ShapedArray(x.aval.shape, _real_dtype(x.aval.dtype))
        re = ctx.op1("stablehlo.real", (x,), part)
        im = ctx.op1("stablehlo.negate", (ctx.op1("stablehlo.imag", (x,), part),), part)
        return (ctx.op1("stablehlo.complex", (re, im), out_avals[0]),)


@final
@dataclass(frozen=True, slots=True)
class Complex(_Linear):
    """``x + 1j * y`` from real and imaginary parts of one floating dtype."""

    name = "complex"
    hlo_op = "stablehlo.complex"
    arity = 2
    accepts = FLOAT

    @override
    def result_dtype(self, dtype: np.dtype[Any]) -> np.dtype[Any]:
        return _complex_dtype(dtype)

    @override
    def check_dtypes(self, avals: tuple[ShapedArray, ...]) -> np.dtype[Any]:
        dtype = Elementwise.check_dtypes(self, avals)
        if dtype not in (np.dtype(np.float32), np.dtype(np.float64)):
            raise JaxtypedTypeError(f"complex: operands must be float32 or float64 (no complex type for {dtype.name})")
        return dtype

    def compute(self, *args: NDArray) -> HostValue:
        x, y = args
        # Set the parts: x + 1j * y would turn an infinite y into a NaN real
        # part and lose the sign of a zero imaginary one.
        x, y = np.broadcast_arrays(x, y)
        result: NDArray = np.empty(x.shape, _complex_dtype(x.dtype))
        result.real, result.imag = x, y
        return result

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        (ct,), (x, y) = cts, args
        assert not isinstance(ct, Zero)
        ct_x = unbroadcast(bind1(REAL, ct), x.aval) if isinstance(x, UndefinedPrimal) else None
        ct_y = unbroadcast(bind1(NEG, bind1(IMAG, ct)), y.aval) if isinstance(y, UndefinedPrimal) else None
        return ct_x, ct_y


REAL, IMAG, CONJ, COMPLEX = Real(), Imag(), Conj(), Complex()


def real(x: ArrayLike) -> Array:
    """The real part (JAX's ``lax.real``)."""
    return bind1(REAL, as_operand(x, "lax.real operand"))


def imag(x: ArrayLike) -> Array:
    """The imaginary part (JAX's ``lax.imag``)."""
    return bind1(IMAG, as_operand(x, "lax.imag operand"))


def conj(x: ArrayLike) -> Array:
    """The complex conjugate (JAX's ``lax.conj``)."""
    return bind1(CONJ, as_operand(x, "lax.conj operand"))


def complex(x: ArrayLike, y: ArrayLike) -> Array:  # noqa: A001 - JAX's name
    """``x + 1j * y`` (JAX's ``lax.complex``)."""
    a, b = operands_same_kind("complex", x, y)
    return bind1(COMPLEX, a, b)

