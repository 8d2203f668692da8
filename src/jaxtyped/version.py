"""JAX's ``jax.version`` module: the package's version string."""

from jaxtyped._src.version import __version__ as __version__

__all__ = ["__version__"]
