"""The left-skewed Gumbel distribution (of the minimum; JAX's
``jax.scipy.stats.gumbel_l``): CDF ``1 - exp(-exp(z))``, ``z = (x - loc)/scale``.
Every function is NaN for a non-positive ``scale``.

Example:
    >>> import jaxtyped.scipy.stats.gumbel_l as gumbel_l
    >>> gumbel_l.cdf(0.5).dtype
    dtype('float32')
"""

from jaxtyped._src.scipy.stats.gumbel_l import cdf, logcdf, logpdf, logsf, pdf, ppf, sf

__all__ = ["cdf", "logcdf", "logpdf", "logsf", "pdf", "ppf", "sf"]
