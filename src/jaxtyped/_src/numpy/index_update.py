"""``x.at[index].set/add/.../get`` (layer L5): functional index updates.

Each update runs through the same :class:`~jaxtyped._src.numpy.indexing.IndexPlan`
as ``x[index]``: the values are broadcast to the shape ``x[index]`` would
have, converted to ``x``'s dtype and weak type (as JAX does, with its
FutureWarning where the conversion is unsafe), and scattered with the
combiner of the operation. ``divide`` and ``power`` scatter-multiply into
ones first, then divide or raise ``x`` elementwise (JAX's formulation).
Out-of-bounds updates are dropped unless ``mode`` says otherwise; ``get``
clamps unless ``mode='fill'``.
"""

import enum
import warnings
from collections.abc import Callable
from typing import Literal, cast

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike, IndexUpdateHelper, ScalarLike, Slice
from jaxtyped._src.core.avals import ShapedArray
from jaxtyped._src.core.interpreter import bind1
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.lax import structural as ls
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.lax.gather import (
    GatherScatterMode,
    Scatter,
    ScatterAdd,
    ScatterBase,
    ScatterDimensionNumbers,
    ScatterMax,
    ScatterMin,
    ScatterMul,
    ScatterSub,
    apply_where_counted,
)
from jaxtyped._src.lax.util import scalar_like
from jaxtyped._src.numpy import ufuncs as uf
from jaxtyped._src.numpy.indexing import IndexPlan, advanced_items, gather_with_plan, getitem, index_plan
from jaxtyped._src.numpy.promotion import asarray_operand

__all__ = ["UpdateOp", "index_update", "at"]

UpdateOp = Literal["get", "set", "add", "subtract", "multiply", "divide", "power", "min", "max", "apply"]

_COMBINERS: dict[str, type[ScatterBase]] = {
    "set": Scatter,
    "add": ScatterAdd,
    "subtract": ScatterSub,
    "multiply": ScatterMul,
    "min": ScatterMin,
    "max": ScatterMax,
}


def _plan(x: Array, index: object) -> IndexPlan:
    return index_plan(x, advanced_items(x, index))


def _has_ds(index: object) -> bool:
    items = cast(tuple[object, ...], index) if isinstance(index, tuple) else (index,)
    return any(isinstance(item, Slice) for item in items)


def _scatter_dnums(plan: IndexPlan) -> ScatterDimensionNumbers:
    dn = plan.dimension_numbers
    return ScatterDimensionNumbers(dn.offset_dims, dn.collapsed_slice_dims, dn.start_index_map)


def _mode(mode: str | enum.Enum | None, where: str) -> GatherScatterMode:
    if mode is not None and not isinstance(mode, (str, GatherScatterMode)):
        raise JaxtypedTypeError(f"{where}: mode must be a string, a GatherScatterMode or None, got {mode!r}")
    return GatherScatterMode.from_any(mode)


def _updates(x: Array, plan: IndexPlan, values: ArrayLike, where: str) -> Array:
    """``values`` as the scatter's updates: ``x``'s dtype and weak type, the
    shape of ``x[index]`` without its ``None`` axes."""
    y = asarray_operand(where, values)
    if dtypes.result_dtype((y.dtype, y.weak_type), (x.dtype, False))[0] != x.dtype:
        warnings.warn(
            f"scatter inputs have incompatible types: cannot safely cast value from dtype={y.dtype} "
            f"to dtype={x.dtype}. In future JAX releases this will result in an error.",
            FutureWarning,
            stacklevel=4,
        )
    y = convert_to(y, x.dtype, weak_type=x.weak_type)
    if y.shape != plan.shape:
        if y.ndim > len(plan.shape) or any(a not in (1, b) for a, b in zip(y.shape[::-1], plan.shape[::-1])):
            raise JaxtypedValueError(
                f"{where}: cannot broadcast updates of shape {y.shape} to the indexed shape {plan.shape}"
            )
        offset = len(plan.shape) - y.ndim
        keep = [i for i, d in enumerate(y.shape) if d == plan.shape[offset + i]]
        squeezed = y if len(keep) == y.ndim else ls.reshape(y, tuple(y.shape[i] for i in keep))
        y = ls.broadcast_in_dim(squeezed, plan.shape, tuple(offset + i for i in keep))
    if plan.new_axes:
        y = ls.reshape(y, plan.gather_shape)
    return y


def _scatter(
    op: str, x: Array, plan: IndexPlan, updates: Array, sorted_: bool, unique: bool, mode: GatherScatterMode
) -> Array:
    if plan.selects_nothing_from_empty_axes(x):
        return x
    prim = _COMBINERS[op](_scatter_dnums(plan), sorted_ or plan.static, unique or plan.static, mode)
    return bind1(prim, x, plan.indices, updates)


def index_update(
    op: UpdateOp,
    array: Array,
    index: object,
    values: ArrayLike | None = None,
    func: Callable[[Array], Array] | None = None,
    *,
    indices_are_sorted: bool = False,
    unique_indices: bool = False,
    mode: str | enum.Enum | None = None,
    fill_value: ScalarLike | None = None,
) -> Array:
    """``array.at[index].<op>(...)``: the implementation behind
    :class:`~jaxtyped._src.core.array.IndexUpdateRef`."""
    where = f"Array.at[...].{op}"
    x = array
    if op == "get" and mode is None and fill_value is None and _has_ds(index):
        # JAX's default get is indexing itself: a unit-stride ds start is
        # wrapped when negative there (a gather would not wrap it).
        return getitem(x, index)
    plan = _plan(x, index)
    if op == "get":
        parsed = GatherScatterMode.PROMISE_IN_BOUNDS if mode is None else _mode(mode, where)
        fill: bool | int | float | complex | None = None
        if fill_value is not None:
            fill = fill_value.item() if isinstance(fill_value, np.generic) else fill_value
            if isinstance(fill, (str, bytes)):
                raise JaxtypedTypeError(f"{where}: fill_value must be a number, got {fill_value!r}")
        return gather_with_plan(
            x, plan, mode=parsed, fill_value=fill,
            indices_are_sorted=indices_are_sorted, unique_indices=unique_indices,
        )
    parsed = _mode(mode, where)
    if op == "apply":
        assert func is not None
        return _apply(x, plan, func, indices_are_sorted, unique_indices, parsed, where)
    assert values is not None
    updates = _updates(x, plan, values, where)
    if op in ("divide", "power"):
        ones = ls.broadcast_in_dim(scalar_like(1, x.dtype, where, weak_type=x.weak_type), x.shape, ())
        factor = _scatter("multiply", ones, plan, updates, indices_are_sorted, unique_indices, parsed)
        return uf.divide(x, factor) if op == "divide" else uf.power(x, factor)
    if op in ("add", "subtract", "multiply") and dtypes.is_bool(x.dtype):
        name = {"add": "add", "subtract": "sub", "multiply": "mul"}[op]
        raise JaxtypedTypeError(
            f"{name} does not accept dtype bool at position 0 ({where} on {x.aval.str_short()}). "
            "Accepted dtypes are subtypes of integer, floating, complexfloating."
        )
    return _scatter(op, x, plan, updates, indices_are_sorted, unique_indices, parsed)


def _apply(
    x: Array, plan: IndexPlan, func: Callable[[Array], Array], sorted_: bool, unique: bool,
    mode: GatherScatterMode, where: str,
) -> Array:
    """``func`` applied where the index points, once per index (so repeated
    indices apply it repeatedly, as JAX's scatter does); ``func`` must be
    elementwise."""
    int32 = np.dtype(np.int32)
    ones = ls.broadcast_in_dim(scalar_like(1, int32, where, weak_type=False), plan.gather_shape, ())
    counts = _scatter("add", ls.zeros(ShapedArray(x.shape, int32)), plan, ones, sorted_, unique, mode)
    return apply_where_counted(x, counts, func, where, unique=unique or plan.static)


def at(self: Array) -> IndexUpdateHelper:
    """``x.at``: the helper whose ``[index]`` gives the update methods."""
    return IndexUpdateHelper(self, index_update)
