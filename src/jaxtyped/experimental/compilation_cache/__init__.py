"""JAX's ``jax.experimental.compilation_cache`` package: its functions are in
:mod:`jaxtyped.experimental.compilation_cache.compilation_cache`."""
