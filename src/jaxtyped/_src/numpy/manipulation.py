"""Array manipulation for ``jaxtyped.numpy`` (layer L5): tiling and
repeating, padding, splitting, flipping and rolling, triangles and
diagonals, stacking, broadcasting helpers, insertion and deletion, and the
small products (``kron``, ``cross``, ``vecdot``, ...).

Everything here is a composition of lax primitives (slices, pads,
concatenations, gathers, selects), so jit, vmap and the derivatives come
from theirs. Static arguments (repeat counts, pad widths, split points)
must be concrete, as in JAX.
"""

import builtins
from collections.abc import Callable, Sequence
from typing import Any, Literal, overload

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.api import vmap
from jaxtyped._src.core.array import Array, ArrayLike, ShapeLike
from jaxtyped._src.core.array_impl import ArrayImpl
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
from jaxtyped._src.lax.gather import GatherDimensionNumbers, gather
from jaxtyped._src.lax.slicing import dynamic_slice_in_dim, slice_in_dim
from jaxtyped._src.lax.slicing import slice as lax_slice
from jaxtyped._src.lax.util import scalar_like
from jaxtyped._src.numpy import reductions as red
from jaxtyped._src.numpy import ufuncs as uf
from jaxtyped._src.numpy.creation import array, asarray, check_allocation, check_eager_size
from jaxtyped._src.numpy.promotion import (
    asarray_operand,
    broadcast_to_shape,
    check_arraylike,
    promote_dtypes,
)
from jaxtyped._src.numpy.promotion import broadcast_shapes as _broadcast_shapes
from jaxtyped._src.numpy.shape_ops import concatenate, matmul, moveaxis, ravel, reshape, swapaxes, transpose
from jaxtyped._src.numpy.statistics import median
from jaxtyped._src.util import axis_tuple, canonicalize_axes, canonicalize_axis, index_arg, is_list_or_tuple, prod

__all__ = [
    "tile", "repeat", "pad", "split", "array_split", "hsplit", "vsplit", "dsplit", "flip",
    "fliplr", "flipud", "roll", "rot90", "rollaxis", "permute_dims", "matrix_transpose", "tril",
    "triu", "diag", "diagonal", "diagflat", "trace", "vstack", "hstack", "dstack", "column_stack",
    "block", "append", "concat", "unstack", "atleast_1d", "atleast_2d", "atleast_3d", "meshgrid",
    "broadcast_arrays", "broadcast_shapes", "copy", "delete", "insert", "resize", "trim_zeros",
    "apply_along_axis", "apply_over_axes", "astype", "kron", "cross", "matvec", "vecmat", "vecdot",
    "packbits", "unpackbits", "vander", "PadMode", "PadWidth",
]  # fmt: skip

# pad_width (and stat_length): one int, one (before, after) pair, or a pair per axis.
PadWidth = int | Sequence[int] | Sequence[Sequence[int]] | ArrayLike

PadMode = Literal[
    "constant", "edge", "linear_ramp", "maximum", "mean", "median", "minimum", "reflect",
    "symmetric", "wrap", "empty",
]  # fmt: skip


# === helpers ===


def _concrete_host(name: str, what: str, value: object) -> np.ndarray[Any, np.dtype[Any]]:
    """A static argument (counts, indices, widths) as a NumPy array; a
    traced array raises the concretization error JAX raises."""
    if isinstance(value, Array):
        if not isinstance(value, ArrayImpl):
            raise ConcretizationTypeError(
                f"jnp.{name}: {what} must be concrete (a static value), got a traced array {value.aval.str_short()}"
            )
        return np.asarray(value)
    return np.asarray(value)


def _int_host(name: str, what: str, value: object) -> np.ndarray[Any, np.dtype[Any]]:
    host = _concrete_host(name, what, value)
    if host.dtype.kind not in "iub" and host.size:
        raise JaxtypedTypeError(f"jnp.{name}: {what} must be integers, got {value!r}")
    return host.astype(np.int64)


def _along(x: Array, axis: int, start: int, stop: int, step: int = 1) -> Array:
    return slice_in_dim(x, start, stop, step, axis)


def _take_static(x: Array, indices: Sequence[int] | np.ndarray[Any, np.dtype[Any]], axis: int) -> Array:
    """``x`` indexed along ``axis`` by known indices (a gather, whose
    transpose is a scatter-add)."""
    idx = np.asarray(indices, dtype=np.int32).reshape(-1, 1)
    return _take_indices(x, asarray(idx), axis)


def _take_indices(x: Array, idx: Array, axis: int) -> Array:
    """``x`` indexed along ``axis`` by an int32 array of shape ``(m, 1)``."""
    dnums = GatherDimensionNumbers(
        offset_dims=tuple(i for i in range(x.ndim) if i != axis), collapsed_slice_dims=(axis,), start_index_map=(axis,)
    )
    sizes = tuple(1 if i == axis else d for i, d in enumerate(x.shape))
    return gather(x, idx, dnums, sizes, mode="clip")


def _zeros_of(x: Array) -> Array:
    return ls.full_like_aval(x.aval, 0)


def _repeat_slice(piece: Array, axis: int, count: int) -> Array:
    """A size-1 slice along ``axis`` repeated ``count`` times."""
    shape = tuple(count if i == axis else d for i, d in enumerate(piece.shape))
    return ls.broadcast_in_dim(ls.squeeze(piece, (axis,)), shape, tuple(i for i in range(piece.ndim) if i != axis))


# === tile, repeat ===


def tile(A: ArrayLike, reps: ShapeLike) -> Array:  # noqa: N803 - NumPy's name
    """``A`` repeated ``reps`` times along each axis (NumPy's ``tile``)."""
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
    x = asarray_operand("repeat", a)
    check_arraylike("repeat", repeats)
    if axis is None:
        x, ax = ravel(x), 0
    else:
        ax = canonicalize_axis(axis, x.ndim, where="jnp.repeat axis")
    n = x.shape[ax]
    total = None if total_repeat_length is None else index_arg(total_repeat_length, "jnp.repeat: total_repeat_length")
    if not isinstance(repeats, Array) or isinstance(repeats, ArrayImpl):
        counts = _int_host("repeat", "repeats", repeats)
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
        index = np.repeat(np.arange(n), per_element)
        if total is not None:
            # JAX's rule: truncate, or pad with the last element.
            index = index[:total] if index.size >= total else np.concatenate(
                [index, np.full(total - index.size, index[-1] if index.size else 0)]
            )
        return _take_static(x, index, ax)
    if total is None:
        raise ConcretizationTypeError(
            "jnp.repeat: with traced repeats, total_repeat_length must be given (the result's size must be static)"
        )
    return _repeat_traced(x, repeats, ax, total)


def _repeat_traced(x: Array, repeats: Array, ax: int, total: int) -> Array:
    n = x.shape[ax]
    counts_t = convert_to(repeats, np.dtype(np.int32), weak_type=False)
    if counts_t.ndim == 0 or counts_t.size == 1:
        counts_t = ls.broadcast_in_dim(ls.reshape(counts_t, ()), (n,), ())
    # Element j of the result comes from the number of cumulative counts <= j.
    lower = lcmp.le(ls.broadcasted_iota(np.dtype(np.int32), (n, n), 0), ls.broadcasted_iota(np.dtype(np.int32), (n, n), 1))
    cumulative = red.sum(uf.where(lower, ls.broadcast_in_dim(counts_t, (n, n), (0,)), 0), axis=0, dtype=np.int32)
    positions = ls.broadcasted_iota(np.dtype(np.int32), (total, n), 0)
    source = red.sum(lcmp.le(ls.broadcast_in_dim(cumulative, (total, n), (1,)), positions), axis=1, dtype=np.int32)
    source = la.min(source, scalar_like(builtins.max(n - 1, 0), np.dtype(np.int32), "jnp.repeat", weak_type=False))
    return _take_indices(x, ls.reshape(source, (total, 1)), ax)


# === pad ===


def _pairs(name: str, what: str, value: object, ndim: int, host: np.ndarray[Any, np.dtype[Any]] | None = None) -> list[tuple[Any, Any]]:
    """A per-axis ``(before, after)`` argument (``pad_width``, ``stat_length``,
    ``constant_values``, ``end_values``) broadcast to ``ndim`` pairs."""
    values = host if host is not None else np.asarray(value)
    try:
        pairs = np.broadcast_to(values, (ndim, 2)) if values.ndim <= 2 else None
    except ValueError:
        pairs = None
    if pairs is None:
        raise JaxtypedValueError(f"jnp.{name}: {what} {value!r} does not broadcast to ({ndim}, 2)")
    return [(pairs[i, 0].item(), pairs[i, 1].item()) for i in range(ndim)]


def _pad_constant(x: Array, widths: list[tuple[int, int]], constant_values: object) -> Array:
    if isinstance(constant_values, Array) and constant_values.ndim == 0:
        value = convert_to(constant_values, x.dtype, weak_type=x.weak_type)
        return ls.pad(x, value, [(b, a, 0) for b, a in widths])
    values = _pairs("pad", "constant_values", constant_values, x.ndim, _concrete_host("pad", "constant_values", constant_values))
    for axis, ((before, after), (c_before, c_after)) in enumerate(zip(widths, values)):
        for count, fill, at_end in ((before, c_before, False), (after, c_after, True)):
            if count:
                config = [(0, 0, 0)] * x.ndim
                config[axis] = (0, count, 0) if at_end else (count, 0, 0)
                x = ls.pad(x, convert_to(asarray(fill), x.dtype, weak_type=x.weak_type), config)
    return x


def _pad_edge(x: Array, axis: int, before: int, after: int) -> Array:
    n = x.shape[axis]
    parts = [_repeat_slice(_along(x, axis, 0, 1), axis, before), x, _repeat_slice(_along(x, axis, n - 1, n), axis, after)]
    return ls.concatenate(parts, axis)


def _pad_wrap(x: Array, axis: int, before: int, after: int) -> Array:
    n = x.shape[axis]
    left, right = -(-before // n), -(-after // n)
    periodic = ls.concatenate([x] * (left + 1 + right), axis)
    return _along(periodic, axis, left * n - before, left * n + n + after)


def _pad_reflect(x: Array, axis: int, before: int, after: int, symmetric: bool, odd: bool) -> Array:
    """Reflect (edge not repeated) or mirror (edge repeated) repeatedly, as
    NumPy does when the pad is wider than the axis; ``odd`` reflects values
    through the edge value too."""
    n = x.shape[axis]
    skip = 0 if symmetric or n == 1 else 1
    for at_end, remaining in ((False, before), (True, after)):
        edge = _along(x, axis, x.shape[axis] - 1, x.shape[axis]) if at_end else _along(x, axis, 0, 1)
        while remaining > 0:
            size = x.shape[axis]
            chunk = builtins.min(remaining, n - skip)
            remaining -= chunk
            if at_end:
                piece = _along(x, axis, size - chunk - skip, size - skip)
            else:
                piece = _along(x, axis, skip, skip + chunk)
            piece = ls.rev(piece, (axis,))
            if odd:
                piece = uf.subtract(uf.multiply(2, edge), piece)
                if n > 1:
                    edge = _along(piece, axis, chunk - 1, chunk) if at_end else _along(piece, axis, 0, 1)
            x = ls.concatenate([x, piece] if at_end else [piece, x], axis)
    return x


def _pad_linear_ramp(x: Array, axis: int, before: int, after: int, ends: tuple[Any, Any]) -> Array:
    n = x.shape[axis]
    parts: list[Array] = []
    for count, edge_at, end, at_end in ((before, 0, ends[0], False), (after, n - 1, ends[1], True)):
        if not count:
            parts.append(x) if at_end else None
            continue
        edge = _along(x, axis, edge_at, edge_at + 1)
        compute = dtypes.canonicalize_dtype(np.dtype(np.float64)) if not dtypes.is_inexact(x.dtype) else x.dtype
        edge_f = convert_to(edge, compute, weak_type=False)
        end_f = convert_to(asarray(end), compute, weak_type=False)
        shape = tuple(count if i == axis else d for i, d in enumerate(x.shape))
        steps = ls.broadcasted_iota(compute, shape, axis)
        if at_end:
            steps = ls.rev(steps, (axis,))
        fraction = la.div(steps, scalar_like(count, compute, "jnp.pad"))
        ramp = uf.add(end_f, uf.multiply(uf.subtract(edge_f, end_f), fraction))
        if dtypes.is_integer(x.dtype):
            ramp = la.floor(ramp)  # JAX rounds integer ramps down
        ramp = convert_to(ramp, x.dtype, weak_type=x.weak_type)
        if at_end:
            parts.extend([x, ramp])
        else:
            parts.append(ramp)
    return ls.concatenate(parts, axis) if len(parts) > 1 else x


def _pad_stat(x: Array, axis: int, before: int, after: int, mode: str, lengths: tuple[Any, Any]) -> Array:
    n = x.shape[axis]
    parts: list[Array] = []
    for count, length, at_end in ((before, lengths[0], False), (after, lengths[1], True)):
        if count:
            if length is not None and int(length) == 0:
                raise JaxtypedValueError("jnp.pad: stat_length of 0 yields no value for padding")
            k = n if length is None else builtins.min(int(length), n)
            region = _along(x, axis, n - k, n) if at_end else _along(x, axis, 0, k)
            stat = _statistic(region, axis, mode)
            piece = _repeat_slice(stat, axis, count)
            parts.append(piece)
        if not at_end:
            parts.append(x)
    return ls.concatenate(parts, axis) if len(parts) > 1 else x


def _statistic(region: Array, axis: int, mode: str) -> Array:
    if mode == "maximum":
        return red.max(region, axis=axis, keepdims=True)
    if mode == "minimum":
        return red.min(region, axis=axis, keepdims=True)
    if mode == "mean":
        value = red.mean(region, axis=axis, keepdims=True)
    else:
        # jnp.median sorts, so ties share the gradient as JAX's do.
        value = median(region, axis=axis, keepdims=True)
    if dtypes.is_integer(region.dtype):
        value = uf.round(value)
    return convert_to(value, region.dtype, weak_type=region.weak_type)


def pad(
    array: ArrayLike,
    pad_width: PadWidth,
    mode: PadMode | Callable[..., object] = "constant",
    **kwargs: object,
) -> Array:
    """Pad ``array`` (NumPy's ``pad``): ``pad_width`` is an int, a
    ``(before, after)`` pair, or one pair per axis; every NumPy mode
    (``constant_values``, ``end_values``, ``stat_length``, ``reflect_type``)."""
    x = asarray_operand("pad", array)
    widths_host = _int_host("pad", "pad_width", pad_width)
    widths = [(int(b), int(a)) for b, a in _pairs("pad", "pad_width", pad_width, x.ndim, widths_host)]
    if builtins.any(b < 0 or a < 0 for b, a in widths):
        raise JaxtypedValueError(f"jnp.pad: index can't contain negative values, got pad_width={pad_width!r}")
    if callable(mode):
        return _pad_callable(x, widths, mode, kwargs)
    allowed: dict[str, set[str]] = {
        "constant": {"constant_values"}, "empty": set(), "edge": set(), "wrap": set(),
        "reflect": {"reflect_type"}, "symmetric": {"reflect_type"}, "linear_ramp": {"end_values"},
        "maximum": {"stat_length"}, "minimum": {"stat_length"}, "mean": {"stat_length"}, "median": {"stat_length"},
    }  # fmt: skip
    if mode not in allowed:
        raise NotImplementedError(f"jnp.pad: mode {mode!r} is not implemented")
    unexpected = set(kwargs) - allowed[mode]
    if unexpected:
        raise JaxtypedValueError(f"jnp.pad: unsupported keyword arguments for mode {mode!r}: {sorted(unexpected)}")
    if mode in ("constant", "empty"):
        return _pad_constant(x, widths, kwargs.get("constant_values", 0))
    if builtins.any((b or a) and x.shape[i] == 0 for i, (b, a) in enumerate(widths)):
        raise JaxtypedValueError(f"jnp.pad: cannot apply mode {mode!r} to an empty axis of {x.aval.str_short()}")
    reflect_type = kwargs.get("reflect_type", "even")
    if reflect_type not in ("even", "odd"):
        raise JaxtypedValueError(f"jnp.pad: reflect_type must be 'even' or 'odd', got {reflect_type!r}")
    ends = _pairs("pad", "end_values", kwargs.get("end_values", 0), x.ndim) if mode == "linear_ramp" else []
    stat = kwargs.get("stat_length")
    lengths = _pairs("pad", "stat_length", stat if stat is not None else -1, x.ndim) if mode in ("maximum", "minimum", "mean", "median") else []
    for axis, (before, after) in enumerate(widths):
        if not (before or after):
            continue
        if mode == "edge":
            x = _pad_edge(x, axis, before, after)
        elif mode == "wrap":
            x = _pad_wrap(x, axis, before, after)
        elif mode in ("reflect", "symmetric"):
            x = _pad_reflect(x, axis, before, after, mode == "symmetric", reflect_type == "odd")
        elif mode == "linear_ramp":
            x = _pad_linear_ramp(x, axis, before, after, ends[axis])
        else:
            pair = tuple(None if v == -1 and stat is None else v for v in lengths[axis])
            if stat is not None and builtins.any(v is not None and int(v) < 0 for v in pair):
                raise JaxtypedValueError(f"jnp.pad: stat_length must be non-negative, got {stat!r}")
            x = _pad_stat(x, axis, before, after, mode, (pair[0], pair[1]))
    return x


def _pad_callable(x: Array, widths: list[tuple[int, int]], fn: Callable[..., object], kwargs: dict[str, object]) -> Array:
    """NumPy's function mode: ``fn(vector, (before, after), axis, kwargs)``
    returns each padded 1-d vector, applied along every axis in turn."""
    for axis, (before, after) in enumerate(widths):
        padded = ls.pad(x, scalar_like(0, x.dtype, "jnp.pad", weak_type=False), [
            (before, after, 0) if i == axis else (0, 0, 0) for i in range(x.ndim)
        ])
        moved = moveaxis(padded, axis, -1)
        flat = ls.reshape(moved, (prod(moved.shape[:-1]), moved.shape[-1]))

        def one(vector: Array, axis: int = axis, before: int = before, after: int = after) -> Array:
            out = asarray(fn(vector, (before, after), axis, kwargs))
            if out.shape != vector.shape:
                raise JaxtypedValueError(f"jnp.pad: the padding function returned shape {out.shape}, expected {vector.shape}")
            return convert_to(out, vector.dtype, weak_type=vector.weak_type)

        rows = vmap(one)(flat) if flat.shape[0] else flat
        x = moveaxis(ls.reshape(rows, moved.shape), -1, axis)
    return x


# === split ===


def _split(name: str, ary: ArrayLike, indices_or_sections: object, axis: int, equal: bool) -> list[Array]:
    x = asarray_operand(name, ary)
    ax = canonicalize_axis(axis, x.ndim, where=f"jnp.{name} axis")
    n = x.shape[ax]
    host = _concrete_host(name, "indices_or_sections", indices_or_sections)
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
    return [_along(x, ax, bounds[i], bounds[i + 1]) for i in range(len(bounds) - 1)]


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
    k = index_arg(np.asarray(shift).item() if isinstance(shift, (Array, np.ndarray, np.generic)) else shift, "jnp.roll: shift") % n
    if k == 0:
        return x
    return ls.concatenate([_along(x, axis, n - k, n), _along(x, axis, 0, n - k)], axis)


def roll(a: ArrayLike, shift: ArrayLike | Sequence[int], axis: int | Sequence[int] | None = None) -> Array:
    """Shift elements cyclically by ``shift`` along ``axis`` (the flattened
    array by default); several shifts and axes broadcast against each other."""
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
        host = _int_host("roll", "shift", shift)
        if host.ndim > 1:
            raise JaxtypedValueError(f"jnp.roll: shift must be a scalar or 1-d, got shape {host.shape}")
        shifts = [int(s) for s in host.ravel()] if host.ndim else [int(host)]
    if len(shifts) != len(axes) and 1 not in (len(shifts), len(axes)):
        raise JaxtypedValueError(f"jnp.roll: {len(shifts)} shifts do not broadcast against {len(axes)} axes")
    count = builtins.max(len(shifts), len(axes))
    for s, ax in zip(shifts * (count // len(shifts)), axes * (count // len(axes))):
        x = _roll_axis(x, s, canonicalize_axis(ax, x.ndim, where="jnp.roll axis"))
    return x


def rot90(m: ArrayLike, k: int = 1, axes: tuple[int, int] = (0, 1)) -> Array:
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
    return ls.select_n(mask, _zeros_of(x), x)


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
        return [ls.squeeze(_along(x, 0, i, i + 1), (0,)) for i in range(x.shape[0])]
    if not is_list_or_tuple(tup) or not tup:
        raise JaxtypedValueError(f"jnp.{name}: needs a non-empty sequence of arrays")
    return list(tup)


def vstack(tup: Sequence[ArrayLike] | Array, dtype: "dtypes.DTypeLike | None" = None) -> Array:
    """Stack arrays row-wise (axis 0, after making them at least 2-d)."""
    parts = _as_sequence("vstack", tup)
    check_arraylike("vstack", *parts)
    return concatenate([_reshaped(asarray(p), lambda s: (1,) * (2 - len(s)) + s if len(s) < 2 else s) for p in parts], 0, dtype)


def hstack(tup: Sequence[ArrayLike] | Array, dtype: "dtypes.DTypeLike | None" = None) -> Array:
    """Stack arrays column-wise (axis 1; axis 0 for 1-d arrays)."""
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
    return tuple(ls.squeeze(_along(a, ax, i, i + 1), (ax,)) for i in range(a.shape[ax]))


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


def broadcast_shapes(*shapes: Sequence[int]) -> tuple[int, ...]:
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


def astype(x: ArrayLike, dtype: "dtypes.DTypeLike", /, *, copy: bool = False, device: object = None) -> Array:
    """``x`` converted to ``dtype`` (the array API's ``astype``)."""
    a = asarray_operand("astype", x)
    return convert_to(a, dtypes.canonicalize_dtype(dtypes.dtype(dtype)), weak_type=False)


def _positions(name: str, n: int, obj: object) -> np.ndarray[Any, np.dtype[Any]]:
    """``obj`` (an int, a slice, or integer indices) as indices into ``range(n)``."""
    if isinstance(obj, slice):
        return np.arange(n)[obj]
    check_arraylike(name, obj)  # lists are rejected, as in JAX
    host = _concrete_host(name, "obj", obj)
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
    if axis is None:
        x, ax = ravel(x), 0
    else:
        ax = canonicalize_axis(axis, x.ndim, where="jnp.delete axis")
    n = x.shape[ax]
    indices = _positions("delete", n, obj)
    if indices.size and (indices.min() < -n or indices.max() >= n):
        # ValueError, as JAX's (NumPy's is an IndexError).
        raise JaxtypedValueError(f"jnp.delete: index {indices.tolist()} is out of bounds for axis {ax} with size {n}")
    keep = np.delete(np.arange(n), indices)
    return _take_static(x, keep, ax) if keep.size != n else x


def insert(arr: ArrayLike, obj: ArrayLike | slice | Sequence[int], values: ArrayLike, axis: int | None = None) -> Array:
    """``values`` inserted before the indices ``obj`` along ``axis`` (of
    the flattened array by default), NumPy's ``insert``."""
    x = asarray_operand("insert", arr)
    check_arraylike("insert", values)
    if axis is None:
        x, ax = ravel(x), 0
    else:
        ax = canonicalize_axis(axis, x.ndim, where="jnp.insert axis")
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
    return _take_static(ls.concatenate([x, inserted], ax), source, ax)


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
    return ls.reshape(_along(tile(x, copies), 0, 0, size), dims)


def trim_zeros(filt: ArrayLike, trim: str = "fb", axis: int | Sequence[int] | None = None) -> Array:
    """``filt`` without leading (``'f'``) and/or trailing (``'b'``) zeros
    along ``axis`` (all axes by default: the bounding box of the nonzero
    elements); needs concrete values, as in JAX."""
    x = asarray_operand("trim_zeros", filt)
    host = _concrete_host("trim_zeros", "filt", x) != 0
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
        x = _along(x, ax, start, stop)
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


# === products ===


def kron(a: ArrayLike, b: ArrayLike) -> Array:
    """The Kronecker product: blocks ``a[i, j] * b``."""
    x, y = promote_dtypes("kron", (a, b))
    if dtypes.is_bool(x.dtype):
        # TypeError, as JAX's (its product is lax.mul, which rejects booleans).
        raise JaxtypedTypeError(f"jnp.kron: boolean arrays are not supported, got {x.aval.str_short()} and {y.aval.str_short()}")
    ndim = builtins.max(x.ndim, y.ndim)
    x = ls.reshape(x, (1,) * (ndim - x.ndim) + x.shape)
    y = ls.reshape(y, (1,) * (ndim - y.ndim) + y.shape)
    xs = ls.reshape(x, tuple(d for s in x.shape for d in (s, 1)))
    ys = ls.reshape(y, tuple(d for s in y.shape for d in (1, s)))
    product = uf.multiply(xs, ys)
    return ls.reshape(product, tuple(p * q for p, q in zip(x.shape, y.shape)))


def cross(
    a: ArrayLike, b: ArrayLike, axisa: int = -1, axisb: int = -1, axisc: int = -1, axis: int | None = None
) -> Array:
    """The cross product of 2- or 3-vectors along ``axisa``/``axisb``
    (``axis`` sets all three); 2-vectors give the z component only."""
    x, y = promote_dtypes("cross", (a, b))
    if axis is not None:
        axisa = axisb = axisc = axis
    x = moveaxis(x, canonicalize_axis(axisa, x.ndim, where="jnp.cross axisa") if x.ndim else 0, -1) if x.ndim else x
    y = moveaxis(y, canonicalize_axis(axisb, y.ndim, where="jnp.cross axisb") if y.ndim else 0, -1) if y.ndim else y
    if x.ndim == 0 or y.ndim == 0 or x.shape[-1] not in (2, 3) or y.shape[-1] not in (2, 3):
        raise JaxtypedValueError(
            f"jnp.cross: incompatible dimensions for cross product (dimension must be 2 or 3), got {x.aval.str_short()} and {y.aval.str_short()}"
        )

    def part(v: Array, i: int) -> Array:
        return ls.squeeze(_along(v, v.ndim - 1, i, i + 1), (v.ndim - 1,)) if i < v.shape[-1] else _zeros_of(ls.squeeze(_along(v, v.ndim - 1, 0, 1), (v.ndim - 1,)))

    a0, a1, a2 = part(x, 0), part(x, 1), part(x, 2)
    b0, b1, b2 = part(y, 0), part(y, 1), part(y, 2)
    z = uf.subtract(uf.multiply(a0, b1), uf.multiply(a1, b0))
    if x.shape[-1] == 2 and y.shape[-1] == 2:
        return z
    cx = uf.subtract(uf.multiply(a1, b2), uf.multiply(a2, b1))
    cy = uf.subtract(uf.multiply(a2, b0), uf.multiply(a0, b2))
    shape = _broadcast_shapes("jnp.cross", cx.shape, cy.shape, z.shape)
    parts = [ls.expand_dims(broadcast_to_shape(c, shape), (len(shape),)) for c in (cx, cy, z)]
    result = ls.concatenate(parts, len(shape))
    result = convert_to(result, result.dtype, weak_type=False)  # three components are stacked: strong, as in JAX
    return moveaxis(result, -1, canonicalize_axis(axisc, result.ndim, where="jnp.cross axisc"))


def matvec(x1: ArrayLike, x2: ArrayLike, /) -> Array:
    """Matrix-vector products over broadcast batch axes: ``(..., m, n)`` by ``(..., n)``."""
    a, b = promote_dtypes("matvec", (x1, x2))
    if a.ndim < 2 or b.ndim < 1 or a.shape[-1] != b.shape[-1]:
        raise JaxtypedValueError(
            f"jnp.matvec: needs a matrix (..., m, n) and a vector (..., n), got {a.aval.str_short()} and {b.aval.str_short()}"
        )
    return ls.squeeze(matmul(a, ls.expand_dims(b, (b.ndim,))), (builtins.max(a.ndim, b.ndim + 1) - 1,))


def vecmat(x1: ArrayLike, x2: ArrayLike, /) -> Array:
    """Vector-matrix products ``conj(x1) @ x2`` over broadcast batch axes."""
    a, b = promote_dtypes("vecmat", (x1, x2))
    if a.ndim < 1 or b.ndim < 2 or a.shape[-1] != b.shape[-2]:
        raise JaxtypedValueError(
            f"jnp.vecmat: needs a vector (..., n) and a matrix (..., n, m), got {a.aval.str_short()} and {b.aval.str_short()}"
        )
    out = matmul(ls.expand_dims(uf.conjugate(a), (a.ndim - 1,)), b)
    return ls.squeeze(out, (out.ndim - 2,))


def vecdot(x1: ArrayLike, x2: ArrayLike, /, *, axis: int = -1) -> Array:
    """The dot product ``sum(conj(x1) * x2)`` along ``axis``, batch axes broadcast."""
    a, b = promote_dtypes("vecdot", (x1, x2))
    if a.ndim == 0 or b.ndim == 0:
        raise JaxtypedValueError("jnp.vecdot: arguments must have at least one dimension")
    a = moveaxis(a, canonicalize_axis(axis, a.ndim, where="jnp.vecdot axis"), -1)
    b = moveaxis(b, canonicalize_axis(axis, b.ndim, where="jnp.vecdot axis"), -1)
    if a.shape[-1] != b.shape[-1]:
        raise JaxtypedValueError(f"jnp.vecdot: axes of length {a.shape[-1]} and {b.shape[-1]} differ")
    out = matmul(ls.expand_dims(uf.conjugate(a), (a.ndim - 1,)), ls.expand_dims(b, (b.ndim,)))
    return ls.squeeze(out, (out.ndim - 2, out.ndim - 1))


def vander(x: ArrayLike, N: int | None = None, increasing: bool = False) -> Array:  # noqa: N803 - NumPy's name
    """The Vandermonde matrix of the 1-d ``x``: columns are powers of ``x``
    (decreasing by default)."""
    v = asarray_operand("vander", x)
    if v.ndim != 1:
        raise JaxtypedValueError(f"jnp.vander: x must be a one-dimensional array, got {v.aval.str_short()}")
    columns = v.shape[0] if N is None else index_arg(N, "jnp.vander: N")
    if columns < 0:
        raise JaxtypedValueError(f"jnp.vander: N must be nonnegative, got {columns}")
    exponents = ls.broadcasted_iota(v.dtype, (columns,), 0)
    if not increasing:
        exponents = ls.rev(exponents, (0,))
    powers = uf.power(ls.expand_dims(v, (1,)), ls.expand_dims(exponents, (0,)))
    return convert_to(powers, powers.dtype, weak_type=False)


# === bits ===


def packbits(a: ArrayLike, axis: int | None = None, bitorder: str = "big") -> Array:
    """Booleans (or nonzero integers) packed into uint8, 8 to a byte, along
    ``axis`` (the flattened array by default)."""
    x = asarray_operand("packbits", a)
    if not (dtypes.is_bool(x.dtype) or dtypes.is_integer(x.dtype)):
        raise JaxtypedTypeError(f"jnp.packbits: expected an integer or boolean array, got {x.aval.str_short()}")
    if bitorder not in ("little", "big"):
        raise JaxtypedValueError(f"jnp.packbits: bitorder must be 'little' or 'big', got {bitorder!r}")
    if axis is None:
        x, ax = ravel(x), 0
    else:
        ax = canonicalize_axis(axis, x.ndim, where="jnp.packbits axis")
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
    if axis is None:
        x, ax = ravel(x), 0
    else:
        ax = canonicalize_axis(axis, x.ndim, where="jnp.unpackbits axis")
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
        return _along(merged, ax, 0, keep)
    config = [(0, keep - total, 0) if i == ax else (0, 0, 0) for i in range(merged.ndim)]
    return ls.pad(merged, scalar_like(0, uint8, "jnp.unpackbits", weak_type=False), config)

