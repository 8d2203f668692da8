"""The multinomial distribution of counts ``x`` (last axis) over ``n``
trials with category probabilities ``p`` (JAX's
``jax.scipy.stats.multinomial``).

Example:
    >>> import jaxtyped.scipy.stats.multinomial as multinomial
    >>> import jaxtyped.numpy as jnp
    >>> multinomial.pmf(jnp.array([1, 2]), 3, jnp.array([0.5, 0.5])).dtype
    dtype('float32')
"""

from jaxtyped._src.scipy.stats.multinomial import logpmf, pmf

__all__ = ["logpmf", "pmf"]
