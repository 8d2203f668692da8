"""Basic indexing, ``x[index]`` (layer L5).

Supported: Python and NumPy integers, slices (any step), ``None``,
``...``, and integer scalar arrays (possibly traced). Static parts become
one ``slice`` (plus ``rev`` for negative steps); array indices become a
``dynamic_slice``, after wrapping negative values as JAX does (out-of-range
array indices are clamped, as in JAX). Advanced indexing (integer or boolean
arrays of rank >= 1) needs a gather primitive and is rejected clearly.
"""

from dataclasses import dataclass, field
from types import EllipsisType
from typing import Any

import numpy as np
from typing_extensions import TypeIs

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array
from jaxtyped._src.core.array_impl import array_from_numpy, is_numpy_value
from jaxtyped._src.errors import ConcretizationTypeError, JaxtypedIndexError, JaxtypedTypeError
from jaxtyped._src.lax import arithmetic as la
from jaxtyped._src.lax import comparison as lcmp
from jaxtyped._src.lax import structural as ls
from jaxtyped._src.lax.slicing import dynamic_slice, slice as lax_slice
from jaxtyped._src.lax.util import scalar_like
from jaxtyped._src.util import is_tuple

__all__ = ["getitem"]


@dataclass
class _Plan:
    """How to apply a basic index, axis by axis of the operand."""

    starts: list[int] = field(default_factory=list[int])
    limits: list[int] = field(default_factory=list[int])
    strides: list[int] = field(default_factory=list[int])
    reversed_axes: list[int] = field(default_factory=list[int])
    dynamic: dict[int, Array] = field(default_factory=dict[int, Array])
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


def getitem(x: Array, index: object) -> Array:
    """``x[index]`` for basic indices (see the module docstring)."""
    items = _expand_ellipsis(_normalize(index), x.ndim)
    plan = _plan(x, items)
    result = lax_slice(x, plan.starts, plan.limits, plan.strides)
    if plan.reversed_axes:
        result = ls.rev(result, plan.reversed_axes)
    if plan.dynamic:
        zero = scalar_like(0, np.dtype(np.int32), "index")
        starts = [plan.dynamic.get(axis, zero) for axis in range(result.ndim)]
        sizes = [1 if axis in plan.dynamic else d for axis, d in enumerate(result.shape)]
        result = dynamic_slice(result, starts, sizes, allow_negative_indices=False)
    if plan.squeezed:
        result = ls.squeeze(result, plan.squeezed)
    if plan.new_axes:
        result = ls.expand_dims(result, plan.new_axes)
    for axis in plan.emptied_axes:
        result = lax_slice(result, [0] * result.ndim, [0 if a == axis else d for a, d in enumerate(result.shape)])
    return result
