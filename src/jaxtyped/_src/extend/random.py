"""Custom PRNG implementations (JAX's ``jax.extend.random``):
:class:`PRNGImpl`, :func:`define_prng_impl`, :func:`random_wrap` and
:func:`random_unwrap`.

A custom implementation is a set of functions over one key's ``uint32``
data; ``jt.random.key(seed, impl=my_impl)`` makes typed keys (dtype
``key<tag>``) that carry it, and ``split``, ``fold_in`` and every sampler
(through ``random_bits``) call its functions. Key data must be ``uint32``
with ``key_shape`` of one axis.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import final

from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.random.keys import ImplSpec, KeyArray, key_data, wrap_key_data

__all__ = ["PRNGImpl", "define_prng_impl", "random_wrap", "random_unwrap"]


@final
@dataclass(frozen=True, eq=False)
class PRNGImpl:
    """A PRNG implementation: functions over the ``uint32[*key_shape]``
    data of one key (compared by identity).

    Attributes:
        key_shape: the shape of one key's data (one axis).
        seed: ``seed(seed: int array) -> key data``.
        split: ``split(key data, shape) -> data of shape new keys``.
        random_bits: ``random_bits(key data, bit_width, shape) ->
            uint{bit_width} array``.
        fold_in: ``fold_in(key data, uint32 word) -> key data``.
        name: the implementation's name (``jt.random.key_impl``).
        tag: the short name in the dtype, ``key<tag>``.
    """

    key_shape: tuple[int, ...]
    seed: Callable[[Array], Array]
    split: Callable[[Array, tuple[int, ...]], Array]
    random_bits: Callable[[Array, int, tuple[int, ...]], Array]
    fold_in: Callable[[Array, Array], Array]
    name: str = "<unnamed>"
    tag: str = "?"

    def __post_init__(self) -> None:
        if len(self.key_shape) != 1 or self.key_shape[0] < 1:
            raise JaxtypedValueError(
                f"PRNGImpl {self.name}: key_shape must have one positive axis, got {self.key_shape}"
            )

    def __repr__(self) -> str:
        return f"PRNGImpl({self.name})"


def define_prng_impl(
    *,
    key_shape: tuple[int, ...],
    seed: Callable[[Array], Array],
    split: Callable[[Array, tuple[int, ...]], Array],
    random_bits: Callable[[Array, int, tuple[int, ...]], Array],
    fold_in: Callable[[Array, Array], Array],
    name: str = "<unnamed>",
    tag: str = "?",
) -> PRNGImpl:
    """A new PRNG implementation, usable as ``jt.random.key(seed,
    impl=...)`` (JAX's ``jax.extend.random.define_prng_impl``)."""
    return PRNGImpl(tuple(int(d) for d in key_shape), seed, split, random_bits, fold_in, name, tag)


def random_wrap(base_arr: ArrayLike, *, impl: ImplSpec) -> KeyArray:
    """Typed keys over ``uint32[*shape, *key_shape]`` data of ``impl``."""
    return wrap_key_data(base_arr, impl=impl)


def random_unwrap(keys: Array) -> Array:
    """The ``uint32`` data under typed keys."""
    if not isinstance(keys, KeyArray):
        raise JaxtypedTypeError(f"random_unwrap takes typed PRNG keys, got an array of dtype {keys.dtype}")
    return key_data(keys)
