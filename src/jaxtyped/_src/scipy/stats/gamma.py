"""The gamma distribution with shape ``a`` (JAX's ``jax.scipy.stats.gamma``)."""

from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.promotion import promote_args_inexact
from jaxtyped._src.scipy.special import gammainc, gammaincc, gammaln, xlogy

__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf"]


def logpdf(x: ArrayLike, a: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``(a-1) log y - y - gammaln(a) - log(scale)`` for ``y = (x - loc)/scale
    >= 0``, ``-inf`` below ``loc``."""
    v, shape, lo, s = promote_args_inexact("gamma.logpdf", x, a, loc, scale)
    inside = ju.greater_equal(v, lo)
    y = ju.where(inside, ju.divide(ju.subtract(v, lo), s), 1.0)  # 1 keeps log finite off the support
    value = ju.subtract(ju.subtract(xlogy(ju.subtract(shape, 1.0), y), y), ju.add(gammaln(shape), ju.log(s)))
    return ju.where(inside, value, -float("inf"))


def pdf(x: ArrayLike, a: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The density."""
    return ju.exp(logpdf(x, a, loc, scale))


def cdf(x: ArrayLike, a: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The regularized lower incomplete gamma function of ``(x - loc)/scale``
    (clamped at 0)."""
    v, shape, lo, s = promote_args_inexact("gamma.cdf", x, a, loc, scale)
    return gammainc(shape, ju.clip(ju.divide(ju.subtract(v, lo), s), 0.0, float("inf")))


def logcdf(x: ArrayLike, a: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The log of the CDF."""
    return ju.log(cdf(x, a, loc, scale))


def sf(x: ArrayLike, a: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The survival function: the upper incomplete gamma function, ``1`` below ``loc``."""
    v, shape, lo, s = promote_args_inexact("gamma.sf", x, a, loc, scale)
    y = ju.divide(ju.subtract(v, lo), s)
    return ju.where(ju.less(y, 0), 1.0, gammaincc(shape, y))


def logsf(x: ArrayLike, a: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The log of the survival function."""
    return ju.log(sf(x, a, loc, scale))
