"""The beta distribution with shapes ``a`` and ``b`` on ``[loc, loc + scale]``
(JAX's ``jax.scipy.stats.beta``)."""

from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.lax.elementwise_extra import clamp
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.promotion import promote_args_inexact
from jaxtyped._src.scipy.special import betainc, betaln, xlog1py, xlogy
from jaxtyped._src.scipy.stats._util import either, invalid, outside, standardize

__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf"]


def logpdf(x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``(a-1) log y + (b-1) log(1-y) - betaln(a, b) - log(scale)`` for
    ``y = (x - loc)/scale`` in ``[0, 1]``, ``-inf`` outside; NaN unless
    ``a``, ``b`` and ``scale`` are positive."""
    v, p, q, lo, s = promote_args_inexact("beta.logpdf", x, a, b, loc, scale)
    y = standardize(v, lo, s)
    kernel = ju.add(xlogy(ju.subtract(p, 1.0), y), xlog1py(ju.subtract(q, 1.0), ju.negative(y)))
    value = ju.subtract(ju.add(ju.negative(betaln(p, q)), kernel), ju.log(s))
    value = outside(ju.logical_or(ju.greater(v, ju.add(lo, s)), ju.less(v, lo)), value)
    return invalid(either(ju.less_equal(p, 0), ju.less_equal(q, 0), ju.less_equal(s, 0)), value)


def pdf(x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The density."""
    return ju.exp(logpdf(x, a, b, loc, scale))


def _unit(name: str, x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike, scale: ArrayLike) -> tuple[Array, Array, Array]:
    v, p, q, lo, s = promote_args_inexact(name, x, a, b, loc, scale)
    return clamp(0.0, standardize(v, lo, s), 1.0), p, q


def cdf(x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The regularized incomplete beta function ``I_y(a, b)`` of ``y``
    clamped to ``[0, 1]``."""
    y, p, q = _unit("beta.cdf", x, a, b, loc, scale)
    return betainc(p, q, y)


def logcdf(x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The log of the CDF."""
    return ju.log(cdf(x, a, b, loc, scale))


def sf(x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The survival function ``I_{1-y}(b, a)``."""
    y, p, q = _unit("beta.sf", x, a, b, loc, scale)
    return betainc(q, p, ju.subtract(1.0, y))


def logsf(x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The log of the survival function."""
    return ju.log(sf(x, a, b, loc, scale))
