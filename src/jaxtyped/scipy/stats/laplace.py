"""The Laplace (double exponential) distribution (JAX's
``jax.scipy.stats.laplace``).

Example:
    >>> import jaxtyped.scipy.stats.laplace as laplace
    >>> laplace.cdf(0.5).dtype
    dtype('float32')
"""

from jaxtyped._src.scipy.stats.laplace import cdf, logpdf, pdf

__all__ = ["cdf", "logpdf", "pdf"]
