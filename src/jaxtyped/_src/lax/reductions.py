"""Reduction primitives (layer L4): reduce_sum, reduce_prod, reduce_max,
reduce_min, argmax, argmin."""

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, final

import numpy as np
from typing_extensions import override

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.avals import BatchAxis, BatchDim, ShapedArray, UndefinedPrimal, Zero
from jaxtyped._src.core.hlo import HloValue, LoweringContext, i64_array
from jaxtyped._src.core.interpreter import bind1
from jaxtyped._src.core.primitive import HostValue, LinearArg, NDArray, Primitive, Tangent
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.lax.arithmetic import DIV, MUL, const_like
from jaxtyped._src.lax.comparison import EQ
from jaxtyped._src.lax.elementwise_base import NUMBER, Kind, convert_to
from jaxtyped._src.lax.structural import broadcast_in_dim, pad, reshape, rev, transpose
from jaxtyped._src.lax.util import check_arity, check_axes_in_range, check_int_tuple, kind_of, as_operand
from jaxtyped._src.util import prod

__all__ = [
    "ReduceSum", "ReduceProd", "ReduceMax", "ReduceMin", "ArgMax", "ArgMin",
    "reduce_sum", "reduce_prod", "reduce_max", "reduce_min", "argmax", "argmin",
    # lax extras family: logical reductions
    "ReduceAnd", "ReduceOr", "ReduceXor", "reduce_and", "reduce_or", "reduce_xor",
]

_ORDERED: frozenset[Kind] = frozenset({"bool", "int", "uint", "float"})


def _batched_axes(axes: tuple[int, ...], dim: int) -> tuple[tuple[int, ...], int]:
    """Reduction axes of the batched operand, and the output batch dim."""
    moved = tuple(a + (a >= dim) for a in axes)
    return moved, dim - sum(a < dim for a in moved)


@dataclass(frozen=True, slots=True)
class _Reduction(Primitive):
    """Reduce over ``axes`` (distinct, in range)."""

    axes: tuple[int, ...]
    accepts: ClassVar[frozenset[Kind]]

    def out_dtype(self, x: ShapedArray) -> np.dtype[Any]:
        return x.dtype

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        check_arity(self.name, avals, 1)
        (x,) = avals
        check_axes_in_range(self.name, self.axes, x.ndim, x.str_short())
        if kind_of(x.dtype) not in self.accepts:
            raise JaxtypedTypeError(f"{self.name} does not accept dtype {x.dtype.name} (operand {x.str_short()})")
        shape = tuple(d for i, d in enumerate(x.shape) if i not in self.axes)
        return (ShapedArray(shape, self.out_dtype(x), x.weak_type),)

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        (x,), (dim,) = args, dims
        assert dim is not None
        axes, out_dim = _batched_axes(self.axes, dim)
        return (bind1(dataclasses.replace(self, axes=axes), x),), (out_dim,)


def _accumulate_dtype(x: NDArray) -> NDArray:
    # Narrow floats accumulate in float32, as XLA does on CPU.
    return x.astype(np.float32) if x.dtype.itemsize == 2 and dtypes.is_floating(x.dtype) else x


def _lower_reduce(
    ctx: LoweringContext, x: HloValue, axes: tuple[int, ...], combine: str, init: object, out: ShapedArray
) -> HloValue:
    """``stablehlo.reduce`` of ``x`` over ``axes`` with the binary op
    ``combine`` from ``init``; no reduce at all for no axes. Narrow floats
    are reduced in float32 and rounded once, as the eager rules do (JAX
    emits a narrow reduce, which XLA's CPU backend also sums more widely,
    to within an ulp or two)."""
    if not axes:
        return x
    dtype = x.aval.dtype
    if dtype.itemsize == 2 and dtypes.is_floating(dtype):
        wide = ctx.convert(x, np.dtype(np.float32))
        result = _lower_reduce(ctx, wide, axes, combine, init, ShapedArray(out.shape, wide.aval.dtype))
        return ctx.convert(result, dtype)
    scalar = ShapedArray((), dtype)
    start = ctx.scalar(init, dtype)
    with ctx.region([scalar, scalar]) as (params, body):
        ctx.ret([ctx.op1(combine, params, scalar)])
    return ctx.op1("stablehlo.reduce", (x, start), out, {"dimensions": i64_array(axes)}, body)


@final
@dataclass(frozen=True, slots=True)
class ReduceSum(_Reduction):
    """Sum over ``axes``."""

    name = "reduce_sum"
    accepts = NUMBER

    @override
    def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
        x = _accumulate_dtype(args[0])
        return (np.add.reduce(x, axis=self.axes, dtype=x.dtype),)  # np.sum without its wrappers

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        return (_lower_reduce(ctx, args[0], self.axes, "stablehlo.add", 0, out_avals[0]),)

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        t = tangents[0]
        assert not isinstance(t, Zero)
        return (bind1(self, primals[0]),), (bind1(self, t),)

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        (ct,), (x,) = cts, args
        assert not isinstance(ct, Zero) and isinstance(x, UndefinedPrimal)
        kept = tuple(d for d in range(x.aval.ndim) if d not in self.axes)
        return (broadcast_in_dim(ct, x.aval.shape, kept),)


@final
@dataclass(frozen=True, slots=True)
class ReduceProd(_Reduction):
    """Product over ``axes``."""

    name = "reduce_prod"
    accepts = NUMBER

    @override
    def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
        x = _accumulate_dtype(args[0])
        with np.errstate(all="ignore"):
            return (np.prod(x, axis=self.axes, dtype=x.dtype),)

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        return (_lower_reduce(ctx, args[0], self.axes, "stablehlo.multiply", 1, out_avals[0]),)

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        (x,), (t,) = primals, tangents
        assert not isinstance(t, Zero)
        out = bind1(self, x)
        # d prod = sum_i t_i * prod_{j != i} x_j; the products of the others
        # come from exclusive prefix and suffix products, so zeros are exact.
        kept = [i for i in range(x.ndim) if i not in self.axes]
        perm = (*kept, *self.axes)
        rows = reshape(transpose(x, perm), (*out.shape, prod(x.shape[a] for a in self.axes)))
        t_rows = reshape(transpose(t, perm), rows.shape)
        others = bind1(MUL, _exclusive_cumprod(rows), rev(_exclusive_cumprod(rev(rows, (rows.ndim - 1,))), (rows.ndim - 1,)))
        tangent = bind1(ReduceSum((rows.ndim - 1,)), bind1(MUL, others, t_rows))
        return (out,), (tangent,)


def _exclusive_cumprod(rows: Array) -> Array:
    """Products of all earlier elements along the last axis (1 for the
    first), in log2(n) steps of shifted multiplies."""
    last = rows.ndim - 1
    n = rows.shape[last]
    one = const_like(rows, 1)

    def shifted(x: Array, k: int) -> Array:
        config = [(0, 0, 0)] * last + [(k, -k, 0)]
        return pad(x, one, config)

    result = shifted(rows, 1) if n else rows
    k = 1
    while k < n:
        result = bind1(MUL, result, shifted(result, k))
        k *= 2
    return result


def _max_min_jvp(
    prim: "_Reduction", x: Array, t: Array
) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
    # JAX's rule: the tangent is the mean of the tangents where x attains the
    # extremum.
    out = bind1(prim, x)
    kept = tuple(i for i in range(x.ndim) if i not in prim.axes)
    at_extremum = bind1(EQ, x, broadcast_in_dim(out, x.shape, kept))
    weights = convert_to(at_extremum, t.dtype, weak_type=False)
    counts = bind1(ReduceSum(prim.axes), weights)
    total = bind1(ReduceSum(prim.axes), bind1(MUL, t, weights))
    return (out,), (bind1(DIV, total, counts),)


def _identity_for_max(dtype: np.dtype[Any]) -> Any:
    if dtypes.is_bool(dtype):
        return False
    if dtypes.is_integer(dtype):
        return np.iinfo(dtype).min
    return -np.inf


def _identity_for_min(dtype: np.dtype[Any]) -> Any:
    if dtypes.is_bool(dtype):
        return True
    if dtypes.is_integer(dtype):
        return np.iinfo(dtype).max
    return np.inf


@final
@dataclass(frozen=True, slots=True)
class ReduceMax(_Reduction):
    """Maximum over ``axes`` (-inf, or the dtype's minimum, when empty)."""

    name = "reduce_max"
    accepts = _ORDERED

    @override
    def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
        x = _accumulate_dtype(args[0])
        return (np.max(x, axis=self.axes, initial=_identity_for_max(x.dtype)),)

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        # stablehlo.maximum propagates NaN, as np.max does; on booleans it is "or".
        (x,) = args
        combine = "stablehlo.or" if dtypes.is_bool(x.aval.dtype) else "stablehlo.maximum"
        return (_lower_reduce(ctx, x, self.axes, combine, _identity_for_max(x.aval.dtype), out_avals[0]),)

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        t = tangents[0]
        assert not isinstance(t, Zero)
        return _max_min_jvp(self, primals[0], t)


@final
@dataclass(frozen=True, slots=True)
class ReduceMin(_Reduction):
    """Minimum over ``axes`` (+inf, or the dtype's maximum, when empty)."""

    name = "reduce_min"
    accepts = _ORDERED

    @override
    def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
        x = _accumulate_dtype(args[0])
        return (np.min(x, axis=self.axes, initial=_identity_for_min(x.dtype)),)

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        (x,) = args
        combine = "stablehlo.and" if dtypes.is_bool(x.aval.dtype) else "stablehlo.minimum"
        return (_lower_reduce(ctx, x, self.axes, combine, _identity_for_min(x.aval.dtype), out_avals[0]),)

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        t = tangents[0]
        assert not isinstance(t, Zero)
        return _max_min_jvp(self, primals[0], t)


@dataclass(frozen=True, slots=True)
class _ArgReduction(_Reduction):
    """Index of the extremum along one axis (the first one; NaN counts as
    the extremum, as in JAX)."""

    index_dtype: np.dtype[Any]

    @override
    def out_dtype(self, x: ShapedArray) -> np.dtype[Any]:
        return self.index_dtype

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        (out,) = _Reduction.abstract_eval(self, avals)
        if len(self.axes) != 1 or avals[0].shape[self.axes[0]] == 0:
            raise JaxtypedValueError(
                f"{self.name}: needs exactly one non-empty axis, got axes={self.axes} for {avals[0].str_short()}"
            )
        if not dtypes.is_integer(self.index_dtype):
            raise JaxtypedTypeError(f"{self.name}: index_dtype must be an integer dtype, got {self.index_dtype}")
        return (out.update(weak_type=False),)

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        out = bind1(self, primals[0])
        return (out,), (Zero(out.aval.to_tangent_aval()),)


def _lower_arg_reduce(ctx: LoweringContext, x: HloValue, axis: int, out: ShapedArray, *, is_max: bool) -> HloValue:
    """A two-operand ``stablehlo.reduce`` of (value, index) pairs along
    ``axis``. The combiner picks the better value, NaN beating any number,
    and on ties (NaN ties NaN) the smaller index: XLA may combine in any
    order, so "first" must be part of the comparison. Starting from (the
    identity, 0) is safe: the identity only survives if every element
    equals it, and then index 0 is the answer."""
    dtype, index_dtype = x.aval.dtype, out.dtype
    iota = ctx.op1("stablehlo.iota", (), ShapedArray(x.aval.shape, index_dtype), {"iota_dimension": f"{axis} : i64"})
    identity = _identity_for_max(dtype) if is_max else _identity_for_min(dtype)
    starts = (ctx.scalar(identity, dtype), ctx.scalar(0, index_dtype))
    value, index = ShapedArray((), dtype), ShapedArray((), index_dtype)
    with ctx.region([value, index, value, index]) as ((a, i, b, j), body):

        def either(p: HloValue, q: HloValue) -> HloValue:
            return ctx.op1("stablehlo.or", (p, q), p.aval)

        def both(p: HloValue, q: HloValue) -> HloValue:
            return ctx.op1("stablehlo.and", (p, q), p.aval)

        better = ctx.compare(a, b, "GT" if is_max else "LT")
        tie = ctx.compare(a, b, "EQ")
        if dtypes.is_inexact(dtype):
            a_nan, b_nan, b_number = ctx.compare(a, a, "NE"), ctx.compare(b, b, "NE"), ctx.compare(b, b, "EQ")
            better = either(better, both(a_nan, b_number))
            tie = either(tie, both(a_nan, b_nan))
        take_i = either(better, both(tie, ctx.compare(i, j, "LT")))
        ctx.ret([ctx.select(better, a, b), ctx.select(take_i, i, j)])
    reduced = ctx.op(
        "stablehlo.reduce",
        (x, iota, *starts),
        (ShapedArray(out.shape, dtype), out),
        {"dimensions": i64_array((axis,))},
        body,
    )
    return reduced[1]


@final
@dataclass(frozen=True, slots=True)
class ArgMax(_ArgReduction):
    """Index of the maximum along ``axes[0]``."""

    name = "argmax"
    accepts = _ORDERED

    @override
    def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
        return (np.argmax(_accumulate_dtype(args[0]), axis=self.axes[0]),)

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        return (_lower_arg_reduce(ctx, args[0], self.axes[0], out_avals[0], is_max=True),)


@final
@dataclass(frozen=True, slots=True)
class ArgMin(_ArgReduction):
    """Index of the minimum along ``axes[0]``."""

    name = "argmin"
    accepts = _ORDERED

    @override
    def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
        return (np.argmin(_accumulate_dtype(args[0]), axis=self.axes[0]),)

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        return (_lower_arg_reduce(ctx, args[0], self.axes[0], out_avals[0], is_max=False),)


def _reduce_axes(name: str, x: Array, axes: Sequence[int]) -> tuple[int, ...]:
    if isinstance(axes, tuple) and _sorted_in_range(axes, x.ndim):
        return axes  # what jnp passes: nothing to check or sort (issue 19)
    given = check_int_tuple(f"lax.{name}", "axes", axes)
    # lax takes axes as they are (jnp normalizes negative ones): -1 is out
    # of bounds here, as in JAX.
    bad = [a for a in given if not 0 <= a < x.ndim]
    if bad:
        which = f"axis {bad[0]} is" if len(bad) == 1 else f"axes {tuple(bad)} are"
        raise JaxtypedValueError(
            f"lax.{name}: {which} out of bounds for operand {x.aval.str_short()} "
            f"(lax axes are in 0..{x.ndim - 1}; jnp functions accept negative ones)"
        )
    return tuple(sorted(given))


def _sorted_in_range(axes: tuple[int, ...], ndim: int) -> bool:
    """Whether ``axes`` are ints (exactly), increasing, within ``ndim``."""
    previous = -1
    for a in axes:
        if type(a) is not int or not previous < a < ndim:
            return False
        previous = a
    return True


def _bind_reduction(
    prim: Callable[[tuple[int, ...]], _Reduction], name: str, operand: ArrayLike, axes: Sequence[int]
) -> Array:
    """``lax.<name>``: the reduction ``prim`` over the checked ``axes``."""
    x = as_operand(operand, f"lax.{name} operand")
    reduced = _reduce_axes(name, x, axes)
    instance = _reductions.get((prim, reduced))
    if instance is None:
        if len(_reductions) >= 256:
            _reductions.clear()
        instance = _reductions[(prim, reduced)] = prim(reduced)
    return bind1(instance, x)


# One primitive per (reduction, axes), reused: eager sums over the same axes
# skip building a frozen dataclass each time, and the abstract-eval memo
# compares it by identity (issue 19).
_reductions: dict[tuple[Callable[[tuple[int, ...]], _Reduction], tuple[int, ...]], _Reduction] = {}


def reduce_sum(operand: ArrayLike, axes: Sequence[int]) -> Array:
    """Sum over ``axes`` (JAX's ``lax.reduce_sum``)."""
    return _bind_reduction(ReduceSum, "reduce_sum", operand, axes)


def reduce_prod(operand: ArrayLike, axes: Sequence[int]) -> Array:
    """Product over ``axes`` (JAX's ``lax.reduce_prod``)."""
    return _bind_reduction(ReduceProd, "reduce_prod", operand, axes)


def reduce_max(operand: ArrayLike, axes: Sequence[int]) -> Array:
    """Maximum over ``axes`` (JAX's ``lax.reduce_max``)."""
    return _bind_reduction(ReduceMax, "reduce_max", operand, axes)


def reduce_min(operand: ArrayLike, axes: Sequence[int]) -> Array:
    """Minimum over ``axes`` (JAX's ``lax.reduce_min``)."""
    return _bind_reduction(ReduceMin, "reduce_min", operand, axes)


def argmax(operand: ArrayLike, axis: int, index_dtype: "dtypes.DTypeLike") -> Array:
    """Index of the maximum along ``axis`` (JAX's ``lax.argmax``)."""
    x = as_operand(operand, "lax.argmax operand")
    (ax,) = _reduce_axes("argmax", x, (axis,))
    return bind1(ArgMax((ax,), dtypes.canonicalize_dtype(dtypes.dtype(index_dtype))), x)


def argmin(operand: ArrayLike, axis: int, index_dtype: "dtypes.DTypeLike") -> Array:
    """Index of the minimum along ``axis`` (JAX's ``lax.argmin``)."""
    x = as_operand(operand, "lax.argmin operand")
    (ax,) = _reduce_axes("argmin", x, (axis,))
    return bind1(ArgMin((ax,), dtypes.canonicalize_dtype(dtypes.dtype(index_dtype))), x)


# === lax extras family: logical reductions (bool and integer operands) ===

_LOGICAL: frozenset[Kind] = frozenset({"bool", "int", "uint"})


@dataclass(frozen=True, slots=True)
class _LogicalReduction(_Reduction):
    """A bitwise reduction; no derivative (integer and bool operands)."""

    ufunc: ClassVar[np.ufunc]
    combine: ClassVar[str]
    identity: ClassVar[int]

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        check_arity(self.name, avals, 1)
        if kind_of(avals[0].dtype) not in self.accepts:
            raise JaxtypedTypeError(
                f"{self.name}: logical reduction requires operand dtype bool or int, got {avals[0].str_short()}"
            )
        return _Reduction.abstract_eval(self, avals)

    @override
    def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
        (x,) = args
        start = np.array(self.identity).astype(x.dtype)
        return (np.asarray(self.ufunc.reduce(x, axis=self.axes, initial=start, dtype=x.dtype)),)

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        (x,) = args
        start = np.array(self.identity).astype(x.aval.dtype)
        return (_lower_reduce(ctx, x, self.axes, self.combine, start, out_avals[0]),)

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        out = bind1(self, primals[0])
        return (out,), (Zero(out.aval.to_tangent_aval()),)


@final
@dataclass(frozen=True, slots=True)
class ReduceAnd(_LogicalReduction):
    """Bitwise (logical for bool) "and" over ``axes``."""

    name = "reduce_and"
    accepts = _LOGICAL
    ufunc = np.bitwise_and
    combine = "stablehlo.and"
    identity = -1  # all bits set; True for bool


@final
@dataclass(frozen=True, slots=True)
class ReduceOr(_LogicalReduction):
    """Bitwise (logical for bool) "or" over ``axes``."""

    name = "reduce_or"
    accepts = _LOGICAL
    ufunc = np.bitwise_or
    combine = "stablehlo.or"
    identity = 0


@final
@dataclass(frozen=True, slots=True)
class ReduceXor(_LogicalReduction):
    """Bitwise (logical for bool) "xor" over ``axes``."""

    name = "reduce_xor"
    accepts = _LOGICAL
    ufunc = np.bitwise_xor
    combine = "stablehlo.xor"
    identity = 0


def reduce_and(operand: ArrayLike, axes: Sequence[int]) -> Array:
    """Bitwise "and" over ``axes`` (JAX's ``lax.reduce_and``)."""
    return _bind_reduction(ReduceAnd, "reduce_and", operand, axes)


def reduce_or(operand: ArrayLike, axes: Sequence[int]) -> Array:
    """Bitwise "or" over ``axes`` (JAX's ``lax.reduce_or``)."""
    return _bind_reduction(ReduceOr, "reduce_or", operand, axes)


def reduce_xor(operand: ArrayLike, axes: Sequence[int]) -> Array:
    """Bitwise "xor" over ``axes`` (JAX's ``lax.reduce_xor``)."""
    return _bind_reduction(ReduceXor, "reduce_xor", operand, axes)
