"""Array manipulation for ``jaxtyped.numpy`` (layer L5): tiling and
repeating, splitting, flipping and rolling, triangles and diagonals,
stacking, broadcasting helpers, insertion and deletion, applying functions
along axes, and bit packing (``pad`` is in ``padding.py``, the small
products in ``vector_products.py``).

Everything here is a composition of lax primitives (slices, concatenations,
gathers, selects), so jit, vmap and the derivatives come from theirs.
Static arguments (repeat counts, split points, indices) must be concrete,
as in JAX.
"""

import builtins
from collections.abc import Callable, Sequence
from typing import Any, cast, overload

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.api import vmap
from jaxtyped._src.core.array import Array, ArrayLike, ShapeLike
from jaxtyped._src.core.array_impl import ArrayImpl
from jaxtyped._src.core.avals import ShapedArray
from jaxtyped._src.errors import (
    ConcretizationTypeError,
    JaxtypedIndexError,
    JaxtypedTypeError,
    JaxtypedValueError,
    ShapeMismatchError,
)
from jaxtyped._src.lax import arithmetic as la
from jaxtyped._src.lax import comparison as lcmp
from jaxtyped._src.lax import structural as ls
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.lax.cumulative import cumsum as lax_cumsum
from jaxtyped._src.lax.gather import ScatterDimensionNumbers, scatter_add
from jaxtyped._src.lax.slicing import dynamic_slice_in_dim
from jaxtyped._src.lax.slicing import slice as lax_slice
from jaxtyped._src.lax.util import scalar_like
from jaxtyped._src.numpy import reductions as red
from jaxtyped._src.numpy.creation import array, asarray, check_allocation, check_eager_size, on_device
from jaxtyped._src.numpy.manipulation_util import along, concrete_host, int_host, take_indices, take_static, zeros_of
from jaxtyped._src.numpy.promotion import (
    asarray_operand,
    broadcast_to_shape,
    check_arraylike,
    promote_dtypes,
)
from jaxtyped._src.numpy.promotion import broadcast_shapes as _broadcast_shapes
from jaxtyped._src.core.key_layout import key_dispatch, key_dispatch_seq  # random family
from jaxtyped._src.numpy.shape_ops import concatenate, moveaxis, ravel, reshape, swapaxes, transpose
from jaxtyped._src.runtime import xla
from jaxtyped._src.util import axis_tuple, canonicalize_axes, canonicalize_axis, index_arg, is_list_or_tuple, prod

__all__ = [
    "tile", "repeat", "split", "array_split", "hsplit", "vsplit", "dsplit", "flip",
    "fliplr", "flipud", "roll", "rot90", "rollaxis", "permute_dims", "matrix_transpose", "tril",
    "triu", "diag", "diagonal", "diagflat", "trace", "vstack", "hstack", "dstack", "column_stack",
    "block", "append", "concat", "unstack", "atleast_1d", "atleast_2d", "atleast_3d", "meshgrid",
    "broadcast_arrays", "broadcast_shapes", "copy", "delete", "insert", "resize", "trim_zeros",
    "apply_along_axis", "apply_over_axes", "astype", "packbits", "unpackbits",
]  # fmt: skip



# === tile, repeat ===


def tile(A: ArrayLike, reps: ShapeLike) -> Array:  # noqa: N803 - NumPy's name
    """``A`` repeated ``reps`` times along each axis (NumPy's ``tile``)."""
    if (keys := key_dispatch(lambda k: tile(k, reps), A)) is not None:  # random family: key arrays
        return keys
    x = asarray_operand("tile", A)
    counts = axis_tuple(reps, "jnp.tile: each entry of reps")
    if builtins.any(c < 0 for c in counts):
        raise JaxtypedValueError(f"jnp.tile: reps must be non-negative, got {counts}")
    ndim = builtins.max(len(counts), x.ndim)
    counts = (1,) * (ndim - len(counts)) + counts
    x = ls.reshape(x, (1,) * (ndim - x.ndim) + x.shape)
    check_eager_size("jnp.tile", tuple(c * d for c, d in zip(counts, x.shape)), x.dtype)
    interleaved = tuple(d for pair in zip(counts, x.shape) for d in pair)
    spread = ls.broadcast_in_dim(x, interleaved, tuple(range(1, 2 * ndim, 2)))
    return ls.reshape(spread, tuple(c * d for c, d in zip(counts, x.shape)))


def repeat(
    a: ArrayLike,
    repeats: ArrayLike,
    axis: int | None = None,
    *,
    total_repeat_length: int | None = None,
) -> Array:
    """Repeat each element ``repeats`` times along ``axis`` (the flattened
    array by default). Traced ``repeats`` need ``total_repeat_length``."""
    if (keys := key_dispatch(lambda k: repeat(k, repeats, axis, total_repeat_length=total_repeat_length), a)) is not None:  # random family: key arrays
        return keys
    x = asarray_operand("repeat", a)
    check_arraylike("repeat", repeats)
    x, ax = _flat_or_axis("repeat", x, axis)
    n = x.shape[ax]
    total = None if total_repeat_length is None else index_arg(total_repeat_length, "jnp.repeat: total_repeat_length")
    if not isinstance(repeats, Array) or isinstance(repeats, ArrayImpl):
        counts = int_host("repeat", "repeats", repeats)
        if counts.ndim > 1 or (counts.ndim == 1 and counts.size not in (1, n)):
            raise JaxtypedValueError(
                f"jnp.repeat: repeats must be a scalar or have one entry per element along axis {ax} ({n}), "
                f"got shape {counts.shape}"
            )
        if builtins.any(int(c) < 0 for c in counts.ravel()):
            raise JaxtypedValueError("jnp.repeat: repeats may not contain negative values")
        per_element = np.broadcast_to(counts.ravel(), (n,)) if counts.size else np.zeros((n,), np.int64)
        if counts.size == 1 and total is None:
            r = int(counts.ravel()[0])
            check_eager_size("jnp.repeat", x.shape[:ax] + (n * r,) + x.shape[ax + 1 :], x.dtype)
            shape = x.shape[: ax + 1] + (r,) + x.shape[ax + 1 :]
            dims = tuple(range(ax + 1)) + tuple(range(ax + 2, x.ndim + 1))
            spread = ls.broadcast_in_dim(x, shape, dims)
            return ls.reshape(spread, x.shape[:ax] + (n * r,) + x.shape[ax + 1 :])
        if total is None:
            return take_static(x, np.repeat(np.arange(n), per_element), ax)
        # JAX's rule (as _repeat_traced): truncate, or fill with the last element.
        starts = np.cumsum(per_element)[:-1]
        index = np.minimum(np.searchsorted(starts, np.arange(total), side="right"), builtins.max(n - 1, 0))
        return take_static(x, index, ax)
    if total is None:
        raise ConcretizationTypeError(
            "jnp.repeat: with traced repeats, total_repeat_length must be given (the result's size must be static)"
        )
    return _repeat_traced(x, repeats, ax, total)


def _flat_or_axis(name: str, x: Array, axis: int | None) -> tuple[Array, int]:
    """``x`` and the axis to work along: the flattened array's only axis
    when ``axis`` is None (NumPy's convention), else ``axis`` checked."""
    if axis is None:
        return ravel(x), 0
    return x, canonicalize_axis(axis, x.ndim, where=f"jnp.{name} axis")


def _repeat_traced(x: Array, repeats: Array, ax: int, total: int) -> Array:
    """``repeat`` with traced counts and a static ``total``, in O(n + total):
    a 1 is added where each element's run starts (after the first), and the
    running sum of those marks is each output position's source element.
    Positions past the counts' sum repeat the last element, as in JAX."""
    n = x.shape[ax]
    int32 = np.dtype(np.int32)
    counts = convert_to(repeats, int32, weak_type=False)
    if counts.ndim == 0 or counts.size == 1:
        counts = ls.broadcast_in_dim(ls.reshape(counts, ()), (n,), ())
    if n <= 1 or total == 0:
        source = ls.full_like_aval(ShapedArray((total,), int32), 0)
    else:
        starts = along(lax_cumsum(counts, 0), 0, 0, n - 1)  # where elements 1..n-1 begin
        dnums = ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,))
        ones = ls.full_like_aval(ShapedArray((n - 1,), int32), 1)
        marks = scatter_add(ls.full_like_aval(ShapedArray((total,), int32), 0), ls.reshape(starts, (n - 1, 1)), ones, dnums)
        source = la.min(lax_cumsum(marks, 0), scalar_like(n - 1, int32, "jnp.repeat", weak_type=False))
    return take_indices(x, ls.reshape(source, (total, 1)), ax)


# === split ===


def _split(name: str, ary: ArrayLike, indices_or_sections: object, axis: int, equal: bool) -> list[Array]:
    x = asarray_operand(name, ary)
    ax = canonicalize_axis(axis, x.ndim, where=f"jnp.{name} axis")
    n = x.shape[ax]
    host = concrete_host(name, "indices_or_sections", indices_or_sections)
    if host.ndim == 0:
        sections = index_arg(host.item(), f"jnp.{name}: indices_or_sections")
        if sections <= 0:
            raise JaxtypedValueError(f"jnp.{name}: number of sections must be larger than 0, got {sections}")
        if equal and n % sections:
            raise JaxtypedValueError(
                f"jnp.{name}: array split does not result in an equal division: {n} along axis {ax} into {sections}"
            )
        size, extra = divmod(n, sections)
        sizes = [size + 1] * extra + [size] * (sections - extra)
        bounds = np.cumsum([0, *sizes]).tolist()
    else:
        if host.dtype.kind not in "iu" and host.size:
            raise JaxtypedTypeError(f"jnp.{name}: indices_or_sections must be integers, got {indices_or_sections!r}")
        bounds = [0, *[int(p) for p in host.ravel()], n]
        sizes = [bounds[i + 1] - bounds[i] for i in range(len(bounds) - 1)]
        if builtins.any(size < 0 for size in sizes):
            # JAX's rule (NumPy would clip): split points must be increasing and within the axis.
            raise JaxtypedValueError(
                f"jnp.{name}: split points {host.tolist()} along an axis of size {n} give negative sizes {sizes}"
            )
    return [along(x, ax, bounds[i], bounds[i + 1]) for i in range(len(bounds) - 1)]


def split(ary: ArrayLike, indices_or_sections: int | Sequence[int] | ArrayLike, axis: int = 0) -> list[Array]:
    """Split into equal sections, or at the given indices, along ``axis``."""
    return _split("split", ary, indices_or_sections, axis, equal=True)


def array_split(ary: ArrayLike, indices_or_sections: int | Sequence[int] | ArrayLike, axis: int = 0) -> list[Array]:
    """``split`` that allows sections of unequal size (the first ones larger)."""
    return _split("array_split", ary, indices_or_sections, axis, equal=False)


def _split_min_rank(name: str, ary: ArrayLike, rank: int) -> Array:
    x = asarray_operand(name, ary)
    if x.ndim < rank:
        # IndexError, as JAX raises (the axis it splits along does not exist).
        raise JaxtypedIndexError(f"jnp.{name} only works on arrays of {rank} or more dimensions, got {x.aval.str_short()}")
    return x


def hsplit(ary: ArrayLike, indices_or_sections: int | Sequence[int] | ArrayLike) -> list[Array]:
    """``split`` along axis 1 (axis 0 for 1-d arrays)."""
    x = _split_min_rank("hsplit", ary, 1)
    return _split("hsplit", x, indices_or_sections, 1 if x.ndim > 1 else 0, equal=True)


def vsplit(ary: ArrayLike, indices_or_sections: int | Sequence[int] | ArrayLike) -> list[Array]:
    """``split`` along axis 0."""
    return _split("vsplit", _split_min_rank("vsplit", ary, 1), indices_or_sections, 0, equal=True)


def dsplit(ary: ArrayLike, indices_or_sections: int | Sequence[int] | ArrayLike) -> list[Array]:
    """``split`` along axis 2 (arrays of rank 3 or more)."""
    return _split("dsplit", _split_min_rank("dsplit", ary, 3), indices_or_sections, 2, equal=True)


# === flips, rolls, rotations, axis permutations ===


def flip(m: ArrayLike, axis: int | Sequence[int] | None = None) -> Array:
    """Reverse the order of elements along ``axis`` (all axes by default)."""
    if (keys := key_dispatch(lambda k: flip(k, axis), m)) is not None:  # random family: key arrays
        return keys
    x = asarray_operand("flip", m)
    axes = tuple(range(x.ndim)) if axis is None else canonicalize_axes(axis_tuple(axis, "jnp.flip axis"), x.ndim, where="jnp.flip axis")
    return ls.rev(x, axes) if axes else x


def fliplr(m: ArrayLike) -> Array:
    """Reverse along axis 1 (left/right)."""
    return flip(asarray_operand("fliplr", m), 1)


def flipud(m: ArrayLike) -> Array:
    """Reverse along axis 0 (up/down)."""
    return flip(asarray_operand("flipud", m), 0)


def _roll_axis(x: Array, shift: object, axis: int) -> Array:
    n = x.shape[axis]
    if n == 0:
        return x
    if isinstance(shift, Array) and not isinstance(shift, ArrayImpl):
        # Traced shift: a dynamic window into two copies side by side.
        s = convert_to(shift, np.dtype(np.int32), weak_type=False)
        size = scalar_like(n, np.dtype(np.int32), "jnp.roll", weak_type=False)
        start = la.rem(la.sub(size, la.rem(la.add(la.rem(s, size), size), size)), size)
        return dynamic_slice_in_dim(ls.concatenate([x, x], axis), start, n, axis)
    if isinstance(shift, (Array, np.ndarray, np.generic)):
        # (cast: isinstance leaves the ndarray's type arguments unknown)
        shift = np.asarray(cast("Array | np.ndarray[Any, np.dtype[Any]] | np.generic[Any]", shift)).item()
    k = index_arg(shift, "jnp.roll: shift") % n
    if k == 0:
        return x
    return ls.concatenate([along(x, axis, n - k, n), along(x, axis, 0, n - k)], axis)


def roll(a: ArrayLike, shift: ArrayLike | Sequence[int], axis: int | Sequence[int] | None = None) -> Array:
    """Shift elements cyclically by ``shift`` along ``axis`` (the flattened
    array by default); several shifts and axes broadcast against each other."""
    if (keys := key_dispatch(lambda k: roll(k, shift, axis), a)) is not None:  # random family: key arrays
        return keys
    x = asarray_operand("roll", a)
    if axis is None:
        return reshape(roll(ravel(x), shift, 0), x.shape)
    axes = axis_tuple(axis, "jnp.roll axis")
    shifts: list[object]
    if isinstance(shift, Array) and not isinstance(shift, ArrayImpl):
        if shift.ndim > 1:
            raise JaxtypedValueError("jnp.roll: shift must be a scalar or 1-d")
        shifts = [shift] if shift.ndim == 0 else [shift[i] for i in range(shift.shape[0])]
    else:
        host = int_host("roll", "shift", shift)
        if host.ndim > 1:
            raise JaxtypedValueError(f"jnp.roll: shift must be a scalar or 1-d, got shape {host.shape}")
        shifts = [int(s) for s in host.ravel()] if host.ndim else [int(host)]
    if len(shifts) != len(axes) and 1 not in (len(shifts), len(axes)):
        raise JaxtypedValueError(f"jnp.roll: {len(shifts)} shifts do not broadcast against {len(axes)} axes")
    count = builtins.max(len(shifts), len(axes))
    for s, ax in zip(shifts * (count // len(shifts)), axes * (count // len(axes))):
        x = _roll_axis(x, s, canonicalize_axis(ax, x.ndim, where="jnp.roll axis"))
    return x


def rot90(m: ArrayLike, k: int = 1, axes: Sequence[int] = (0, 1)) -> Array:
    """Rotate by 90 degrees ``k`` times in the plane of ``axes``."""
    x = asarray_operand("rot90", m)
    pair = axis_tuple(axes, "jnp.rot90 axes")
    if len(pair) != 2:
        raise JaxtypedValueError(f"jnp.rot90: axes must have length 2, got {axes!r}")
    if x.ndim < 2:
        raise JaxtypedValueError(f"jnp.rot90: the array must have at least 2 dimensions, got {x.aval.str_short()}")
    first, second = (canonicalize_axis(a, x.ndim, where="jnp.rot90 axes") for a in pair)
    if first == second:
        raise JaxtypedValueError(f"jnp.rot90: axes must be different, got {axes!r}")
    turns = index_arg(k, "jnp.rot90: k") % 4
    if turns == 0:
        return x
    if turns == 2:
        return ls.rev(x, tuple(sorted((first, second))))
    perm = list(range(x.ndim))
    perm[first], perm[second] = perm[second], perm[first]
    if turns == 1:
        return ls.transpose(ls.rev(x, (second,)), perm)
    return ls.rev(ls.transpose(x, perm), (second,))


def rollaxis(a: ArrayLike, axis: int, start: int = 0) -> Array:
    """Roll ``axis`` backwards until it lies before position ``start``."""
    x = asarray_operand("rollaxis", a)
    ax = canonicalize_axis(axis, x.ndim, where="jnp.rollaxis axis")
    begin = index_arg(start, "jnp.rollaxis: start")
    if not -x.ndim <= begin <= x.ndim:
        raise JaxtypedValueError(f"jnp.rollaxis: start {begin} is out of bounds for an array of rank {x.ndim}")
    begin = begin + x.ndim if begin < 0 else begin
    if ax < begin:
        begin -= 1
    return moveaxis(x, ax, begin)


def permute_dims(a: ArrayLike, /, axes: Sequence[int]) -> Array:
    """Permute the axes (the array API's ``transpose``)."""
    return transpose(asarray_operand("permute_dims", a), axes)


def matrix_transpose(x: ArrayLike, /) -> Array:
    """Swap the last two axes (a stack of matrices transposed)."""
    a = asarray_operand("matrix_transpose", x)
    if a.ndim < 2:
        raise JaxtypedValueError(f"jnp.matrix_transpose: x must be at least two-dimensional, got {a.aval.str_short()}")
    return swapaxes(a, -1, -2)


# === triangles and diagonals ===


def _triangle(name: str, m: ArrayLike, k: int, lower: bool) -> Array:
    x = asarray_operand(name, m)
    if x.ndim < 2:
        raise JaxtypedValueError(f"jnp.{name}: argument must be at least 2-d, got {x.aval.str_short()}")
    offset = index_arg(k, f"jnp.{name}: k")
    rows, cols = x.shape[-2:]
    int32 = np.dtype(np.int32)
    row = ls.broadcasted_iota(int32, (rows, cols), 0)
    col = ls.broadcasted_iota(int32, (rows, cols), 1)
    shifted = la.add(row, scalar_like(offset, int32, f"jnp.{name}", weak_type=False))
    mask = lcmp.le(col, shifted) if lower else lcmp.ge(col, shifted)
    mask = ls.broadcast_in_dim(mask, x.shape, (x.ndim - 2, x.ndim - 1))
    return ls.select_n(mask, zeros_of(x), x)


def tril(m: ArrayLike, k: int = 0) -> Array:
    """The lower triangle of the last two axes (on and below diagonal ``k``)."""
    return _triangle("tril", m, k, lower=True)


def triu(m: ArrayLike, k: int = 0) -> Array:
    """The upper triangle of the last two axes (on and above diagonal ``k``)."""
    return _triangle("triu", m, k, lower=False)


def diagonal(a: ArrayLike, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Array:
    """The ``offset``-th diagonal of the planes ``(axis1, axis2)``, as the
    last axis of the result."""
    x = asarray_operand("diagonal", a)
    if x.ndim < 2:
        raise JaxtypedValueError(f"jnp.diagonal requires an array of at least two dimensions, got {x.aval.str_short()}")
    i = canonicalize_axis(axis1, x.ndim, where="jnp.diagonal axis1")
    j = canonicalize_axis(axis2, x.ndim, where="jnp.diagonal axis2")
    if i == j:
        raise JaxtypedTypeError(f"jnp.diagonal: axis1 and axis2 must differ, got {axis1} and {axis2}")  # TypeError, as JAX
    k = index_arg(offset, "jnp.diagonal: offset")
    rest = [d for d in range(x.ndim) if d not in (i, j)]
    moved = ls.transpose(x, (*rest, i, j))
    n, m = moved.shape[-2:]
    length = builtins.max(0, builtins.min(n, m - k) if k >= 0 else builtins.min(n + k, m))
    batch = moved.shape[:-2]
    flat = ls.reshape(moved, (*batch, n * m))
    # The diagonal is every (m + 1)-th element of the flattened plane.
    start = (k if k >= 0 else -k * m) if length else 0
    limit = start + (length - 1) * (m + 1) + 1 if length else 0
    starts = [0] * len(batch) + [start]
    limits = [*batch, limit]
    diagonal_ = lax_slice(flat, starts, limits, [1] * len(batch) + [m + 1])
    return convert_to(diagonal_, diagonal_.dtype, weak_type=False)  # strong, as JAX's diagonal


def diag(v: ArrayLike, k: int = 0) -> Array:
    """The ``k``-th diagonal of a 2-d array, or a 2-d array with the 1-d
    ``v`` on its ``k``-th diagonal."""
    x = asarray_operand("diag", v)
    offset = index_arg(k, "jnp.diag: k")
    if x.ndim == 2:
        return diagonal(x, offset)
    if x.ndim != 1:
        raise JaxtypedValueError(f"jnp.diag: input must be 1d or 2d, got {x.aval.str_short()}")
    n = x.shape[0] + abs(offset)
    padded = ls.pad(x, scalar_like(0, x.dtype, "jnp.diag", weak_type=x.weak_type), [(0, abs(offset), 0)])
    int32 = np.dtype(np.int32)
    row = ls.broadcasted_iota(int32, (n, n), 0)
    col = ls.broadcasted_iota(int32, (n, n), 1)
    on = lcmp.eq(la.add(row, scalar_like(offset, int32, "jnp.diag", weak_type=False)), col)
    spread = ls.broadcast_in_dim(padded, (n, n), (0,) if offset >= 0 else (1,))
    return ls.select_n(on, ls.full_like_aval(spread.aval, 0), spread)


def diagflat(v: ArrayLike, k: int = 0) -> Array:
    """A 2-d array with the flattened ``v`` on its ``k``-th diagonal."""
    result = diag(ravel(asarray_operand("diagflat", v)), k)
    return convert_to(result, result.dtype, weak_type=False)  # strong, as JAX's


def trace(
    a: ArrayLike,
    offset: int = 0,
    axis1: int = 0,
    axis2: int = 1,
    dtype: "dtypes.DTypeLike | None" = None,
    out: None = None,
) -> Array:
    """The sum along a diagonal (see :func:`diagonal`)."""
    if out is not None:
        raise JaxtypedTypeError("jnp.trace: the out argument is not supported (arrays are immutable)")
    return red.sum(diagonal(asarray_operand("trace", a), offset, axis1, axis2), axis=-1, dtype=dtype)


# === stacking ===


@overload
def atleast_1d(x: ArrayLike, /) -> Array: ...
@overload
def atleast_1d(x: ArrayLike, y: ArrayLike, /, *arys: ArrayLike) -> list[Array]: ...
def atleast_1d(*arys: ArrayLike) -> Array | list[Array]:
    """Each input as an array of at least one dimension (a list of them for
    several inputs)."""
    return _atleast("atleast_1d", arys, lambda s: (1,) if len(s) == 0 else s)


@overload
def atleast_2d(x: ArrayLike, /) -> Array: ...
@overload
def atleast_2d(x: ArrayLike, y: ArrayLike, /, *arys: ArrayLike) -> list[Array]: ...
def atleast_2d(*arys: ArrayLike) -> Array | list[Array]:
    """Each input as an array of at least two dimensions (a leading 1 added)."""
    return _atleast("atleast_2d", arys, lambda s: (1,) * (2 - len(s)) + s if len(s) < 2 else s)


def _three(s: tuple[int, ...]) -> tuple[int, ...]:
    if len(s) == 0:
        return (1, 1, 1)
    if len(s) == 1:
        return (1, s[0], 1)
    if len(s) == 2:
        return (*s, 1)
    return s


@overload
def atleast_3d(x: ArrayLike, /) -> Array: ...
@overload
def atleast_3d(x: ArrayLike, y: ArrayLike, /, *arys: ArrayLike) -> list[Array]: ...
def atleast_3d(*arys: ArrayLike) -> Array | list[Array]:
    """Each input as an array of at least three dimensions (1-d ``n``
    becomes ``(1, n, 1)``, 2-d ``(m, n)`` becomes ``(m, n, 1)``)."""
    return _atleast("atleast_3d", arys, _three)


def _atleast(name: str, arys: Sequence[ArrayLike], shape_of: Callable[[tuple[int, ...]], tuple[int, ...]]) -> Array | list[Array]:
    if len(arys) == 1 and (keys := key_dispatch(lambda k: _reshaped(k, shape_of), arys[0])) is not None:  # random family
        return keys
    check_arraylike(name, *arys)
    out = [_reshaped(asarray(a), shape_of) for a in arys]
    return out[0] if len(out) == 1 else out


def _reshaped(x: Array, shape_of: Callable[[tuple[int, ...]], tuple[int, ...]]) -> Array:
    shape = shape_of(x.shape)
    return x if shape == x.shape else ls.reshape(x, shape)


def _as_sequence(name: str, tup: Sequence[ArrayLike] | Array) -> list[object]:
    if isinstance(tup, (Array, np.ndarray)):
        x = asarray(tup)
        if x.ndim == 0:
            raise JaxtypedValueError(f"jnp.{name}: a 0-d array is not a sequence of arrays")
        return [ls.squeeze(along(x, 0, i, i + 1), (0,)) for i in range(x.shape[0])]
    if not is_list_or_tuple(tup) or not tup:
        raise JaxtypedValueError(f"jnp.{name}: needs a non-empty sequence of arrays")
    return list(tup)


def vstack(tup: Sequence[ArrayLike] | Array, dtype: "dtypes.DTypeLike | None" = None) -> Array:
    """Stack arrays row-wise (axis 0, after making them at least 2-d)."""
    if (keys := key_dispatch_seq(lambda ks: vstack(ks, dtype), tup)) is not None:  # random family: key arrays
        return keys
    parts = _as_sequence("vstack", tup)
    check_arraylike("vstack", *parts)
    return concatenate([_reshaped(asarray(p), lambda s: (1,) * (2 - len(s)) + s if len(s) < 2 else s) for p in parts], 0, dtype)


def hstack(tup: Sequence[ArrayLike] | Array, dtype: "dtypes.DTypeLike | None" = None) -> Array:
    """Stack arrays column-wise (axis 1; axis 0 for 1-d arrays)."""
    if (keys := key_dispatch_seq(lambda ks: hstack(ks, dtype), tup)) is not None:  # random family: key arrays
        return keys
    parts = _as_sequence("hstack", tup)
    check_arraylike("hstack", *parts)
    arrays = [_reshaped(asarray(p), lambda s: (1,) if len(s) == 0 else s) for p in parts]
    return concatenate(arrays, 0 if arrays[0].ndim == 1 else 1, dtype)


def dstack(tup: Sequence[ArrayLike] | Array, dtype: "dtypes.DTypeLike | None" = None) -> Array:
    """Stack arrays depth-wise (axis 2, after making them at least 3-d)."""
    parts = _as_sequence("dstack", tup)
    check_arraylike("dstack", *parts)
    return concatenate([_reshaped(asarray(p), _three) for p in parts], 2, dtype)


def column_stack(tup: Sequence[ArrayLike] | Array) -> Array:
    """Stack 1-d arrays as columns (2-d arrays as they are) along axis 1."""
    parts = _as_sequence("column_stack", tup)
    check_arraylike("column_stack", *parts)
    arrays = [asarray(p) for p in parts]
    columns = [ls.reshape(a, (a.size, 1)) if a.ndim < 2 else a for a in arrays]
    return concatenate(columns, 1)


def block(arrays: ArrayLike | Sequence[object]) -> Array:
    """Assemble an array from nested lists of blocks (NumPy's ``block``):
    the innermost lists are joined along the last axis, the next ones along
    the second-to-last, and so on."""
    depth = _block_depth(arrays, ())
    if depth == 0:
        return asarray(arrays)
    leaves = _block_leaves(arrays)
    arrays_ = promote_dtypes("block", leaves)
    ndim = builtins.max(depth, *(a.ndim for a in arrays_))
    converted = iter(arrays_)

    def build(item: object, level: int) -> Array:
        if level == depth:
            leaf = next(converted)
            return ls.reshape(leaf, (1,) * (ndim - leaf.ndim) + leaf.shape)
        assert is_list_or_tuple(item)
        return concatenate([build(sub, level + 1) for sub in item], -(depth - level))

    return build(arrays, 0)


def _block_depth(item: object, index: tuple[int, ...]) -> int:
    if isinstance(item, tuple):
        raise JaxtypedValueError(f"jnp.block: arrays is a tuple at index {index}; only lists can be used to arrange blocks")
    if not is_list_or_tuple(item):
        return 0
    if not item:
        raise JaxtypedValueError(f"jnp.block: list at index {index} cannot be empty")
    depths = {_block_depth(sub, (*index, i)) for i, sub in enumerate(item)}
    if len(depths) != 1:
        raise JaxtypedValueError(f"jnp.block: list depths are mismatched at index {index}")
    return depths.pop() + 1


def _block_leaves(item: object) -> list[object]:
    if is_list_or_tuple(item):
        return [leaf for sub in item for leaf in _block_leaves(sub)]
    return [item]


def append(arr: ArrayLike, values: ArrayLike, axis: int | None = None) -> Array:
    """``values`` joined to the end of ``arr`` along ``axis`` (both
    flattened when ``axis`` is None)."""
    x = asarray_operand("append", arr)
    v = asarray_operand("append", values, 1)
    if axis is None:
        return concatenate([ravel(x), ravel(v)], 0)
    return concatenate([x, v], axis)


def concat(arrays: Sequence[ArrayLike], /, *, axis: int | None = 0) -> Array:
    """Join arrays along an existing axis (the array API's ``concatenate``)."""
    return concatenate(arrays, axis)


def unstack(x: ArrayLike, /, *, axis: int = 0) -> tuple[Array, ...]:
    """The slices of ``x`` along ``axis``, as a tuple."""
    a = asarray_operand("unstack", x)
    if a.ndim == 0:
        raise JaxtypedValueError("jnp.unstack requires an input of rank at least 1")
    ax = canonicalize_axis(axis, a.ndim, where="jnp.unstack axis")
    return tuple(ls.squeeze(along(a, ax, i, i + 1), (ax,)) for i in range(a.shape[ax]))


# === broadcasting, grids ===


def meshgrid(*xi: ArrayLike, copy: bool = True, sparse: bool = False, indexing: str = "xy") -> list[Array]:
    """Coordinate arrays from 1-d coordinate vectors (``indexing='xy'``:
    Cartesian, the first two axes swapped; ``'ij'``: matrix indexing)."""
    check_arraylike("meshgrid", *xi)
    if indexing not in ("xy", "ij"):
        raise JaxtypedValueError(f"jnp.meshgrid: indexing must be 'xy' or 'ij', got {indexing!r}")
    vectors = [asarray(v) for v in xi]
    for v in vectors:
        if v.ndim != 1:
            raise JaxtypedValueError(f"jnp.meshgrid: arguments must be 1-d, got {v.aval.str_short()}")
    sizes = [v.shape[0] for v in vectors]
    n = len(vectors)
    order = list(range(n))
    if indexing == "xy" and n >= 2:
        order[0], order[1] = 1, 0
    out_shape = tuple(sizes[order[i]] for i in range(n))
    position = {order[i]: i for i in range(n)}
    result: list[Array] = []
    for k, v in enumerate(vectors):
        axis = position[k]
        if sparse:
            result.append(ls.reshape(v, tuple(d if i == axis else 1 for i, d in enumerate(out_shape))))
        else:
            result.append(ls.broadcast_in_dim(v, out_shape, (axis,)))
    return result


def broadcast_shapes(*shapes: int | Sequence[int]) -> tuple[int, ...]:
    """The shape that ``shapes`` broadcast to (NumPy rules)."""
    dims = [axis_tuple(s, "jnp.broadcast_shapes: each entry of shapes") for s in shapes]
    try:
        return _broadcast_shapes("jnp.broadcast_shapes", *dims)
    except ShapeMismatchError as err:
        raise JaxtypedValueError(str(err)) from None  # ValueError, as in JAX


def broadcast_arrays(*args: ArrayLike) -> list[Array]:
    """The arguments broadcast to their common shape."""
    check_arraylike("broadcast_arrays", *args)
    arrays = [asarray(a) for a in args]
    shape = broadcast_shapes(*(a.shape for a in arrays))
    return [check_allocation("jnp.broadcast_arrays", broadcast_to_shape(a, shape)) for a in arrays]


# === copies, conversions, insertion and deletion ===


def copy(a: ArrayLike, order: str | None = None) -> Array:
    """A copy of ``a`` (arrays are immutable: the same values)."""
    return array(asarray_operand("copy", a), copy=True)


def astype(
    x: ArrayLike, dtype: "dtypes.DTypeLike", /, *, copy: bool = False, device: "xla.DeviceOrSharding | None" = None
) -> Array:
    """``x`` converted to ``dtype`` (the array API's ``astype``), placed on
    ``device`` (a device or a sharding) when one is given. ``copy`` is
    accepted for the array API: arrays are immutable, so a copy is never
    observable."""
    a = asarray_operand("astype", x)
    return on_device(convert_to(a, dtypes.canonicalize_dtype(dtypes.dtype(dtype)), weak_type=False), device)


def _positions(name: str, n: int, obj: object) -> np.ndarray[Any, np.dtype[Any]]:
    """``obj`` (an int, a slice, or integer indices) as indices into ``range(n)``."""
    if isinstance(obj, slice):
        return np.arange(n)[obj]
    check_arraylike(name, obj)  # lists are rejected, as in JAX
    host = concrete_host(name, "obj", obj)
    if host.dtype.kind == "b":
        if host.shape != (n,):
            raise JaxtypedValueError(f"jnp.{name}: a boolean obj must have shape ({n},), got {host.shape}")
        return np.flatnonzero(host)
    if host.dtype.kind not in "iu" and host.size:
        raise JaxtypedTypeError(f"jnp.{name}: obj must be integers or a slice, got {obj!r}")
    return host.astype(np.int64)


def delete(arr: ArrayLike, obj: ArrayLike | slice | Sequence[int], axis: int | None = None, *, assume_unique_indices: bool = False) -> Array:
    """``arr`` without the entries ``obj`` (static indices or a slice) along
    ``axis`` (of the flattened array by default)."""
    x = asarray_operand("delete", arr)
    x, ax = _flat_or_axis("delete", x, axis)
    n = x.shape[ax]
    indices = _positions("delete", n, obj)
    if indices.size and (indices.min() < -n or indices.max() >= n):
        # ValueError, as JAX's (NumPy's is an IndexError).
        raise JaxtypedValueError(f"jnp.delete: index {indices.tolist()} is out of bounds for axis {ax} with size {n}")
    keep = np.delete(np.arange(n), indices)
    return take_static(x, keep, ax) if keep.size != n else x


def insert(arr: ArrayLike, obj: ArrayLike | slice | Sequence[int], values: ArrayLike, axis: int | None = None) -> Array:
    """``values`` inserted before the indices ``obj`` along ``axis`` (of
    the flattened array by default), NumPy's ``insert``."""
    x = asarray_operand("insert", arr)
    check_arraylike("insert", values)
    x, ax = _flat_or_axis("insert", x, axis)
    n = x.shape[ax]
    indices = _positions("insert", n + 1, obj) if not isinstance(obj, slice) else np.arange(n)[obj]
    scalar_obj = indices.ndim == 0
    v = convert_to(asarray(values), x.dtype, weak_type=x.weak_type)
    v = ls.reshape(v, (1,) * (x.ndim - v.ndim) + v.shape) if v.ndim < x.ndim else v
    if scalar_obj:
        v = moveaxis(v, 0, ax) if v.ndim else v
        count = v.shape[ax] if v.ndim else 1
        indices = np.full(count, int(indices))
    else:
        indices = indices.ravel()
        count = indices.size
    # Out-of-range positions are clipped to the ends, as JAX does (NumPy raises).
    indices = np.clip(np.where(indices < 0, indices + n, indices), 0, n)
    target = tuple(count if i == ax else d for i, d in enumerate(x.shape))
    try:
        block_shape = _broadcast_shapes("jnp.insert", v.shape, target)
    except ShapeMismatchError as err:
        raise JaxtypedValueError(f"jnp.insert: values {v.aval.str_short()} do not fit shape {target}: {err}") from None
    if block_shape != target:
        raise JaxtypedValueError(f"jnp.insert: values {v.aval.str_short()} do not broadcast to shape {target}")
    inserted = broadcast_to_shape(v, target)
    order = np.argsort(indices, kind="stable")
    final = indices.copy()
    final[order] += np.arange(count)
    source = np.empty(n + count, np.int64)
    is_new = np.zeros(n + count, bool)
    is_new[final] = True
    source[final] = n + np.arange(count)
    source[~is_new] = np.arange(n)
    return take_static(ls.concatenate([x, inserted], ax), source, ax)


def resize(a: ArrayLike, new_shape: ShapeLike) -> Array:
    """An array of ``new_shape`` filled with ``a``'s elements, repeated cyclically."""
    x = ravel(asarray_operand("resize", a))
    dims = axis_tuple(new_shape, "jnp.resize: each entry of new_shape")
    if builtins.any(d < 0 for d in dims):
        raise JaxtypedValueError(f"jnp.resize: all elements of new_shape must be non-negative, got {dims}")
    size = prod(dims)
    if x.size == 0 or size == 0:
        return ls.full_like_aval(x.aval.update(shape=dims), 0)
    copies = -(-size // x.size)
    return ls.reshape(along(tile(x, copies), 0, 0, size), dims)


def trim_zeros(filt: ArrayLike, trim: str = "fb", axis: int | Sequence[int] | None = None) -> Array:
    """``filt`` without leading (``'f'``) and/or trailing (``'b'``) zeros
    along ``axis`` (all axes by default: the bounding box of the nonzero
    elements); needs concrete values, as in JAX."""
    x = asarray_operand("trim_zeros", filt)
    host = concrete_host("trim_zeros", "filt", x) != 0
    axes = range(x.ndim) if axis is None else canonicalize_axes(axis_tuple(axis, "jnp.trim_zeros axis"), x.ndim, where="jnp.trim_zeros axis")
    mode = trim.lower()
    for ax in axes:
        others = tuple(i for i in range(x.ndim) if i != ax)
        nonzero = np.flatnonzero(host.any(axis=others) if others else host)
        if nonzero.size == 0:
            start = stop = 0
        else:
            start = int(nonzero[0]) if "f" in mode else 0
            stop = int(nonzero[-1]) + 1 if "b" in mode else x.shape[ax]
        x = along(x, ax, start, stop)
    return x


# === applying functions along axes ===


def apply_along_axis(func1d: Callable[..., object], axis: int, arr: ArrayLike, *args: object, **kwargs: object) -> Array:
    """``func1d`` applied to the 1-d slices along ``axis`` (vectorised with
    vmap); the result's axes replace ``axis``."""
    x = asarray_operand("apply_along_axis", arr)
    ax = canonicalize_axis(axis, x.ndim, where="jnp.apply_along_axis axis")

    def on_slice(vector: Array) -> Array:
        return asarray(func1d(vector, *args, **kwargs))

    fn: Callable[[Array], Array] = on_slice
    for _ in range(ax):
        fn = vmap(fn, in_axes=0, out_axes=0)
    for _ in range(x.ndim - ax - 1):
        fn = vmap(fn, in_axes=-1, out_axes=-1)
    return fn(x)


def apply_over_axes(func: Callable[[Array, int], object], a: ArrayLike, axes: Sequence[int]) -> Array:
    """``func(a, axis)`` applied for each axis in turn, keeping the rank
    (a result one rank lower gets the axis back)."""
    x = asarray_operand("apply_over_axes", a)
    for axis in axes:
        result = asarray(func(x, axis))
        if result.ndim == x.ndim - 1:
            result = ls.expand_dims(result, (canonicalize_axis(axis, x.ndim, where="jnp.apply_over_axes axes"),))
        elif result.ndim != x.ndim:
            raise JaxtypedValueError("jnp.apply_over_axes: function is not returning an array of the correct shape")
        x = result
    return x


# === bits ===


def packbits(a: ArrayLike, axis: int | None = None, bitorder: str = "big") -> Array:
    """Booleans (or nonzero integers) packed into uint8, 8 to a byte, along
    ``axis`` (the flattened array by default)."""
    x = asarray_operand("packbits", a)
    if not (dtypes.is_bool(x.dtype) or dtypes.is_integer(x.dtype)):
        raise JaxtypedTypeError(f"jnp.packbits: expected an integer or boolean array, got {x.aval.str_short()}")
    if bitorder not in ("little", "big"):
        raise JaxtypedValueError(f"jnp.packbits: bitorder must be 'little' or 'big', got {bitorder!r}")
    x, ax = _flat_or_axis("packbits", x, axis)
    uint8 = np.dtype(np.uint8)
    bits = convert_to(lcmp.ne(x, scalar_like(0, x.dtype, "jnp.packbits", weak_type=False)), uint8, weak_type=False)
    n = bits.shape[ax]
    extra = (-n) % 8
    if extra:
        config = [(0, extra, 0) if i == ax else (0, 0, 0) for i in range(bits.ndim)]
        bits = ls.pad(bits, scalar_like(0, uint8, "jnp.packbits", weak_type=False), config)
    bits = moveaxis(bits, ax, -1)
    groups = ls.reshape(bits, (*bits.shape[:-1], bits.shape[-1] // 8, 8))
    shifts = np.arange(8, dtype=np.uint8) if bitorder == "little" else np.arange(7, -1, -1, dtype=np.uint8)
    shifted = lcmp.shift_left(groups, ls.broadcast_in_dim(asarray(shifts), groups.shape, (groups.ndim - 1,)))
    packed = red.sum(shifted, axis=-1, dtype=uint8)
    return moveaxis(packed, -1, ax)


def unpackbits(a: ArrayLike, axis: int | None = None, count: int | None = None, bitorder: str = "big") -> Array:
    """uint8 values unpacked into their bits (0 or 1, uint8) along ``axis``
    (the flattened array by default); ``count`` keeps that many bits."""
    x = asarray_operand("unpackbits", a)
    if x.dtype != np.uint8:
        raise JaxtypedTypeError(f"jnp.unpackbits: expected an input of dtype uint8, got {x.aval.str_short()}")
    if bitorder not in ("little", "big"):
        raise JaxtypedValueError(f"jnp.unpackbits: bitorder must be 'little' or 'big', got {bitorder!r}")
    x, ax = _flat_or_axis("unpackbits", x, axis)
    uint8 = x.dtype
    shifts = np.arange(8, dtype=np.uint8) if bitorder == "little" else np.arange(7, -1, -1, dtype=np.uint8)
    spread = ls.broadcast_in_dim(x, (*x.shape, 8), tuple(range(x.ndim)))
    shifted = lcmp.shift_right_logical(spread, ls.broadcast_in_dim(asarray(shifts), spread.shape, (x.ndim,)))
    bits = lcmp.bitwise_and(shifted, scalar_like(1, uint8, "jnp.unpackbits", weak_type=False))
    bits = moveaxis(bits, -1, ax + 1)
    merged = ls.reshape(bits, (*x.shape[:ax], x.shape[ax] * 8, *x.shape[ax + 1 :]))
    if count is None:
        return merged
    keep = index_arg(count, "jnp.unpackbits: count")
    total = merged.shape[ax]
    if keep < 0:
        keep = builtins.max(total + keep, 0)
    if keep <= total:
        return along(merged, ax, 0, keep)
    config = [(0, keep - total, 0) if i == ax else (0, 0, 0) for i in range(merged.ndim)]
    return ls.pad(merged, scalar_like(0, uint8, "jnp.unpackbits", weak_type=False), config)

