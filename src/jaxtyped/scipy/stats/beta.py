"""The beta distribution with shapes ``a`` and ``b`` on ``[loc, loc + scale]``
(JAX's ``jax.scipy.stats.beta``).

Example:
    >>> import jaxtyped.scipy.stats.beta as beta
    >>> beta.cdf(0.5, 2.0, 3.0).dtype
    dtype('float32')
"""

from jaxtyped._src.scipy.stats.beta import cdf, logcdf, logpdf, logsf, pdf, sf

__all__ = ["cdf", "logcdf", "logpdf", "logsf", "pdf", "sf"]
