"""Structural primitives: they move, copy or select elements without
arithmetic (layer L4).

broadcast_in_dim, reshape, transpose, squeeze, expand_dims, rev,
concatenate, pad, select_n, iota (slicing lives in ``slicing.py``); plus
the batching helpers (``moveaxis``, ``bdim_to_front``) and zero tangents
(``zeros``, ``instantiate``) that other rules are written with.
"""

from collections.abc import Sequence
import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar, final

import numpy as np
from typing_extensions import Self, override

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.array_impl import array_from_numpy
from jaxtyped._src.core.avals import BatchAxis, BatchDim, ShapedArray, UndefinedPrimal, Zero
from jaxtyped._src.core.hlo import HloValue, LoweringContext, i64_array
from jaxtyped._src.core.interpreter import bind1
from jaxtyped._src.core.primitive import HostValue, LinearArg, NDArray, Primitive, Tangent
from jaxtyped._src.errors import DTypeMismatchError, JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.lax.util import (
    check_arity,
    check_axes_in_range,
    check_int_tuple,
    as_operand,
    scalar_like,
    short_types,
)
from jaxtyped._src.util import canonicalize_axis, prod

__all__ = [
    "BroadcastInDim", "Reshape", "Transpose", "Squeeze", "ExpandDims", "Rev",
    "Concatenate", "Pad", "Iota",
    "broadcast_in_dim", "broadcast", "reshape", "transpose", "squeeze", "expand_dims",
    "rev", "concatenate", "pad",
    "iota", "broadcasted_iota", "SelectN", "select_n", "StructuralLinear", "AxesStructural", "moveaxis", "bdim_to_front", "zeros", "full_like_aval",
    "instantiate",
    "broadcast_scalar",
    "linear_operand",
    "inverse_permutation",
]


# === helpers used by batching and differentiation rules ===


def zeros(aval: ShapedArray) -> Array:
    """An array of zeros of type ``aval`` (``float0`` zeros are concrete)."""
    return full_like_aval(aval, 0)


def full_like_aval(aval: ShapedArray, value: bool | int | float) -> Array:
    """An array of type ``aval`` filled with ``value`` (``float0`` arrays,
    which hold no data, are concrete zeros)."""
    if dtypes.is_float0(aval.dtype):
        return array_from_numpy(np.zeros(aval.shape, aval.dtype))
    scalar = array_from_numpy(np.array(value, dtype=aval.dtype), weak_type=aval.weak_type)
    return broadcast_in_dim(scalar, aval.shape, ()) if aval.shape else scalar


def broadcast_scalar(x: Array, shape: tuple[int, ...]) -> Array:
    """``x`` broadcast to ``shape``: a 0-d value meeting array operands (for
    example a scalar operand's tangent); unchanged if it already has it."""
    return x if x.shape == shape else broadcast_in_dim(x, shape, ())


def instantiate(t: Tangent) -> Array:
    """A tangent as an array (symbolic zeros become real zeros)."""
    return zeros(t.aval) if isinstance(t, Zero) else t


def linear_operand(ct: Tangent, arg: LinearArg) -> tuple[Array, ShapedArray]:
    """The cotangent and the aval of the one linear operand of a
    single-output, single-operand transpose rule (checked)."""
    assert not isinstance(ct, Zero) and isinstance(arg, UndefinedPrimal)
    return ct, arg.aval


def inverse_permutation(permutation: Sequence[int]) -> tuple[int, ...]:
    """The permutation undoing ``permutation``."""
    inverse = [0] * len(permutation)
    for i, p in enumerate(permutation):
        inverse[p] = i
    return tuple(inverse)


def moveaxis(x: Array, src: int, dst: int) -> Array:
    """Move axis ``src`` of ``x`` to position ``dst``."""
    if src == dst:
        return x
    perm = [i for i in range(x.ndim) if i != src]
    perm.insert(dst, src)
    return transpose(x, perm)


def bdim_to_front(x: Array, dim: BatchDim, size: int) -> Array:
    """``x`` with its batch axis first; unbatched values are broadcast."""
    if dim is None:
        return broadcast_in_dim(x, (size, *x.shape), tuple(range(1, x.ndim + 1)))
    return moveaxis(x, dim, 0)


def _front(args: tuple[Array, ...], dims: tuple[BatchDim, ...], size: int) -> list[Array]:
    return [bdim_to_front(x, d, size) for x, d in zip(args, dims)]


class StructuralLinear(Primitive):
    """Family base of structural primitives: they are linear in every
    operand, so the jvp applies the primitive to the tangents."""

    __slots__ = ()

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        out = bind1(self, *primals)
        return (out,), (bind1(self, *(instantiate(t) for t in tangents)),)


class AxesStructural(StructuralLinear):
    """Family base of one-operand structural primitives whose parameter
    ``dimensions`` lists axes: under vmap the batch axis goes first and the
    axes shift by one."""

    __slots__ = ()
    dimensions: tuple[int, ...]
    # Declared so type checkers know every subclass is a dataclass.
    __dataclass_fields__: ClassVar[dict[str, "dataclasses.Field[Any]"]]

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        (x,) = _front(args, dims, axis.size)
        return (bind1(self.with_dimensions(tuple(d + 1 for d in self.dimensions)), x),), (0,)

    def with_dimensions(self, dimensions: tuple[int, ...]) -> Self:
        """This primitive with other ``dimensions``."""
        return dataclasses.replace(self, dimensions=dimensions)


# === broadcast_in_dim ===


@final
@dataclass(frozen=True, slots=True)
class BroadcastInDim(StructuralLinear):
    """Broadcast an operand to ``shape``; operand axis i becomes output axis
    ``broadcast_dimensions[i]`` (of size 1 or the output size)."""

    shape: tuple[int, ...]
    broadcast_dimensions: tuple[int, ...]
    name = "broadcast_in_dim"

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        check_arity(self.name, avals, 1)
        (x,) = avals
        dims, shape = self.broadcast_dimensions, self.shape
        ok = len(dims) == x.ndim and all(0 <= d < len(shape) for d in dims)
        ok = ok and all(a < b for a, b in zip(dims, dims[1:]))
        ok = ok and all(x.shape[i] in (1, shape[d]) for i, d in enumerate(dims))
        if not ok or any(s < 0 for s in shape):
            raise JaxtypedTypeError(
                f"broadcast_in_dim: cannot broadcast operand {x.str_short()} to shape "
                f"{shape} with broadcast_dimensions={dims}"
            )
        return (x.update(shape=shape),)

    @override
    def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
        (x,) = args
        expanded = [1] * len(self.shape)
        for i, d in enumerate(self.broadcast_dimensions):
            expanded[d] = x.shape[i]
        return (np.broadcast_to(x.reshape(expanded), self.shape),)

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        (x,) = _front(args, dims, axis.size)
        new_dims = (0, *(d + 1 for d in self.broadcast_dimensions))
        return (broadcast_in_dim(x, (axis.size, *self.shape), new_dims),), (0,)

    @override
    def lower(self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[HloValue, ...]:
        return (ctx.broadcast_in_dim(args[0], self.shape, self.broadcast_dimensions),)

    @override
    def printed_params(self) -> tuple[tuple[str, object], ...]:
        # As JAX 0.10.2 prints it: the shape is the binder's type, and no
        # broadcast dimensions (a scalar operand) are left out.
        return (("broadcast_dimensions", self.broadcast_dimensions),) if self.broadcast_dimensions else ()

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        (ct,), (x,) = cts, args
        assert not isinstance(ct, Zero) and isinstance(x, UndefinedPrimal)
        # Sum over the new axes and over operand axes of size 1 that grew.
        grown = tuple(d for i, d in enumerate(self.broadcast_dimensions) if x.aval.shape[i] != self.shape[d])
        new = tuple(d for d in range(len(self.shape)) if d not in self.broadcast_dimensions)
        # Imported here: reductions builds on this module.
        from jaxtyped._src.lax.reductions import reduce_sum

        summed = reduce_sum(ct, tuple(sorted(new + grown))) if new or grown else ct
        return (reshape(summed, x.aval.shape) if summed.shape != x.aval.shape else summed,)


def broadcast_in_dim(operand: ArrayLike, shape: Sequence[int], broadcast_dimensions: Sequence[int]) -> Array:
    """Broadcast ``operand`` to ``shape``, mapping its axes to
    ``broadcast_dimensions`` (JAX's ``lax.broadcast_in_dim``)."""
    x = as_operand(operand, "lax.broadcast_in_dim operand")
    shape_t = check_int_tuple("lax.broadcast_in_dim", "shape", shape)
    dims = check_int_tuple("lax.broadcast_in_dim", "broadcast_dimensions", broadcast_dimensions)
    if x.shape == shape_t and dims == tuple(range(x.ndim)):
        return x
    return bind1(BroadcastInDim(shape_t, dims), x)


def broadcast(operand: ArrayLike, sizes: Sequence[int]) -> Array:
    """Add leading axes of the given sizes (JAX's ``lax.broadcast``)."""
    x = as_operand(operand, "lax.broadcast operand")
    sizes_t = check_int_tuple("lax.broadcast", "sizes", sizes)
    dims = tuple(range(len(sizes_t), len(sizes_t) + x.ndim))
    return broadcast_in_dim(x, (*sizes_t, *x.shape), dims)


# === reshape ===


@final
@dataclass(frozen=True, slots=True)
class Reshape(StructuralLinear):
    """Reshape to ``new_sizes`` (after transposing by ``dimensions``, if set)."""

    new_sizes: tuple[int, ...]
    dimensions: tuple[int, ...] | None = None
    name = "reshape"

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        check_arity(self.name, avals, 1)
        (x,) = avals
        if any(s < 0 for s in self.new_sizes) or prod(self.new_sizes) != x.size:
            raise JaxtypedTypeError(
                f"reshape: cannot reshape {x.str_short()} ({x.size} elements) to "
                f"shape {self.new_sizes}"
            )
        if self.dimensions is not None and sorted(self.dimensions) != list(range(x.ndim)):
            raise JaxtypedTypeError(f"reshape: dimensions={self.dimensions} is not a permutation for {x.str_short()}")
        return (x.update(shape=self.new_sizes),)

    @override
    def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
        (x,) = args
        if self.dimensions is not None:
            x = np.transpose(x, self.dimensions)
        return (np.reshape(x, self.new_sizes),)

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        (x,) = _front(args, dims, axis.size)
        perm = None if self.dimensions is None else (0, *(d + 1 for d in self.dimensions))
        return (bind1(Reshape((axis.size, *self.new_sizes), perm), x),), (0,)

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        ct, x = linear_operand(cts[0], args[0])
        if self.dimensions is None:
            return (reshape(ct, x.shape),)
        # Undo the reshape into the transposed shape, then the transposition.
        permuted = tuple(x.shape[d] for d in self.dimensions)
        return (transpose(reshape(ct, permuted), inverse_permutation(self.dimensions)),)

    @override
    def lower(self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[HloValue, ...]:
        (x,) = args
        if self.dimensions is not None:
            x = _lower_transpose(ctx, x, self.dimensions)
        return (_lower_reshape(ctx, x, out_avals[0]),)


def _lower_reshape(ctx: LoweringContext, x: HloValue, out: ShapedArray) -> HloValue:
    """``stablehlo.reshape`` (row-major, like NumPy's); also squeeze and
    expand_dims, which only add or drop axes of size 1."""
    return ctx.op1("stablehlo.reshape", (x,), out)


def _lower_transpose(ctx: LoweringContext, x: HloValue, permutation: tuple[int, ...]) -> HloValue:
    out = ShapedArray(tuple(x.aval.shape[p] for p in permutation), x.aval.dtype)
    return ctx.op1("stablehlo.transpose", (x,), out, {"permutation": i64_array(permutation)})


def reshape(operand: ArrayLike, new_sizes: Sequence[int], dimensions: Sequence[int] | None = None) -> Array:
    """Reshape (JAX's ``lax.reshape``); ``dimensions`` transposes first."""
    x = as_operand(operand, "lax.reshape operand")
    sizes = check_int_tuple("lax.reshape", "new_sizes", new_sizes)
    perm = None if dimensions is None else check_int_tuple("lax.reshape", "dimensions", dimensions)
    if perm is not None and perm == tuple(range(x.ndim)):
        perm = None
    if x.shape == sizes and perm is None:
        return x
    return bind1(Reshape(sizes, perm), x)


# === transpose ===


@final
@dataclass(frozen=True, slots=True)
class Transpose(StructuralLinear):
    """Permute axes: output axis i is operand axis ``permutation[i]``."""

    permutation: tuple[int, ...]
    name = "transpose"

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        check_arity(self.name, avals, 1)
        (x,) = avals
        if sorted(self.permutation) != list(range(x.ndim)):
            raise JaxtypedTypeError(
                f"transpose: permutation {self.permutation} is not a permutation of the axes of {x.str_short()}"
            )
        return (x.update(shape=tuple(x.shape[p] for p in self.permutation)),)

    @override
    def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
        return (np.transpose(args[0], self.permutation),)

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        (x,) = _front(args, dims, axis.size)
        return (transpose(x, (0, *(p + 1 for p in self.permutation))),), (0,)

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        ct, _ = linear_operand(cts[0], args[0])
        return (transpose(ct, inverse_permutation(self.permutation)),)

    @override
    def lower(self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[HloValue, ...]:
        return (_lower_transpose(ctx, args[0], self.permutation),)


def transpose(operand: ArrayLike, permutation: Sequence[int]) -> Array:
    """Permute the axes (JAX's ``lax.transpose``)."""
    x = as_operand(operand, "lax.transpose operand")
    perm = check_int_tuple("lax.transpose", "permutation", permutation)
    if perm == tuple(range(x.ndim)):
        return x
    return bind1(Transpose(perm), x)


# === squeeze / expand_dims / rev ===


@final
@dataclass(frozen=True, slots=True)
class Squeeze(AxesStructural):
    """Remove the listed axes, each of size 1."""

    dimensions: tuple[int, ...]
    name = "squeeze"

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        check_arity(self.name, avals, 1)
        (x,) = avals
        check_axes_in_range(self.name, self.dimensions, x.ndim, x.str_short())
        if any(x.shape[d] != 1 for d in self.dimensions):
            raise JaxtypedValueError(
                f"squeeze: dimensions {self.dimensions} of {x.str_short()} must all have size 1"
            )
        shape = tuple(s for i, s in enumerate(x.shape) if i not in self.dimensions)
        return (x.update(shape=shape),)

    @override
    def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
        return (np.squeeze(args[0], self.dimensions),)

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        # The removed axes are at the same positions of the operand as the
        # inserted ones of the result of expand_dims.
        ct, _ = linear_operand(cts[0], args[0])
        return (bind1(ExpandDims(self.dimensions), ct),)

    @override
    def lower(self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[HloValue, ...]:
        return (_lower_reshape(ctx, args[0], out_avals[0]),)


def squeeze(array: ArrayLike, dimensions: Sequence[int]) -> Array:
    """Remove axes of size 1 (JAX's ``lax.squeeze``); negative axes allowed."""
    x = as_operand(array, "lax.squeeze array")
    dims = check_int_tuple("lax.squeeze", "dimensions", dimensions)
    dims = tuple(sorted(canonicalize_axis(d, x.ndim, where="lax.squeeze dimensions") for d in dims))
    if not dims:
        return x
    return bind1(Squeeze(dims), x)


@final
@dataclass(frozen=True, slots=True)
class ExpandDims(AxesStructural):
    """Insert axes of size 1 at the listed output positions."""

    dimensions: tuple[int, ...]
    name = "expand_dims"

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        check_arity(self.name, avals, 1)
        (x,) = avals
        out_ndim = x.ndim + len(self.dimensions)
        check_axes_in_range(self.name, self.dimensions, out_ndim, x.str_short())
        rest = iter(x.shape)
        shape = tuple(1 if i in self.dimensions else next(rest) for i in range(out_ndim))
        return (x.update(shape=shape),)

    @override
    def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
        return (np.expand_dims(args[0], self.dimensions),)

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        ct, _ = linear_operand(cts[0], args[0])
        return (bind1(Squeeze(self.dimensions), ct),)

    @override
    def lower(self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[HloValue, ...]:
        return (_lower_reshape(ctx, args[0], out_avals[0]),)


def expand_dims(array: ArrayLike, dimensions: Sequence[int]) -> Array:
    """Insert size-1 axes at ``dimensions`` of the result (negative allowed)."""
    x = as_operand(array, "lax.expand_dims array")
    dims = check_int_tuple("lax.expand_dims", "dimensions", dimensions)
    out_ndim = x.ndim + len(dims)
    dims = tuple(sorted(canonicalize_axis(d, out_ndim, where="lax.expand_dims dimensions") for d in dims))
    if not dims:
        return x
    return bind1(ExpandDims(dims), x)


@final
@dataclass(frozen=True, slots=True)
class Rev(AxesStructural):
    """Reverse the order of elements along the listed axes."""

    dimensions: tuple[int, ...]
    name = "rev"

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        check_arity(self.name, avals, 1)
        (x,) = avals
        check_axes_in_range(self.name, self.dimensions, x.ndim, x.str_short(), error=JaxtypedTypeError)
        return (x,)

    @override
    def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
        return (np.flip(args[0], self.dimensions),)

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        ct, _ = linear_operand(cts[0], args[0])
        return (bind1(self, ct),)

    @override
    def lower(self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[HloValue, ...]:
        return (ctx.op1("stablehlo.reverse", args, out_avals[0], {"dimensions": i64_array(self.dimensions)}),)


def rev(operand: ArrayLike, dimensions: Sequence[int]) -> Array:
    """Reverse along ``dimensions`` (JAX's ``lax.rev``)."""
    x = as_operand(operand, "lax.rev operand")
    dims = check_int_tuple("lax.rev", "dimensions", dimensions)
    if not dims:
        return x
    return bind1(Rev(dims), x)


# === concatenate ===


@final
@dataclass(frozen=True, slots=True)
class Concatenate(StructuralLinear):
    """Join operands of equal dtype and rank along ``dimension``."""

    dimension: int
    name = "concatenate"

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        if not avals:
            raise JaxtypedValueError("concatenate: needs at least one operand")
        first = avals[0]
        if not 0 <= self.dimension < max(first.ndim, 1) or first.ndim == 0:
            raise JaxtypedTypeError(f"concatenate: dimension {self.dimension} out of range for ({short_types(avals)})")
        for aval in avals[1:]:
            if aval.dtype != first.dtype:
                raise DTypeMismatchError(f"concatenate: operands must have one dtype, got ({short_types(avals)})")
            same = aval.ndim == first.ndim and all(
                a == b for i, (a, b) in enumerate(zip(aval.shape, first.shape)) if i != self.dimension
            )
            if not same:
                raise JaxtypedTypeError(
                    f"concatenate: operand shapes must agree except on dimension {self.dimension}, "
                    f"got ({short_types(avals)})"
                )
        size = sum(aval.shape[self.dimension] for aval in avals)
        shape = first.shape[: self.dimension] + (size,) + first.shape[self.dimension + 1 :]
        return (ShapedArray(shape, first.dtype, all(a.weak_type for a in avals)),)

    @override
    def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
        return (np.concatenate(args, axis=self.dimension),)

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        moved = _front(args, dims, axis.size)
        return (bind1(Concatenate(self.dimension + 1), *moved),), (0,)

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        (ct,) = cts
        assert not isinstance(ct, Zero)
        # Imported here: slicing builds on this module.
        from jaxtyped._src.lax.slicing import slice_in_dim

        results: list[Tangent | None] = []
        start = 0
        for arg in args:
            size = arg.aval.shape[self.dimension]
            linear = isinstance(arg, UndefinedPrimal)
            results.append(slice_in_dim(ct, start, start + size, 1, self.dimension) if linear else None)
            start += size
        return tuple(results)

    @override
    def lower(self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[HloValue, ...]:
        return (ctx.op1("stablehlo.concatenate", args, out_avals[0], {"dimension": f"{self.dimension} : i64"}),)


def concatenate(operands: Sequence[ArrayLike], dimension: int) -> Array:
    """Concatenate along ``dimension`` (JAX's ``lax.concatenate``)."""
    xs = [as_operand(x, f"lax.concatenate operands[{i}]") for i, x in enumerate(operands)]
    prim = Concatenate(int(dimension))
    if len(xs) == 1:
        prim.abstract_eval((xs[0].aval,))  # validate, then skip the no-op
        return xs[0]
    return bind1(prim, *xs)


# === pad ===


@final
@dataclass(frozen=True, slots=True)
class Pad(StructuralLinear):
    """Pad with a scalar: per axis ``(low, high, interior)`` padding; negative
    low/high padding crops."""

    padding_config: tuple[tuple[int, int, int], ...]
    name = "pad"

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        check_arity(self.name, avals, 2)
        x, value = avals
        if value.dtype != x.dtype:
            raise DTypeMismatchError(
                f"pad: padding_value must have the operand's dtype, got operand "
                f"{x.str_short()} and padding_value {value.str_short()}"
            )
        if value.shape != ():
            raise JaxtypedValueError(f"pad: padding_value must be a scalar, got {value.str_short()}")
        if len(self.padding_config) != x.ndim or any(i < 0 for _, _, i in self.padding_config):
            raise JaxtypedValueError(
                f"pad: padding_config {self.padding_config} needs one (low, high, interior>=0) "
                f"triple per axis of {x.str_short()}"
            )
        shape = tuple(
            lo + hi + d + max(d - 1, 0) * interior
            for d, (lo, hi, interior) in zip(x.shape, self.padding_config)
        )
        if any(s < 0 for s in shape):
            raise JaxtypedValueError(f"pad: padding_config {self.padding_config} gives negative shape {shape}")
        return (ShapedArray(shape, x.dtype, x.weak_type and value.weak_type),)

    @override
    def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
        x, value = args
        config = self.padding_config
        # Interior and non-negative edges into a buffer padded generously;
        # negative edges are then cropped off.
        grown = tuple(max(lo, 0) + max(hi, 0) + d + max(d - 1, 0) * i for d, (lo, hi, i) in zip(x.shape, config))
        out = np.full(grown, value, dtype=x.dtype)
        where = tuple(slice(max(lo, 0), max(lo, 0) + d + max(d - 1, 0) * i, i + 1) for d, (lo, _, i) in zip(x.shape, config))
        out[where] = x
        crop = tuple(slice(-min(lo, 0), g + min(hi, 0)) for g, (lo, hi, _) in zip(grown, config))
        return (out[crop],)

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        x, value = args
        x_dim, value_dim = dims
        config = ((0, 0, 0), *self.padding_config)
        x = bdim_to_front(x, x_dim, axis.size)
        if value_dim is None:
            return (bind1(Pad(config), x, value),), (0,)
        # A per-example padding value: pad with zero, then select the padding
        # positions from the broadcast values.
        padded = bind1(Pad(config), x, zeros(ShapedArray((), x.dtype)))
        mask = bind1(Pad(config), full_like_aval(ShapedArray(x.shape, np.dtype(bool)), False),
                     full_like_aval(ShapedArray((), np.dtype(bool)), True))
        fill = broadcast_in_dim(moveaxis(value, value_dim, 0), padded.shape, (0,))
        return (select_n(mask, padded, fill),), (0,)

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        (ct,), (x, value) = cts, args
        assert not isinstance(ct, Zero)
        # Imported here: slicing and reductions build on this module.
        from jaxtyped._src.lax.arithmetic import SUB
        from jaxtyped._src.lax.reductions import reduce_sum
        from jaxtyped._src.lax.slicing import slice as slice_

        # The operand's cotangent: crop the edges (negative edges were crops:
        # pad them back with zeros), then take every (interior + 1)-th element.
        unpad = tuple((-lo, -hi, 0) for lo, hi, _ in self.padding_config)
        unpadded = ct
        if any(lo or hi for lo, hi, _ in unpad):
            unpadded = bind1(Pad(unpad), ct, zeros(ShapedArray((), ct.dtype)))
        strides = tuple(interior + 1 for _, _, interior in self.padding_config)
        ct_x = slice_(unpadded, (0,) * ct.ndim, unpadded.shape, strides)
        ct_value: Array | None = None
        if isinstance(value, UndefinedPrimal):
            # Every output element not taken from the operand is the padding
            # value (JAX's rule: total minus the operand's share).
            axes = tuple(range(ct.ndim))
            ct_value = bind1(SUB, reduce_sum(ct, axes), reduce_sum(ct_x, axes))
        return (ct_x if isinstance(x, UndefinedPrimal) else None, ct_value)

    @override
    def lower(self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[HloValue, ...]:
        # stablehlo.pad takes negative edge padding (cropping) as is.
        low, high, interior = zip(*self.padding_config) if self.padding_config else ((), (), ())
        attrs = {
            "edge_padding_low": i64_array(low),
            "edge_padding_high": i64_array(high),
            "interior_padding": i64_array(interior),
        }
        return (ctx.op1("stablehlo.pad", args, out_avals[0], attrs),)


def pad(operand: ArrayLike, padding_value: ArrayLike, padding_config: Sequence[tuple[int, int, int]]) -> Array:
    """Pad (JAX's ``lax.pad``): per axis ``(low, high, interior)``."""
    x = as_operand(operand, "lax.pad operand")
    value = as_operand(padding_value, "lax.pad padding_value")
    if value.dtype != x.dtype and isinstance(padding_value, (bool, int, float, complex)):
        value = scalar_like(padding_value, x.dtype, "lax.pad padding_value")
    config = tuple(tuple(check_int_tuple("lax.pad", "padding_config", triple)) for triple in padding_config)
    if any(len(triple) != 3 for triple in config):
        raise JaxtypedValueError(f"lax.pad: padding_config entries must be (low, high, interior), got {padding_config}")
    return bind1(Pad(tuple((t[0], t[1], t[2]) for t in config)), x, value)


# === select_n ===


@final
@dataclass(frozen=True, slots=True)
class SelectN(Primitive):
    """``cases[which]`` elementwise; ``which`` is boolean (two cases) or an
    integer, a scalar or of the cases' shape."""

    name = "select_n"

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        if len(avals) < 2:
            raise JaxtypedTypeError(f"select_n: needs `which` and at least one case, got ({short_types(avals)})")
        which, *cases = avals
        first = cases[0]
        if any(not c.same_type(first) for c in cases):
            raise JaxtypedTypeError(f"select_n: cases must have one shape and dtype, got ({short_types(cases)})")
        if which.shape not in ((), first.shape):
            raise JaxtypedTypeError(
                f"select_n: `which` must be scalar or have the same shape as cases, got "
                f"`which` {which.str_short()} but case {first.str_short()}"
            )
        is_bool = dtypes.is_bool(which.dtype)
        if not (is_bool and len(cases) <= 2) and not dtypes.is_integer(which.dtype):
            raise JaxtypedTypeError(
                f"select_n: `which` must be bool (with at most two cases) or an integer, got "
                f"{which.str_short()} with {len(cases)} cases"
            )
        return (first.update(weak_type=all(c.weak_type for c in cases)),)

    @override
    def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
        which, *cases = args
        if len(cases) == 1:
            return (cases[0],)
        if which.dtype == np.bool_:
            return (np.where(which, cases[1], cases[0]),)
        # Out-of-range indices select the first or last case, as the lowered
        # select tree does; the clipped index fits np.choose's intp even when
        # `which` is uint64.
        index = np.clip(which, 0, len(cases) - 1).astype(np.intp)
        return (np.choose(np.broadcast_to(index, cases[0].shape), cases),)

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        which, *cases = primals
        out = bind1(self, which, *cases)
        case_tangents = tangents[1:]
        if all(isinstance(t, Zero) for t in case_tangents):
            return (out,), (Zero(out.aval.to_tangent_aval()),)
        return (out,), (bind1(self, which, *(instantiate(t) for t in case_tangents)),)

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        (ct,), (which, *cases) = cts, args
        assert not isinstance(ct, Zero) and not isinstance(which, UndefinedPrimal)
        # Case i's cotangent is ct where case i was selected, else zero: the
        # same select with ct in place i and zeros elsewhere, so that
        # out-of-range indices route exactly as the forward select does.
        zero = zeros(ct.aval)
        results: list[Tangent | None] = [None]
        for i, case in enumerate(cases):
            if not isinstance(case, UndefinedPrimal):
                results.append(None)
                continue
            chosen = [ct if j == i else zero for j in range(len(cases))]
            results.append(bind1(self, which, *chosen) if len(cases) > 1 else ct)
        return tuple(results)

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        which, *cases = _front(args, dims, axis.size)
        case_shape = cases[0].shape
        if which.shape != case_shape:
            # A per-example scalar `which` against array cases.
            which = broadcast_in_dim(which, case_shape, (0,))
        return (bind1(self, which, *cases),), (0,)

    @override
    def lower(self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[HloValue, ...]:
        which, *cases = args
        if dtypes.is_bool(which.aval.dtype):
            return (cases[0] if len(cases) == 1 else ctx.select(which, cases[1], cases[0]),)
        return (_select_tree(ctx, which, cases),)


def _select_tree(ctx: LoweringContext, which: HloValue, cases: Sequence[HloValue], offset: int = 0) -> HloValue:
    """An n-way select as a balanced tree of ``which < split`` two-way
    selects (stablehlo.select only takes a boolean predicate); ``cases``
    are those numbered from ``offset``. An index below 0 always goes left
    and one past the end right: the first and last cases, the clamping
    ``impl`` does. A 0-d ``which`` is a valid select predicate."""
    if len(cases) == 1:
        return cases[0]
    mid = len(cases) // 2
    split = offset + mid
    if split > np.iinfo(which.aval.dtype).max:  # `which` cannot reach the upper half
        return _select_tree(ctx, which, cases[:mid], offset)
    below = ctx.compare(which, ctx.full_like(split, which), "LT")
    return ctx.select(below, _select_tree(ctx, which, cases[:mid], offset), _select_tree(ctx, which, cases[mid:], split))


_SELECT_N = SelectN()


def select_n(which: ArrayLike, *cases: ArrayLike) -> Array:
    """Pick elementwise from ``cases`` by ``which`` (JAX's ``lax.select_n``)."""
    which_ = as_operand(which, "lax.select_n which")
    cases_ = [as_operand(c, f"lax.select_n cases[{i}]") for i, c in enumerate(cases)]
    return bind1(_SELECT_N, which_, *cases_)


# === iota ===


@final
@dataclass(frozen=True, slots=True)
class Iota(Primitive):
    """0, 1, 2, ... along ``dimension`` of an array of ``shape``."""

    dtype: np.dtype[Any]
    shape: tuple[int, ...]
    dimension: int
    name = "iota"

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        check_arity(self.name, avals, 0)
        if any(s < 0 for s in self.shape):
            raise JaxtypedTypeError(f"iota: shape must have every element be nonnegative, got {self.shape}")
        if not 0 <= self.dimension < len(self.shape):
            raise JaxtypedValueError(f"iota: dimension {self.dimension} out of range for shape {self.shape}")
        if not (dtypes.is_integer(self.dtype) or dtypes.is_inexact(self.dtype)):
            raise JaxtypedTypeError(f"iota: dtype must be numeric, got {self.dtype.name}")
        return (ShapedArray(self.shape, self.dtype),)

    @override
    def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
        line = np.arange(self.shape[self.dimension], dtype=self.dtype)
        view = [1] * len(self.shape)
        view[self.dimension] = self.shape[self.dimension]
        return (np.broadcast_to(line.reshape(view), self.shape),)

    @override
    def lower(self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[HloValue, ...]:
        return (ctx.op1("stablehlo.iota", (), out_avals[0], {"iota_dimension": f"{self.dimension} : i64"}),)


def broadcasted_iota(dtype: "dtypes.DTypeLike", shape: Sequence[int], dimension: int) -> Array:
    """An array of ``shape`` counting along ``dimension`` (JAX's ``lax.broadcasted_iota``)."""
    shape_t = check_int_tuple("lax.broadcasted_iota", "shape", shape)
    dim = canonicalize_axis(int(dimension), len(shape_t), where="lax.broadcasted_iota dimension")
    return bind1(Iota(dtypes.canonicalize_dtype(dtypes.dtype(dtype)), shape_t, dim))


def iota(dtype: "dtypes.DTypeLike", size: int) -> Array:
    """``[0, 1, ..., size-1]`` (JAX's ``lax.iota``)."""
    return broadcasted_iota(dtype, (int(size),), 0)
