"""The exponential distribution starting at ``loc`` with mean ``scale``
(JAX's ``jax.scipy.stats.expon``).

Example:
    >>> import jaxtyped.scipy.stats.expon as expon
    >>> expon.cdf(0.5).dtype
    dtype('float32')
"""

from jaxtyped._src.scipy.stats.expon import cdf, logcdf, logpdf, logsf, pdf, ppf, sf

__all__ = ["cdf", "logcdf", "logpdf", "logsf", "pdf", "ppf", "sf"]
