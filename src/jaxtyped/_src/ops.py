"""``jaxtyped.ops`` (layer L5): JAX's segment reductions ``segment_sum``,
``segment_max``, ``segment_min`` and ``segment_prod``.

Each is one scatter (add, max, min or mul) of ``data`` into
``num_segments`` rows filled with the combiner's identity, at the rows
``segment_ids`` names: ``out.at[segment_ids].add(data)`` with JAX's reading
of the ids (converted to int32, never wrapped: a negative id is out of
bounds), so ``jit``, ``vmap``, ``jvp`` and ``grad`` come from the scatter
primitives' own rules. With ``bucket_size`` every ``bucket_size``
consecutive entries scatter into a bucket of their own and the buckets are
reduced afterwards (JAX's formulation, for the stability of long sums).
"""

import operator
from collections.abc import Callable
from typing import Literal, Protocol, SupportsIndex

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.array_impl import ArrayImpl, to_array
from jaxtyped._src.errors import (
    ConcretizationTypeError,
    JaxtypedIndexError,
    JaxtypedNotImplementedError,
    JaxtypedTypeError,
    JaxtypedValueError,
    JaxtypedZeroDivisionError,
)
from jaxtyped._src.lax import structural as ls
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.lax.gather import (
    GatherScatterMode,
    ScatterDimensionNumbers,
    scatter_add,
    scatter_max,
    scatter_min,
    scatter_mul,
)
from jaxtyped._src.lax.util import scalar_like
from jaxtyped._src.numpy import reductions as red
from jaxtyped._src.numpy.creation import asarray
from jaxtyped._src.numpy.promotion import broadcast_to_shape, check_arraylike

__all__ = ["segment_sum", "segment_max", "segment_min", "segment_prod"]

_Kind = Literal["sum", "max", "min", "prod"]


class _ScatterFn(Protocol):
    """The shape shared by ``lax.scatter_add``/``_max``/``_min``/``_mul``."""

    def __call__(
        self,
        operand: ArrayLike,
        scatter_indices: ArrayLike,
        updates: ArrayLike,
        dimension_numbers: ScatterDimensionNumbers,
        *,
        indices_are_sorted: bool = False,
        unique_indices: bool = False,
        mode: str | GatherScatterMode | None = None,
    ) -> Array: ...


_SCATTERS: dict[_Kind, _ScatterFn] = {"sum": scatter_add, "max": scatter_max, "min": scatter_min, "prod": scatter_mul}

# The reduction over buckets for each kind (bucket_size only).
_REDUCERS: dict[_Kind, Callable[[Array], Array]] = {
    "sum": lambda x: red.sum(x, axis=0),
    "max": lambda x: red.max(x, axis=0),
    "min": lambda x: red.min(x, axis=0),
    "prod": lambda x: red.prod(x, axis=0),
}

# JAX converts index arrays to int32 (its index dtype for any shape an array
# can practically have), so wider ids wrap exactly as they do in JAX.
_INDEX_DTYPE = np.dtype(np.int32)


def _identity(kind: _Kind, dtype: np.dtype[np.generic], where: str) -> Array:
    """The value empty segments get: the combiner's identity in ``dtype``
    (strongly typed, so results are never weak, as in JAX)."""
    value: bool | int | float
    if kind in ("sum", "prod"):
        value = 0 if kind == "sum" else 1
    elif dtypes.is_bool(dtype):
        value = kind == "min"
    elif dtypes.is_integer(dtype):
        low, high = dtypes.integer_bounds(dtype)
        value = low if kind == "max" else high
    else:  # floating and complex: -inf + 0j for max, as JAX fills them
        value = -np.inf if kind == "max" else np.inf
    return scalar_like(value, dtype, where, weak_type=False)


def _mode(mode: GatherScatterMode | str | None, where: str) -> GatherScatterMode:
    """``mode`` parsed; ``None`` drops out-of-range ids (JAX's default here,
    unlike ``lax.scatter``'s)."""
    if mode is None:
        return GatherScatterMode.FILL_OR_DROP
    try:
        return GatherScatterMode.from_any(mode)
    except JaxtypedValueError:
        raise JaxtypedValueError(
            f'{where}: unknown mode {mode!r}; expected "clip", "fill", "drop", "promise_in_bounds", '
            "a lax.GatherScatterMode or None"
        ) from None


def _static_int(value: SupportsIndex, what: str, where: str) -> int:
    """A static integer argument; a traced array raises JAX's concretization error."""
    if isinstance(value, Array) and not isinstance(value, ArrayImpl):
        raise ConcretizationTypeError(
            f"{where}: {what} must be a static integer (it fixes the result's shape), "
            f"got a traced array {value.aval.str_short()}"
        )
    try:
        return operator.index(value)
    except TypeError:
        raise JaxtypedTypeError(
            f"{where}: {what} must be an integer, got {type(value).__name__} {value!r}"
        ) from None


def _num_segments(num_segments: SupportsIndex | None, ids: Array, where: str) -> int:
    """``num_segments``, or ``max(segment_ids) + 1`` read from concrete ids."""
    if num_segments is None:
        if not isinstance(ids, ArrayImpl):
            raise ConcretizationTypeError(
                f"{where}: num_segments=None means max(segment_ids) + 1, which needs concrete segment_ids; "
                f"got a traced {ids.aval.str_short()}. Pass num_segments (a static int) under jit and vmap."
            )
        host = np.asarray(ids)
        if host.size == 0:
            raise JaxtypedValueError(
                f"{where}: num_segments=None needs at least one segment id (max(segment_ids) + 1); "
                f"segment_ids is empty ({ids.aval.str_short()}). Pass num_segments."
            )
        count = int(host.max()) + 1  # a Python int: no wrap-around for the largest uint8 id
    else:
        count = _static_int(num_segments, "num_segments", where)
    if count < 0:
        raise JaxtypedValueError(f"{where}: num_segments must be non-negative, got {count}")
    return count


def _bucket_size(bucket_size: SupportsIndex, where: str) -> int:
    size = _static_int(bucket_size, "bucket_size", where)
    # JAX's errors for these: a division by zero, and a negative bucket count
    # rejected as a shape (TypeError).
    if size == 0:
        raise JaxtypedZeroDivisionError(f"{where}: bucket_size must be positive, got 0")
    if size < 0:
        raise JaxtypedTypeError(f"{where}: bucket_size must be positive, got {size}")
    return size


def _broadcast_shapes(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...] | None:
    """NumPy's broadcast of two shapes, or None when they do not broadcast."""
    try:
        return tuple(int(d) for d in np.broadcast_shapes(a, b))
    except ValueError:
        return None


def _updates(x: Array, target: tuple[int, ...], ids: Array, where: str) -> Array:
    """``data`` broadcast to ``target`` (the shape ``out[segment_ids]`` has:
    ``segment_ids.shape + data.shape[1:]``), as JAX's indexed update does."""
    if _broadcast_shapes(x.shape, target) != target:
        raise JaxtypedValueError(
            f"{where}: data {x.aval.str_short()} does not match segment_ids {ids.aval.str_short()}: "
            f"data must broadcast to segment_ids.shape + data.shape[1:] = {target}"
        )
    return broadcast_to_shape(x, target)


def _segment_reduce(
    kind: _Kind,
    data: ArrayLike,
    segment_ids: ArrayLike,
    num_segments: SupportsIndex | None,
    indices_are_sorted: bool,
    unique_indices: bool,
    bucket_size: SupportsIndex | None,
    mode: GatherScatterMode | str | None,
    out_sharding: None,
) -> Array:
    """The body of every ``segment_<kind>``."""
    where = f"ops.segment_{kind}"
    check_arraylike(where, data, segment_ids)
    x = to_array(data, f"{where} argument data")
    ids = to_array(segment_ids, f"{where} argument segment_ids")
    if out_sharding is not None:
        raise JaxtypedNotImplementedError(
            f"{where}: out_sharding is not supported; pass None and place the result with "
            "jaxtyped.reshard or jit's out_shardings"
        )
    if not dtypes.is_integer(ids.dtype):
        # JAX reads boolean ids as a mask (an accident of its indexing); an
        # id is an integer here, as its documentation says.
        raise JaxtypedTypeError(f"{where}: segment_ids must have an integer dtype, got {ids.aval.str_short()}")
    if kind in ("sum", "prod") and dtypes.is_bool(x.dtype):
        op = "add" if kind == "sum" else "mul"
        raise JaxtypedTypeError(
            f"{where}: data {x.aval.str_short()} has dtype bool, which the scatter-{op} of a segment "
            f"{kind} does not accept (as in JAX); use an integer, floating or complex dtype"
        )
    parsed_mode = _mode(mode, where)
    count = _num_segments(num_segments, ids, where)
    dtype = x.dtype
    # The result is never weakly typed (JAX fills it with an explicit dtype).
    x = convert_to(x, dtype, weak_type=False)
    rest = x.shape[1:]
    ids32 = convert_to(ids, _INDEX_DTYPE, weak_type=False)
    fill = _identity(kind, dtype, where)
    scatter = _SCATTERS[kind]
    flags = {"indices_are_sorted": bool(indices_are_sorted), "unique_indices": bool(unique_indices)}

    if bucket_size is None:
        out = ls.broadcast_in_dim(fill, (count, *rest), ())
        target = (*ids.shape, *rest)
        if 0 in target:  # nothing lands: JAX returns the filled rows before it looks at data's shape
            return out
        updates = _updates(x, target, ids, where)
        if 0 in out.shape:  # no rows (or empty ones) to land in: every update is dropped
            return out
        indices = ls.expand_dims(ids32, (ids.ndim,))
        dnums = ScatterDimensionNumbers(
            update_window_dims=tuple(range(ids.ndim, len(target))),
            inserted_window_dims=(0,),
            scatter_dims_to_operand_dims=(0,),
        )
        return scatter(out, indices, updates, dnums, mode=parsed_mode, **flags)

    size = _bucket_size(bucket_size, where)
    if ids.ndim == 0:
        raise JaxtypedIndexError(f"{where}: bucket_size needs segment_ids with a leading axis, got {ids.aval.str_short()}")
    buckets = -(-ids.size // size)
    out = ls.broadcast_in_dim(fill, (buckets, count, *rest), ())
    # Entry i of the leading axis goes to bucket i // size; the two index
    # arrays (buckets along ids' leading axis, ids behind a unit axis)
    # broadcast together as JAX's advanced indexing broadcasts them.
    bucket_of = np.arange(ids.shape[0], dtype=_INDEX_DTYPE) // size
    index_shape = _broadcast_shapes(bucket_of.shape, (1, *ids.shape))
    if index_shape is None:
        raise JaxtypedValueError(
            f"{where}: with bucket_size, the bucket index of shape {bucket_of.shape} (one per entry of "
            f"segment_ids' leading axis) does not broadcast with segment_ids[None] of shape {(1, *ids.shape)}"
        )
    target = (*index_shape, *rest)
    # As above: no updates, no look at data's shape; no rows, nothing to scatter.
    if 0 not in target:
        updates = _updates(x, target, ids, where)
        if 0 not in out.shape:
            bucket_index = asarray(np.broadcast_to(bucket_of, index_shape)[..., None])
            segment_index = broadcast_to_shape(ls.expand_dims(ids32, (0, ids.ndim + 1)), (*index_shape, 1))
            indices = ls.concatenate([bucket_index, segment_index], len(index_shape))
            dnums = ScatterDimensionNumbers(
                update_window_dims=tuple(range(len(index_shape), len(target))),
                inserted_window_dims=(0, 1),
                scatter_dims_to_operand_dims=(0, 1),
            )
            out = scatter(out, indices, updates, dnums, mode=parsed_mode, **flags)
    # jnp's reductions accumulate small integers in the default int: back to data's dtype.
    return convert_to(_REDUCERS[kind](out), dtype, weak_type=False)


def segment_sum(
    data: ArrayLike,
    segment_ids: ArrayLike,
    num_segments: SupportsIndex | None = None,
    indices_are_sorted: bool = False,
    unique_indices: bool = False,
    bucket_size: SupportsIndex | None = None,
    mode: GatherScatterMode | str | None = None,
    out_sharding: None = None,
) -> Array:
    """Sums of the rows of ``data`` (its leading axis) in each segment:
    ``result[s] = sum(data[i] for i where segment_ids[i] == s)``, of shape
    ``(num_segments,) + data.shape[1:]`` and ``data``'s dtype; empty segments
    are 0.

    ``num_segments`` defaults to ``max(segment_ids) + 1`` (so it must be given
    under ``jit``); ids outside ``[0, num_segments)`` are dropped unless
    ``mode`` says otherwise (``"clip"``, ``"promise_in_bounds"``).
    ``bucket_size`` sums each run of that many entries separately first, for
    accuracy. ``indices_are_sorted``/``unique_indices`` are promises passed
    to the scatter. ``out_sharding`` must be None.
    """
    return _segment_reduce(
        "sum", data, segment_ids, num_segments, indices_are_sorted, unique_indices, bucket_size, mode, out_sharding
    )


def segment_max(
    data: ArrayLike,
    segment_ids: ArrayLike,
    num_segments: SupportsIndex | None = None,
    indices_are_sorted: bool = False,
    unique_indices: bool = False,
    bucket_size: SupportsIndex | None = None,
    mode: GatherScatterMode | str | None = None,
    out_sharding: None = None,
) -> Array:
    """Maxima of the rows of ``data`` in each segment (see :func:`segment_sum`
    for the arguments); empty segments are ``-inf``, the dtype's smallest
    integer, or False."""
    return _segment_reduce(
        "max", data, segment_ids, num_segments, indices_are_sorted, unique_indices, bucket_size, mode, out_sharding
    )


def segment_min(
    data: ArrayLike,
    segment_ids: ArrayLike,
    num_segments: SupportsIndex | None = None,
    indices_are_sorted: bool = False,
    unique_indices: bool = False,
    bucket_size: SupportsIndex | None = None,
    mode: GatherScatterMode | str | None = None,
    out_sharding: None = None,
) -> Array:
    """Minima of the rows of ``data`` in each segment (see :func:`segment_sum`
    for the arguments); empty segments are ``inf``, the dtype's largest
    integer, or True."""
    return _segment_reduce(
        "min", data, segment_ids, num_segments, indices_are_sorted, unique_indices, bucket_size, mode, out_sharding
    )


def segment_prod(
    data: ArrayLike,
    segment_ids: ArrayLike,
    num_segments: SupportsIndex | None = None,
    indices_are_sorted: bool = False,
    unique_indices: bool = False,
    bucket_size: SupportsIndex | None = None,
    mode: GatherScatterMode | str | None = None,
    out_sharding: None = None,
) -> Array:
    """Products of the rows of ``data`` in each segment (see
    :func:`segment_sum` for the arguments); empty segments are 1. As in JAX,
    its derivative with respect to ``data`` needs ``unique_indices=True``."""
    return _segment_reduce(
        "prod", data, segment_ids, num_segments, indices_are_sorted, unique_indices, bucket_size, mode, out_sharding
    )
