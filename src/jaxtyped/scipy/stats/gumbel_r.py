"""The right-skewed Gumbel distribution (of the maximum; JAX's
``jax.scipy.stats.gumbel_r``): CDF ``exp(-exp(-z))``, ``z = (x - loc)/scale``.
Every function but ``ppf`` is NaN for a non-positive ``scale``.

Example:
    >>> import jaxtyped.scipy.stats.gumbel_r as gumbel_r
    >>> gumbel_r.cdf(0.5).dtype
    dtype('float32')
"""

from jaxtyped._src.scipy.stats.gumbel_r import cdf, logcdf, logpdf, logsf, pdf, ppf, sf

__all__ = ["cdf", "logcdf", "logpdf", "logsf", "pdf", "ppf", "sf"]
