"""The index functions of ``jaxtyped.numpy`` (layer L5): ``take``,
``take_along_axis``, ``put``, ``nonzero`` and friends, ``choose``,
``select``, ``piecewise``, index builders (``ix_``, ``indices``,
``unravel_index``, ``tril_indices``, ...) and the index-expression objects
(``s_``, ``index_exp``, ``r_``, ``c_``, ``mgrid``, ``ogrid``).

Everything goes through ``x[...]`` / ``x.at[...]`` (one gather or scatter)
with JAX's defaults: ``take`` and ``take_along_axis`` fill out-of-bounds
reads (NaN, the integer extreme), ``put`` drops out-of-bounds writes.
Functions whose result size depends on values (``nonzero``, ``compress``,
``argwhere``, ...) need a concrete argument, or a static ``size`` (then
they are traceable: a prefix count places each hit).
"""

import math
from collections.abc import Callable, Sequence
from types import EllipsisType
from typing import Any, Final, Literal, TypeVar, overload

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike, ScalarLike
from jaxtyped._src.core.array_impl import array_from_numpy, is_numpy_value
from jaxtyped._src.errors import (
    JaxtypedNotImplementedError,
    ConcretizationTypeError,
    JaxtypedIndexError,
    JaxtypedTypeError,
    JaxtypedValueError,
    TracerArrayConversionError,
)
from jaxtyped._src.lax import structural as ls
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.lax.slicing import slice as lax_slice
from jaxtyped._src.lax.util import scalar_like
from jaxtyped._src.numpy import shape_ops as sh
from jaxtyped._src.numpy import ufuncs as uf
from jaxtyped._src.numpy.index_update import index_update
from jaxtyped._src.core.key_layout import key_dispatch, key_dispatch2  # random family
from jaxtyped._src.numpy.promotion import asarray_operand, promote_args
from jaxtyped._src.util import index_arg

__all__ = [
    "take", "take_along_axis", "put", "put_along_axis", "choose", "compress", "extract", "place",
    "nonzero", "flatnonzero", "argwhere", "where", "select", "piecewise", "ix_", "indices",
    "ravel_multi_index", "unravel_index", "diag_indices", "diag_indices_from", "tril_indices",
    "triu_indices", "tril_indices_from", "triu_indices_from", "mask_indices", "fill_diagonal",
    "index_exp", "s_", "r_", "c_", "mgrid", "ogrid",
]  # fmt: skip

_MODES = ("promise_in_bounds", "clip", "drop", "fill")


def _int_dtype() -> np.dtype[Any]:
    return dtypes.default_int_dtype()


def _axis(name: str, axis: object, ndim: int) -> int:
    value = index_arg(axis, f"jnp.{name}: axis")
    if not -ndim <= value < ndim:
        raise JaxtypedValueError(f"jnp.{name}: axis {value} is out of bounds for an array of rank {ndim}")
    return value % ndim


def _flat_or_axis(name: str, x: Array, axis: object) -> tuple[Array, int]:
    """``x`` and the axis to work along: the flattened array's only axis
    when ``axis`` is None (NumPy's convention), else ``axis`` checked."""
    if axis is None:
        return sh.ravel(x), 0
    return x, _axis(name, axis, x.ndim)


def _concrete(name: str, x: Array, fix: str) -> np.ndarray[Any, np.dtype[Any]]:
    try:
        return np.asarray(x)
    except (ConcretizationTypeError, TracerArrayConversionError):
        raise ConcretizationTypeError(
            f"jnp.{name}: the value of the traced array {x.aval.str_short()} is needed here; {fix}"
        ) from None


def _check_take_mode(name: str, mode: str | None, allowed: tuple[str, ...]) -> str:
    if mode is None:
        return "fill"
    if mode == "raise":
        raise JaxtypedNotImplementedError(f"The 'raise' mode to jnp.{name} is not supported.")
    if mode not in allowed:
        raise JaxtypedValueError(f"Invalid mode {mode!r} for jnp.{name}")
    return mode


# === take, take_along_axis, put, put_along_axis ===


def take(
    a: ArrayLike,
    indices: ArrayLike,
    axis: int | None = None,
    out: None = None,
    mode: str | None = None,
    unique_indices: bool = False,
    indices_are_sorted: bool = False,
    fill_value: ScalarLike | None = None,
) -> Array:
    """Elements of ``a`` at ``indices`` along ``axis`` (of the flattened
    array by default); out-of-bounds indices give ``fill_value`` (NaN, the
    integer extreme) unless ``mode`` is ``'clip'`` or ``'wrap'``."""
    if out is not None:
        raise JaxtypedNotImplementedError("jnp.take: the 'out' argument is not supported")
    if (keys := key_dispatch(lambda k: take(k, indices, axis, None, mode, unique_indices, indices_are_sorted), a)) is not None:  # random family: key arrays
        return keys
    x = asarray_operand("take", a)
    idx = asarray_operand("take", indices, 1)
    if not dtypes.is_integer(idx.dtype) or dtypes.is_bool(idx.dtype):
        raise JaxtypedValueError(f"jnp.take: indices must have an integer type, got {idx.aval.str_short()}")
    x, axis_ = _flat_or_axis("take", x, axis)
    parsed = _check_take_mode("take", mode, ("fill", "clip", "wrap"))
    size = x.shape[axis_]
    if parsed == "wrap":
        idx = uf.remainder(idx, scalar_like(size, idx.dtype, "jnp.take") if size else idx)
        parsed = "clip"
    elif parsed == "clip":
        # JAX's take clips without wrapping negative indices first.
        idx = uf.clip(idx, 0, max(size - 1, 0))
    elif size == 0 and idx.size and parsed != "fill":
        raise JaxtypedIndexError("jnp.take: Cannot do a non-empty jnp.take() from an empty axis.")
    index = (slice(None),) * axis_ + (idx,)
    return index_update(
        "get", x, index, mode=parsed, fill_value=fill_value,
        unique_indices=unique_indices, indices_are_sorted=indices_are_sorted,
    )


def _along_axis_index(name: str, x: Array, idx: Array, axis: int) -> tuple[Array | slice, ...]:
    """An index that reads ``x`` at ``idx`` along ``axis`` and pairs every
    other axis position with itself (index arrays broadcast together)."""
    if idx.ndim != x.ndim:
        raise JaxtypedValueError(
            f"jnp.{name}: indices and arr must have the same number of dimensions; {idx.ndim} vs. {x.ndim}"
        )
    if not dtypes.is_integer(idx.dtype) or dtypes.is_bool(idx.dtype):
        raise JaxtypedTypeError(f"jnp.{name}: indices must be integers, got {idx.aval.str_short()}")
    items: list[Array | slice] = []
    for d in range(x.ndim):
        if d == axis:
            items.append(idx)
            continue
        if idx.shape[d] not in (1, x.shape[d]) and x.shape[d] != 1:
            raise JaxtypedValueError(
                f"jnp.{name}: indices and arr shapes are incompatible: {idx.shape} vs {x.shape}"
            )
        shape = [1] * x.ndim
        shape[d] = x.shape[d]
        items.append(ls.broadcasted_iota(_int_dtype(), tuple(shape), d))
    return tuple(items)


def take_along_axis(
    arr: ArrayLike,
    indices: ArrayLike,
    axis: int | None = -1,
    mode: str | None = None,
    fill_value: ScalarLike | None = None,
    *,
    wrap_negative_indices: bool | None = None,
) -> Array:
    """Elements of ``arr`` at ``indices`` along ``axis`` (NumPy's
    ``take_along_axis``); out-of-bounds indices are filled by default.
    Negative indices count from the end unless ``wrap_negative_indices`` is
    False (its default is ``mode != 'promise_in_bounds'``, as in JAX)."""
    if (keys := key_dispatch(  # random family: key arrays
        lambda k: take_along_axis(k, indices, axis, mode, fill_value, wrap_negative_indices=wrap_negative_indices), arr
    )) is not None:
        return keys
    x = asarray_operand("take_along_axis", arr)
    idx = asarray_operand("take_along_axis", indices, 1)
    if axis is None and idx.ndim != 1:
        raise JaxtypedValueError("jnp.take_along_axis: when axis is None, indices must have rank 1")
    x, axis_ = _flat_or_axis("take_along_axis", x, axis)
    parsed = _check_take_mode("take_along_axis", mode, _MODES)
    wrap = parsed != "promise_in_bounds" if wrap_negative_indices is None else wrap_negative_indices
    if not wrap and dtypes.is_signed_integer(idx.dtype):
        # Unwrapped negative indices are out of bounds: filled, or clamped to 0.
        past = x.shape[axis_] if parsed in ("fill", "drop") else 0
        idx = uf.where(uf.less(idx, scalar_like(0, idx.dtype, "jnp.take_along_axis")), past, idx)
    return index_update("get", x, _along_axis_index("take_along_axis", x, idx, axis_), mode=parsed, fill_value=fill_value)


def _no_inplace(name: str, inplace: bool) -> None:
    if inplace and name == "fill_diagonal":
        raise JaxtypedNotImplementedError("JAX arrays are immutable, must use inplace=False")
    if inplace:
        raise JaxtypedValueError(
            f"jnp.{name} cannot modify arrays in-place, because JAX arrays are immutable. "
            f"Pass inplace=False to instead return an updated array."
        )


def _cycled(values: Array, count: int) -> Array:
    """``values`` flattened and repeated cyclically to ``count`` elements
    (NumPy's ``put``/``place`` rule)."""
    flat = sh.ravel(values)
    if flat.size == count:
        return flat
    if flat.size == 0:
        raise JaxtypedValueError("cannot repeat an empty array of values")
    reps = -(-count // flat.size)
    tiled = ls.reshape(ls.broadcast_in_dim(flat, (reps, flat.size), (1,)), (reps * flat.size,))
    return lax_slice(tiled, (0,), (count,))


def put(a: ArrayLike, ind: ArrayLike, v: ArrayLike, mode: str | None = None, *, inplace: bool = True) -> Array:
    """``a`` (flattened positions ``ind``) replaced by ``v``, repeated as
    needed; ``inplace=False`` is required, as in JAX."""
    _no_inplace("put", inplace)
    x = asarray_operand("put", a)
    idx = sh.ravel(asarray_operand("put", ind, 1))
    values = asarray_operand("put", v, 2)
    if mode == "raise":
        raise JaxtypedNotImplementedError("The 'raise' mode to jnp.put is not supported.")
    if mode not in (None, "clip", "wrap"):
        raise JaxtypedValueError(f"mode should be one of 'wrap' or 'clip'; got {mode=}")
    if x.size == 0 or idx.size == 0 or values.size == 0:
        return x
    if mode == "wrap":
        idx = uf.remainder(idx, scalar_like(x.size, idx.dtype, "jnp.put"))
    elif mode == "clip":
        idx = uf.clip(idx, 0, x.size - 1)
    else:
        # JAX goes through unravel_index, which clips (and wraps negatives).
        (idx,) = unravel_index(idx, (x.size,))
    updates = _cycled(values, idx.size)
    flat = index_update("set", sh.ravel(x), (idx,), updates)
    return ls.reshape(flat, x.shape)


def put_along_axis(
    arr: ArrayLike, indices: ArrayLike, values: ArrayLike, axis: int | None, inplace: bool = True, *,
    mode: str | None = None,
) -> Array:
    """``arr`` with ``values`` written at ``indices`` along ``axis``
    (``inplace=False`` is required, as in JAX)."""
    _no_inplace("put_along_axis", inplace)
    x = asarray_operand("put_along_axis", arr)
    idx = asarray_operand("put_along_axis", indices, 1)
    if axis is None:
        flat = sh.ravel(x)
        index = _along_axis_index("put_along_axis", flat, sh.ravel(idx), 0)
        return ls.reshape(index_update("set", flat, index, values, mode=mode), x.shape)
    axis_ = _axis("put_along_axis", axis, x.ndim)
    return index_update("set", x, _along_axis_index("put_along_axis", x, idx, axis_), values, mode=mode)


# === nonzero and friends ===


def _inclusive_count(flags: Array) -> Array:
    """Running count of a 1-d int array (a log-step prefix sum)."""
    n = flags.shape[0]
    total = flags
    shift = 1
    while shift < n:
        zeros = ls.broadcast_in_dim(scalar_like(0, total.dtype, "prefix count"), (shift,), ())
        shifted = ls.concatenate([zeros, lax_slice(total, (0,), (n - shift,))], 0)
        total = uf.add(total, shifted)
        shift *= 2
    return total


def _fill_values(name: str, fill_value: ArrayLike | tuple[ArrayLike, ...] | None, count: int) -> list[Array]:
    """One fill value per axis (a scalar is used for every axis)."""
    if fill_value is None:
        values: tuple[ArrayLike, ...] = (0,) * count
    elif isinstance(fill_value, tuple):
        if len(fill_value) != count:
            raise JaxtypedValueError(f"jnp.{name}: fill_value must be a scalar or a tuple of length {count}")
        values = fill_value
    else:
        values = (fill_value,) * count
    out = [asarray_operand(name, v) for v in values]
    if any(v.ndim for v in out):
        raise JaxtypedValueError(f"jnp.{name}: fill_value must be a scalar or a tuple of scalars")
    return out


def nonzero(
    a: ArrayLike, *, size: int | None = None, fill_value: ArrayLike | tuple[ArrayLike, ...] | None = None
) -> tuple[Array, ...]:
    """The coordinates of the non-zero elements, one array per axis;
    with a static ``size`` the result has that length (padded with
    ``fill_value``, default 0) and ``a`` may be traced."""
    x = asarray_operand("nonzero", a)
    if x.ndim == 0:
        raise JaxtypedValueError(
            "Calling nonzero on 0d arrays is not allowed. Use jnp.atleast_1d(scalar).nonzero() instead."
        )
    if size is None:
        value = _concrete("nonzero", x, "pass a static size= to jnp.nonzero (or jnp.where, argwhere, ...)")
        return tuple(array_from_numpy(np.asarray(c, _int_dtype())) for c in np.nonzero(value))
    size = index_arg(size, "jnp.nonzero: size")
    if size < 0:
        raise JaxtypedValueError(f"jnp.nonzero: size must be non-negative, got {size}")
    fills = _fill_values("nonzero", fill_value, x.ndim)
    int_ = _int_dtype()
    flat = sh.ravel(uf.not_equal(x, scalar_like(0, x.dtype, "jnp.nonzero")))
    n = flat.shape[0]
    hits = convert_to(flat, int_, weak_type=False)
    # Each hit goes to slot (running count - 1); misses go past the end and are dropped.
    slots = uf.subtract(_inclusive_count(hits), scalar_like(1, int_, "jnp.nonzero")) if n else hits
    slots = ls.select_n(flat, ls.broadcast_in_dim(scalar_like(size, int_, "jnp.nonzero"), (n,), ()), slots)
    positions = ls.iota(int_, n)
    sentinel = ls.broadcast_in_dim(scalar_like(-1, int_, "jnp.nonzero"), (size,), ())
    found = index_update("set", sentinel, (slots,), positions, mode="drop", unique_indices=True)
    missing = uf.less(found, scalar_like(0, int_, "jnp.nonzero"))
    coords = _unravel(uf.maximum(found, scalar_like(0, int_, "jnp.nonzero")), x.shape)
    out: list[Array] = []
    for coord, fill in zip(coords, fills):
        out.append(uf.where(missing, convert_to(fill, int_, weak_type=False), coord))
    return tuple(out)


def _unravel(flat_index: Array, shape: tuple[int, ...]) -> list[Array]:
    """Coordinates of in-range flat indices, C order."""
    coords: list[Array] = []
    rest = flat_index
    for d in reversed(shape[1:]):
        size = scalar_like(max(d, 1), rest.dtype, "unravel")
        coords.append(uf.remainder(rest, size))
        rest = uf.floor_divide(rest, size)
    coords.append(rest)
    return coords[::-1]


def flatnonzero(
    a: ArrayLike, *, size: int | None = None, fill_value: ArrayLike | tuple[ArrayLike, ...] | None = None
) -> Array:
    """Indices of the non-zero elements of the flattened array."""
    return nonzero(sh.ravel(asarray_operand("flatnonzero", a)), size=size, fill_value=fill_value)[0]


def argwhere(a: ArrayLike, *, size: int | None = None, fill_value: ArrayLike | None = None) -> Array:
    """Coordinates of the non-zero elements, one row each: ``(n, a.ndim)``."""
    x = asarray_operand("argwhere", a)
    if x.ndim == 0:
        rows = size if size is not None else int(np.count_nonzero(_concrete("argwhere", x, "pass a static size=")))
        return array_from_numpy(np.zeros((rows, 0), _int_dtype()))
    coords = nonzero(x, size=size, fill_value=fill_value)
    return sh.stack(list(coords), axis=1)


@overload
def where(condition: ArrayLike, x: ArrayLike, y: ArrayLike, /, *, size: None = None,
          fill_value: None = None) -> Array: ...
@overload
def where(condition: ArrayLike, /, *, size: int | None = None,
          fill_value: ArrayLike | tuple[ArrayLike, ...] | None = None) -> tuple[Array, ...]: ...
def where(
    condition: ArrayLike, x: ArrayLike | None = None, y: ArrayLike | None = None, /, *,
    size: int | None = None, fill_value: ArrayLike | tuple[ArrayLike, ...] | None = None,
) -> Array | tuple[Array, ...]:
    """``x`` where ``condition`` holds, else ``y``; with ``condition`` alone,
    ``nonzero(condition, size=size, fill_value=fill_value)``."""
    if x is None and y is None:
        return nonzero(condition, size=size, fill_value=fill_value)
    if x is None or y is None:
        raise JaxtypedTypeError("Either both or neither of the x and y arguments should be provided to jnp.where.")
    if size is not None or fill_value is not None:
        raise JaxtypedValueError("size and fill_value arguments cannot be used in three-term where function.")
    if (keys := key_dispatch2(lambda a, b: uf.where(condition, a, b), x, y)) is not None:  # random family: key arrays
        return keys
    return uf.where(condition, x, y)


def compress(
    condition: ArrayLike, a: ArrayLike, axis: int | None = None, *, size: int | None = None,
    fill_value: ArrayLike = 0, out: None = None,
) -> Array:
    """The slices of ``a`` along ``axis`` where ``condition`` (1-d) holds."""
    if out is not None:
        raise JaxtypedNotImplementedError("jnp.compress: the 'out' argument is not supported.")
    cond = asarray_operand("compress", condition)
    x = asarray_operand("compress", a, 1)
    if cond.ndim != 1:
        raise JaxtypedValueError("condition must be a 1D array")
    x, axis_ = _flat_or_axis("compress", x, axis)
    length = x.shape[axis_]
    if cond.shape[0] > length:
        extra = _concrete("compress", lax_slice(cond, (length,), (cond.shape[0],)), "condition is longer than the axis")
        if np.any(extra):
            raise JaxtypedValueError(
                f"jnp.compress: condition has {cond.shape[0]} entries, more than axis {axis_} of size {length}"
            )
        cond = lax_slice(cond, (0,), (length,))
    (found,) = nonzero(cond, size=size, fill_value=length)
    return take(x, found, axis=axis_, mode="fill", fill_value=_static_fill("compress", fill_value))


def _static_fill(name: str, fill_value: ArrayLike) -> ScalarLike:
    if isinstance(fill_value, (bool, int, float, complex, np.generic)):
        return fill_value
    value = _concrete(name, asarray_operand(name, fill_value), "fill_value must be static")
    if value.ndim:
        raise JaxtypedValueError(f"jnp.{name}: fill_value must be a scalar")
    scalar: ScalarLike = value.item()
    return scalar


def extract(condition: ArrayLike, arr: ArrayLike, *, size: int | None = None, fill_value: ArrayLike = 0) -> Array:
    """The elements of ``arr`` where ``condition`` holds, flattened."""
    cond = asarray_operand("extract", condition)
    x = asarray_operand("extract", arr, 1)
    cond_flat = sh.ravel(uf.not_equal(cond, scalar_like(0, cond.dtype, "jnp.extract")))
    return compress(cond_flat, sh.ravel(x), size=size, fill_value=fill_value)


def place(arr: ArrayLike, mask: ArrayLike, vals: ArrayLike, *, inplace: bool = True) -> Array:
    """``arr`` with the positions where ``mask`` holds set to ``vals``
    (repeated as needed); ``inplace=False`` is required, as in JAX."""
    _no_inplace("place", inplace)
    x = asarray_operand("place", arr)
    m = asarray_operand("place", mask, 1)
    values = asarray_operand("place", vals, 2)
    flat_mask = _concrete("place", sh.ravel(m), "mask must be concrete").astype(bool)
    (found,) = np.nonzero(flat_mask)
    if found.size == 0:
        return x
    updates = _cycled(values, int(found.size))
    flat = index_update("set", sh.ravel(x), (found.astype(np.int32),), updates)
    return ls.reshape(flat, x.shape)


# === choose, select, piecewise ===


def choose(a: ArrayLike, choices: Array | Sequence[ArrayLike], out: None = None, mode: str = "raise") -> Array:
    """``choices[a[i]][i]`` for every position (all broadcast together);
    ``mode`` is ``'raise'`` (needs a concrete ``a``), ``'wrap'`` or ``'clip'``."""
    if out is not None:
        raise JaxtypedNotImplementedError("jnp.choose: the 'out' argument is not supported.")
    idx = asarray_operand("choose", a)
    if not dtypes.is_integer(idx.dtype) or dtypes.is_bool(idx.dtype):
        raise JaxtypedTypeError(f"jnp.choose: a must be an integer array, got {idx.aval.str_short()}")
    options = list(choices) if not isinstance(choices, Array) else [choices[i] for i in range(choices.shape[0])]
    n = len(options)
    if n == 0:
        raise JaxtypedValueError("jnp.choose: choices must not be empty")
    if mode == "raise":
        value = _concrete("choose", idx, "jnp.choose was jit-compiled with mode='raise'. Use mode='wrap' or mode='clip' instead.")
        if np.any((value < 0) | (value >= n)):
            raise JaxtypedValueError("invalid entry in choice array")
    elif mode == "wrap":
        idx = uf.remainder(idx, scalar_like(n, idx.dtype, "jnp.choose"))
    elif mode == "clip":
        idx = uf.clip(idx, 0, n - 1)
    else:
        raise JaxtypedValueError(f"jnp.choose: invalid mode {mode!r}; use 'raise', 'wrap' or 'clip'")
    arrays = promote_args("choose", *options)
    shape = np.broadcast_shapes(idx.shape, *(c.shape for c in arrays))
    stacked = sh.stack([sh.broadcast_to(c, shape) for c in arrays])
    index = tuple([sh.broadcast_to(idx, shape)] + [ls.broadcasted_iota(_int_dtype(), shape, d) for d in range(len(shape))])
    return index_update("get", stacked, index, mode="clip")


def select(condlist: Sequence[ArrayLike], choicelist: Sequence[ArrayLike], default: ArrayLike = 0) -> Array:
    """The element of the first choice whose condition holds (non-zero),
    else ``default``."""
    if len(condlist) != len(choicelist):
        raise JaxtypedValueError(
            f"condlist must have length equal to choicelist ({len(condlist)} vs {len(choicelist)})"
        )
    if len(condlist) == 0:
        raise JaxtypedValueError("condlist must be non-empty")
    conds = [asarray_operand("select", c, i) for i, c in enumerate(condlist)]
    # Non-boolean conditions mean "non-zero", as in NumPy.
    conds = [c if dtypes.is_bool(c.dtype) else uf.not_equal(c, scalar_like(0, c.dtype, "jnp.select")) for c in conds]
    result = promote_args("select", default, *choicelist)
    out = result[0]
    for cond, choice in zip(reversed(conds), reversed(result[1:])):
        out = uf.where(cond, choice, out)
    return out


def piecewise(
    x: ArrayLike,
    condlist: Array | Sequence[ArrayLike],
    funclist: Sequence[ArrayLike | Callable[..., Array]],
    *args: ArrayLike,
    **kw: ArrayLike,
) -> Array:
    """``funclist[i](x)`` where ``condlist[i]`` holds (the last true one
    wins), ``funclist[-1](x)`` elsewhere if there is one more function than
    conditions, else 0; results take ``x``'s dtype."""
    value = asarray_operand("piecewise", x)
    conds = [asarray_operand("piecewise", c) for c in (
        [condlist[i] for i in range(condlist.shape[0])] if isinstance(condlist, Array) and condlist.ndim > value.ndim
        else [condlist] if isinstance(condlist, Array) else condlist
    )]  # fmt: skip
    n = len(conds)
    if len(funclist) not in (n, n + 1):
        raise JaxtypedValueError(f"with {n} condition(s), either {n} or {n + 1} functions are expected")

    def evaluate(f: ArrayLike | Callable[..., Array]) -> Array:
        result = f(value, *args, **kw) if callable(f) else asarray_operand("piecewise", f)
        return sh.broadcast_to(convert_to(asarray_operand("piecewise", result), value.dtype, weak_type=value.weak_type), value.shape)

    out = evaluate(funclist[n]) if len(funclist) == n + 1 else sh.broadcast_to(scalar_like(0, value.dtype, "jnp.piecewise", weak_type=value.weak_type), value.shape)
    for cond, f in zip(conds, funclist[:n]):
        out = uf.where(cond, evaluate(f), out)
    return out


# === index builders ===


def ix_(*args: ArrayLike) -> tuple[Array, ...]:
    """Open-mesh index arrays from 1-d integer sequences (boolean ones
    raise, as in JAX)."""
    out: list[Array] = []
    for i, arg in enumerate(args):
        a = asarray_operand("ix_", arg, i)
        if a.ndim != 1:
            raise JaxtypedValueError(f"Cross index must be 1 dimensional, got shape {a.shape}")
        if dtypes.is_bool(a.dtype):
            raise JaxtypedNotImplementedError("Boolean arguments to jax.numpy.ix_ are not implemented")
        shape = [1] * len(args)
        shape[i] = a.shape[0]
        out.append(ls.reshape(a, tuple(shape)))
    return tuple(out)


@overload
def indices(dimensions: Sequence[int], dtype: "dtypes.DTypeLike | None" = None, sparse: Literal[False] = False) -> Array: ...
@overload
def indices(dimensions: Sequence[int], dtype: "dtypes.DTypeLike | None" = None, *, sparse: Literal[True]) -> tuple[Array, ...]: ...
def indices(
    dimensions: Sequence[int], dtype: "dtypes.DTypeLike | None" = None, sparse: bool = False
) -> Array | tuple[Array, ...]:
    """The index of every position of a grid of ``dimensions``: one array
    stacked on a leading axis (or an open mesh with ``sparse=True``)."""
    dims = tuple(int(d) for d in dimensions)
    dt = dtypes.canonicalize_dtype(dtypes.dtype(dtype)) if dtype is not None else _int_dtype()
    grids: list[Array] = []
    for i, d in enumerate(dims):
        shape = tuple(d if j == i else 1 for j in range(len(dims)))
        grid = ls.broadcasted_iota(dt, shape, i)
        grids.append(grid if sparse else ls.broadcast_in_dim(grid, dims, tuple(range(len(dims)))))
    if sparse:
        return tuple(grids)
    if not grids:
        return array_from_numpy(np.zeros((0,), dt))
    return sh.stack(grids)


def ravel_multi_index(
    multi_index: Sequence[ArrayLike], dims: Sequence[int], mode: str = "raise", order: str = "C", *,
    dtype: "dtypes.DTypeLike | None" = None,
) -> Array:
    """Flat indices of the coordinates ``multi_index`` in a grid of ``dims``
    (``mode='raise'`` needs concrete coordinates), as ``dtype`` (the
    default integer by default)."""
    if len(multi_index) != len(dims):
        raise JaxtypedValueError(f"parameter multi_index must be a sequence of length {len(dims)}")
    if order not in ("C", "F"):
        raise JaxtypedValueError("only 'C' or 'F' order is permitted")
    coords = [asarray_operand("ravel_multi_index", c, i) for i, c in enumerate(multi_index)]
    for c in coords:
        if not dtypes.is_integer(c.dtype) or dtypes.is_bool(c.dtype):
            raise JaxtypedTypeError(f"only int indices permitted, got {c.aval.str_short()}")
    sizes = [int(d) for d in dims]
    if mode == "raise":
        for c, d in zip(coords, sizes):
            value = _concrete("ravel_multi_index", c, "ravel_multi_index was jit-compiled with mode='raise'. Use mode='wrap' or mode='clip' instead.")
            if np.any((value < 0) | (value >= d)):
                raise JaxtypedValueError("invalid entry in coordinates array")
    elif mode == "clip":
        coords = [uf.clip(c, 0, d - 1) for c, d in zip(coords, sizes)]
    elif mode == "wrap":
        coords = [uf.remainder(c, d) for c, d in zip(coords, sizes)]
    else:
        raise JaxtypedValueError(f"invalid mode={mode!r}. Expected 'raise', 'wrap', or 'clip'")
    out_dtype = _int_dtype() if dtype is None else dtypes.canonicalize_dtype(dtypes.dtype(dtype))
    if not dtypes.is_integer(out_dtype) or dtypes.is_bool(out_dtype):
        raise JaxtypedTypeError(f"jnp.ravel_multi_index: dtype must be an integer type, got {out_dtype}")
    order_axes = list(range(len(sizes)))[::-1] if order == "C" else list(range(len(sizes)))
    total: Array | None = None
    stride = 1
    for axis in order_axes:
        term = uf.multiply(convert_to(coords[axis], out_dtype, weak_type=False), scalar_like(stride, out_dtype, "jnp.ravel_multi_index"))
        total = term if total is None else uf.add(total, term)
        stride *= sizes[axis]
    assert total is not None
    return total


def unravel_index(indices: ArrayLike, shape: Sequence[int]) -> tuple[Array, ...]:
    """Coordinates of flat ``indices`` in a grid of ``shape`` (negative ones
    count from the end; out-of-range ones are clipped, as in JAX)."""
    idx = asarray_operand("unravel_index", indices)
    if not dtypes.is_integer(idx.dtype) or dtypes.is_bool(idx.dtype):
        raise JaxtypedTypeError(f"jnp.unravel_index: indices must be integers, got {idx.aval.str_short()}")
    dims = tuple(int(d) for d in shape)
    total = math.prod(dims)
    if total == 0:
        raise JaxtypedValueError("jnp.unravel_index: the shape has no elements")
    clipped = uf.clip(idx, -total, total - 1)
    wrapped = uf.where(uf.less(clipped, 0), uf.add(clipped, total), clipped)
    return tuple(_unravel(wrapped, dims))


def diag_indices(n: int, ndim: int = 2) -> tuple[Array, ...]:
    """Indices of the main diagonal of an ``n``-sided ``ndim``-cube."""
    if n < 0:
        raise JaxtypedValueError(f"n argument to diag_indices must be nonnegative, got {n}")
    if ndim < 0:
        raise JaxtypedValueError(f"ndim argument to diag_indices must be nonnegative, got {ndim}")
    return (ls.iota(_int_dtype(), n),) * ndim


def diag_indices_from(arr: ArrayLike) -> tuple[Array, ...]:
    """Indices of the main diagonal of a square ``arr`` (all sides equal)."""
    x = asarray_operand("diag_indices_from", arr)
    if x.ndim < 2:
        raise JaxtypedValueError("input array must be at least 2-d")
    if len(set(x.shape)) != 1:
        raise JaxtypedValueError("All dimensions of input must be of equal length")
    return diag_indices(x.shape[0], x.ndim)


def _host_pair(pair: tuple[np.ndarray[Any, np.dtype[Any]], ...]) -> tuple[Array, Array]:
    rows, cols = (array_from_numpy(np.asarray(p, _int_dtype())) for p in pair)
    return rows, cols


def tril_indices(n: int, k: int = 0, m: int | None = None) -> tuple[Array, Array]:
    """Row and column indices of the lower triangle (diagonal offset ``k``)."""
    return _host_pair(np.tril_indices(int(n), int(k), None if m is None else int(m)))


def triu_indices(n: int, k: int = 0, m: int | None = None) -> tuple[Array, Array]:
    """Row and column indices of the upper triangle (diagonal offset ``k``)."""
    return _host_pair(np.triu_indices(int(n), int(k), None if m is None else int(m)))


def _shape2(name: str, arr: ArrayLike) -> tuple[int, int]:
    x = asarray_operand(name, arr)
    if x.ndim != 2:
        raise JaxtypedValueError(f"jnp.{name} requires a 2-dimensional array, got shape {x.shape}")
    return x.shape[0], x.shape[1]


def tril_indices_from(arr: ArrayLike, k: int = 0) -> tuple[Array, Array]:
    """Lower-triangle indices of a 2-d ``arr``."""
    rows, cols = _shape2("tril_indices_from", arr)
    return tril_indices(rows, k, cols)


def triu_indices_from(arr: ArrayLike, k: int = 0) -> tuple[Array, Array]:
    """Upper-triangle indices of a 2-d ``arr``."""
    rows, cols = _shape2("triu_indices_from", arr)
    return triu_indices(rows, k, cols)


def mask_indices(
    n: int, mask_func: Callable[[Array, int], Array], k: int = 0, *, size: int | None = None
) -> tuple[Array, Array]:
    """Indices where ``mask_func(ones((n, n)), k)`` is non-zero."""
    ones = ls.broadcast_in_dim(scalar_like(1, _int_dtype(), "jnp.mask_indices", weak_type=False), (n, n), ())
    rows, cols = nonzero(mask_func(ones, k), size=size)
    return rows, cols


def fill_diagonal(a: ArrayLike, val: ArrayLike, wrap: bool = False, *, inplace: bool = True) -> Array:
    """``a`` with its main diagonal set to ``val`` (repeated as needed);
    ``inplace=False`` is required and ``wrap=True`` unsupported, as in JAX."""
    _no_inplace("fill_diagonal", inplace)
    if wrap:
        raise JaxtypedNotImplementedError("wrap=True is not implemented, must use wrap=False")
    x = asarray_operand("fill_diagonal", a)
    if x.ndim < 2:
        raise JaxtypedValueError("array must be at least 2-d")
    if x.ndim > 2 and len(set(x.shape)) != 1:
        raise JaxtypedValueError("All dimensions of input must be of equal length")
    n = min(x.shape)
    values = asarray_operand("fill_diagonal", val, 1)
    updates = values if values.ndim == 0 else _cycled(values, n)
    return index_update("set", x, diag_indices(n, x.ndim), updates)


# === index expressions ===

_T = TypeVar("_T")
# One item of an index (what NumPy's index_exp wraps in a tuple).
IndexPart = int | slice | EllipsisType | None | Array | np.integer[Any] | np.ndarray[Any, np.dtype[Any]]


class SliceExpression:
    """``jnp.s_[...]``: the index expression itself (``s_[1:, ::2]`` is
    ``(slice(1, None), slice(None, None, 2))``), as NumPy's ``s_``."""

    def __getitem__(self, item: _T, /) -> _T:
        return item


class IndexExpression:
    """``jnp.index_exp[...]``: the index expression as a tuple
    (``index_exp[1:]`` is ``(slice(1, None),)``), as NumPy's ``index_exp``."""

    def __getitem__(self, item: tuple[IndexPart, ...] | IndexPart, /) -> tuple[IndexPart, ...]:
        return item if isinstance(item, tuple) else (item,)


index_exp: Final[IndexExpression] = IndexExpression()
s_: Final[SliceExpression] = SliceExpression()


def _python_scalar(value: "np.ndarray[Any, np.dtype[Any]] | np.generic") -> object:
    item: object = np.asarray(value).item()
    return item


def _bound(name: str, value: object, default: int) -> int | float | complex:
    """A slice bound of ``mgrid``/``ogrid``/``r_`` as a Python number."""
    if value is None:
        return default
    number: object = _python_scalar(value) if is_numpy_value(value) else value
    if isinstance(number, (int, float, complex)):
        return number
    raise JaxtypedTypeError(f"jnp.{name}: slice bounds must be numbers, got {value!r}")


def _grid_axis(name: str, item: slice) -> Array:
    """``arange`` (or ``linspace`` for an imaginary step) for one slice."""
    if item.stop is None:
        raise JaxtypedValueError(f"jnp.{name}: a slice needs a stop")
    start, stop, step = _bound(name, item.start, 0), _bound(name, item.stop, 0), _bound(name, item.step, 1)
    if isinstance(step, complex):
        if isinstance(start, complex) or isinstance(stop, complex):
            raise JaxtypedTypeError(f"jnp.{name}: only the step may be imaginary, got {item!r}")
        values: HostValues = np.linspace(start, stop, int(abs(step)))
        return array_from_numpy(values.astype(dtypes.default_float_dtype()))
    if isinstance(start, complex) or isinstance(stop, complex):
        raise JaxtypedTypeError(f"jnp.{name}: only the step may be imaginary, got {item!r}")
    host: HostValues = np.arange(start, stop, step)
    if host.dtype.kind == "f":
        return array_from_numpy(host.astype(dtypes.default_float_dtype()))
    return array_from_numpy(host.astype(_int_dtype()))


HostValues = np.ndarray[Any, np.dtype[Any]]


def _is_slice_item(item: object) -> bool:
    return isinstance(item, slice)


def _grid_items(name: str, key: slice | tuple[slice, ...]) -> list[Array]:
    items = key if isinstance(key, tuple) else (key,)
    axes: list[Array] = []
    for item in items:
        if not _is_slice_item(item):
            raise JaxtypedTypeError(f"jnp.{name}: index with slices, got {item!r}")
        axes.append(_grid_axis(name, item))
    if axes:
        kind = dtypes.result_dtype(*((a.dtype, False) for a in axes))[0]
        axes = [convert_to(a, kind, weak_type=False) for a in axes]
    return axes


class Mgrid:
    """``jnp.mgrid[...]``: a dense mesh grid, stacked on a leading axis."""

    def __getitem__(self, key: slice | tuple[slice, ...]) -> Array:
        axes = _grid_items("mgrid", key)
        if not isinstance(key, tuple):
            return axes[0]
        shape = tuple(a.shape[0] for a in axes)
        return sh.stack([ls.broadcast_in_dim(a, shape, (i,)) for i, a in enumerate(axes)])


class Ogrid:
    """``jnp.ogrid[...]``: an open mesh grid (one broadcastable array per axis)."""

    def __getitem__(self, key: slice | tuple[slice, ...]) -> list[Array]:
        axes = _grid_items("ogrid", key)
        n = len(axes)
        return [ls.reshape(a, tuple(a.shape[0] if j == i else 1 for j in range(n))) for i, a in enumerate(axes)]


mgrid: Final[Mgrid] = Mgrid()
ogrid: Final[Ogrid] = Ogrid()

_ConcatItem = ArrayLike | slice | str | list[int] | list[float]


class AxisConcatenator:
    """``jnp.r_`` / ``jnp.c_``: concatenate arrays, scalars and slices
    (``start:stop:step`` is an ``arange``, an imaginary step a ``linspace``)
    along an axis; a leading string ``'axis[,ndmin[,trans1d]]'`` sets it."""

    def __init__(self, name: str, axis: int, ndmin: int, trans1d: int) -> None:
        self._name = name
        self._defaults = (axis, ndmin, trans1d)

    def __getitem__(self, key: _ConcatItem | tuple[_ConcatItem, ...]) -> Array:
        items = key if isinstance(key, tuple) else (key,)
        axis, ndmin, trans1d = self._defaults
        if items and isinstance(items[0], str):
            directive = items[0]
            items = items[1:]
            parts = [p.strip() for p in directive.split(",")]
            if parts[0] in ("r", "c"):
                raise JaxtypedNotImplementedError(f"jnp.{self._name}: the matrix directives 'r' and 'c' are not supported")
            try:
                numbers = [int(p) for p in parts]
            except ValueError:
                raise JaxtypedValueError(f"jnp.{self._name}: could not parse directive {directive!r}") from None
            axis = numbers[0]
            ndmin = numbers[1] if len(numbers) > 1 else ndmin
            trans1d = numbers[2] if len(numbers) > 2 else trans1d
        arrays: list[Array] = []
        for item in items:
            if isinstance(item, str):
                raise JaxtypedValueError(f"jnp.{self._name}: a directive string must come first, got {item!r}")
            if isinstance(item, slice):
                array = _grid_axis(self._name, item)
            else:
                array = asarray_operand(self._name, np.asarray(item) if isinstance(item, list) else item)
            arrays.append(_promote_ndmin(array, ndmin, trans1d))
        if not arrays:
            return array_from_numpy(np.zeros((0,), dtypes.default_float_dtype()))
        return sh.concatenate(arrays, axis=axis)


def _promote_ndmin(array: Array, ndmin: int, trans1d: int) -> Array:
    """NumPy's ``r_`` rule: pad the rank to ``ndmin`` with unit axes, the
    original axes starting at ``trans1d`` (counted from the end if negative)."""
    if array.ndim >= ndmin:
        return array
    extra = ndmin - array.ndim
    if trans1d < 0:
        trans1d += ndmin - array.ndim + 1
    start = min(max(trans1d, 0), extra)
    shape = (1,) * start + array.shape + (1,) * (extra - start)
    return ls.reshape(array, shape)


r_: Final[AxisConcatenator] = AxisConcatenator("r_", 0, 1, -1)
c_: Final[AxisConcatenator] = AxisConcatenator("c_", -1, 2, 0)
