"""The right-skewed Gumbel distribution (of the maximum; JAX's
``jax.scipy.stats.gumbel_r``): CDF ``exp(-exp(-z))``, ``z = (x - loc)/scale``.
Every function but ``ppf`` is NaN for a non-positive ``scale``."""

from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.nn.functions import log1mexp
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.promotion import promote_args_inexact
from jaxtyped._src.scipy.special import xlogy
from jaxtyped._src.scipy.stats._util import invalid, location_scale, standardize

__all__ = ["logpdf", "pdf", "logcdf", "cdf", "ppf", "sf", "logsf"]


def logpdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``-(z + exp(-z)) - log(scale)``."""
    v, lo, s, bad = location_scale("gumbel_r.logpdf", x, loc, scale)
    z = standardize(v, lo, s)
    return invalid(bad, ju.add(xlogy(-1, s), ju.negative(ju.add(z, ju.exp(ju.negative(z))))))


def pdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The density."""
    return ju.exp(logpdf(x, loc, scale))


def logcdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``-exp(-z)``."""
    v, lo, s, bad = location_scale("gumbel_r.logcdf", x, loc, scale)
    return invalid(bad, ju.negative(ju.exp(ju.negative(standardize(v, lo, s)))))


def cdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The CDF."""
    return ju.exp(logcdf(x, loc, scale))


def ppf(p: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``loc - scale log(-log p)`` for ``p`` in ``(0, 1)``, NaN elsewhere."""
    q, lo, s = promote_args_inexact("gumbel_r.ppf", p, loc, scale)
    value = ju.subtract(lo, ju.multiply(s, ju.log(xlogy(-1, q))))
    return invalid(ju.logical_not(ju.logical_and(ju.greater(q, 0), ju.less(q, 1))), value)


def sf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``1 - exp(-exp(-z))``."""
    v, lo, s, bad = location_scale("gumbel_r.sf", x, loc, scale)
    return invalid(bad, ju.subtract(1.0, ju.exp(ju.negative(ju.exp(standardize(lo, v, s))))))


def logsf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``log(1 - exp(-exp(-z)))``, accurate in both tails."""
    v, lo, s, bad = location_scale("gumbel_r.logsf", x, loc, scale)
    return invalid(bad, log1mexp(ju.exp(standardize(lo, v, s))))
