"""The chi-squared distribution with ``df`` degrees of freedom (JAX's
``jax.scipy.stats.chi2``).

Example:
    >>> import jaxtyped.scipy.stats.chi2 as chi2
    >>> chi2.cdf(1.5, 3.0).dtype
    dtype('float32')
"""

from jaxtyped._src.scipy.stats.chi2 import cdf, logcdf, logpdf, logsf, pdf, sf

__all__ = ["cdf", "logcdf", "logpdf", "logsf", "pdf", "sf"]
