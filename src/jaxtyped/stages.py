"""The stages of a jitted function (JAX's ``jax.stages``): ``jit(f)`` is a
:class:`Wrapped`; ``.trace(...)`` gives a :class:`Traced`, ``.lower()`` a
:class:`Lowered`, ``.compile()`` a :class:`Compiled`. Each stage is generic
in the function's parameters and result, so a :class:`Compiled` is called
(and type-checked) as ``f`` is; ``Traced.out_info`` is an :data:`OutInfo`.
Import these names to annotate your own code.

Example:
    >>> import jaxtyped as jt, jaxtyped.numpy as jnp
    >>> from jaxtyped.stages import Compiled
    >>> from jaxtyped.typing import Array
    >>> def scale(x: Array, factor: float) -> Array:
    ...     return x * factor
    >>> compiled: Compiled[[Array, float], Array] = jt.jit(scale).lower(jnp.ones(2), 3.0).compile()
    >>> compiled(jnp.ones(2), 4.0)
    Array([4., 4.], dtype=float32)
    >>> jt.jit(scale).trace(jnp.ones(2), 3.0).out_info
    ShapeDtypeStruct(shape=(2,), dtype=float32)
"""

from typing_extensions import ParamSpec, TypeAlias, TypeVar

from jaxtyped._src.api_jit import CacheInfo, Compiled, Jitted, Lowered, OutInfo, Traced

_P = ParamSpec("_P")
_R = TypeVar("_R")

Wrapped: TypeAlias = Jitted[_P, _R]
"""JAX's name for what ``jit`` returns."""

__all__ = ["CacheInfo", "Compiled", "Jitted", "Lowered", "OutInfo", "Traced", "Wrapped"]
