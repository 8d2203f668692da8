"""Segment reductions (JAX's ``jax.ops``).

``segment_sum(data, segment_ids, num_segments=None, ...)`` adds the rows of
``data`` (along its leading axis) that share a segment id; ``segment_max``,
``segment_min`` and ``segment_prod`` reduce them with their own combiner.
The result has ``num_segments`` rows, of ``data``'s dtype; an empty segment
holds the combiner's identity (0, ``-inf``, ``inf``, 1), and ids outside
``[0, num_segments)`` are dropped unless ``mode`` says otherwise.
``num_segments`` defaults to ``max(segment_ids) + 1``, so under ``jit`` it
must be given (a static int).

Example:
    >>> import jaxtyped.numpy as jnp
    >>> from jaxtyped import ops
    >>> ops.segment_sum(jnp.arange(5), jnp.array([0, 0, 1, 1, 2]))
    Array([1, 5, 4], dtype=int32)
"""

from jaxtyped._src.ops import segment_max, segment_min, segment_prod, segment_sum

__all__ = ["segment_max", "segment_min", "segment_prod", "segment_sum"]
