"""The Cauchy distribution (JAX's ``jax.scipy.stats.cauchy``).

Example:
    >>> import jaxtyped.scipy.stats.cauchy as cauchy
    >>> cauchy.cdf(0.5).dtype
    dtype('float32')
"""

from jaxtyped._src.scipy.stats.cauchy import cdf, isf, logcdf, logpdf, logsf, pdf, ppf, sf

__all__ = ["cdf", "isf", "logcdf", "logpdf", "logsf", "pdf", "ppf", "sf"]
