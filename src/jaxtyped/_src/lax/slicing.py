"""Slicing primitives (layer L4): static ``slice`` and the dynamic
``dynamic_slice`` / ``dynamic_update_slice``.

Dynamic start indices are clamped so the slice stays in bounds, as in XLA
(``dynamic_slice(arange(5), (4,), (2,))`` is ``[3, 4]``).
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import final

import numpy as np
from typing_extensions import override

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.array_impl import array_from_numpy
from jaxtyped._src.core.avals import BatchAxis, BatchDim, ShapedArray, UndefinedPrimal, Zero
from jaxtyped._src.core.hlo import HloValue, LoweringContext, i64_array
from jaxtyped._src.core.interpreter import bind1
from jaxtyped._src.core.key_layout import key_dispatch, key_dispatch2  # random family
from jaxtyped._src.core.primitive import HostValue, LinearArg, NDArray, Primitive, Tangent
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.lax import arithmetic as la
from jaxtyped._src.lax import comparison as lcmp
from jaxtyped._src.lax.elementwise_base import convert_element_type
from jaxtyped._src.lax.gather import (
    Gather,
    GatherDimensionNumbers,
    GatherScatterMode,
    Scatter,
    ScatterDimensionNumbers,
)
from jaxtyped._src.lax.structural import (
    bdim_to_front,
    broadcast_in_dim,
    concatenate,
    instantiate,
    linear_operand,
    moveaxis,
    pad,
    select_n,
    squeeze,
    zeros,
)
from jaxtyped._src.lax.util import check_arity, check_int_tuple, as_operand, scalar_like, short_types
from jaxtyped._src.util import canonicalize_axis, is_int

__all__ = [
    "Slice",
    "DynamicSlice",
    "DynamicUpdateSlice",
    "slice",
    "dynamic_slice",
    "dynamic_update_slice",
    "slice_in_dim",
    "dynamic_slice_in_dim",
    "dynamic_index_in_dim",
]

_builtin_slice = slice


@final
@dataclass(frozen=True, slots=True)
class Slice(Primitive):
    """``operand[start:limit:stride]`` per axis, with static bounds."""

    start_indices: tuple[int, ...]
    limit_indices: tuple[int, ...]
    strides: tuple[int, ...] | None = None
    name = "slice"

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        check_arity(self.name, avals, 1)
        (x,) = avals
        strides = self.strides or (1,) * x.ndim
        ok = len(self.start_indices) == len(self.limit_indices) == len(strides) == x.ndim
        ok = ok and all(
            0 <= lo <= hi <= d and s >= 1
            for lo, hi, d, s in zip(self.start_indices, self.limit_indices, x.shape, strides)
        )
        if not ok:
            raise JaxtypedTypeError(
                f"slice: start_indices={self.start_indices}, limit_indices={self.limit_indices}, "
                f"strides={self.strides} are not valid for operand {x.str_short()}"
            )
        shape = tuple(
            (hi - lo + s - 1) // s for lo, hi, s in zip(self.start_indices, self.limit_indices, strides)
        )
        return (x.update(shape=shape),)

    @override
    def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
        strides = self.strides or (1,) * args[0].ndim
        index = tuple(
            _builtin_slice(lo, hi, s) for lo, hi, s in zip(self.start_indices, self.limit_indices, strides)
        )
        return (args[0][index],)

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        return (bind1(self, *primals),), (bind1(self, instantiate(tangents[0])),)

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        # Pad with zeros back to the operand's shape; a stride leaves
        # stride - 1 interior zeros between the elements it read.
        ct, x = linear_operand(cts[0], args[0])
        strides = self.strides or (1,) * x.ndim
        config: list[tuple[int, int, int]] = []
        for lo, size, stride, n in zip(self.start_indices, x.shape, strides, ct.shape):
            end = lo + (n - 1) * stride + 1 if n else lo  # one past the last element read
            config.append((lo, size - end, stride - 1))
        return (pad(ct, zeros(ShapedArray((), ct.dtype)), config),)

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        x = bdim_to_front(args[0], dims[0], axis.size)
        strides = None if self.strides is None else (1, *self.strides)
        prim = Slice((0, *self.start_indices), (axis.size, *self.limit_indices), strides)
        return (bind1(prim, x),), (0,)

    @override
    def lower(self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[HloValue, ...]:
        attrs = {
            "start_indices": i64_array(self.start_indices),
            "limit_indices": i64_array(self.limit_indices),
            "strides": i64_array(self.strides or (1,) * len(self.start_indices)),
        }
        return (ctx.op1("stablehlo.slice", args, out_avals[0], attrs),)


def slice(  # noqa: A001 - JAX's name
    operand: ArrayLike,
    start_indices: Sequence[int],
    limit_indices: Sequence[int],
    strides: Sequence[int] | None = None,
) -> Array:
    """Static slice (JAX's ``lax.slice``)."""
    if (keys := key_dispatch(lambda k: slice(k, start_indices, limit_indices, strides), operand)) is not None:  # random family
        return keys
    x = as_operand(operand, "lax.slice operand")
    start = check_int_tuple("lax.slice", "start_indices", start_indices)
    limit = check_int_tuple("lax.slice", "limit_indices", limit_indices)
    stride = None if strides is None else check_int_tuple("lax.slice", "strides", strides)
    prim = Slice(start, limit, stride)
    prim.abstract_eval((x.aval,))  # validate before the no-op shortcut
    if all(s == 1 for s in stride or ()) and start == (0,) * x.ndim and limit == x.shape:
        return x
    if stride is not None and all(s == 1 for s in stride):
        prim = Slice(start, limit, None)
    return bind1(prim, x)


def slice_in_dim(
    operand: ArrayLike, start_index: int | None, limit_index: int | None, stride: int = 1, axis: int = 0
) -> Array:
    """Slice along one axis (JAX's ``lax.slice_in_dim``); negative and
    ``None`` bounds behave as in Python slicing."""
    if (keys := key_dispatch(lambda k: slice_in_dim(k, start_index, limit_index, stride, axis), operand)) is not None:  # random family
        return keys
    x = as_operand(operand, "lax.slice_in_dim operand")
    axis = canonicalize_axis(axis, x.ndim, where="lax.slice_in_dim axis")
    start, limit, _ = _builtin_slice(start_index, limit_index).indices(x.shape[axis])
    starts = [0] * x.ndim
    limits = list(x.shape)
    strides = [1] * x.ndim
    starts[axis], limits[axis], strides[axis] = start, max(start, limit), stride
    return slice(x, starts, limits, strides)


def _check_index_avals(name: str, x: ShapedArray, indices: Sequence[ShapedArray]) -> None:
    if len(indices) != x.ndim:
        raise JaxtypedValueError(f"{name}: needs {x.ndim} start indices for operand {x.str_short()}, got {len(indices)}")
    for index in indices:
        if index.shape != () or not dtypes.is_integer(index.dtype):
            raise JaxtypedTypeError(
                f"{name}: start indices must be integer scalars, got ({short_types(indices)})"
            )


def _clamped_starts(indices: Sequence[NDArray], shape: Sequence[int], sizes: Sequence[int]) -> list[int]:
    return [int(np.clip(int(i), 0, d - s)) for i, d, s in zip(indices, shape, sizes)]


def _lower_starts(
    ctx: LoweringContext, indices: Sequence[HloValue], shape: Sequence[int], sizes: Sequence[int]
) -> list[HloValue]:
    """Start indices clamped into ``[0, shape - sizes]``, each in its own
    dtype, then converted to one signed type. XLA clamps too, but it wants
    indices of one type, and a bound converted to a narrow or unsigned index
    type could wrap (``uint8`` 255 against an axis of 300, ``int8`` -1 made
    unsigned); after this clamp, XLA's is a no-op. An index already of the
    signed target type is left to XLA's own clamp, which is the same (JAX
    emits none either: a scan's loop would run the two extra ops per slice
    every iteration)."""
    target = np.dtype(np.int32) if max(shape, default=0) <= np.iinfo(np.int32).max else np.dtype(np.int64)
    starts: list[HloValue] = []
    for index, d, s in zip(indices, shape, sizes, strict=True):
        if d == s:  # the slice spans the axis: it can only start at 0
            starts.append(ctx.scalar(0, target))
            continue
        dtype = index.aval.dtype
        if dtype == target:
            starts.append(index)
            continue
        scalar = ShapedArray((), dtype)
        if dtypes.is_signed_integer(dtype):
            index = ctx.op1("stablehlo.maximum", (index, ctx.scalar(0, dtype)), scalar)
        if d - s <= np.iinfo(dtype).max:
            index = ctx.op1("stablehlo.minimum", (index, ctx.scalar(d - s, dtype)), scalar)
        starts.append(ctx.convert(index, target))
    return starts


def _batched_starts(
    size: int, indices: Sequence[Array], dims: Sequence[BatchDim], shape: Sequence[int], sizes: Sequence[int]
) -> Array:
    """Per-example start indices as an ``int32[size, len(indices)]`` matrix,
    each clamped into ``[0, shape - sizes]`` in its own dtype first (XLA's
    dynamic-slice semantics; no wrap-around when narrowing to int32)."""
    columns: list[Array] = []
    for index, dim, d, s in zip(indices, dims, shape, sizes):
        column = bdim_to_front(index, dim, size)
        if dtypes.is_signed_integer(index.dtype):
            column = la.max(column, scalar_like(0, index.dtype, "start index"))
        if d - s <= np.iinfo(index.dtype).max:
            column = la.min(column, scalar_like(d - s, index.dtype, "start index"))
        column = convert_element_type(column, np.int32)
        columns.append(broadcast_in_dim(column, (size, 1), (0,)))
    return concatenate(columns, 1)


@final
@dataclass(frozen=True, slots=True)
class DynamicSlice(Primitive):
    """A slice of static ``slice_sizes`` at traced start indices (clamped)."""

    slice_sizes: tuple[int, ...]
    name = "dynamic_slice"

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        if not avals:
            raise JaxtypedTypeError("dynamic_slice: needs an operand")
        x, *indices = avals
        _check_index_avals(self.name, x, indices)
        if len(self.slice_sizes) != x.ndim or any(
            not 0 <= s <= d for s, d in zip(self.slice_sizes, x.shape)
        ):
            raise JaxtypedTypeError(
                f"dynamic_slice: slice_sizes {self.slice_sizes} do not fit operand {x.str_short()}"
            )
        return (x.update(shape=self.slice_sizes),)

    @override
    def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
        x, *indices = args
        starts = _clamped_starts(indices, x.shape, self.slice_sizes)
        return (x[tuple(_builtin_slice(b, b + s) for b, s in zip(starts, self.slice_sizes))],)

    @override
    def lower(self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[HloValue, ...]:
        x, *indices = args
        starts = _lower_starts(ctx, indices, x.aval.shape, self.slice_sizes)
        attrs = {"slice_sizes": i64_array(self.slice_sizes)}
        return (ctx.op1("stablehlo.dynamic_slice", (x, *starts), out_avals[0], attrs),)

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        indices = primals[1:]
        return (bind1(self, *primals),), (bind1(self, instantiate(tangents[0]), *indices),)

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        # The slice written into zeros at the same (identically clamped) starts.
        ct, x = linear_operand(cts[0], args[0])
        indices = _known_indices(args[1:])
        return (bind1(_DYNAMIC_UPDATE_SLICE, zeros(x.to_tangent_aval()), ct, *indices), *(None for _ in indices))

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        x, *indices = args
        if all(d is None for d in dims[1:]):
            x = bdim_to_front(x, dims[0], axis.size)
            zero = _zero_index(indices)
            return (bind1(DynamicSlice((axis.size, *self.slice_sizes)), x, zero, *indices),), (0,)
        # Batched starts: a gather of one window per batch element, from its
        # own operand slice when the operand is batched too.
        rank = len(self.slice_sizes)
        window = tuple(range(1, rank + 1))
        clip = GatherScatterMode.CLIP
        if dims[0] is None:
            starts = _batched_starts(axis.size, indices, dims[1:], x.shape, self.slice_sizes)
            dnums = GatherDimensionNumbers(window, (), tuple(range(rank)))
            return (bind1(Gather(dnums, self.slice_sizes, mode=clip), x, starts),), (0,)
        x = moveaxis(x, dims[0], 0)
        starts = _batched_starts(axis.size, indices, dims[1:], x.shape[1:], self.slice_sizes)
        dnums = GatherDimensionNumbers(window, (), window, (0,), (0,))
        sizes = (min(axis.size, 1), *self.slice_sizes)
        return (bind1(Gather(dnums, sizes, mode=clip), x, starts),), (0,)


def _known_indices(args: Sequence[LinearArg]) -> list[Array]:
    """The start indices among a transpose rule's operands: always known
    (integers have no tangents, so they are never linear)."""
    known = [a for a in args if not isinstance(a, UndefinedPrimal)]
    assert len(known) == len(args)
    return known


def _zero_index(indices: Sequence[Array]) -> Array:
    dtype = indices[0].dtype if indices else np.dtype(np.int32)
    return array_from_numpy(np.zeros((), dtype))


def _index_items(name: str, start_indices: Sequence[ArrayLike] | ArrayLike) -> list[object]:
    if isinstance(start_indices, Array) or isinstance(start_indices, np.ndarray):
        if start_indices.ndim != 1:
            raise JaxtypedTypeError(f"lax.{name}: start_indices must be a sequence or a 1-d array")
        return [start_indices[i] for i in range(start_indices.shape[0])]
    if not isinstance(start_indices, Sequence):
        raise JaxtypedTypeError(f"lax.{name}: start_indices must be a sequence of scalars, got {start_indices!r}")
    return list(start_indices)


def _start_operands(
    name: str, x: Array, start_indices: Sequence[ArrayLike] | ArrayLike, allow_negative_indices: bool | Sequence[bool]
) -> list[Array]:
    """Start indices as arrays; where allowed, a negative start counts from
    the end of its axis (JAX's default). Python integers are normalised
    statically, traced ones with a select."""
    items = _index_items(name, start_indices)
    if len(items) != x.ndim:
        raise JaxtypedValueError(f"lax.{name}: needs {x.ndim} start indices for operand {x.aval.str_short()}, got {len(items)}")
    allowed = [allow_negative_indices] * x.ndim if isinstance(allow_negative_indices, bool) else list(allow_negative_indices)
    starts: list[Array] = []
    for axis, (item, allow) in enumerate(zip(items, allowed, strict=True)):
        if is_int(item):
            value = int(item)
            value = value + x.shape[axis] if allow and value < 0 else value
            starts.append(array_from_numpy(np.array(value, np.int32)))
            continue
        index = as_operand(item, f"lax.{name} start_indices[{axis}]")
        if allow and dtypes.is_signed_integer(index.dtype):
            if x.shape[axis] > np.iinfo(index.dtype).max:
                # The axis length does not fit the index's dtype: widen first.
                index = convert_element_type(index, np.int32)
            zero = array_from_numpy(np.zeros((), index.dtype))
            size = array_from_numpy(np.array(x.shape[axis], index.dtype))
            index = select_n(lcmp.lt(index, zero), index, la.add(index, size))
        starts.append(index)
    return starts


def dynamic_slice(
    operand: ArrayLike,
    start_indices: Sequence[ArrayLike] | ArrayLike,
    slice_sizes: Sequence[int],
    *,
    allow_negative_indices: bool | Sequence[bool] = True,
) -> Array:
    """The slice of ``slice_sizes`` starting at ``start_indices`` (JAX's
    ``lax.dynamic_slice``): negative starts count from the end (unless
    ``allow_negative_indices`` is False), then starts are clamped into bounds."""
    if (keys := key_dispatch(  # random family: key arrays
        lambda k: dynamic_slice(k, start_indices, slice_sizes, allow_negative_indices=allow_negative_indices), operand
    )) is not None:
        return keys
    x = as_operand(operand, "lax.dynamic_slice operand")
    indices = _start_operands("dynamic_slice", x, start_indices, allow_negative_indices)
    sizes = check_int_tuple("lax.dynamic_slice", "slice_sizes", slice_sizes)
    return bind1(DynamicSlice(sizes), x, *indices)


def dynamic_slice_in_dim(
    operand: ArrayLike, start_index: ArrayLike, slice_size: int, axis: int = 0, *, allow_negative_indices: bool = True
) -> Array:
    """``dynamic_slice`` along one axis (JAX's ``lax.dynamic_slice_in_dim``)."""
    if (keys := key_dispatch(  # random family: key arrays
        lambda k: dynamic_slice_in_dim(k, start_index, slice_size, axis, allow_negative_indices=allow_negative_indices), operand
    )) is not None:
        return keys
    x = as_operand(operand, "lax.dynamic_slice_in_dim operand")
    axis = canonicalize_axis(axis, x.ndim, where="lax.dynamic_slice_in_dim axis")
    starts: list[ArrayLike] = [start_index if i == axis else 0 for i in range(x.ndim)]
    sizes = [slice_size if i == axis else d for i, d in enumerate(x.shape)]
    return dynamic_slice(x, starts, sizes, allow_negative_indices=allow_negative_indices)


def dynamic_index_in_dim(
    operand: ArrayLike, index: ArrayLike, axis: int = 0, keepdims: bool = True, *, allow_negative_indices: bool = True
) -> Array:
    """The slice at ``index`` along ``axis`` (JAX's ``lax.dynamic_index_in_dim``;
    ``allow_negative_indices`` as for ``dynamic_slice``)."""
    if (keys := key_dispatch(  # random family
        lambda k: dynamic_index_in_dim(k, index, axis, keepdims, allow_negative_indices=allow_negative_indices), operand
    )) is not None:
        return keys
    sliced = dynamic_slice_in_dim(operand, index, 1, axis, allow_negative_indices=allow_negative_indices)
    return sliced if keepdims else squeeze(sliced, (canonicalize_axis(axis, sliced.ndim, where="lax.dynamic_index_in_dim axis"),))


@final
@dataclass(frozen=True, slots=True)
class DynamicUpdateSlice(Primitive):
    """``operand`` with ``update`` written at traced start indices (clamped)."""

    name = "dynamic_update_slice"

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        if len(avals) < 2:
            raise JaxtypedTypeError("dynamic_update_slice: needs an operand and an update")
        x, update, *indices = avals
        _check_index_avals(self.name, x, indices)
        if update.dtype != x.dtype or update.ndim != x.ndim or any(
            u > d for u, d in zip(update.shape, x.shape)
        ):
            raise JaxtypedTypeError(
                f"dynamic_update_slice: update {update.str_short()} must have the operand's "
                f"dtype and rank and fit inside operand {x.str_short()}"
            )
        return (x.update(weak_type=x.weak_type and update.weak_type),)

    @override
    def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
        x, update, *indices = args
        starts = _clamped_starts(indices, x.shape, update.shape)
        out = x.copy()
        out[tuple(_builtin_slice(b, b + s) for b, s in zip(starts, update.shape))] = update
        return (out,)

    @override
    def lower(self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[HloValue, ...]:
        x, update, *indices = args
        starts = _lower_starts(ctx, indices, x.aval.shape, update.aval.shape)
        return (ctx.op1("stablehlo.dynamic_update_slice", (x, update, *starts), out_avals[0]),)

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        indices = primals[2:]
        t_x, t_update = tangents[0], tangents[1]
        if isinstance(t_x, Zero) and isinstance(t_update, Zero):
            return (bind1(self, *primals),), (t_x,)
        return (bind1(self, *primals),), (bind1(self, instantiate(t_x), instantiate(t_update), *indices),)

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        # Linear in operand and update jointly: the operand's cotangent is ct
        # with the overwritten window zeroed, the update's is that window.
        (ct,), (x, update) = cts, args[:2]
        assert not isinstance(ct, Zero)
        indices = _known_indices(args[2:])
        ct_x: Array | None = None
        if isinstance(x, UndefinedPrimal):
            ct_x = bind1(self, ct, zeros(update.aval.to_tangent_aval()), *indices)
        ct_update: Array | None = None
        if isinstance(update, UndefinedPrimal):
            ct_update = bind1(DynamicSlice(update.aval.shape), ct, *indices)
        return (ct_x, ct_update, *(None for _ in indices))

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        x, update, *indices = args
        x = bdim_to_front(x, dims[0], axis.size)
        update = bdim_to_front(update, dims[1], axis.size)
        if all(d is None for d in dims[2:]):
            return (bind1(self, x, update, _zero_index(indices), *indices),), (0,)
        # Batched starts: a scatter of one window per batch element into its
        # own operand slice (batching dims), starts clamped as XLA does.
        starts = _batched_starts(axis.size, indices, dims[2:], x.shape[1:], update.shape[1:])
        if x.weak_type and not update.weak_type:
            x = convert_element_type(x, x.dtype)  # the result is weak only if both are
        window = tuple(range(1, x.ndim))
        dnums = ScatterDimensionNumbers(window, (), window, (0,), (0,))
        prim = Scatter(dnums, indices_are_sorted=True, unique_indices=True, mode=GatherScatterMode.CLIP)
        return (bind1(prim, x, starts, update),), (0,)


_DYNAMIC_UPDATE_SLICE = DynamicUpdateSlice()


def dynamic_update_slice(
    operand: ArrayLike,
    update: ArrayLike,
    start_indices: Sequence[ArrayLike] | ArrayLike,
    *,
    allow_negative_indices: bool | Sequence[bool] = True,
) -> Array:
    """``operand`` with ``update`` written at ``start_indices`` (JAX's
    ``lax.dynamic_update_slice``): negative starts count from the end (unless
    ``allow_negative_indices`` is False), then starts are clamped into bounds."""
    if (keys := key_dispatch2(  # random family: key arrays
        lambda k, u: dynamic_update_slice(k, u, start_indices, allow_negative_indices=allow_negative_indices), operand, update
    )) is not None:
        return keys
    x = as_operand(operand, "lax.dynamic_update_slice operand")
    upd = as_operand(update, "lax.dynamic_update_slice update")
    indices = _start_operands("dynamic_update_slice", x, start_indices, allow_negative_indices)
    return bind1(_DYNAMIC_UPDATE_SLICE, x, upd, *indices)
