"""The normal distribution truncated to ``[a, b]`` (in standard units:
the bounds of ``(x - loc)/scale``; JAX's ``jax.scipy.stats.truncnorm``).
Every function is NaN for ``a >= b``.

Example:
    >>> import jaxtyped.scipy.stats.truncnorm as truncnorm
    >>> truncnorm.cdf(0.5, -1.0, 1.0).dtype
    dtype('float32')
"""

from jaxtyped._src.scipy.stats.truncnorm import cdf, logcdf, logpdf, logsf, pdf, sf

__all__ = ["cdf", "logcdf", "logpdf", "logsf", "pdf", "sf"]
