"""The normal distribution (JAX's ``jax.scipy.stats.norm``).

Example:
    >>> import jaxtyped.scipy.stats.norm as norm
    >>> norm.cdf(0.0)
    Array(0.5, dtype=float32)
"""

from jaxtyped._src.scipy.norm import cdf, isf, logcdf, logpdf, logsf, pdf, ppf, sf

__all__ = ["cdf", "isf", "logcdf", "logpdf", "logsf", "pdf", "ppf", "sf"]
