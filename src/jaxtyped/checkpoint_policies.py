"""Policies for ``jaxtyped.checkpoint`` (JAX's ``jax.checkpoint_policies``).

Skeleton: being implemented.
"""

__all__: list[str] = []
