"""Gather and scatter primitives (layer L4), with XLA's semantics as JAX
exposes them.

``index_vector_dim`` is always the last axis of the indices, as in JAX.
Out-of-bounds indices follow :class:`GatherScatterMode`: ``CLIP`` clamps each
start index so that the whole window is in bounds; ``FILL_OR_DROP`` fills a
gathered window that is not entirely in bounds with ``fill_value`` and drops
such a scattered window entirely; ``PROMISE_IN_BOUNDS`` behaves like XLA
(gathers clamp, scatters drop). Batching dimensions
(``operand_batching_dims``) pair an operand axis with an indices axis, so
each index row only addresses its own slice of the operand.

Evaluation is vectorised on NumPy: one advanced-indexing read (gather) or
one ``ufunc.at`` / assignment (scatter) over all windows at once. Repeated
indices in ``scatter`` (replace) write in index order, last one wins; XLA
leaves the order unspecified.
"""

import dataclasses
import enum
from abc import abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, final

import numpy as np
from typing_extensions import override

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.array_impl import is_python_scalar
from jaxtyped._src.core.avals import BatchAxis, BatchDim, ShapedArray, UndefinedPrimal, Zero
from jaxtyped._src.core.hlo import HloValue, LoweringContext, i64_array
from jaxtyped._src.core.interpreter import bind1
from jaxtyped._src.core.primitive import HostValue, LinearArg, NDArray, Primitive, Tangent
from jaxtyped._src.errors import (
    ConcretizationTypeError,
    DTypeMismatchError,
    JaxtypedTypeError,
    JaxtypedValueError,
    MissingRuleError,
    TracerArrayConversionError,
)
from jaxtyped._src.lax.arithmetic import add, div, mul, neg, sub
from jaxtyped._src.lax.comparison import eq, gt, lt
from jaxtyped._src.lax.reductions import reduce_max
from jaxtyped._src.lax.elementwise_base import convert_buffer, convert_to
from jaxtyped._src.lax.structural import (
    bdim_to_front,
    broadcast_in_dim,
    broadcasted_iota,
    instantiate,
    moveaxis,
    reshape,
    select_n,
    zeros,
)
from jaxtyped._src.lax.util import check_int_tuple, as_operand, same_kind, scalar_like, short_types
from jaxtyped._src.util import prod

__all__ = [
    "GatherScatterMode",
    "GatherDimensionNumbers",
    "ScatterDimensionNumbers",
    "Gather",
    "ScatterBase",
    "Scatter",
    "ScatterAdd",
    "ScatterSub",
    "ScatterMul",
    "ScatterMin",
    "ScatterMax",
    "gather",
    "scatter",
    "scatter_add",
    "scatter_sub",
    "scatter_mul",
    "scatter_min",
    "scatter_max",
    "scatter_apply",
    "apply_where_counted",
]

# A static fill value for out-of-bounds gathers.
FillValue = bool | int | float | complex | None


class GatherScatterMode(enum.Enum):
    """How gather and scatter treat out-of-bounds indices (JAX's enum)."""

    CLIP = enum.auto()
    FILL_OR_DROP = enum.auto()
    PROMISE_IN_BOUNDS = enum.auto()

    @staticmethod
    def from_any(s: "str | GatherScatterMode | None") -> "GatherScatterMode":
        """Parse ``'clip'``, ``'fill'``/``'drop'`` (also ``None``) or
        ``'promise_in_bounds'``, as JAX does."""
        if isinstance(s, GatherScatterMode):
            return s
        if s == "clip":
            return GatherScatterMode.CLIP
        if s is None or s in ("fill", "drop"):
            return GatherScatterMode.FILL_OR_DROP
        if s == "promise_in_bounds":
            return GatherScatterMode.PROMISE_IN_BOUNDS
        raise JaxtypedValueError(f'Unknown gather mode "{s}"')


@final
@dataclass(frozen=True, slots=True)
class GatherDimensionNumbers:
    """How operand, start indices and output axes relate in a gather.

    ``offset_dims``: output axes holding the window (sorted);
    ``collapsed_slice_dims``: operand axes of window size 1 left out of the
    output; ``start_index_map``: the operand axis each index component
    addresses; ``operand_batching_dims`` / ``start_indices_batching_dims``:
    paired axes along which index rows and operand slices correspond.
    """

    offset_dims: tuple[int, ...]
    collapsed_slice_dims: tuple[int, ...]
    start_index_map: tuple[int, ...]
    operand_batching_dims: tuple[int, ...] = ()
    start_indices_batching_dims: tuple[int, ...] = ()


@final
@dataclass(frozen=True, slots=True)
class ScatterDimensionNumbers:
    """How operand, scatter indices and updates axes relate in a scatter.

    ``update_window_dims``: updates axes holding the window (sorted);
    ``inserted_window_dims``: operand axes of window size 1 absent from the
    updates; ``scatter_dims_to_operand_dims``: the operand axis each index
    component addresses; ``operand_batching_dims`` /
    ``scatter_indices_batching_dims``: paired batching axes.
    """

    update_window_dims: tuple[int, ...]
    inserted_window_dims: tuple[int, ...]
    scatter_dims_to_operand_dims: tuple[int, ...]
    operand_batching_dims: tuple[int, ...] = ()
    scatter_indices_batching_dims: tuple[int, ...] = ()


def _plus(dims: tuple[int, ...], k: int = 1) -> tuple[int, ...]:
    return tuple(d + k for d in dims)


# === validation shared by gather and scatter ===


def _check_dims(where: str, label: str, dims: tuple[int, ...], bound: int, *, ordered: bool = True) -> None:
    if ordered and list(dims) != sorted(dims):
        raise JaxtypedTypeError(f"{where}: {label} must be sorted, got {dims}")
    if len(set(dims)) != len(dims):
        raise JaxtypedTypeError(f"{where}: {label} has repeated dimensions, got {dims}")
    if any(not 0 <= d < bound for d in dims):
        raise JaxtypedTypeError(f"{where}: {label} {dims} out of range [0, {bound})")


def _check_disjoint(where: str, label_a: str, a: tuple[int, ...], label_b: str, b: tuple[int, ...]) -> None:
    if set(a) & set(b):
        raise JaxtypedTypeError(f"{where}: {label_a} {a} and {label_b} {b} must be disjoint")


def _check_indices(where: str, indices: ShapedArray) -> None:
    if not dtypes.is_integer(indices.dtype):
        raise JaxtypedTypeError(f"{where}: indices must have an integer dtype, got {indices.str_short()}")
    if indices.ndim < 1:
        raise JaxtypedTypeError(
            f"{where}: indices need at least one axis (the last one is the index vector), got {indices.str_short()}"
        )


def _check_index_map(where: str, label: str, index_map: tuple[int, ...], x: ShapedArray, indices: ShapedArray) -> None:
    if len(index_map) != indices.shape[-1]:
        raise JaxtypedTypeError(
            f"{where}: {label} has {len(index_map)} entries but the index vector (last axis "
            f"of indices) has size {indices.shape[-1]}; these must be equal"
        )
    _check_dims(where, label, index_map, x.ndim, ordered=False)


def _check_batching(
    where: str, labels: tuple[str, str], dims: tuple[tuple[int, ...], tuple[int, ...]],
    x: ShapedArray, indices: ShapedArray,
) -> None:
    """Operand and indices batching dims: valid, paired, of equal sizes."""
    operand_dims, index_dims = dims
    _check_dims(where, labels[0], operand_dims, x.ndim)
    _check_dims(where, labels[1], index_dims, indices.ndim - 1, ordered=False)
    if len(operand_dims) != len(index_dims):
        raise JaxtypedTypeError(f"{where}: {labels[0]} and {labels[1]} must have the same length")
    operand_sizes = tuple(x.shape[d] for d in operand_dims)
    index_sizes = tuple(indices.shape[d] for d in index_dims)
    if operand_sizes != index_sizes:
        raise JaxtypedTypeError(
            f"{where}: operand batching dimensions have sizes {operand_sizes} but indices "
            f"batching dimensions have sizes {index_sizes}"
        )


# === evaluation helpers shared by gather and scatter ===


def _starts(
    idx: NDArray, ndim: int, index_map: tuple[int, ...], batching: tuple[tuple[int, ...], tuple[int, ...]]
) -> NDArray:
    """One row of operand start coordinates per index vector: ``(n, ndim)``."""
    batch_shape = idx.shape[:-1]
    n = prod(batch_shape)
    flat = idx.reshape(n, idx.shape[-1])
    if flat.dtype == np.uint64:
        flat = np.minimum(flat, np.uint64(np.iinfo(np.int64).max))
    starts = np.zeros((n, ndim), np.int64)
    starts[:, list(index_map)] = flat.astype(np.int64)
    operand_dims, index_dims = batching
    if operand_dims:
        coords = np.unravel_index(np.arange(n), batch_shape)
        for od, idim in zip(operand_dims, index_dims):
            starts[:, od] = coords[idim]
    return starts


def _in_bounds(starts: NDArray, upper: NDArray, index_map: tuple[int, ...]) -> NDArray:
    """Rows whose window lies entirely in bounds along the indexed axes."""
    cols = list(index_map)
    ok: NDArray = np.all((starts[:, cols] >= 0) & (starts[:, cols] <= upper[cols]), axis=1)
    return ok


def _window_index(starts: NDArray, sizes: Sequence[int]) -> tuple[NDArray, ...]:
    """Advanced-index arrays, broadcasting to ``(n, *sizes)``, that address
    every window element."""
    ndim, n = len(sizes), starts.shape[0]
    index: list[NDArray] = []
    for d, size in enumerate(sizes):
        offsets = np.arange(size).reshape((1,) + (1,) * d + (size,) + (1,) * (ndim - d - 1))
        index.append(starts[:, d].reshape((n,) + (1,) * ndim) + offsets)
    return tuple(index)


def _default_fill(dtype: np.dtype[Any]) -> bool | int | float:
    """JAX's fill for out-of-bounds gathers: NaN, the most negative signed
    integer, the largest unsigned integer, or True."""
    if dtypes.is_inexact(dtype):
        return float("nan")
    if dtypes.is_signed_integer(dtype):
        return int(np.iinfo(dtype).min)
    if dtypes.is_unsigned_integer(dtype):
        return int(np.iinfo(dtype).max)
    return True


# === lowering helpers shared by gather and scatter ===


def _dims_attr(fields: Sequence[tuple[str, tuple[int, ...]]], index_vector_dim: int) -> str:
    """The body of a ``#stablehlo.gather<...>`` / ``#stablehlo.scatter<...>``
    attribute; empty lists are left out, as MLIR's printer does."""
    parts = [f"{name} = [{', '.join(str(d) for d in dims)}]" for name, dims in fields if dims]
    return ", ".join([*parts, f"index_vector_dim = {index_vector_dim}"])


def _bool_attr(value: bool) -> str:
    return "true" if value else "false"


class _LoweredIndices:
    """Gather/scatter indices prepared for XLA: converted to one signed
    type wide enough for the bounds, with the per-component upper bound
    (``operand size - window size`` of the addressed axis) at hand.

    Unsigned indices are first capped at ``upper + 1`` in their own dtype,
    so the conversion cannot wrap and an out-of-bounds index stays out of
    bounds; narrow signed ones are widened, so that bounds past their range
    (``int8`` indices into an axis of 300) are representable.
    """

    def __init__(self, ctx: LoweringContext, idx: HloValue, upper: Sequence[int]) -> None:
        self.ctx = ctx
        dtype = idx.aval.dtype
        limit = max(upper, default=0) + 1
        narrow = dtypes.is_unsigned_integer(dtype) or dtype.itemsize <= 4
        self.dtype = np.dtype(np.int32) if narrow and limit <= np.iinfo(np.int32).max else np.dtype(np.int64)
        if dtypes.is_unsigned_integer(dtype) and upper:
            cap = [min(u + 1, int(np.iinfo(dtype).max)) for u in upper]
            idx = ctx.op1("stablehlo.minimum", (idx, self._per_component(cap, dtype, idx.aval.shape)), idx.aval)
        self.value = ctx.convert(idx, self.dtype)
        self.upper = upper

    def _per_component(self, values: Sequence[int], dtype: np.dtype[Any], shape: tuple[int, ...]) -> HloValue:
        """``values`` along the index vector (last) axis, broadcast to ``shape``."""
        vector = self.ctx.constant(np.asarray(values, dtype), ShapedArray((len(values),), dtype))
        return self.ctx.broadcast_in_dim(vector, shape, (len(shape) - 1,))

    def clamped(self) -> HloValue:
        """The indices clamped into ``[0, upper]``: every window in bounds."""
        if not self.upper:
            return self.value
        shape = self.value.aval.shape
        upper = self._per_component(self.upper, self.dtype, shape)
        return self.ctx.op1("stablehlo.clamp", (self.ctx.scalar(0, self.dtype), self.value, upper), self.value.aval)

    def in_bounds(self) -> HloValue:
        """Per index vector: is the whole window in bounds (batch shape)?"""
        ctx, value = self.ctx, self.value
        shape = value.aval.shape
        bool_ = np.dtype(np.bool_)
        if not self.upper:
            return ctx.constant(True, ShapedArray(shape[:-1], bool_))
        low = ctx.compare(value, ctx.full_like(0, value), "GE")
        high = ctx.compare(value, self._per_component(self.upper, self.dtype, shape), "LE")
        ok = ctx.op1("stablehlo.and", (low, high), low.aval)
        scalar = ShapedArray((), bool_)
        with ctx.region((scalar, scalar)) as (block, text):
            ctx.ret([ctx.op1("stablehlo.and", block, scalar)])
        return ctx.op1(
            "stablehlo.reduce", (ok, ctx.scalar(True, bool_)), ShapedArray(shape[:-1], bool_),
            {"dimensions": i64_array((len(shape) - 1,))}, regions=[text[0]],
        )


# === gather ===


@final
@dataclass(frozen=True, slots=True)
class Gather(Primitive):
    """Windows of ``slice_sizes`` of the operand at the start indices.

    Operands ``(operand, start_indices)``; ``fill_value`` is used only by
    ``FILL_OR_DROP``, and ``None`` means JAX's default (NaN, the most negative
    signed or largest unsigned integer, True).
    """

    dimension_numbers: GatherDimensionNumbers
    slice_sizes: tuple[int, ...]
    indices_are_sorted: bool = False
    unique_indices: bool = False
    mode: GatherScatterMode = GatherScatterMode.PROMISE_IN_BOUNDS
    fill_value: FillValue = None
    name = "gather"

    def _where(self, avals: tuple[ShapedArray, ...]) -> str:
        return (
            f"gather with dimension_numbers={self.dimension_numbers}, "
            f"slice_sizes={self.slice_sizes} on ({short_types(avals)})"
        )

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        if len(avals) != 2:
            raise JaxtypedTypeError(f"gather takes 2 operands (operand, start_indices), got ({short_types(avals)})")
        x, indices = avals
        where = self._where(avals)
        _check_indices(where, indices)
        dn = self.dimension_numbers
        out_rank = len(dn.offset_dims) + indices.ndim - 1
        _check_dims(where, "offset_dims", dn.offset_dims, out_rank)
        _check_index_map(where, "start_index_map", dn.start_index_map, x, indices)
        _check_dims(where, "collapsed_slice_dims", dn.collapsed_slice_dims, x.ndim)
        _check_batching(
            where, ("operand_batching_dims", "start_indices_batching_dims"),
            (dn.operand_batching_dims, dn.start_indices_batching_dims), x, indices,
        )
        _check_disjoint(where, "collapsed_slice_dims", dn.collapsed_slice_dims, "operand_batching_dims", dn.operand_batching_dims)
        _check_disjoint(where, "start_index_map", dn.start_index_map, "operand_batching_dims", dn.operand_batching_dims)
        self._check_slice_sizes(where, x)
        return (ShapedArray(self._out_shape(indices), x.dtype, x.weak_type),)

    def _check_slice_sizes(self, where: str, x: ShapedArray) -> None:
        dn, sizes = self.dimension_numbers, self.slice_sizes
        if len(sizes) != x.ndim:
            raise JaxtypedTypeError(f"{where}: needs one slice size per operand axis")
        if len(dn.offset_dims) + len(dn.collapsed_slice_dims) + len(dn.operand_batching_dims) != x.ndim:
            raise JaxtypedTypeError(
                f"{where}: every operand axis must be an offset, collapsed or batching "
                "dimension (len(offset_dims) + len(collapsed_slice_dims) + "
                "len(operand_batching_dims) must equal the operand's rank)"
            )
        if any(not 0 <= s <= d for s, d in zip(sizes, x.shape)):
            raise JaxtypedTypeError(f"{where}: slice sizes must be within [0, operand size]")
        if any(sizes[d] != 1 for d in dn.collapsed_slice_dims):
            raise JaxtypedTypeError(f"{where}: collapsed_slice_dims must have slice size 1")
        if any(sizes[d] > 1 for d in dn.operand_batching_dims):
            raise JaxtypedTypeError(f"{where}: operand_batching_dims must have slice size 0 or 1")

    def _offset_sizes(self) -> tuple[int, ...]:
        dn = self.dimension_numbers
        dropped = set(dn.collapsed_slice_dims) | set(dn.operand_batching_dims)
        return tuple(s for d, s in enumerate(self.slice_sizes) if d not in dropped)

    def _out_shape(self, indices: ShapedArray) -> tuple[int, ...]:
        offset_dims = self.dimension_numbers.offset_dims
        batch = iter(indices.shape[:-1])
        offsets = iter(self._offset_sizes())
        rank = len(offset_dims) + indices.ndim - 1
        return tuple(next(offsets) if p in offset_dims else next(batch) for p in range(rank))

    @override
    def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
        x, idx = args
        dn = self.dimension_numbers
        batching = (dn.operand_batching_dims, dn.start_indices_batching_dims)
        starts = _starts(idx, x.ndim, dn.start_index_map, batching)
        upper = np.array(x.shape, np.int64) - np.array(self.slice_sizes, np.int64)
        clamped = np.clip(starts, 0, upper)
        n = starts.shape[0]
        windows = np.broadcast_to(x[_window_index(clamped, self.slice_sizes)], (n, *self.slice_sizes))
        windows = windows.reshape((n, *self._offset_sizes()))
        if self.mode == GatherScatterMode.FILL_OR_DROP:
            fill = self._fill_buffer(x.dtype)
            valid = _in_bounds(starts, upper, dn.start_index_map)
            windows = np.where(valid.reshape((n,) + (1,) * (windows.ndim - 1)), windows, fill)
        return (_place_offsets(windows, idx.shape[:-1], dn.offset_dims),)

    @override
    def lower(self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[HloValue, ...]:
        x, idx = args
        (out,) = out_avals
        dn = self.dimension_numbers
        shape = x.aval.shape
        upper = [shape[d] - self.slice_sizes[d] for d in dn.start_index_map]
        indices = _LoweredIndices(ctx, idx, upper)
        # XLA's gather clamps start indices itself (PROMISE_IN_BOUNDS); CLIP
        # says so explicitly, FILL_OR_DROP gathers in bounds and then masks.
        starts = indices.value if self.mode == GatherScatterMode.PROMISE_IN_BOUNDS else indices.clamped()
        fields = (
            ("offset_dims", dn.offset_dims),
            ("collapsed_slice_dims", dn.collapsed_slice_dims),
            ("operand_batching_dims", dn.operand_batching_dims),
            ("start_indices_batching_dims", dn.start_indices_batching_dims),
            ("start_index_map", dn.start_index_map),
        )
        attrs = {
            "dimension_numbers": f"#stablehlo.gather<{_dims_attr(fields, idx.aval.ndim - 1)}>",
            "slice_sizes": i64_array(self.slice_sizes),
            "indices_are_sorted": _bool_attr(self.indices_are_sorted),
        }
        gathered = ctx.op1("stablehlo.gather", (x, starts), out, attrs)
        if self.mode != GatherScatterMode.FILL_OR_DROP:
            return (gathered,)
        batch_axes = tuple(d for d in range(out.ndim) if d not in dn.offset_dims)
        mask = ctx.broadcast_in_dim(indices.in_bounds(), out.shape, batch_axes)
        fill = ctx.broadcast_to(ctx.scalar(self._fill_buffer(x.aval.dtype), x.aval.dtype), out.shape)
        return (ctx.select(mask, gathered, fill),)

    def _fill_buffer(self, dtype: np.dtype[Any]) -> NDArray:
        value = _default_fill(dtype) if self.fill_value is None else self.fill_value
        with np.errstate(all="ignore"):  # a 1-element buffer: NumPy keeps it an array
            return convert_buffer(np.asarray([value]), dtype).reshape(())

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        x, idx = primals
        out = bind1(self, x, idx)
        t = tangents[0]
        if isinstance(t, Zero) or not dtypes.is_inexact(x.dtype):
            return (out,), (Zero(out.aval.to_tangent_aval()),)
        # Linear in the operand; filled windows have zero derivative.
        fill = 0 if self.mode == GatherScatterMode.FILL_OR_DROP else None
        return (out,), (bind1(dataclasses.replace(self, fill_value=fill), t, idx),)

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        # Scatter-add the windows back into zeros, in the gather's own mode,
        # as JAX does: clamped windows (CLIP) stay clamped, filled ones
        # (FILL_OR_DROP) were not read and are dropped. PROMISE_IN_BOUNDS
        # makes a scatter that drops out-of-bounds windows (XLA's
        # semantics), so an out-of-bounds read gets no gradient, as in JAX.
        (ct,), (x, idx) = cts, args
        assert not isinstance(ct, Zero) and isinstance(x, UndefinedPrimal)
        assert not isinstance(idx, UndefinedPrimal)
        dn = self.dimension_numbers
        scatter_dn = ScatterDimensionNumbers(
            dn.offset_dims, dn.collapsed_slice_dims, dn.start_index_map,
            dn.operand_batching_dims, dn.start_indices_batching_dims,
        )
        prim = ScatterAdd(scatter_dn, self.indices_are_sorted, self.unique_indices, self.mode)
        return (bind1(prim, zeros(x.aval.to_tangent_aval()), idx, ct), None)

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        x, idx = args
        x_dim, idx_dim = dims
        dn = self.dimension_numbers
        if idx_dim is None:
            # The batch axis becomes a full-size window axis, output axis 0.
            x = bdim_to_front(x, x_dim, axis.size)
            new = GatherDimensionNumbers(
                (0, *_plus(dn.offset_dims)), _plus(dn.collapsed_slice_dims), _plus(dn.start_index_map),
                _plus(dn.operand_batching_dims), dn.start_indices_batching_dims,
            )
            prim = dataclasses.replace(self, dimension_numbers=new, slice_sizes=(axis.size, *self.slice_sizes))
            return (bind1(prim, x, idx),), (0,)
        idx = moveaxis(idx, idx_dim, 0)
        if x_dim is None:
            # A leading batch axis of the indices, output axis 0.
            new = dataclasses.replace(
                dn, offset_dims=_plus(dn.offset_dims),
                start_indices_batching_dims=_plus(dn.start_indices_batching_dims),
            )
            prim = dataclasses.replace(self, dimension_numbers=new, indices_are_sorted=False, unique_indices=False)
            return (bind1(prim, x, idx),), (0,)
        # Both batched: pair the two batch axes as batching dimensions.
        x = moveaxis(x, x_dim, 0)
        new = GatherDimensionNumbers(
            _plus(dn.offset_dims), _plus(dn.collapsed_slice_dims), _plus(dn.start_index_map),
            (0, *_plus(dn.operand_batching_dims)), (0, *_plus(dn.start_indices_batching_dims)),
        )
        sizes = (min(axis.size, 1), *self.slice_sizes)
        prim = dataclasses.replace(self, dimension_numbers=new, slice_sizes=sizes)
        return (bind1(prim, x, idx),), (0,)


def _place_offsets(windows: NDArray, batch_shape: tuple[int, ...], offset_dims: tuple[int, ...]) -> NDArray:
    """``(n, *offsets)`` windows laid out as the gather output: index batch
    axes in order, window axes at ``offset_dims``."""
    nb = len(batch_shape)
    out = windows.reshape(batch_shape + windows.shape[1:])
    batch_axes = iter(range(nb))
    perm = [nb + offset_dims.index(p) if p in offset_dims else next(batch_axes) for p in range(out.ndim)]
    return np.transpose(out, perm)


def _parse_fill(fill_value: FillValue, mode: GatherScatterMode, dtype: np.dtype[Any]) -> FillValue:
    """The static fill value: None unless FILL_OR_DROP; JAX's default NaN
    is stored as None so that equal gathers compare equal."""
    if mode != GatherScatterMode.FILL_OR_DROP or fill_value is None:
        return None
    if isinstance(fill_value, float) and np.isnan(fill_value) and dtypes.is_inexact(dtype):
        return None
    return fill_value


def _gather_dnums(dn: GatherDimensionNumbers) -> GatherDimensionNumbers:
    f = "lax.gather"
    return GatherDimensionNumbers(
        check_int_tuple(f, "offset_dims", dn.offset_dims),
        check_int_tuple(f, "collapsed_slice_dims", dn.collapsed_slice_dims),
        check_int_tuple(f, "start_index_map", dn.start_index_map),
        check_int_tuple(f, "operand_batching_dims", dn.operand_batching_dims),
        check_int_tuple(f, "start_indices_batching_dims", dn.start_indices_batching_dims),
    )


def gather(
    operand: ArrayLike,
    start_indices: ArrayLike,
    dimension_numbers: GatherDimensionNumbers,
    slice_sizes: Sequence[int],
    *,
    unique_indices: bool = False,
    indices_are_sorted: bool = False,
    mode: str | GatherScatterMode | None = None,
    fill_value: FillValue = None,
) -> Array:
    """Gather windows of ``operand`` (JAX's ``lax.gather``). ``mode=None``
    is ``PROMISE_IN_BOUNDS`` (clamping), as in JAX; ``fill_value`` is used by
    ``'fill'`` only and defaults to NaN / the integer extreme / True."""
    x = as_operand(operand, "lax.gather operand")
    idx = as_operand(start_indices, "lax.gather start_indices")
    parsed = GatherScatterMode.PROMISE_IN_BOUNDS if mode is None else GatherScatterMode.from_any(mode)
    prim = Gather(
        _gather_dnums(dimension_numbers),
        check_int_tuple("lax.gather", "slice_sizes", slice_sizes),
        bool(indices_are_sorted),
        bool(unique_indices),
        parsed,
        _parse_fill(fill_value, parsed, x.dtype),
    )
    return bind1(prim, x, idx)


# === scatter ===


@dataclass(frozen=True, slots=True)
class ScatterBase(Primitive):
    """The scatter family: ``operand`` with ``updates`` combined into the
    windows at the scatter indices. Operands ``(operand, scatter_indices,
    updates)``; subclasses say how an update combines (``combine``)."""

    dimension_numbers: ScatterDimensionNumbers
    indices_are_sorted: bool = False
    unique_indices: bool = False
    mode: GatherScatterMode = GatherScatterMode.FILL_OR_DROP
    accepts_bool: ClassVar[bool] = True

    @abstractmethod
    def combine(self, out: NDArray, index: tuple[NDArray, ...], updates: NDArray) -> None:
        """Combine ``updates`` into ``out[index]`` in place (repeated
        indices apply in order)."""

    @abstractmethod
    def lower_combine(self, ctx: LoweringContext, current: HloValue, update: HloValue) -> HloValue:
        """The scatter region's body: an operand element combined with an
        update element (both 0-d)."""

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        if len(avals) != 3:
            raise JaxtypedTypeError(
                f"{self.name} takes 3 operands (operand, scatter_indices, updates), got ({short_types(avals)})"
            )
        x, indices, updates = avals
        where = f"{self.name} with dimension_numbers={self.dimension_numbers} on ({short_types(avals)})"
        _check_indices(where, indices)
        if updates.dtype != x.dtype:
            raise DTypeMismatchError(f"{where}: updates must have the operand's dtype")
        if not self.accepts_bool and dtypes.is_bool(x.dtype):
            raise JaxtypedTypeError(f"{where}: does not accept dtype bool")
        dn = self.dimension_numbers
        _check_index_map(where, "scatter_dims_to_operand_dims", dn.scatter_dims_to_operand_dims, x, indices)
        _check_dims(where, "inserted_window_dims", dn.inserted_window_dims, x.ndim)
        _check_batching(
            where, ("operand_batching_dims", "scatter_indices_batching_dims"),
            (dn.operand_batching_dims, dn.scatter_indices_batching_dims), x, indices,
        )
        _check_disjoint(where, "inserted_window_dims", dn.inserted_window_dims, "operand_batching_dims", dn.operand_batching_dims)
        _check_disjoint(where, "scatter_dims_to_operand_dims", dn.scatter_dims_to_operand_dims, "operand_batching_dims", dn.operand_batching_dims)
        _check_updates(where, dn, x, indices, updates)
        return (x,)

    @override
    def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
        x, idx, updates = args
        dn = self.dimension_numbers
        window = _scatter_window(dn, x.shape, updates.shape)
        batching = (dn.operand_batching_dims, dn.scatter_indices_batching_dims)
        starts = _starts(idx, x.ndim, dn.scatter_dims_to_operand_dims, batching)
        upper = np.array(x.shape, np.int64) - np.array(window, np.int64)
        values = _updates_by_row(updates, dn.update_window_dims, starts.shape[0], window)
        if self.mode == GatherScatterMode.CLIP:
            starts = np.clip(starts, 0, upper)
        else:  # FILL_OR_DROP and PROMISE_IN_BOUNDS drop partly out-of-bounds windows, as XLA
            keep = _in_bounds(starts, upper, dn.scatter_dims_to_operand_dims)
            starts, values = starts[keep], values[keep]
        out = x.copy()
        flat = out.reshape(x.shape or (1,))
        index = _window_index(starts, window) if x.ndim else (np.zeros(starts.shape[0], np.intp),)
        self.combine(flat, index, values)
        return (out,)

    @override
    def lower(self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[HloValue, ...]:
        x, idx, updates = args
        dn = self.dimension_numbers
        shape = x.aval.shape
        window = _scatter_window(dn, shape, updates.aval.shape)
        indices = _LoweredIndices(ctx, idx, [shape[d] - window[d] for d in dn.scatter_dims_to_operand_dims])
        # XLA's scatter drops windows not entirely in bounds (FILL_OR_DROP,
        # PROMISE_IN_BOUNDS); CLIP moves them in bounds first.
        starts = indices.clamped() if self.mode == GatherScatterMode.CLIP else indices.value
        scalar = ShapedArray((), x.aval.dtype)
        with ctx.region((scalar, scalar)) as (block, text):
            ctx.ret([self.lower_combine(ctx, block[0], block[1])])
        fields = (
            ("update_window_dims", dn.update_window_dims),
            ("inserted_window_dims", dn.inserted_window_dims),
            ("input_batching_dims", dn.operand_batching_dims),
            ("scatter_indices_batching_dims", dn.scatter_indices_batching_dims),
            ("scatter_dims_to_operand_dims", dn.scatter_dims_to_operand_dims),
        )
        attrs = {
            "scatter_dimension_numbers": f"#stablehlo.scatter<{_dims_attr(fields, idx.aval.ndim - 1)}>",
            "indices_are_sorted": _bool_attr(self.indices_are_sorted),
            "unique_indices": _bool_attr(self.unique_indices),
        }
        return (ctx.op1("stablehlo.scatter", (x, starts, updates), out_avals[0], attrs, regions=[text[0]]),)

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        x_, idx, updates_ = args
        x = bdim_to_front(x_, dims[0], axis.size)
        updates = bdim_to_front(updates_, dims[2], axis.size)
        dn = self.dimension_numbers
        if dims[1] is None:
            # The batch axis is a full-size window axis of the updates.
            new = ScatterDimensionNumbers(
                (0, *_plus(dn.update_window_dims)), _plus(dn.inserted_window_dims),
                _plus(dn.scatter_dims_to_operand_dims), _plus(dn.operand_batching_dims),
                dn.scatter_indices_batching_dims,
            )
            return (bind1(dataclasses.replace(self, dimension_numbers=new), x, idx, updates),), (0,)
        idx = moveaxis(idx, dims[1], 0)
        new = ScatterDimensionNumbers(
            _plus(dn.update_window_dims), _plus(dn.inserted_window_dims), _plus(dn.scatter_dims_to_operand_dims),
            (0, *_plus(dn.operand_batching_dims)), (0, *_plus(dn.scatter_indices_batching_dims)),
        )
        return (bind1(dataclasses.replace(self, dimension_numbers=new), x, idx, updates),), (0,)


def _gather_dnums_of(dn: ScatterDimensionNumbers) -> GatherDimensionNumbers:
    """The gather that reads back the windows a scatter with ``dn`` writes."""
    return GatherDimensionNumbers(
        dn.update_window_dims, dn.inserted_window_dims, dn.scatter_dims_to_operand_dims,
        dn.operand_batching_dims, dn.scatter_indices_batching_dims,
    )


def _scatter_add_like(prim: ScatterBase) -> "ScatterAdd":
    """A scatter-add with ``prim``'s dimension numbers, flags and mode."""
    return ScatterAdd(prim.dimension_numbers, prim.indices_are_sorted, prim.unique_indices, prim.mode)


def _no_tangent(x: Array, tangents: tuple[Tangent, ...]) -> bool:
    """A scatter's output has a zero tangent: neither operand nor updates
    carry one, or the dtype is not differentiable."""
    return (isinstance(tangents[0], Zero) and isinstance(tangents[2], Zero)) or not dtypes.is_inexact(x.dtype)


def _gather_updates(prim: ScatterBase, ct: Array, idx: Array, updates: ShapedArray) -> Array:
    """The cotangent of a scatter's updates: the windows of ``ct`` the
    updates were written to (a gather; windows the scatter dropped, which
    touched nothing, get zeros)."""
    dn = prim.dimension_numbers
    window = _scatter_window(dn, ct.shape, updates.shape)
    clip = prim.mode == GatherScatterMode.CLIP
    mode = GatherScatterMode.CLIP if clip else GatherScatterMode.FILL_OR_DROP
    gathered = Gather(_gather_dnums_of(dn), window, prim.indices_are_sorted, prim.unique_indices, mode, None if clip else 0)
    return bind1(gathered, ct, idx)


def _scatter_window(dn: ScatterDimensionNumbers, shape: tuple[int, ...], updates_shape: tuple[int, ...]) -> tuple[int, ...]:
    """The window size along every operand axis (1 for inserted and
    batching axes)."""
    sizes = iter(updates_shape[d] for d in dn.update_window_dims)
    absent = set(dn.inserted_window_dims) | set(dn.operand_batching_dims)
    return tuple(1 if d in absent else next(sizes) for d in range(len(shape)))


def _updates_by_row(updates: NDArray, window_dims: tuple[int, ...], n: int, window: tuple[int, ...]) -> NDArray:
    """Updates as ``(n, *window)``: scatter axes first, flattened."""
    scatter_axes = [d for d in range(updates.ndim) if d not in window_dims]
    return np.transpose(updates, scatter_axes + list(window_dims)).reshape((n, *window))


def _check_updates(
    where: str, dn: ScatterDimensionNumbers, x: ShapedArray, indices: ShapedArray, updates: ShapedArray
) -> None:
    """Window and scatter axes of the updates against operand and indices."""
    expected_rank = indices.ndim - 1 + len(dn.update_window_dims)
    if updates.ndim != expected_rank:
        raise JaxtypedTypeError(f"{where}: updates must have rank {expected_rank}")
    _check_dims(where, "update_window_dims", dn.update_window_dims, updates.ndim)
    if len(dn.update_window_dims) + len(dn.inserted_window_dims) + len(dn.operand_batching_dims) != x.ndim:
        raise JaxtypedTypeError(
            f"{where}: every operand axis must be a window, inserted or batching dimension "
            "(len(update_window_dims) + len(inserted_window_dims) + len(operand_batching_dims) "
            "must equal the operand's rank)"
        )
    window = _scatter_window(dn, x.shape, updates.shape)
    if any(w > d for w, d in zip(window, x.shape)):
        raise JaxtypedTypeError(f"{where}: update windows {window} do not fit the operand")
    scatter_sizes = tuple(s for d, s in enumerate(updates.shape) if d not in dn.update_window_dims)
    if scatter_sizes != indices.shape[:-1]:
        raise JaxtypedTypeError(
            f"{where}: the scatter axes of updates have sizes {scatter_sizes} but the "
            f"indices' batch axes have sizes {indices.shape[:-1]}"
        )


@final
@dataclass(frozen=True, slots=True)
class Scatter(ScatterBase):
    """Scatter that replaces operand elements with the updates."""

    name = "scatter"

    @override
    def combine(self, out: NDArray, index: tuple[NDArray, ...], updates: NDArray) -> None:
        out[index] = updates

    @override
    def lower_combine(self, ctx: LoweringContext, current: HloValue, update: HloValue) -> HloValue:
        return update

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        x, idx, _ = primals
        t_x, t_updates = tangents[0], tangents[2]
        if _no_tangent(x, tangents):
            out = bind1(self, *primals)
            return (out,), (Zero(out.aval.to_tangent_aval()),)
        if self.unique_indices:
            return (bind1(self, *primals),), (bind1(self, instantiate(t_x), idx, instantiate(t_updates)),)
        return _scatter_jvp_by_ids(self, primals, (instantiate(t_x), instantiate(t_updates)))

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        # JAX's rule, valid for unique indices (the only scatters the jvp
        # rule applies to tangents): the operand's cotangent is ct with the
        # overwritten positions zeroed, the updates' is those positions.
        (ct,), (x, idx, updates) = cts, args
        assert not isinstance(ct, Zero) and not isinstance(idx, UndefinedPrimal)
        if not self.unique_indices:
            raise MissingRuleError("grad needs a transpose rule for primitive 'scatter' with unique_indices=False")
        ct_x: Array | None = None
        if isinstance(x, UndefinedPrimal):
            ct_x = bind1(self, ct, idx, zeros(updates.aval.to_tangent_aval()))
        ct_updates = _gather_updates(self, ct, idx, updates.aval) if isinstance(updates, UndefinedPrimal) else None
        return (ct_x, None, ct_updates)


def _scatter_jvp_by_ids(
    prim: Scatter, primals: tuple[Array, ...], tangents: tuple[Array, Array]
) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
    """JAX's jvp of a scatter whose indices may repeat: scatter a positive id
    per index row to learn which update wins each element, gather the ids
    back, and express primal and tangent as scatter-adds of the winners."""
    x, idx, updates = primals
    dn = prim.dimension_numbers
    int32 = np.dtype(np.int32)
    scatter_axes = tuple(d for d in range(updates.ndim) if d not in dn.update_window_dims)
    rows = tuple(updates.shape[d] for d in scatter_axes)
    row_ids = add(broadcasted_iota(int32, (prod(rows),), 0), scalar_like(1, int32, "scatter ids"))
    ids = broadcast_in_dim(reshape(row_ids, rows), updates.shape, scatter_axes)
    ids_prim = Scatter(dn, prim.indices_are_sorted, prim.unique_indices, prim.mode)
    scattered = bind1(ids_prim, zeros(ShapedArray(x.shape, int32)), idx, ids)
    window = _scatter_window(dn, x.shape, updates.shape)
    gathered = bind1(Gather(_gather_dnums_of(dn), window, mode=GatherScatterMode.CLIP), scattered, idx)
    untouched = eq(scattered, scalar_like(0, int32, "scatter ids"))
    winner = eq(ids, gathered)
    add_prim = _scatter_add_like(prim)

    def masked(base: Array, values: Array) -> Array:
        kept_base = select_n(untouched, zeros(base.aval.strip_weak_type()), base)
        kept_values = select_n(winner, zeros(values.aval.strip_weak_type()), values)
        return bind1(add_prim, kept_base, idx, kept_values)

    return (masked(x, updates),), (masked(*tangents),)


@dataclass(frozen=True, slots=True)
class _UfuncScatter(ScatterBase):
    """A scatter whose combiner is one NumPy ufunc (applied with ``.at``, so
    repeated indices accumulate) and one StableHLO binary op."""

    ufunc: ClassVar[np.ufunc]
    hlo_op: ClassVar[str]

    @override
    def combine(self, out: NDArray, index: tuple[NDArray, ...], updates: NDArray) -> None:
        self.ufunc.at(out, index, updates)

    @override
    def lower_combine(self, ctx: LoweringContext, current: HloValue, update: HloValue) -> HloValue:
        return ctx.op1(self.hlo_op, (current, update), current.aval)


@dataclass(frozen=True, slots=True)
class _LinearScatter(_UfuncScatter):
    """``scatter-add`` / ``scatter-sub``: linear in operand and updates; the
    updates' cotangent is the gathered windows, negated for subtraction."""

    accepts_bool = False
    negates_updates: ClassVar[bool]

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        x, idx, _ = primals
        out = bind1(self, *primals)
        if _no_tangent(x, tangents):
            return (out,), (Zero(out.aval.to_tangent_aval()),)
        return (out,), (bind1(self, instantiate(tangents[0]), idx, instantiate(tangents[2])),)

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        (ct,), (x, idx, updates) = cts, args
        assert not isinstance(ct, Zero) and not isinstance(idx, UndefinedPrimal)
        ct_x = ct if isinstance(x, UndefinedPrimal) else None
        ct_updates: Array | None = None
        if isinstance(updates, UndefinedPrimal):
            ct_updates = _gather_updates(self, ct, idx, updates.aval)
            if self.negates_updates:
                ct_updates = neg(ct_updates)
        return (ct_x, None, ct_updates)


@final
@dataclass(frozen=True, slots=True)
class ScatterAdd(_LinearScatter):
    """Scatter that adds the updates to the operand (repeats accumulate)."""

    name = "scatter-add"
    ufunc = np.add
    hlo_op = "stablehlo.add"
    negates_updates = False


def _scatter_dnums(dn: ScatterDimensionNumbers, f: str) -> ScatterDimensionNumbers:
    return ScatterDimensionNumbers(
        check_int_tuple(f, "update_window_dims", dn.update_window_dims),
        check_int_tuple(f, "inserted_window_dims", dn.inserted_window_dims),
        check_int_tuple(f, "scatter_dims_to_operand_dims", dn.scatter_dims_to_operand_dims),
        check_int_tuple(f, "operand_batching_dims", dn.operand_batching_dims),
        check_int_tuple(f, "scatter_indices_batching_dims", dn.scatter_indices_batching_dims),
    )


def _scatter_operands(f: str, operand: ArrayLike, indices: ArrayLike, updates: ArrayLike) -> tuple[Array, Array, Array]:
    x = as_operand(operand, f"{f} operand")
    idx = as_operand(indices, f"{f} scatter_indices")
    upd = as_operand(updates, f"{f} updates")
    if is_python_scalar(updates) and same_kind(upd.dtype, x.dtype):
        upd = scalar_like(updates, x.dtype, f"{f} updates")
    return x, idx, upd


def scatter(
    operand: ArrayLike,
    scatter_indices: ArrayLike,
    updates: ArrayLike,
    dimension_numbers: ScatterDimensionNumbers,
    *,
    indices_are_sorted: bool = False,
    unique_indices: bool = False,
    mode: str | GatherScatterMode | None = None,
) -> Array:
    """``operand`` with windows replaced by ``updates`` (JAX's
    ``lax.scatter``); ``mode=None`` drops out-of-bounds windows."""
    return _bind_scatter(
        "lax.scatter", operand, scatter_indices, updates, dimension_numbers, indices_are_sorted, unique_indices, mode
    )


def scatter_add(
    operand: ArrayLike,
    scatter_indices: ArrayLike,
    updates: ArrayLike,
    dimension_numbers: ScatterDimensionNumbers,
    *,
    indices_are_sorted: bool = False,
    unique_indices: bool = False,
    mode: str | GatherScatterMode | None = None,
) -> Array:
    """``operand`` with ``updates`` added into windows (JAX's
    ``lax.scatter_add``); ``mode=None`` drops out-of-bounds windows."""
    return _bind_scatter(
        "lax.scatter_add", operand, scatter_indices, updates, dimension_numbers, indices_are_sorted, unique_indices, mode
    )


# === the other combiners: subtract, multiply, minimum, maximum ===


def _inverse_gather(prim: ScatterBase, updates: ShapedArray, x_shape: tuple[int, ...]) -> Gather:
    """The gather that reads, at each update element, the operand element it
    lands on (default, clamping mode: JAX's choice in these rules)."""
    dn = prim.dimension_numbers
    window = _scatter_window(dn, x_shape, updates.shape)
    return Gather(_gather_dnums_of(dn), window, prim.indices_are_sorted, prim.unique_indices)


@final
@dataclass(frozen=True, slots=True)
class ScatterSub(_LinearScatter):
    """Scatter that subtracts the updates from the operand (repeats
    accumulate); linear, like ``scatter-add``."""

    name = "scatter-sub"
    ufunc = np.subtract
    hlo_op = "stablehlo.subtract"
    negates_updates = True


@final
@dataclass(frozen=True, slots=True)
class ScatterMul(_UfuncScatter):
    """Scatter that multiplies operand elements by the updates (repeats
    multiply together). Linear in the operand; the derivative in the updates
    exists only with ``unique_indices=True``, as in JAX."""

    name = "scatter-mul"
    accepts_bool = False
    ufunc = np.multiply
    hlo_op = "stablehlo.multiply"

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        x, idx, updates = primals
        out = bind1(self, *primals)
        t_x, t_updates = tangents[0], tangents[2]
        if _no_tangent(x, tangents):
            return (out,), (Zero(out.aval.to_tangent_aval()),)
        tangent: Array | None = None
        if not isinstance(t_x, Zero):
            tangent = bind1(self, t_x, idx, updates)
        if not isinstance(t_updates, Zero):
            if not self.unique_indices:
                raise MissingRuleError("scatter_mul gradients are only implemented if `unique_indices=True`")
            spread = bind1(_scatter_add_like(self), zeros(x.aval.strip_weak_type()), idx, t_updates)
            by_updates = mul(x, spread)
            tangent = by_updates if tangent is None else add(tangent, by_updates)
        assert tangent is not None
        return (out,), (tangent,)

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        # Only the operand is linear here (the jvp rule keeps updates known).
        (ct,), (x, idx, updates) = cts, args
        assert not isinstance(ct, Zero) and not isinstance(idx, UndefinedPrimal)
        if isinstance(updates, UndefinedPrimal):
            raise MissingRuleError("scatter_mul gradients are only implemented if `unique_indices=True`")
        ct_x = bind1(self, ct, idx, updates) if isinstance(x, UndefinedPrimal) else None
        return (ct_x, None, None)


@dataclass(frozen=True, slots=True)
class ScatterExtremal(_UfuncScatter):
    """``scatter-min`` / ``scatter-max``: the derivative of an element is
    shared equally among the operand element and the updates that attain
    the result there (JAX's rule)."""

    accepts_bool = True
    update_wins: ClassVar[str]  # the comparison by which an update replaces the element

    @override
    def lower_combine(self, ctx: LoweringContext, current: HloValue, update: HloValue) -> HloValue:
        return _lower_extremum(ctx, current, update, self.hlo_op, self.update_wins)

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        x, idx, updates = primals
        out = bind1(self, *primals)
        t_x, t_updates = tangents[0], tangents[2]
        if _no_tangent(x, tangents):
            return (out,), (Zero(out.aval.to_tangent_aval()),)
        g_x, g_updates = instantiate(t_x), instantiate(t_updates)
        back = _inverse_gather(self, updates.aval, x.shape)
        add_prim = _scatter_add_like(self)
        base = x.aval.strip_weak_type()
        update_aval = updates.aval.strip_weak_type()
        ones_updates = broadcast_in_dim(scalar_like(1, x.dtype, "scatter jvp"), updates.shape, ())
        zeros_updates = zeros(update_aval)
        initial = bind1(back, x, idx)
        target = bind1(back, out, idx)
        successful = eq(updates, target)
        retained = eq(initial, target)
        hits = select_n(successful, zeros_updates, ones_updates)
        num_updates = bind1(back, bind1(add_prim, zeros(base), idx, hits), idx)
        num_refs = bind1(back, bind1(add_prim, zeros(base), idx, ones_updates), idx)
        one = ones_updates
        shared = div(one, add(num_updates, one))
        updates_normalizer = select_n(retained, div(one, num_updates), shared)
        updates_coef = select_n(successful, zeros_updates, updates_normalizer)
        operand_normalizer = select_n(retained, zeros_updates, shared)
        operand_coef = div(sub(operand_normalizer, one), num_refs)
        target_tangents = bind1(back, g_x, idx)
        tangent_updates = add(mul(target_tangents, operand_coef), mul(g_updates, updates_coef))
        return (out,), (bind1(add_prim, g_x, idx, tangent_updates),)


def _lower_extremum(ctx: LoweringContext, current: HloValue, update: HloValue, op: str, update_wins: str) -> HloValue:
    """A scatter-min/max region body. XLA's minimum/maximum have no complex
    form: complex numbers are ordered lexicographically (real part, then
    imaginary part), as NumPy and JAX order them."""
    aval = current.aval
    if not dtypes.is_complex(aval.dtype):
        return ctx.op1(op, (current, update), aval)
    part = ShapedArray(aval.shape, np.finfo(aval.dtype).dtype)
    cr, ur = (ctx.op1("stablehlo.real", (v,), part) for v in (current, update))
    ci, ui = (ctx.op1("stablehlo.imag", (v,), part) for v in (current, update))
    wins = ctx.select(ctx.compare(ur, cr, "EQ"), ctx.compare(ui, ci, update_wins), ctx.compare(ur, cr, update_wins))
    return ctx.select(wins, update, current)


@final
@dataclass(frozen=True, slots=True)
class ScatterMin(ScatterExtremal):
    """Scatter that keeps the minimum of operand and updates (NaN propagates)."""

    name = "scatter-min"
    ufunc = np.minimum
    hlo_op = "stablehlo.minimum"
    update_wins = "LT"


@final
@dataclass(frozen=True, slots=True)
class ScatterMax(ScatterExtremal):
    """Scatter that keeps the maximum of operand and updates (NaN propagates)."""

    name = "scatter-max"
    ufunc = np.maximum
    hlo_op = "stablehlo.maximum"
    update_wins = "GT"


_SCATTERS: dict[str, type[ScatterBase]] = {
    "lax.scatter": Scatter,
    "lax.scatter_add": ScatterAdd,
    "lax.scatter_sub": ScatterSub,
    "lax.scatter_mul": ScatterMul,
    "lax.scatter_min": ScatterMin,
    "lax.scatter_max": ScatterMax,
}


def _bind_scatter(
    f: str, operand: ArrayLike, indices: ArrayLike, updates: ArrayLike, dimension_numbers: ScatterDimensionNumbers,
    indices_are_sorted: bool, unique_indices: bool, mode: str | GatherScatterMode | None,
) -> Array:
    x, idx, upd = _scatter_operands(f, operand, indices, updates)
    dn = _scatter_dnums(dimension_numbers, f)
    prim = _SCATTERS[f](dn, bool(indices_are_sorted), bool(unique_indices), GatherScatterMode.from_any(mode))
    return bind1(prim, x, idx, upd)


def scatter_sub(
    operand: ArrayLike,
    scatter_indices: ArrayLike,
    updates: ArrayLike,
    dimension_numbers: ScatterDimensionNumbers,
    *,
    indices_are_sorted: bool = False,
    unique_indices: bool = False,
    mode: str | GatherScatterMode | None = None,
) -> Array:
    """``operand`` with ``updates`` subtracted from windows (JAX's
    ``lax.scatter_sub``); ``mode=None`` drops out-of-bounds windows."""
    return _bind_scatter(
        "lax.scatter_sub", operand, scatter_indices, updates, dimension_numbers, indices_are_sorted, unique_indices, mode
    )


def scatter_mul(
    operand: ArrayLike,
    scatter_indices: ArrayLike,
    updates: ArrayLike,
    dimension_numbers: ScatterDimensionNumbers,
    *,
    indices_are_sorted: bool = False,
    unique_indices: bool = False,
    mode: str | GatherScatterMode | None = None,
) -> Array:
    """``operand`` with windows multiplied by ``updates`` (JAX's
    ``lax.scatter_mul``); ``mode=None`` drops out-of-bounds windows."""
    return _bind_scatter(
        "lax.scatter_mul", operand, scatter_indices, updates, dimension_numbers, indices_are_sorted, unique_indices, mode
    )


def scatter_min(
    operand: ArrayLike,
    scatter_indices: ArrayLike,
    updates: ArrayLike,
    dimension_numbers: ScatterDimensionNumbers,
    *,
    indices_are_sorted: bool = False,
    unique_indices: bool = False,
    mode: str | GatherScatterMode | None = None,
) -> Array:
    """``operand`` with each window element the minimum of itself and the
    updates landing on it (JAX's ``lax.scatter_min``)."""
    return _bind_scatter(
        "lax.scatter_min", operand, scatter_indices, updates, dimension_numbers, indices_are_sorted, unique_indices, mode
    )


def scatter_max(
    operand: ArrayLike,
    scatter_indices: ArrayLike,
    updates: ArrayLike,
    dimension_numbers: ScatterDimensionNumbers,
    *,
    indices_are_sorted: bool = False,
    unique_indices: bool = False,
    mode: str | GatherScatterMode | None = None,
) -> Array:
    """``operand`` with each window element the maximum of itself and the
    updates landing on it (JAX's ``lax.scatter_max``)."""
    return _bind_scatter(
        "lax.scatter_max", operand, scatter_indices, updates, dimension_numbers, indices_are_sorted, unique_indices, mode
    )


def apply_where_counted(
    x: Array, counts: Array, func: Callable[[Array], Array], where: str, *, unique: bool = False
) -> Array:
    """``func`` applied ``counts[j]`` times at each position ``j`` of ``x``
    (XLA's scatter applies its combiner once per update, so repeated
    indices apply it repeatedly). One application where the indices are
    known to be unique; else a loop over the largest count: in Python when
    the counts are concrete, else a ``while_loop``."""
    from jaxtyped._src.lax.control_flow.loops import while_loop  # the loop layer imports this module's peers

    def step(i: Array, y: Array) -> Array:
        applied = _elementwise_result(func(y), x, where)
        chosen = gt(counts, broadcast_in_dim(i, counts.shape, ()))
        return select_n(chosen, y, convert_to(applied, x.dtype, weak_type=x.weak_type))

    int32 = np.dtype(np.int32)
    if unique:
        return step(scalar_like(0, int32, where, weak_type=False), x)
    try:
        most = int(np.max(np.asarray(counts), initial=0))
    except (ConcretizationTypeError, TracerArrayConversionError):
        most = -1
    if most >= 0:
        y = x
        for i in range(most):
            y = step(scalar_like(i, int32, where, weak_type=False), y)
        return y
    limit = reduce_max(counts, tuple(range(counts.ndim))) if counts.ndim else counts

    def cond(carry: tuple[Array, Array]) -> Array:
        return lt(carry[0], limit)

    def body(carry: tuple[Array, Array]) -> tuple[Array, Array]:
        i, y = carry
        return add(i, scalar_like(1, int32, where, weak_type=False)), step(i, y)

    start: Array = scalar_like(0, int32, where, weak_type=False)
    return while_loop(cond, body, (start, x))[1]


def _elementwise_result(value: object, x: Array, where: str) -> Array:
    """``value`` (what ``func`` returned) checked to be an array of ``x``'s shape."""
    if not isinstance(value, Array) or value.shape != x.shape:
        raise JaxtypedTypeError(f"{where}: func must be elementwise, returning an array of shape {x.shape}")
    return value


def scatter_apply(
    operand: ArrayLike,
    scatter_indices: ArrayLike,
    func: Callable[[Array], Array],
    dimension_numbers: ScatterDimensionNumbers,
    *,
    update_shape: Sequence[int] = (),
    indices_are_sorted: bool = False,
    unique_indices: bool = False,
    mode: str | GatherScatterMode | None = None,
) -> Array:
    """``operand`` with ``func`` applied to the elements the windows cover
    (JAX's ``lax.scatter_apply``). ``func`` must be elementwise; as in XLA
    it is applied once per update, so an element that repeated indices
    cover is transformed repeatedly."""
    x = as_operand(operand, "lax.scatter_apply operand")
    idx = as_operand(scatter_indices, "lax.scatter_apply scatter_indices")
    dn = _scatter_dnums(dimension_numbers, "lax.scatter_apply")
    int32 = np.dtype(np.int32)
    ones = broadcast_in_dim(scalar_like(1, int32, "lax.scatter_apply", weak_type=False), tuple(update_shape), ())
    prim = ScatterAdd(dn, bool(indices_are_sorted), bool(unique_indices), GatherScatterMode.from_any(mode))
    counts = bind1(prim, zeros(ShapedArray(x.shape, int32)), idx, ones)
    return apply_where_counted(x, counts, func, "lax.scatter_apply", unique=bool(unique_indices))
