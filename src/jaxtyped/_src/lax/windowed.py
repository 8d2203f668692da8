"""Windowed reductions (layer L4): ``reduce_window_sum``,
``reduce_window_max`` and ``reduce_window_min`` (pooling), and
``lax.reduce_window``, which binds them for ``lax.add``, ``lax.max`` and
``lax.min`` from their identities and folds any other binary computation
over the window's taps with strided slices.

A window of ``window_dimensions`` (its taps ``window_dilation`` apart)
slides with ``window_strides`` over the operand, which is first dilated by
``base_dilation`` (holes between its elements) and padded; holes and
padding hold the reduction's identity.

Derivatives, as JAX's: the windowed sum is linear (its transpose spreads each
output cotangent back over its window: a windowed sum of the strided,
padded cotangent). For the maximum and minimum, each window passes on the
tangent of the element it selects, the first extremum in window order (row
major over the window) — on ties the earliest tap wins, which is what
XLA's ``select_and_scatter`` gives JAX's gradients. The tangent is built
from strided slices of the padded operand, one per window tap, so its
transpose (the gradient of pooling), batching and lowering come from those
primitives.
"""

import dataclasses
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, cast, final

import numpy as np
from typing_extensions import override

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.array_impl import ArrayImpl, array_from_numpy, host_buffer
from jaxtyped._src.core.avals import BatchAxis, BatchDim, ShapedArray, UndefinedPrimal, Zero
from jaxtyped._src.core.hlo import HloValue, LoweringContext, i64_array
from jaxtyped._src.core.interpreter import bind1
from jaxtyped._src.core.primitive import HostValue, LinearArg, NDArray, Primitive, Tangent
from jaxtyped._src.errors import DTypeMismatchError, JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.lax import arithmetic as la
from jaxtyped._src.lax.comparison import GE, LE
from jaxtyped._src.lax.convolution import (
    PaddingLike,
    dilate_dim,
    padding_attr,
    padding_pairs,
    padtype_to_pads,
    transpose_lhs_padding,
    window_view,
)
from jaxtyped._src.lax.elementwise_base import NUMBER, Kind
from jaxtyped._src.lax.slicing import slice as slice_
from jaxtyped._src.lax.structural import Pad, broadcast_in_dim, pad, select_n
from jaxtyped._src.lax.util import check_arity, check_int_tuple, kind_of, as_operand, same_kind, scalar_like

__all__ = [
    "ReduceWindowSum",
    "ReduceWindowMax",
    "ReduceWindowMin",
    "reduce_window",
    "reduce_window_shape_tuple",
]

_ORDERED: frozenset[Kind] = frozenset({"bool", "int", "uint", "float"})


def reduce_window_shape_tuple(
    operand_shape: Sequence[int],
    window_dimensions: Sequence[int],
    window_strides: Sequence[int],
    padding: Sequence[tuple[int, int]],
    base_dilation: Sequence[int] | None = None,
    window_dilation: Sequence[int] | None = None,
) -> tuple[int, ...]:
    """The output shape of a windowed reduction (JAX's
    ``lax.reduce_window_shape_tuple``)."""
    ndim = len(operand_shape)
    base = (1,) * ndim if base_dilation is None else tuple(base_dilation)
    taps = (1,) * ndim if window_dilation is None else tuple(window_dilation)
    shape: list[int] = []
    for d, w, s, (lo, hi), b, t in zip(operand_shape, window_dimensions, window_strides, padding, base, taps, strict=True):
        room = dilate_dim(int(d), int(b)) + int(lo) + int(hi) - dilate_dim(int(w), int(t))
        shape.append(room // int(s) + 1 if room >= 0 else 0)
    return tuple(shape)


def _identity(kind: str, dtype: np.dtype[Any]) -> Any:
    """The identity of the reduction ``kind`` ('sum', 'max', 'min') in ``dtype``."""
    if kind == "sum":
        return 0
    if dtypes.is_bool(dtype):
        return kind == "min"
    if dtypes.is_integer(dtype):
        info = np.iinfo(dtype)
        return info.min if kind == "max" else info.max
    return -np.inf if kind == "max" else np.inf


@dataclass(frozen=True, slots=True)
class _ReduceWindow(Primitive):
    """The shared rules of the windowed reductions; the fields (the window's
    parameters) are the same for all of them."""

    window_dimensions: tuple[int, ...]
    window_strides: tuple[int, ...]
    padding: tuple[tuple[int, int], ...]
    base_dilation: tuple[int, ...]
    window_dilation: tuple[int, ...]
    kind: ClassVar[str]  # 'sum', 'max' or 'min'
    accepts: ClassVar[frozenset[Kind]]
    combine: ClassVar[str]  # the StableHLO op of the region

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        check_arity(self.name, avals, 1)
        (x,) = avals
        if kind_of(x.dtype) not in self.accepts:
            raise JaxtypedTypeError(f"{self.name} does not accept dtype {x.dtype.name} (operand {x.str_short()})")
        params = (
            ("window_dimensions", self.window_dimensions), ("window_strides", self.window_strides),
            ("padding", self.padding), ("base_dilation", self.base_dilation), ("window_dilation", self.window_dilation),
        )  # fmt: skip
        # As JAX: a wrong window, stride or dilation is a TypeError, a wrong
        # padding a ValueError.
        for what, values in params:
            if len(values) != x.ndim:
                error = JaxtypedValueError if what == "padding" else JaxtypedTypeError
                raise error(f"{self.name}: {what} {values} must have one entry per axis of the operand {x.str_short()}")
        for what, ints in params[:2] + params[3:]:
            if any(v <= 0 for v in ints):
                raise JaxtypedTypeError(f"{self.name}: {what} must have every element be strictly positive, got {ints}")
        shape = reduce_window_shape_tuple(
            x.shape, self.window_dimensions, self.window_strides, self.padding, self.base_dilation, self.window_dilation
        )
        return (ShapedArray(shape, x.dtype, x.weak_type),)

    @override
    def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
        (x,) = args
        (out,) = self.abstract_eval((ShapedArray(x.shape, x.dtype),))
        wide = x.astype(np.float32) if x.dtype.itemsize == 2 and dtypes.is_floating(x.dtype) else x
        identity = _identity(self.kind, wide.dtype)
        if 0 in out.shape:
            return (np.zeros(out.shape, x.dtype),)
        if 0 in x.shape:
            return (np.full(out.shape, identity, x.dtype),)
        windows = window_view(
            wide, identity, self.window_dimensions, self.window_strides, self.padding, self.base_dilation,
            self.window_dilation,
        )  # fmt: skip
        axes = tuple(range(x.ndim, 2 * x.ndim))
        if self.kind == "sum":
            result = np.sum(windows, axis=axes, dtype=wide.dtype)
        elif self.kind == "max":
            result = np.max(windows, axis=axes)
        else:
            result = np.min(windows, axis=axes)
        return (np.asarray(result).astype(x.dtype),)

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        (x,), (dim,) = args, dims
        assert dim is not None

        def widen(values: tuple[Any, ...], unit: Any) -> Any:
            return (*values[:dim], unit, *values[dim:])

        prim = dataclasses.replace(
            self, window_dimensions=widen(self.window_dimensions, 1), window_strides=widen(self.window_strides, 1),
            padding=widen(self.padding, (0, 0)), base_dilation=widen(self.base_dilation, 1),
            window_dilation=widen(self.window_dilation, 1),
        )  # fmt: skip
        return (bind1(prim, x),), (dim,)

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        (x,), (out,) = args, out_avals
        dtype = x.aval.dtype
        narrow = dtype.itemsize == 2 and dtypes.is_floating(dtype) and self.kind == "sum"
        if narrow:
            # Summed in float32 and rounded once, as the eager rule does.
            x = ctx.convert(x, np.dtype(np.float32))
        compute = x.aval.dtype
        combine = self.combine
        if dtypes.is_bool(compute):
            combine = "stablehlo.or" if self.kind == "max" else "stablehlo.and"
        scalar = ShapedArray((), compute)
        start = ctx.scalar(_identity(self.kind, compute), compute)
        with ctx.region([scalar, scalar]) as (params, body):
            ctx.ret([ctx.op1(combine, params, scalar)])
        attrs = {
            "window_dimensions": i64_array(self.window_dimensions),
            "window_strides": i64_array(self.window_strides),
            "base_dilations": i64_array(self.base_dilation),
            "window_dilations": i64_array(self.window_dilation),
            "padding": padding_attr(self.padding),
        }
        result = ctx.op1("stablehlo.reduce_window", (x, start), ShapedArray(out.shape, compute), attrs, body)
        return (ctx.convert(result, out.dtype),)


@final
@dataclass(frozen=True, slots=True)
class ReduceWindowSum(_ReduceWindow):
    """Sum over each window."""

    name = "reduce_window_sum"
    kind = "sum"
    accepts = NUMBER
    combine = "stablehlo.add"

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        t = tangents[0]
        assert not isinstance(t, Zero)
        return (bind1(self, primals[0]),), (bind1(self, t),)

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        (ct,), (x,) = cts, args
        assert not isinstance(ct, Zero) and isinstance(x, UndefinedPrimal)
        # Every input element receives the cotangents of the windows over it:
        # spread the outputs back to their strides, pad, and sum windows of
        # the same (symmetric) shape taken with the base dilation as stride.
        pads = transpose_lhs_padding(
            x.aval.shape, self.window_dimensions, self.window_strides, ct.shape, self.padding,
            self.base_dilation, self.window_dilation,
        )  # fmt: skip
        config = [(lo, hi, s - 1) for (lo, hi), s in zip(pads, self.window_strides)]
        spread = pad(ct, scalar_like(0, ct.dtype, "reduce_window_sum transpose", weak_type=False), config)
        ones = (1,) * ct.ndim
        prim = ReduceWindowSum(self.window_dimensions, self.base_dilation, ((0, 0),) * ct.ndim, ones, self.window_dilation)
        return (bind1(prim, spread),)


@dataclass(frozen=True, slots=True)
class _ReduceWindowChooser(_ReduceWindow):
    """Maximum or minimum over each window."""

    keep: ClassVar[Primitive]  # GE for the maximum, LE for the minimum

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        (x,), (t,) = primals, tangents
        assert not isinstance(t, Zero)
        out = bind1(self, x)
        return (out,), (self._selected_tangent(x, t, out.shape),)

    def _selected_tangent(self, x: Array, t: Array, out_shape: tuple[int, ...]) -> Array:
        """The tangent of each window's selected element: the taps are
        visited in window order and a later tap replaces the choice only if
        the choice is not >= (max) / <= (min) it."""
        config = [(lo, hi, b - 1) for (lo, hi), b in zip(self.padding, self.base_dilation)]
        identity = scalar_like(_identity(self.kind, x.dtype), x.dtype, f"{self.name} jvp", weak_type=False)
        padded = pad(x, identity, config)
        padded_t = pad(t, scalar_like(0, t.dtype, f"{self.name} jvp", weak_type=False), config)
        best: Array | None = None
        best_t: Array | None = None
        for tap in itertools.product(*(range(w) for w in self.window_dimensions)):
            start = tuple(k * d for k, d in zip(tap, self.window_dilation))
            limit = tuple(s + (n - 1) * stride + 1 for s, n, stride in zip(start, out_shape, self.window_strides))
            value = slice_(padded, start, limit, self.window_strides)
            value_t = slice_(padded_t, start, limit, self.window_strides)
            if best is None or best_t is None:
                best, best_t = value, value_t
                continue
            keep = bind1(self.keep, best, value)
            best, best_t = select_n(keep, value, best), select_n(keep, value_t, best_t)
        assert best_t is not None
        return best_t


@final
@dataclass(frozen=True, slots=True)
class ReduceWindowMax(_ReduceWindowChooser):
    """Maximum over each window."""

    name = "reduce_window_max"
    kind = "max"
    accepts = _ORDERED
    combine = "stablehlo.maximum"
    keep = GE


@final
@dataclass(frozen=True, slots=True)
class ReduceWindowMin(_ReduceWindowChooser):
    """Minimum over each window."""

    name = "reduce_window_min"
    kind = "min"
    accepts = _ORDERED
    combine = "stablehlo.minimum"
    keep = LE


# === lax.reduce_window ===

# A windowed reduction from its parameters (window_dimensions, window_strides,
# padding, base_dilation, window_dilation).
_Make = Callable[
    [tuple[int, ...], tuple[int, ...], tuple[tuple[int, int], ...], tuple[int, ...], tuple[int, ...]], _ReduceWindow
]
_KINDS: dict[Callable[..., Any], tuple[str, _Make]] = {
    la.add: ("sum", ReduceWindowSum),
    la.max: ("max", ReduceWindowMax),
    la.min: ("min", ReduceWindowMin),
}


def _concrete_scalar(x: Array) -> Any:
    """The value of a concrete 0-d array, else None (a traced init value
    cannot be recognised as the identity)."""
    if isinstance(x, ArrayImpl) and x.shape == ():
        return host_buffer(x)[()]
    return None


def _window_ints(param: str, value: Sequence[int] | None, ndim: int) -> tuple[int, ...]:
    if value is None:
        return (1,) * ndim
    if isinstance(value, (str, bytes)) or not isinstance(cast(object, value), Sequence):
        raise JaxtypedTypeError(f"lax.reduce_window: {param} must be a sequence of ints, got {value!r}")
    return check_int_tuple("lax.reduce_window", param, value)


def reduce_window(
    operand: ArrayLike,
    init_value: ArrayLike,
    computation: Callable[[Array, Array], Array],
    window_dimensions: Sequence[int],
    window_strides: Sequence[int] | None = None,
    padding: PaddingLike = "VALID",
    base_dilation: Sequence[int] | None = None,
    window_dilation: Sequence[int] | None = None,
) -> Array:
    """Reduce each window of ``operand`` with the binary ``computation``
    from ``init_value`` (JAX's ``lax.reduce_window``); holes and padding do
    not take part. ``lax.add``, ``lax.max`` and ``lax.min`` from their
    identities are the windowed-reduction primitives; any other function is
    applied elementwise once per window tap."""
    where = "lax.reduce_window"
    x = as_operand(operand, f"{where} operand")
    init = as_operand(init_value, f"{where} init_value")
    if init.shape != ():
        raise JaxtypedTypeError(f"{where}: init_value must be a scalar, got {init.aval.str_short()}")
    dims = _window_ints("window_dimensions", window_dimensions, x.ndim)
    strides = _window_ints("window_strides", window_strides, len(dims))
    base = _window_ints("base_dilation", base_dilation, len(dims))
    taps = _window_ints("window_dilation", window_dilation, len(dims))
    if isinstance(padding, str):
        if len(dims) != x.ndim or len(strides) != x.ndim or len(taps) != x.ndim:
            raise JaxtypedTypeError(
                f"{where}: window_dimensions {dims}, window_strides {strides} and window_dilation {taps} need one "
                f"entry per axis of the operand {x.aval.str_short()}"
            )
        pads = tuple(padtype_to_pads(x.shape, [dilate_dim(w, t) for w, t in zip(dims, taps)], strides, padding))
    else:
        pads = padding_pairs(where, padding)
    known = _KINDS.get(computation)
    if known is not None:
        kind, make = known
        value = _concrete_scalar(init)
        if value is not None and value == _identity(kind, init.dtype):
            return bind1(make(dims, strides, pads, base, taps), x)
    # Any other initial value enters each window once: XLA reduces only the
    # operand's own elements (holes and padding are skipped) from it.
    if init.dtype != x.dtype:
        if isinstance(init_value, (bool, int, float)) and same_kind(init.dtype, x.dtype):
            init = scalar_like(init_value, x.dtype, f"{where} init_value", weak_type=False)
        else:
            raise DTypeMismatchError(
                f"{where} got inconsistent dtypes for operand and init_value: {x.dtype.name} and {init.dtype.name}"
            )
    if known is not None:
        return computation(bind1(known[1](dims, strides, pads, base, taps), x), init)
    # Check the parameters as the primitives do (same messages and kinds).
    ReduceWindowSum(dims, strides, pads, base, taps).abstract_eval((x.aval.update(dtype=np.dtype(np.float32)),))
    return _fold_taps(x, init, computation, dims, strides, pads, base, taps)


def _fold_taps(
    x: Array,
    init: Array,
    computation: Callable[[Array, Array], Array],
    dims: tuple[int, ...],
    strides: tuple[int, ...],
    pads: tuple[tuple[int, int], ...],
    base: tuple[int, ...],
    taps: tuple[int, ...],
) -> Array:
    """A windowed reduction with any binary ``computation`` (applied
    elementwise to arrays): each window folds its elements into
    ``init`` in window order, ``acc = computation(acc, element)``, skipping
    holes and padding (whose positions are static), as XLA does on CPU."""
    out_shape = reduce_window_shape_tuple(x.shape, dims, strides, pads, base, taps)
    config = [(lo, hi, b - 1) for (lo, hi), b in zip(pads, base)]
    padded = pad(x, init, config)
    # Which positions of the padded operand hold the operand's own elements.
    real = np.asarray(Pad(tuple(config)).impl((np.ones(x.shape, np.bool_), np.array(False)))[0])
    acc: Array = broadcast_in_dim(init, out_shape, ()) if out_shape else init
    if 0 in out_shape:
        return acc
    for tap in itertools.product(*(range(w) for w in dims)):
        start = tuple(k * d for k, d in zip(tap, taps))
        limit = tuple(s + (n - 1) * stride + 1 for s, n, stride in zip(start, out_shape, strides))
        mask = real[tuple(slice(s, e, st) for s, e, st in zip(start, limit, strides))]
        if not mask.any():
            continue
        combined = computation(acc, slice_(padded, start, limit, strides))
        acc = combined if mask.all() else select_n(array_from_numpy(mask), acc, combined)
    return acc

