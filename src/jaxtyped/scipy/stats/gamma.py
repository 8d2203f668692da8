"""The gamma distribution with shape ``a`` (JAX's ``jax.scipy.stats.gamma``).

Example:
    >>> import jaxtyped.scipy.stats.gamma as gamma
    >>> gamma.cdf(0.5, 2.0).dtype
    dtype('float32')
"""

from jaxtyped._src.scipy.stats.gamma import cdf, logcdf, logpdf, logsf, pdf, sf

__all__ = ["cdf", "logcdf", "logpdf", "logsf", "pdf", "sf"]
