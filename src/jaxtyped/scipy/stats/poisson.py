"""The Poisson distribution with mean ``mu`` (JAX's
``jax.scipy.stats.poisson``; ``entropy`` is not implemented).

Example:
    >>> import jaxtyped.scipy.stats.poisson as poisson
    >>> poisson.pmf(1, 2.0).dtype
    dtype('float32')
"""

from jaxtyped._src.scipy.stats.poisson import cdf, logpmf, pmf

__all__ = ["cdf", "logpmf", "pmf"]
