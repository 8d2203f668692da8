"""The binomial distribution with ``n`` trials of success probability ``p``
(JAX's ``jax.scipy.stats.binom``).

Example:
    >>> import jaxtyped.scipy.stats.binom as binom
    >>> binom.pmf(1, 4, 0.5).dtype
    dtype('float32')
"""

from jaxtyped._src.scipy.stats.binom import logpmf, pmf

__all__ = ["logpmf", "pmf"]
