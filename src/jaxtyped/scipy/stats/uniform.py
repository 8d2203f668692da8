"""The uniform distribution on ``[loc, loc + scale]`` (JAX's
``jax.scipy.stats.uniform``).

Example:
    >>> import jaxtyped.scipy.stats.uniform as uniform
    >>> uniform.cdf(0.5).dtype
    dtype('float32')
"""

from jaxtyped._src.scipy.stats.uniform import cdf, logpdf, pdf, ppf

__all__ = ["cdf", "logpdf", "pdf", "ppf"]
