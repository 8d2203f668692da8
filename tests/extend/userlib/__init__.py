"""A user library outside jaxtyped defining two primitives in the native
typed form (subclasses of ``jaxtyped.extend.core.TypedPrimitive``), as
``docs/extending.rst`` recommends: ``cube`` (elementwise, nonlinear) and
``scale_add`` (a parameter, linear in both operands)."""

from dataclasses import dataclass
from typing import final

from typing_extensions import override

import jaxtyped.numpy as jnp
from jaxtyped import lax
from jaxtyped.errors import JaxtypedTypeError
from jaxtyped.extend.core import (
    Array,
    BatchAxis,
    BatchDim,
    HloValue,
    HostValue,
    LinearArg,
    LoweringContext,
    NDArray,
    ShapedArray,
    Tangent,
    TypedPrimitive,
    UndefinedPrimal,
    Zero,
    bind1,
)
from jaxtyped.typing import ArrayLike

__all__ = ["Cube", "ScaleAdd", "cube", "scale_add"]


def _check_float(name: str, aval: ShapedArray) -> None:
    if aval.dtype.kind != "f":
        raise JaxtypedTypeError(f"{name} requires a floating-point operand, got {aval.str_short()}")


@final
@dataclass(frozen=True, slots=True)
class Cube(TypedPrimitive):
    """``x ** 3``, elementwise."""

    name = "cube"

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        (x,) = avals
        _check_float(self.name, x)
        return (x,)

    @override
    def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
        (x,) = args
        return (x * x * x,)

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        (x,), (t,) = primals, tangents
        out = bind1(self, x)
        if isinstance(t, Zero):
            return (out,), (t,)
        return (out,), (3.0 * x * x * t,)

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        return (bind1(self, *args),), dims

    @override
    def lower(self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[HloValue, ...]:
        (x,), (out,) = args, out_avals
        square = ctx.op1("stablehlo.multiply", (x, x), out)
        return (ctx.op1("stablehlo.multiply", (square, x), out),)


@final
@dataclass(frozen=True, slots=True)
class ScaleAdd(TypedPrimitive):
    """``factor * x + y`` for operands of one type: linear in ``x`` and
    ``y``."""

    factor: float
    name = "scale_add"

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        x, y = avals
        _check_float(self.name, x)
        if not x.same_type(y):
            raise JaxtypedTypeError(f"{self.name} requires operands of one type, got {x.str_short()} vs {y.str_short()}")
        return (x.update(weak_type=x.weak_type and y.weak_type),)

    @override
    def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
        x, y = args
        return ((self.factor * x + y).astype(x.dtype),)

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        out = bind1(self, *primals)
        tx, ty = (lax.full_like(p, 0) if isinstance(t, Zero) else t for p, t in zip(primals, tangents, strict=True))
        return (out,), (bind1(self, tx, ty),)

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        (ct,) = cts
        x, y = args
        ct_x = (Zero(x.aval) if isinstance(ct, Zero) else ct * self.factor) if isinstance(x, UndefinedPrimal) else None
        ct_y = ct if isinstance(y, UndefinedPrimal) else None
        return ct_x, ct_y

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        front = [lax.broadcast(a, (axis.size,)) if d is None else _to_front(a, d) for a, d in zip(args, dims, strict=True)]
        return (bind1(self, *front),), (0,)

    @override
    def lower(self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[HloValue, ...]:
        (x, y), (out,) = args, out_avals
        factor = ctx.full_like(self.factor, x)
        return (ctx.op1("stablehlo.add", (ctx.op1("stablehlo.multiply", (factor, x), out), y), out),)


def _to_front(x: Array, dim: int) -> Array:
    perm = [dim, *(i for i in range(x.ndim) if i != dim)]
    return lax.transpose(x, perm)


def cube(x: ArrayLike) -> Array:
    """``x ** 3`` through the ``cube`` primitive."""
    return bind1(Cube(), jnp.asarray(x))


def scale_add(x: ArrayLike, y: ArrayLike, factor: float) -> Array:
    """``factor * x + y`` through the ``scale_add`` primitive."""
    return bind1(ScaleAdd(float(factor)), jnp.asarray(x), jnp.asarray(y))

