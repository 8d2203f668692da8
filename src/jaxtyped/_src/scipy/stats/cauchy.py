"""The Cauchy distribution (JAX's ``jax.scipy.stats.cauchy``)."""

import math

from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.promotion import promote_args_inexact

__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf", "ppf", "isf"]


def logpdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``-log(pi scale) - log1p(z**2)`` for ``z = (x - loc)/scale``."""
    v, mu, s = promote_args_inexact("cauchy.logpdf", x, loc, scale)
    z = ju.divide(ju.subtract(v, mu), s)
    return ju.negative(ju.add(ju.log(ju.multiply(math.pi, s)), ju.log1p(ju.multiply(z, z))))


def pdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The density."""
    return ju.exp(logpdf(x, loc, scale))


def cdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``1/2 + arctan(z)/pi``."""
    v, mu, s = promote_args_inexact("cauchy.cdf", x, loc, scale)
    return ju.add(0.5, ju.multiply(ju.divide(1.0, math.pi), ju.arctan(ju.divide(ju.subtract(v, mu), s))))


def logcdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The log of the CDF."""
    return ju.log(cdf(x, loc, scale))


def sf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The survival function, the CDF reflected about ``loc``."""
    v, mu, s = promote_args_inexact("cauchy.sf", x, loc, scale)
    return cdf(ju.negative(v), ju.negative(mu), s)


def logsf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The log of the survival function."""
    v, mu, s = promote_args_inexact("cauchy.logsf", x, loc, scale)
    return logcdf(ju.negative(v), ju.negative(mu), s)


def ppf(q: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The quantile ``loc + scale * tan(pi q - pi/2)``."""
    p, mu, s = promote_args_inexact("cauchy.ppf", q, loc, scale)
    return ju.add(ju.multiply(ju.tan(ju.subtract(ju.multiply(math.pi, p), math.pi / 2)), s), mu)


def isf(q: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The inverse survival function ``loc + scale * tan(pi/2 - pi q)``."""
    p, mu, s = promote_args_inexact("cauchy.isf", q, loc, scale)
    return ju.add(ju.multiply(ju.tan(ju.subtract(math.pi / 2, ju.multiply(math.pi, p))), s), mu)
