"""SciPy-style linear algebra (JAX's ``jax.scipy.linalg``)."""

__all__: list[str] = []
