"""Testing helpers (JAX's ``jax.test_util``)."""

from jaxtyped._src.test_util import check_grads

__all__ = ["check_grads"]
