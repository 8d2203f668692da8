"""Indexing, ``x[index]`` (layer L5), and the index plans ``x.at[...]``
shares.

Basic indices (Python and NumPy integers, slices, ``None``, ``...``,
integer scalar arrays, unit-stride ``ds`` slices) become one ``slice``
(plus ``rev`` for negative steps) and a ``dynamic_slice`` for traced
scalars and ``ds`` starts, negative values wrapped and out-of-range ones
clamped, as in JAX.

A ``ds`` slice of another stride is a gather (an ``iota`` component from
its start, not wrapped, clamped by the gather), as in JAX; so is a ``ds``
slice beside advanced indices, whose unit-stride window starts at its
start unwrapped (JAX's ``_index_to_gather``).

Advanced indices (integer arrays of any rank, lists inside a tuple,
concrete boolean masks) become one ``gather``, laid out as JAX does: index
arrays broadcast together; their axes replace the indexed axes where the
advanced indices are adjacent, and go first where a slice, ``None`` or
``...`` separates them (NumPy's rule); unit-step slices are windows,
other slices become ``iota`` index components. :class:`IndexPlan` holds
that gather's indices and dimension numbers; ``x.at[...]`` scatters
through the same plan.
"""

from dataclasses import dataclass, field
from types import EllipsisType
from typing import Any, SupportsIndex, cast

import numpy as np
from typing_extensions import TypeIs

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, Slice, ds_size
from jaxtyped._src.core.array_impl import array_from_numpy, is_numpy_value
from jaxtyped._src.errors import (
    ConcretizationTypeError,
    JaxtypedIndexError,
    JaxtypedTypeError,
    JaxtypedValueError,
    NonConcreteBooleanIndexError,
    TracerArrayConversionError,
)
from jaxtyped._src.lax import arithmetic as la
from jaxtyped._src.lax import comparison as lcmp
from jaxtyped._src.lax import structural as ls
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.lax.gather import FillValue, GatherDimensionNumbers, GatherScatterMode, gather
from jaxtyped._src.lax.slicing import dynamic_slice, slice as lax_slice
from jaxtyped._src.lax.util import scalar_like
from jaxtyped._src.util import is_tuple

__all__ = ["IndexPlan", "advanced_items", "ds_parts", "getitem", "index_plan", "gather_with_plan"]


@dataclass
class _Plan:
    """How to apply a basic index, axis by axis of the operand."""

    starts: list[int] = field(default_factory=list[int])
    limits: list[int] = field(default_factory=list[int])
    strides: list[int] = field(default_factory=list[int])
    reversed_axes: list[int] = field(default_factory=list[int])
    dynamic: dict[int, Array] = field(default_factory=dict[int, Array])
    # The window of a dynamic start along its axis (absent: 1, an index).
    dynamic_sizes: dict[int, int] = field(default_factory=dict[int, int])
    squeezed: list[int] = field(default_factory=list[int])
    new_axes: list[int] = field(default_factory=list[int])
    emptied_axes: list[int] = field(default_factory=list[int])


def _normalize(index: object) -> tuple[object, ...]:
    if isinstance(index, list):
        raise JaxtypedTypeError(
            "Using a non-tuple sequence for multidimensional indexing is not allowed; use "
            "`x[array(seq)]` or `x[tuple(seq)]` instead of `x[seq]`"
        )
    return index if is_tuple(index) else (index,)


def _expand_ellipsis(items: tuple[object, ...], ndim: int) -> list[object]:
    ellipses = [i for i, item in enumerate(items) if isinstance(item, EllipsisType)]
    if len(ellipses) > 1:
        raise JaxtypedIndexError("an index can only have a single ellipsis ('...')")
    used = sum(
        1 for item in items if item is not None and not isinstance(item, EllipsisType) and not _is_bool_scalar(item)
    )
    if used > ndim:
        raise JaxtypedIndexError(f"Too many indices: array is {ndim}-dimensional, but {used} were indexed")
    fill: list[object] = [slice(None)] * (ndim - used)
    if ellipses:
        at = ellipses[0]
        return [*items[:at], *fill, *items[at + 1 :]]
    return [*items, *fill]


def _static_int(item: object) -> int | None:
    if isinstance(item, int) and not isinstance(item, bool):
        return item
    if isinstance(item, np.integer):
        return int(item)  # pyright: ignore[reportUnknownArgumentType]  # any NumPy integer
    return None


def _is_bool_scalar(item: object) -> bool:
    if isinstance(item, (bool, np.bool_)):
        return True
    return (isinstance(item, Array) or is_numpy_value(item)) and dtypes.is_bool(item.dtype) and item.ndim == 0


def _static_bool(item: object) -> bool | None:
    """The value of a boolean scalar index (Python, NumPy or a concrete 0-d
    array); numpy treats ``x[True]`` as ``x[None]`` and ``x[False]`` as an
    empty new axis."""
    if isinstance(item, bool):
        return item
    if isinstance(item, np.bool_):
        return item is np.True_
    if (isinstance(item, Array) or is_numpy_value(item)) and dtypes.is_bool(item.dtype) and item.ndim == 0:
        try:
            return bool(item)
        except ConcretizationTypeError:
            raise JaxtypedIndexError(
                "a traced boolean scalar cannot be used as an index (its result shape would depend on it)"
            ) from None
    return None


def _slice_bound(bound: object) -> int | None:
    """A slice bound: None, a static integer, or a concrete integer scalar array."""
    if bound is None:
        return None
    static = _static_int(bound)
    if static is not None:
        return static
    if not (isinstance(bound, Array) and bound.ndim == 0 and dtypes.is_integer(bound.dtype)):
        raise JaxtypedTypeError(f"slice indices must be integers or None, got {bound!r}")
    try:
        return int(bound)
    except ConcretizationTypeError:
        raise JaxtypedIndexError(
            "slice bounds must be static (or concrete integer scalars), not traced; "
            "use lax.dynamic_slice for traced starts"
        ) from None


def _plan(x: Array, items: list[object]) -> _Plan:
    plan = _Plan()
    axis = 0
    out_axis = 0
    for item in items:
        flag = _static_bool(item)
        if item is None or flag is not None:
            plan.new_axes.append(out_axis)
            if flag is False:
                plan.emptied_axes.append(out_axis)
            out_axis += 1
            continue
        size = x.shape[axis]
        static = _static_int(item)
        if static is not None:
            if size == 0:
                raise JaxtypedIndexError(f"index {static} is out of bounds for axis {axis} with size 0")
            # Out-of-range indices are clamped, as in JAX.
            start = min(max(static + size if static < 0 else static, 0), size - 1)
            _add_static(plan, start, start + 1, 1)
            plan.squeezed.append(axis)
        elif _is_slice(item):
            _add_slice(plan, axis, item, size)
            out_axis += 1
        elif isinstance(item, Slice):
            _add_dynamic_slice(plan, x, axis, item)
            out_axis += 1
        elif isinstance(item, Array) or is_numpy_value(item):
            _add_array_index(plan, axis, item, size)
            plan.squeezed.append(axis)
        else:
            raise JaxtypedTypeError(
                f"Indexer must have integer or boolean type (an int, slice, None, Ellipsis or integer "
                f"scalar array); got {type(item).__name__} {item!r}"
            )
        axis += 1
    return plan


def _is_slice(x: object) -> TypeIs[slice]:
    return isinstance(x, slice)


def _add_static(plan: _Plan, start: int, limit: int, stride: int) -> None:
    plan.starts.append(start)
    plan.limits.append(limit)
    plan.strides.append(stride)


def _add_slice(plan: _Plan, axis: int, item: slice, size: int) -> None:
    bounds = [_slice_bound(bound) for bound in (item.start, item.stop, item.step)]
    start, stop, step = slice(*bounds).indices(size)
    count = len(range(start, stop, step))
    if step > 0:
        _add_static(plan, start, start + max(count - 1, 0) * step + (1 if count else 0), step)
        return
    # A negative step: take the same elements forwards, then reverse.
    last = start + (count - 1) * step if count else 0
    _add_static(plan, last, last + max(count - 1, 0) * -step + (1 if count else 0), -step)
    plan.reversed_axes.append(axis)


def _add_array_index(plan: _Plan, axis: int, item: Array | np.ndarray[Any, np.dtype[Any]] | np.generic, size: int) -> None:
    index = item if isinstance(item, Array) else array_from_numpy(item)
    if index.ndim != 0:
        raise JaxtypedIndexError(
            f"advanced indexing with an array of shape {index.shape} is not supported yet "
            "(it needs a gather primitive); index with integers, slices or scalar arrays"
        )
    if dtypes.is_bool(index.dtype) or not dtypes.is_integer(index.dtype):
        raise JaxtypedTypeError(f"Indexer must have integer type, got indexer of type {index.aval.str_short()}")
    # Negative values count from the end; the dynamic slice clamps the rest.
    negative = lcmp.lt(index, scalar_like(0, index.dtype, "index"))
    wrapped = la.add(index, scalar_like(size, index.dtype, "index"))
    plan.dynamic[axis] = ls.select_n(negative, index, wrapped)
    _add_static(plan, 0, size, 1)


def ds_parts(x: Array, axis: int, item: Slice) -> tuple[int | Array, int, int]:
    """The start (a static int or an integer scalar array), the static size
    and the stride of a ``ds`` slice of ``x``'s ``axis``, checked (JAX's
    errors are ``TypeError``s: a float start, a traced or negative size, a
    unit-stride window larger than the axis)."""
    where = f"ds({item.start!r}, {item.size!r}, {item.stride}) on axis {axis} of {x.aval.str_short()}"
    raw = cast(object, item.start)  # checked: any object may have been passed
    start: int | Array
    if isinstance(raw, (int, np.integer)) and not isinstance(raw, (bool, np.bool_)):
        start = int(cast(SupportsIndex, raw))
    elif isinstance(raw, Array) or is_numpy_value(raw):
        start = raw if isinstance(raw, Array) else array_from_numpy(np.asarray(raw))
        if start.ndim != 0 or not dtypes.is_integer(start.dtype) or dtypes.is_bool(start.dtype):
            raise JaxtypedTypeError(f"{where}: the start must be an integer scalar, got {start.aval.str_short()}")
    else:
        raise JaxtypedTypeError(f"{where}: the start must be an integer or an integer scalar array, got {type(raw).__name__}")
    size = ds_size(item.size, where)
    if size < 0:
        raise JaxtypedTypeError(f"{where}: the size must be >= 0, got {size}")
    if item.stride == 1 and size > x.shape[axis]:
        raise JaxtypedTypeError(f"{where}: the size {size} is larger than the axis ({x.shape[axis]})")
    return start, size, item.stride


def _add_dynamic_slice(plan: _Plan, x: Array, axis: int, item: Slice) -> None:
    """A unit-stride ``ds`` slice: a static window where the start is
    static, else a dynamic start (wrapped when negative, clamped by the
    ``dynamic_slice``)."""
    start, size, stride = ds_parts(x, axis, item)
    assert stride == 1, "strided ds slices are gathers"
    dim = x.shape[axis]
    if isinstance(start, int):
        first = min(max(start + dim if start < 0 else start, 0), dim - size)
        _add_static(plan, first, first + size, 1)
        return
    plan.dynamic[axis] = _wrapped_index(start, dim, _int_dtype_for(x.shape))
    plan.dynamic_sizes[axis] = size
    _add_static(plan, 0, dim, 1)


def _basic_getitem(x: Array, items: list[object]) -> Array:
    plan = _plan(x, items)
    result = lax_slice(x, plan.starts, plan.limits, plan.strides)
    if plan.reversed_axes:
        result = ls.rev(result, plan.reversed_axes)
    if plan.dynamic:
        zero = scalar_like(0, np.dtype(np.int32), "index")
        starts = [plan.dynamic.get(axis, zero) for axis in range(result.ndim)]
        sizes = [plan.dynamic_sizes.get(axis, 1) if axis in plan.dynamic else d for axis, d in enumerate(result.shape)]
        result = dynamic_slice(result, starts, sizes, allow_negative_indices=False)
    if plan.squeezed:
        result = ls.squeeze(result, plan.squeezed)
    if plan.new_axes:
        result = ls.expand_dims(result, plan.new_axes)
    for axis in plan.emptied_axes:
        result = lax_slice(result, [0] * result.ndim, [0 if a == axis else d for a, d in enumerate(result.shape)])
    return result


def getitem(x: Array, index: object) -> Array:
    """``x[index]``: basic indices slice, advanced ones gather (see the
    module docstring)."""
    items = advanced_items(x, index)
    strided = any(isinstance(item, Slice) and item.stride != 1 for item in items)
    if not strided and not any(_is_index_array(item) for item in items):
        return _basic_getitem(x, _expand_ellipsis(tuple(items), x.ndim))
    return gather_with_plan(x, index_plan(x, items))


# === advanced indexing ===

HostArray = np.ndarray[Any, np.dtype[Any]]


def _index_array(item: object) -> Array | HostArray | None:
    """``item`` as an index array (jaxtyped or NumPy, any rank), or None."""
    if isinstance(item, Array):
        return item
    if is_numpy_value(item):
        return np.asarray(item)
    return None


def _is_index_array(item: object) -> bool:
    """An array of rank >= 1 (a NumPy or jaxtyped one)."""
    array = _index_array(item)
    return array is not None and array.ndim >= 1


def _list_index(item: list[object] | tuple[object, ...]) -> HostArray:
    """A list (or tuple) inside an index tuple: an integer or boolean array."""
    array: HostArray = np.asarray(item)
    if array.size == 0:
        return array.astype(np.int32)
    if array.dtype == np.dtype(object) or not (dtypes.is_integer(array.dtype) or dtypes.is_bool(array.dtype)):
        raise JaxtypedTypeError(f"Indexer must have integer or boolean type, got indexer with type {array.dtype}")
    return array


def _dtype_text(array: Array | HostArray) -> str:
    return array.aval.str_short() if isinstance(array, Array) else str(array.dtype)


def advanced_items(x: Array, index: object) -> list[object]:
    """The items of ``index`` (normalised to a tuple) with lists made arrays
    and boolean masks replaced by their (concrete) integer coordinates, one
    array per mask axis."""
    items = _normalize(index)
    out: list[object] = []
    for position, item in enumerate(items):
        if isinstance(item, (list, tuple)):
            sequence: list[object] | tuple[object, ...] = item  # pyright: ignore[reportUnknownVariableType]  # any sequence
            item = _list_index(sequence)
        array = _index_array(item)
        if array is not None and array.ndim >= 1:
            if dtypes.is_bool(array.dtype):
                out.extend(_mask_coordinates(x, items, position, array))
                continue
            if not dtypes.is_integer(array.dtype):
                raise JaxtypedTypeError(
                    f"Indexer must have integer or boolean type, got indexer with type {_dtype_text(array)}"
                )
        out.append(item)
    return out


def _mask_coordinates(x: Array, items: tuple[object, ...], position: int, mask: Array | HostArray) -> list[object]:
    """The integer index arrays a concrete boolean mask stands for."""
    if isinstance(mask, Array):
        try:
            value: HostArray = np.asarray(mask)
        except (ConcretizationTypeError, TracerArrayConversionError):
            raise NonConcreteBooleanIndexError(
                f"Array boolean indices must be concrete; got {mask.aval.str_short()}. Use a NumPy mask, "
                "jnp.where(mask, x, fill) to keep the shape, or jnp.nonzero(mask, size=n) for a fixed size"
            ) from None
    else:
        value = mask
    # The axes the mask covers: after those the items before it use, or
    # (after an Ellipsis) before those the items after it use.
    if any(isinstance(item, EllipsisType) for item in items[:position]):
        first = x.ndim - sum(_axes_used(item) for item in items[position + 1 :]) - value.ndim
    else:
        first = sum(_axes_used(item) for item in items[:position])
    covered = x.shape[max(first, 0) : max(first, 0) + value.ndim]
    if first < 0 or covered != value.shape:
        raise JaxtypedIndexError(
            f"boolean index did not match shape of indexed array in index {position}: "
            f"got {value.shape}, expected {list(covered)}"
        )
    return [np.asarray(c, np.int32) for c in np.nonzero(value)]


def _axes_used(item: object) -> int:
    """How many operand axes an index item consumes."""
    if item is None or isinstance(item, EllipsisType) or _is_bool_scalar(item):
        return 0
    if isinstance(item, (list, tuple)):
        sequence: list[object] | tuple[object, ...] = item  # pyright: ignore[reportUnknownVariableType]  # any sequence
        item = _list_index(sequence)
    array = _index_array(item)
    if array is not None and dtypes.is_bool(array.dtype):
        return array.ndim
    return 1


@dataclass(frozen=True)
class IndexPlan:
    """One gather (or scatter) that performs an index.

    ``indices`` are the start indices (``int32``, last axis the index
    vector); the gather's output has shape ``gather_shape``; the index's
    result inserts unit axes at ``new_axes`` (``None`` items) to give
    ``shape``. ``static`` says that no array took part (the indices are then
    sorted and unique, as JAX marks them).
    """

    indices: Array
    dimension_numbers: GatherDimensionNumbers
    slice_sizes: tuple[int, ...]
    gather_shape: tuple[int, ...]
    new_axes: tuple[int, ...]
    shape: tuple[int, ...]
    static: bool

    def selects_nothing_from_empty_axes(self, x: Array) -> bool:
        """Whether the index is empty and indexes an empty axis: XLA's
        gather and scatter reject such windows, NumPy (and JAX) give an
        empty result."""
        no_room = any(size > dim for size, dim in zip(self.slice_sizes, x.shape))
        return no_room and 0 in self.gather_shape


@dataclass
class _Builder:
    """Collects the output axes and index components of an :class:`IndexPlan`."""

    x: Array
    # Output axes in order, each (kind, size, tag): kinds "new" (None),
    # "window" (a unit-step slice), "strided" (tag: its component), "adv".
    axes: list[tuple[str, int, int]] = field(default_factory=list[tuple[str, int, int]])
    # Index components of slices: (operand axis, value).
    components: list[tuple[int, Array]] = field(default_factory=list[tuple[int, Array]])
    collapsed: list[int] = field(default_factory=list[int])
    slice_sizes: list[int] = field(default_factory=list[int])


_INDEX_DTYPE = np.dtype(np.int32)


def _int_dtype_for(shape: tuple[int, ...]) -> np.dtype[Any]:
    return np.dtype(np.int64) if max(shape, default=0) > np.iinfo(np.int32).max else _INDEX_DTYPE


def _wrapped_index(item: object, size: int, dtype: np.dtype[Any]) -> Array:
    """An integer index (static, NumPy or jaxtyped) with negative values
    counted from the end, as ``dtype``."""
    static = _static_int(item)
    if static is not None:
        return scalar_like(static + size if static < 0 else static, dtype, "index")
    if is_numpy_value(item):
        if not dtypes.is_integer(item.dtype) or dtypes.is_bool(item.dtype):
            raise JaxtypedTypeError(f"Indexer must have integer or boolean type, got indexer with type {item.dtype}")
        host: HostArray = np.asarray(item).astype(np.int64)
        return array_from_numpy(np.where(host < 0, host + size, host).astype(dtype))
    if not isinstance(item, Array):
        raise JaxtypedTypeError(
            f"Indexer must have integer or boolean type (an int, slice, None, Ellipsis or integer "
            f"array); got {type(item).__name__} {item!r}"
        )
    if not dtypes.is_integer(item.dtype) or dtypes.is_bool(item.dtype):
        raise JaxtypedTypeError(f"Indexer must have integer or boolean type, got indexer with type {item.aval.str_short()}")
    index = item
    if dtypes.is_signed_integer(index.dtype):
        negative = lcmp.lt(index, scalar_like(0, index.dtype, "index"))
        wrapped = la.add(index, scalar_like(size, index.dtype, "index"))
        index = ls.select_n(negative, index, wrapped)
    return convert_to(index, dtype, weak_type=False)


def index_plan(x: Array, raw_items: list[object]) -> IndexPlan:
    """The gather that indexes ``x`` with ``raw_items`` (already through
    :func:`advanced_items`): every integer, array and slice item is part of
    it."""
    items = _expand_ellipsis(tuple(raw_items), x.ndim)
    dtype = _int_dtype_for(x.shape)
    is_advanced = [
        item is not None and not isinstance(item, (slice, Slice)) and not _is_bool_scalar(item) for item in items
    ]
    positions = [i for i, flag in enumerate(is_advanced) if flag]
    adjacent = positions == list(range(positions[0], positions[-1] + 1)) if positions else True
    advanced: list[tuple[int, object]] = []
    builder = _Builder(x)
    axis = 0
    for position, item in enumerate(items):
        if is_advanced[position]:
            advanced.append((axis, item))
            builder.collapsed.append(axis)
            builder.slice_sizes.append(1)
            axis += 1
            continue
        flag = _static_bool(item)
        if item is None or flag is not None:
            if flag is False:
                raise JaxtypedIndexError("a False scalar index cannot be combined with array indices")
            builder.axes.append(("new", 1, -1))
            continue
        if isinstance(item, Slice):
            _add_ds_component(builder, axis, item, dtype)
        else:
            assert _is_slice(item)
            _add_slice_component(builder, axis, item, dtype)
        axis += 1
    shapes = [_index_shape(item) for _, item in advanced]
    try:
        batch_shape = tuple(int(d) for d in np.broadcast_shapes(*shapes))
    except ValueError:
        raise JaxtypedValueError(f"Incompatible shapes for broadcasting: shapes={[tuple(s) for s in shapes]}") from None
    # Where the broadcast advanced axes go: at the first advanced item when
    # the advanced items are adjacent, else first (NumPy's rule).
    if positions:
        at = sum(1 for i in range(positions[0]) if not is_advanced[i]) if adjacent else 0
        builder.axes[at:at] = [("adv", d, -1) for d in batch_shape]
    return _finish(builder, advanced, dtype)


def _index_shape(item: object) -> tuple[int, ...]:
    """The shape of an advanced index item (a static integer is a scalar)."""
    array = _index_array(item)
    return () if array is None else tuple(array.shape)


def _add_slice_component(builder: _Builder, axis: int, item: slice, dtype: np.dtype[Any]) -> None:
    size = builder.x.shape[axis]
    bounds = [_slice_bound(bound) for bound in (item.start, item.stop, item.step)]
    start, stop, step = slice(*bounds).indices(size)
    count = len(range(start, stop, step))
    if step == 1 or count <= 1:
        # A window of `count` elements from a static start.
        start = min(start, size - count) if count else 0
        builder.axes.append(("window", count, -1))
        builder.slice_sizes.append(count)
        if start != 0:
            builder.components.append((axis, scalar_like(start, dtype, "index")))
        return
    # A strided slice: one index per element, an iota along its own axis.
    builder.axes.append(("strided", count, len(builder.components)))
    builder.collapsed.append(axis)
    builder.slice_sizes.append(1)
    iota = ls.iota(dtype, count)
    values = la.add(la.mul(iota, scalar_like(step, dtype, "index")), scalar_like(start, dtype, "index"))
    builder.components.append((axis, values))


def _add_ds_component(builder: _Builder, axis: int, item: Slice, dtype: np.dtype[Any]) -> None:
    """A ``ds`` slice in a gather: a window at its start (none for a
    window of the whole axis) or, strided, one index per element; starts
    are not wrapped (JAX's ``_index_to_gather``)."""
    start, size, stride = ds_parts(builder.x, axis, item)
    first = scalar_like(start, dtype, "index") if isinstance(start, int) else convert_to(start, dtype, weak_type=False)
    if stride == 1:
        builder.axes.append(("window", size, -1))
        builder.slice_sizes.append(size)
        if size != builder.x.shape[axis]:
            builder.components.append((axis, first))
        return
    builder.axes.append(("strided", size, len(builder.components)))
    builder.collapsed.append(axis)
    builder.slice_sizes.append(1)
    iota = ls.iota(dtype, size)
    builder.components.append((axis, la.add(la.mul(iota, scalar_like(stride, dtype, "index")), first)))


def _finish(builder: _Builder, advanced: list[tuple[int, object]], dtype: np.dtype[Any]) -> IndexPlan:
    x, axes = builder.x, builder.axes
    gather_axes = [axis for axis in axes if axis[0] != "new"]
    batch_axes = [axis for axis in gather_axes if axis[0] in ("adv", "strided")]
    batch_full = tuple(size for _, size, _ in batch_axes)
    adv_positions = [k for k, axis in enumerate(batch_axes) if axis[0] == "adv"]
    components: list[tuple[int, Array, tuple[int, ...]]] = []
    for number, (operand_axis, value) in enumerate(builder.components):
        where = tuple(k for k, axis in enumerate(batch_axes) if axis[0] == "strided" and axis[2] == number)
        components.append((operand_axis, value, where))
    for operand_axis, item in advanced:
        wrapped = _wrapped_index(item, x.shape[operand_axis], dtype)
        components.append((operand_axis, wrapped, tuple(adv_positions[len(adv_positions) - wrapped.ndim :])))
    components.sort(key=lambda c: c[0])
    columns = [ls.broadcast_in_dim(value, (*batch_full, 1), where) for _, value, where in components]
    if not columns:
        indices = ls.broadcast_in_dim(scalar_like(0, dtype, "index"), (*batch_full, 0), ())
    elif len(columns) == 1:
        indices = columns[0]
    else:
        indices = ls.concatenate(columns, len(batch_full))
    offset_dims = tuple(i for i, axis in enumerate(gather_axes) if axis[0] == "window")
    dn = GatherDimensionNumbers(
        offset_dims=offset_dims, collapsed_slice_dims=tuple(sorted(builder.collapsed)),
        start_index_map=tuple(c[0] for c in components),
    )
    static = all(not isinstance(item, Array) and not _index_shape(item) for _, item in advanced)
    return IndexPlan(
        indices=indices, dimension_numbers=dn, slice_sizes=_ordered_sizes(builder, x),
        gather_shape=tuple(size for _, size, _ in gather_axes),
        new_axes=tuple(i for i, axis in enumerate(axes) if axis[0] == "new"),
        shape=tuple(size for _, size, _ in axes), static=static,
    )


def _ordered_sizes(builder: _Builder, x: Array) -> tuple[int, ...]:
    """Slice sizes were appended in operand-axis order already."""
    assert len(builder.slice_sizes) == x.ndim
    return tuple(builder.slice_sizes)


def gather_with_plan(
    x: Array,
    plan: IndexPlan,
    *,
    mode: str | GatherScatterMode | None = None,
    fill_value: FillValue = None,
    indices_are_sorted: bool = False,
    unique_indices: bool = False,
) -> Array:
    """The gather ``plan`` describes, with the ``None`` axes inserted."""
    if plan.selects_nothing_from_empty_axes(x):
        return ls.broadcast_in_dim(scalar_like(0, x.dtype, "index", weak_type=x.weak_type), plan.shape, ())
    out = gather(
        x, plan.indices, plan.dimension_numbers, plan.slice_sizes,
        indices_are_sorted=indices_are_sorted or plan.static, unique_indices=unique_indices or plan.static,
        mode=mode, fill_value=fill_value,
    )
    if plan.new_axes:
        out = ls.expand_dims(out, plan.new_axes)
    return out
