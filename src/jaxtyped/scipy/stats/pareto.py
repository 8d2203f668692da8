"""The Pareto distribution with shape ``b`` on ``[loc + scale, inf)`` (JAX's
``jax.scipy.stats.pareto``): survival function ``y**-b``, ``y = (x - loc)/scale``.

Example:
    >>> import jaxtyped.scipy.stats.pareto as pareto
    >>> pareto.cdf(2.0, 3.0).dtype
    dtype('float32')
"""

from jaxtyped._src.scipy.stats.pareto import cdf, logcdf, logpdf, logsf, pdf, ppf, sf

__all__ = ["cdf", "logcdf", "logpdf", "logsf", "pdf", "ppf", "sf"]
