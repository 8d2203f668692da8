"""Linear algebra with JAX's ``jax.numpy.linalg`` names, signatures and
semantics."""

__all__: list[str] = []
