"""The logistic distribution (JAX's ``jax.scipy.stats.logistic``)."""

from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.promotion import promote_args_inexact
from jaxtyped._src.scipy.special import expit, logit

__all__ = ["logpdf", "pdf", "cdf", "sf", "ppf", "isf"]


def logpdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``-2 logaddexp(z/2, -z/2) - log(scale)`` for ``z = (x - loc)/scale``
    (stable in both tails)."""
    v, mu, s = promote_args_inexact("logistic.logpdf", x, loc, scale)
    half = ju.divide(ju.divide(ju.subtract(v, mu), s), 2.0)
    return ju.subtract(ju.multiply(-2.0, ju.logaddexp(half, ju.negative(half))), ju.log(s))


def pdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The density."""
    return ju.exp(logpdf(x, loc, scale))


def cdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``expit((x - loc)/scale)``."""
    v, mu, s = promote_args_inexact("logistic.cdf", x, loc, scale)
    return expit(ju.divide(ju.subtract(v, mu), s))


def sf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``expit(-(x - loc)/scale)``."""
    v, mu, s = promote_args_inexact("logistic.sf", x, loc, scale)
    return expit(ju.negative(ju.divide(ju.subtract(v, mu), s)))


def ppf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The quantile ``loc + scale * logit(x)``."""
    q, mu, s = promote_args_inexact("logistic.ppf", x, loc, scale)
    return ju.add(ju.multiply(logit(q), s), mu)


def isf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The inverse survival function ``loc - scale * logit(x)``."""
    q, mu, s = promote_args_inexact("logistic.isf", x, loc, scale)
    return ju.add(ju.multiply(ju.negative(logit(q)), s), mu)
