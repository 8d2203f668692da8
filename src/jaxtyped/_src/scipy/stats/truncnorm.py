"""The normal distribution truncated to ``[a, b]`` (in standard units:
the bounds of ``(x - loc)/scale``; JAX's ``jax.scipy.stats.truncnorm``).
Every function is NaN for ``a >= b``."""

import math

from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.creation import ones_like
from jaxtyped._src.numpy.index_functions import select
from jaxtyped._src.numpy.manipulation import broadcast_arrays
from jaxtyped._src.numpy.promotion import promote_args_inexact
from jaxtyped._src.numpy.shape_ops import stack
from jaxtyped._src.scipy import norm
from jaxtyped._src.scipy.special import log_ndtr, logsumexp, ndtr
from jaxtyped._src.scipy.stats._util import invalid, outside, standardize

__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf"]


def _log_sub_exp(x: Array, y: Array) -> Array:
    """``log(exp(x) - exp(y))`` (NaN where ``y > x``)."""
    return logsumexp(stack([x, y]), axis=0, b=stack([ones_like(x), ju.negative(ones_like(y))]))


def _log_mass(lower: Array, upper: Array) -> Array:
    """The log of the standard normal probability of ``[lower, upper]``:
    from the lower tail when the interval is on one side of 0 (mirrored
    into the left tail), else ``log1p(-ndtr(lower) - ndtr(-upper))``."""
    lower, upper = broadcast_arrays(lower, upper)
    left = ju.less_equal(upper, 0)
    right = ju.greater(lower, 0)
    central = ju.logical_not(ju.logical_or(left, right))
    tail_lower = ju.where(right, ju.negative(upper), lower)
    tail_upper = ju.where(right, ju.negative(lower), upper)
    tail = _log_sub_exp(log_ndtr(tail_upper), log_ndtr(tail_lower))
    middle = ju.log1p(ju.subtract(ju.negative(ndtr(lower)), ndtr(ju.negative(upper))))
    return ju.where(central, middle, tail)


def logpdf(x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The normal log density less the log of the mass of ``[a, b]``;
    ``-inf`` outside ``[a, b]``."""
    v, lower, upper, lo, s = promote_args_inexact("truncnorm.logpdf", x, a, b, loc, scale)
    value = ju.subtract(norm.logpdf(v, lo, s), _log_mass(lower, upper))
    z = standardize(v, lo, s)
    value = outside(ju.logical_or(ju.less(z, lower), ju.greater(z, upper)), value)
    return invalid(ju.greater_equal(lower, upper), value)


def pdf(x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The density."""
    return ju.exp(logpdf(x, a, b, loc, scale))


def logcdf(x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``log(mass[a, z] / mass[a, b])`` for ``z = (x - loc)/scale``, from the
    upper mass ``log1p(-mass[z, b]/mass[a, b])`` where that is more accurate
    (the CDF above ``exp(-0.1)``); ``0`` from ``b`` on, ``-inf`` up to ``a``.
    NaN for a NaN ``x`` (JAX gives 0 there)."""
    v, lower, upper, lo, s = promote_args_inexact("truncnorm.logcdf", x, a, b, loc, scale)
    v, lower, upper = broadcast_arrays(v, lower, upper)
    z = standardize(v, lo, s)
    total = _log_mass(lower, upper)
    below = ju.subtract(_log_mass(lower, z), total)
    above = ju.subtract(_log_mass(z, upper), total)
    value = select(
        [ju.greater_equal(z, upper), ju.less_equal(z, lower), ju.greater(below, -0.1), ju.greater(z, lower)],
        [0.0, -math.inf, ju.log1p(ju.negative(ju.exp(above))), below],
        math.nan,
    )
    return invalid(ju.greater_equal(lower, upper), value)


def cdf(x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The CDF."""
    return ju.exp(logcdf(x, a, b, loc, scale))


def logsf(x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The log survival function: the log CDF of the mirrored distribution."""
    v, lower, upper, lo, s = promote_args_inexact("truncnorm.logsf", x, a, b, loc, scale)
    return logcdf(ju.negative(v), ju.negative(upper), ju.negative(lower), ju.negative(lo), s)


def sf(x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The survival function."""
    return ju.exp(logsf(x, a, b, loc, scale))
