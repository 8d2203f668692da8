"""``jaxtyped.scipy.stats.norm`` (layer L5): the normal distribution with
``loc`` and ``scale``, composed as JAX composes it (so values, dtypes and
derivatives agree)."""

import math

import numpy as np

from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.lax import arithmetic as la
from jaxtyped._src.lax import transcendental as lt
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.lax.util import constant_like_scalar
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.creation import asarray
from jaxtyped._src.numpy.promotion import promote_args_inexact
from jaxtyped._src.scipy import special

__all__ = ["logpdf", "pdf", "cdf", "logcdf", "ppf", "sf", "logsf", "isf"]


def logpdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The log of the normal density at ``x``."""
    v, mu, sigma = promote_args_inexact("norm.logpdf", x, loc, scale)
    variance = la.mul(sigma, sigma)
    log_normalizer = lt.log(ju.multiply(constant_like_scalar(v, 2 * math.pi), variance))
    centred = ju.subtract(v, mu)
    quadratic = ju.divide(ju.multiply(centred, centred), variance)
    return ju.divide(ju.add(log_normalizer, quadratic), constant_like_scalar(v, -2))


def pdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The normal density at ``x``."""
    return lt.exp(logpdf(x, loc, scale))


def cdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The normal CDF at ``x``."""
    v, mu, sigma = promote_args_inexact("norm.cdf", x, loc, scale)
    return special.ndtr(ju.divide(ju.subtract(v, mu), sigma))


def logcdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The log of the normal CDF at ``x`` (accurate in both tails)."""
    v, mu, sigma = promote_args_inexact("norm.logcdf", x, loc, scale)
    return special.log_ndtr(ju.divide(ju.subtract(v, mu), sigma))


def ppf(q: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The quantile function (inverse CDF) at ``q``; the result has the
    default float dtype, as in JAX."""
    value = ju.add(ju.multiply(special.ndtri(q), scale), loc)
    target = asarray(np.zeros((), float)).dtype
    return convert_to(value, target, weak_type=False)


def sf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The survival function ``1 - cdf`` at ``x``."""
    v, mu, sigma = promote_args_inexact("norm.sf", x, loc, scale)
    return cdf(la.neg(v), la.neg(mu), sigma)


def logsf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The log of the survival function at ``x``."""
    v, mu, sigma = promote_args_inexact("norm.logsf", x, loc, scale)
    return logcdf(la.neg(v), la.neg(mu), sigma)


def isf(q: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The inverse survival function at ``q``."""
    # Not promoted first (as in JAX): integer q reaches ndtri, which rejects it.
    p = asarray(q)
    return ppf(la.sub(constant_like_scalar(p, 1), p), loc, scale)
