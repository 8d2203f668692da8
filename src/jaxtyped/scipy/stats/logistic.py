"""The logistic distribution (JAX's ``jax.scipy.stats.logistic``).

Example:
    >>> import jaxtyped.scipy.stats.logistic as logistic
    >>> logistic.cdf(0.5).dtype
    dtype('float32')
"""

from jaxtyped._src.scipy.stats.logistic import cdf, isf, logpdf, pdf, ppf, sf

__all__ = ["cdf", "isf", "logpdf", "pdf", "ppf", "sf"]
