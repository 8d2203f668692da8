"""Cumulative reductions (layer L4): ``cumsum``, ``cumprod``, ``cummax``,
``cummin`` and ``cumlogsumexp`` along one axis, optionally from the end.

Each lowers, as JAX's do, to one ``stablehlo.reduce_window`` whose window
spans the whole axis (padded by ``n - 1`` on one side); XLA rewrites that
into a logarithmic-depth scan. ``cumsum`` is linear (its transpose is the
cumulative sum the other way). The others are differentiated as JAX does:
forward mode through a parallel prefix scan (:func:`associative_scan`)
whose combining step carries (value, tangent) pairs. The shape of that
scan decides how ``cummax``/``cummin`` split a tangent among tied values,
so it follows JAX's exactly.
"""

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, final

import numpy as np
from typing_extensions import override

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.avals import BatchAxis, BatchDim, ShapedArray, UndefinedPrimal, Zero
from jaxtyped._src.core.hlo import HloValue, LoweringContext, i64_array
from jaxtyped._src.core.interpreter import bind1
from jaxtyped._src.core.primitive import HostValue, LinearArg, NDArray, Primitive, Tangent
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.lax.arithmetic import ABS, ADD, MAX, MIN, MUL, NEG, SUB, const_like
from jaxtyped._src.lax.comparison import EQ, NE, OR
from jaxtyped._src.lax.slicing import slice_in_dim
from jaxtyped._src.lax.structural import concatenate, full_like_aval, pad, rev, select_n
from jaxtyped._src.lax.transcendental import EXP, LOG1P
from jaxtyped._src.lax.util import as_operand
from jaxtyped._src.util import is_int

__all__ = [
    "CumSum", "CumProd", "CumMax", "CumMin", "CumLogSumExp",
    "cumsum", "cumprod", "cummax", "cummin", "cumlogsumexp", "associative_scan",
]  # fmt: skip

# A pair (value, tangent) as the jvp's prefix scan combines them.
Pair = tuple[Array, Array]


def _interleave(a: Array, b: Array, axis: int) -> Array:
    """``a[0], b[0], a[1], b[1], ...`` along ``axis`` (``a`` is as long as
    ``b`` or one longer): both padded with zeros in between, then added."""
    same = a.shape[axis] == b.shape[axis]
    a_cfg = [(0, 0, 0)] * a.ndim
    b_cfg = [(0, 0, 0)] * b.ndim
    a_cfg[axis] = (0, 1 if same else 0, 1)
    b_cfg[axis] = (1, 0 if same else 1, 1)
    combine = OR if dtypes.is_bool(a.dtype) else ADD
    return bind1(combine, pad(a, const_like(a, 0), a_cfg), pad(b, const_like(b, 0), b_cfg))


def associative_scan(
    combine: Callable[[Sequence[Array], Sequence[Array]], list[Array]],
    elems: Sequence[Array],
    axis: int,
    reverse: bool = False,
) -> list[Array]:
    """Inclusive prefix scan of ``elems`` (arrays of one length along
    ``axis``) with the associative ``combine``, in log2(n) rounds: pairs
    are combined, the half-length result scanned recursively, and the
    remaining positions filled in from it (Blelloch's scheme, arranged as
    JAX's ``lax.associative_scan``)."""
    if reverse:
        elems = [rev(e, (axis,)) for e in elems]

    def scan(xs: Sequence[Array]) -> list[Array]:
        n = xs[0].shape[axis]
        if n < 2:
            return list(xs)
        reduced = combine(
            [slice_in_dim(x, 0, -1, 2, axis) for x in xs], [slice_in_dim(x, 1, None, 2, axis) for x in xs]
        )
        odd = scan(reduced)
        later = [slice_in_dim(x, 2, None, 2, axis) for x in xs]
        if n % 2 == 0:
            even = combine([slice_in_dim(o, 0, -1, 1, axis) for o in odd], later)
        else:
            even = combine(odd, later)
        even = [concatenate([slice_in_dim(x, 0, 1, 1, axis), e], axis) for x, e in zip(xs, even)]
        return [_interleave(e, o, axis) for e, o in zip(even, odd)]

    result = scan(elems)
    return [rev(r, (axis,)) for r in result] if reverse else result


# === combining steps on (value, tangent) pairs ===


def _mul_pair(a: Pair, b: Pair) -> Pair:
    (x, tx), (y, ty) = a, b
    return bind1(MUL, x, y), bind1(ADD, bind1(MUL, tx, y), bind1(MUL, x, ty))


def _max_pair(a: Pair, b: Pair) -> Pair:
    (out,), (t,) = MAX.jvp((a[0], b[0]), (a[1], b[1]))
    assert not isinstance(t, Zero)
    return out, t


def _min_pair(a: Pair, b: Pair) -> Pair:
    (out,), (t,) = MIN.jvp((a[0], b[0]), (a[1], b[1]))
    assert not isinstance(t, Zero)
    return out, t


def _logaddexp(x: Array, y: Array) -> Array:
    # max + log1p(exp(-|x - y|)); where x - y is NaN (NaNs, or infinities
    # of one sign) the plain sum is right.
    delta = bind1(SUB, x, y)
    spread = bind1(ADD, bind1(MAX, x, y), bind1(LOG1P, bind1(EXP, bind1(NEG, bind1(ABS, delta)))))
    return select_n(bind1(NE, delta, delta), spread, bind1(ADD, x, y))


def _finite_or_zero(x: Array) -> Array:
    # +inf becomes 0, so that exp(x - out) is 1 rather than NaN when both are +inf.
    is_inf = bind1(EQ, x, const_like(x, float("inf")))
    return select_n(is_inf, x, full_like_aval(x.aval, 0))


def _logaddexp_pair(a: Pair, b: Pair) -> Pair:
    (x, tx), (y, ty) = a, b
    out = _logaddexp(x, y)
    finite_out = _finite_or_zero(out)
    wx = bind1(EXP, bind1(SUB, _finite_or_zero(x), finite_out))
    wy = bind1(EXP, bind1(SUB, _finite_or_zero(y), finite_out))
    return out, bind1(ADD, bind1(MUL, tx, wx), bind1(MUL, ty, wy))


def _on_pairs(step: Callable[[Pair, Pair], Pair]) -> Callable[[Sequence[Array], Sequence[Array]], list[Array]]:
    def combine(a: Sequence[Array], b: Sequence[Array]) -> list[Array]:
        return list(step((a[0], a[1]), (b[0], b[1])))

    return combine


# === the primitives ===


def _narrow_float(x: NDArray) -> NDArray:
    return x.astype(np.float32) if x.dtype.itemsize == 2 and dtypes.is_floating(x.dtype) else x


@dataclass(frozen=True, slots=True)
class _Cumulative(Primitive):
    """A cumulative reduction along ``axis`` (from the end if ``reverse``)."""

    axis: int
    reverse: bool
    # The stablehlo op that combines two elements, and the identity.
    combiner: ClassVar[str]
    accepts_integers: ClassVar[bool] = True

    def identity(self, dtype: np.dtype[Any]) -> object:
        raise NotImplementedError

    def accumulate(self, x: NDArray) -> NDArray:
        """The forward cumulative reduction along the last axis."""
        raise NotImplementedError

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        if len(avals) != 1:
            raise JaxtypedTypeError(f"{self.name} takes 1 operand, got {len(avals)}")
        (x,) = avals
        if not 0 <= self.axis < x.ndim:
            raise JaxtypedValueError(f"{self.name}: axis {self.axis} is out of bounds for operand {x.str_short()}")
        dtype = x.dtype
        ok = dtypes.is_floating(dtype) or (self.accepts_integers and dtypes.is_integer(dtype))
        if not ok and not (self.name in ("cumsum", "cumprod") and dtypes.is_complex(dtype)):
            raise JaxtypedTypeError(f"{self.name} does not accept dtype {dtype.name} (operand {x.str_short()})")
        return (x,)

    @override
    def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
        x = args[0]
        moved = np.moveaxis(_narrow_float(x), self.axis, -1)
        if self.reverse:
            moved = moved[..., ::-1]
        with np.errstate(all="ignore"):
            out = self.accumulate(moved) if moved.shape[-1] else moved
        if self.reverse:
            out = out[..., ::-1]
        return (np.moveaxis(out, -1, self.axis).astype(x.dtype),)

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        (x,), (dim,) = args, dims
        assert dim is not None
        return (bind1(dataclasses.replace(self, axis=self.axis + (dim <= self.axis)), x),), (dim,)

    def region(self, ctx: LoweringContext, a: HloValue, b: HloValue) -> HloValue:
        """The combining step inside the reduce_window region."""
        return ctx.op1(self.combiner, (a, b), a.aval)

    @override
    def lower(self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[HloValue, ...]:
        (x,) = args
        n = x.aval.shape[self.axis]
        if n == 0:
            return (x,)
        ndim = x.aval.ndim
        scalar = ShapedArray((), x.aval.dtype)
        init = ctx.scalar(self.identity(x.aval.dtype), x.aval.dtype)
        with ctx.region([scalar, scalar]) as ((a, b), body):
            ctx.ret([self.region(ctx, a, b)])
        window = [1] * ndim
        window[self.axis] = n
        padding = [[0, 0] for _ in range(ndim)]
        padding[self.axis] = [0, n - 1] if self.reverse else [n - 1, 0]
        pad_text = ", ".join(f"[{lo}, {hi}]" for lo, hi in padding)
        attrs = {
            "window_dimensions": i64_array(window),
            "window_strides": i64_array([1] * ndim),
            "base_dilations": i64_array([1] * ndim),
            "window_dilations": i64_array([1] * ndim),
            "padding": f"dense<[{pad_text}]> : tensor<{ndim}x2xi64>",
        }
        return (ctx.op1("stablehlo.reduce_window", (x, init), out_avals[0], attrs, body),)


def _extreme(dtype: np.dtype[Any], *, low: bool) -> object:
    if dtypes.is_integer(dtype):
        info = np.iinfo(dtype)
        return info.min if low else info.max
    return -np.inf if low else np.inf


@dataclass(frozen=True, slots=True)
class _ScannedJvp(_Cumulative):
    """Cumulative reductions differentiated through the prefix scan."""

    step: ClassVar[Callable[[Pair, Pair], Pair]]

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        (x,), (t,) = primals, tangents
        assert not isinstance(t, Zero)
        # The primal comes from the primitive itself, so that it equals the
        # undifferentiated result exactly (the scan's may differ by an ulp).
        _, out_t = associative_scan(_on_pairs(type(self).step), [x, t], self.axis, self.reverse)
        return (bind1(self, x),), (out_t,)


@final
@dataclass(frozen=True, slots=True)
class CumSum(_Cumulative):
    """Cumulative sum along ``axis``."""

    name = "cumsum"
    combiner = "stablehlo.add"

    def identity(self, dtype: np.dtype[Any]) -> object:
        return 0

    def accumulate(self, x: NDArray) -> NDArray:
        return np.cumsum(x, axis=-1, dtype=x.dtype)

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        t = tangents[0]
        assert not isinstance(t, Zero)
        return (bind1(self, primals[0]),), (bind1(self, t),)

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        (ct,), (x,) = cts, args
        assert not isinstance(ct, Zero) and isinstance(x, UndefinedPrimal)
        return (bind1(CumSum(self.axis, not self.reverse), ct),)


@final
@dataclass(frozen=True, slots=True)
class CumProd(_ScannedJvp):
    """Cumulative product along ``axis``."""

    name = "cumprod"
    combiner = "stablehlo.multiply"
    step = _mul_pair

    def identity(self, dtype: np.dtype[Any]) -> object:
        return 1

    def accumulate(self, x: NDArray) -> NDArray:
        return np.cumprod(x, axis=-1, dtype=x.dtype)


@final
@dataclass(frozen=True, slots=True)
class CumMax(_ScannedJvp):
    """Cumulative maximum along ``axis`` (NaN propagates)."""

    name = "cummax"
    combiner = "stablehlo.maximum"
    step = _max_pair

    def identity(self, dtype: np.dtype[Any]) -> object:
        return _extreme(dtype, low=True)

    def accumulate(self, x: NDArray) -> NDArray:
        out: NDArray = np.maximum.accumulate(x, axis=-1)
        return out


@final
@dataclass(frozen=True, slots=True)
class CumMin(_ScannedJvp):
    """Cumulative minimum along ``axis`` (NaN propagates)."""

    name = "cummin"
    combiner = "stablehlo.minimum"
    step = _min_pair

    def identity(self, dtype: np.dtype[Any]) -> object:
        return _extreme(dtype, low=False)

    def accumulate(self, x: NDArray) -> NDArray:
        out: NDArray = np.minimum.accumulate(x, axis=-1)
        return out


@final
@dataclass(frozen=True, slots=True)
class CumLogSumExp(_ScannedJvp):
    """Cumulative ``log(sum(exp(x)))`` along ``axis``, without overflow."""

    name = "cumlogsumexp"
    combiner = "stablehlo.add"  # unused: region() below
    accepts_integers = False
    step = _logaddexp_pair

    def identity(self, dtype: np.dtype[Any]) -> object:
        return -np.inf

    def accumulate(self, x: NDArray) -> NDArray:
        out: NDArray = np.logaddexp.accumulate(x, axis=-1)
        return out

    @override
    def region(self, ctx: LoweringContext, a: HloValue, b: HloValue) -> HloValue:
        aval = a.aval
        larger = ctx.op1("stablehlo.maximum", (a, b), aval)
        delta = ctx.op1("stablehlo.subtract", (a, b), aval)
        is_nan = ctx.compare(delta, delta, "NE")
        total = ctx.op1("stablehlo.add", (a, b), aval)
        spread = ctx.op1("stablehlo.negate", (ctx.op1("stablehlo.abs", (delta,), aval),), aval)
        soft = ctx.op1("stablehlo.log_plus_one", (ctx.op1("stablehlo.exponential", (spread,), aval),), aval)
        return ctx.select(is_nan, total, ctx.op1("stablehlo.add", (larger, soft), aval))


def _bind(cls: Callable[[int, bool], _Cumulative], name: str, operand: ArrayLike, axis: int, reverse: bool) -> Array:
    x = as_operand(operand, f"lax.{name} operand")
    if not is_int(axis):
        raise JaxtypedTypeError(f"lax.{name}: axis must be an int, got {axis!r}")
    if not 0 <= int(axis) < x.ndim:
        raise JaxtypedValueError(
            f"lax.{name}: axis {int(axis)} is out of bounds for operand {x.aval.str_short()} (negative axes are not allowed)"
        )
    return bind1(cls(int(axis), bool(reverse)), x)


def cumsum(operand: ArrayLike, axis: int = 0, reverse: bool = False) -> Array:
    """Cumulative sum along ``axis`` (JAX's ``lax.cumsum``)."""
    return _bind(CumSum, "cumsum", operand, axis, reverse)


def cumprod(operand: ArrayLike, axis: int = 0, reverse: bool = False) -> Array:
    """Cumulative product along ``axis`` (JAX's ``lax.cumprod``)."""
    return _bind(CumProd, "cumprod", operand, axis, reverse)


def cummax(operand: ArrayLike, axis: int = 0, reverse: bool = False) -> Array:
    """Cumulative maximum along ``axis`` (JAX's ``lax.cummax``)."""
    return _bind(CumMax, "cummax", operand, axis, reverse)


def cummin(operand: ArrayLike, axis: int = 0, reverse: bool = False) -> Array:
    """Cumulative minimum along ``axis`` (JAX's ``lax.cummin``)."""
    return _bind(CumMin, "cummin", operand, axis, reverse)


def cumlogsumexp(operand: ArrayLike, axis: int = 0, reverse: bool = False) -> Array:
    """Cumulative log-sum-exp along ``axis`` (JAX's ``lax.cumlogsumexp``)."""
    return _bind(CumLogSumExp, "cumlogsumexp", operand, axis, reverse)
