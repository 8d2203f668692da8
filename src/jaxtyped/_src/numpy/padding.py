"""``jnp.pad`` (layer L5): every NumPy mode as a composition of lax
pads, slices, reversals and concatenations, one axis at a time as NumPy
pads (so corners take the later axes' values)."""

import builtins
from collections.abc import Callable, Sequence
from typing import Any, Literal

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.api import vmap
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.errors import JaxtypedNotImplementedError, JaxtypedValueError
from jaxtyped._src.lax import arithmetic as la
from jaxtyped._src.lax import structural as ls
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.lax.util import scalar_like
from jaxtyped._src.numpy import reductions as red
from jaxtyped._src.numpy import ufuncs as uf
from jaxtyped._src.numpy.creation import asarray
from jaxtyped._src.numpy.manipulation_util import along, concrete_host, int_host, repeat_slice
from jaxtyped._src.numpy.promotion import asarray_operand
from jaxtyped._src.numpy.shape_ops import moveaxis
from jaxtyped._src.numpy.statistics import median
from jaxtyped._src.util import prod

__all__ = ["pad", "PadMode", "PadWidth"]

# pad_width (and stat_length): one int, one (before, after) pair, or a pair per axis.
PadWidth = int | Sequence[int] | Sequence[Sequence[int]] | ArrayLike

PadMode = Literal[
    "constant", "edge", "linear_ramp", "maximum", "mean", "median", "minimum", "reflect",
    "symmetric", "wrap", "empty",
]  # fmt: skip


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
    values = _pairs("pad", "constant_values", constant_values, x.ndim, concrete_host("pad", "constant_values", constant_values))
    for axis, ((before, after), (c_before, c_after)) in enumerate(zip(widths, values)):
        for count, fill, at_end in ((before, c_before, False), (after, c_after, True)):
            if count:
                config = [(0, 0, 0)] * x.ndim
                config[axis] = (0, count, 0) if at_end else (count, 0, 0)
                x = ls.pad(x, convert_to(asarray(fill), x.dtype, weak_type=x.weak_type), config)
    return x


def _pad_edge(x: Array, axis: int, before: int, after: int) -> Array:
    n = x.shape[axis]
    parts = [repeat_slice(along(x, axis, 0, 1), axis, before), x, repeat_slice(along(x, axis, n - 1, n), axis, after)]
    return ls.concatenate(parts, axis)


def _pad_wrap(x: Array, axis: int, before: int, after: int) -> Array:
    n = x.shape[axis]
    left, right = -(-before // n), -(-after // n)
    periodic = ls.concatenate([x] * (left + 1 + right), axis)
    return along(periodic, axis, left * n - before, left * n + n + after)


def _pad_reflect(x: Array, axis: int, before: int, after: int, symmetric: bool, odd: bool) -> Array:
    """Reflect (edge not repeated) or mirror (edge repeated) repeatedly, as
    NumPy does when the pad is wider than the axis; ``odd`` reflects values
    through the edge value too."""
    n = x.shape[axis]
    skip = 0 if symmetric or n == 1 else 1
    for at_end, remaining in ((False, before), (True, after)):
        edge = along(x, axis, x.shape[axis] - 1, x.shape[axis]) if at_end else along(x, axis, 0, 1)
        while remaining > 0:
            size = x.shape[axis]
            chunk = builtins.min(remaining, n - skip)
            remaining -= chunk
            if at_end:
                piece = along(x, axis, size - chunk - skip, size - skip)
            else:
                piece = along(x, axis, skip, skip + chunk)
            piece = ls.rev(piece, (axis,))
            if odd:
                piece = uf.subtract(uf.multiply(2, edge), piece)
                if n > 1:
                    edge = along(piece, axis, chunk - 1, chunk) if at_end else along(piece, axis, 0, 1)
            x = ls.concatenate([x, piece] if at_end else [piece, x], axis)
    return x


def _pad_linear_ramp(x: Array, axis: int, before: int, after: int, ends: tuple[Any, Any]) -> Array:
    n = x.shape[axis]
    parts: list[Array] = []
    for count, edge_at, end, at_end in ((before, 0, ends[0], False), (after, n - 1, ends[1], True)):
        if not count:
            parts.append(x) if at_end else None
            continue
        edge = along(x, axis, edge_at, edge_at + 1)
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
            region = along(x, axis, n - k, n) if at_end else along(x, axis, 0, k)
            stat = _statistic(region, axis, mode)
            piece = repeat_slice(stat, axis, count)
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
    widths_host = int_host("pad", "pad_width", pad_width)
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
        raise JaxtypedNotImplementedError(f"jnp.pad: mode {mode!r} is not implemented")
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
