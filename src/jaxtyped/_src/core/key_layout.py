"""Functions that only move elements, applied to typed PRNG key arrays (layer L1).

JAX lets ``jnp.stack``, ``jnp.concatenate``, ``jnp.where``, ``jnp.reshape``,
``lax.select``, ``lax.dynamic_slice`` and the other functions that only move
elements work on key arrays. This module lets those functions (in lax and
jaxtyped.numpy) hand key operands to their owner without importing
``jaxtyped.random`` (a higher layer): an operand whose
type has a ``map_key_layout`` class method is a key array, and the function
is re-run by that method on integer positions standing for the keys (so
every argument check and error is the numeric one), whose result says where
each output key comes from.
"""

from collections.abc import Callable, Sequence
from typing import cast

from jaxtyped._src.core.array import Array

__all__ = ["is_key_array", "key_dispatch", "key_dispatch2", "key_dispatch_seq"]


def is_key_array(operand: object) -> bool:
    """Whether ``operand`` is a typed PRNG key array (by the convention above)."""
    return isinstance(operand, Array) and hasattr(type(operand), "map_key_layout")


def _dispatch(fn: Callable[..., Array], operands: Sequence[object]) -> Array | None:
    for operand in operands:
        if is_key_array(operand):
            mapped: Array = getattr(type(operand), "map_key_layout")(fn, operands)
            return mapped
    return None


def key_dispatch(fn: Callable[[Array], Array], operand: object) -> Array | None:
    """``fn(operand)`` computed by the key-array class when ``operand`` is a
    key array; ``None`` otherwise (the caller computes on numbers)."""
    return _dispatch(fn, (operand,))


def key_dispatch2(fn: Callable[[Array, Array], Array], first: object, second: object) -> Array | None:
    """:func:`key_dispatch` for two operands (both must then be keys)."""
    return _dispatch(fn, (first, second))


def key_dispatch_seq(fn: Callable[[Sequence[Array]], Array], operands: object) -> Array | None:
    """:func:`key_dispatch` for a list or tuple of operands (all must then be
    keys); anything else is left to the caller."""
    if not isinstance(operands, (list, tuple)):
        return None
    items = tuple(cast(Sequence[object], operands))
    return _dispatch(lambda *parts: fn(parts), items)
