"""The elementwise family (layer L4): shared shape/dtype rules, evaluation
and batching for every elementwise primitive, plus ``convert_element_type``.

Operands of an elementwise primitive have one dtype and either one shape or
shape ``()``: a scalar operand is broadcast inside the primitive, as in JAX
(``mul b 2.0:f32[]``). A subclass states which dtype kinds it accepts and
how to compute on NumPy buffers; its derivative rule lives with it.
"""

import functools
from abc import abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Final, final

import numpy as np
from typing_extensions import override

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.avals import BatchAxis, BatchDim, ShapedArray, UndefinedPrimal, Zero
from jaxtyped._src.core.hlo import HloValue, LoweringContext
from jaxtyped._src.core.interpreter import bind1
from jaxtyped._src.core.primitive import HostValue, LinearArg, NDArray, Primitive, Tangent
from jaxtyped._src.errors import DTypeMismatchError, JaxtypedTypeError, ShapeMismatchError
from jaxtyped._src.lax.structural import broadcast_in_dim, moveaxis
from jaxtyped._src.lax.util import check_arity, kind_of, as_operand, operands_same_kind
from jaxtyped._src.runtime import xla

__all__ = [
    "Kind",
    "ALL",
    "NUMBER",
    "INEXACT",
    "FLOAT",
    "INTEGRAL",
    "Elementwise",
    "broadcast_operands",
    "NonDifferentiable",
    "bind_unary",
    "bind_binary",
    "ConvertElementType",
    "convert_element_type",
]

# Dtype kinds an elementwise primitive may accept.
Kind = str
ALL: Final = frozenset({"bool", "int", "uint", "float", "complex"})
NUMBER: Final = frozenset({"int", "uint", "float", "complex"})
INEXACT: Final = frozenset({"float", "complex"})
FLOAT: Final = frozenset({"float"})
INTEGRAL: Final = frozenset({"bool", "int", "uint"})

_KIND_NAMES: Final = {
    "bool": "bool",
    "int": "signedinteger",
    "uint": "unsignedinteger",
    "float": "floating",
    "complex": "complexfloating",
}


def _on_arrays(compute: Callable[..., HostValue], *args: NDArray) -> HostValue:
    """``compute`` on at-least-1-d buffers: NumPy turns 0-d results into
    scalars, which would make every helper's ``NDArray`` types untrue. The
    result is reshaped back when every operand was 0-d."""
    if all(a.ndim for a in args):
        return compute(*args)
    out = compute(*(a.reshape(1) if not a.ndim else a for a in args))
    return np.asarray(out).reshape(()) if not any(a.ndim for a in args) else out


@np.errstate(all="ignore")  # as a decorator it costs half the ``with`` statement (issue 19)
def _quietly(fun: Callable[..., HostValue], *args: object) -> HostValue:
    """``fun(*args)`` with floating-point warnings off: impl rules compute
    as XLA, where inf * 0 is NaN without a word."""
    return fun(*args)


def _upcast_narrow(x: NDArray) -> NDArray:
    # float16/bfloat16 are computed in float32 and rounded back, as XLA does
    # on CPU; NumPy lacks (or is slow at) most ufuncs for them.
    if x.dtype.itemsize == 2 and dtypes.is_floating(x.dtype):
        return x.astype(np.float32)
    return x


def _aliasable_out(args: tuple[NDArray, ...]) -> NDArray | None:
    """Aligned memory for the result of a float ufunc on ``args`` (a large
    operand already seen): operands of one float32/float64 dtype, the arrays
    of one shape, scalars beside them; else None."""
    big = args[0] if args[0].ndim else args[-1]
    dtype = big.dtype
    if dtype.kind != "f" or dtype.itemsize < 4:
        return None
    for a in args:
        if a.dtype != dtype or (a.ndim and a.shape != big.shape):
            return None
    return xla.aligned_empty(big.shape, dtype)


class Elementwise(Primitive):
    """Base of elementwise primitives with ``arity`` operands."""

    __slots__ = ()
    arity: ClassVar[int]
    accepts: ClassVar[frozenset[Kind]]
    # The StableHLO (or CHLO) op computing this primitive, when one op does:
    # the default ``lower`` broadcasts scalar operands and emits it.
    hlo_op: ClassVar[str | None] = None

    def result_dtype(self, dtype: np.dtype[Any]) -> np.dtype[Any]:
        """The output dtype for operands of ``dtype`` (default: the same)."""
        return dtype

    def check_dtypes(self, avals: tuple[ShapedArray, ...]) -> np.dtype[Any]:
        """Reject dtypes outside ``accepts`` or operands of different
        dtypes; return the operands' dtype."""
        dtype = avals[0].dtype
        if any(a.dtype != dtype for a in avals[1:]):
            shown = ", ".join(a.dtype.name for a in avals)
            raise DTypeMismatchError(
                f"{self.name} requires arguments to have the same dtypes, got {shown}"
            )
        if kind_of(dtype) not in self.accepts:
            accepted = ", ".join(name for k, name in _KIND_NAMES.items() if k in self.accepts)
            raise JaxtypedTypeError(
                f"{self.name} does not accept dtype {dtype.name}. Accepted dtypes are "
                f"subtypes of {accepted}."
            )
        return dtype

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        check_arity(self.name, avals, self.arity)
        shape = elementwise_shape(self.name, avals)
        dtype = self.check_dtypes(avals)
        weak = all(a.weak_type for a in avals)
        return (ShapedArray(shape, self.result_dtype(dtype), weak),)

    # The NumPy ufunc that is ``compute`` on float32/float64 operands, where
    # compute is nothing more: a large result is then written straight into
    # memory a device buffer can alias, so passing it to jit copies nothing
    # (Note [two homes of a value] in _src/core/array_impl.py).
    float_ufunc: ClassVar[np.ufunc | None] = None

    @override
    def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
        ufunc = self.float_ufunc
        if ufunc is not None and (args[0].nbytes >= xla.ALIASABLE_MIN_BYTES or args[-1].nbytes >= xla.ALIASABLE_MIN_BYTES):
            out = _aliasable_out(args)
            if out is not None:
                return (_quietly(functools.partial(ufunc, out=out), *args),)
        for a in args:
            if not a.ndim or (a.dtype.itemsize == 2 and dtypes.is_floating(a.dtype)):
                return (_quietly(_on_arrays, self.compute, *[_upcast_narrow(a) for a in args]),)
        return (_quietly(self.compute, *args),)  # no 0-d or narrow operand: nothing to adapt

    @abstractmethod
    def compute(self, *args: NDArray) -> HostValue:
        """The operation on NumPy buffers (narrow floats arrive as float32)."""

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        return batch_elementwise(self, axis, args, dims)

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        if self.hlo_op is None:
            return super().lower(ctx, args, out_avals)
        (out,) = out_avals
        return (ctx.op1(self.hlo_op, broadcast_operands(ctx, args, out.shape), out),)


def broadcast_operands(ctx: LoweringContext, args: tuple[HloValue, ...], shape: tuple[int, ...]) -> list[HloValue]:
    """Elementwise operands at the result's shape (0-d ones splatted):
    StableHLO ops, unlike the primitives, take operands of one shape."""
    return [ctx.broadcast_to(a, shape) for a in args]


def elementwise_shape(name: str, avals: tuple[ShapedArray, ...]) -> tuple[int, ...]:
    """The common shape of elementwise operands (scalars broadcast)."""
    shape: tuple[int, ...] = ()
    for aval in avals:
        if aval.shape and aval.shape != shape:
            if shape:
                shown = " vs ".join(a.str_short() for a in avals)
                raise ShapeMismatchError(f"{name} got incompatible shapes for broadcasting: {shown}")
            shape = aval.shape
    return shape


def batch_elementwise(
    prim: Primitive, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]
) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
    """The batching rule of every elementwise primitive."""
    ranks = [a.ndim - (d is not None) for a, d in zip(args, dims)]
    out_rank = max(ranks)
    batched_dims = {d for d in dims if d is not None}
    # Fast path: one shared batch dimension and only scalars besides.
    if len(batched_dims) == 1 and all(
        r == out_rank if d is not None else r == 0 for r, d in zip(ranks, dims)
    ):
        return (bind1(prim, *args),), (batched_dims.pop(),)
    example_shape = next(
        a.shape[1:] if d is not None and d == 0 else _drop(a.shape, d)
        for a, d, r in zip(args, dims, ranks)
        if r == out_rank
    )
    out_shape = (axis.size, *example_shape)
    moved: list[Array] = []
    for x, d, r in zip(args, dims, ranks):
        if d is None:
            moved.append(x if r == 0 else broadcast_in_dim(x, out_shape, tuple(range(1, out_rank + 1))))
        elif r == out_rank:
            moved.append(moveaxis(x, d, 0))
        else:  # a batched per-example scalar meets array operands
            moved.append(broadcast_in_dim(x, out_shape, (0,)))
    return (bind1(prim, *moved),), (0,)


def _drop(shape: tuple[int, ...], dim: int | None) -> tuple[int, ...]:
    return shape if dim is None else shape[:dim] + shape[dim + 1 :]


class NonDifferentiable(Elementwise):
    """Elementwise primitives whose outputs have zero derivative
    (comparisons, rounding, bitwise operations)."""

    __slots__ = ()

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        out = bind1(self, *primals)
        return (out,), (Zero(out.aval.to_tangent_aval()),)


def bind_unary(prim: Elementwise, x: ArrayLike) -> Array:
    """Apply a unary elementwise primitive to a user's operand."""
    return bind1(prim, as_operand(x, f"lax.{prim.name} operand"))


def bind_binary(prim: Elementwise, name: str, x: ArrayLike, y: ArrayLike) -> Array:
    """Apply a binary elementwise primitive; Python scalars adopt the other
    operand's dtype when of the same kind (JAX's lax rule)."""
    a, b = operands_same_kind(name, x, y)
    return bind1(prim, a, b)


# === convert_element_type ===


def _to_integer(x: NDArray, dtype: np.dtype[Any]) -> NDArray:
    """Float to integer with XLA's semantics: truncate, saturate at the
    dtype's bounds, NaN becomes 0 (NumPy's cast is undefined there)."""
    minimum, maximum = dtypes.integer_bounds(dtype)  # ml_dtypes-aware (int4 & co.)
    real = np.real(x).astype(np.float64)
    truncated = np.trunc(np.nan_to_num(real, nan=0.0, posinf=0.0, neginf=0.0))
    low, high = float(minimum), float(maximum)
    safe = np.clip(truncated, low, 0.0 if high < 0 else np.nextafter(high, 0.0) if high >= 2**53 else high)
    out = safe.astype(dtype)
    out = np.where(real >= high, maximum, out)
    out = np.where(real <= low, minimum, out)
    result: NDArray = np.where(np.isnan(real), 0, out).astype(dtype)
    return result


def convert_buffer(x: NDArray, dtype: np.dtype[Any]) -> NDArray:
    """Convert a buffer to ``dtype`` as XLA does."""
    if dtypes.is_bool(dtype):
        # complex: the real part, as XLA; asarray keeps 0-d results arrays
        nonzero: NDArray = np.asarray(np.not_equal(np.real(x), 0))
        return nonzero
    if dtypes.is_integer(dtype) and dtypes.is_inexact(x.dtype):
        return _to_integer(x, dtype)
    if dtypes.is_complex(x.dtype) and not dtypes.is_complex(dtype):
        x = np.real(x)
    if dtype == np.dtype(np.float16) and x.dtype == np.dtype(np.float64) and xla.narrows_float64_to_float16_twice():
        # XLA narrows float64 to float16 through float32 (rounding twice)
        # on some CPUs; NumPy rounds once, as XLA does on the others.
        x = x.astype(np.float32)
    return x.astype(dtype)


@final
@dataclass(frozen=True, slots=True)
class ConvertElementType(Primitive):
    """Convert to ``new_dtype`` (float to int truncates and saturates, NaN
    gives 0, complex to real keeps the real part)."""

    new_dtype: np.dtype[Any]
    weak_type: bool = False
    name = "convert_element_type"

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        check_arity(self.name, avals, 1)
        (x,) = avals
        if dtypes.is_float0(x.dtype) or dtypes.is_float0(self.new_dtype):
            raise JaxtypedTypeError(f"convert_element_type: cannot convert {x.str_short()} to {self.new_dtype}")
        return (ShapedArray(x.shape, self.new_dtype, self.weak_type),)

    @override
    def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
        with np.errstate(all="ignore"):
            return (_on_arrays(functools.partial(convert_buffer, dtype=self.new_dtype), args[0]),)

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        (x,), (t,) = primals, tangents
        out = bind1(self, x)
        if isinstance(t, Zero) or not dtypes.is_inexact(self.new_dtype) or not dtypes.is_inexact(x.dtype):
            return (out,), (Zero(out.aval.to_tangent_aval()),)
        return (out,), (bind1(ConvertElementType(self.new_dtype, False), t),)

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        (ct,), (x,) = cts, args
        assert not isinstance(ct, Zero) and isinstance(x, UndefinedPrimal)
        want = x.aval.to_tangent_aval()
        return (bind1(ConvertElementType(want.dtype, want.weak_type), ct),)

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        return (bind1(self, args[0]),), dims

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        # Two cases are not left to stablehlo.convert, as in JAX: complex to
        # real (its behaviour is unspecified; JAX keeps the real part) and to
        # bool (JAX tests ``x != 0``, so NaN is true). Float to int already
        # truncates, saturates and maps NaN to 0 on XLA.
        (x,) = args
        if dtypes.is_complex(x.aval.dtype) and not dtypes.is_complex(self.new_dtype):
            part = np.dtype(np.float64) if x.aval.dtype == np.dtype(np.complex128) else np.dtype(np.float32)
            x = ctx.op1("stablehlo.real", (x,), ShapedArray(x.aval.shape, part))
        if dtypes.is_bool(self.new_dtype) and not dtypes.is_bool(x.aval.dtype):
            return (ctx.compare(x, ctx.full_like(0, x), "NE"),)
        return (ctx.convert(x, self.new_dtype),)


def convert_element_type(operand: ArrayLike, new_dtype: "dtypes.DTypeLike") -> Array:
    """Convert to ``new_dtype`` (JAX's ``lax.convert_element_type``); the
    result is not weakly typed."""
    x = as_operand(operand, "lax.convert_element_type operand")
    dtype = dtypes.canonicalize_dtype(dtypes.dtype(new_dtype))
    return convert_to(x, dtype, weak_type=False)


def convert_to(x: Array, dtype: np.dtype[Any], *, weak_type: bool) -> Array:
    """``x`` as ``dtype`` with the given weak type; no equation when nothing
    changes."""
    if x.dtype == dtype and x.weak_type == weak_type:
        return x
    return bind1(ConvertElementType(dtype, weak_type), x)


# A unary NumPy function, used by the tables of simple primitives.
UnaryFn = Callable[[NDArray], NDArray]
