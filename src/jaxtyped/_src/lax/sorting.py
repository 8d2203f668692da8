"""Sorting primitives (layer L4): ``sort`` (several operands, lexicographic
on the first ``num_keys``) and ``top_k``.

Orders are JAX's. ``sort`` compares floats after making every zero ``+0``
and every NaN ``+NaN``, so ``-0.0`` ties ``0.0`` (a stable sort keeps their
order) and NaNs of either sign come last; complex numbers compare by real
part, then imaginary part, each that way. ``top_k`` uses IEEE total order
as it is (``+NaN > inf > ... > 0.0 > -0.0 > ... > -inf > -NaN``) and puts
the lower index first among equal values.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, final, overload

import numpy as np
from typing_extensions import override

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.avals import BatchAxis, BatchDim, ShapedArray, Zero
from jaxtyped._src.core.hlo import HloValue, LoweringContext, i64_array
from jaxtyped._src.core.interpreter import bind
from jaxtyped._src.core.primitive import HostValue, NDArray, Primitive, Tangent
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.lax.gather import GatherDimensionNumbers, GatherScatterMode, gather
from jaxtyped._src.lax.structural import bdim_to_front, broadcasted_iota, expand_dims
from jaxtyped._src.lax.util import as_operand, short_types
from jaxtyped._src.util import canonicalize_axis, is_int

__all__ = ["Sort", "TopK", "sort", "sort_key_val", "top_k", "take_along_dimension"]

_BOOL = np.dtype(np.bool_)


def _real_dtype(dtype: np.dtype[Any]) -> np.dtype[Any]:
    return np.dtype(np.float32) if dtype == np.complex64 else np.dtype(np.float64)


def _host_keys(x: NDArray) -> list[NDArray]:
    """Sort keys NumPy orders as JAX's comparator does: floats widened
    (NumPy sorts NaN last and ties -0.0 with 0.0), complex split into real
    and imaginary keys."""
    if dtypes.is_complex(x.dtype):
        return [np.real(x).astype(np.float64), np.imag(x).astype(np.float64)]
    if dtypes.is_floating(x.dtype):
        return [x.astype(np.float64)]
    return [x]


def _total_order_key(x: NDArray) -> NDArray:
    """Integers whose order is IEEE total order of ``x`` (floats), or ``x``
    itself widened (integers, booleans)."""
    if not dtypes.is_floating(x.dtype):
        return x.astype(np.int64) if x.dtype != np.uint64 else x
    bits = x.astype(np.float64).view(np.int64)
    flipped: NDArray = np.where(bits < 0, bits ^ np.int64(0x7FFFFFFFFFFFFFFF), bits)
    return flipped


def take_along_dimension(x: Array, indices: Array, dimension: int) -> Array:
    """``x`` permuted along ``dimension`` by ``indices`` (same shape, or the
    same but for ``dimension``): one gather, every other axis a batching axis."""
    others = tuple(d for d in range(x.ndim) if d != dimension)
    dnums = GatherDimensionNumbers(
        offset_dims=(),
        collapsed_slice_dims=(dimension,),
        start_index_map=(dimension,),
        operand_batching_dims=others,
        start_indices_batching_dims=others,
    )
    index = expand_dims(indices, (indices.ndim,))
    return gather(x, index, dnums, (1,) * x.ndim, mode=GatherScatterMode.PROMISE_IN_BOUNDS)


def _compare_total_order(ctx: LoweringContext, x: HloValue, y: HloValue, direction: str) -> HloValue:
    attrs = {
        "comparison_direction": f"#stablehlo<comparison_direction {direction}>",
        "compare_type": "#stablehlo<comparison_type TOTALORDER>",
    }
    return ctx.op1("stablehlo.compare", (x, y), ShapedArray((), _BOOL), attrs)


def _canonical_float(ctx: LoweringContext, x: HloValue) -> HloValue:
    """``x`` with -0.0 made 0.0 and every NaN the positive quiet NaN."""
    zero = ctx.full_like(0, x)
    is_nan = ctx.compare(x, x, "NE")
    unsigned_zero = ctx.select(ctx.compare(x, zero, "EQ"), zero, x)
    return ctx.select(is_nan, ctx.full_like(float("nan"), x), unsigned_zero)


def _comparator_keys(ctx: LoweringContext, x: HloValue) -> list[HloValue]:
    dtype = x.aval.dtype
    if dtypes.is_complex(dtype):
        part = ShapedArray((), _real_dtype(dtype))
        parts = [ctx.op1("stablehlo.real", (x,), part), ctx.op1("stablehlo.imag", (x,), part)]
        return [_canonical_float(ctx, p) for p in parts]
    if dtypes.is_floating(dtype):
        return [_canonical_float(ctx, x)]
    return [x]


def _compare(ctx: LoweringContext, x: HloValue, y: HloValue, direction: str) -> HloValue:
    if dtypes.is_floating(x.aval.dtype):
        return _compare_total_order(ctx, x, y, direction)
    return ctx.compare(x, y, direction)


@final
@dataclass(frozen=True, slots=True)
class Sort(Primitive):
    """Sort operands of one shape along ``dimension``, lexicographically
    by the first ``num_keys`` of them; the others follow the permutation."""

    dimension: int
    is_stable: bool
    num_keys: int
    name = "sort"
    several_results = True

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        if not avals:
            raise JaxtypedTypeError("sort: needs at least one operand")
        if any(a.shape != avals[0].shape for a in avals[1:]):
            raise JaxtypedTypeError(f"sort: operands must have equal shapes, got ({short_types(avals)})")
        if not 1 <= self.num_keys <= len(avals):
            raise JaxtypedValueError(f"sort: num_keys={self.num_keys} must be between 1 and {len(avals)}")
        if not 0 <= self.dimension < max(avals[0].ndim, 1) or avals[0].ndim == 0:
            raise JaxtypedValueError(f"sort: dimension {self.dimension} out of range for ({short_types(avals)})")
        return avals

    @override
    def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
        moved = [np.moveaxis(a, self.dimension, -1) for a in args]
        keys = [k for a in moved[: self.num_keys] for k in _host_keys(a)]
        # np.lexsort sorts by its last key first, stably.
        order = np.lexsort(keys[::-1], axis=-1)
        return tuple(np.moveaxis(np.take_along_axis(a, order, -1), -1, self.dimension) for a in moved)

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        # Sort an iota along, and permute the tangents by it.
        shape = primals[0].shape
        iota = broadcasted_iota(np.int32, shape, self.dimension)
        *outs, permutation = bind(self, *primals, iota)
        out_tangents: list[Tangent] = [
            t if isinstance(t, Zero) else take_along_dimension(t, permutation, self.dimension) for t in tangents
        ]
        return tuple(outs), tuple(out_tangents)

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        moved = [bdim_to_front(x, d, axis.size) for x, d in zip(args, dims)]
        outs = bind(Sort(self.dimension + 1, self.is_stable, self.num_keys), *moved)
        return outs, (0,) * len(outs)

    @override
    def lower(self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[HloValue, ...]:
        scalars = [ShapedArray((), a.aval.dtype) for a in args]
        with ctx.region([s for s in scalars for _ in range(2)]) as (params, body):
            x_keys: list[HloValue] = []
            y_keys: list[HloValue] = []
            for i in range(self.num_keys):
                x_keys += _comparator_keys(ctx, params[2 * i])
                y_keys += _comparator_keys(ctx, params[2 * i + 1])
            # Lexicographic: the last key decides only where the earlier ones tie.
            less = _compare(ctx, x_keys[-1], y_keys[-1], "LT")
            for xk, yk in zip(x_keys[-2::-1], y_keys[-2::-1]):
                tie = ctx.op1("stablehlo.and", (_compare(ctx, xk, yk, "EQ"), less), less.aval)
                less = ctx.op1("stablehlo.or", (_compare(ctx, xk, yk, "LT"), tie), less.aval)
            ctx.ret([less])
        attrs = {"dimension": f"{self.dimension} : i64", "is_stable": "true" if self.is_stable else "false"}
        return ctx.op("stablehlo.sort", args, out_avals, attrs, body)


@final
@dataclass(frozen=True, slots=True)
class TopK(Primitive):
    """The ``k`` largest values along ``axis`` (descending, in IEEE total
    order) and their int32 indices."""

    k: int
    axis: int
    name = "top_k"
    several_results = True

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        if len(avals) != 1:
            raise JaxtypedTypeError(f"top_k takes 1 operand, got ({short_types(avals)})")
        (x,) = avals
        if dtypes.is_complex(x.dtype):
            raise JaxtypedValueError(f"top_k is not compatible with complex inputs, got {x.str_short()}")
        if x.ndim == 0:
            raise JaxtypedTypeError(f"top_k operand must have >= 1 dimension, got {x.str_short()}")
        if self.k < 0:
            raise JaxtypedValueError(f"top_k: k must be nonnegative, got {self.k}")
        if not 0 <= self.axis < x.ndim:
            raise JaxtypedValueError(f"top_k: axis {self.axis} out of range for {x.str_short()}")
        if x.shape[self.axis] < self.k:
            raise JaxtypedValueError(
                f"top_k: k={self.k} must be no larger than the size along axis {self.axis} of {x.str_short()}"
            )
        shape = x.shape[: self.axis] + (self.k,) + x.shape[self.axis + 1 :]
        return ShapedArray(shape, x.dtype, x.weak_type), ShapedArray(shape, np.dtype(np.int32))

    @override
    def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
        x = np.moveaxis(args[0], self.axis, -1)
        key = _total_order_key(x)
        # ~key reverses the order without overflow; stable keeps lower indices first.
        order = np.argsort(~key if key.dtype != np.uint64 else np.iinfo(np.uint64).max - key, axis=-1, kind="stable")
        order = order[..., : self.k]
        values = np.take_along_axis(x, order, -1)
        return np.moveaxis(values, -1, self.axis), np.moveaxis(order.astype(np.int32), -1, self.axis)

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        values, indices = bind(self, primals[0])
        (t,) = tangents
        assert not isinstance(t, Zero)
        return (values, indices), (take_along_dimension(t, indices, self.axis), Zero(indices.aval.to_tangent_aval()))

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        (x,), (dim,) = args, dims
        assert dim is not None
        outs = bind(TopK(self.k, self.axis + (dim <= self.axis)), x)
        return outs, (dim, dim)

    @override
    def lower(self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[HloValue, ...]:
        (x,) = args
        last = x.aval.ndim - 1
        if self.axis == last:
            return ctx.op("chlo.top_k", (x,), out_avals, {"k": f"{self.k} : i64"})
        perm = list(range(x.aval.ndim))
        perm[self.axis], perm[last] = last, self.axis

        def swapped(aval: ShapedArray) -> ShapedArray:
            return ShapedArray(tuple(aval.shape[p] for p in perm), aval.dtype)

        moved = ctx.op1("stablehlo.transpose", (x,), swapped(x.aval), {"permutation": i64_array(perm)})
        outs = ctx.op("chlo.top_k", (moved,), [swapped(a) for a in out_avals], {"k": f"{self.k} : i64"})
        return tuple(ctx.op1("stablehlo.transpose", (o,), a, {"permutation": i64_array(perm)}) for o, a in zip(outs, out_avals))


def _check_bool(name: str, param: str, value: bool) -> bool:
    # Static flags: anything with a truth value, as in JAX.
    return bool(value)


def _check_int(name: str, param: str, value: object) -> int:
    if not is_int(value):
        raise JaxtypedTypeError(f"lax.{name}: {param} must be an int, got {value!r}")
    return int(value)


@overload
def sort(operand: ArrayLike, dimension: int = -1, is_stable: bool = True, num_keys: int = 1) -> Array: ...


@overload
def sort(
    operand: Sequence[ArrayLike], dimension: int = -1, is_stable: bool = True, num_keys: int = 1
) -> tuple[Array, ...]: ...


def sort(
    operand: ArrayLike | Sequence[ArrayLike], dimension: int = -1, is_stable: bool = True, num_keys: int = 1
) -> Array | tuple[Array, ...]:
    """Sort along ``dimension`` (JAX's ``lax.sort``): one array, or a
    sequence of arrays of one shape sorted together, lexicographically by
    the first ``num_keys``. NaNs sort last; ``-0.0`` ties ``0.0``."""
    dim = _check_int("sort", "dimension", dimension)
    stable = _check_bool("sort", "is_stable", is_stable)
    keys = _check_int("sort", "num_keys", num_keys)
    if isinstance(operand, Sequence) and not isinstance(operand, (str, bytes)):
        xs = [as_operand(x, f"lax.sort operand[{i}]") for i, x in enumerate(operand)]
        if not xs:
            raise JaxtypedTypeError("lax.sort requires at least one operand")
        if not 1 <= keys <= len(xs):
            raise JaxtypedValueError(f"lax.sort: num_keys={keys} must be between 1 and {len(xs)}")
        axis = canonicalize_axis(dim, xs[0].ndim, where="lax.sort dimension")
        return bind(Sort(axis, stable, keys), *xs)
    x = as_operand(operand, "lax.sort operand")
    if keys != 1:
        raise JaxtypedValueError(f"lax.sort: num_keys={keys} must equal 1 for a single operand")
    axis = canonicalize_axis(dim, x.ndim, where="lax.sort dimension")
    return bind(Sort(axis, stable, 1), x)[0]


def sort_key_val(keys: ArrayLike, values: ArrayLike, dimension: int = -1, is_stable: bool = True) -> tuple[Array, Array]:
    """Sort ``keys`` along ``dimension`` and apply the same permutation to
    ``values`` (JAX's ``lax.sort_key_val``)."""
    k = as_operand(keys, "lax.sort_key_val keys")
    v = as_operand(values, "lax.sort_key_val values")
    axis = canonicalize_axis(_check_int("sort_key_val", "dimension", dimension), k.ndim, where="lax.sort_key_val dimension")
    sorted_keys, sorted_values = bind(Sort(axis, _check_bool("sort_key_val", "is_stable", is_stable), 1), k, v)
    return sorted_keys, sorted_values


def top_k(operand: ArrayLike, k: int, *, axis: int = -1) -> tuple[Array, Array]:
    """The ``k`` largest entries along ``axis`` and their int32 indices
    (JAX's ``lax.top_k``); of equal entries the lower index comes first."""
    x = as_operand(operand, "lax.top_k operand")
    count = _check_int("top_k", "k", k)
    if count < 0:
        raise JaxtypedValueError(f"lax.top_k: k must be nonnegative, got {count}")
    if x.ndim == 0:
        raise JaxtypedTypeError(f"lax.top_k: operand must have >= 1 dimension, got {x.aval.str_short()}")
    ax = canonicalize_axis(_check_int("top_k", "axis", axis), x.ndim, where="lax.top_k axis")
    values, indices = bind(TopK(count, ax), x)
    return values, indices
