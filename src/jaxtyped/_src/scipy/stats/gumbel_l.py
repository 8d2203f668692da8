"""The left-skewed Gumbel distribution (of the minimum; JAX's
``jax.scipy.stats.gumbel_l``): CDF ``1 - exp(-exp(z))``, ``z = (x - loc)/scale``.
Every function is NaN for a non-positive ``scale``."""

from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.promotion import promote_args_inexact
from jaxtyped._src.scipy.special import xlog1py, xlogy
from jaxtyped._src.scipy.stats._util import invalid, location_scale, standardize

__all__ = ["logpdf", "pdf", "logcdf", "cdf", "ppf", "sf", "logsf"]


def logpdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``z - exp(z) - log(scale)``."""
    v, lo, s, bad = location_scale("gumbel_l.logpdf", x, loc, scale)
    z = standardize(v, lo, s)
    return invalid(bad, ju.add(xlogy(-1, s), ju.subtract(z, ju.exp(z))))


def pdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The density."""
    return ju.exp(logpdf(x, loc, scale))


def logcdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``log(1 - exp(-exp(z)))``."""
    v, lo, s, bad = location_scale("gumbel_l.logcdf", x, loc, scale)
    z = standardize(v, lo, s)
    return invalid(bad, ju.log(ju.negative(ju.expm1(ju.negative(ju.exp(z))))))


def cdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The CDF."""
    return ju.exp(logcdf(x, loc, scale))


def ppf(p: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``loc + scale log(-log(1 - p))`` for ``p`` in ``(0, 1)``, NaN elsewhere."""
    q, lo, s = promote_args_inexact("gumbel_l.ppf", p, loc, scale)
    value = ju.add(lo, ju.multiply(s, ju.log(xlog1py(-1, ju.negative(q)))))
    return invalid(ju.logical_not(ju.logical_and(ju.greater(q, 0), ju.less(q, 1))), value)


def logsf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``-exp(z)``."""
    v, lo, s, bad = location_scale("gumbel_l.logsf", x, loc, scale)
    return invalid(bad, ju.negative(ju.exp(standardize(v, lo, s))))


def sf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The survival function."""
    return ju.exp(logsf(x, loc, scale))
