"""``rng_bit_generator``: XLA's stateless bit generator, JAX's
``lax.rng_bit_generator`` (layer L4).

The key is a ``uint32[4]`` (the form JAX uses, so no 64-bit type is needed
with x64 off) or a ``uint64[2]``; the result is the next key, of the key's
type, and random bits of the asked shape and unsigned dtype. The lowering
is XLA's ``RngBitGenerator`` op (a ``uint32[4]`` key is bitcast to the
``uint64[2]`` the op takes, and back), so the bits are exactly JAX's on the
same platform and algorithm. Eagerly the one-op program is compiled and run.

JAX has no batching rule for the primitive; here ``vmap`` maps the bit
generator over the batch of keys (a ``scan`` of one generation per key),
which gives each key's own bits.
"""

import enum
from dataclasses import dataclass
from typing import Final, final

import numpy as np
from typing_extensions import override

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.avals import BatchAxis, BatchDim, ShapedArray
from jaxtyped._src.core.hlo import HloValue, LoweringContext
from jaxtyped._src.core.interpreter import bind
from jaxtyped._src.core.primitive import Tangent
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.lax.linalg.base import DeviceEvaluated
from jaxtyped._src.lax.structural import moveaxis
from jaxtyped._src.lax.util import check_arity, as_operand, short_types, zero_tangents

__all__ = ["RandomAlgorithm", "RngBitGenerator", "rng_bit_generator"]

_UINT32: Final = np.dtype(np.uint32)
_UINT64: Final = np.dtype(np.uint64)
_BIT_DTYPES: Final = frozenset(np.dtype(t) for t in (np.uint8, np.uint16, np.uint32, np.uint64))


class RandomAlgorithm(enum.IntEnum):
    """The algorithm of :func:`rng_bit_generator` (JAX's ``lax.RandomAlgorithm``)."""

    RNG_DEFAULT = 0
    """The platform's default algorithm."""
    RNG_THREE_FRY = 1
    """Threefry-2x32."""
    RNG_PHILOX = 2
    """Philox-4x32."""

    def __str__(self) -> str:
        return self.name


_ALGORITHM_TEXT: Final = {
    RandomAlgorithm.RNG_DEFAULT: "DEFAULT",
    RandomAlgorithm.RNG_THREE_FRY: "THREE_FRY",
    RandomAlgorithm.RNG_PHILOX: "PHILOX",
}


@final
@dataclass(frozen=True, slots=True)
class RngBitGenerator(DeviceEvaluated):
    """``(new_key, bits)`` from ``key`` (``uint32[4]`` or ``uint64[2]``):
    ``bits`` of ``shape`` and the unsigned ``dtype``, by ``algorithm``."""

    shape: tuple[int, ...]
    dtype: np.dtype[np.unsignedinteger]
    algorithm: RandomAlgorithm = RandomAlgorithm.RNG_DEFAULT

    name = "rng_bit_generator"
    several_results = True

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        check_arity(self.name, avals, 1)
        (key,) = avals
        if (key.shape, key.dtype) not in (((4,), _UINT32), ((2,), _UINT64)):
            raise JaxtypedTypeError(
                f"rng_bit_generator: the key must be uint32[4] or uint64[2], got {short_types(avals)}"
            )
        return (ShapedArray(key.shape, key.dtype, False), ShapedArray(self.shape, self.dtype, False))

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        # Integer outputs: float0 zero tangents, as JAX gives integer outputs.
        outs = bind(self, *primals)
        return outs, zero_tangents(outs)

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        # One generation per key of the batch (the op takes one key).
        from jaxtyped._src.lax.control_flow.scan import map as lax_map  # noqa: PLC0415  # control flow imports lax ops

        keys = moveaxis(args[0], dims[0], 0) if dims[0] is not None else args[0]

        def one(key: Array) -> tuple[Array, Array]:
            new_key, bits = bind(self, key)
            return new_key, bits

        new_keys, bits = lax_map(one, keys)
        return (new_keys, bits), (0, 0)

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        (key,) = args
        key_pair = ShapedArray((2,), _UINT64)
        if key.aval.dtype == _UINT32:  # uint32[4] -> uint64[2]: two words per 64-bit half
            words = ctx.op1("stablehlo.reshape", (key,), ShapedArray((2, 2), _UINT32))
            key = ctx.op1("stablehlo.bitcast_convert", (words,), key_pair)
        new_key, bits = ctx.op(
            "stablehlo.rng_bit_generator",
            (key,),
            (key_pair, out_avals[1]),
            {"rng_algorithm": f"#stablehlo<rng_algorithm {_ALGORITHM_TEXT[self.algorithm]}>"},
        )
        if out_avals[0].dtype == _UINT32:
            words = ctx.op1("stablehlo.bitcast_convert", (new_key,), ShapedArray((2, 2), _UINT32))
            new_key = ctx.op1("stablehlo.reshape", (words,), out_avals[0])
        return (new_key, bits)


def rng_bit_generator(
    key: ArrayLike,
    shape: tuple[int, ...] | list[int],
    dtype: "dtypes.DTypeLike" = np.uint32,
    algorithm: RandomAlgorithm = RandomAlgorithm.RNG_DEFAULT,
    *,
    out_sharding: None = None,
) -> tuple[Array, Array]:
    """XLA's stateless random bit generator (JAX's ``lax.rng_bit_generator``):
    ``(new_key, bits)``, ``bits`` of ``shape`` and the unsigned ``dtype``,
    from ``key`` (``uint32[4]``, or ``uint64[2]``). The bits are XLA's, so
    they equal JAX's for the same key, algorithm and platform. JAX
    discourages its direct use; ``jaxtyped.random`` is the stable API.

    Raises:
        JaxtypedTypeError: ``dtype`` is not an unsigned integer type, the key
            is not ``uint32[4]`` or ``uint64[2]``, or ``shape`` holds
            something other than non-negative ints.
        JaxtypedValueError: ``algorithm`` is not one of ``RandomAlgorithm``.
    """
    del out_sharding  # one device: nothing to lay out
    dims = tuple(shape)
    if any(type(d) is not int and not isinstance(d, np.integer) for d in dims) or any(int(d) < 0 for d in dims):
        raise JaxtypedTypeError(f"rng_bit_generator: shape must be a tuple of non-negative ints, got {shape!r}")
    bits_dtype = dtypes.canonicalize_dtype(dtype)
    if np.dtype(dtype) not in _BIT_DTYPES:
        raise JaxtypedTypeError(f"rng_bit_generator: unsupported dtype {np.dtype(dtype)}")
    try:
        chosen = RandomAlgorithm(algorithm)  # an int of the enum works too, as in JAX
    except ValueError:
        raise JaxtypedValueError(f"rng_bit_generator: algorithm must be a lax.RandomAlgorithm, got {algorithm!r}") from None
    key_array = as_operand(key, "rng_bit_generator key")
    new_key, bits = bind(RngBitGenerator(tuple(int(d) for d in dims), bits_dtype, chosen), key_array)
    return new_key, bits
