"""Rule registries for extension primitives, in JAX's form
(``jax.extend.interpreters``): ``ad``, ``batching`` and ``mlir``."""

from jaxtyped.extend.interpreters import ad as ad
from jaxtyped.extend.interpreters import batching as batching
from jaxtyped.extend.interpreters import mlir as mlir

__all__ = ["ad", "batching", "mlir"]
