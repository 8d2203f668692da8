"""JAX's ``jax.experimental.pjit``: ``pjit``, deprecated in JAX in favour of
``jit`` and the same function. Calling it warns (``DeprecationWarning``),
as accessing it does in JAX."""

from jaxtyped._src.api_pjit import pjit

__all__ = ["pjit"]
