"""The generalized normal distribution with shape ``beta`` (JAX's
``jax.scipy.stats.gennorm``): density ``beta/(2 Gamma(1/beta)) exp(-|x|^beta)``.

Example:
    >>> import jaxtyped.scipy.stats.gennorm as gennorm
    >>> gennorm.cdf(0.5, 2.0).dtype
    dtype('float32')
"""

from jaxtyped._src.scipy.stats.gennorm import cdf, logpdf, pdf

__all__ = ["cdf", "logpdf", "pdf"]
