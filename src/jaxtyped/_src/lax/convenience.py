"""``jax.lax`` functions that are compositions of other primitives
(layer L4): ``select``, ``full``, ``full_like``, ``broadcast_shapes``,
``broadcast_to_rank``, ``broadcast_like``, ``collapse``, ``index_in_dim``,
``dynamic_update_index_in_dim``, ``dynamic_update_slice_in_dim``,
``index_take``, ``batch_matmul``, ``split``, ``tile``, ``stack``,
``unstack``, ``empty``, ``dtype`` and ``associative_scan``, with JAX's
signatures, results and errors."""

import builtins
from collections.abc import Callable, Sequence
from typing import Any, TypeVar, cast

import numpy as np
from typing_extensions import TypeIs

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike, ShapeLike
from jaxtyped._src.core.array_impl import is_numpy_value, is_python_scalar
from jaxtyped._src.core.key_layout import key_dispatch, key_dispatch2  # random family
from jaxtyped._src.errors import JaxtypedIndexError, JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.lax.arithmetic import add, rem
from jaxtyped._src.lax.comparison import bitwise_or, lt
from jaxtyped._src.lax.dot import PrecisionLike, dot_general
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.lax.gather import GatherDimensionNumbers, gather
from jaxtyped._src.lax.slicing import dynamic_update_slice, slice_in_dim
from jaxtyped._src.lax.structural import (
    broadcast,
    broadcast_in_dim,
    concatenate,
    expand_dims,
    pad,
    reshape,
    rev,
    select_n,
    squeeze,
)
from jaxtyped._src.lax.util import leaf_as_array, named_leaves, as_operand, operands_same_kind, scalar_like
from jaxtyped._src.util import canonicalize_axis, is_int, prod

__all__ = [
    "select", "full", "full_like", "broadcast_shapes", "broadcast_to_rank", "broadcast_like", "collapse",
    "index_in_dim", "dynamic_update_index_in_dim", "dynamic_update_slice_in_dim", "index_take",
    "batch_matmul", "split", "tile", "stack", "unstack", "empty", "dtype", "associative_scan",
]

T = TypeVar("T")


def select(pred: ArrayLike, on_true: ArrayLike, on_false: ArrayLike) -> Array:
    """``on_true`` where ``pred`` holds, else ``on_false`` (JAX's
    ``lax.select``; operands of one dtype, no promotion)."""
    if (keys := key_dispatch2(lambda t, f: select(pred, t, f), on_true, on_false)) is not None:  # random family
        return keys
    which = as_operand(pred, "lax.select pred")
    a, b = operands_same_kind("select", on_false, on_true)
    return select_n(which, a, b)


def _shape(where: str, shape: ShapeLike) -> tuple[int, ...]:
    items = [shape] if is_int(shape) else shape
    if not isinstance(items, Sequence) or not all(is_int(d) for d in items):
        raise JaxtypedTypeError(f"{where}: shape must be a sequence of ints, got {shape!r}")
    result = tuple(int(cast(int, d)) for d in items)
    if any(d < 0 for d in result):
        raise JaxtypedValueError(f"{where}: shape {result} has a negative dimension")
    return result


def full(shape: ShapeLike, fill_value: ArrayLike, dtype: "dtypes.DTypeLike | None" = None) -> Array:
    """An array of ``shape`` filled with ``fill_value`` (JAX's
    ``lax.full``): of ``dtype``, or of the fill value's (weak) type."""
    dims = _shape("lax.full", shape)
    value = as_operand(fill_value, "lax.full fill_value")
    if value.ndim:
        raise JaxtypedTypeError(f"full must be called with scalar fill_value, got fill_value.shape {value.shape}.")
    if dtype is None:
        converted = value
    else:
        converted = convert_to(value, dtypes.canonicalize_dtype(dtypes.dtype(dtype)), weak_type=False)
    return broadcast(converted, dims)


def full_like(
    x: ArrayLike, fill_value: ArrayLike, dtype: "dtypes.DTypeLike | None" = None, shape: ShapeLike | None = None
) -> Array:
    """An array like ``x`` (its shape, dtype and weak type unless given)
    filled with ``fill_value`` (JAX's ``lax.full_like``)."""
    like = as_operand(x, "lax.full_like x")
    dims = like.shape if shape is None else _shape("lax.full_like", shape)
    target = like.dtype if dtype is None else dtypes.canonicalize_dtype(dtypes.dtype(dtype))
    weak = dtype is None and like.weak_type
    value = as_operand(fill_value, "lax.full_like fill_value")
    if value.ndim:
        raise JaxtypedTypeError(f"full must be called with scalar fill_value, got fill_value.shape {value.shape}.")
    return broadcast(convert_to(value, target, weak_type=weak), dims)


def broadcast_shapes(*shapes: Sequence[int]) -> tuple[int, ...]:
    """The shape that arrays of ``shapes`` broadcast to (NumPy's rule;
    JAX's ``lax.broadcast_shapes``)."""
    if not shapes:
        raise JaxtypedValueError("lax.broadcast_shapes: needs at least one shape")
    as_tuples = [tuple(_shape("lax.broadcast_shapes", s)) for s in shapes]
    rank = builtins.max(len(s) for s in as_tuples)
    padded = [(1,) * (rank - len(s)) + s for s in as_tuples]
    result: list[int] = []
    for sizes in zip(*padded):
        big = {d for d in sizes if d != 1}
        if len(big) > 1:
            raise JaxtypedValueError(f"Incompatible shapes for broadcasting: shapes={as_tuples}")
        result.append(big.pop() if big else 1)
    return tuple(result)


def broadcast_to_rank(x: ArrayLike, rank: int) -> Array:
    """``x`` with leading axes of size 1 added up to ``rank`` axes (JAX's
    ``lax.broadcast_to_rank``)."""
    value = as_operand(x, "lax.broadcast_to_rank x")
    return broadcast(value, (1,) * builtins.max(rank - value.ndim, 0))


def broadcast_like(arr: ArrayLike, like_arr: ArrayLike) -> Array:
    """``arr`` broadcast (NumPy's rule) to the shape of ``like_arr``, its
    dtype kept (JAX's ``lax.broadcast_like``)."""
    value = as_operand(arr, "lax.broadcast_like arr")
    shape = as_operand(like_arr, "lax.broadcast_like like_arr").shape
    if value.ndim > len(shape):
        raise JaxtypedValueError(
            f"Cannot broadcast to shape with fewer dimensions: arr_shape={value.shape} shape={shape}"
        )
    lead = len(shape) - value.ndim
    if any(d != 1 and d != shape[lead + i] for i, d in enumerate(value.shape)):
        raise JaxtypedValueError(
            f"Incompatible types for broadcasting: input type={value.aval.str_short()} and requested shape {shape}"
        )
    stretched = tuple(i for i, d in enumerate(value.shape) if d != shape[lead + i])
    kept = tuple(lead + i for i in range(value.ndim) if i not in stretched)
    return broadcast_in_dim(squeeze(value, stretched), shape, kept)


def collapse(operand: ArrayLike, start_dimension: int, stop_dimension: int | None = None) -> Array:
    """``operand`` with axes ``[start_dimension, stop_dimension)`` merged
    into one (JAX's ``lax.collapse``)."""
    x = as_operand(operand, "lax.collapse operand")
    lo = canonicalize_axis(start_dimension, x.ndim, where="lax.collapse start_dimension") if x.ndim else 0
    hi = x.ndim if stop_dimension is None else stop_dimension
    hi = hi + x.ndim if hi < 0 else hi
    if not 0 <= lo <= hi <= x.ndim:
        raise JaxtypedValueError(f"Invalid dimension range passed to collapse: {x.shape}[{start_dimension}:{stop_dimension}]")
    return reshape(x, (*x.shape[:lo], prod(x.shape[lo:hi]), *x.shape[hi:]))


def index_in_dim(operand: ArrayLike, index: int, axis: int = 0, keepdims: bool = True) -> Array:
    """The slice at static ``index`` along ``axis`` (JAX's
    ``lax.index_in_dim``); negative indices count from the end."""
    if (keys := key_dispatch(lambda k: index_in_dim(k, index, axis, keepdims), operand)) is not None:  # random family
        return keys
    x = as_operand(operand, "lax.index_in_dim operand")
    ax = canonicalize_axis(axis, x.ndim, where="lax.index_in_dim axis")
    if not is_int(index):
        raise JaxtypedTypeError(f"lax.index_in_dim: index must be a static int, got {index!r}")
    size = x.shape[ax]
    i = int(index) + size if int(index) < 0 else int(index)
    if not 0 <= i < size:
        raise JaxtypedIndexError(f"index {index} is out of bounds for axis {ax} with size {size}")
    sliced = slice_in_dim(x, i, i + 1, 1, ax)
    return sliced if keepdims else squeeze(sliced, (ax,))


def dynamic_update_slice_in_dim(
    operand: ArrayLike, update: ArrayLike, start_index: ArrayLike, axis: int, *, allow_negative_indices: bool = True
) -> Array:
    """``dynamic_update_slice`` along one axis (JAX's
    ``lax.dynamic_update_slice_in_dim``)."""
    x = as_operand(operand, "lax.dynamic_update_slice_in_dim operand")
    ax = canonicalize_axis(axis, x.ndim, where="lax.dynamic_update_slice_in_dim axis")
    if not allow_negative_indices and is_int(start_index) and int(start_index) < 0:
        raise JaxtypedValueError(
            f"Index {start_index} is out of bounds for dimension {x.shape[ax]} if allow_negative_indices=False"
        )
    starts: list[ArrayLike] = [start_index if i == ax else 0 for i in range(x.ndim)]
    return dynamic_update_slice(x, update, starts, allow_negative_indices=allow_negative_indices)


def dynamic_update_index_in_dim(
    operand: ArrayLike, update: ArrayLike, index: ArrayLike, axis: int, *, allow_negative_indices: bool = True
) -> Array:
    """Write ``update`` (with or without the size-1 ``axis``) at ``index``
    along ``axis`` (JAX's ``lax.dynamic_update_index_in_dim``)."""
    x = as_operand(operand, "lax.dynamic_update_index_in_dim operand")
    upd = as_operand(update, "lax.dynamic_update_index_in_dim update")
    ax = canonicalize_axis(axis, x.ndim, where="lax.dynamic_update_index_in_dim axis")
    if upd.ndim == x.ndim - 1:
        upd = expand_dims(upd, (ax,))
    return dynamic_update_slice_in_dim(x, upd, index, ax, allow_negative_indices=allow_negative_indices)


def _wrapped(index: Array, size: int) -> Array:
    """Integer indices taken modulo ``size`` (negative ones count from
    the end, as JAX's ``index_take`` does)."""
    if not dtypes.is_signed_integer(index.dtype) or size == 0:
        return index
    bound = scalar_like(size, index.dtype, "lax.index_take", weak_type=False)
    remainder = rem(index, bound)
    return select_n(lt(remainder, scalar_like(0, index.dtype, "lax.index_take", weak_type=False)), remainder,
                    add(remainder, bound))


def index_take(src: ArrayLike, idxs: Sequence[ArrayLike], axes: Sequence[int]) -> Array:
    """``src[idxs[0], idxs[1], ...]`` along ``axes`` (JAX's
    ``lax.index_take``): the index axis first, then ``src``'s other axes."""
    x = as_operand(src, "lax.index_take src")
    axs = tuple(canonicalize_axis(a, x.ndim, where="lax.index_take axes") for a in axes)
    if len(idxs) != len(axs):
        raise JaxtypedValueError(f"lax.index_take: {len(idxs)} index arrays for {len(axs)} axes")
    given = [as_operand(i, f"lax.index_take idxs[{k}]") for k, i in enumerate(idxs)]
    if any(not dtypes.is_integer(i.dtype) for i in given):
        shown = ", ".join(i.aval.str_short() for i in given)
        raise JaxtypedValueError(f"lax.index_take: indices must have an integer type, got ({shown})")
    columns = [expand_dims(_wrapped(i, x.shape[a]), (1,)) for i, a in zip(given, axs)]
    if not columns:
        raise JaxtypedValueError("lax.index_take: needs at least one index array")
    indices = concatenate(columns, 1)
    offset = tuple(range(1, 1 + x.ndim - len(axs)))
    numbers = GatherDimensionNumbers(offset_dims=offset, collapsed_slice_dims=tuple(sorted(axs)), start_index_map=axs)
    sizes = [1 if i in axs else d for i, d in enumerate(x.shape)]
    return gather(x, indices, numbers, sizes)


def batch_matmul(lhs: ArrayLike, rhs: ArrayLike, precision: PrecisionLike = None) -> Array:
    """Matrix products batched over all but the last two axes (JAX's
    ``lax.batch_matmul``)."""
    a = as_operand(lhs, "lax.batch_matmul lhs")
    b = as_operand(rhs, "lax.batch_matmul rhs")
    if a.ndim != b.ndim:
        raise JaxtypedValueError(f"Arguments to batch_matmul must have same ndim, got {a.ndim}, {b.ndim}")
    if a.ndim < 2:
        raise JaxtypedValueError(f"Arguments to batch_matmul must be at least 2D, got {a.ndim}, {b.ndim}")
    batch = tuple(range(a.ndim - 2))
    return dot_general(a, b, (((a.ndim - 1,), (b.ndim - 2,)), (batch, batch)), precision)


def split(operand: ArrayLike, sizes: Sequence[int], axis: int = 0) -> list[Array]:
    """Consecutive pieces of ``sizes`` along ``axis`` (JAX's ``lax.split``)."""
    x = as_operand(operand, "lax.split operand")
    ax = canonicalize_axis(axis, x.ndim, where="lax.split axis")
    lengths = [int(s) for s in sizes]
    if any(s < 0 for s in lengths) or sum(lengths) != x.shape[ax]:
        raise JaxtypedValueError(
            f"Sum of sizes {sum(lengths)} must be equal to dimension {ax} of the operand shape {list(x.shape)}"
        )
    pieces: list[Array] = []
    start = 0
    for size in lengths:
        pieces.append(slice_in_dim(x, start, start + size, 1, ax))
        start += size
    return pieces


def tile(operand: ArrayLike, reps: Sequence[int]) -> Array:
    """``operand`` repeated ``reps[i]`` times along each axis ``i`` (JAX's
    ``lax.tile``; one rep per axis)."""
    x = as_operand(operand, "lax.tile operand")
    counts = tuple(int(r) for r in reps)
    if len(counts) != x.ndim:
        raise JaxtypedTypeError(f"reps length must be equal to the ndim of x, got len(reps)={len(counts)} and x.ndim={x.ndim}.")
    shape = tuple(d for pair in zip(counts, x.shape) for d in pair)
    tiled = broadcast_in_dim(x, shape, tuple(range(1, 2 * x.ndim, 2)))
    return reshape(tiled, tuple(r * d for r, d in zip(counts, x.shape)))


def stack(operands: Sequence[ArrayLike], axis: int = 0) -> Array:
    """Arrays of one shape joined along a new ``axis`` (JAX's ``lax.stack``)."""
    arrays = operands_same_kind("stack", *operands) if operands else ()
    if not arrays:
        raise JaxtypedValueError("lax.stack: needs at least one operand")
    if any(a.ndim != arrays[0].ndim for a in arrays):
        shapes = ", ".join(str(a.shape) for a in arrays)
        raise JaxtypedValueError(f"Cannot stack arrays with different numbers of dimensions: got {shapes}.")
    ax = canonicalize_axis(axis, arrays[0].ndim + 1, where="lax.stack axis")
    return concatenate([expand_dims(a, (ax,)) for a in arrays], ax)


def unstack(x: ArrayLike, axis: int = 0) -> tuple[Array, ...]:
    """The slices of ``x`` along ``axis`` (JAX's ``lax.unstack``)."""
    value = as_operand(x, "lax.unstack x")
    if not value.ndim:
        raise JaxtypedValueError("lax.unstack requires arrays with rank > 0, however a scalar array was passed.")
    ax = canonicalize_axis(axis, value.ndim, where="lax.unstack axis")
    return tuple(index_in_dim(value, i, ax, keepdims=False) for i in range(value.shape[ax]))


def empty(shape: ShapeLike, dtype: "dtypes.DTypeLike") -> Array:
    """An array of ``shape`` and ``dtype`` whose contents do not matter
    (zeros, as JAX's ``lax.empty``)."""
    target = dtypes.canonicalize_dtype(dtypes.dtype(dtype))
    return broadcast(scalar_like(0, target, "lax.empty", weak_type=False), _shape("lax.empty", shape))


def _is_dtype(x: object) -> TypeIs[np.dtype[Any]]:
    return isinstance(x, np.dtype)


def dtype(x: object) -> np.dtype[Any]:
    """The canonical dtype of a value or dtype specifier (JAX's
    ``lax.dtype``): Python scalars get the default dtype of their kind,
    64-bit dtypes become 32-bit without x64."""
    if isinstance(x, Array):
        return x.dtype
    if x is None:
        raise JaxtypedValueError("Invalid argument to dtype: None.")
    if is_python_scalar(x):
        return dtypes.python_scalar_dtype(x)
    if is_numpy_value(x):
        return dtypes.canonicalize_dtype(x.dtype)
    found: object = getattr(x, "dtype", None)
    if _is_dtype(found):
        return dtypes.canonicalize_dtype(found)
    return dtypes.canonicalize_dtype(dtypes.dtype(cast("dtypes.DTypeLike", x)))


# === associative_scan ===


def _stride_slice(x: Array, start: int, stop: int, stride: int, axis: int) -> Array:
    return slice_in_dim(x, start, builtins.max(start, stop), stride, axis)


def _interleave(evens: Array, odds: Array, axis: int) -> Array:
    """``evens[0], odds[0], evens[1], ...`` along ``axis`` (``evens`` as
    long as ``odds`` or one longer): both spread with interior zeros and
    summed (or-ed, for booleans)."""
    same = evens.shape[axis] == odds.shape[axis]
    none = [(0, 0, 0)] * evens.ndim
    evens_config, odds_config = list(none), list(none)
    evens_config[axis] = (0, 1 if same else 0, 1)
    odds_config[axis] = (1, 0 if same else 1, 1)
    zero_e = scalar_like(0, evens.dtype, "associative_scan", weak_type=False)
    zero_o = scalar_like(0, odds.dtype, "associative_scan", weak_type=False)
    spread_e, spread_o = pad(evens, zero_e, evens_config), pad(odds, zero_o, odds_config)
    if dtypes.is_bool(evens.dtype):
        return bitwise_or(spread_e, spread_o)
    return add(spread_e, spread_o)


def associative_scan(fn: Callable[[T, T], T], elems: T, reverse: bool = False, axis: int = 0) -> T:
    """Inclusive scan of ``elems`` (a pytree of arrays of one length along
    ``axis``) with the associative ``fn`` (JAX's ``lax.associative_scan``):
    ``fn`` combines pytrees of arrays elementwise; the scan pairs adjacent
    elements, scans the pairs, then fills in the even positions, so it
    applies ``fn`` O(n) times in O(log n) rounds, exactly as JAX does."""
    leaves, names, treedef = named_leaves(elems, "elems")
    arrays = [leaf_as_array(leaf, f"lax.associative_scan {name}") for leaf, name in zip(leaves, names)]
    if not arrays:
        raise JaxtypedValueError("lax.associative_scan: elems has no arrays")
    if any(not a.ndim for a in arrays):
        raise JaxtypedValueError("lax.associative_scan: elems must be arrays of rank >= 1 (scalars have no axis to scan)")
    ax = canonicalize_axis(axis, arrays[0].ndim, where="lax.associative_scan axis")
    length = arrays[0].shape[ax]
    if any(a.ndim <= ax or a.shape[ax] != length for a in arrays):
        shown = [a.shape for a in arrays]
        raise JaxtypedValueError(f"Array inputs to associative_scan must have the same first dimension. (saw: {shown})")
    if reverse:
        arrays = [rev(a, (ax,)) for a in arrays]

    def combine(a: list[Array], b: list[Array]) -> list[Array]:
        out = fn(cast(T, treedef.unflatten(a)), cast(T, treedef.unflatten(b)))
        out_leaves, out_names, out_tree = named_leaves(out, "output")
        if out_tree != treedef:
            raise JaxtypedTypeError(
                f"lax.associative_scan: fn must return the structure of elems ({treedef}), got {out_tree}"
            )
        outs = [leaf_as_array(leaf, f"lax.associative_scan fn {name}") for leaf, name in zip(out_leaves, out_names)]
        for out_leaf, name, given in zip(outs, out_names, a):
            if out_leaf.shape != given.shape:
                raise JaxtypedTypeError(
                    f"lax.associative_scan: fn must combine elementwise, returning arrays of its inputs' shapes; "
                    f"fn {name} is {out_leaf.aval.str_short()} for inputs {given.aval.str_short()}"
                )
        return outs

    def scan(xs: list[Array]) -> list[Array]:
        n = xs[0].shape[ax]
        if n < 2:
            return xs
        pairs = combine([_stride_slice(x, 0, n - 1, 2, ax) for x in xs], [_stride_slice(x, 1, n, 2, ax) for x in xs])
        odds = scan(pairs)
        later_evens = [_stride_slice(x, 2, n, 2, ax) for x in xs]
        if n % 2 == 0:
            evens = combine([_stride_slice(o, 0, o.shape[ax] - 1, 1, ax) for o in odds], later_evens)
        else:
            evens = combine(odds, later_evens)
        evens = [concatenate([_stride_slice(x, 0, 1, 1, ax), e], ax) for x, e in zip(xs, evens)]
        return [_interleave(e, o, ax) for e, o in zip(evens, odds)]

    scanned = scan(arrays)
    if reverse:
        scanned = [rev(s, (ax,)) for s in scanned]
    return cast(T, treedef.unflatten(scanned))
