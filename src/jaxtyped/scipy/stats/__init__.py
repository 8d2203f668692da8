"""Statistical distributions (JAX's ``jax.scipy.stats``): ``norm``."""

from jaxtyped.scipy.stats import norm

__all__ = ["norm"]
