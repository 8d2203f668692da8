"""``threefry2x32``: the Threefry-2x32 block cipher behind jaxtyped.random (layer L4).

The primitive hashes counters ``(x0, x1)`` under keys ``(k0, k1)``, four
``uint32`` operands of one shape, elementwise, into ``(y0, y1)``: 20 rounds
of add/rotate/xor with a key injection after every 4 (Salmon et al., 2011,
with the rotation constants and key-schedule parity JAX uses). All
arithmetic wraps modulo 2**32. It lowers to plain StableHLO integer ops
in a ``while`` loop of five groups (JAX's CPU lowering), so no custom call
is needed on any backend.

It is not in ``jaxtyped.lax.__all__`` (JAX does not export it there either);
``jaxtyped.extend.random.threefry_2x32`` is the public entry point.
"""

from dataclasses import dataclass
from typing import Final, final

import numpy as np
from typing_extensions import override

from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.avals import BatchAxis, BatchDim, ShapedArray
from jaxtyped._src.core.hlo import HloValue, LoweringContext, i64_array
from jaxtyped._src.core.interpreter import bind
from jaxtyped._src.core.primitive import HostValue, NDArray, Primitive, Tangent
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError, ShapeMismatchError
from jaxtyped._src.lax.slicing import slice_in_dim
from jaxtyped._src.lax.structural import broadcast_in_dim, concatenate, moveaxis, pad, reshape
from jaxtyped._src.lax.util import check_arity, as_operand, short_types, zero_tangents

__all__ = ["Threefry2x32", "threefry2x32", "threefry_2x32"]

_UINT32: Final = np.dtype(np.uint32)
# Rotation distances of the even and odd groups of four rounds.
_ROTATIONS: Final = ((13, 15, 26, 6), (17, 29, 16, 24))
# The key-schedule parity constant (Threefish's C240 for 32-bit words).
_PARITY: Final = 0x1BD11BDA
_GROUPS: Final = 5


def _rotl(x: NDArray, r: int) -> NDArray:
    return (x << np.uint32(r)) | (x >> np.uint32(32 - r))


def threefry_reference(k0: NDArray, k1: NDArray, x0: NDArray, x1: NDArray) -> tuple[NDArray, NDArray]:
    """The hash on NumPy ``uint32`` buffers of one shape (wrapping arithmetic)."""
    ks = (k0, k1, k0 ^ k1 ^ np.uint32(_PARITY))
    x0 = x0 + ks[0]
    x1 = x1 + ks[1]
    for group in range(_GROUPS):
        for r in _ROTATIONS[group % 2]:
            x0 = x0 + x1
            x1 = _rotl(x1, r) ^ x0
        x0 = x0 + ks[(group + 1) % 3]
        x1 = x1 + ks[(group + 2) % 3] + np.uint32(group + 1)
    return x0, x1


@final
@dataclass(frozen=True, slots=True)
class Threefry2x32(Primitive):
    """Threefry-2x32 on ``(k0, k1, x0, x1)``: ``uint32`` counters ``x0``,
    ``x1`` of one shape and keys ``k0``, ``k1`` of that shape or scalars (one
    key for every counter: the lowering then carries only scalars through
    its loop); outputs ``(y0, y1)`` of the counters' shape."""

    name = "threefry2x32"
    several_results = True

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        check_arity(self.name, avals, 4)
        if any(a.dtype != _UINT32 for a in avals):
            raise JaxtypedTypeError(
                f"threefry2x32 requires uint32 arguments, got {short_types(avals)}"
            )
        k0, k1, x0, x1 = avals
        shape = x0.shape
        if x1.shape != shape or k0.shape != k1.shape or k0.shape not in ((), shape):
            raise ShapeMismatchError(
                "threefry2x32 requires counters of one shape and keys of that shape or scalars, "
                f"got {short_types(avals)}"
            )
        out = ShapedArray(shape, _UINT32, False)
        return (out, out)

    @override
    def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
        k0, k1, x0, x1 = (np.asarray(a, dtype=np.uint32).reshape(a.shape) for a in args)
        y0, y1 = threefry_reference(k0, k1, x0, x1)
        return (np.asarray(y0, dtype=np.uint32), np.asarray(y1, dtype=np.uint32))

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        # Integer outputs: their tangents are float0 zeros, as in JAX.
        outs = bind(self, *primals)
        return outs, zero_tangents(outs)

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        k0, k1, x0, x1 = args
        counter_dims = [d for d in dims[2:] if d is not None]
        counters = x0 if dims[2] is not None else x1
        if counter_dims:
            d = counter_dims[0]
            shape = (axis.size, *counters.shape[:d], *counters.shape[d + 1 :])
        else:
            shape = (axis.size, *x0.shape)
        keys_shared = dims[0] is None and dims[1] is None and k0.ndim == 0

        def full(a: Array, d: BatchDim) -> Array:
            if d is None:
                return broadcast_in_dim(a, shape, tuple(range(len(shape) - a.ndim, len(shape))))
            moved = moveaxis(a, d, 0)
            # A batch of scalar keys meets batched counters: one key per row.
            return moved if moved.shape == shape else broadcast_in_dim(moved, shape, (0,))

        keys = (k0, k1) if keys_shared else (full(k0, dims[0]), full(k1, dims[1]))
        return bind(self, *keys, full(x0, dims[2]), full(x1, dims[3])), (0, 0)

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        # A loop of five groups, as JAX's CPU lowering: besides compiling
        # faster than 20 unrolled rounds, the loop keeps the hash out of
        # the fusions of the code that consumes its bits, so XLA fuses
        # (and rounds) that float code exactly as it does for JAX.
        aval = out_avals[0]
        u32 = ShapedArray((), _UINT32)
        one_word = ShapedArray((1,), _UINT32)
        rotations_aval = ShapedArray((4,), _UINT32)

        def binary(op: str, a: HloValue, b: HloValue) -> HloValue:
            return ctx.op1(f"stablehlo.{op}", (a, b), a.aval)

        k0, k1, x0, x1 = args

        def spread(key: HloValue) -> HloValue:
            return key if key.aval.shape == aval.shape else ctx.broadcast_in_dim(key, aval.shape, ())

        parity = binary("xor", binary("xor", k0, k1), ctx.constant(_PARITY, k0.aval))
        x0 = binary("add", x0, spread(k0))
        x1 = binary("add", x1, spread(k1))
        rotations = [ctx.constant(np.array(r, np.uint32), rotations_aval) for r in _ROTATIONS]
        # Carry: group, x0, x1, the next three key words (rotated each group)
        # and the two rotation schedules (swapped each group).
        carry = (ctx.scalar(0, np.dtype(np.int32)), x0, x1, k1, parity, k0, *rotations)
        avals = tuple(v.aval for v in carry)
        with ctx.region(avals) as (block, cond_text):
            ctx.ret([ctx.compare(block[0], ctx.scalar(_GROUPS, np.dtype(np.int32)), "LT")])
        with ctx.region(avals) as (block, body_text):
            group, y0, y1, ka, kb, kc, rot, other = block
            for j in range(4):
                word = ctx.op1("stablehlo.slice", (rot,), one_word, {
                    "start_indices": i64_array([j]), "limit_indices": i64_array([j + 1]), "strides": i64_array([1]),
                })  # fmt: skip
                back = binary("subtract", ctx.constant(32, one_word), word)
                r, r_back = (ctx.broadcast_in_dim(ctx.op1("stablehlo.reshape", (w,), u32), aval.shape, ()) for w in (word, back))
                y0 = binary("add", y0, y1)
                y1 = binary("xor", binary("or", binary("shift_left", y1, r), binary("shift_right_logical", y1, r_back)), y0)
            next_group = binary("add", group, ctx.scalar(1, np.dtype(np.int32)))
            y0 = binary("add", y0, spread(ka))
            step = ctx.broadcast_in_dim(ctx.convert(next_group, _UINT32), aval.shape, ())
            y1 = binary("add", binary("add", y1, spread(kb)), step)
            ctx.ret([next_group, y0, y1, kb, kc, ka, other, rot])
        outs = ctx.op("stablehlo.while", carry, avals, regions=[cond_text[0], body_text[0]])
        return (outs[1], outs[2])


_THREEFRY: Final = Threefry2x32()


def threefry2x32(k0: ArrayLike, k1: ArrayLike, x0: ArrayLike, x1: ArrayLike) -> tuple[Array, Array]:
    """Threefry-2x32 of counters ``(x0, x1)`` under keys ``(k0, k1)``:
    ``uint32`` arrays broadcast together; returns ``(y0, y1)``."""
    arrays = [
        as_operand(x, f"threefry2x32 {name}") for x, name in zip((k0, k1, x0, x1), ("k0", "k1", "x0", "x1"))
    ]
    if any(a.dtype != _UINT32 for a in arrays):
        shown = ", ".join(repr(a.dtype) for a in arrays)
        raise JaxtypedTypeError(f"threefry_2x32 requires uint32 arguments, got [{shown}]")
    try:
        shape = np.broadcast_shapes(*(a.shape for a in arrays))
    except ValueError:
        shown = ", ".join(str(a.shape) for a in arrays)
        raise JaxtypedValueError(f"threefry2x32: operand shapes {shown} do not broadcast") from None
    def full(a: Array) -> Array:
        return a if a.shape == shape else broadcast_in_dim(a, shape, tuple(range(len(shape) - a.ndim, len(shape))))

    k0_, k1_, x0_, x1_ = arrays
    # Scalar keys stay scalars: one key for every counter.
    keys = (k0_, k1_) if k0_.ndim == 0 and k1_.ndim == 0 else (full(k0_), full(k1_))
    y0, y1 = bind(_THREEFRY, *keys, full(x0_), full(x1_))
    return y0, y1


def threefry_2x32(keypair: tuple[ArrayLike, ArrayLike] | ArrayLike, count: ArrayLike) -> Array:
    """Hash a ``uint32`` array ``count`` under the key pair ``keypair`` (two
    ``uint32`` scalars, or a ``uint32[2]`` array), JEP 15856's
    ``jax.extend.random.threefry_2x32``: the flattened counts (padded to even
    length) are split in halves that are hashed as ``(x0, x1)``; the result
    has ``count``'s shape."""
    if isinstance(keypair, tuple):
        k0 = as_operand(keypair[0], "threefry_2x32 keypair[0]")
        k1 = as_operand(keypair[1], "threefry_2x32 keypair[1]")
    else:
        pair = as_operand(keypair, "threefry_2x32 keypair")
        if pair.shape != (2,):
            raise JaxtypedValueError(f"threefry_2x32: keypair must be a pair, got shape {pair.shape}")
        k0, k1 = (reshape(slice_in_dim(pair, i, i + 1), ()) for i in (0, 1))
    counts = as_operand(count, "threefry_2x32 count")
    if any(a.dtype != _UINT32 for a in (k0, k1, counts)):
        shown = ", ".join(repr(a.dtype) for a in (k0, k1, counts))
        raise JaxtypedTypeError(f"threefry_2x32 requires uint32 arguments, got [{shown}]")
    if k0.shape != () or k1.shape != ():
        raise JaxtypedValueError(
            f"threefry_2x32: keypair must be two scalars, got shapes {k0.shape} and {k1.shape}"
        )
    size = counts.size
    if size == 0:
        return counts
    flat = reshape(counts, (size,))
    odd = size % 2
    if odd:
        flat = pad(flat, np.uint32(0), ((0, 1, 0),))
    half = (size + odd) // 2
    y0, y1 = threefry2x32(k0, k1, slice_in_dim(flat, 0, half), slice_in_dim(flat, half, 2 * half))
    out = concatenate((y0, y1), 0)
    if odd:
        out = slice_in_dim(out, 0, size)
    return reshape(out, counts.shape)
