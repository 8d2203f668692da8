"""Batching rules for extension primitives, in JAX's form.

``primitive_batchers[p] = rule`` with ``rule(batched_args, batch_dims,
**params) -> (out, out_dim)``; a batch dimension is an int, or
``not_mapped`` (``None``) for an operand without the batch axis.
"""

from typing import Final

from jaxtyped._src.extend.primitive import primitive_batchers as primitive_batchers
from jaxtyped._src.extend.rules import defbroadcasting as defbroadcasting
from jaxtyped._src.extend.rules import defvectorized as defvectorized

__all__ = ["primitive_batchers", "defvectorized", "defbroadcasting", "not_mapped"]

not_mapped: Final = None
"""The batch dimension of an operand that is not batched."""
