"""The Bernoulli distribution with success probability ``p`` (JAX's
``jax.scipy.stats.bernoulli``).

Example:
    >>> import jaxtyped.scipy.stats.bernoulli as bernoulli
    >>> bernoulli.pmf(1, 0.5).dtype
    dtype('float32')
"""

from jaxtyped._src.scipy.stats.bernoulli import cdf, logpmf, pmf, ppf

__all__ = ["cdf", "logpmf", "pmf", "ppf"]
