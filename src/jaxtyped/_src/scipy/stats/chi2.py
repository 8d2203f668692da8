"""The chi-squared distribution with ``df`` degrees of freedom (JAX's
``jax.scipy.stats.chi2``)."""

import math

from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.lax.elementwise_extra import clamp
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.promotion import promote_args_inexact
from jaxtyped._src.scipy.special import gammainc, gammaincc, gammaln, xlogy
from jaxtyped._src.scipy.stats._util import outside, standardize

__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf"]


def logpdf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``(df/2 - 1) log y - y/2 - gammaln(df/2) - (df/2) log 2 - log(scale)``
    for ``y = (x - loc)/scale >= 0``, ``-inf`` below ``loc``. At ``y = 0``
    with ``df = 2`` this is ``-log(2 scale)`` (JAX gives NaN there)."""
    v, k, lo, s = promote_args_inexact("chi2.logpdf", x, df, loc, scale)
    y = standardize(v, lo, s)
    half = ju.divide(k, 2.0)
    kernel = ju.subtract(xlogy(ju.subtract(half, 1.0), y), ju.divide(y, 2.0))
    log_norm = ju.negative(ju.add(gammaln(half), ju.divide(ju.multiply(math.log(2.0), k), 2.0)))
    return outside(ju.less(v, lo), ju.add(ju.subtract(log_norm, ju.log(s)), kernel))


def pdf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The density."""
    return ju.exp(logpdf(x, df, loc, scale))


def _half(name: str, x: ArrayLike, df: ArrayLike, loc: ArrayLike, scale: ArrayLike) -> tuple[Array, Array]:
    """``df/2`` and ``(x - loc)/(2 scale)`` clamped at 0."""
    v, k, lo, s = promote_args_inexact(name, x, df, loc, scale)
    return ju.divide(k, 2.0), clamp(0.0, ju.divide(ju.subtract(v, lo), ju.multiply(s, 2.0)), math.inf)


def cdf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The regularized lower incomplete gamma function ``P(df/2, y/2)``."""
    return gammainc(*_half("chi2.cdf", x, df, loc, scale))


def logcdf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The log of the CDF."""
    return ju.log(cdf(x, df, loc, scale))


def sf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The survival function ``Q(df/2, y/2)``."""
    return gammaincc(*_half("chi2.sf", x, df, loc, scale))


def logsf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The log of the survival function."""
    return ju.log(sf(x, df, loc, scale))
