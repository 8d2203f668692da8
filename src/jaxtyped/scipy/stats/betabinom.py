"""The beta-binomial distribution with ``n`` trials and shapes ``a``, ``b``
(JAX's ``jax.scipy.stats.betabinom``).

Example:
    >>> import jaxtyped.scipy.stats.betabinom as betabinom
    >>> betabinom.pmf(1, 4, 2.0, 3.0).dtype
    dtype('float32')
"""

from jaxtyped._src.scipy.stats.betabinom import logpmf, pmf

__all__ = ["logpmf", "pmf"]
