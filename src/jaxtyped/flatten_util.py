"""JAX's ``jax.flatten_util``: :func:`ravel_pytree` turns a pytree of arrays
into one flat vector and gives back the function that rebuilds the tree
(for optimizers and solvers written over vectors)."""

from jaxtyped._src.api_flatten_util import ravel_pytree

__all__ = ["ravel_pytree"]
