"""SciPy-style functions (JAX's ``jax.scipy``): import the submodules
explicitly, ``import jaxtyped.scipy.special`` and
``import jaxtyped.scipy.stats.norm``."""
