"""``bitcast_convert_type`` and ``optimization_barrier`` (layer L4).

``bitcast_convert_type`` reinterprets the bits of each element as another
dtype: to a narrower dtype each element becomes a new trailing axis of
``old_bits // new_bits`` elements; to a wider one the trailing axis (of
``new_bits // old_bits`` elements) is folded into one element (XLA's rule,
little-endian). ``optimization_barrier`` is the identity on a pytree of
arrays that XLA may not move computations across.
"""

from dataclasses import dataclass
from typing import Any, Final, TypeVar, cast, final

import numpy as np
from typing_extensions import override

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.avals import BatchAxis, BatchDim, ShapedArray, UndefinedPrimal, Zero
from jaxtyped._src.core.hlo import HloValue, LoweringContext
from jaxtyped._src.core.interpreter import bind, bind1
from jaxtyped._src.core.primitive import HostValue, LinearArg, NDArray, Primitive, Tangent
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.lax.elementwise_base import NonDifferentiable
from jaxtyped._src.lax.structural import moveaxis
from jaxtyped._src.lax.util import check_arity, leaf_as_array, named_leaves, as_operand

__all__ = [
    "BitcastConvertType", "OptimizationBarrier", "Mulhi", "bitcast_convert_type", "optimization_barrier", "mulhi",
]

T = TypeVar("T")


def _bits(dtype: np.dtype[Any]) -> int:
    return 8 * dtype.itemsize


@final
@dataclass(frozen=True, slots=True)
class BitcastConvertType(Primitive):
    """Reinterpret the bits of each element as ``new_dtype``."""

    new_dtype: np.dtype[Any]
    name = "bitcast_convert_type"

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        check_arity(self.name, avals, 1)
        (x,) = avals
        old, new = x.dtype, self.new_dtype
        special = (dtypes.is_bool, dtypes.is_complex, dtypes.is_float0)
        if old != new and any(test(d) for d in (old, new) for test in special):
            raise JaxtypedTypeError(
                "lax.bitcast_convert_type does not support bool or complex values unless the operand "
                f"and destination types match. Got operand {x.str_short()}, new_dtype={new.name}. "
                "Consider using the arr.view() method instead."
            )
        old_bits, new_bits = _bits(old), _bits(new)
        if old_bits == new_bits:
            shape = x.shape
        elif old_bits > new_bits:
            shape = (*x.shape, old_bits // new_bits)
        else:
            ratio = new_bits // old_bits
            if not x.shape or x.shape[-1] != ratio:
                last = x.shape[-1] if x.shape else 1
                raise JaxtypedValueError(
                    f"lax.bitcast_convert_type: cannot convert {x.str_short()} ({old_bits} bits) to "
                    f"{new.name} ({new_bits} bits): the last axis must have {ratio} elements "
                    f"({last} * {old_bits} != {new_bits})"
                )
            shape = x.shape[:-1]
        return (ShapedArray(shape, new, False),)

    @override
    def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
        (x,) = args
        # Element order within a wide element is little-endian, as XLA's.
        little = np.ascontiguousarray(x, dtype=x.dtype.newbyteorder("<"))
        out_shape = self.abstract_eval((ShapedArray(x.shape, x.dtype),))[0].shape
        raw = np.frombuffer(little.tobytes(), dtype=self.new_dtype.newbyteorder("<"))
        return (raw.astype(self.new_dtype).reshape(out_shape),)

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        # As JAX: no derivative flows through a reinterpretation of bits.
        out = bind1(self, primals[0])
        return (out,), (Zero(out.aval.to_tangent_aval()),)

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        (x,), (dim,) = args, dims
        assert dim is not None
        # The trailing axis changes, so the batch axis must not be last.
        if dim == x.ndim - 1:
            x, dim = moveaxis(x, dim, 0), 0
        return (bind1(self, x),), (dim,)

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        return (ctx.op1("stablehlo.bitcast_convert", args, out_avals[0]),)


def bitcast_convert_type(operand: ArrayLike, new_dtype: "dtypes.DTypeLike") -> Array:
    """Reinterpret the bits of each element as ``new_dtype`` (JAX's
    ``lax.bitcast_convert_type``): a narrower dtype adds a trailing axis, a
    wider one consumes the trailing axis."""
    x = as_operand(operand, "lax.bitcast_convert_type operand")
    dtype = dtypes.canonicalize_dtype(dtypes.dtype(new_dtype))
    return bind1(BitcastConvertType(dtype), x)


@final
@dataclass(frozen=True, slots=True)
class OptimizationBarrier(Primitive):
    """The identity on its operands; XLA may not move computation across it."""

    name = "optimization_barrier"
    several_results = True

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        return avals

    @override
    def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
        return args

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        # Two barriers, primals and tangents, so that linearization can run
        # the primal one now and stage the tangent one.
        live = [i for i, t in enumerate(tangents) if not isinstance(t, Zero)]
        outs = bind(self, *primals)
        moved = bind(self, *(cast(Array, tangents[i]) for i in live))
        out_tangents: list[Tangent] = list(tangents)
        for k, i in enumerate(live):
            out_tangents[i] = moved[k]
        return outs, tuple(out_tangents)

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        live = [i for i, ct in enumerate(cts) if not isinstance(ct, Zero) and isinstance(args[i], UndefinedPrimal)]
        outs = bind(self, *(cast(Array, cts[i]) for i in live)) if live else ()
        result: list[Tangent | None] = [ct if isinstance(arg, UndefinedPrimal) else None for ct, arg in zip(cts, args)]
        for k, i in enumerate(live):
            result[i] = outs[k]
        return tuple(result)

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        return bind(self, *args), dims

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        if not args:
            return ()
        return ctx.op("stablehlo.optimization_barrier", args, [a.aval for a in args])


def optimization_barrier(operand: T, /) -> T:
    """The identity on a pytree of arrays that stops XLA from moving
    computations across it (JAX's ``lax.optimization_barrier``); Python
    scalars become arrays."""
    leaves, names, treedef = named_leaves(operand, "operand")
    arrays = [leaf_as_array(leaf, f"lax.optimization_barrier {name}") for leaf, name in zip(leaves, names)]
    outs = bind(OptimizationBarrier(), *arrays) if arrays else ()
    return cast(T, treedef.unflatten(list(outs)))


def _high_half(x: NDArray, y: NDArray) -> NDArray:
    """The high half of the double-width products of integers of one
    dtype (two's complement: floor division for signed operands)."""
    dtype = x.dtype
    bits = 8 * dtype.itemsize
    if bits <= 32:
        wide = np.int64 if dtypes.is_signed_integer(dtype) or bits < 32 else np.uint64
        product = x.astype(wide) * y.astype(wide)
        return np.asarray(product >> bits).astype(dtype)
    # 64-bit operands: exact products as Python integers.
    flat = [(int(a) * int(b)) >> 64 for a, b in zip(x.reshape(-1).tolist(), y.reshape(-1).tolist())]
    return np.array(flat, dtype=object).astype(dtype).reshape(x.shape)


@final
@dataclass(frozen=True, slots=True)
class Mulhi(NonDifferentiable):
    """The high half of the double-width product of two integers."""

    name = "mulhi"
    hlo_op = "chlo.mulhi"
    arity = 2
    accepts = frozenset({"int", "uint"})

    def compute(self, *args: NDArray) -> HostValue:
        x, y = np.broadcast_arrays(args[0], args[1])
        return _high_half(np.asarray(x), np.asarray(y))


_MULHI: Final = Mulhi()


def mulhi(x: ArrayLike, y: ArrayLike, /) -> Array:
    """The high half of the double-width product of integers of one dtype
    (JAX's ``lax.mulhi``): ``(x * y) >> bits`` computed without overflow.
    Unlike most lax functions, a Python scalar does not adopt the other
    operand's dtype (as in JAX)."""
    return bind1(_MULHI, as_operand(x, "lax.mulhi x"), as_operand(y, "lax.mulhi y"))
