"""The exponential distribution starting at ``loc`` with mean ``scale``
(JAX's ``jax.scipy.stats.expon``)."""

from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.promotion import promote_args_inexact

__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf", "ppf"]


def logpdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``-(x - loc)/scale - log(scale)`` from ``loc`` on, ``-inf`` below."""
    v, lo, s = promote_args_inexact("expon.logpdf", x, loc, scale)
    value = ju.negative(ju.add(ju.divide(ju.subtract(v, lo), s), ju.log(s)))
    return ju.where(ju.less(v, lo), -float("inf"), value)


def pdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The density."""
    return ju.exp(logpdf(x, loc, scale))


def logsf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The log survival function ``-(x - loc)/scale`` (``0`` below ``loc``)."""
    v, lo, s = promote_args_inexact("expon.sf", x, loc, scale)
    scaled = ju.divide(ju.subtract(lo, v), s)
    return ju.where(ju.less(v, lo), 0.0, scaled)


def sf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The survival function ``1 - cdf``."""
    return ju.exp(logsf(x, loc, scale))


def cdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``1 - exp(-(x - loc)/scale)``, computed with ``expm1``; ``0`` below ``loc``."""
    v, lo, s = promote_args_inexact("expon.cdf", x, loc, scale)
    scaled = ju.divide(ju.subtract(lo, v), s)
    return ju.where(ju.less(v, lo), 0.0, ju.negative(ju.expm1(scaled)))


def logcdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The log of the CDF, ``log1p(-sf)``."""
    return ju.log1p(ju.negative(sf(x, loc, scale)))


def ppf(q: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The quantile ``loc - scale * log1p(-q)``; NaN for ``q`` outside ``[0, 1]``."""
    p, lo, s = promote_args_inexact("expon.ppf", q, loc, scale)
    invalid = ju.logical_or(ju.isnan(p), ju.logical_or(ju.less(p, 0), ju.greater(p, 1)))
    return ju.where(invalid, float("nan"), ju.subtract(lo, ju.multiply(s, ju.log1p(ju.negative(p)))))
