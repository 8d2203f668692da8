"""The Laplace (double exponential) distribution (JAX's
``jax.scipy.stats.laplace``)."""

from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.promotion import promote_args_inexact

__all__ = ["logpdf", "pdf", "cdf"]


def logpdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``-|x - loc|/scale - log(2 scale)``."""
    v, mu, s = promote_args_inexact("laplace.logpdf", x, loc, scale)
    return ju.negative(ju.add(ju.divide(ju.abs(ju.subtract(v, mu)), s), ju.log(ju.multiply(2.0, s))))


def pdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The density."""
    return ju.exp(logpdf(x, loc, scale))


def cdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``exp(z)/2`` for ``z = (x - loc)/scale <= 0``, ``1 - exp(-z)/2`` above."""
    v, mu, s = promote_args_inexact("laplace.cdf", x, loc, scale)
    z = ju.divide(ju.subtract(v, mu), s)
    return ju.where(ju.less_equal(z, 0), ju.multiply(0.5, ju.exp(z)), ju.subtract(1.0, ju.multiply(0.5, ju.exp(ju.negative(z)))))
