"""The negative binomial distribution (failures before the ``n``-th
success of probability ``p``; JAX's ``jax.scipy.stats.nbinom``).

Example:
    >>> import jaxtyped.scipy.stats.nbinom as nbinom
    >>> nbinom.pmf(2, 3, 0.5).dtype
    dtype('float32')
"""

from jaxtyped._src.scipy.stats.nbinom import logpmf, pmf

__all__ = ["logpmf", "pmf"]
